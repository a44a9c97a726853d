--TEST--
Every class, one table: allows the limit then denies with exact remaining; denied attempts and peek() write nothing; costs take several units; reset(); the default id; the whole RateLimitResult
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
// Limit 3 over RL_SLOW (300 s): a window of 300 s, one unit back every 100 s
// in the buckets and GCRA, so nothing frees up while this runs. Times print
// as rl_seconds() gives them: rounded up to whole seconds.
$seen = [];
foreach (rl_classes() as $kind => $c) {
    $secs = fn (float $t) => rl_seconds($kind, $t);
    // A result as two checks: the decision (the same for every class here), then its times.
    $put = function (array &$row, string $check, RateLimitResult $r, string $more = '') use ($secs) {
        $row[$check] = sprintf('%s limit=%d remaining=%d', $r->allowed ? 'allowed' : 'denied', $r->limit, $r->remaining) . $more;
        $row["$check, times"] = sprintf('retryAfter=%s resetAfter=%s delay=%s', $secs($r->retryAfter), $secs($r->resetAfter), $secs($r->delay));
    };
    $p = rl_prefix($kind);
    $l = rl_long($kind, RL_URL, $p, 3);
    $row = ['$remaining before any call' => var_export($l->remaining, true)];
    $calls = [];
    for ($i = 0; $i < 5; $i++) {
        $calls[] = ($l->isAllowed('user1') ? 'Y' : 'n') . $l->remaining;
    }
    $row['5 calls'] = implode(' ', $calls);
    $row['access() is isAllowed()'] = var_export($l->access('user1'), true);
    $row['another id has its own state'] = var_export($l->isAllowed('user2'), true) . ' ' . $l->remaining;
    $fresh = $l->consume('user3');
    if ($kind === 'fixed') {
        echo "-- the whole RateLimitResult of a first call (its fields are the same for every class)\n";
        var_dump($fresh);
    }
    $put($row, 'first call', $fresh);
    $put($row, 'second call', $l->consume('user3'));
    $d = $l->consume('user1');
    $put($row, 'denied', $d);
    $h = $d->headers();
    $row['headers(): limit, remaining; reset and Retry-After are the times rounded up'] = "{$h['X-RateLimit-Limit']}, {$h['X-RateLimit-Remaining']}; "
        . var_export($h['X-RateLimit-Reset'] === (int) ceil($d->resetAfter) && $h['Retry-After'] === (int) ceil($d->retryAfter), true);
    $row['denied attempts took nothing'] = rl_state($kind, $redis, "$p:user1", 3);

    $costs = $retries = [];
    foreach ([2, 2, 1, 1] as $cost) {
        $r = $l->consume('costly', $cost);
        $costs[] = "cost $cost: " . ($r->allowed ? 'Y' : 'n') . $r->remaining;
        $retries[] = $secs($r->retryAfter);
    }
    $row['costs 2, 2, 1, 1'] = implode(', ', $costs);
    $row['costs 2, 2, 1, 1, retryAfter'] = implode(', ', $retries);
    $row['costs 2, 2, 1, 1, stored'] = rl_state($kind, $redis, "$p:costly", 3);

    // peek() and denied calls write nothing.
    $key = "$p:user2";
    $dump = $redis->dump($key);
    $ttl = $redis->pttl($key);
    for ($i = 0; $i < 3; $i++) {
        $pk = $l->peek('user2');
    }
    $put($row, 'peek x3 (1 of 3 taken)', $pk, " \$remaining={$l->remaining}; key unchanged: " . var_export($redis->dump($key) === $dump, true)
        . '; TTL not extended: ' . var_export($redis->pttl($key) <= $ttl, true));
    $r = $l->consume('user2', 3);
    $put($row, 'then cost 3', $r, '; key unchanged: ' . var_export($redis->dump($key) === $dump, true));
    $put($row, 'then cost 2', $l->consume('user2', 2));
    $pk = $l->peek('fresh');
    $put($row, 'peek, no key', $pk, " \$remaining={$l->remaining}; key made: " . $redis->exists("$p:fresh"));
    $put($row, 'peek, full', $l->peek('user1'));

    // reset() deletes the key and $remaining; then the whole limit fits at once.
    $l->reset('user1');
    $row['reset(): key, $remaining'] = $redis->exists("$p:user1") . ', ' . var_export($l->remaining, true);
    $put($row, 'after reset, cost 3', $l->consume('user1', 3));
    $put($row, 'after reset, cost 1', $l->consume('user1'));
    $row["the default id '' uses the bare prefix as the key"] = var_export($l->isAllowed(), true) . ', key: ' . $redis->exists($p);
    $row["the default id '', stored"] = rl_state($kind, $redis, $p, 3);
    $row['a RateLimiterInterface'] = var_export($l instanceof RateLimiterInterface, true);
    $seen[$kind] = $row;
}
rl_table($seen);
?>
--EXPECTF--
-- the whole RateLimitResult of a first call (its fields are the same for every class)
object(RateLimitResult)#%d (8) {
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
  ["wouldDeny"]=>
  bool(false)
  ["source"]=>
  string(5) "redis"
}
$remaining before any call: NULL
5 calls: Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own state: true 2
first call: allowed limit=3 remaining=2
first call, times:
  fixed    retryAfter=0 resetAfter=300 delay=0
  sliding  retryAfter=0 resetAfter=300 delay=0
  blocks   retryAfter=0 resetAfter=300+slice delay=0
  token    retryAfter=0 resetAfter=100 delay=0
  leaky    retryAfter=0 resetAfter=100 delay=0
  gcra     retryAfter=0 resetAfter=100 delay=0
