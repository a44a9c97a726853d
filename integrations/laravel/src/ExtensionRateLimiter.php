<?php

namespace RateLimit\Laravel;

use Closure;
use Illuminate\Cache\RateLimiter;
use Illuminate\Contracts\Cache\Repository as Cache;

/**
 * Laravel's `RateLimiter` (the facade's class) with every count kept by the
 * extension's fixed window, on the very key stock Laravel uses for the count
 * (`{client prefix}{cache prefix}:{key}`, an integer with the window as TTL).
 *
 * Stock Laravel counts with separate GET / ADD / INCREMENT commands and a
 * second `{key}:timer` key, so concurrent requests overshoot and each costs
 * several round trips. Here a check-and-count is one atomic script; the window
 * end is the counter's own TTL on the Redis server's clock, so no timer key is
 * needed (it is written only when `ratelimit.timer_keys` is on, for nodes that
 * still run stock Laravel during a rollout).
 *
 * `RateLimiter::for()` / `limiter()` are Laravel's own, untouched.
 */
class ExtensionRateLimiter extends RateLimiter
{
    /** Limit for hit()/attempts(), which have none: large, and exact in Lua doubles (the extension's maximum). */
    private const UNBOUNDED = 1 << 40;

    /**
     * @param RedisTarget $target where the counters live (Laravel's own connection and prefixes)
     * @param bool $timerKeys also write stock Laravel's `{key}:timer` when a window opens (rollout)
     * @param string $headerStyle 'x' (Laravel's headers) or 'ietf' (RateLimit-Policy / RateLimit)
     * @param bool $dryRun every limit in dry run (the extension's withDryRun()): decided and counted, never denied
     */
    public function __construct(
        Cache $cache,
        private RedisTarget $target,
        private bool $timerKeys = false,
        private string $headerStyle = 'x',
        private bool $dryRun = false,
    ) {
        parent::__construct($cache);
        if ($headerStyle !== 'x' && $headerStyle !== 'ietf') {
            throw new \ValueError("ratelimit.headers must be \"x\" or \"ietf\", \"$headerStyle\" given");
        }
    }

    /** Takes over a stock limiter: the same cache repository and the named limiters already defined with for(). */
    public static function replacing(RateLimiter $stock, RedisTarget $target, bool $timerKeys = false, string $headerStyle = 'x', bool $dryRun = false): self
    {
        $limiter = new self($stock->cache, $target, $timerKeys, $headerStyle, $dryRun);
        $limiter->limiters = $stock->limiters;
        return $limiter;
    }

    /**
     * Whether several limits of one request can be decided in one atomic call
     * (CompoundRateLimiter): not while stock's timer keys are written (each
     * limit must know whether it opened a window), and not on a Redis Cluster,
     * where stock Laravel's keys of different limits hash to different slots
     * (one script can only touch keys of one slot).
     */
    public function decidesLimitsTogether(): bool
    {
        return !$this->timerKeys && !$this->target->cluster;
    }

    public function headerStyle(): string
    {
        return $this->headerStyle;
    }

    /** Whether every limit is in dry run (config ratelimit.dry_run). */
    public function dryRun(): bool
    {
        return $this->dryRun;
    }

    /** $limiter as this limiter's limits run: in dry run when ratelimit.dry_run is on (LimitSet's compound too). */
    public function asConfigured(\RateLimiterInterface $limiter): \RateLimiterInterface
    {
        return $this->dryRun ? $limiter->withDryRun() : $limiter;
    }

    /**
     * Counts one request for $key if it fits in $maxAttempts per $decaySeconds;
     * one atomic round trip. Denied requests count nothing.
     */
    public function consume(string $key, int $maxAttempts, int $decaySeconds): \RateLimitResult
    {
        $result = $this->window($key, $decaySeconds, $maxAttempts)->consume();
        $this->afterConsume($result, $key, $maxAttempts);
        return $result;
    }

    /** The extension limiter for one Laravel limit (exposed for LimitSet, the several-limits seam). */
    public function window(string $key, int $decaySeconds, int $maxAttempts): \FixedWindowRateLimiter
    {
        // A window of 0 s cannot exist in Redis (stock Laravel would fail on it too): one second.
        $window = new \FixedWindowRateLimiter($this->target->connection, $this->redisKey($key), (float) max(1, $decaySeconds), $maxAttempts);
        return $this->dryRun ? $window->withDryRun() : $window;
    }

