--TEST--
Every class, one table: bad numbers, key prefixes, keys, connections and method arguments each raise ValueError/TypeError in PHP's words naming the parameter as the caller's form calls it, and nothing reaches Redis; then what only one class checks
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
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

// Out of range or of the wrong type for every number (a 1.5 for a whole one is
// PHP's coercion with its deprecation, strict_types_scalars.phpt); 0 is valid only where nothing is a meaningful amount (a GCRA burst
// of none beyond the first, no blocks): the table says "accepted".
$badNumbers = [0, -1, NAN, INF, PHP_INT_MAX, 'x', []];
$badShort = [0, -1, NAN, PHP_INT_MAX];
$badConnections = [42, 42.5, true, new stdClass, 'http://h', 'redis://h:99999', 'redis://h:6379/x', 'redis://:6379', 'rediss://h?verify_peer=2',
    ['port' => 'abc'], ['port' => 70000], ['index' => -1], ['timeout' => -2], ['auth' => 5.5]];
// What each call threw, kind by kind, for rl_table(); the class's own name
// reads "Class" so that messages the same for every class print once.
$seen = [];
$try = function (string $kind, string $check, callable $f) use (&$seen) {
    try {
        $f();
        $seen[$kind][$check] = 'accepted';
    } catch (Throwable $e) {
        $seen[$kind][$check] = get_class($e) . ': ' . str_replace(rl_classes()[$kind]['class'] . '::', 'Class::', $e->getMessage());
    }
};
echo "Class:: below is each kind's own class: ", implode(', ', array_map(fn ($k, $c) => "$k {$c['class']}", array_keys(rl_classes()), rl_classes())), "\n";
$show = fn ($value) => str_replace(["\n", ' ', 'NAN.0', 'INF.0'], ['', '', 'NAN', 'INF'], var_export($value, true));
foreach (rl_classes() as $kind => $c) {
    $class = $c['class'];
    $good = $c['params'](10, 60);   // limit 10, 60 s
    $seen[$kind]['valid arguments'] = implode(', ', array_map(fn ($n, $v) => "\$$n = " . var_export($v, true), array_keys($good), $good));
    $position = 3;
    foreach ($good as $name => $value) {
        foreach ($badNumbers as $bad) {
            $try($kind, "long form, argument #$position = " . $show($bad), fn () => new $class($url, 'p', ...array_values(array_replace($good, [$name => $bad]))));
        }
        $position++;
    }
    foreach ($c['short'] as $i => $name) {
        foreach ($badShort as $bad) {
            $try($kind, 'short form, argument #' . ($i + 2) . ' = ' . $show($bad),
                fn () => new $class('k', ...array_map(fn ($n) => $n === $name ? $bad : $good[$n], $c['short'])));
        }
    }
    $try($kind, "key prefix ''", fn () => new $class($url, '', ...array_values($good)));
    $try($kind, 'key prefix of 9000 bytes', fn () => new $class($url, str_repeat('k', 9000), ...array_values($good)));
    $try($kind, "short form, key ''", fn () => new $class('', ...array_map(fn ($n) => $good[$n], $c['short'])));
    foreach ($badConnections as $connection) {
        $try($kind, 'connection ' . $show($connection), fn () => new $class($connection, 'p', ...array_values($good)));
    }
    $l = new $class($url, 'p', ...array_values($good));
    $try($kind, "isAllowed('a', 0)", fn () => $l->isAllowed('a', 0));
    $try($kind, "isAllowed('a', -1)", fn () => $l->isAllowed('a', -1));
    $try($kind, "consume('a', 11), over the limit", fn () => $l->consume('a', 11));
    $try($kind, "access('a', -2)", fn () => $l->access('a', -2));
    $try($kind, "access('a', 'x')", fn () => $l->access('a', 'x'));
    $try($kind, 'isAllowed([])', fn () => $l->isAllowed([]));
    $try($kind, 'peek(new stdClass)', fn () => $l->peek(new stdClass));
    $try($kind, 'reset() of an id of 9000 bytes', fn () => $l->reset(str_repeat('x', 9000)));
    $seen[$kind]['$remaining after all that'] = var_export($l->remaining, true);
}
rl_table($seen);

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
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle([]),
    fn () => (new GcraRateLimiter($url, 'p', 14, 30, 60))->throttle(str_repeat('x', 9000)),
];
foreach ($specific as $case) {
    rl_throws($case);
}
echo "the most blocks, 1000 slices of 1 ms in 1 s: ";
rl_throws(fn () => new SlidingWindowRateLimiter('k', 1, 10, 1000));

