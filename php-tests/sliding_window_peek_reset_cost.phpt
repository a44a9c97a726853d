--TEST--
SlidingWindowRateLimiter peek() writes nothing, reset() deletes the key, cost takes several units; in both modes
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
foreach (['log' => 0, 'blocks' => 4] as $mode => $blocks) {
    echo "== $mode\n";
    $limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix($mode), 60, 5, $blocks);
    $key = rl_prefix($mode) . ':u';
    $p = $limiter->peek('u');
    echo "peek on nothing: ", var_export($p->allowed, true), " remaining=$p->remaining resetAfter=$p->resetAfter; key exists: ", $redis->exists($key), "\n";
    $r = $limiter->consume('u', 3);
    echo "cost 3: ", var_export($r->allowed, true), " remaining=$r->remaining\n";
    $before = $redis->dump($key);
    $ttl = $redis->pttl($key);
    for ($i = 0; $i < 3; $i++) {
        $p = $limiter->peek('u');
    }
    echo "peek x3: ", var_export($p->allowed, true), " remaining=$p->remaining \$remaining=$limiter->remaining; key unchanged: ",
        var_export($redis->dump($key) === $before, true), "; TTL not extended: ", var_export($redis->pttl($key) <= $ttl, true), "\n";
    $r = $limiter->consume('u', 3);
    echo "cost 3 more: ", var_export($r->allowed, true), " remaining=$r->remaining; key unchanged: ", var_export($redis->dump($key) === $before, true), "\n";
    $r = $limiter->consume('u', 2);
    echo "cost 2: ", var_export($r->allowed, true), " remaining=$r->remaining\n";
    $p = $limiter->peek('u');
    echo "peek when full: ", var_export($p->allowed, true), " remaining=$p->remaining retryAfter>0: ", var_export($p->retryAfter > 0, true), "\n";
    rl_throws(fn () => $limiter->consume('u', 6));
    rl_throws(fn () => $limiter->isAllowed('u', 0));
    rl_throws(fn () => $limiter->access('u', -2));
    $limiter->reset('u');
    echo "after reset(): key exists: ", $redis->exists($key), ", \$remaining: ", var_export($limiter->remaining, true), "\n";
    $r = $limiter->consume('u', 5);
    echo "cost 5 (the whole limit) after reset: ", var_export($r->allowed, true), " remaining=$r->remaining\n";
}
?>
--EXPECT--
== log
peek on nothing: true remaining=5 resetAfter=0; key exists: 0
cost 3: true remaining=2
peek x3: true remaining=2 $remaining=2; key unchanged: true; TTL not extended: true
cost 3 more: false remaining=2; key unchanged: true
cost 2: true remaining=0
peek when full: false remaining=0 retryAfter>0: true
ValueError: SlidingWindowRateLimiter::consume(): Argument #2 ($cost) must be at most 5 (the limit), 6 given
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
after reset(): key exists: 0, $remaining: NULL
cost 5 (the whole limit) after reset: true remaining=0
== blocks
peek on nothing: true remaining=5 resetAfter=0; key exists: 0
cost 3: true remaining=2
peek x3: true remaining=2 $remaining=2; key unchanged: true; TTL not extended: true
cost 3 more: false remaining=2; key unchanged: true
cost 2: true remaining=0
peek when full: false remaining=0 retryAfter>0: true
ValueError: SlidingWindowRateLimiter::consume(): Argument #2 ($cost) must be at most 5 (the limit), 6 given
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
after reset(): key exists: 0, $remaining: NULL
cost 5 (the whole limit) after reset: true remaining=0
