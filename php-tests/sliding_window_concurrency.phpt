--TEST--
SlidingWindowRateLimiter log mode under contention: 8 processes x 200 attempts on one key, limit 100, exactly 100 accepted and 100 entries
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
$accepted = rl_hammer(function () use ($prefix) {
    static $limiter;
    $limiter ??= new SlidingWindowRateLimiter(RL_URL, $prefix, 60, 100);
    return $limiter->isAllowed('one-key');
});
$redis = rl_redis();
echo "accepted: $accepted\n";
echo "entries in the log: ", $redis->zCount("$prefix:one-key", '0', '+inf'), "\n";
echo "sequence member: ", $redis->zScore("$prefix:one-key", ''), "\n";
?>
--EXPECT--
accepted: 100
entries in the log: 100
sequence member: -100
