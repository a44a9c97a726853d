<?php

namespace RateLimit\Laravel;

use Illuminate\Cache\RedisStore;
use Illuminate\Contracts\Config\Repository as Config;

/**
 * Where Laravel's rate limiter keeps its counters, read from Laravel's own
 * configuration: the Redis connection of the limiter's cache store (the
 * `cache.limiter` store, else `cache.default`), as the extension's connection
 * array (one server, TLS or not, or a Redis Cluster), and the full key prefix
 * (the Redis client's prefix, then the cache prefix as RedisStore writes it:
 * with ":" up to Laravel 10, as given from Laravel 11), so the extension reads
 * and writes exactly the keys stock Laravel uses.
 *
 * Read from the configuration (through ConnectionSettings, which asks the
 * installed Laravel how its client would connect), not from the store's
 * client, because asking Laravel for the client would open a second
 * connection (and send AUTH/SELECT) in every request.
 */
final class RedisTarget
{
    /**
     * @param array<string, mixed> $connection a phpredis-style array the extension accepts
     * @param string $keyPrefix prepended to every rate limiter key
     * @param bool $cluster whether the connection is a Redis Cluster (keys of different limits live on different nodes)
     */
    public function __construct(
        public readonly array $connection,
        public readonly string $keyPrefix,
        public readonly bool $cluster = false,
    ) {
    }

    /**
     * The target of the limiter's cache store.
     *
     * @throws StepAside when that store is not one the extension can serve as Laravel's client would
     */
    public static function ofLimiterStore(Config $config): self
    {
        $storeName = $config->get('cache.limiter') ?: $config->get('cache.default');
        $store = $config->get("cache.stores.$storeName");
        if (!is_array($store) || ($store['driver'] ?? null) !== 'redis') {
            $driver = is_array($store) ? ($store['driver'] ?? 'none') : 'not configured';
            throw new StepAside("the rate limiter's cache store \"$storeName\" is not a Redis store (driver: $driver)");
        }
        // CacheManager: the store's prefix, else cache.prefix.
        $cachePrefix = (string) ($store['prefix'] ?? $config->get('cache.prefix', ''));
        return self::ofConnection($config, (string) ($store['connection'] ?? 'default'), self::storePrefix($cachePrefix));
    }

    /**
     * The target of the Redis connection $name of config/database.php, its keys
     * under the client's prefix and then $keyPrefix (what Redis::funnel() uses).
     *
     * @throws StepAside when that connection is not one the extension can serve as Laravel's client would
     */
    public static function ofConnection(Config $config, string $name, string $keyPrefix = ''): self
    {
        $s = ConnectionSettings::of((array) $config->get('database.redis', []), $name);
        $target = $s['cluster']
            ? ['cluster' => $s['seeds']]
            : ['host' => $s['host'] === '' ? '127.0.0.1' : $s['host']];
        if (!$s['cluster'] && isset($s['port']) && $s['port'] !== '' && (int) $s['port'] > 0 && !str_starts_with($target['host'], '/')) {
            $target['port'] = (int) $s['port'];
        }
        if ($s['tls']) {
            $target['scheme'] = 'tls';
            $ssl = TlsSettings::of($s['ssl'] ?? [], $s['cluster'] ? explode(':', $s['seeds'][0])[0] : $target['host']);
            if ($ssl !== []) {
                $target['ssl'] = $ssl;
            }
        }
        $password = $s['password'];
        if (is_array($password)) {
            $target['auth'] = array_map('strval', array_values($password));   // phpredis's [user, password]
        } elseif ($password !== null && $password !== '') {
            $user = $s['username'];
            $target['auth'] = ($user !== null && $user !== '') ? [(string) $user, (string) $password] : (string) $password;
        }
        if (!$s['cluster'] && isset($s['database']) && $s['database'] !== '') {
            $target['database'] = (int) $s['database'];
        }
        foreach (['timeout', 'read_timeout'] as $t) {
            if (isset($s[$t]) && is_numeric($s[$t]) && (float) $s[$t] > 0) {
                $target[$t] = (float) $s[$t];
            }
        }
        return new self($target, $s['prefix'] . $keyPrefix, $s['cluster']);
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
