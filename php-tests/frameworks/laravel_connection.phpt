--TEST--
Laravel drop-in: the connection and key prefix come from Laravel's own config (url, auth, database, prefixes, cache.limiter); not Redis: stock stays; Redis down: ratelimit.on_error decides
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

use Illuminate\Config\Repository;
use Illuminate\Support\Facades\RateLimiter;
use RateLimit\Laravel\RedisTarget;

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

function target(array $config): string
{
    $t = RedisTarget::ofLimiterStore(new Repository($config));
    return $t === null ? 'stock (null)' : json_encode($t->connection) . ' prefix ' . prefix($t->keyPrefix);
}
$cache = ['default' => 'redis', 'prefix' => 'app', 'stores' => ['redis' => ['driver' => 'redis', 'connection' => 'cache'], 'file' => ['driver' => 'file']]];
$conn = ['host' => '10.0.0.5', 'port' => 6380, 'password' => 'secret', 'database' => 2];

echo "== what is read\n";
echo target(['cache' => $cache, 'database' => ['redis' => ['cache' => $conn]]]), "\n";
echo target(['cache' => $cache, 'database' => ['redis' => ['options' => ['prefix' => 'g_'], 'cache' => $conn + ['username' => 'app', 'read_timeout' => 0.5]]]]), "\n";
echo target(['cache' => $cache, 'database' => ['redis' => ['options' => ['prefix' => 'g_'], 'cache' => $conn + ['options' => ['prefix' => 'c_']]]]]), "\n";
echo target(['cache' => $cache, 'database' => ['redis' => ['cache' => ['url' => 'redis://user:pw@10.0.0.6:6390/5']]]]), "\n";
echo target(['cache' => ['stores' => ['redis' => ['driver' => 'redis', 'connection' => 'cache', 'prefix' => 'store']]] + $cache, 'database' => ['redis' => ['cache' => $conn]]]), "\n";
echo target(['cache' => ['prefix' => ''] + $cache, 'database' => ['redis' => ['cache' => ['host' => '/run/redis.sock', 'port' => 0]]]]), "\n";
echo "== stock stays\n";
echo target(['cache' => ['default' => 'file'] + $cache, 'database' => ['redis' => ['cache' => $conn]]]), "\n";
echo target(['cache' => ['limiter' => 'file'] + $cache, 'database' => ['redis' => ['cache' => $conn]]]), "\n";
echo target(['cache' => $cache, 'database' => ['redis' => ['clusters' => ['cache' => [$conn]]]]]), "\n";
echo target(['cache' => $cache, 'database' => ['redis' => ['cache' => $conn + ['scheme' => 'tls']]]]), "\n";

echo "== end to end: database 3 of the test server\n";
rl_laravel_app(true, rl_prefix('db'), [], RL_PORT, ['database' => 3]);
RateLimiter::hit('k');
RateLimiter::hit('k');
$r = rl_redis();
$r->select(3);
echo "db 3: ", $r->get(rl_laravel_key(rl_prefix('db'), 'k')), "; db 0: ", var_export(rl_redis()->get(rl_laravel_key(rl_prefix('db'), 'k')), true), "\n";

echo "== Redis down (a closed port)\n";
$dead = rl_free_port();
foreach (['allow', 'deny', 'throw'] as $policy) {
    ini_set('ratelimit.on_error', $policy);
    $kernel = rl_laravel_app(true, rl_prefix("down-$policy"), [], $dead);
    $response = rl_laravel_get($kernel, '/fixed');
    echo "on_error=$policy: ", $response->getStatusCode(), ' ', trim(preg_replace('/\s+/', ' ', $response->getContent())), "\n";
}
?>
--EXPECT--
== what is read
{"host":"10.0.0.5","port":6380,"auth":"secret","database":2} prefix "" + store("app")
{"host":"10.0.0.5","port":6380,"auth":["app","secret"],"database":2,"read_timeout":0.5} prefix "g_" + store("app")
{"host":"10.0.0.5","port":6380,"auth":"secret","database":2} prefix "c_" + store("app")
{"host":"10.0.0.6","port":6390,"auth":["user","pw"],"database":5} prefix "" + store("app")
{"host":"10.0.0.5","port":6380,"auth":"secret","database":2} prefix "" + store("store")
{"host":"\/run\/redis.sock"} prefix "" + store("")
== stock stays
stock (null)
stock (null)
stock (null)
stock (null)
== end to end: database 3 of the test server
db 3: 2; db 0: false
== Redis down (a closed port)
on_error=allow: 200 ok
on_error=deny: 429 { "message": "Too Many Attempts." }
on_error=throw: 500 { "message": "Server Error" }