$after = $r->info('stats')['total_commands_processed'];
echo "commands Redis saw meanwhile (only our INFO): ", $after - $before, "\n";
echo "keys: ", $r->dbSize(), "\n";
rl_stop_redis($own);

echo "== valid arguments: only now is Redis asked (nothing listens on port 1)\n";
$seen = [];
foreach (rl_classes() as $kind => $c) {
    $try($kind, 'consume(\'x\', 10)', fn () => rl_long($kind, 'redis://127.0.0.1:1', 'p', 10)->consume('x', 10));
}
rl_table($seen);
echo "leaky, requestSize 3, consume('x', 3): ";
rl_throws(fn () => (new LeakyBucketRateLimiter('redis://127.0.0.1:1', 'p', 10, 1.0, 3))->consume('x', 3));
?>
--EXPECT--
Class:: below is each kind's own class: fixed FixedWindowRateLimiter, sliding SlidingWindowRateLimiter, blocks SlidingWindowRateLimiter, token TokenBucketRateLimiter, leaky LeakyBucketRateLimiter, gcra GcraRateLimiter
valid arguments:
  fixed    $window = 60.0, $limit = 10
  sliding  $windowSize = 60.0, $maxRequests = 10
  blocks   $windowSize = 60.0, $maxRequests = 10, $blocks = 6
  token    $capacity = 10, $refillRate = 0.16666666666666666
  leaky    $bucketCapacity = 10, $leakRate = 0.16666666666666666
  gcra     $maxBurst = 9, $count = 10, $period = 60.0
long form, argument #3 = 0:
  fixed    ValueError: Class::__construct(): Argument #3 ($window) must be greater than 0
  sliding  ValueError: Class::__construct(): Argument #3 ($windowSize) must be greater than 0
  blocks   ValueError: Class::__construct(): Argument #3 ($windowSize) must be greater than 0
  token    ValueError: Class::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
  leaky    ValueError: Class::__construct(): Argument #3 ($bucketCapacity) must be greater than or equal to 1
  gcra     accepted
long form, argument #3 = -1:
  fixed    ValueError: Class::__construct(): Argument #3 ($window) must be greater than 0
  sliding  ValueError: Class::__construct(): Argument #3 ($windowSize) must be greater than 0
  blocks   ValueError: Class::__construct(): Argument #3 ($windowSize) must be greater than 0
  token    ValueError: Class::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
  leaky    ValueError: Class::__construct(): Argument #3 ($bucketCapacity) must be greater than or equal to 1
  gcra     ValueError: Class::__construct(): Argument #3 ($maxBurst) must be greater than or equal to 0
long form, argument #3 = NAN:
  fixed    ValueError: Class::__construct(): Argument #3 ($window) must be a finite number of seconds
  sliding  ValueError: Class::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
  blocks   ValueError: Class::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
  token    TypeError: Class::__construct(): Argument #3 ($capacity) must be of type int, float given
  leaky    TypeError: Class::__construct(): Argument #3 ($bucketCapacity) must be of type int, float given
  gcra     TypeError: Class::__construct(): Argument #3 ($maxBurst) must be of type int, float given
long form, argument #3 = INF:
  fixed    ValueError: Class::__construct(): Argument #3 ($window) must be a finite number of seconds
  sliding  ValueError: Class::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
  blocks   ValueError: Class::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
  token    TypeError: Class::__construct(): Argument #3 ($capacity) must be of type int, float given
  leaky    TypeError: Class::__construct(): Argument #3 ($bucketCapacity) must be of type int, float given
  gcra     TypeError: Class::__construct(): Argument #3 ($maxBurst) must be of type int, float given
