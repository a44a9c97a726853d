--TEST--
TokenBucketRateLimiter: bad arguments are ValueError/TypeError naming the parameter, before Redis is touched
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
echo "-- long form (\$connection, \$keyPrefix, \$capacity, \$refillRate)\n";
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 0, 1.0));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', -5, 1.0));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 5, 0));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 5, -0.5));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 5, NAN));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 5, INF));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 1000, 1e-6));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, '', 5, 1.0));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 5, 'fast'));
rl_throws(fn() => new TokenBucketRateLimiter(RL_URL, 'p', 5));
echo "-- short form (\$key, \$rate, \$capacity)\n";
rl_throws(fn() => new TokenBucketRateLimiter('p', 0, 5));
rl_throws(fn() => new TokenBucketRateLimiter('p', -INF, 5));
rl_throws(fn() => new TokenBucketRateLimiter('p', 1.0, 0));
rl_throws(fn() => new TokenBucketRateLimiter('p', 1.0));
echo "-- cost, checked before Redis (this server does not exist)\n";
$down = new TokenBucketRateLimiter('redis://127.0.0.1:1', 'p', 5, 1.0);
rl_throws(fn() => $down->consume('x', 6));
rl_throws(fn() => $down->isAllowed('x', 0));
rl_throws(fn() => $down->access('x', -1));
rl_throws(fn() => $down->consume('x', 5));
?>
--EXPECT--
-- long form ($connection, $keyPrefix, $capacity, $refillRate)
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be greater than 0
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be greater than 0
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be a finite number
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be a finite number
ValueError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be at least 1000/315360000 per second (a bucket must fill or empty within 10 years)
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
TypeError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) must be of type float, string given
ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #4 ($refillRate) not passed; the long form is ($connection, $keyPrefix, $capacity, $refillRate)
-- short form ($key, $rate, $capacity)
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($rate) must be greater than 0
ValueError: TokenBucketRateLimiter::__construct(): Argument #2 ($rate) must be a finite number
ValueError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be greater than or equal to 1
ArgumentCountError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) not passed; the short form is ($key, $rate, $capacity)
-- cost, checked before Redis (this server does not exist)
ValueError: TokenBucketRateLimiter::consume(): Argument #2 ($cost) must be at most 5 (the capacity), 6 given
ValueError: TokenBucketRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
