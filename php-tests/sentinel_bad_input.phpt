--TEST--
Redis Sentinel connection forms that cannot work are ValueError/TypeError naming $connection before anything is sent (no or empty service, a service of several words, malformed or no sentinels, a query without TLS, a client certificate without key); a service the sentinels do not monitor and sentinels that do not answer are RateLimiterExceptions naming them, never the password, and ratelimit.on_error answers for them
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.3
ratelimit.timeout=0.3
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels(replicas: 0, sentinels: 1, quorum: 1);
$live = $set['sentinels'][0];
$port = rl_free_port(); // nothing listens there
$show = fn (string $m) => str_replace([(string) $port, (string) $set['sentinel_ports'][0]], ['PORT', 'SENTINEL'], $m);
foreach ([
    "redis-sentinel://127.0.0.1:$port",
    "redis-sentinel://127.0.0.1:$port#",
    "redis-sentinel://127.0.0.1:$port#my master",
    "redis-sentinel://#mymaster",
    "redis-sentinel://127.0.0.1:$port,,127.0.0.1:1#mymaster",
    "redis-sentinel://127.0.0.1:$port/x#mymaster",
    "redis-sentinel://127.0.0.1:$port?cafile=/ca.pem#mymaster",
    "rediss-sentinel://127.0.0.1:$port?certfile=/client.pem#mymaster",
    ['sentinel' => []],
    ['sentinel' => ["127.0.0.1:$port"]],
    ['sentinel' => ["127.0.0.1:$port"], 'service' => ''],
    ['sentinel' => ["127.0.0.1:$port"], 'service' => 42],
    ['sentinel' => "127.0.0.1:$port", 'service' => 'mymaster'],
    ['sentinel' => [42], 'service' => 'mymaster'],
    ['sentinel' => ['127.0.0.1:0'], 'service' => 'mymaster'],
    ['sentinel' => ["redis://127.0.0.1:$port"], 'service' => 'mymaster'],
    ['sentinel' => ["127.0.0.1:$port"], 'service' => 'mymaster', 'sentinel_auth' => 42],
    ['sentinel' => ["127.0.0.1:$port"], 'service' => 'mymaster', 'database' => -1],
    "redis-sentinel://:secret-pw@127.0.0.1:$port,127.0.0.1:1?sentinel_password=secret-pw#mymaster",
    ['sentinel' => ["127.0.0.1:$port"], 'service' => 'mymaster', 'auth' => ['user', 'secret-pw'], 'sentinel_auth' => 'secret-pw'],
    "redis-sentinel://:secret-pw@$live#othermaster",
    "redis-sentinel://127.0.0.1:$port,$live#othermaster",
] as $connection) {
    try {
        (new FixedWindowRateLimiter($connection, 'c', 60, 5))->consume('x');
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $show($e->getMessage()), "\n";
        if (str_contains($e->getMessage(), 'secret-pw')) echo "  PASSWORD SHOWN\n";
    }
}
echo "-- ratelimit.on_error=allow answers for an unknown service\n";
ini_set('ratelimit.on_error', 'allow');
$r = (new FixedWindowRateLimiter("redis-sentinel://$live#othermaster", 'c', 60, 5))->consume('x');
echo $r->allowed ? 'allowed' : 'denied', ", remaining {$r->remaining}\n";
?>
--EXPECT--
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (names no service: the master's name goes after #, as in redis-sentinel://127.0.0.1:26379#mymaster): "redis-sentinel://127.0.0.1:PORT"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (names no service: the master's name goes after #, as in redis-sentinel://127.0.0.1:26379#mymaster): "redis-sentinel://127.0.0.1:PORT#"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (the service (the master's name) must be one word without spaces or control characters): "redis-sentinel://127.0.0.1:PORT#my master"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis-sentinel://#mymaster"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis-sentinel://127.0.0.1:PORT,,127.0.0.1:1#mymaster"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (db must be a non-negative integer): "redis-sentinel://127.0.0.1:PORT/x#mymaster"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown query parameter, expected sentinel_user or sentinel_password (TLS options need rediss-sentinel://)): "redis-sentinel://127.0.0.1:PORT?cafile=/ca.pem#mymaster"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (certfile and keyfile go together): "rediss-sentinel://127.0.0.1:PORT?certfile=/client.pem#mymaster"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) sentinel must list at least one "host:port" sentinel
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) service must name the master, as in redis-sentinel://127.0.0.1:26379#mymaster
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) service must name the master, as in redis-sentinel://127.0.0.1:26379#mymaster
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) service must be of type string, int given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) sentinel must be of type array, string given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) sentinel entries must be "host:port" strings, int given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) sentinel entries must be "host:port" strings, "127.0.0.1:0" given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) sentinel entries must be "host:port" strings, "redis://127.0.0.1:PORT" given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) sentinel_auth must be of type string|array, int given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) database index must be >= 0, -1 given
RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT,127.0.0.1:1#mymaster: no sentinel answered (127.0.0.1:PORT: connection refused; 127.0.0.1:1: connection refused)
RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT#mymaster user user: no sentinel answered (127.0.0.1:PORT: connection refused)
RateLimiterException: Redis at redis-sentinel://127.0.0.1:SENTINEL#othermaster: no sentinel knows the service "othermaster" (not a master name they monitor)
RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT,127.0.0.1:SENTINEL#othermaster: no sentinel knows the service "othermaster" (1 answered they do not; 127.0.0.1:PORT: connection refused)
-- ratelimit.on_error=allow answers for an unknown service
allowed, remaining 5