long form, argument #3 = 9223372036854775807:
  fixed    ValueError: Class::__construct(): Argument #3 ($window) must be at most 315360000 seconds (10 years)
  sliding  ValueError: Class::__construct(): Argument #3 ($windowSize) must be at most 315360000 seconds (10 years)
  blocks   ValueError: Class::__construct(): Argument #3 ($windowSize) must be at most 315360000 seconds (10 years)
  token    ValueError: Class::__construct(): Argument #3 ($capacity) must be at most 1099511627776
  leaky    ValueError: Class::__construct(): Argument #3 ($bucketCapacity) must be at most 1099511627776
  gcra     ValueError: Class::__construct(): Argument #3 ($maxBurst) must be at most 1099511627775
long form, argument #3 = 'x':
  fixed    TypeError: Class::__construct(): Argument #3 ($window) must be of type float, string given
  sliding  TypeError: Class::__construct(): Argument #3 ($windowSize) must be of type float, string given
  blocks   TypeError: Class::__construct(): Argument #3 ($windowSize) must be of type float, string given
  token    TypeError: Class::__construct(): Argument #3 ($capacity) must be of type int, string given
  leaky    TypeError: Class::__construct(): Argument #3 ($bucketCapacity) must be of type int, string given
  gcra     TypeError: Class::__construct(): Argument #3 ($maxBurst) must be of type int, string given
long form, argument #3 = array():
  fixed    TypeError: Class::__construct(): Argument #3 ($window) must be of type float, array given
  sliding  TypeError: Class::__construct(): Argument #3 ($windowSize) must be of type float, array given
  blocks   TypeError: Class::__construct(): Argument #3 ($windowSize) must be of type float, array given
  token    TypeError: Class::__construct(): Argument #3 ($capacity) must be of type int, array given
  leaky    TypeError: Class::__construct(): Argument #3 ($bucketCapacity) must be of type int, array given
  gcra     TypeError: Class::__construct(): Argument #3 ($maxBurst) must be of type int, array given
long form, argument #4 = 0:
  fixed    ValueError: Class::__construct(): Argument #4 ($limit) must be greater than or equal to 1
  sliding  ValueError: Class::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
  blocks   ValueError: Class::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
  token    ValueError: Class::__construct(): Argument #4 ($refillRate) must be greater than 0
  leaky    ValueError: Class::__construct(): Argument #4 ($leakRate) must be greater than 0
  gcra     ValueError: Class::__construct(): Argument #4 ($count) must be greater than or equal to 1
long form, argument #4 = -1:
  fixed    ValueError: Class::__construct(): Argument #4 ($limit) must be greater than or equal to 1
  sliding  ValueError: Class::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
  blocks   ValueError: Class::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
  token    ValueError: Class::__construct(): Argument #4 ($refillRate) must be greater than 0
  leaky    ValueError: Class::__construct(): Argument #4 ($leakRate) must be greater than 0
  gcra     ValueError: Class::__construct(): Argument #4 ($count) must be greater than or equal to 1
long form, argument #4 = NAN:
  fixed    TypeError: Class::__construct(): Argument #4 ($limit) must be of type int, float given
  sliding  TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, float given
  blocks   TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, float given
  token    ValueError: Class::__construct(): Argument #4 ($refillRate) must be a finite number
  leaky    ValueError: Class::__construct(): Argument #4 ($leakRate) must be a finite number
  gcra     TypeError: Class::__construct(): Argument #4 ($count) must be of type int, float given
long form, argument #4 = INF:
  fixed    TypeError: Class::__construct(): Argument #4 ($limit) must be of type int, float given
  sliding  TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, float given
  blocks   TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, float given
  token    ValueError: Class::__construct(): Argument #4 ($refillRate) must be a finite number
  leaky    ValueError: Class::__construct(): Argument #4 ($leakRate) must be a finite number
  gcra     TypeError: Class::__construct(): Argument #4 ($count) must be of type int, float given
long form, argument #4 = 9223372036854775807:
  fixed    ValueError: Class::__construct(): Argument #4 ($limit) must be at most 1099511627776
  sliding  ValueError: Class::__construct(): Argument #4 ($maxRequests) must be at most 1099511627776
  blocks   ValueError: Class::__construct(): Argument #4 ($maxRequests) must be at most 1099511627776
  token    ValueError: Class::__construct(): Argument #4 ($refillRate) must be at most 1099511627776
  leaky    ValueError: Class::__construct(): Argument #4 ($leakRate) must be at most 1099511627776
  gcra     ValueError: Class::__construct(): Argument #4 ($count) must be at most 1099511627776
