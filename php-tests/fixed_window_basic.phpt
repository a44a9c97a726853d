--TEST--
FixedWindowRateLimiter long form: allows the limit, then denies; denied attempts consume nothing
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$limiter = new FixedWindowRateLimiter(RL_URL, rl_prefix(), 60, 3);
var_dump($limiter->remaining);
$seen = [];
for ($i = 0; $i < 5; $i++) {
    $seen[] = ($limiter->isAllowed('user1') ? 'Y' : 'n') . $limiter->remaining;
}
echo implode(' ', $seen), "\n";
echo "access() is isAllowed(): ", var_export($limiter->access('user1'), true), "\n";
echo "another id has its own window: ", var_export($limiter->isAllowed('user2'), true), ' ', $limiter->remaining, "\n";

echo "-- consume() returns the whole decision\n";
$r = $limiter->consume('user3');
var_dump($r);
$d = $limiter->consume('user1');
var_dump($d->allowed, $d->limit, $d->remaining, $d->retryAfter > 59 && $d->retryAfter <= 60, $d->retryAfter == $d->resetAfter, $d->delay);

echo "-- denied attempts did not count: the stored counter is still 3\n";
var_dump(rl_redis()->get(rl_prefix() . ':user1'));
echo "-- the interface default id '' uses the bare prefix as the key\n";
var_dump($limiter->isAllowed(), rl_redis()->get(rl_prefix()));
?>
--EXPECTF--
NULL
Y2 Y1 Y0 n0 n0
access() is isAllowed(): false
another id has its own window: true 2
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
bool(true)
bool(true)
float(0)
-- denied attempts did not count: the stored counter is still 3
string(1) "3"
-- the interface default id '' uses the bare prefix as the key
bool(true)
string(1) "1"
