--TEST--
Every class, one table: the long form with each kind of connection, the short form on ratelimit.redis_url, named arguments (long names, any order, after positions), numeric strings; argument count errors name the form used
--SKIPIF--
<?php $needs = ['redis']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
$types = [Redis::REDIS_STRING => 'string', Redis::REDIS_ZSET => 'zset', Redis::REDIS_HASH => 'hash', Redis::REDIS_NOT_FOUND => 'none'];
// Three calls on a limit of 2, the object's $remaining, the limit, and the type of the key where it must be.
$runs = function (RateLimiterInterface $l, string $key) use ($redis, $types) {
    $s = '';
    for ($i = 0; $i < 3; $i++) {
        $s .= $l->isAllowed('u1') ? 'Y' : 'n';
    }
    return "$s {$l->remaining} limit={$l->peek('u1')->limit} " . $types[$redis->type("$key:u1")];
};
foreach (rl_classes() as $kind => $c) {
    echo "== $kind: {$c['class']}\n";
    $p = rl_prefix($kind);
    $class = $c['class'];
    $params = $c['params'](2, RL_SLOW);
    $short = array_map(fn ($name) => $params[$name], $c['short']);
    $strings = fn (array $numbers) => array_map(fn ($n) => (string) $n, $numbers);
    $forms = [
        'long, DSN' => fn ($key) => rl_long($kind, RL_URL, $key, 2),
        'long, phpredis' => fn ($key) => rl_long($kind, $redis, $key, 2),
        'long, array' => fn ($key) => rl_long($kind, ['host' => '127.0.0.1', 'port' => RL_PORT], $key, 2),
        'long, null' => fn ($key) => rl_long($kind, null, $key, 2),
        'short' => fn ($key) => rl_short($kind, $key, 2),
        'named, reversed' => fn ($key) => rl_named($kind, RL_URL, $key, 2),
        'long, then named' => fn ($key) => new $class(RL_URL, $key, ...array_reverse($params, true)),
        'short, then named' => fn ($key) => new $class($key, $short[0], ...array_slice(array_combine($c['short'], $short), 1)),
        'long, strings' => fn ($key) => new $class(RL_URL, $key, ...$strings(array_values($params))),
        // (a string second argument would mean the long form: see below)
        'short, strings' => fn ($key) => new $class($key, $short[0], ...$strings(array_slice($short, 1))),
    ];
    foreach ($forms as $name => $make) {
        $key = "$p:" . strtr($name, ', ', '__');
        echo str_pad($name, 18), $runs($make($key), $key), "\n";
    }
    echo "-- argument counts: the form used is named\n";
    $required = array_values(array_diff_key($params, $c['optional']));
    $shortRequired = array_map(fn ($name) => $params[$name], array_diff($c['short'], array_keys($c['optional'])));
    $longMax = (new ReflectionMethod($class, '__construct'))->getNumberOfParameters();
    rl_throws(fn () => new $class(RL_URL, 'k', ...array_slice($required, 0, -1)));
    rl_throws(fn () => new $class('k', ...array_slice($shortRequired, 0, -1)));
    rl_throws(fn () => new $class(RL_URL, 'k', ...array_pad(array_values($params), $longMax - 1, 1)));
    rl_throws(fn () => new $class('k', ...array_pad($short, $c['shortMax'], 1)));
    echo "a string second argument means the long form: ";
    rl_throws(fn () => new $class('k', '1', ...array_slice($short, 1)));
}

