--TEST--
Every class, one table: allows the limit then denies with exact remaining; denied attempts and peek() write nothing; costs take several units; reset(); the default id; the whole RateLimitResult
--SKIPIF--
<?php $needs = ['redis']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
// Limit 3 over RL_SLOW (300 s): a window of 300 s, one unit back every 100 s
// in the buckets and GCRA, so nothing frees up while this runs. Times print
// as rl_seconds() gives them: rounded up to whole seconds.
foreach (rl_classes() as $kind => $c) {
    $secs = fn (float $t) => rl_seconds($kind, $t);
    $show = fn (RateLimitResult $r) => sprintf('%s remaining=%d retryAfter=%s resetAfter=%s delay=%s',
        $r->allowed ? 'allowed' : 'denied ', $r->remaining, $secs($r->retryAfter), $secs($r->resetAfter), $secs($r->delay));
    $p = rl_prefix($kind);
    $l = rl_long($kind, RL_URL, $p, 3);
    echo "== $kind: {$c['class']}\n";
    echo "\$remaining before any call: ", var_export($l->remaining, true), "\n";
    $seen = [];
    for ($i = 0; $i < 5; $i++) {
        $seen[] = ($l->isAllowed('user1') ? 'Y' : 'n') . $l->remaining;
    }
    echo implode(' ', $seen), "\n";
    echo "access() is isAllowed(): ", var_export($l->access('user1'), true), "\n";
    echo "another id has its own state: ", var_export($l->isAllowed('user2'), true), ' ', $l->remaining, "\n";
    $fresh = $l->consume('user3');
    if ($kind === 'fixed') {
        var_dump($fresh);   // the whole object once; its fields are the same for every class
    }
    echo "fresh:     limit={$fresh->limit} ", $show($fresh), "\n";
    echo "second:    ", $show($l->consume('user3')), "\n";
    $d = $l->consume('user1');
    echo "denied:    limit={$d->limit} ", $show($d), "\n";
    $h = $d->headers();
    echo "headers: limit {$h['X-RateLimit-Limit']} remaining {$h['X-RateLimit-Remaining']}, reset and Retry-After are the times rounded up: ",
        var_export($h['X-RateLimit-Reset'] === (int) ceil($d->resetAfter) && $h['Retry-After'] === (int) ceil($d->retryAfter), true), "\n";
    echo "denied attempts took nothing: ", rl_state($kind, $redis, "$p:user1", 3), "\n";

    $costs = [];
    foreach ([2, 2, 1, 1] as $cost) {
        $r = $l->consume('costly', $cost);
        $costs[] = "cost $cost: " . ($r->allowed ? 'Y' : 'n') . $r->remaining . ($r->allowed ? '' : ' retry ' . $secs($r->retryAfter));
    }
    echo implode(', ', $costs), "; stored: ", rl_state($kind, $redis, "$p:costly", 3), "\n";

    echo "-- peek() and denied calls write nothing\n";
    $key = "$p:user2";
    $dump = $redis->dump($key);
    $ttl = $redis->pttl($key);
    for ($i = 0; $i < 3; $i++) {
        $pk = $l->peek('user2');
    }
    echo "peek x3:   ", $show($pk), " \$remaining={$l->remaining}; key unchanged: ", var_export($redis->dump($key) === $dump, true),
        "; TTL not extended: ", var_export($redis->pttl($key) <= $ttl, true), "\n";
    echo "cost 3:    ", $show($l->consume('user2', 3)), "; key unchanged: ", var_export($redis->dump($key) === $dump, true), "\n";
    echo "cost 2:    ", $show($l->consume('user2', 2)), "\n";
    $pk = $l->peek('fresh');
    echo "peek, no key: ", $show($pk), " \$remaining={$l->remaining}; key made: ", $redis->exists("$p:fresh"), "\n";
    echo "peek, full:   ", $show($l->peek('user1')), "\n";

    echo "-- reset() deletes the key and \$remaining; then the whole limit fits at once\n";
    $l->reset('user1');
    echo "key: ", $redis->exists("$p:user1"), ", \$remaining: ", var_export($l->remaining, true), "\n";
    echo "cost 3:    ", $show($l->consume('user1', 3)), "\n";
    echo "cost 1:    ", $show($l->consume('user1')), "\n";
    echo "-- the interface default id '' uses the bare prefix as the key\n";
    echo var_export($l->isAllowed(), true), ', key: ', $redis->exists($p), ', ', rl_state($kind, $redis, $p, 3), "\n";
    echo "a RateLimiterInterface: ", var_export($l instanceof RateLimiterInterface, true), "\n";
}
?>
--EXPECTF--
== fixed: FixedWindowRateLimiter
$remaining before any call: NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own state: true 2
object(RateLimitResult)#%d (6) {
  ["allowed"]=>
  bool(true)
  ["limit"]=>
  int(3)
  ["remaining"]=>
  int(2)
  ["retryAfter"]=>
  float(0)
  ["resetAfter"]=>
  float(300)
  ["delay"]=>
  float(0)
}
fresh:     limit=3 allowed remaining=2 retryAfter=0 resetAfter=300 delay=0
second:    allowed remaining=1 retryAfter=0 resetAfter=300 delay=0
denied:    limit=3 denied  remaining=0 retryAfter=300 resetAfter=300 delay=0
headers: limit 3 remaining 0, reset and Retry-After are the times rounded up: true
denied attempts took nothing: counter '3'
cost 2: Y1, cost 2: n1 retry 300, cost 1: Y0, cost 1: n0 retry 300; stored: counter '3'
-- peek() and denied calls write nothing
peek x3:   allowed remaining=2 retryAfter=0 resetAfter=300 delay=0 $remaining=2; key unchanged: true; TTL not extended: true
cost 3:    denied  remaining=2 retryAfter=300 resetAfter=300 delay=0; key unchanged: true
cost 2:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
peek, no key: allowed remaining=3 retryAfter=0 resetAfter=0 delay=0 $remaining=3; key made: 0
peek, full:   denied  remaining=0 retryAfter=300 resetAfter=300 delay=0
-- reset() deletes the key and $remaining; then the whole limit fits at once
key: 0, $remaining: NULL
cost 3:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
cost 1:    denied  remaining=0 retryAfter=300 resetAfter=300 delay=0
-- the interface default id '' uses the bare prefix as the key
true, key: 1, counter '1'
a RateLimiterInterface: true
== sliding: SlidingWindowRateLimiter
$remaining before any call: NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own state: true 2
fresh:     limit=3 allowed remaining=2 retryAfter=0 resetAfter=300 delay=0
second:    allowed remaining=1 retryAfter=0 resetAfter=300 delay=0
denied:    limit=3 denied  remaining=0 retryAfter=300 resetAfter=300 delay=0
headers: limit 3 remaining 0, reset and Retry-After are the times rounded up: true
denied attempts took nothing: entries 3, sequence member -3.0
cost 2: Y1, cost 2: n1 retry 300, cost 1: Y0, cost 1: n0 retry 300; stored: entries 3, sequence member -3.0
-- peek() and denied calls write nothing
peek x3:   allowed remaining=2 retryAfter=0 resetAfter=300 delay=0 $remaining=2; key unchanged: true; TTL not extended: true
cost 3:    denied  remaining=2 retryAfter=300 resetAfter=300 delay=0; key unchanged: true
cost 2:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
peek, no key: allowed remaining=3 retryAfter=0 resetAfter=0 delay=0 $remaining=3; key made: 0
peek, full:   denied  remaining=0 retryAfter=300 resetAfter=300 delay=0
-- reset() deletes the key and $remaining; then the whole limit fits at once
key: 0, $remaining: NULL
cost 3:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
cost 1:    denied  remaining=0 retryAfter=300 resetAfter=300 delay=0
-- the interface default id '' uses the bare prefix as the key
true, key: 1, entries 1, sequence member -1.0
a RateLimiterInterface: true
== blocks: SlidingWindowRateLimiter
$remaining before any call: NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own state: true 2
fresh:     limit=3 allowed remaining=2 retryAfter=0 resetAfter=300+slice delay=0
second:    allowed remaining=1 retryAfter=0 resetAfter=300+slice delay=0
denied:    limit=3 denied  remaining=0 retryAfter=300+slice resetAfter=300+slice delay=0
headers: limit 3 remaining 0, reset and Retry-After are the times rounded up: true
denied attempts took nothing: counted in the slices 3
cost 2: Y1, cost 2: n1 retry 300+slice, cost 1: Y0, cost 1: n0 retry 300+slice; stored: counted in the slices 3
-- peek() and denied calls write nothing
peek x3:   allowed remaining=2 retryAfter=0 resetAfter=300+slice delay=0 $remaining=2; key unchanged: true; TTL not extended: true
cost 3:    denied  remaining=2 retryAfter=300+slice resetAfter=300+slice delay=0; key unchanged: true
cost 2:    allowed remaining=0 retryAfter=0 resetAfter=300+slice delay=0
peek, no key: allowed remaining=3 retryAfter=0 resetAfter=0 delay=0 $remaining=3; key made: 0
peek, full:   denied  remaining=0 retryAfter=300+slice resetAfter=300+slice delay=0
-- reset() deletes the key and $remaining; then the whole limit fits at once
key: 0, $remaining: NULL
cost 3:    allowed remaining=0 retryAfter=0 resetAfter=300+slice delay=0
cost 1:    denied  remaining=0 retryAfter=300+slice resetAfter=300+slice delay=0
-- the interface default id '' uses the bare prefix as the key
true, key: 1, counted in the slices 1
a RateLimiterInterface: true
== token: TokenBucketRateLimiter
$remaining before any call: NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own state: true 2
fresh:     limit=3 allowed remaining=2 retryAfter=0 resetAfter=100 delay=0
second:    allowed remaining=1 retryAfter=0 resetAfter=200 delay=0
denied:    limit=3 denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
headers: limit 3 remaining 0, reset and Retry-After are the times rounded up: true
denied attempts took nothing: tokens 0.00
cost 2: Y1, cost 2: n1 retry 100, cost 1: Y0, cost 1: n0 retry 100; stored: tokens 0.00
-- peek() and denied calls write nothing
peek x3:   allowed remaining=2 retryAfter=0 resetAfter=100 delay=0 $remaining=2; key unchanged: true; TTL not extended: true
cost 3:    denied  remaining=2 retryAfter=100 resetAfter=100 delay=0; key unchanged: true
cost 2:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
peek, no key: allowed remaining=3 retryAfter=0 resetAfter=0 delay=0 $remaining=3; key made: 0
peek, full:   denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
-- reset() deletes the key and $remaining; then the whole limit fits at once
key: 0, $remaining: NULL
cost 3:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
cost 1:    denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
-- the interface default id '' uses the bare prefix as the key
true, key: 1, tokens 2.00
a RateLimiterInterface: true
== leaky: LeakyBucketRateLimiter
$remaining before any call: NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own state: true 2
fresh:     limit=3 allowed remaining=2 retryAfter=0 resetAfter=100 delay=0
second:    allowed remaining=1 retryAfter=0 resetAfter=200 delay=100
denied:    limit=3 denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
headers: limit 3 remaining 0, reset and Retry-After are the times rounded up: true
denied attempts took nothing: level 3.00
cost 2: Y1, cost 2: n1 retry 100, cost 1: Y0, cost 1: n0 retry 100; stored: level 3.00
-- peek() and denied calls write nothing
peek x3:   allowed remaining=2 retryAfter=0 resetAfter=100 delay=0 $remaining=2; key unchanged: true; TTL not extended: true
cost 3:    denied  remaining=2 retryAfter=100 resetAfter=100 delay=0; key unchanged: true
cost 2:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=100
peek, no key: allowed remaining=3 retryAfter=0 resetAfter=0 delay=0 $remaining=3; key made: 0
peek, full:   denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
-- reset() deletes the key and $remaining; then the whole limit fits at once
key: 0, $remaining: NULL
cost 3:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
cost 1:    denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
-- the interface default id '' uses the bare prefix as the key
true, key: 1, level 1.00
a RateLimiterInterface: true
== gcra: GcraRateLimiter
$remaining before any call: NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own state: true 2
fresh:     limit=3 allowed remaining=2 retryAfter=0 resetAfter=100 delay=0
second:    allowed remaining=1 retryAfter=0 resetAfter=200 delay=0
denied:    limit=3 denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
headers: limit 3 remaining 0, reset and Retry-After are the times rounded up: true
denied attempts took nothing: TAT 3.00 intervals ahead
cost 2: Y1, cost 2: n1 retry 100, cost 1: Y0, cost 1: n0 retry 100; stored: TAT 3.00 intervals ahead
-- peek() and denied calls write nothing
peek x3:   allowed remaining=2 retryAfter=0 resetAfter=100 delay=0 $remaining=2; key unchanged: true; TTL not extended: true
cost 3:    denied  remaining=2 retryAfter=100 resetAfter=100 delay=0; key unchanged: true
cost 2:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
peek, no key: allowed remaining=3 retryAfter=0 resetAfter=0 delay=0 $remaining=3; key made: 0
peek, full:   denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
-- reset() deletes the key and $remaining; then the whole limit fits at once
key: 0, $remaining: NULL
cost 3:    allowed remaining=0 retryAfter=0 resetAfter=300 delay=0
cost 1:    denied  remaining=0 retryAfter=100 resetAfter=300 delay=0
-- the interface default id '' uses the bare prefix as the key
true, key: 1, TAT 1.00 intervals ahead
a RateLimiterInterface: true
