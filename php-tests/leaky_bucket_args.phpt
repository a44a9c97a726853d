--TEST--
LeakyBucketRateLimiter: bad arguments are ValueError/TypeError naming the parameter, before Redis is touched
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
echo "-- long form (\$connection, \$keyPrefix, \$bucketCapacity, \$leakRate, \$requestSize = 1)\n";
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 0, 1.0));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', -1, 1.0));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5, 0.0));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5, -3));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5, NAN));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5, INF));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 1000, 1e-6));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5, 1.0, 0));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5, 1.0, -2));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5, 1.0, 6));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, '', 5, 1.0));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 'big', 1.0));
rl_throws(fn() => new LeakyBucketRateLimiter(RL_URL, 'p', 5));
echo "-- short form (\$key, \$rate, \$capacity)\n";
rl_throws(fn() => new LeakyBucketRateLimiter('p', 0, 5));
rl_throws(fn() => new LeakyBucketRateLimiter('p', NAN, 5));
rl_throws(fn() => new LeakyBucketRateLimiter('p', 1.0, 0));
rl_throws(fn() => new LeakyBucketRateLimiter('p', 1.0, 5, 2));
echo "-- cost x requestSize must fit, checked before Redis (this server does not exist)\n";
$down = new LeakyBucketRateLimiter('redis://127.0.0.1:1', 'p', 10, 1.0);
rl_throws(fn() => $down->consume('x', 11));
rl_throws(fn() => $down->isAllowed('x', 0));
$sized = new LeakyBucketRateLimiter('redis://127.0.0.1:1', 'p', 10, 1.0, 3);
rl_throws(fn() => $sized->consume('x', 4));
rl_throws(fn() => $sized->access('x', PHP_INT_MAX));
rl_throws(fn() => $sized->consume('x', 3));
?>
--EXPECT--
-- long form ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize = 1)
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be greater than 0
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be greater than 0
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be a finite number
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be a finite number
ValueError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) must be at least 1000/315360000 per second (a bucket must fill or empty within 10 years)
ValueError: LeakyBucketRateLimiter::__construct(): Argument #5 ($requestSize) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #5 ($requestSize) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::__construct(): Argument #5 ($requestSize) must be at most the bucket capacity (5), 6 given
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
TypeError: LeakyBucketRateLimiter::__construct(): Argument #3 ($bucketCapacity) must be of type int, string given
ArgumentCountError: LeakyBucketRateLimiter::__construct(): Argument #4 ($leakRate) not passed; the long form is ($connection, $keyPrefix, $bucketCapacity, $leakRate, $requestSize)
-- short form ($key, $rate, $capacity)
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($rate) must be greater than 0
ValueError: LeakyBucketRateLimiter::__construct(): Argument #2 ($rate) must be a finite number
ValueError: LeakyBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ArgumentCountError: LeakyBucketRateLimiter::__construct() expects at most 3 arguments in the short form ($key, $rate, $capacity), 4 given
-- cost x requestSize must fit, checked before Redis (this server does not exist)
ValueError: LeakyBucketRateLimiter::consume(): Argument #2 ($cost) must be at most 10 (the capacity), 11 given
ValueError: LeakyBucketRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::consume(): Argument #2 ($cost) must be at most 3 (the capacity 10 / the request size 3), 4 given
ValueError: LeakyBucketRateLimiter::access(): Argument #2 ($cost) must be at most 3 (the capacity 10 / the request size 3), 9223372036854775807 given
RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
