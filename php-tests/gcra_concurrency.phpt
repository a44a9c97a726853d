--TEST--
GcraRateLimiter under contention: 8 processes x 200 attempts on one key, limit 100 (maxBurst 99, one per 100000 s), exactly 100 accepted
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
$accepted = rl_hammer(function () use ($prefix) {
    static $limiter;
    $limiter ??= new GcraRateLimiter(RL_URL, $prefix, 99, 1, 100000);
    return $limiter->isAllowed('one-key');
});
echo "accepted: $accepted\n";
// The TAT is 100 intervals (10^7 s) ahead of the first request: the whole
// tolerance is used, and not a microsecond more was pushed by the denials.
$state = (new GcraRateLimiter(RL_URL, $prefix, 99, 1, 100000))->throttle('one-key', 0);
[$limited, $limit, $remaining, $retry, $reset] = $state;
echo "peek: limited=$limited limit=$limit remaining=$remaining retry=$retry reset within 5 s of 10^7 s: ",
    var_export($reset > 10000000 - 5 && $reset <= 10000000, true), "\n";
?>
--EXPECT--
accepted: 100
peek: limited=0 limit=100 remaining=0 retry=-1 reset within 5 s of 10^7 s: true
