--TEST--
TokenBucketRateLimiter: both forms, exact remaining, denied attempts take nothing, cost, peek, reset
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
// 0.01 token/s: refills during the test are far below one token, so counts are exact.
$limiter = new TokenBucketRateLimiter(RL_URL, rl_prefix('long'), 3, 0.01);
var_dump($limiter->remaining);
$seen = [];
for ($i = 0; $i < 5; $i++) {
    $seen[] = ($limiter->isAllowed('user1') ? 'Y' : 'n') . $limiter->remaining;
}
echo implode(' ', $seen), "\n";
echo "access() is isAllowed(): ", var_export($limiter->access('user1'), true), "\n";
echo "another id has its own bucket: ", var_export($limiter->isAllowed('user2'), true), ' ', $limiter->remaining, "\n";

echo "-- a fresh bucket is full: one token taken, 1 / 0.01 s until full again\n";
var_dump($limiter->consume('user3'));

echo "-- denied: a token is 100 s away, the whole bucket 300 s\n";
$d = $limiter->consume('user1');
var_dump($d->allowed, $d->limit, $d->remaining, round($d->retryAfter), round($d->resetAfter), $d->delay);
var_dump($d->retryAfter <= 100.0, $d->resetAfter <= 300.0);
echo "headers: ", json_encode($d->headers()), "\n";

echo "-- cost takes several tokens; a denied cost takes none\n";
$c = [];
foreach ([2, 2, 1, 1] as $cost) {
    $r = $limiter->consume('costly', $cost);
    $c[] = "cost $cost: " . ($r->allowed ? 'Y' : 'n') . $r->remaining . ($r->allowed ? '' : ' retry ' . round($r->retryAfter));
}
echo implode(', ', $c), "\n";

echo "-- peek: nothing taken, nothing written\n";
$p = $limiter->peek('fresh');
var_dump($p->allowed, $p->remaining, $p->resetAfter, $limiter->remaining, $redis->exists(rl_prefix('long') . ':fresh'));
$p = $limiter->peek('user1');
var_dump($p->allowed, $p->remaining, round($p->retryAfter));
$limiter->isAllowed('user2');
$limiter->peek('user2');
echo "peek leaves user2 at: ", $limiter->peek('user2')->remaining, "\n";

echo "-- reset deletes the key\n";
$limiter->reset('user1');
var_dump($limiter->remaining, $redis->exists(rl_prefix('long') . ':user1'), $limiter->isAllowed('user1'), $limiter->remaining);

echo "-- the interface default id '' uses the bare prefix as the key\n";
var_dump($limiter->isAllowed(), $redis->exists(rl_prefix('long')));

echo "-- short form: (key, rate, capacity), rate first\n";
$short = new TokenBucketRateLimiter(rl_prefix('short'), 0.01, 4);
$r = $short->consume('x');
var_dump($r->limit, $r->remaining, $r->resetAfter);
echo "-- named arguments use the long names\n";
$named = new TokenBucketRateLimiter(keyPrefix: rl_prefix('named'), refillRate: 0.5, capacity: 2, connection: RL_URL);
$r = $named->consume('x');
var_dump($r->limit, $r->remaining, $r->resetAfter);

echo "-- every key carries a TTL of at most the time to full (+1 s)\n";
foreach ($redis->keys(rl_prefix() . '*') as $key) {
    $ttl = $redis->pttl($key);
    if ($ttl <= 0 || $ttl > 301000) echo "bad TTL $ttl on $key\n";
}
echo count($redis->keys(rl_prefix() . '*')), " keys checked\n";
echo "user3 (1 token short, 100 s): ", intdiv($redis->pttl(rl_prefix('long') . ':user3') + 999, 1000), " s\n";
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
-- a fresh bucket is full: one token taken, 1 / 0.01 s until full again
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
-- denied: a token is 100 s away, the whole bucket 300 s
bool(false)
int(3)
int(0)
float(100)
float(300)
float(0)
bool(true)
bool(true)
headers: {"X-RateLimit-Limit":3,"X-RateLimit-Remaining":0,"X-RateLimit-Reset":300,"Retry-After":100}
-- cost takes several tokens; a denied cost takes none
cost 2: Y1, cost 2: n1 retry 100, cost 1: Y0, cost 1: n0 retry 100
-- peek: nothing taken, nothing written
bool(true)
int(3)
float(0)
int(3)
int(0)
bool(false)
int(0)
float(100)
peek leaves user2 at: 1
-- reset deletes the key
NULL
int(0)
bool(true)
int(2)
-- the interface default id '' uses the bare prefix as the key
bool(true)
int(1)
-- short form: (key, rate, capacity), rate first
int(4)
int(3)
float(100)
-- named arguments use the long names
int(2)
int(1)
float(2)
-- every key carries a TTL of at most the time to full (+1 s)
7 keys checked
user3 (1 token short, 100 s): 100 s
-- a key holding something else is a Redis error, not a guess
RateLimiterException: Redis at redis://127.0.0.1:%d: ERR ratelimit: the key holds a value that is not a token bucket
