<?php

namespace RateLimit\Laravel;

use Illuminate\Cache\RateLimiter;
use Illuminate\Routing\Middleware\ThrottleRequests as StockThrottleRequests;
use Illuminate\Routing\Middleware\ThrottleRequestsWithRedis;
use Illuminate\Support\ServiceProvider;

/**
 * Register this one provider and Laravel's rate limiting runs on the extension,
 * with no change to routes, the HTTP Kernel or RateLimiter::for() definitions:
 *   - the RateLimiter (facade and container) becomes ExtensionRateLimiter, on the
 *     same Redis connection and key prefixes as the limiter's cache store;
 *   - `throttle` (ThrottleRequests and ThrottleRequestsWithRedis) becomes
 *     RateLimit\Laravel\ThrottleRequests;
 *   - Redis::funnel() runs on the extension's ConcurrencyLimiter (FunnelRedisManager).
 * The limiter's store may be one Redis server (TLS or not) or a Redis Cluster,
 * as Laravel's phpredis or predis client would reach it. Where the drop-in
 * cannot serve it (the extension is not loaded, the store is not on Redis,
 * predis's own sharding, TLS options the extension has no equivalent for),
 * stock Laravel stays in charge and Laravel's log says why, once per process
 * (StepAside).
 *
 * Optional Laravel config `ratelimit` (config/ratelimit.php):
 *   'headers'    => 'x' (Laravel's X-RateLimit-*, default) or 'ietf'
 *   'timer_keys' => false; true while nodes running stock Laravel share the counters
 *   'dry_run'    => false; true: every limit decides and counts as enforcing but never
 *                   denies (withDryRun(): no 429; see docs/operations.md)
 */
class RateLimitServiceProvider extends ServiceProvider
{
    public function register(): void
    {
        $this->app->extend(RateLimiter::class, function (RateLimiter $stock, $app) {
            if ($stock instanceof ExtensionRateLimiter) {
                return $stock;
            }
            $config = $app['config'];
            try {
                if (!extension_loaded('ratelimit')) {
                    throw new StepAside('the ratelimit extension is not loaded in this PHP');
                }
                $target = RedisTarget::ofLimiterStore($config);
            } catch (StepAside $why) {
                StepAside::log($app, $why->getMessage());
                return $stock;
            }
            return ExtensionRateLimiter::replacing(
                $stock,
                $target,
                (bool) $config->get('ratelimit.timer_keys', false),
                (string) $config->get('ratelimit.headers', 'x'),
                (bool) $config->get('ratelimit.dry_run', false),
            );
        });
        if (extension_loaded('ratelimit')) {
            $this->app->extend('redis', function ($stock, $app) {
                // Only Laravel's own manager: a subclass an app made is left as it is.
                if (!is_object($stock) || get_class($stock) !== \Illuminate\Redis\RedisManager::class) {
                    return $stock;
                }
                $config = (array) $app['config']->get('database.redis', []);
                $client = $config['client'] ?? 'phpredis';
                unset($config['client']);
                return new FunnelRedisManager($app, $client, $config);
            });
            $this->app->bind(StockThrottleRequests::class, ThrottleRequests::class);
            $this->app->bind(ThrottleRequestsWithRedis::class, ThrottleRequests::class);
        }
    }
}
