--TEST--
TokenBucketRateLimiter refills continuously and keeps fractions of a token, also across denied calls
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
$key = rl_prefix() . ':a';
// 4 tokens/s: 0.375 s brings 1.5 tokens, with 125 ms of slack before 2.
$limiter = new TokenBucketRateLimiter(RL_URL, rl_prefix(), 5, 4);
$state = fn() => unpack('etokens/ets', $redis->get($key));

$r = $limiter->consume('a', 5);
echo "drained: ", var_export($r->allowed, true), " remaining {$r->remaining}, full again in {$r->resetAfter} s\n";
$ttl = $redis->pttl($key);
echo "stored tokens: ", $state()['tokens'], ", TTL the time to full (1.25 s): ", var_export($ttl <= 1250 && $ttl > 1200, true), "\n";
$d = $limiter->consume('a');
printf("next: %s, retryAfter %s, resetAfter %s\n", var_export($d->allowed, true),
    var_export($d->retryAfter > 0.23 && $d->retryAfter <= 0.25, true),
    var_export($d->resetAfter > 1.23 && $d->resetAfter <= 1.25, true));

usleep(375000);
$p = $limiter->peek('a');
echo "after 0.375 s: peek remaining {$p->remaining} (1.5 tokens)\n";
$d = $limiter->consume('a', 2);
printf("cost 2 denied: %s, retryAfter about 0.125 s: %s\n", var_export(!$d->allowed, true),
    var_export($d->retryAfter > 0.0 && $d->retryAfter <= 0.125, true));
$r = $limiter->consume('a');
echo "cost 1: ", var_export($r->allowed, true), " remaining {$r->remaining}\n";
$s = $state();
printf("stored tokens: the half kept: %s\n", var_export($s['tokens'] >= 0.5 && $s['tokens'] < 0.6, true));
$ttl = $redis->pttl($key);
printf("TTL: time to full (4.5 tokens = 1.125 s), rounded up: %s\n", var_export($ttl <= 1125 && $ttl > 1000, true));

usleep(375000);
$p = $limiter->peek('a');
echo "after another 0.375 s: peek remaining {$p->remaining} (0.5 kept + 1.5)\n";
printf("resetAfter about 0.75 s: %s\n", var_export($p->resetAfter > 0.6 && $p->resetAfter <= 0.75, true));
echo "peek wrote nothing: ", var_export($state() == $s, true), "\n";
?>
--EXPECT--
drained: true remaining 0, full again in 1.25 s
stored tokens: 0, TTL the time to full (1.25 s): true
next: false, retryAfter true, resetAfter true
after 0.375 s: peek remaining 1 (1.5 tokens)
cost 2 denied: true, retryAfter about 0.125 s: true
cost 1: true remaining 0
stored tokens: the half kept: true
TTL: time to full (4.5 tokens = 1.125 s), rounded up: true
after another 0.375 s: peek remaining 2 (0.5 kept + 1.5)
resetAfter about 0.75 s: true
peek wrote nothing: true
