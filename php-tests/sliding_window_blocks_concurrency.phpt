--TEST--
SlidingWindowRateLimiter blocks mode under contention: 8 processes x 200 attempts on one key, limit 100, exactly 100 accepted
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
$accepted = rl_hammer(function () use ($prefix) {
    static $limiter;
    $limiter ??= new SlidingWindowRateLimiter(RL_URL, $prefix, 60, 100, 6);
    return $limiter->isAllowed('one-key');
});
echo "accepted: $accepted\n";
echo "counted in the slices: ", array_sum(rl_redis()->hGetAll("$prefix:one-key")), "\n";
?>
--EXPECT--
accepted: 100
counted in the slices: 100
