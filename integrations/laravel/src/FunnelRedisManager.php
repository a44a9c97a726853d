<?php

namespace RateLimit\Laravel;

use Illuminate\Redis\RedisManager;

/**
 * Laravel's RedisManager ('redis' in the container, the Redis facade) with
 * funnel() on the extension (FunnelBuilder), on the default Redis connection
 * and its key prefix; everything else is stock. Redis::connection('x')->funnel()
 * stays Laravel's own.
 */
class FunnelRedisManager extends RedisManager
{
    private ?RedisTarget $funnelTarget = null;

    public function funnel($name): FunnelBuilder
    {
        $this->funnelTarget ??= RedisTarget::ofConnection($this->app['config'], 'default');
        return new FunnelBuilder($this->funnelTarget, (string) $name);
    }
}
