--TEST--
SlidingWindowRateLimiter constructor forms: the articles' long form with a phpredis object, the short form on the default connection, blocks, named arguments
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
$runs = function (SlidingWindowRateLimiter $l, string $id, int $n) {
    $s = '';
    for ($i = 0; $i < $n; $i++) $s .= $l->isAllowed($id) ? 'Y' : 'n';
    return $s;
};
$type = fn (string $key) => [Redis::REDIS_ZSET => 'zset', Redis::REDIS_HASH => 'hash', Redis::REDIS_NOT_FOUND => 'none'][$redis->type($key)] ?? '?';

echo "-- article 000: new SlidingWindowRateLimiter(\$redis, 'user_rate_limit', 60, 100)\n";
$limiter = new SlidingWindowRateLimiter($redis, rl_prefix('user_rate_limit'), 60, 100);
echo $runs($limiter, 'u1', 3), ' ', $limiter->remaining, ' ', $type(rl_prefix('user_rate_limit') . ':u1'), "\n";

echo "-- article 004: new SlidingWindowRateLimiter('api:books', 60, 120, 3) on ratelimit.redis_url\n";
$limiter = new SlidingWindowRateLimiter(rl_prefix('api:books'), 60, 120, 3);
echo $runs($limiter, 'u1', 3), ' ', $limiter->remaining, ' ', $type(rl_prefix('api:books') . ':u1'), "\n";

echo "-- short form without blocks is the exact log\n";
$limiter = new SlidingWindowRateLimiter(rl_prefix('short'), 60, 2);
echo $runs($limiter, 'u1', 3), ' ', $limiter->remaining, ' ', $type(rl_prefix('short') . ':u1'), "\n";

echo "-- long form with a DSN, an array, null; blocks given and blocks = null (the default, 0)\n";
foreach ([
    'dsn' => new SlidingWindowRateLimiter(RL_URL, rl_prefix('dsn'), 60, 2, 5),
    'array' => new SlidingWindowRateLimiter(['host' => '127.0.0.1', 'port' => RL_PORT], rl_prefix('array'), 60, 2),
    'null' => new SlidingWindowRateLimiter(null, rl_prefix('null'), 60, 2, null),
] as $name => $limiter) {
    echo str_pad($name, 6), $runs($limiter, 'u1', 3), ' ', $type(rl_prefix($name) . ':u1'), "\n";
}

echo "-- named arguments use the long names, in any order; blocks by name also in the short form\n";
$limiter = new SlidingWindowRateLimiter(maxRequests: 2, windowSize: 60, keyPrefix: rl_prefix('named'), connection: RL_URL, blocks: 6);
echo $runs($limiter, 'u1', 3), ' ', $type(rl_prefix('named') . ':u1'), "\n";
$limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix('named2'), maxRequests: 2, windowSize: 60);
echo $runs($limiter, 'u1', 3), ' ', $type(rl_prefix('named2') . ':u1'), "\n";
$limiter = new SlidingWindowRateLimiter(rl_prefix('named3'), 60, 2, blocks: 6);
echo $runs($limiter, 'u1', 3), ' ', $type(rl_prefix('named3') . ':u1'), "\n";
echo "numeric strings are read like PHP's coercive mode: ";
$limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix('num'), '60', '2', '0');
echo $runs($limiter, 'u1', 3), ' ', $type(rl_prefix('num') . ':u1'), "\n";

echo "-- it is a RateLimiterInterface\n";
var_dump($limiter instanceof RateLimiterInterface);
?>
--EXPECT--
-- article 000: new SlidingWindowRateLimiter($redis, 'user_rate_limit', 60, 100)
YYY 97 zset
-- article 004: new SlidingWindowRateLimiter('api:books', 60, 120, 3) on ratelimit.redis_url
YYY 117 hash
-- short form without blocks is the exact log
YYn 0 zset
-- long form with a DSN, an array, null; blocks given and blocks = null (the default, 0)
dsn   YYn hash
array YYn zset
null  YYn zset
-- named arguments use the long names, in any order; blocks by name also in the short form
YYn hash
YYn zset
YYn hash
numeric strings are read like PHP's coercive mode: YYn zset
-- it is a RateLimiterInterface
bool(true)
