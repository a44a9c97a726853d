<?php

namespace RateLimit\Laravel;

use Illuminate\Redis\Connectors\PhpRedisConnector;
use Illuminate\Redis\Connectors\PredisConnector;
use Illuminate\Redis\RedisManager;

/**
 * What the installed Laravel's Redis client would connect with for one
 * connection name of `database.redis`, asked of Laravel itself without
 * connecting: a RedisManager of its own resolves the name through connectors
 * that record what they are handed instead of opening sockets (phpredis), or
 * through Laravel's own connector (predis, whose Client connects lazily), whose
 * result is read. So URL parsing, `options` precedence, `tls://` hosts and
 * `context` shapes are those of the Laravel version installed, not a copy of
 * one of them.
 *
 * Returns one of:
 *   ['cluster' => false, 'host', 'port', 'tls', 'ssl', 'username', 'password', 'database', 'timeout', 'read_timeout', 'prefix']
 *   ['cluster' => true, 'seeds' => ['host:port', …], 'tls', 'ssl', 'username', 'password', 'timeout', 'read_timeout', 'prefix']
 * where 'ssl' is PHP's ssl stream options as the client passes them (null without TLS).
 */
final class ConnectionSettings
{
    /**
     * @param array<string, mixed> $redis Laravel's `database.redis` configuration
     * @throws StepAside when the connection is not one the extension can serve as the client would
     */
    public static function of(array $redis, string $name): array
    {
        $client = (string) ($redis['client'] ?? 'phpredis');   // RedisServiceProvider's default
        unset($redis['client']);
        if (!isset($redis[$name]) && !isset($redis['clusters'][$name])) {
            throw new StepAside("the Redis connection \"$name\" is not configured (database.redis.$name or database.redis.clusters.$name)");
        }
        return match ($client) {
            'phpredis' => self::phpredis($redis, $name),
            'predis' => self::predis($redis, $name),
            default => throw new StepAside("the Redis client \"$client\" is neither phpredis nor predis"),
        };
    }

    private static function phpredis(array $redis, string $name): array
    {
        if (!class_exists(\Redis::class)) {
            throw new StepAside('database.redis.client is phpredis and this PHP has no redis extension');
        }
        // Laravel hands these methods the merged settings; they record them and return unconnected clients.
        $recorder = new class extends PhpRedisConnector {
            public array $seen = [];

            protected function createClient(array $config)
            {
                $context = $config['context'] ?? null;
                if (is_array($context) && method_exists($this, 'normalizeContext')) {
                    $context = $this->normalizeContext($context);   // Laravel 12+: `ssl` or bare options mean the stream's
                }
                $this->seen = ['host' => $this->formatHost($config), 'context' => $context] + $config;
                return new \Redis();
            }

            protected function createRedisClusterInstance(array $servers, array $options)
            {
                $context = $options['context'] ?? null;
                if (is_array($context) && method_exists($this, 'normalizeClusterContext')) {
                    $context = $this->normalizeClusterContext($context);
                }
                $password = method_exists($this, 'formatClusterPassword') ? $this->formatClusterPassword($options) : ($options['password'] ?? null);
                $this->seen = ['servers' => array_values($servers), 'context' => $context, 'password' => $password] + $options;
                return (new \ReflectionClass(\RedisCluster::class))->newInstanceWithoutConstructor();
            }
        };
        self::resolve($redis, $name, 'phpredis', $recorder);
        $seen = $recorder->seen;

        if (isset($seen['servers'])) {
            // RedisCluster's context is the ssl options themselves; seeds are "[scheme://]host:port[?query]".
            $tls = false;
            $seeds = [];
            foreach ($seen['servers'] as $server) {
                [$scheme, $address] = self::splitScheme(explode('?', (string) $server, 2)[0]);
                $tls = $tls || self::isTls($scheme);
                $seeds[] = $address;
            }
            $password = $seen['password'];
            [$username, $password] = is_array($password) ? [(string) $password[0], (string) $password[1]] : [null, $password];
            return self::cluster($seeds, $tls, $tls ? (array) ($seen['context'] ?? []) : null, $username, $password, $seen);
        }

        [$scheme, $host] = self::splitScheme((string) $seen['host']);
        $tls = self::isTls($scheme);
        // phpredis's connect() context: stream options under 'stream' (applied to TLS streams only).
        $ssl = $tls ? (array) ($seen['context']['stream'] ?? []) : null;
        return [
            'cluster' => false, 'host' => $host, 'port' => $seen['port'] ?? null, 'tls' => $tls, 'ssl' => $ssl,
            'username' => $seen['username'] ?? null, 'password' => $seen['password'] ?? null,
            'database' => $seen['database'] ?? null, 'timeout' => $seen['timeout'] ?? null,
            'read_timeout' => $seen['read_timeout'] ?? null, 'prefix' => (string) ($seen['prefix'] ?? ''),
        ];
    }

