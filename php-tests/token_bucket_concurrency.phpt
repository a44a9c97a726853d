--TEST--
TokenBucketRateLimiter under contention: 8 processes x 200 attempts on one key, capacity 100, exactly 100 accepted
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
// 0.001 token/s: the hammering is over long before a refill could add one token.
$accepted = rl_hammer(function () use ($prefix) {
    static $limiter;
    $limiter ??= new TokenBucketRateLimiter(RL_URL, $prefix, 100, 0.001);
    return $limiter->isAllowed('one-key');
});
echo "accepted: $accepted\n";
$tokens = unpack('e', rl_redis()->get("$prefix:one-key"))[1];
echo "tokens in Redis below one: ", var_export($tokens >= 0 && $tokens < 0.01, true), "\n";
?>
--EXPECT--
accepted: 100
tokens in Redis below one: true
