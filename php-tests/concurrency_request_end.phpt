--TEST--
ConcurrencyLimiter: a permit the script never releases is freed at the request's end whatever ended it (a fatal error, an uncaught exception, exit(), max_execution_time); a process killed outright loses its permit when the lease ends, not before
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
$php = rl_php_shell(['ratelimit.redis_url' => RL_URL]);
$l = new ConcurrencyLimiter(RL_URL, $prefix, 4, 0.6);

$take = '$l = new ConcurrencyLimiter("' . $prefix . '", 4, 0.6); $p = $l->acquire("x"); fwrite(STDERR, "held " . $l->inFlight("x") . "\n");';
foreach ([
    'fatal error' => 'undefined_function();',
    'uncaught exception' => 'throw new RuntimeException("boom");',
    'exit()' => 'exit(3);',
    'max_execution_time' => 'set_time_limit(1); while (true) {}',
] as $how => $end) {
    $out = shell_exec("$php -r " . escapeshellarg($take . $end) . ' 2>&1');
    // Right after the process ends, well inside the 0.6 s lease: the slot is back.
    printf("%s: %s; in flight after: %d\n", $how, str_contains($out, 'held 1') ? 'held' : "not held: $out", $l->inFlight('x'));
}

// SIGKILL: no request shutdown runs; the lease (0.6 s, on the server's clock) ends it.
$killed = '$l = new ConcurrencyLimiter("' . $prefix . '", 4, 0.6); $p = $l->acquire("x"); posix_kill(getmypid(), SIGKILL);';
$start = hrtime(true);
shell_exec("$php -r " . escapeshellarg($killed) . ' 2>&1');
$after = (hrtime(true) - $start) / 1e9;
$held = $l->inFlight('x');
printf("killed: in flight right after: %s\n", $after < 0.5 ? $held : 'too slow to tell');
while ($l->inFlight('x') > 0 && (hrtime(true) - $start) / 1e9 < 3) usleep(20000);
$freed = (hrtime(true) - $start) / 1e9;
printf("killed: freed after the lease: %s\n", $freed >= 0.55 && $freed < 1.5 ? 'yes' : "no ($freed s)");

// A child made by fork() inherits the parent's list of permits, not the
// permits: its request's end (and its copies of the objects) free none of them.
$mine = $l->acquire('forked');
$pid = pcntl_fork();
if ($pid === 0) {
    exit(0); // the child's request shutdown runs here
}
pcntl_waitpid($pid, $status);
echo 'after a forked child ended: ', $l->inFlight('forked'), "\n";
$mine->release();
echo 'released by its own process: ', $l->inFlight('forked'), "\n";
?>
--EXPECT--
fatal error: held; in flight after: 0
uncaught exception: held; in flight after: 0
exit(): held; in flight after: 0
max_execution_time: held; in flight after: 0
killed: in flight right after: 1
killed: freed after the lease: yes
after a forked child ended: 1
released by its own process: 0
