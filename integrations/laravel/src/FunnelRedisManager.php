<?php

namespace RateLimit\Laravel;

use Illuminate\Redis\RedisManager;

/**
 * Laravel's RedisManager ('redis' in the container, the Redis facade) with
 * funnel() on the extension (FunnelBuilder), on the default Redis connection
 * and its key prefix; everything else is stock. Redis::connection('x')->funnel()
 * stays Laravel's own, and so does Redis::funnel() where the extension cannot
 * serve the default connection as Laravel's client would (Laravel's log says
 * why, once per process).
 */
class FunnelRedisManager extends RedisManager
{
    private ?RedisTarget $funnelTarget = null;

    public function funnel($name)
    {
        try {
            $this->funnelTarget ??= RedisTarget::ofConnection($this->app['config'], 'default');
        } catch (StepAside $why) {
            StepAside::log($this->app, "Redis::funnel() stays Laravel's: " . $why->getMessage());
            return $this->connection()->funnel($name);
        }
        return new FunnelBuilder($this->funnelTarget, (string) $name);
    }
}
