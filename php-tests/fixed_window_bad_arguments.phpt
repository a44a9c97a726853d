--TEST--
FixedWindowRateLimiter bad arguments: ValueError/TypeError naming the parameter, nothing sent to Redis
--SKIPIF--
<?php $needs = ['redis', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
// A server of its own: the command count must not see other tests' traffic.
$own = rl_start_redis();
$url = 'redis://127.0.0.1:' . $own['port'];
ini_set('ratelimit.redis_url', $url);
$r = rl_redis($own['port']);
$before = $r->info('stats')['total_commands_processed'];
$cases = [
    fn () => new FixedWindowRateLimiter($url, 'p', 0, 10),
    fn () => new FixedWindowRateLimiter($url, 'p', -1, 10),
    fn () => new FixedWindowRateLimiter($url, 'p', NAN, 10),
    fn () => new FixedWindowRateLimiter($url, 'p', INF, 10),
    fn () => new FixedWindowRateLimiter($url, 'p', 0.0001, 10),
    fn () => new FixedWindowRateLimiter($url, 'p', 1e12, 10),
    fn () => new FixedWindowRateLimiter($url, 'p', 60, 0),
    fn () => new FixedWindowRateLimiter($url, 'p', 60, -3),
    fn () => new FixedWindowRateLimiter($url, 'p', 60, 1.5),
    fn () => new FixedWindowRateLimiter($url, 'p', 60, 'lots'),
    fn () => new FixedWindowRateLimiter($url, 'p', [], 10),
    fn () => new FixedWindowRateLimiter($url, '', 60, 10),
    fn () => new FixedWindowRateLimiter($url, str_repeat('k', 9000), 60, 10),
    fn () => new FixedWindowRateLimiter('', 60, 10),
    fn () => new FixedWindowRateLimiter('k', 0, 10),
    fn () => new FixedWindowRateLimiter('k', 60, 0),
    fn () => new FixedWindowRateLimiter('k', 60, PHP_INT_MAX),
    fn () => new FixedWindowRateLimiter(42, 'p', 60, 10),
    fn () => new FixedWindowRateLimiter(new stdClass, 'p', 60, 10),
    fn () => new FixedWindowRateLimiter(true, 'p', 60, 10),
    fn () => new FixedWindowRateLimiter('http://h', 'p', 60, 10),
    fn () => new FixedWindowRateLimiter('redis://h:99999', 'p', 60, 10),
    fn () => new FixedWindowRateLimiter('redis://h:6379/x', 'p', 60, 10),
    fn () => new FixedWindowRateLimiter('redis://:6379', 'p', 60, 10),
    fn () => new FixedWindowRateLimiter('rediss://h', 'p', 60, 10),
    fn () => new FixedWindowRateLimiter(['port' => 'abc'], 'p', 60, 10),
    fn () => new FixedWindowRateLimiter(['port' => 70000], 'p', 60, 10),
    fn () => new FixedWindowRateLimiter(['index' => -1], 'p', 60, 10),
    fn () => new FixedWindowRateLimiter(['timeout' => -2], 'p', 60, 10),
    fn () => new FixedWindowRateLimiter(['auth' => 5.5], 'p', 60, 10),
];
foreach ($cases as $case) rl_throws($case);

echo "-- method arguments\n";
$l = new FixedWindowRateLimiter($url, rl_prefix(), 60, 5);
rl_throws(fn () => $l->isAllowed('a', 0));
rl_throws(fn () => $l->isAllowed('a', -1));
rl_throws(fn () => $l->consume('a', 6));
rl_throws(fn () => $l->access('a', 'x'));
rl_throws(fn () => $l->isAllowed([]));
rl_throws(fn () => $l->peek(new stdClass));
rl_throws(fn () => $l->reset(str_repeat('x', 9000)));

$after = $r->info('stats')['total_commands_processed'];
echo "commands Redis saw meanwhile (only our INFO): ", $after - $before, "\n";
echo "keys: ", $r->dbSize(), "\n";
rl_stop_redis($own);
?>
--EXPECTF--
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be greater than 0
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be greater than 0
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be at least 0.001 (one millisecond)
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be at most 315360000 seconds (10 years)
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be a whole number, 1.5 given
TypeError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) must be of type int, string given
TypeError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be of type float, array given
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must be at most 8192 bytes, 9000 given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($key) must not be empty
ValueError: FixedWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) must be at most 1099511627776
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, stdClass given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, bool given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown scheme, expected redis:// or unix://): "http://h"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://h:99999"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis://h:6379/x"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis://:6379"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS (rediss://), which is not supported yet; nothing was sent
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) port must be of type int, string given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) port must be 1..65535, 70000 given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) timeout must be a finite number of seconds >= 0
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) auth must be of type string|array, float given
-- method arguments
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be at most 5 (the limit), 6 given
TypeError: FixedWindowRateLimiter::access(): Argument #2 ($cost) must be of type int, string given
TypeError: FixedWindowRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, array given
TypeError: FixedWindowRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
ValueError: FixedWindowRateLimiter::reset(): Argument #1 ($id) makes a Redis key of %d bytes; keys are limited to 8192
commands Redis saw meanwhile (only our INFO): 1
keys: 0
