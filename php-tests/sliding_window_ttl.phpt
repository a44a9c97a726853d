--TEST--
SlidingWindowRateLimiter TTLs for windows from 1 ms to 60 s, log and blocks: at most the time the state matters (window + at most 1 s); the log's is exactly one window after its newest write
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
$cases = [
    'log 60 s' => [60, 0],
    'blocks 60 s / 60' => [60, 60],   // slice 1 s: the newest slice matters up to 61 s
    'log 2.5 s' => [2.5, 0],
    'blocks 2 s / 3' => [2, 3],
    'log 1 ms' => [0.001, 0],
];
foreach ($cases as $name => [$window, $blocks]) {
    $limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix(), $window, 10, $blocks);
    $limiter->isAllowed($name);
    $ttl = $redis->pttl(rl_prefix() . ":$name");
    // A 1 ms key may have 0 ms left (PTTL 0) or be gone already (-2) when PTTL
    // reads it; what must never be is no TTL at all (-1).
    $ok = $ttl <= $window * 1000 + 1000 && ($window < 0.01 ? $ttl !== -1 : $ttl > 0);
    printf("%-18s PTTL in (0, %d]: %s\n", $name, $window * 1000 + 1000, $ok ? 'yes' : "no ($ttl)");
}
echo "-- the log's TTL is exactly one window (rounded up to ms) after its newest write\n";
$limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix('exact'), 2.5, 10);
$t = microtime(true);
$limiter->isAllowed();
$ttl = $redis->pttl(rl_prefix('exact'));
$elapsed = (microtime(true) - $t) * 1000; // what the TTL may have lost meanwhile
var_dump($ttl <= 2500 && $ttl >= 2500 - $elapsed - 2);
// That short windows really expire, in both modes, is in every_class_keys_ttl.phpt.
?>
--EXPECT--
log 60 s           PTTL in (0, 61000]: yes
blocks 60 s / 60   PTTL in (0, 61000]: yes
log 2.5 s          PTTL in (0, 3500]: yes
blocks 2 s / 3     PTTL in (0, 3000]: yes
log 1 ms           PTTL in (0, 1001]: yes
-- the log's TTL is exactly one window (rounded up to ms) after its newest write
bool(true)
