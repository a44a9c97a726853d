--TEST--
GcraRateLimiter bad arguments: ValueError/TypeError/ArgumentCountError naming the parameter in either form, nothing sent to Redis
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
    fn () => new GcraRateLimiter($url, 'p', -1, 30, 60),
    fn () => new GcraRateLimiter($url, 'p', 1 << 40, 30, 60),
    fn () => new GcraRateLimiter($url, 'p', 1.5, 30, 60),
    fn () => new GcraRateLimiter($url, 'p', 'lots', 30, 60),
    fn () => new GcraRateLimiter($url, 'p', 14, 0, 60),
    fn () => new GcraRateLimiter($url, 'p', 14, -30, 60),
    fn () => new GcraRateLimiter($url, 'p', 14, [], 60),
    fn () => new GcraRateLimiter($url, 'p', 14, 30, 0),
    fn () => new GcraRateLimiter($url, 'p', 14, 30, -60),
    fn () => new GcraRateLimiter($url, 'p', 14, 30, NAN),
    fn () => new GcraRateLimiter($url, 'p', 14, 30, INF),
    fn () => new GcraRateLimiter($url, 'p', 14, 30, 1e12),
    fn () => new GcraRateLimiter($url, 'p', 14, 30, 'soon'),
    fn () => new GcraRateLimiter($url, 'p', 0, 2000000, 1),
    fn () => new GcraRateLimiter($url, 'p', 10, 1, 86400 * 365),
    fn () => new GcraRateLimiter($url, '', 14, 30, 60),
    fn () => new GcraRateLimiter($url, 'p', 14, 30),
    fn () => new GcraRateLimiter(42, 'p', 14, 30, 60),
    fn () => new GcraRateLimiter('k', -1, 30, 60),
    fn () => new GcraRateLimiter('k', 14, 0, 60),
    fn () => new GcraRateLimiter('k', 14, 30, 0),
    fn () => new GcraRateLimiter('k', 10, 1, 86400 * 365),
    fn () => new GcraRateLimiter('', 14, 30, 60),
    fn () => new GcraRateLimiter('k', 14, 30),
    fn () => new GcraRateLimiter('k', 14, 30, 60, 1),
];
foreach ($cases as $case) rl_throws($case);

echo "-- method arguments\n";
$l = new GcraRateLimiter($url, rl_prefix(), 14, 30, 60);
rl_throws(fn () => $l->throttle('a', -1));
rl_throws(fn () => $l->throttle('a', PHP_INT_MIN));
rl_throws(fn () => $l->throttle('a', 'x'));
rl_throws(fn () => $l->throttle('a', 1.5));
rl_throws(fn () => $l->throttle([]));
rl_throws(fn () => $l->throttle(str_repeat('x', 9000)));
rl_throws(fn () => $l->consume('a', 16));
rl_throws(fn () => $l->isAllowed('a', 0));
rl_throws(fn () => $l->peek(new stdClass));
var_dump($l->remaining);

$after = $r->info('stats')['total_commands_processed'];
echo "commands Redis saw meanwhile (only our INFO): ", $after - $before, "\n";
echo "keys: ", $r->dbSize(), "\n";
rl_stop_redis($own);
?>
--EXPECTF--
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be greater than or equal to 0
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be at most 1099511627775
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be a whole number, 1.5 given
TypeError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be of type int, string given
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be greater than or equal to 1
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be greater than or equal to 1
TypeError: GcraRateLimiter::__construct(): Argument #4 ($count) must be of type int, array given
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be greater than 0
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be greater than 0
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be a finite number of seconds
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be a finite number of seconds
ValueError: GcraRateLimiter::__construct(): Argument #5 ($period) must be at most 315360000 seconds (10 years)
TypeError: GcraRateLimiter::__construct(): Argument #5 ($period) must be of type float, string given
ValueError: GcraRateLimiter::__construct(): Argument #4 ($count) must be at most 1000000 (one request per microsecond of $period)
ValueError: GcraRateLimiter::__construct(): Argument #3 ($maxBurst) must be at most 9 for this $count and $period (($maxBurst + 1) × $period / $count must be at most 315360000 seconds)
ValueError: GcraRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ArgumentCountError: GcraRateLimiter::__construct(): Argument #5 ($period) not passed; the long form is ($connection, $keyPrefix, $maxBurst, $count, $period)
TypeError: GcraRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, int given
ValueError: GcraRateLimiter::__construct(): Argument #2 ($maxBurst) must be greater than or equal to 0
ValueError: GcraRateLimiter::__construct(): Argument #3 ($count) must be greater than or equal to 1
ValueError: GcraRateLimiter::__construct(): Argument #4 ($period) must be greater than 0
ValueError: GcraRateLimiter::__construct(): Argument #2 ($maxBurst) must be at most 9 for this $count and $period (($maxBurst + 1) × $period / $count must be at most 315360000 seconds)
ValueError: GcraRateLimiter::__construct(): Argument #1 ($key) must not be empty
ArgumentCountError: GcraRateLimiter::__construct(): Argument #4 ($period) not passed; the short form is ($key, $maxBurst, $count, $period)
ArgumentCountError: GcraRateLimiter::__construct() expects at most 4 arguments in the short form ($key, $maxBurst, $count, $period), 5 given
-- method arguments
ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be greater than or equal to 0
ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be greater than or equal to 0
TypeError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be of type int, string given
ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be a whole number, 1.5 given
TypeError: GcraRateLimiter::throttle(): Argument #1 ($id) must be of type string, array given
ValueError: GcraRateLimiter::throttle(): Argument #1 ($id) makes a Redis key of %d bytes; keys are limited to 8192
ValueError: GcraRateLimiter::consume(): Argument #2 ($cost) must be at most 15 (the limit), 16 given
ValueError: GcraRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
TypeError: GcraRateLimiter::peek(): Argument #1 ($id) must be of type string, stdClass given
NULL
commands Redis saw meanwhile (only our INFO): 1
keys: 0
