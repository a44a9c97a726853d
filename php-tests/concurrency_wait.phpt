--TEST--
ConcurrencyLimiter::acquire() with $maxWait: a waiter is woken when a slot frees (not at the end of its wait), waiters are served in the order they came, a wait that sees no release returns null after $maxWait, and a lease that ends wakes a waiter too; on Redis and on memory://
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
$php = rl_php_shell(['ratelimit.redis_url' => RL_URL]);
$l = new ConcurrencyLimiter(RL_URL, $prefix, 1, 5.0);

// Three waiters start 100 ms apart while the one slot is held; each holds it 150 ms once it gets it.
$held = $l->acquire('w');
$waiter = fn (int $n) => '$l = new ConcurrencyLimiter("' . $prefix . '", 1, 5.0); $t = microtime(true);'
    . ' $p = $l->acquire("w", 3.0); echo ' . $n . ', " ", $p ? "got" : "none", " ", microtime(true), "\n"; usleep(150000);';
$procs = [];
foreach ([1, 2, 3] as $n) {
    $procs[$n] = popen("$php -r " . escapeshellarg($waiter($n)), 'r');
    usleep(100000);
}
$released = microtime(true);
$held->release();
$lines = [];
foreach ($procs as $p) {
    $lines[] = trim(stream_get_contents($p));
    pclose($p);
}
usort($lines, fn ($a, $b) => (float) explode(' ', $a)[2] <=> (float) explode(' ', $b)[2]);
foreach ($lines as $line) {
    [$n, $got, $at] = explode(' ', $line);
    // Each gets the slot when the one before frees it: well before its 3 s wait ends.
    printf("waiter %d %s %s\n", $n, $got, $at - $released < 1.5 ? 'soon' : 'late: ' . ($at - $released));
}

foreach ([RL_URL, 'memory://wait'] as $target) {
    $l = new ConcurrencyLimiter($target, $prefix, 1, 0.4);
    $held = $l->acquire('x');
    // Nobody releases: null after the wait, not before.
    $t = microtime(true);
    $none = $l->acquire('x', 0.15);
    $took = microtime(true) - $t;
    printf("%s: %s after %s\n", $target === RL_URL ? 'redis' : 'memory', var_export($none, true), $took >= 0.14 && $took < 0.35 ? 'the wait' : $took);
    // The lease ends (0.4 s) while we wait: the slot is ours then, not at
    // the wait's end (2 s); 0.919 s was seen at a load of 6.5.
    $t = microtime(true);
    $p = $l->acquire('x', 2.0);
    $took = microtime(true) - $t;
    printf("lease ended: %s after %s\n", $p ? 'got' : 'none', $took > 0.1 && $took < 1.5 ? 'the lease' : $took);
    unset($held);
}
?>
--EXPECT--
waiter 1 got soon
waiter 2 got soon
waiter 3 got soon
redis: NULL after the wait
lease ended: got after the lease
memory: NULL after the wait
lease ended: got after the lease
