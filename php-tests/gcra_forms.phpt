--TEST--
GcraRateLimiter constructor forms: long (DSN, phpredis object, array, null) and short (ratelimit.redis_url), named arguments, maxBurst 0, fractional periods
--SKIPIF--
<?php $needs = ['redis']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$p = rl_prefix();
$r = rl_redis();

echo "-- the seed example in every form\n";
$forms = [
    'long, DSN' => new GcraRateLimiter(RL_URL, "$p:dsn", 14, 30, 60),
    'long, phpredis' => new GcraRateLimiter($r, "$p:obj", 14, 30, 60),
    'long, array' => new GcraRateLimiter(['host' => '127.0.0.1', 'port' => RL_PORT], "$p:arr", 14, 30, 60),
    'long, null' => new GcraRateLimiter(null, "$p:null", 14, 30, 60),
    'short' => new GcraRateLimiter("$p:short", 14, 30, 60),
    'short, float period' => new GcraRateLimiter("$p:shortf", 14, 30, 60.0),
    'named' => new GcraRateLimiter(connection: RL_URL, keyPrefix: "$p:named", maxBurst: 14, count: 30, period: 60),
];
foreach ($forms as $name => $l) {
    echo str_pad($name, 20), json_encode($l->throttle('tom')), "\n";
}
echo "keys: ";
foreach (['dsn', 'obj', 'arr', 'null', 'short', 'shortf', 'named'] as $k) echo $r->exists("$p:$k:tom");
echo "\n";

echo "-- maxBurst 0 is valid: limit 1, one request per interval\n";
$one = new GcraRateLimiter("$p:one", 0, 1, 10);
echo json_encode($one->throttle()), ' ', json_encode($one->throttle()), "\n";

echo "-- a fractional period: 3 per 1.5 s is one per 500 ms\n";
$half = new GcraRateLimiter(RL_URL, "$p:half", 1, 3, 1.5);
echo json_encode($half->throttle()), ' ', json_encode($half->throttle()), ' ', json_encode($half->throttle()), "\n";
$d = $half->peek();
echo "retryAfter in (0.49, 0.5]: ", var_export($d->retryAfter > 0.49 && $d->retryAfter <= 0.5, true), "\n";
?>
--EXPECT--
-- the seed example in every form
long, DSN           [0,15,14,-1,2]
long, phpredis      [0,15,14,-1,2]
long, array         [0,15,14,-1,2]
long, null          [0,15,14,-1,2]
short               [0,15,14,-1,2]
short, float period [0,15,14,-1,2]
named               [0,15,14,-1,2]
keys: 1111111
-- maxBurst 0 is valid: limit 1, one request per interval
[0,1,0,-1,10] [1,1,0,10,10]
-- a fractional period: 3 per 1.5 s is one per 500 ms
[0,2,1,-1,1] [0,2,0,-1,1] [1,2,0,1,1]
retryAfter in (0.49, 0.5]: true
