--TEST--
Redis Cluster connection forms that cannot work are ValueError/TypeError naming $connection before anything is sent (a db, a query without TLS, TLS client certificate without key, empty or malformed seeds); an unreachable cluster is a RateLimiterException naming the seeds, never the password
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.3
ratelimit.timeout=0.3
--FILE--
<?php
require __DIR__ . '/config.inc';
$port = rl_free_port(); // nothing listens there
foreach ([
    "redis-cluster://127.0.0.1:$port/1",
    "redis-cluster://127.0.0.1:$port?x=1",
    "redis-cluster://127.0.0.1:$port,,127.0.0.1:1",
    "redis-cluster://",
    "rediss-cluster://127.0.0.1:$port?certfile=/client.pem",
    ['cluster' => []],
    ['cluster' => 'h:1'],
    ['cluster' => [42]],
    ['cluster' => ['127.0.0.1:0']],
    ['cluster' => ["127.0.0.1:$port"], 'scheme' => 'tls', 'ssl' => ['local_pk' => '/client.key']],
    "redis-cluster://:secret-pw@127.0.0.1:$port,127.0.0.1:$port",
    ['cluster' => ["127.0.0.1:$port"], 'auth' => ['user', 'secret-pw']],
] as $connection) {
    try {
        (new FixedWindowRateLimiter($connection, 'c', 60, 5))->consume('x');
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
        if (str_contains($e->getMessage(), 'secret-pw')) echo "  PASSWORD SHOWN\n";
    }
}
?>
--EXPECT--
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (a cluster has no db, path or query: redis-cluster://host:port[,host:port…]): "redis-cluster://127.0.0.1:PORT/1"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (a cluster has no db, path or query: redis-cluster://host:port[,host:port…]): "redis-cluster://127.0.0.1:PORT?x=1"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis-cluster://127.0.0.1:PORT,,127.0.0.1:1"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (missing host): "redis-cluster://"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (certfile and keyfile go together): "rediss-cluster://127.0.0.1:PORT?certfile=/client.pem"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) cluster must list at least one "host:port" seed node
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) cluster must be of type array, string given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) cluster entries must be "host:port" strings, int given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) cluster entries must be "host:port" strings, "127.0.0.1:0" given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) needs both a client certificate and its private key (certfile and keyfile, or local_cert and local_pk), or neither
RateLimiterException: Redis at redis-cluster://127.0.0.1:PORT: no cluster node answered: Failed to connect to each cluster node (127.0.0.1:PORT: connection refused)
RateLimiterException: Redis at redis-cluster://127.0.0.1:PORT user user: no cluster node answered: Failed to connect to each cluster node (127.0.0.1:PORT: connection refused)
