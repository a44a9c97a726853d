--TEST--
SlidingWindowRateLimiter: every key it writes has a TTL of at most the time its state matters (window + at most 1 s), and expires
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
    $ok = $ttl > 0 && $ttl <= $window * 1000 + 1000 || ($window < 0.01 && $ttl === -2);
    printf("%-18s PTTL in (0, %d]: %s\n", $name, $window * 1000 + 1000, $ok ? 'yes' : "no ($ttl)");
}
echo "-- the log's TTL is exactly one window (rounded up to ms) after its newest write\n";
$limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix('exact'), 2.5, 10);
$t = microtime(true);
$limiter->isAllowed();
$ttl = $redis->pttl(rl_prefix('exact'));
$elapsed = (microtime(true) - $t) * 1000; // what the TTL may have lost meanwhile
var_dump($ttl <= 2500 && $ttl >= 2500 - $elapsed - 2);
echo "-- short windows really expire: both kinds of key are gone once their state no longer matters\n";
$log = new SlidingWindowRateLimiter(RL_URL, rl_prefix('short'), 0.5, 10);
$blk = new SlidingWindowRateLimiter(RL_URL, rl_prefix('short'), 0.5, 10, 2); // slice 0.25 s: TTL at most 0.75 s
$log->isAllowed('log');
$blk->isAllowed('blocks');
var_dump($redis->exists(rl_prefix('short') . ':log', rl_prefix('short') . ':blocks'));
usleep(800000);
var_dump($redis->exists(rl_prefix('short') . ':log', rl_prefix('short') . ':blocks'));
?>
--EXPECT--
log 60 s           PTTL in (0, 61000]: yes
blocks 60 s / 60   PTTL in (0, 61000]: yes
log 2.5 s          PTTL in (0, 3500]: yes
blocks 2 s / 3     PTTL in (0, 3000]: yes
log 1 ms           PTTL in (0, 1001]: yes
-- the log's TTL is exactly one window (rounded up to ms) after its newest write
bool(true)
-- short windows really expire: both kinds of key are gone once their state no longer matters
int(2)
int(0)
