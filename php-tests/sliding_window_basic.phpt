--TEST--
SlidingWindowRateLimiter log mode: allows maxRequests, then denies with exact remaining; denied attempts are never recorded
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix(), 60, 3);
var_dump($limiter->remaining);
$seen = [];
for ($i = 0; $i < 6; $i++) {
    $seen[] = ($limiter->isAllowed('user1') ? 'Y' : 'n') . $limiter->remaining;
}
echo implode(' ', $seen), "\n";
echo "access() is isAllowed(): ", var_export($limiter->access('user1'), true), "\n";
echo "another id has its own log: ", var_export($limiter->isAllowed('user2'), true), ' ', $limiter->remaining, "\n";

echo "-- consume() returns the whole decision\n";
$r = $limiter->consume('user3');
var_dump($r);
$d = $limiter->consume('user1');
var_dump($d->allowed, $d->limit, $d->remaining, $d->delay);
echo "retryAfter in (59, 60]: ", var_export($d->retryAfter > 59 && $d->retryAfter <= 60, true), "\n";
echo "resetAfter in (59, 60]: ", var_export($d->resetAfter > 59 && $d->resetAfter <= 60, true), "\n";

echo "-- the log holds exactly the 3 accepted requests (plus the sequence member)\n";
$redis = rl_redis();
$key = rl_prefix() . ':user1';
var_dump($redis->type($key) === Redis::REDIS_ZSET, $redis->zCount($key, '0', '+inf'), $redis->zCard($key));
var_dump($redis->zRange($key, 0, -1));
echo "-- the interface default id '' uses the bare prefix as the key\n";
var_dump($limiter->isAllowed(), $redis->zCount(rl_prefix(), '0', '+inf'));
?>
--EXPECTF--
NULL
Y2 Y1 Y0 n0 n0 n0
access() is isAllowed(): false
another id has its own log: true 2
-- consume() returns the whole decision
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
  float(60)
  ["delay"]=>
  float(0)
}
bool(false)
int(3)
int(0)
float(0)
retryAfter in (59, 60]: true
resetAfter in (59, 60]: true
-- the log holds exactly the 3 accepted requests (plus the sequence member)
bool(true)
int(3)
int(4)
array(4) {
  [0]=>
  string(0) ""
  [1]=>
  string(1) "1"
  [2]=>
  string(1) "2"
  [3]=>
  string(1) "3"
}
-- the interface default id '' uses the bare prefix as the key
bool(true)
int(1)