    /** After an accepted call that opened a window: the timer key stock Laravel nodes need (rollout only). */
    public function afterConsume(\RateLimitResult $result, string $key, int $maxAttempts): void
    {
        if ($this->timerKeys && $result->allowed && $result->remaining === $maxAttempts - 1) {
            $ttl = max(1, (int) ceil($result->resetAfter));
            $this->cache->add($this->cleanRateLimiterKey($key) . ':timer', $this->availableAt($ttl), $ttl);
        }
    }

    /** Checks and counts in one step, before the callback (stock counts after it, so concurrent callers overshoot). */
    public function attempt($key, $maxAttempts, Closure $callback, $decaySeconds = 60)
    {
        if ((int) $maxAttempts < 1) {
            return parent::attempt($key, $maxAttempts, $callback, $decaySeconds);
        }
        if (!$this->consume((string) $key, (int) $maxAttempts, (int) $decaySeconds)->allowed) {
            return false;
        }
        return $callback() ?: true;
    }

    public function tooManyAttempts($key, $maxAttempts)
    {
        if ((int) $maxAttempts < 1) {
            // Stock: "attempts >= max" always holds, so it is "has a window open".
            return $this->peek((string) $key)->resetAfter > 0;
        }
        return !$this->peek((string) $key, (int) $maxAttempts)->allowed;
    }

    public function hit($key, $decaySeconds = 60)
    {
        return $this->increment($key, $decaySeconds);
    }

    /**
     * Counts $amount hits in one atomic call (the extension's charge(), which
     * never refuses; a window opens with the first); stock Laravel (10+)
     * adds, then increments, in separate commands. A negative amount is a
     * decrement(). Returns the window's count.
     */
    public function increment($key, $decaySeconds = 60, $amount = 1)
    {
        $amount = (int) $amount;
        if ($amount < 0) {
            return $this->decrement($key, $decaySeconds, -$amount);
        }
        if ($amount === 0) {
            return $this->attempts($key);
        }
        $window = $this->window((string) $key, (int) $decaySeconds, self::UNBOUNDED);
        // One hit is a consume (one call that also reads the id's block).
        $result = $amount === 1 ? $window->consume() : $window->charge('', min($amount, self::UNBOUNDED));
        $this->afterConsume($result, (string) $key, self::UNBOUNDED - $amount + 1);
        return self::UNBOUNDED - $result->remaining;
    }

    /**
     * Gives back $amount hits of the open window in one atomic call (the
     * extension's refund()): never below 0, and nothing when no window is
     * open (stock Laravel would open one at a negative count). Returns the
     * window's count.
     */
    public function decrement($key, $decaySeconds = 60, $amount = 1)
    {
        $amount = (int) $amount;
        if ($amount < 0) {
            return $this->increment($key, $decaySeconds, -$amount);
        }
        if ($amount === 0) {
            return $this->attempts($key);
        }
        $result = $this->window((string) $key, (int) $decaySeconds, self::UNBOUNDED)->refund('', $amount);
        return self::UNBOUNDED - $result->remaining;
    }

    public function attempts($key)
    {
        return self::UNBOUNDED - $this->peek((string) $key)->remaining;
    }

    public function resetAttempts($key)
    {
        $this->window((string) $key, 60, 1)->reset();
        return true;
    }

    public function remaining($key, $maxAttempts)
    {
        return (int) $maxAttempts - $this->attempts($key);
    }

    public function clear($key)
    {
        $this->resetAttempts($key);
        if ($this->timerKeys) {
            $this->cache->forget($this->cleanRateLimiterKey($key) . ':timer');
        }
    }

    /** Whole seconds until the window ends (rounded up; stock rounds its timer's timestamp down), 0 when none is open. */
    public function availableIn($key)
    {
        return (int) ceil($this->peek((string) $key)->resetAfter);
    }

    /** The open window of $key as a decision for one more request; writes nothing. */
    private function peek(string $key, int $maxAttempts = self::UNBOUNDED): \RateLimitResult
    {
        return $this->window($key, 60, $maxAttempts)->peek();
    }

    /** The Redis key of $key: the one stock Laravel's cache uses. */
    private function redisKey(string $key): string
    {
        return $this->target->keyPrefix . $this->cleanRateLimiterKey($key);
    }
}
