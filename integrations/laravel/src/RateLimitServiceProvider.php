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
 *     RateLimit\Laravel\ThrottleRequests.
 * Nothing changes when the extension is not loaded or the limiter's cache store
 * is not a single Redis server.
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
        if (!extension_loaded('ratelimit')) {
            return;
        }
        $this->app->extend(RateLimiter::class, function (RateLimiter $stock, $app) {
            $config = $app['config'];
            $target = RedisTarget::ofLimiterStore($config);
            if ($target === null || $stock instanceof ExtensionRateLimiter) {
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
        $this->app->bind(StockThrottleRequests::class, ThrottleRequests::class);
        $this->app->bind(ThrottleRequestsWithRedis::class, ThrottleRequests::class);
    }
}
