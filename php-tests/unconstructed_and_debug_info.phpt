--TEST--
An object whose constructor never ran says so with an Error, and var_dump/print_r/var_export/json_encode print it (its plain properties); __debugInfo shows class, key prefix, policy and remaining, never the connection
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.key_prefix=app:
--FILE--
<?php
require __DIR__ . '/config.inc';
$classes = ['FixedWindowRateLimiter', 'SlidingWindowRateLimiter', 'TokenBucketRateLimiter', 'LeakyBucketRateLimiter', 'GcraRateLimiter'];
echo "-- newInstanceWithoutConstructor()\n";
foreach ($classes as $class) {
    $o = (new ReflectionClass($class))->newInstanceWithoutConstructor();
    rl_throws(fn () => $o->isAllowed('x'));
}
$o = (new ReflectionClass('GcraRateLimiter'))->newInstanceWithoutConstructor();
rl_throws(fn () => $o->throttle('x'));
rl_throws(fn () => $o->reset());
echo "-- a subclass that skips parent::__construct()\n";
class MyLimiter extends TokenBucketRateLimiter {
    public function __construct(public string $name) {}
}
$m = new MyLimiter('forgot');
rl_throws(fn () => $m->consume('x'));
rl_throws(fn () => $m->peek());
echo "-- an unconstructed object prints (no fatal error from __debugInfo)\n";
$o = (new ReflectionClass('GcraRateLimiter'))->newInstanceWithoutConstructor();
var_dump($o);
echo print_r($o, true), var_export($o, true), "\n", json_encode($o), "\n";
var_dump($m);
echo print_r($m, true);
echo "-- a subclass that calls it works, and keeps its own class\n";
class GoodLimiter extends TokenBucketRateLimiter {
    public function __construct() { parent::__construct(RL_URL, rl_prefix('good'), 10, 1.5); }
}
$g = new GoodLimiter();
echo get_class($g), ' ', $g->consume('x')->remaining, "\n";
echo "-- __debugInfo\n";
$pw = 'debugpw' . getmypid();
$dsn = "redis://u:$pw@127.0.0.1:" . RL_PORT;
foreach ([new FixedWindowRateLimiter($dsn, 'login', 60, 5), new SlidingWindowRateLimiter(['host' => '127.0.0.1', 'auth' => $pw], 'api', 1.5, 100, 10),
          new LeakyBucketRateLimiter($dsn, 'q', 10, 0.5), new GcraRateLimiter($dsn, "bin\0ary", 14, 30, 60)] as $l) {
    ob_start();
    var_dump($l);
    $dump = ob_get_clean();
    echo str_replace("\0", '\0', $dump);
    if (str_contains($dump . print_r($l, true), $pw)) echo "PASSWORD SHOWN\n";
}
$g->consume('x');
print_r($g);
?>
--EXPECTF--
-- newInstanceWithoutConstructor()
Error: FixedWindowRateLimiter object was not constructed
Error: SlidingWindowRateLimiter object was not constructed
Error: TokenBucketRateLimiter object was not constructed
Error: LeakyBucketRateLimiter object was not constructed
Error: GcraRateLimiter object was not constructed
Error: GcraRateLimiter object was not constructed
Error: GcraRateLimiter object was not constructed
-- a subclass that skips parent::__construct()
Error: TokenBucketRateLimiter object was not constructed (MyLimiter::__construct() must call parent::__construct())
Error: TokenBucketRateLimiter object was not constructed (MyLimiter::__construct() must call parent::__construct())
-- an unconstructed object prints (no fatal error from __debugInfo)
object(GcraRateLimiter)#%d (0) {
  ["remaining"]=>
  uninitialized(?int)
}
GcraRateLimiter Object
(
)
\GcraRateLimiter::__set_state(array(
))
{}
object(MyLimiter)#%d (1) {
  ["remaining"]=>
  uninitialized(?int)
  ["name"]=>
  string(6) "forgot"
}
MyLimiter Object
(
    [name] => forgot
)
-- a subclass that calls it works, and keeps its own class
GoodLimiter 9
-- __debugInfo
object(FixedWindowRateLimiter)#%d (4) {
  ["class"]=>
  string(22) "FixedWindowRateLimiter"
  ["keyPrefix"]=>
  string(9) "app:login"
  ["policy"]=>
  array(2) {
    ["window"]=>
    int(60)
    ["limit"]=>
    int(5)
  }
  ["remaining"]=>
  NULL
}
object(SlidingWindowRateLimiter)#%d (4) {
  ["class"]=>
  string(24) "SlidingWindowRateLimiter"
  ["keyPrefix"]=>
  string(7) "app:api"
  ["policy"]=>
  array(3) {
    ["windowSize"]=>
    float(1.5)
    ["maxRequests"]=>
    int(100)
    ["blocks"]=>
    int(10)
  }
  ["remaining"]=>
  NULL
}
object(LeakyBucketRateLimiter)#%d (4) {
  ["class"]=>
  string(22) "LeakyBucketRateLimiter"
  ["keyPrefix"]=>
  string(5) "app:q"
  ["policy"]=>
  array(2) {
    ["bucketCapacity"]=>
    int(10)
    ["leakRate"]=>
    float(0.5)
  }
  ["remaining"]=>
  NULL
}
object(GcraRateLimiter)#%d (4) {
  ["class"]=>
  string(15) "GcraRateLimiter"
  ["keyPrefix"]=>
  string(11) "app:bin\0ary"
  ["policy"]=>
  array(3) {
    ["maxBurst"]=>
    int(14)
    ["count"]=>
    int(30)
    ["period"]=>
    int(60)
  }
  ["remaining"]=>
  NULL
}
GoodLimiter Object
(
    [class] => GoodLimiter
    [keyPrefix] => app:%s
    [policy] => Array
        (
            [capacity] => 10
            [refillRate] => 1.5
        )

    [remaining] => 8
)
