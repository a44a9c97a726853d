<?php

namespace RateLimit\Laravel;

use Illuminate\Cache\RedisStore;
use Illuminate\Contracts\Config\Repository as Config;
use Illuminate\Support\ConfigurationUrlParser;

/**
 * Where Laravel's rate limiter keeps its counters, read from Laravel's own
 * configuration: the Redis connection of the limiter's cache store (the
 * `cache.limiter` store, else `cache.default`) and the full key prefix
 * (the Redis client's `options.prefix`, then the cache prefix as RedisStore
 * writes it: with ":" up to Laravel 10, as given from Laravel 11), so
 * the extension reads and writes exactly the keys stock Laravel uses.
 *
 * Read from the configuration, not from the store's client, because asking
 * Laravel for the client would open a second connection (and send AUTH/SELECT)
 * in every request.
 */
final class RedisTarget
{
    /**
     * @param array<string, mixed> $connection a phpredis-style array the extension accepts
     * @param string $keyPrefix prepended to every rate limiter key
     */
    public function __construct(
        public readonly array $connection,
        public readonly string $keyPrefix,
    ) {
    }

    /**
     * The target of the limiter's cache store, or null when that store is not
     * on a single Redis server (another driver, a cluster, TLS): then stock
     * Laravel stays in charge.
     */
    public static function ofLimiterStore(Config $config): ?self
    {
        $storeName = $config->get('cache.limiter') ?: $config->get('cache.default');
        $store = $config->get("cache.stores.$storeName");
        if (!is_array($store) || ($store['driver'] ?? null) !== 'redis') {
            return null;
        }
        $redis = (array) $config->get('database.redis', []);
        $name = $store['connection'] ?? 'default';
        if (!isset($redis[$name]) || !is_array($redis[$name])) {
            return null; // a cluster, or a connection that does not exist
        }
        $conn = (new ConfigurationUrlParser())->parseConfiguration($redis[$name]);
        $scheme = strtolower((string) ($conn['scheme'] ?? $conn['driver'] ?? 'tcp'));
        if ($scheme !== 'tcp' && $scheme !== 'redis' && $scheme !== 'unix') {
            return null;
        }

        // The same precedence as Laravel's PhpRedisConnector:
        // array_merge($connection, $options, $connection['options']).
        $clientPrefix = $conn['options']['prefix'] ?? $redis['options']['prefix'] ?? $conn['prefix'] ?? '';
        // CacheManager: the store's prefix, else cache.prefix.
        $cachePrefix = (string) ($store['prefix'] ?? $config->get('cache.prefix', ''));

        $target = ['host' => (string) ($conn['host'] ?? '127.0.0.1')];
        if (isset($conn['port']) && $conn['port'] !== '' && !str_starts_with($target['host'], '/')) {
            $target['port'] = (int) $conn['port'];
        }
        $password = $conn['password'] ?? null;
        if ($password !== null && $password !== '') {
            $user = $conn['username'] ?? null;
            $target['auth'] = ($user !== null && $user !== '') ? [(string) $user, (string) $password] : (string) $password;
        }
        if (isset($conn['database']) && $conn['database'] !== '') {
            $target['database'] = (int) $conn['database'];
        }
        foreach (['timeout', 'read_timeout'] as $t) {
            if (isset($conn[$t]) && (float) $conn[$t] > 0) {
                $target[$t] = (float) $conn[$t];
            }
        }
        return new self($target, $clientPrefix . self::storePrefix($cachePrefix));
    }

    /**
     * The key prefix RedisStore makes of a cache prefix, asked of the installed
     * Laravel's own RedisStore::setPrefix() (no connection needed): "p:" up to
     * Laravel 10, "p" from Laravel 11 (whose default prefix ends in "_cache_").
     */
    private static function storePrefix(string $cachePrefix): string
    {
        $store = (new \ReflectionClass(RedisStore::class))->newInstanceWithoutConstructor();
        $store->setPrefix($cachePrefix);
        return (string) $store->getPrefix();
    }
}
