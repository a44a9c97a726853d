--TEST--
TokenBucketRateLimiter refills continuously and keeps fractions of a token, also across denied calls
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';

// 4 tokens/s: 0.375 s brings 1.5 tokens. Every step measures the time that
// really passed; a run in which this machine stalled a step past its slack
// (a busy CI host) proves nothing, so it runs again on a fresh key (3 tries).
rl_retry(function (RlTimeline $clock, int $try) {
    $id = "try$try";
    $redis = rl_redis();
    $limiter = new TokenBucketRateLimiter(RL_URL, rl_prefix(), 5, 4);
    $key = rl_prefix() . ":$id";
    $state = fn() => unpack('etokens/ets', $redis->get($key));
    $since = [$clock, 'end']; // at least the refill time the server saw

    $r = $limiter->consume($id, 5);
    echo "drained: ", var_export($r->allowed, true), " remaining {$r->remaining}, full again in {$r->resetAfter} s\n";
    $ttl = $redis->pttl($key);
    $s = $since();
    echo "stored tokens: ", $state()['tokens'], ", TTL the time to full: ", var_export($ttl <= 1250 && $ttl >= 1249 - $s * 1000, true), "\n";
    $d = $limiter->consume($id);
    $s = $since();
    printf("next: %s, retryAfter 0.25 s less the time since: %s, resetAfter 1.25 s less it: %s\n", var_export($d->allowed, true),
        var_export($d->retryAfter <= 0.25 && $d->retryAfter >= 0.25 - $s, true),
        var_export($d->resetAfter <= 1.25 && $d->resetAfter >= 1.25 - $s, true));

    $clock->at($clock->end() + 0.375); // 0.375 s after the last call: at least that much on the server
    $p = $limiter->peek($id);
    $clock->by(0.47); // 2 whole tokens at 0.5 s
    echo "after 0.375 s: peek remaining {$p->remaining} (1.5 tokens)\n";
    $d = $limiter->consume($id, 2);
    printf("cost 2 denied: %s, retryAfter at most 0.125 s: %s\n", var_export(!$d->allowed, true),
        var_export($d->retryAfter > 0.0 && $d->retryAfter <= 0.125, true));
    $r = $limiter->consume($id);
    $clock->by(0.47);
    echo "cost 1: ", var_export($r->allowed, true), " remaining {$r->remaining}\n";
    $s = $state(); // 5 - 6 taken + 4 x elapsed: 0.5 plus the little time over 0.375 s
    printf("stored tokens: the half kept: %s\n", var_export($s['tokens'] >= 0.5 && $s['tokens'] <= 4 * $since() - 1, true));
    $ttl = $redis->pttl($key);
    printf("TTL: time to full (4.5 tokens = 1.125 s) or less: %s\n", var_export($ttl <= 1125 && $ttl > 1000, true));

    $clock->at($clock->end() + 0.375);
    $p = $limiter->peek($id);
    $clock->by(0.97); // tokens = 4 x elapsed - 1
    echo "after another 0.375 s: peek remaining {$p->remaining} (0.5 kept + 1.5)\n";
    printf("resetAfter at most 0.75 s: %s\n", var_export($p->resetAfter > 0.5 && $p->resetAfter <= 0.75, true));
    echo "peek wrote nothing: ", var_export($state() == $s, true), "\n";
}, 0.09);
?>
--EXPECT--
drained: true remaining 0, full again in 1.25 s
stored tokens: 0, TTL the time to full: true
next: false, retryAfter 0.25 s less the time since: true, resetAfter 1.25 s less it: true
after 0.375 s: peek remaining 1 (1.5 tokens)
cost 2 denied: true, retryAfter at most 0.125 s: true
cost 1: true remaining 0
stored tokens: the half kept: true
TTL: time to full (4.5 tokens = 1.125 s) or less: true
after another 0.375 s: peek remaining 2 (0.5 kept + 1.5)
resetAfter at most 0.75 s: true
peek wrote nothing: true