long form, argument #4 = 'x':
  fixed    TypeError: Class::__construct(): Argument #4 ($limit) must be of type int, string given
  sliding  TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, string given
  blocks   TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, string given
  token    TypeError: Class::__construct(): Argument #4 ($refillRate) must be of type float, string given
  leaky    TypeError: Class::__construct(): Argument #4 ($leakRate) must be of type float, string given
  gcra     TypeError: Class::__construct(): Argument #4 ($count) must be of type int, string given
long form, argument #4 = array():
  fixed    TypeError: Class::__construct(): Argument #4 ($limit) must be of type int, array given
  sliding  TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, array given
  blocks   TypeError: Class::__construct(): Argument #4 ($maxRequests) must be of type int, array given
  token    TypeError: Class::__construct(): Argument #4 ($refillRate) must be of type float, array given
  leaky    TypeError: Class::__construct(): Argument #4 ($leakRate) must be of type float, array given
  gcra     TypeError: Class::__construct(): Argument #4 ($count) must be of type int, array given
short form, argument #2 = 0:
  fixed    ValueError: Class::__construct(): Argument #2 ($window) must be greater than 0
  sliding  ValueError: Class::__construct(): Argument #2 ($window) must be greater than 0
  blocks   ValueError: Class::__construct(): Argument #2 ($window) must be greater than 0
  token    ValueError: Class::__construct(): Argument #2 ($rate) must be greater than 0
  leaky    ValueError: Class::__construct(): Argument #2 ($rate) must be greater than 0
  gcra     accepted
short form, argument #2 = -1:
  fixed    ValueError: Class::__construct(): Argument #2 ($window) must be greater than 0
  sliding  ValueError: Class::__construct(): Argument #2 ($window) must be greater than 0
  blocks   ValueError: Class::__construct(): Argument #2 ($window) must be greater than 0
  token    ValueError: Class::__construct(): Argument #2 ($rate) must be greater than 0
  leaky    ValueError: Class::__construct(): Argument #2 ($rate) must be greater than 0
  gcra     ValueError: Class::__construct(): Argument #2 ($maxBurst) must be greater than or equal to 0
short form, argument #2 = NAN:
  fixed    ValueError: Class::__construct(): Argument #2 ($window) must be a finite number of seconds
  sliding  ValueError: Class::__construct(): Argument #2 ($window) must be a finite number of seconds
  blocks   ValueError: Class::__construct(): Argument #2 ($window) must be a finite number of seconds
  token    ValueError: Class::__construct(): Argument #2 ($rate) must be a finite number
  leaky    ValueError: Class::__construct(): Argument #2 ($rate) must be a finite number
  gcra     TypeError: Class::__construct(): Argument #2 ($maxBurst) must be of type int, float given
short form, argument #2 = 9223372036854775807:
  fixed    ValueError: Class::__construct(): Argument #2 ($window) must be at most 315360000 seconds (10 years)
  sliding  ValueError: Class::__construct(): Argument #2 ($window) must be at most 315360000 seconds (10 years)
  blocks   ValueError: Class::__construct(): Argument #2 ($window) must be at most 315360000 seconds (10 years)
  token    ValueError: Class::__construct(): Argument #2 ($rate) must be at most 1099511627776
  leaky    ValueError: Class::__construct(): Argument #2 ($rate) must be at most 1099511627776
  gcra     ValueError: Class::__construct(): Argument #2 ($maxBurst) must be at most 1099511627775
short form, argument #3 = 0:
  fixed    ValueError: Class::__construct(): Argument #3 ($limit) must be greater than or equal to 1
  sliding  ValueError: Class::__construct(): Argument #3 ($limit) must be greater than or equal to 1
  blocks   ValueError: Class::__construct(): Argument #3 ($limit) must be greater than or equal to 1
  token    ValueError: Class::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
  leaky    ValueError: Class::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
  gcra     ValueError: Class::__construct(): Argument #3 ($count) must be greater than or equal to 1
