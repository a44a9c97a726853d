<?php

declare(strict_types=1);

namespace RateLimit\Yii3;

use Yiisoft\Yii\RateLimiter\CounterInterface;
use Yiisoft\Yii\RateLimiter\CounterState;

/**
 * A counter for Yii 3's LimitRequestsMiddleware (yiisoft/rate-limiter 3.x)
 * whose decisions the ratelimit extension makes: GCRA, as Yii's own Counter,
 * in one atomic call on Redis, so concurrent requests never pass together
 * (Yii's reads the stored time, computes in PHP, then writes it back).
 *
 * $limit hits per $periodInSeconds, of which all $limit may come at once (a
 * burst of $limit - 1 beyond the first, in redis-cell's words); Yii's own
 * Counter refuses the $limit-th of a burst.
 *
 * The CounterState means what the middleware reads in it: the hit is refused
 * exactly when remaining is 0, so an accepted hit reports the hits left after
 * it, but at least 1 (the last hit of a burst says 1, where 0 remain: Yii's
 * own Counter refuses that hit instead); the reset time is the Unix time
 * (whole seconds) at which the counter is back to $limit, as Yii's. Redis
 * failure: ratelimit.on_error answers (allow: accepted, deny: refused, local:
 * decided in this process for its share of the limit), or
 * with throw a RateLimiterException, which ServiceUnavailableMiddleware turns
 * into a 503 with the cause logged.
 */
final class ExtensionCounter implements CounterInterface
{
    private \GcraRateLimiter $limiter;

    /**
     * @param int $limit hits allowed per period (at least 1)
     * @param int $periodInSeconds the period (at least 1), as Yii's Counter takes it
     * @param mixed $connection any connection the extension takes (DSN, array, phpredis object); null: ratelimit.redis_url
     * @param string $keyPrefix the Redis keys are $keyPrefix:$id (the id is the middleware's fingerprint)
     */
    public function __construct(private int $limit, int $periodInSeconds, mixed $connection = null, string $keyPrefix = 'rate-limiter')
    {
        if ($limit < 1) {
            throw new \ValueError('limit must be at least 1');
        }
        if ($periodInSeconds < 1) {
            throw new \ValueError('periodInSeconds must be at least 1');
        }
        $this->limiter = new \GcraRateLimiter($connection, $keyPrefix, $limit - 1, $limit, (float) $periodInSeconds);
    }

    public function hit(string $id): CounterState
    {
        $result = $this->limiter->consume($id);
        $remaining = $result->allowed ? max(1, $result->remaining) : 0;
        return new CounterState($this->limit, $remaining, (int) (microtime(true) + $result->resetAfter));
    }
}
