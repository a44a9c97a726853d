--TEST--
Every class, one table: the long form with each kind of connection, the short form on ratelimit.redis_url, named arguments (long names, any order, after positions), numeric strings; argument count errors name the form used
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
// Three calls on a limit of 2, the object's $remaining, the limit, and the type of the key where it must be.
$runs = function (RateLimiterInterface $l, string $key) use ($redis) {
    $s = '';
    for ($i = 0; $i < 3; $i++) {
        $s .= $l->isAllowed('u1') ? 'Y' : 'n';
    }
    return ["$s {$l->remaining} limit={$l->peek('u1')->limit}", $redis->type("$key:u1")];
};
$seen = [];
foreach (rl_classes() as $kind => $c) {
    $p = rl_prefix($kind);
    $class = $c['class'];
    $params = $c['params'](2, RL_SLOW);
    $short = array_map(fn ($name) => $params[$name], $c['short']);
    $strings = fn (array $numbers) => array_map(fn ($n) => (string) $n, $numbers);
    $forms = [
        'long, DSN' => fn ($key) => rl_long($kind, RL_URL, $key, 2),
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
    $keyTypes = [];
    foreach ($forms as $name => $make) {
        $key = "$p:" . strtr($name, ', ', '__');
        [$seen[$kind][$name], $keyTypes[]] = $runs($make($key), $key);
    }
    $seen[$kind]['the key where it must be, in every form, of type'] = implode(', ', array_unique($keyTypes));

    $required = array_values(array_diff_key($params, $c['optional']));
    $shortRequired = array_map(fn ($name) => $params[$name], array_diff($c['short'], array_keys($c['optional'])));
    $longMax = (new ReflectionMethod($class, '__construct'))->getNumberOfParameters();
    $errors = [
        'long form, one argument short' => fn () => new $class(RL_URL, 'k', ...array_slice($required, 0, -1)),
        'short form, one argument short' => fn () => new $class('k', ...array_slice($shortRequired, 0, -1)),
        'long form, one argument too many' => fn () => new $class(RL_URL, 'k', ...array_pad(array_values($params), $longMax - 1, 1)),
        'short form, one argument too many' => fn () => new $class('k', ...array_pad($short, $c['shortMax'], 1)),
        'a string second argument no number reads means the long form' => fn () => new $class('k', 'p1', ...array_slice($short, 1)),
        // new FixedWindowRateLimiter('api', '60', 5): values from the environment, the short form's count.
        'a numeric string second argument, the short form\'s count: the short form' => fn () => new $class('k', '1', ...array_slice($short, 1)),
    ];
    foreach ($errors as $name => $make) {
        ob_start();
        rl_throws($make);
        $seen[$kind][$name] = rtrim(ob_get_clean());
    }
}
rl_table($seen);

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
    echo str_pad($name, 18), implode(' ', $runs($make($key), $key)), "\n";
}
?>
--EXPECT--
long, DSN: YYn 0 limit=2
long, array: YYn 0 limit=2
long, null: YYn 0 limit=2
short: YYn 0 limit=2
named, reversed: YYn 0 limit=2
long, then named: YYn 0 limit=2
short, then named: YYn 0 limit=2
long, strings: YYn 0 limit=2
short, strings: YYn 0 limit=2
the key where it must be, in every form, of type:
  fixed    string
  sliding  zset
  blocks   hash
  token    string
  leaky    string
  gcra     string
long form, one argument short:
  fixed    ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) of the long form not passed; the short form is ($key, $window, $limit), the long form is ($connection, $keyPrefix, $window, $limit)
  sliding  ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) of the long form not passed; the short form is ($key, $window, $limit, $blocks), the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
  blocks   ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) of the long form not passed; the short form is ($key, $window, $limit, $blocks), the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
  token    ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) of the long form not passed; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $capacity, $refillRate)
  leaky    ArgumentCountError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) of the long form not passed; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize)
  gcra     ArgumentCountError: GcraRateLimiter::__construct(): Argument #5 ($period) of the long form not passed; the short form is ($key, $maxBurst, $count, $period), the long form is ($connection, $keyPrefix, $maxBurst, $count, $period)
short form, one argument short:
  fixed    ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) of the short form not passed; the short form is ($key, $window, $limit), the long form is ($connection, $keyPrefix, $window, $limit)
  sliding  ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) of the short form not passed; the short form is ($key, $window, $limit, $blocks), the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
  blocks   ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) of the short form not passed; the short form is ($key, $window, $limit, $blocks), the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
  token    ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) of the short form not passed; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $capacity, $refillRate)
  leaky    ArgumentCountError: LeakyBucketRateLimiter::__construct(): Argument #3 ($capacity) of the short form not passed; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize)
  gcra     ArgumentCountError: GcraRateLimiter::__construct(): Argument #4 ($period) of the short form not passed; the short form is ($key, $maxBurst, $count, $period), the long form is ($connection, $keyPrefix, $maxBurst, $count, $period)
long form, one argument too many:
  fixed    ArgumentCountError: FixedWindowRateLimiter::__construct() expects at most 4 arguments, 5 given
  sliding  ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 5 arguments, 6 given
  blocks   ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 5 arguments, 6 given
  token    ArgumentCountError: TokenBucketRateLimiter::__construct() expects at most 4 arguments, 5 given
  leaky    ArgumentCountError: LeakyBucketRateLimiter::__construct() expects at most 5 arguments, 6 given
  gcra     ArgumentCountError: GcraRateLimiter::__construct() expects at most 5 arguments, 6 given
short form, one argument too many:
  fixed    ArgumentCountError: FixedWindowRateLimiter::__construct() expects at most 3 arguments in the short form, 4 given; the short form is ($key, $window, $limit), the long form is ($connection, $keyPrefix, $window, $limit)
  sliding  ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 4 arguments in the short form, 5 given; the short form is ($key, $window, $limit, $blocks), the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
  blocks   ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 4 arguments in the short form, 5 given; the short form is ($key, $window, $limit, $blocks), the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
  token    ArgumentCountError: TokenBucketRateLimiter::__construct() expects at most 3 arguments in the short form, 4 given; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $capacity, $refillRate)
  leaky    ArgumentCountError: LeakyBucketRateLimiter::__construct() expects at most 3 arguments in the short form, 4 given; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize)
  gcra     ArgumentCountError: GcraRateLimiter::__construct() expects at most 4 arguments in the short form, 5 given; the short form is ($key, $maxBurst, $count, $period), the long form is ($connection, $keyPrefix, $maxBurst, $count, $period)
a string second argument no number reads means the long form:
  fixed    ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) of the long form not passed; the short form is ($key, $window, $limit), the long form is ($connection, $keyPrefix, $window, $limit)
  sliding  ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) of the long form not passed; the short form is ($key, $window, $limit, $blocks), the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
  blocks   ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "k"
  token    ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) of the long form not passed; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $capacity, $refillRate)
  leaky    ArgumentCountError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) of the long form not passed; the short form is ($key, $rate, $capacity), the long form is ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize)
  gcra     ArgumentCountError: GcraRateLimiter::__construct(): Argument #5 ($period) of the long form not passed; the short form is ($key, $maxBurst, $count, $period), the long form is ($connection, $keyPrefix, $maxBurst, $count, $period)
a numeric string second argument, the short form's count: the short form: no exception
== optional arguments: null or a numeric string takes the value it means
blocks null       YYn 0 limit=2 zset
blocks '0'        YYn 0 limit=2 zset
blocks '6'        YYn 0 limit=2 hash
requestSize null  YYn 0 limit=2 string
requestSize '2'   YYn 0 limit=4 string
