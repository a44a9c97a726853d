--TEST--
LeakyBucketRateLimiter: both forms, exact remaining in capacity units, requestSize, denied attempts add nothing, peek, reset
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
// 0.01 unit/s: what leaks during the test is far below one unit, so counts are exact.
$limiter = new LeakyBucketRateLimiter(RL_URL, rl_prefix('long'), 3, 0.01);
var_dump($limiter->remaining);
$seen = [];
for ($i = 0; $i < 5; $i++) {
    $seen[] = ($limiter->isAllowed('user1') ? 'Y' : 'n') . $limiter->remaining;
}
echo implode(' ', $seen), "\n";
echo "access() is isAllowed(): ", var_export($limiter->access('user1'), true), "\n";
echo "another id has its own bucket: ", var_export($limiter->isAllowed('user2'), true), ' ', $limiter->remaining, "\n";

echo "-- an empty bucket: no delay, 1 unit / 0.01 s until empty\n";
var_dump($limiter->consume('user3'));
echo "-- the next one waits for the first to leak out: delay 100 s\n";
$r = $limiter->consume('user3');
var_dump($r->allowed, $r->remaining, round($r->delay), $r->delay <= 100.0, round($r->resetAfter));

echo "-- denied: one unit drains in 100 s, the whole bucket in 300 s\n";
$d = $limiter->consume('user1');
var_dump($d->allowed, $d->limit, $d->remaining, round($d->retryAfter), round($d->resetAfter), $d->delay);
echo "headers: ", json_encode($d->headers()), "\n";

echo "-- requestSize 3 in a bucket of 10: limit and remaining in capacity units\n";
$sized = new LeakyBucketRateLimiter(RL_URL, rl_prefix('sized'), 10, 0.01, 3);
$c = [];
for ($i = 0; $i < 4; $i++) {
    $r = $sized->consume('s');
    $c[] = ($r->allowed ? 'Y' : 'n') . $r->remaining . ' delay ' . round($r->delay) . ($r->allowed ? '' : ' retry ' . round($r->retryAfter));
}
echo "limit {$r->limit}: ", implode(', ', $c), "\n";
$r = $sized->consume('t', 3);
echo "cost 3 x size 3 = 9 units: ", var_export($r->allowed, true), " remaining {$r->remaining}\n";
$r = $sized->consume('t', 1);
echo "then 3 more do not fit: ", var_export($r->allowed, true), " remaining {$r->remaining}, retry ", round($r->retryAfter), "\n";
$p = $sized->peek('t');
echo "peek asks for one request (3 units): ", var_export($p->allowed, true), " remaining {$p->remaining}\n";

echo "-- peek: nothing added, nothing written\n";
$p = $limiter->peek('fresh');
var_dump($p->allowed, $p->remaining, $p->resetAfter, $p->delay, $limiter->remaining, $redis->exists(rl_prefix('long') . ':fresh'));
$p = $limiter->peek('user1');
var_dump($p->allowed, $p->remaining, round($p->retryAfter));
$limiter->peek('user2');
echo "peek leaves user2 at: ", $limiter->peek('user2')->remaining, "\n";

echo "-- reset deletes the key\n";
$limiter->reset('user1');
var_dump($limiter->remaining, $redis->exists(rl_prefix('long') . ':user1'), $limiter->isAllowed('user1'), $limiter->remaining);

echo "-- the interface default id '' uses the bare prefix as the key\n";
var_dump($limiter->isAllowed(), $redis->exists(rl_prefix('long')));

echo "-- short form: (key, rate, capacity), rate first; requestSize 1\n";
$short = new LeakyBucketRateLimiter(rl_prefix('short'), 0.01, 4);
$r = $short->consume('x', 2);
var_dump($r->limit, $r->remaining, $r->resetAfter);
echo "-- named arguments use the long names\n";
$named = new LeakyBucketRateLimiter(leakRate: 0.5, requestSize: 2, bucketCapacity: 6, keyPrefix: rl_prefix('named'), connection: RL_URL);
$r = $named->consume('x');
var_dump($r->limit, $r->remaining, $r->resetAfter);

echo "-- every key carries a TTL of at most the time to empty (+1 s)\n";
foreach ($redis->keys(rl_prefix() . '*') as $key) {
    $ttl = $redis->pttl($key);
    if ($ttl <= 0 || $ttl > 901000) echo "bad TTL $ttl on $key\n";
}
echo count($redis->keys(rl_prefix() . '*')), " keys checked\n";
echo "user3 (2 units, 200 s): ", intdiv($redis->pttl(rl_prefix('long') . ':user3') + 999, 1000), " s\n";
echo "-- a key holding something else is a Redis error, not a guess\n";
$redis->set(rl_prefix('long') . ':foreign', 'hello');
rl_throws(fn() => $limiter->consume('foreign'));
$redis->del(rl_prefix('long') . ':foreign');
?>
--EXPECTF--
NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own bucket: true 2
-- an empty bucket: no delay, 1 unit / 0.01 s until empty
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
  float(100)
  ["delay"]=>
  float(0)
}
-- the next one waits for the first to leak out: delay 100 s
bool(true)
int(1)
float(100)
bool(true)
float(200)
-- denied: one unit drains in 100 s, the whole bucket in 300 s
bool(false)
int(3)
int(0)
float(100)
float(300)
float(0)
headers: {"X-RateLimit-Limit":3,"X-RateLimit-Remaining":0,"X-RateLimit-Reset":300,"Retry-After":100}
-- requestSize 3 in a bucket of 10: limit and remaining in capacity units
limit 10: Y7 delay 0, Y4 delay 300, Y1 delay 600, n1 delay 0 retry 200
cost 3 x size 3 = 9 units: true remaining 1
then 3 more do not fit: false remaining 1, retry 200
peek asks for one request (3 units): false remaining 1
-- peek: nothing added, nothing written
bool(true)
int(3)
float(0)
float(0)
int(3)
int(0)
bool(false)
int(0)
float(100)
peek leaves user2 at: 2
-- reset deletes the key
NULL
int(0)
bool(true)
int(2)
-- the interface default id '' uses the bare prefix as the key
bool(true)
int(1)
-- short form: (key, rate, capacity), rate first; requestSize 1
int(4)
int(2)
float(200)
-- named arguments use the long names
int(6)
int(4)
float(4)
-- every key carries a TTL of at most the time to empty (+1 s)
8 keys checked
user3 (2 units, 200 s): 200 s
-- a key holding something else is a Redis error, not a guess
RateLimiterException: Redis at redis://127.0.0.1:%d: ERR ratelimit: the key holds a value that is not a leaky bucket