short form, argument #3 = -1:
  fixed    ValueError: Class::__construct(): Argument #3 ($limit) must be greater than or equal to 1
  sliding  ValueError: Class::__construct(): Argument #3 ($limit) must be greater than or equal to 1
  blocks   ValueError: Class::__construct(): Argument #3 ($limit) must be greater than or equal to 1
  token    ValueError: Class::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
  leaky    ValueError: Class::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
  gcra     ValueError: Class::__construct(): Argument #3 ($count) must be greater than or equal to 1
short form, argument #3 = NAN:
  fixed    TypeError: Class::__construct(): Argument #3 ($limit) must be of type int, float given
  sliding  TypeError: Class::__construct(): Argument #3 ($limit) must be of type int, float given
  blocks   TypeError: Class::__construct(): Argument #3 ($limit) must be of type int, float given
  token    TypeError: Class::__construct(): Argument #3 ($capacity) must be of type int, float given
  leaky    TypeError: Class::__construct(): Argument #3 ($capacity) must be of type int, float given
  gcra     TypeError: Class::__construct(): Argument #3 ($count) must be of type int, float given
short form, argument #3 = 9223372036854775807:
  fixed    ValueError: Class::__construct(): Argument #3 ($limit) must be at most 1099511627776
  sliding  ValueError: Class::__construct(): Argument #3 ($limit) must be at most 1099511627776
  blocks   ValueError: Class::__construct(): Argument #3 ($limit) must be at most 1099511627776
  token    ValueError: Class::__construct(): Argument #3 ($capacity) must be at most 1099511627776
  leaky    ValueError: Class::__construct(): Argument #3 ($capacity) must be at most 1099511627776
  gcra     ValueError: Class::__construct(): Argument #3 ($count) must be at most 1099511627776
key prefix '': ValueError: Class::__construct(): Argument #2 ($keyPrefix) must not be empty
key prefix of 9000 bytes: ValueError: Class::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
short form, key '': ValueError: Class::__construct(): Argument #1 ($key) must not be empty
connection 42: TypeError: Class::__construct(): Argument #1 ($connection) must be of type Redis|RedisCluster|array|string|null in the long form (an int or float there is only the short form's key), int given
connection 42.5: TypeError: Class::__construct(): Argument #1 ($connection) must be of type Redis|RedisCluster|array|string|null in the long form (an int or float there is only the short form's key), float given
connection true: TypeError: Class::__construct(): Argument #1 ($connection) must be of type Redis|RedisCluster|array|string|null, bool given
connection (object)array(): TypeError: Class::__construct(): Argument #1 ($connection) must be of type Redis|RedisCluster|array|string|null, stdClass given
connection 'http://h': ValueError: Class::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis://, rediss://, redis-cluster://, redis-sentinel:// or unix://): "http://h"
connection 'redis://h:99999': ValueError: Class::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
connection 'redis://h:6379/x': ValueError: Class::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
connection 'redis://:6379': ValueError: Class::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
connection 'rediss://h?verify_peer=2': ValueError: Class::__construct(): Argument #1 ($connection) is not a valid Redis DSN (verify_peer must be 0 or 1): "rediss://h?verify_peer=2"
connection array('port'=>'abc',): TypeError: Class::__construct(): Argument #1 ($connection) port must be of type int, string given
connection array('port'=>70000,): ValueError: Class::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
connection array('index'=>-1,): ValueError: Class::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
connection array('timeout'=>-2,): ValueError: Class::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
connection array('auth'=>5.5,): TypeError: Class::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
isAllowed('a', 0): ValueError: Class::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
isAllowed('a', -1): ValueError: Class::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
consume('a', 11), over the limit:
  fixed    ValueError: Class::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
  sliding  ValueError: Class::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
  blocks   ValueError: Class::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
  token    ValueError: Class::consume(): Argument #2 ($cost) must be at most 10 (the capacity), 11 given
  leaky    ValueError: Class::consume(): Argument #2 ($cost) must be at most 10 (the capacity), 11 given
  gcra     ValueError: Class::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
