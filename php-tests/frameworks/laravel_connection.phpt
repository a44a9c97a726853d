--TEST--
Laravel drop-in: the connection and key prefix come from Laravel's own config as its predis client reads it (url, auth, database, prefixes, cache.limiter, TLS ssl options, clusters); where it cannot serve the store, stock stays and Laravel's log says why, once; Redis down: ratelimit.on_error decides (local: an answer of the process's own, not an error)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';
require __DIR__ . '/laravel_topology.inc';

use Illuminate\Config\Repository;
use Illuminate\Support\Facades\RateLimiter;
use RateLimit\Laravel\RedisTarget;
use RateLimit\Laravel\StepAside;

/** The key prefix as the client's prefix + what Laravel's own RedisStore makes of the cache prefix. */
function prefix(string $keyPrefix): string
{
    foreach (['', 'g_', 'c_'] as $client) {
        foreach (['app', 'store', ''] as $cache) {
            if ($keyPrefix === $client . rl_laravel_store_prefix($cache)) {
                return json_encode($client) . ' + store(' . json_encode($cache) . ')';
            }
        }
    }
    return 'UNEXPECTED ' . json_encode($keyPrefix);
}

/**
 * The target the drop-in reads from a Laravel config, or why stock stays.
 * On predis unless the config names a client (the phpredis client's reading:
 * laravel_connection_phpredis.phpt).
 */
function target(array $config): string
{
    $config['database']['redis'] += ['client' => 'predis'];
    try {
        $t = RedisTarget::ofLimiterStore(new Repository($config));
    } catch (StepAside $why) {
        return 'stock: ' . $why->getMessage();
    }
    return json_encode($t->connection, JSON_UNESCAPED_SLASHES) . ' prefix ' . prefix($t->keyPrefix) . ($t->cluster ? ' (cluster)' : '');
}
rl_laravel_need_predis();
$cache = ['default' => 'redis', 'prefix' => 'app', 'stores' => ['redis' => ['driver' => 'redis', 'connection' => 'cache'], 'file' => ['driver' => 'file']]];
$conn = ['host' => '10.0.0.5', 'port' => 6380, 'password' => 'secret', 'database' => 2];
$nodes = [['host' => '10.0.1.1', 'port' => 7000, 'password' => 'pw'], ['host' => '10.0.1.2', 'port' => 7001, 'password' => 'pw']];
$redis = fn (array $r) => ['cache' => $cache, 'database' => ['redis' => $r]];

echo "== what is read\n";
echo target($redis(['cache' => $conn])), "\n";
echo target($redis(['options' => ['prefix' => 'g_'], 'cache' => $conn + ['username' => 'app', 'timeout' => 2, 'read_write_timeout' => 0.5]])), "\n";
echo target($redis(['options' => ['prefix' => 'g_'], 'cache' => $conn + ['options' => ['prefix' => 'c_']]])), "\n";
echo target($redis(['cache' => ['url' => 'redis://user:pw@10.0.0.6:6390/5']])), "\n";
echo target(['cache' => ['stores' => ['redis' => ['driver' => 'redis', 'connection' => 'cache', 'prefix' => 'store']]] + $cache, 'database' => ['redis' => ['cache' => $conn]]]), "\n";
echo target(['cache' => ['prefix' => ''] + $cache, 'database' => ['redis' => ['cache' => ['scheme' => 'unix', 'path' => '/run/redis.sock']]]]), "\n";
echo "== TLS\n";
echo target($redis(['cache' => $conn + ['scheme' => 'tls']])), "\n";
echo target($redis(['cache' => ['url' => 'rediss://default:pw@cache.example.net:6380', 'ssl' => ['cafile' => '/etc/ca.pem', 'local_cert' => '/c.pem', 'local_pk' => '/k.pem']]])), "\n";
echo target($redis(['cache' => $conn + ['scheme' => 'tls', 'ssl' => ['verify_peer' => false, 'verify_peer_name' => false]]])), "\n";
echo target($redis(['cache' => $conn + ['scheme' => 'tls', 'ssl' => ['verify_peer' => true, 'verify_peer_name' => true, 'SNI_enabled' => true, 'peer_name' => '10.0.0.5']]])), "\n";
echo "== Redis Cluster (options.cluster = redis)\n";
echo target($redis(['options' => ['cluster' => 'redis', 'prefix' => 'g_'], 'clusters' => ['cache' => $nodes]])), "\n";
$tlsNodes = array_map(fn ($n) => $n + ['scheme' => 'tls', 'ssl' => ['cafile' => '/etc/ca.pem']], $nodes);
echo target($redis(['options' => ['cluster' => 'redis'], 'clusters' => ['cache' => $tlsNodes]])), "\n";
echo target($redis(['options' => ['cluster' => 'redis', 'parameters' => ['password' => 'shared']], 'clusters' => ['cache' => [['host' => '10.0.1.1', 'port' => 7000]]]])), "\n";
echo "== stock stays, and why\n";
echo target(['cache' => ['default' => 'file'] + $cache, 'database' => ['redis' => ['cache' => $conn]]]), "\n";
echo target(['cache' => ['limiter' => 'file'] + $cache, 'database' => ['redis' => ['cache' => $conn]]]), "\n";
echo target($redis(['other' => $conn])), "\n";
echo target($redis(['options' => ['cluster' => 'predis'], 'clusters' => ['cache' => $nodes]])), "\n";
echo target($redis(['client' => 'custom', 'cache' => $conn])), "\n";
echo target($redis(['cache' => $conn + ['scheme' => 'tls', 'ssl' => ['verify_peer_name' => false]]])), "\n";
echo target($redis(['cache' => $conn + ['scheme' => 'tls', 'ssl' => ['allow_self_signed' => true]]])), "\n";
echo target($redis(['cache' => $conn + ['scheme' => 'tls', 'ssl' => ['peer_name' => 'cache.internal']]])), "\n";
echo target($redis(['cache' => $conn + ['scheme' => 'tls', 'ssl' => ['capath' => '/etc/ssl/certs']]])), "\n";

echo "== stepping aside is logged, once per reason and process\n";
$log = sys_get_temp_dir() . '/rl-laravel-log-' . getmypid() . '.log';
foreach ([1, 2] as $build) {
    $kernel = rl_laravel_app(true, rl_prefix('log'), [], RL_PORT, [], ['cache' => ['default' => 'array'], 'log' => $log]);
    echo "build $build: ", get_class($kernel->getApplication()->make(Illuminate\Cache\RateLimiter::class)), ', ', rl_laravel_get($kernel, '/fixed')->getStatusCode(), "\n";
}
$sharded = ['client' => 'predis', 'options' => ['cluster' => 'predis'], 'clusters' => ['cache' => [['host' => '127.0.0.1', 'port' => RL_PORT]]]];
$kernel = rl_laravel_app(true, rl_prefix('log'), [], RL_PORT, [], ['redis' => $sharded, 'log' => $log]);
echo 'predis sharding: ', get_class($kernel->getApplication()->make(Illuminate\Cache\RateLimiter::class)), "\n";
// Monolog's line: "[time] env.LEVEL: message context extra"; the level and message are what counts.
preg_match_all('/^\[[^\]]+\] \w+\.(\w+): (.*?)(?: \[\] \[\])?\s*$/m', file_get_contents($log), $lines, PREG_SET_ORDER);
foreach ($lines as $l) echo "$l[1]: $l[2]\n";
unlink($log);

echo "== end to end: database 3 of the test server\n";
rl_laravel_app(true, rl_prefix('db'), [], RL_PORT, ['database' => 3]);
RateLimiter::hit('k');
RateLimiter::hit('k');
$r = rl_redis();
$r->select(3);
echo "db 3: ", $r->get(rl_laravel_key(rl_prefix('db'), 'k')), "; db 0: ", var_export(rl_redis()->get(rl_laravel_key(rl_prefix('db'), 'k')), true), "\n";

echo "== Redis down (a closed port)\n";
$dead = rl_free_port();
foreach (['allow', 'deny', 'local', 'throw'] as $policy) {
    ini_set('ratelimit.on_error', $policy);
    $kernel = rl_laravel_app(true, rl_prefix("down-$policy"), [], $dead);
    $response = rl_laravel_get($kernel, '/fixed');
    echo "on_error=$policy: ", $response->getStatusCode(), ' ', trim(preg_replace('/\s+/', ' ', $response->getContent())), "\n";
}
?>
--EXPECT--
== what is read
{"host":"10.0.0.5","port":6380,"auth":"secret","database":2} prefix "" + store("app")
{"host":"10.0.0.5","port":6380,"auth":["app","secret"],"database":2,"timeout":2,"read_timeout":0.5} prefix "g_" + store("app")
{"host":"10.0.0.5","port":6380,"auth":"secret","database":2} prefix "c_" + store("app")
{"host":"10.0.0.6","port":6390,"auth":["user","pw"],"database":5} prefix "" + store("app")
{"host":"10.0.0.5","port":6380,"auth":"secret","database":2} prefix "" + store("store")
{"host":"/run/redis.sock"} prefix "" + store("")
== TLS
{"host":"10.0.0.5","port":6380,"scheme":"tls","auth":"secret","database":2} prefix "" + store("app")
{"host":"cache.example.net","port":6380,"scheme":"tls","ssl":{"cafile":"/etc/ca.pem","local_cert":"/c.pem","local_pk":"/k.pem"},"auth":["default","pw"]} prefix "" + store("app")
{"host":"10.0.0.5","port":6380,"scheme":"tls","ssl":{"verify_peer":false},"auth":"secret","database":2} prefix "" + store("app")
{"host":"10.0.0.5","port":6380,"scheme":"tls","ssl":{"verify_peer":true},"auth":"secret","database":2} prefix "" + store("app")
== Redis Cluster (options.cluster = redis)
{"cluster":["10.0.1.1:7000","10.0.1.2:7001"],"auth":"pw"} prefix "g_" + store("app") (cluster)
{"cluster":["10.0.1.1:7000","10.0.1.2:7001"],"scheme":"tls","ssl":{"cafile":"/etc/ca.pem"},"auth":"pw"} prefix "" + store("app") (cluster)
{"cluster":["10.0.1.1:7000"],"auth":"shared"} prefix "" + store("app") (cluster)
== stock stays, and why
stock: the rate limiter's cache store "file" is not a Redis store (driver: file)
stock: the rate limiter's cache store "file" is not a Redis store (driver: file)
stock: the Redis connection "cache" is not configured (database.redis.cache or database.redis.clusters.cache)
stock: the Redis cluster "cache" is sharded by predis itself (options.cluster is not "redis"), not a Redis Cluster
stock: the Redis client "custom" is neither phpredis nor predis
stock: TLS option verify_peer_name => false with verify_peer on: the extension verifies the peer whole (chain and host name) or not at all (verify_peer => false)
stock: TLS option allow_self_signed => true with verify_peer on: the extension verifies the peer whole (chain and host name) or not at all (verify_peer => false)
stock: TLS option peer_name "cache.internal" differs from the host "10.0.0.5": the extension verifies the host it connects to
stock: TLS option capath is not one the extension takes (cafile, local_cert, local_pk, verify_peer)
== stepping aside is logged, once per reason and process
build 1: Illuminate\Cache\RateLimiter, 200
build 2: Illuminate\Cache\RateLimiter, 200
predis sharding: Illuminate\Cache\RateLimiter
WARNING: ratelimit: stock Laravel rate limiting stays in charge: the rate limiter's cache store "array" is not a Redis store (driver: array)
WARNING: ratelimit: stock Laravel rate limiting stays in charge: the Redis cluster "cache" is sharded by predis itself (options.cluster is not "redis"), not a Redis Cluster
== end to end: database 3 of the test server
db 3: 2; db 0: false
== Redis down (a closed port)
on_error=allow: 200 ok
on_error=deny: 429 { "message": "Too Many Attempts." }
on_error=local: 200 ok
on_error=throw: 500 { "message": "Server Error" }
