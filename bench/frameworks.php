<?php
// Symfony RateLimiter and Laravel's limiters from Debian's packages
// (php-symfony-rate-limiter, php-laravel-framework), wired as their docs do on a
// phpredis connection, one decision per call.
declare(strict_types=1);

use Illuminate\Cache\RateLimiter;
use Illuminate\Cache\RedisStore;
use Illuminate\Cache\Repository;
use Illuminate\Redis\Limiters\DurationLimiter;
use Illuminate\Redis\RedisManager;
use Symfony\Component\Cache\Adapter\RedisAdapter;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore as LockRedisStore;
use Symfony\Component\RateLimiter\RateLimiterFactory;
use Symfony\Component\RateLimiter\Storage\CacheStorage;

/** Symfony's factory->create($id)->consume(1): CacheStorage on a RedisAdapter, with a Lock or without. */
function symfony_limiter(array $policy, bool $withLock): Closure
{
    require_once 'Symfony/Component/RateLimiter/autoload.php';
    require_once 'Symfony/Component/Cache/autoload.php';
    require_once 'Symfony/Component/Lock/autoload.php';
    // (required before the `new` below: PHP looks the class up before evaluating the arguments)
    $redis = bench_redis();
    $factory = new RateLimiterFactory(
        ['id' => 'bench'] + $policy,
        new CacheStorage(new RedisAdapter($redis, 'sf')),
        $withLock ? new LockFactory(new LockRedisStore($redis)) : null
    );
    return static fn (string $id): bool => $factory->create($id)->consume(1)->isAccepted();
}

/** Laravel's default Redis connection (phpredis driver, key prefix as in config/database.php). */
function laravel_redis(): RedisManager
{
    laravel_autoload();
    return new RedisManager(null, 'phpredis', [
        'client' => 'phpredis',
        'options' => ['prefix' => 'laravel_database_'],
        'default' => ['host' => '127.0.0.1', 'port' => bench_config()['port'], 'database' => 0],
    ]);
}

/** Debian's autoloaders; before any `new` of their classes (PHP looks the class up before the arguments). */
function laravel_autoload(): void
{
    require_once 'Illuminate/Redis/autoload.php';
    require_once 'Illuminate/Cache/autoload.php';
}

/** RateLimiter::attempt() (tooManyAttempts + hit) on the Redis cache store: what throttle:N,M runs. */
function laravel_rate_limiter(int $limit, int $window): Closure
{
    laravel_autoload();
    $limiter = new RateLimiter(new Repository(new RedisStore(laravel_redis(), 'laravel_cache', 'default')));
    return static fn (string $id): bool => false !== $limiter->attempt($id, $limit, static fn () => true, $window);
}

/** DurationLimiter::acquire(): what Redis::throttle($key)->allow(N)->every(M) runs per try. */
function laravel_duration_limiter(int $limit, int $window): Closure
{
    laravel_autoload();
    $connection = laravel_redis()->connection();
    return static fn (string $id): bool => (new DurationLimiter($connection, "dl:$id", $limit, $window))->acquire();
}