access('a', -2): ValueError: Class::access(): Argument #2 ($cost) must be greater than or equal to 1
access('a', 'x'): TypeError: Class::access(): Argument #2 ($cost) must be of type int, string given
isAllowed([]): TypeError: Class::isAllowed(): Argument #1 ($id) must be of type string, array given
peek(new stdClass): TypeError: Class::peek(): Argument #1 ($id) must be of type string, stdClass given
reset() of an id of 9000 bytes: ValueError: Class::reset(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
$remaining after all that: NULL
long form, argument #5 = 0:
  blocks   accepted
  gcra     ValueError: Class::__construct(): Argument #5 ($period) must be greater than 0
long form, argument #5 = -1:
  blocks   ValueError: Class::__construct(): Argument #5 ($blocks) must be greater than or equal to 0, -1 given
  gcra     ValueError: Class::__construct(): Argument #5 ($period) must be greater than 0
long form, argument #5 = NAN:
  blocks   TypeError: Class::__construct(): Argument #5 ($blocks) must be of type int, float given
  gcra     ValueError: Class::__construct(): Argument #5 ($period) must be a finite number of seconds
long form, argument #5 = INF:
  blocks   TypeError: Class::__construct(): Argument #5 ($blocks) must be of type int, float given
  gcra     ValueError: Class::__construct(): Argument #5 ($period) must be a finite number of seconds
long form, argument #5 = 9223372036854775807:
  blocks   ValueError: Class::__construct(): Argument #5 ($blocks) must be at most 1000, 9223372036854775807 given
  gcra     ValueError: Class::__construct(): Argument #5 ($period) must be at most 315360000 seconds (10 years)
long form, argument #5 = 'x':
  blocks   TypeError: Class::__construct(): Argument #5 ($blocks) must be of type int, string given
  gcra     TypeError: Class::__construct(): Argument #5 ($period) must be of type float, string given
long form, argument #5 = array():
  blocks   TypeError: Class::__construct(): Argument #5 ($blocks) must be of type int, array given
  gcra     TypeError: Class::__construct(): Argument #5 ($period) must be of type float, array given
short form, argument #4 = 0:
  blocks   accepted
  gcra     ValueError: Class::__construct(): Argument #4 ($period) must be greater than 0
short form, argument #4 = -1:
  blocks   ValueError: Class::__construct(): Argument #4 ($blocks) must be greater than or equal to 0, -1 given
  gcra     ValueError: Class::__construct(): Argument #4 ($period) must be greater than 0
short form, argument #4 = NAN:
  blocks   TypeError: Class::__construct(): Argument #4 ($blocks) must be of type int, float given
  gcra     ValueError: Class::__construct(): Argument #4 ($period) must be a finite number of seconds
short form, argument #4 = 9223372036854775807:
  blocks   ValueError: Class::__construct(): Argument #4 ($blocks) must be at most 1000, 9223372036854775807 given
  gcra     ValueError: Class::__construct(): Argument #4 ($period) must be at most 315360000 seconds (10 years)
== what only one class checks
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be at least 0.001 (one millisecond)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be at least 0.001 (one millisecond)
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be at least 1000/315360000 per second (a bucket must fill or empty within 10 years)
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be at least 1000/315360000 per second (a bucket must fill or empty within 10 years)
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be at most 1099511627775
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be at most 1000, 60001 given
ArgumentCountError: FixedWindowRateLimiter::__construct() expects at most 3 arguments in the short form, 4 given; the short form is ($key, $window, $limit), the long form is ($connection, $keyPrefix, $window, $limit)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be at most 1, so that each slice of the window lasts at least 1 ms; 2 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be at most 1000, 1001 given
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
TypeError: GcraRateLimiter::throttle(): Argument #1 ($id) must be of type string, array given
ValueError: GcraRateLimiter::throttle(): Argument #1 ($id) makes a Redis key of 9002 bytes; keys are limited to 8192
the most blocks, 1000 slices of 1 ms in 1 s: no exception
commands Redis saw meanwhile (only our INFO): 1
keys: 0
== valid arguments: only now is Redis asked (nothing listens on port 1)
consume('x', 10): RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
leaky, requestSize 3, consume('x', 3): RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