second call: allowed limit=3 remaining=1
second call, times:
  fixed    retryAfter=0 resetAfter=300 delay=0
  sliding  retryAfter=0 resetAfter=300 delay=0
  blocks   retryAfter=0 resetAfter=300+slice delay=0
  token    retryAfter=0 resetAfter=200 delay=0
  leaky    retryAfter=0 resetAfter=200 delay=100
  gcra     retryAfter=0 resetAfter=200 delay=0
denied: denied limit=3 remaining=0
denied, times:
  fixed    retryAfter=300 resetAfter=300 delay=0
  sliding  retryAfter=300 resetAfter=300 delay=0
  blocks   retryAfter=300+slice resetAfter=300+slice delay=0
  token    retryAfter=100 resetAfter=300 delay=0
  leaky    retryAfter=100 resetAfter=300 delay=0
  gcra     retryAfter=100 resetAfter=300 delay=0
headers(): limit, remaining; reset and Retry-After are the times rounded up: 3, 0; true
denied attempts took nothing:
  fixed    counter '3'
  sliding  entries 3
  blocks   counted in the slices 3
  token    tokens 0.0
  leaky    level 3.0
  gcra     TAT 3.0 intervals ahead
costs 2, 2, 1, 1: cost 2: Y1, cost 2: n1, cost 1: Y0, cost 1: n0
costs 2, 2, 1, 1, retryAfter:
  fixed    0, 300, 0, 300
  sliding  0, 300, 0, 300
  blocks   0, 300+slice, 0, 300+slice
  token    0, 100, 0, 100
  leaky    0, 100, 0, 100
  gcra     0, 100, 0, 100
costs 2, 2, 1, 1, stored:
  fixed    counter '3'
  sliding  entries 3
  blocks   counted in the slices 3
  token    tokens 0.0
  leaky    level 3.0
  gcra     TAT 3.0 intervals ahead
peek x3 (1 of 3 taken): allowed limit=3 remaining=2 $remaining=2; key unchanged: true; TTL not extended: true
peek x3 (1 of 3 taken), times:
  fixed    retryAfter=0 resetAfter=300 delay=0
  sliding  retryAfter=0 resetAfter=300 delay=0
  blocks   retryAfter=0 resetAfter=300+slice delay=0
  token    retryAfter=0 resetAfter=100 delay=0
  leaky    retryAfter=0 resetAfter=100 delay=0
  gcra     retryAfter=0 resetAfter=100 delay=0
then cost 3: denied limit=3 remaining=2; key unchanged: true
then cost 3, times:
  fixed    retryAfter=300 resetAfter=300 delay=0
  sliding  retryAfter=300 resetAfter=300 delay=0
  blocks   retryAfter=300+slice resetAfter=300+slice delay=0
  token    retryAfter=100 resetAfter=100 delay=0
  leaky    retryAfter=100 resetAfter=100 delay=0
  gcra     retryAfter=100 resetAfter=100 delay=0
then cost 2: allowed limit=3 remaining=0
then cost 2, times:
  fixed    retryAfter=0 resetAfter=300 delay=0
  sliding  retryAfter=0 resetAfter=300 delay=0
  blocks   retryAfter=0 resetAfter=300+slice delay=0
  token    retryAfter=0 resetAfter=300 delay=0
  leaky    retryAfter=0 resetAfter=300 delay=100
  gcra     retryAfter=0 resetAfter=300 delay=0
peek, no key: allowed limit=3 remaining=3 $remaining=3; key made: 0
peek, no key, times: retryAfter=0 resetAfter=0 delay=0
peek, full: denied limit=3 remaining=0
peek, full, times:
  fixed    retryAfter=300 resetAfter=300 delay=0
  sliding  retryAfter=300 resetAfter=300 delay=0
  blocks   retryAfter=300+slice resetAfter=300+slice delay=0
  token    retryAfter=100 resetAfter=300 delay=0
  leaky    retryAfter=100 resetAfter=300 delay=0
  gcra     retryAfter=100 resetAfter=300 delay=0
reset(): key, $remaining: 0, NULL
after reset, cost 3: allowed limit=3 remaining=0
after reset, cost 3, times:
  fixed    retryAfter=0 resetAfter=300 delay=0
  sliding  retryAfter=0 resetAfter=300 delay=0
  blocks   retryAfter=0 resetAfter=300+slice delay=0
  token    retryAfter=0 resetAfter=300 delay=0
  leaky    retryAfter=0 resetAfter=300 delay=0
  gcra     retryAfter=0 resetAfter=300 delay=0
after reset, cost 1: denied limit=3 remaining=0
after reset, cost 1, times:
  fixed    retryAfter=300 resetAfter=300 delay=0
  sliding  retryAfter=300 resetAfter=300 delay=0
  blocks   retryAfter=300+slice resetAfter=300+slice delay=0
  token    retryAfter=100 resetAfter=300 delay=0
  leaky    retryAfter=100 resetAfter=300 delay=0
  gcra     retryAfter=100 resetAfter=300 delay=0
the default id '' uses the bare prefix as the key: true, key: 1
the default id '', stored:
  fixed    counter '1'
  sliding  entries 1
  blocks   counted in the slices 1
  token    tokens 2.0
  leaky    level 1.0
  gcra     TAT 1.0 intervals ahead
a RateLimiterInterface: true
