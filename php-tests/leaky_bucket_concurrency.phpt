--TEST--
LeakyBucketRateLimiter under contention: 8 processes x 200 attempts on one key, capacity 100, exactly 100 accepted
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
// 0.001 unit/s: the hammering is over long before one unit could leak out.
$accepted = rl_hammer(function () use ($prefix) {
    static $limiter;
    $limiter ??= new LeakyBucketRateLimiter(RL_URL, $prefix, 100, 0.001);
    return $limiter->isAllowed('one-key');
});
echo "accepted: $accepted\n";
$level = unpack('e', rl_redis()->get("$prefix:one-key"))[1];
echo "level in Redis just below 100: ", var_export($level > 99.99 && $level <= 100, true), "\n";
?>
--EXPECT--
accepted: 100
level in Redis just below 100: true
