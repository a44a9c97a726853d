--TEST--
Every class, one table: bad numbers, key prefixes, keys, connections and method arguments each raise ValueError/TypeError in PHP's words naming the parameter as the caller's form calls it, and nothing reaches Redis; then what only one class checks
--SKIPIF--
<?php $needs = ['redis', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
// A server of its own: the command count must not see other tests' traffic.
$own = rl_start_redis();
$url = 'redis://127.0.0.1:' . $own['port'];
ini_set('ratelimit.redis_url', $url);
$r = rl_redis($own['port']);
$before = $r->info('stats')['total_commands_processed'];

// Out of range or of the wrong type for every number (1.5 only for the whole
// ones); 0 is valid only where nothing is a meaningful amount (a GCRA burst
// of none beyond the first, no blocks): the loop says so.
$badNumbers = [0, -1, NAN, INF, PHP_INT_MAX, 'x', []];
$badShort = [0, -1, NAN, PHP_INT_MAX];
$try = function (callable $f, string $what) {
    try {
        $f();
        echo "accepted: $what\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
};
$badConnections = [42, 42.5, true, new stdClass, 'http://h', 'redis://h:99999', 'redis://h:6379/x', 'redis://:6379', 'rediss://h',
    ['port' => 'abc'], ['port' => 70000], ['index' => -1], ['timeout' => -2], ['auth' => 5.5]];
foreach (rl_classes() as $kind => $c) {
    $class = $c['class'];
    $good = $c['params'](10, 60);   // limit 10, 60 s
    echo "== $kind: $class(", implode(', ', array_map(fn ($n, $v) => "\$$n = " . var_export($v, true), array_keys($good), $good)), ")\n";
    echo "-- long form: each number in turn is 0, -1, NAN, INF, PHP_INT_MAX, 'x', [] (and 1.5 if whole)\n";
    foreach ($good as $name => $value) {
        foreach (is_int($value) ? [...$badNumbers, 1.5] : $badNumbers as $bad) {
            $try(fn () => new $class($url, 'p', ...array_values(array_replace($good, [$name => $bad]))), "\$$name = " . var_export($bad, true));
        }
    }
    echo "-- short form: its own names and positions; each number in turn is 0, -1, NAN, PHP_INT_MAX\n";
    foreach ($c['short'] as $name) {
        foreach ($badShort as $bad) {
            $try(fn () => new $class('k', ...array_map(fn ($n) => $n === $name ? $bad : $good[$n], $c['short'])), "\$$name = " . var_export($bad, true));
        }
    }
    echo "-- key prefix, key, connection\n";
    rl_throws(fn () => new $class($url, '', ...array_values($good)));
    rl_throws(fn () => new $class($url, str_repeat('k', 9000), ...array_values($good)));
    rl_throws(fn () => new $class('', ...array_map(fn ($n) => $good[$n], $c['short'])));
    foreach ($badConnections as $connection) {
        rl_throws(fn () => new $class($connection, 'p', ...array_values($good)));
    }
    echo "-- method arguments\n";
    $l = new $class($url, 'p', ...array_values($good));
    rl_throws(fn () => $l->isAllowed('a', 0));
    rl_throws(fn () => $l->isAllowed('a', -1));
    rl_throws(fn () => $l->consume('a', 11));
    rl_throws(fn () => $l->access('a', -2));
    rl_throws(fn () => $l->access('a', 'x'));
    rl_throws(fn () => $l->isAllowed([]));
    rl_throws(fn () => $l->peek(new stdClass));
    rl_throws(fn () => $l->reset(str_repeat('x', 9000)));
    echo "\$remaining: ", var_export($l->remaining, true), "\n";
}

echo "== what only one class checks\n";
$specific = [
    // Times: at least a millisecond; a bucket must fill or empty within 10 years; the largest whole numbers.
    fn () => new FixedWindowRateLimiter($url, 'p', 0.0001, 10),
    fn () => new SlidingWindowRateLimiter($url, 'p', 0.0005, 10),
    fn () => new TokenBucketRateLimiter($url, 'p', 1000, 1e-6),
    fn () => new LeakyBucketRateLimiter($url, 'p', 1000, 1e-6),
    fn () => new GcraRateLimiter($url, 'p', 1 << 40, 30, 60),
    fn () => new SlidingWindowRateLimiter($url, 'p', 60, 10, 60001),
    // The long names also name the short form's parameters, so a short form given one too many says so.
    fn () => new FixedWindowRateLimiter('k', 60, 5, limit: 9),
    // A slice of the window must last at least 1 ms; 1000 slices of 1 s are fine.
    fn () => new SlidingWindowRateLimiter($url, 'p', 0.001, 10, 2),
    fn () => new SlidingWindowRateLimiter('k', 1, 10, 1001),
    fn () => new SlidingWindowRateLimiter('k', 60, 10, blocks: -2),
    // Leaky bucket: requestSize units per request, at most the capacity; cost x requestSize must fit.
    fn () => new LeakyBucketRateLimiter($url, 'p', 5, 1.0, 0),
    fn () => new LeakyBucketRateLimiter($url, 'p', 5, 1.0, -2),
    fn () => new LeakyBucketRateLimiter($url, 'p', 5, 1.0, 6),
    fn () => (new LeakyBucketRateLimiter($url, 'p', 10, 1.0, 3))->consume('x', 4),
    fn () => (new LeakyBucketRateLimiter($url, 'p', 10, 1.0, 3))->access('x', PHP_INT_MAX),
    // GCRA: one request per microsecond of the period at most; the burst's TAT within 10 years.
    fn () => new GcraRateLimiter($url, 'p', 0, 2000000, 1),
    fn () => new GcraRateLimiter($url, 'p', 10, 1, 86400 * 365),
    fn () => new GcraRateLimiter('k', 10, 1, 86400 * 365),
    // GCRA's throttle(): quantity 0 peeks, so only a negative one is refused.
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle('a', -1),
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle('a', PHP_INT_MIN),
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle('a', 'x'),
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle('a', 1.5),
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle([]),
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle(str_repeat('x', 9000)),
];
foreach ($specific as $case) {
    rl_throws($case);
}
$try(fn () => new SlidingWindowRateLimiter('k', 1, 10, 1000), 'the most blocks, 1000 slices of 1 ms in 1 s');

$after = $r->info('stats')['total_commands_processed'];
echo "commands Redis saw meanwhile (only our INFO): ", $after - $before, "\n";
echo "keys: ", $r->dbSize(), "\n";
rl_stop_redis($own);

echo "== valid arguments: only now is Redis asked (nothing listens on port 1)\n";
foreach (rl_classes() as $kind => $c) {
    echo str_pad($kind, 8);
    rl_throws(fn () => rl_long($kind, 'redis://127.0.0.1:1', 'p', 10)->consume('x', 10));
}
echo str_pad('leaky, requestSize 3: ', 8);
rl_throws(fn () => (new LeakyBucketRateLimiter('redis://127.0.0.1:1', 'p', 10, 1.0, 3))->consume('x', 3));
?>
--EXPECT--
== fixed: FixedWindowRateLimiter($window = 60.0, $limit = 10)
-- long form: each number in turn is 0, -1, NAN, INF, PHP_INT_MAX, 'x', [] (and 1.5 if whole)
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be greater than 0
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be greater than 0
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be at most 315360000 seconds (10 years)
TypeError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be of type float, string given
TypeError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be of type float, array given
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be a finite integer
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be a finite integer
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be at most 1099511627776
TypeError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be of type int, string given
TypeError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be of type int, array given
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be a whole number, 1.5 given
-- short form: its own names and positions; each number in turn is 0, -1, NAN, PHP_INT_MAX
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($window) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($window) must be at most 315360000 seconds (10 years)
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) must be a finite integer
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) must be at most 1099511627776
-- key prefix, key, connection
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($key) must not be empty
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, float given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, bool given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, stdClass given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis:// or unix://): "http://h"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (TLS (rediss://) is not supported yet): "rediss://h"
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) port must be of type int, string given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
-- method arguments
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
ValueError: FixedWindowRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
TypeError: FixedWindowRateLimiter::access(): Argument #2 ($cost) must be of type int, string given
TypeError: FixedWindowRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, array given
TypeError: FixedWindowRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
ValueError: FixedWindowRateLimiter::reset(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
$remaining: NULL
== sliding: SlidingWindowRateLimiter($windowSize = 60.0, $maxRequests = 10)
-- long form: each number in turn is 0, -1, NAN, INF, PHP_INT_MAX, 'x', [] (and 1.5 if whole)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be at most 315360000 seconds (10 years)
TypeError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be of type float, string given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be of type float, array given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be at most 1099511627776
TypeError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be of type int, string given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be of type int, array given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be a whole number, 1.5 given
-- short form: its own names and positions; each number in turn is 0, -1, NAN, PHP_INT_MAX
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be at most 315360000 seconds (10 years)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be at most 1099511627776
-- key prefix, key, connection
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($key) must not be empty
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, float given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, bool given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, stdClass given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis:// or unix://): "http://h"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (TLS (rediss://) is not supported yet): "rediss://h"
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) port must be of type int, string given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
-- method arguments
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
ValueError: SlidingWindowRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
TypeError: SlidingWindowRateLimiter::access(): Argument #2 ($cost) must be of type int, string given
TypeError: SlidingWindowRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, array given
TypeError: SlidingWindowRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
ValueError: SlidingWindowRateLimiter::reset(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
$remaining: NULL
== blocks: SlidingWindowRateLimiter($windowSize = 60.0, $maxRequests = 10, $blocks = 6)
-- long form: each number in turn is 0, -1, NAN, INF, PHP_INT_MAX, 'x', [] (and 1.5 if whole)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be at most 315360000 seconds (10 years)
TypeError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be of type float, string given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be of type float, array given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be at most 1099511627776
TypeError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be of type int, string given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be of type int, array given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be a whole number, 1.5 given
accepted: $blocks = 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be greater than or equal to 0, -1 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be at most 60000, so that each slice of the window lasts at least 1 ms; 9223372036854775807 given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be of type int, string given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be of type int, array given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be a whole number, 1.5 given
-- short form: its own names and positions; each number in turn is 0, -1, NAN, PHP_INT_MAX
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be at most 315360000 seconds (10 years)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be at most 1099511627776
accepted: $blocks = 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be greater than or equal to 0, -1 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be a finite integer
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be at most 60000, so that each slice of the window lasts at least 1 ms; 9223372036854775807 given
-- key prefix, key, connection
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($key) must not be empty
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, float given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, bool given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, stdClass given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis:// or unix://): "http://h"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (TLS (rediss://) is not supported yet): "rediss://h"
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) port must be of type int, string given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
-- method arguments
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
ValueError: SlidingWindowRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
TypeError: SlidingWindowRateLimiter::access(): Argument #2 ($cost) must be of type int, string given
TypeError: SlidingWindowRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, array given
TypeError: SlidingWindowRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
ValueError: SlidingWindowRateLimiter::reset(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
$remaining: NULL
== token: TokenBucketRateLimiter($capacity = 10, $refillRate = 0.16666666666666666)
-- long form: each number in turn is 0, -1, NAN, INF, PHP_INT_MAX, 'x', [] (and 1.5 if whole)
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be a finite integer
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be a finite integer
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be at most 1099511627776
TypeError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be of type int, string given
TypeError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be of type int, array given
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be a whole number, 1.5 given
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be greater than 0
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be greater than 0
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be a finite number
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be a finite number
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be at most 1099511627776
TypeError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be of type float, string given
TypeError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be of type float, array given
-- short form: its own names and positions; each number in turn is 0, -1, NAN, PHP_INT_MAX
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($rate) must be greater than 0
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($rate) must be greater than 0
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($rate) must be a finite number
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($rate) must be at most 1099511627776
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be a finite integer
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be at most 1099511627776
-- key prefix, key, connection
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($key) must not be empty
TypeError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
TypeError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, float given
TypeError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, bool given
TypeError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, stdClass given
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis:// or unix://): "http://h"
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (TLS (rediss://) is not supported yet): "rediss://h"
TypeError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) port must be of type int, string given
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
ValueError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
TypeError: TokenBucketRateLimiter::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
-- method arguments
ValueError: TokenBucketRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the capacity), 11 given
ValueError: TokenBucketRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
TypeError: TokenBucketRateLimiter::access(): Argument #2 ($cost) must be of type int, string given
TypeError: TokenBucketRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, array given
TypeError: TokenBucketRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
ValueError: TokenBucketRateLimiter::reset(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
$remaining: NULL
== leaky: LeakyBucketRateLimiter($bucketCapacity = 10, $leakRate = 0.16666666666666666)
-- long form: each number in turn is 0, -1, NAN, INF, PHP_INT_MAX, 'x', [] (and 1.5 if whole)
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be a finite integer
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be a finite integer
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be at most 1099511627776
TypeError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be of type int, string given
TypeError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be of type int, array given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be a whole number, 1.5 given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be greater than 0
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be greater than 0
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be a finite number
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be a finite number
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be at most 1099511627776
TypeError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be of type float, string given
TypeError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be of type float, array given
-- short form: its own names and positions; each number in turn is 0, -1, NAN, PHP_INT_MAX
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($rate) must be greater than 0
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($rate) must be greater than 0
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($rate) must be a finite number
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($rate) must be at most 1099511627776
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($capacity) must be a finite integer
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($capacity) must be at most 1099511627776
-- key prefix, key, connection
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($key) must not be empty
TypeError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
TypeError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, float given
TypeError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, bool given
TypeError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, stdClass given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis:// or unix://): "http://h"
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (TLS (rediss://) is not supported yet): "rediss://h"
TypeError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) port must be of type int, string given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
TypeError: LeakyBucketRateLimiter::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
-- method arguments
ValueError: LeakyBucketRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the capacity), 11 given
ValueError: LeakyBucketRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
TypeError: LeakyBucketRateLimiter::access(): Argument #2 ($cost) must be of type int, string given
TypeError: LeakyBucketRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, array given
TypeError: LeakyBucketRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
ValueError: LeakyBucketRateLimiter::reset(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
$remaining: NULL
== gcra: GcraRateLimiter($maxBurst = 9, $count = 10, $period = 60.0)
-- long form: each number in turn is 0, -1, NAN, INF, PHP_INT_MAX, 'x', [] (and 1.5 if whole)
accepted: $maxBurst = 0
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be greater than or equal to 0
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be a finite integer
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be a finite integer
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be at most 1099511627775
TypeError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be of type int, string given
TypeError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be of type int, array given
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be a whole number, 1.5 given
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be greater than or equal to 1
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be greater than or equal to 1
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be a finite integer
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be a finite integer
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be at most 1099511627776
TypeError: GcraRateLimiter::__construct(): Argument #4 ($count) must be of type int, string given
TypeError: GcraRateLimiter::__construct(): Argument #4 ($count) must be of type int, array given
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be a whole number, 1.5 given
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be greater than 0
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be greater than 0
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be a finite number of seconds
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be a finite number of seconds
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be at most 315360000 seconds (10 years)
TypeError: GcraRateLimiter::__construct(): Argument #5 ($period) must be of type float, string given
TypeError: GcraRateLimiter::__construct(): Argument #5 ($period) must be of type float, array given
-- short form: its own names and positions; each number in turn is 0, -1, NAN, PHP_INT_MAX
accepted: $maxBurst = 0
ValueError: GcraRateLimiter::__construct(): Argument #2 ($maxBurst) must be greater than or equal to 0
ValueError: GcraRateLimiter::__construct(): Argument #2 ($maxBurst) must be a finite integer
ValueError: GcraRateLimiter::__construct(): Argument #2 ($maxBurst) must be at most 1099511627775
ValueError: GcraRateLimiter::__construct(): Argument #3 ($count) must be greater than or equal to 1
ValueError: GcraRateLimiter::__construct(): Argument #3 ($count) must be greater than or equal to 1
ValueError: GcraRateLimiter::__construct(): Argument #3 ($count) must be a finite integer
ValueError: GcraRateLimiter::__construct(): Argument #3 ($count) must be at most 1099511627776
ValueError: GcraRateLimiter::__construct(): Argument #4 ($period) must be greater than 0
ValueError: GcraRateLimiter::__construct(): Argument #4 ($period) must be greater than 0
ValueError: GcraRateLimiter::__construct(): Argument #4 ($period) must be a finite number of seconds
ValueError: GcraRateLimiter::__construct(): Argument #4 ($period) must be at most 315360000 seconds (10 years)
-- key prefix, key, connection
ValueError: GcraRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: GcraRateLimiter::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
ValueError: GcraRateLimiter::__construct(): Argument #1 ($key) must not be empty
TypeError: GcraRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
TypeError: GcraRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, float given
TypeError: GcraRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, bool given
TypeError: GcraRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, stdClass given
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis:// or unix://): "http://h"
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (TLS (rediss://) is not supported yet): "rediss://h"
TypeError: GcraRateLimiter::__construct(): Argument #1 ($connection) port must be of type int, string given
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
ValueError: GcraRateLimiter::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
TypeError: GcraRateLimiter::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
-- method arguments
ValueError: GcraRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: GcraRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: GcraRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
ValueError: GcraRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
TypeError: GcraRateLimiter::access(): Argument #2 ($cost) must be of type int, string given
TypeError: GcraRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, array given
TypeError: GcraRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
ValueError: GcraRateLimiter::reset(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
$remaining: NULL
== what only one class checks
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be at least 0.001 (one millisecond)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be at least 0.001 (one millisecond)
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be at least 1000/315360000 per second (a bucket must fill or empty within 10 years)
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be at least 1000/315360000 per second (a bucket must fill or empty within 10 years)
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be at most 1099511627775
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be at most 60000, so that each slice of the window lasts at least 1 ms; 60001 given
ArgumentCountError: FixedWindowRateLimiter::__construct() expects at most 3 arguments in the short form ($key, $window, $limit), 4 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be at most 1, so that each slice of the window lasts at least 1 ms; 2 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be at most 1000, so that each slice of the window lasts at least 1 ms; 1001 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be greater than or equal to 0, -2 given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #5 ($requestSize) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #5 ($requestSize) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #5 ($requestSize) must be at most the bucket capacity (5), 6 given
ValueError: LeakyBucketRateLimiter::consume(): Argument #2 ($cost) must be at most 3 (the capacity 10 / the request size 3), 4 given
ValueError: LeakyBucketRateLimiter::access(): Argument #2 ($cost) must be at most 3 (the capacity 10 / the request size 3), 9223372036854775807 given
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be at most 1000000 (one request per microsecond of $period)
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be at most 9 for this $count and $period (($maxBurst + 1) × $period / $count must be at most 315360000 seconds)
ValueError: GcraRateLimiter::__construct(): Argument #2 ($maxBurst) must be at most 9 for this $count and $period (($maxBurst + 1) × $period / $count must be at most 315360000 seconds)
ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be greater than or equal to 0
ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be greater than or equal to 0
TypeError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be of type int, string given
ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be a whole number, 1.5 given
TypeError: GcraRateLimiter::throttle(): Argument #1 ($id) must be of type string, array given
ValueError: GcraRateLimiter::throttle(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
accepted: the most blocks, 1000 slices of 1 ms in 1 s
commands Redis saw meanwhile (only our INFO): 1
keys: 0
== valid arguments: only now is Redis asked (nothing listens on port 1)
fixed   RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
sliding RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
blocks  RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
token   RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
leaky   RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
gcra    RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
leaky, requestSize 3: RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