echo "== optional arguments: null or a numeric string takes the value it means\n";
$optional = [
    'blocks null' => fn ($key) => new SlidingWindowRateLimiter(null, $key, 60, 2, null),
    "blocks '0'" => fn ($key) => new SlidingWindowRateLimiter(null, $key, '60', '2', '0'),
    "blocks '6'" => fn ($key) => new SlidingWindowRateLimiter($key, 60, 2, '6'),
    'requestSize null' => fn ($key) => new LeakyBucketRateLimiter(null, $key, 2, 0.01, null),
    "requestSize '2'" => fn ($key) => new LeakyBucketRateLimiter(null, $key, 4, 0.01, '2'),
];
foreach ($optional as $name => $make) {
    $key = rl_prefix(md5($name));
    echo str_pad($name, 18), $runs($make($key), $key), "\n";
}
?>
--EXPECT--
== fixed: FixedWindowRateLimiter
long, DSN         YYn 0 limit=2 string
long, phpredis    YYn 0 limit=2 string
long, array       YYn 0 limit=2 string
long, null        YYn 0 limit=2 string
short             YYn 0 limit=2 string
named, reversed   YYn 0 limit=2 string
long, then named  YYn 0 limit=2 string
short, then named YYn 0 limit=2 string
long, strings     YYn 0 limit=2 string
short, strings    YYn 0 limit=2 string
-- argument counts: the form used is named
ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) not passed; the long form is ($connection, $keyPrefix, $window, $limit)
ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) not passed; the short form is ($key, $window, $limit)
ArgumentCountError: FixedWindowRateLimiter::__construct() expects at most 4 arguments, 5 given
ArgumentCountError: FixedWindowRateLimiter::__construct() expects at most 3 arguments in the short form ($key, $window, $limit), 4 given
a string second argument means the long form: ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) not passed; the long form is ($connection, $keyPrefix, $window, $limit)
== sliding: SlidingWindowRateLimiter
long, DSN         YYn 0 limit=2 zset
long, phpredis    YYn 0 limit=2 zset
long, array       YYn 0 limit=2 zset
long, null        YYn 0 limit=2 zset
short             YYn 0 limit=2 zset
named, reversed   YYn 0 limit=2 zset
long, then named  YYn 0 limit=2 zset
short, then named YYn 0 limit=2 zset
long, strings     YYn 0 limit=2 zset
short, strings    YYn 0 limit=2 zset
-- argument counts: the form used is named
ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) not passed; the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) not passed; the short form is ($key, $window, $limit, $blocks)
ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 5 arguments, 6 given
ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 4 arguments in the short form ($key, $window, $limit, $blocks), 5 given
a string second argument means the long form: ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) not passed; the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
== blocks: SlidingWindowRateLimiter
long, DSN         YYn 0 limit=2 hash
long, phpredis    YYn 0 limit=2 hash
long, array       YYn 0 limit=2 hash
long, null        YYn 0 limit=2 hash
short             YYn 0 limit=2 hash
named, reversed   YYn 0 limit=2 hash
long, then named  YYn 0 limit=2 hash
short, then named YYn 0 limit=2 hash
long, strings     YYn 0 limit=2 hash
short, strings    YYn 0 limit=2 hash
-- argument counts: the form used is named
ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) not passed; the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) not passed; the short form is ($key, $window, $limit, $blocks)
ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 5 arguments, 6 given
ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 4 arguments in the short form ($key, $window, $limit, $blocks), 5 given
a string second argument means the long form: ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (expected redis://host[:port][/db] or unix:///path): "k"
== token: TokenBucketRateLimiter
long, DSN         YYn 0 limit=2 string
long, phpredis    YYn 0 limit=2 string
long, array       YYn 0 limit=2 string
long, null        YYn 0 limit=2 string
short             YYn 0 limit=2 string
named, reversed   YYn 0 limit=2 string
long, then named  YYn 0 limit=2 string
short, then named YYn 0 limit=2 string
long, strings     YYn 0 limit=2 string
short, strings    YYn 0 limit=2 string
-- argument counts: the form used is named
ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) not passed; the long form is ($connection, $keyPrefix, $capacity, $refillRate)
ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) not passed; the short form is ($key, $rate, $capacity)
ArgumentCountError: TokenBucketRateLimiter::__construct() expects at most 4 arguments, 5 given
ArgumentCountError: TokenBucketRateLimiter::__construct() expects at most 3 arguments in the short form ($key, $rate, $capacity), 4 given
a string second argument means the long form: ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) not passed; the long form is ($connection, $keyPrefix, $capacity, $refillRate)
== leaky: LeakyBucketRateLimiter
long, DSN         YYn 0 limit=2 string
long, phpredis    YYn 0 limit=2 string
long, array       YYn 0 limit=2 string
long, null        YYn 0 limit=2 string
short             YYn 0 limit=2 string
named, reversed   YYn 0 limit=2 string
long, then named  YYn 0 limit=2 string
short, then named YYn 0 limit=2 string
long, strings     YYn 0 limit=2 string
short, strings    YYn 0 limit=2 string
-- argument counts: the form used is named
ArgumentCountError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) not passed; the long form is ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize)
ArgumentCountError: LeakyBucketRateLimiter::__construct(): Argument #3 ($capacity) not passed; the short form is ($key, $rate, $capacity)
ArgumentCountError: LeakyBucketRateLimiter::__construct() expects at most 5 arguments, 6 given
ArgumentCountError: LeakyBucketRateLimiter::__construct() expects at most 3 arguments in the short form ($key, $rate, $capacity), 4 given
a string second argument means the long form: ArgumentCountError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) not passed; the long form is ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize)
== gcra: GcraRateLimiter
long, DSN         YYn 0 limit=2 string
long, phpredis    YYn 0 limit=2 string
long, array       YYn 0 limit=2 string
long, null        YYn 0 limit=2 string
short             YYn 0 limit=2 string
named, reversed   YYn 0 limit=2 string
long, then named  YYn 0 limit=2 string
short, then named YYn 0 limit=2 string
long, strings     YYn 0 limit=2 string
short, strings    YYn 0 limit=2 string
-- argument counts: the form used is named
ArgumentCountError: GcraRateLimiter::__construct(): Argument #5 ($period) not passed; the long form is ($connection, $keyPrefix, $maxBurst, $count, $period)
ArgumentCountError: GcraRateLimiter::__construct(): Argument #4 ($period) not passed; the short form is ($key, $maxBurst, $count, $period)
ArgumentCountError: GcraRateLimiter::__construct() expects at most 5 arguments, 6 given
ArgumentCountError: GcraRateLimiter::__construct() expects at most 4 arguments in the short form ($key, $maxBurst, $count, $period), 5 given
a string second argument means the long form: ArgumentCountError: GcraRateLimiter::__construct(): Argument #5 ($period) not passed; the long form is ($connection, $keyPrefix, $maxBurst, $count, $period)
== optional arguments: null or a numeric string takes the value it means
blocks null       YYn 0 limit=2 zset
blocks '0'        YYn 0 limit=2 zset
blocks '6'        YYn 0 limit=2 hash
requestSize null  YYn 0 limit=2 string
requestSize '2'   YYn 0 limit=4 string
