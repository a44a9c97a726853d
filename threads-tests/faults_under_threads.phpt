--TEST--
Threads: Redis failing under 16 threads (CLIENT KILL, a restart, a stall longer than the timeout): no crash, every call decides or raises RateLimiterException, and all threads recover without a restart of the process
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis();
$port = $server['port'];
$stop = sys_get_temp_dir() . '/rl-threads-stop-' . getmypid();
$out = tempnam(sys_get_temp_dir(), 'rl-threads-out-');
$err = tempnam(sys_get_temp_dir(), 'rl-threads-err-');
$cmd = rl_threads_command(__DIR__ . '/workers/faults.php', 16, 400, ['port' => $port, 'stop' => $stop],
    ['ratelimit.timeout' => '0.3', 'ratelimit.connect_timeout' => '0.3', 'ratelimit.retry_interval' => '0']);
$proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']], $pipes);
usleep(1000000);
// 1. The server drops every client connection but this test's own.
rl_redis($port)->rawCommand('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
usleep(1000000);
// 2. A restart on the same port (its data gone).
rl_stop_redis($server, false);
$server = rl_start_redis([], $port, $server['dir']);
usleep(1000000);
// 3. A stall of 1.5 s, five times the reply timeout.
posix_kill($server['pid'], SIGSTOP);
usleep(1500000);
posix_kill($server['pid'], SIGCONT);
// Every request that starts from a second after the last fault must decide every call.
$recovered = microtime(true) + 1.0;
usleep(2500000);
touch($stop);
$status = proc_close($proc);
echo "exit status of the threaded process: $status\n";
echo 'its stderr: ', json_encode(file_get_contents($err)), "\n";
$lines = explode("\n", rtrim(file_get_contents($out), "\n"));
$decided = $raised = $other = 0;
$after = ['requests' => 0, 'raised' => 0, 'threads' => []];
foreach (rl_tagged($lines, 'req') as [$t, $r, $started, $d, $x, $o]) {
    $decided += $d; $raised += $x; $other += $o;
    if ((float) $started >= $recovered) {
        $after['requests']++;
        $after['raised'] += $x;
        $after['threads'][$t] = true;
    }
}
echo 'calls that decided: ', $decided > 10000 ? 'many' : $decided, "\n";
echo 'calls that raised RateLimiterException: ', $raised > 0 ? 'some (the faults were felt)' : 'none (the faults did not bite)', "\n";
echo "calls that ended any other way: $other\n";
echo 'after recovery: ', $after['requests'] >= 16 ? 'requests' : "{$after['requests']} requests", ' in ', count($after['threads']), " threads, raised {$after['raised']}\n";
echo 'anything else printed: ', json_encode(array_slice(rl_untagged($lines, ['req', 'why']), 0, 5)), "\n";
foreach (rl_tagged($lines, 'why') as $w) if ((float) $w[0] >= $recovered) echo 'after recovery: ', implode(' ', array_slice($w, 1)), "\n";
rl_stop_redis($server);
@unlink($stop); @unlink($out); @unlink($err);
?>
--EXPECT--
exit status of the threaded process: 0
its stderr: ""
calls that decided: many
calls that raised RateLimiterException: some (the faults were felt)
calls that ended any other way: 0
after recovery: requests in 16 threads, raised 0
anything else printed: []