    private static function predis(array $redis, string $name): array
    {
        if (!class_exists(\Predis\Client::class)) {
            throw new StepAside('database.redis.client is predis and predis is not installed');
        }
        $recorder = new class extends PredisConnector {
            public array $seen = [];

            public function connectToCluster(array $config, array $clusterOptions, array $options)
            {
                $connection = parent::connectToCluster($config, $clusterOptions, $options);
                unset($config['options'], $config['prefix']);
                // Laravel 12+ moves a "tls://" of the host into the scheme (predis's own parameters).
                $servers = array_map(fn ($s) => is_array($s) && method_exists($this, 'formatHost') ? $this->formatHost($s) : $s, array_values($config));
                $this->seen = ['servers' => $servers];
                return $connection;
            }
        };
        $connection = self::resolve($redis, $name, 'predis', $recorder)->client();
        $prefix = $connection->getOptions()->prefix;
        $prefix = $prefix === null ? '' : (string) $prefix->getPrefix();
        $node = $connection->getConnection();

        if (isset($recorder->seen['servers'])) {
            if (!is_a($node, 'Predis\Connection\Aggregate\RedisCluster') && !is_a($node, 'Predis\Connection\Cluster\RedisCluster')) {
                throw new StepAside("the Redis cluster \"$name\" is sharded by predis itself (options.cluster is not \"redis\"), not a Redis Cluster");
            }
            // Each node as predis makes it (with options.parameters as defaults), without connecting.
            $factory = $connection->getOptions()->connections;
            $nodes = array_map(fn ($server) => $factory->create($server)->getParameters()->toArray(), $recorder->seen['servers']);
            $first = $nodes[0] ?? [];
            $tls = false;
            foreach ($nodes as $n) {
                $tls = $tls || self::isTls((string) ($n['scheme'] ?? 'tcp'));
            }
            $seeds = array_map(fn ($n) => ($n['host'] ?? '127.0.0.1') . ':' . ($n['port'] ?? 6379), $nodes);
            return self::cluster($seeds, $tls, $tls ? (array) ($first['ssl'] ?? []) : null, $first['username'] ?? null, $first['password'] ?? null,
                ['timeout' => $first['timeout'] ?? null, 'read_timeout' => $first['read_write_timeout'] ?? null, 'prefix' => $prefix]);
        }

        if (!$node instanceof \Predis\Connection\NodeConnectionInterface) {
            throw new StepAside(sprintf('the Redis connection "%s" is a predis %s, not one server', $name, get_class($node)));
        }
        $p = $node->getParameters()->toArray();
        $scheme = strtolower((string) ($p['scheme'] ?? 'tcp'));
        $tls = self::isTls($scheme);
        return [
            'cluster' => false, 'host' => $scheme === 'unix' ? (string) ($p['path'] ?? '') : (string) ($p['host'] ?? '127.0.0.1'),
            'port' => $scheme === 'unix' ? null : ($p['port'] ?? null), 'tls' => $tls, 'ssl' => $tls ? (array) ($p['ssl'] ?? []) : null,
            'username' => $p['username'] ?? null, 'password' => $p['password'] ?? null, 'database' => $p['database'] ?? null,
            // predis's own default timeouts are not asked for: the extension's ini settings stay in force then.
            'timeout' => self::given($redis[$name] ?? [], 'timeout'), 'read_timeout' => self::given($redis[$name] ?? [], 'read_write_timeout'),
            'prefix' => $prefix,
        ];
    }

    /** A connection as Laravel resolves it (Laravel's URL parsing and option merging), through $connector. */
    private static function resolve(array $redis, string $name, string $client, object $connector): object
    {
        $manager = new RedisManager(null, $client, $redis);
        $manager->extend($client, fn () => $connector);
        return $manager->resolve($name);
    }

    private static function cluster(array $seeds, bool $tls, ?array $ssl, ?string $username, mixed $password, array $options): array
    {
        return [
            'cluster' => true, 'seeds' => $seeds, 'tls' => $tls, 'ssl' => $ssl, 'username' => $username, 'password' => $password,
            'timeout' => $options['timeout'] ?? null, 'read_timeout' => $options['read_timeout'] ?? null, 'prefix' => (string) ($options['prefix'] ?? ''),
        ];
    }

    /** A setting given in a connection's own config (not a client's default). */
    private static function given(mixed $config, string $key): mixed
    {
        return is_array($config) ? ($config[$key] ?? null) : null;
    }

    /** "tls://host" → ['tls', 'host']; "host" → ['', 'host']. */
    private static function splitScheme(string $host): array
    {
        $at = strpos($host, '://');
        return $at === false ? ['', $host] : [strtolower(substr($host, 0, $at)), substr($host, $at + 3)];
    }

    private static function isTls(string $scheme): bool
    {
        return in_array(strtolower($scheme), ['tls', 'ssl', 'rediss'], true);
    }
}
