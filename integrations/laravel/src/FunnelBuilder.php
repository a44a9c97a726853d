<?php

namespace RateLimit\Laravel;

use Illuminate\Contracts\Redis\LimiterTimeoutException;

/**
 * Redis::funnel($name)->limit($n)->releaseAfter($s)->block($w)->then($callback, $failure)
 * on the extension's ConcurrencyLimiter: at most $n callbacks of $name run at
 * once; a caller waits up to block() seconds for a slot (woken when one frees,
 * not by Laravel's loop of 250 ms sleeps), else $failure gets (or the caller
 * gets) Laravel's own LimiterTimeoutException. The slot is freed when the
 * callback returns or throws, at the end of the request whatever ended it (a
 * fatal error, exit(), a timeout), and after releaseAfter() seconds if the
 * process was killed. The same fluent methods and defaults as Laravel's
 * ConcurrencyLimiterBuilder (60 s lease, 3 s wait).
 */
final class FunnelBuilder
{
    private int $maxLocks = 1;
    private float $releaseAfter = 60.0;
    private float $timeout = 3.0;

    public function __construct(private readonly RedisTarget $target, private readonly string $name)
    {
    }

    public function limit($maxLocks): self
    {
        $this->maxLocks = (int) $maxLocks;
        return $this;
    }

    /** Seconds, or a DateTimeInterface / DateInterval as Laravel takes them. */
    public function releaseAfter($releaseAfter): self
    {
        $this->releaseAfter = (float) match (true) {
            $releaseAfter instanceof \DateTimeInterface => max(0, $releaseAfter->getTimestamp() - time()),
            $releaseAfter instanceof \DateInterval => (new \DateTimeImmutable())->add($releaseAfter)->getTimestamp() - time(),
            default => $releaseAfter,
        };
        return $this;
    }

    public function block($timeout): self
    {
        $this->timeout = (float) $timeout;
        return $this;
    }

    /** Laravel's sleep between tries: nothing to do here, a waiter is woken. */
    public function sleep($sleep): self
    {
        return $this;
    }

    public function then(callable $callback, ?callable $failure = null): mixed
    {
        $limiter = new \ConcurrencyLimiter($this->target->connection, $this->target->keyPrefix . $this->name, $this->maxLocks, $this->releaseAfter);
        $permit = $limiter->acquire('', $this->timeout);
        if ($permit === null) {
            $e = new LimiterTimeoutException();
            if ($failure !== null) {
                return $failure($e);
            }
            throw $e;
        }
        try {
            return $callback();
        } finally {
            $permit->release();
        }
    }
}
