--TEST--
FixedWindowRateLimiter under contention: 8 processes x 200 attempts on one key, limit 100, exactly 100 accepted
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
$accepted = rl_hammer(function () use ($prefix) {
    static $limiter;
    $limiter ??= new FixedWindowRateLimiter(RL_URL, $prefix, 60, 100);
    return $limiter->isAllowed('one-key');
});
echo "accepted: $accepted\n";
echo "counter in Redis: ", rl_redis()->get("$prefix:one-key"), "\n";
?>
--EXPECT--
accepted: 100
counter in Redis: 100
