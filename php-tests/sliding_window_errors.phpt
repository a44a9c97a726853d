--TEST--
SlidingWindowRateLimiter bad arguments: ValueError/TypeError naming the parameter as the caller's form calls it, before Redis is touched
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.redis_url=redis://127.0.0.1:1
--FILE--
<?php
require __DIR__ . '/config.inc';
// The default connection points to a closed port: any check that reached
// Redis would throw RateLimiterException instead of the errors below.
echo "-- long form\n";
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 0, 10));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', -1.5, 10));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', NAN, 10));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', INF, 10));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 0.0005, 10));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 1e10, 10));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 60, 0));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 60, -3));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 60, 10, -1));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 60, 10, 60001));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 0.001, 10, 2));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 60, 10, 1.5));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 60, 'ten'));
rl_throws(fn () => new SlidingWindowRateLimiter(null, 'p', 60));
rl_throws(fn () => new SlidingWindowRateLimiter(null, '', 60, 10));
rl_throws(fn () => new SlidingWindowRateLimiter(42.5, 'p', 60, 10));
echo "-- short form: its own names and positions\n";
rl_throws(fn () => new SlidingWindowRateLimiter('k', 0, 10));
rl_throws(fn () => new SlidingWindowRateLimiter('k', 60, 0));
rl_throws(fn () => new SlidingWindowRateLimiter('k', 60, 10, -1));
rl_throws(fn () => new SlidingWindowRateLimiter('k', 1, 10, 1001));
rl_throws(fn () => new SlidingWindowRateLimiter('k', 60, 10, blocks: -2));
rl_throws(fn () => new SlidingWindowRateLimiter('k', 60));
rl_throws(fn () => new SlidingWindowRateLimiter('k', 60, 10, 2, 3));
echo "-- the largest blocks is fine (1 ms slices), and nothing was sent to Redis yet\n";
$limiter = new SlidingWindowRateLimiter('k', 1, 10, 1000);
echo "constructed\n";
echo "-- cost, checked before Redis\n";
rl_throws(fn () => $limiter->consume('', 11));
rl_throws(fn () => $limiter->isAllowed('', 0));
echo "-- only now Redis is asked\n";
rl_throws(fn () => $limiter->isAllowed());
?>
--EXPECTF--
-- long form
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be a finite number of seconds
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be at least 0.001 (one millisecond)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($windowSize) must be at most 315360000 seconds (10 years)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be greater than or equal to 0, -1 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be at most 1000, 60001 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be at most 1, so that each slice of the window lasts at least 1 ms; 2 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #5 ($blocks) must be a whole number, 1.5 given
TypeError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) must be of type int, string given
ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #4 ($maxRequests) not passed; the long form is ($connection, $keyPrefix, $windowSize, $maxRequests, $blocks)
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
TypeError: SlidingWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|array|string|null, float given
-- short form: its own names and positions
ValueError: SlidingWindowRateLimiter::__construct(): Argument #2 ($window) must be greater than 0
ValueError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be greater than or equal to 0, -1 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be at most 1000, 1001 given
ValueError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be greater than or equal to 0, -2 given
ArgumentCountError: SlidingWindowRateLimiter::__construct(): Argument #3 ($limit) not passed; the short form is ($key, $window, $limit, $blocks)
ArgumentCountError: SlidingWindowRateLimiter::__construct() expects at most 4 arguments in the short form ($key, $window, $limit, $blocks), 5 given
-- the largest blocks is fine (1 ms slices), and nothing was sent to Redis yet
constructed
-- cost, checked before Redis
ValueError: SlidingWindowRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
-- only now Redis is asked
RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
