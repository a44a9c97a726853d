<?php

namespace RateLimit\Symfony;

use Symfony\Component\RateLimiter\Exception\MaxWaitDurationExceededException;
use Symfony\Component\RateLimiter\Exception\ReserveNotSupportedException;
use Symfony\Component\RateLimiter\LimiterInterface;
use Symfony\Component\RateLimiter\RateLimit;
use Symfony\Component\RateLimiter\Reservation;

/**
 * A Symfony limiter for one key, deciding with the extension: `consume()` is
 * one atomic round trip, `consume(0)` peeks (writes nothing), `reset()`
 * deletes the key. Made by ExtensionRateLimiterFactory.
 *
 * `reserve()`: books the tokens at once and returns a Reservation due when
 * they may be used, never polling. A token bucket books through the
 * extension's reserve(): one atomic call that takes the tokens ahead (the
 * bucket owes them), so bookings are served in the order made and a later
 * consume() or reserve() cannot take them; the Reservation waits exactly the
 * delay it answered. A fixed or sliding window books as Symfony's own does:
 * a consume() when the tokens fit now, else the wait it answers, and the
 * tokens added to the window past its limit (charge()). A wait longer than
 * $maxTime books nothing: MaxWaitDurationExceededException, as in Symfony.
 * Sliding window: as the installed Symfony does (not supported up to 6.4,
 * supported from 7.x).
 * Compound (ExtensionCompoundRateLimiterFactory): not supported, as Symfony's
 * CompoundLimiter; a request above the smallest member's limit is an
 * InvalidArgumentException, as its fixed window and token bucket members throw.
 *
 * Where Symfony's versions answer differently, the adapter answers as the
 * installed one does (InstalledSymfony asks it).
 */
final class ExtensionLimiter implements LimiterInterface
{
    /** The policy of a limiter made by ExtensionCompoundRateLimiterFactory (several policies decided as one). */
    public const COMPOUND = 'compound';

    public function __construct(
        private \RateLimiterInterface $limiter,
        private string $key,
        private string $policy,
        private int $limit,
        private string $headerStyle = 'x',
    ) {
    }

    /** The last decision of this object (consume, reserve), for headers(). */
    private ?\RateLimitResult $last = null;

    /**
     * The rate-limit response headers of this object's last decision, in the
     * factory's style ('x': X-RateLimit-*, 'ietf': RateLimit-Policy / RateLimit),
     * plus Retry-After when it was denied; [] before any decision.
     *
     * @return array<string, string>
     */
    public function headers(): array
    {
        return $this->last === null ? [] : array_map('strval', $this->last->headers($this->headerStyle));
    }

    public function consume(int $tokens = 1): RateLimit
    {
        if ($tokens === 0) {
            // Symfony's consume(0) takes nothing and is always accepted: it reports the state.
            $r = $this->last = $this->limiter->peek($this->key);
            return new RateLimit($r->remaining, self::at($r->retryAfter), true, $r->limit);
        }
        if ($tokens > $this->limit) {
            if ($this->policy === 'sliding_window' && !InstalledSymfony::slidingWindowRefusesOversize()) {
                // Symfony's sliding window up to 6.4 answers "not accepted"; the others throw (below).
                $r = $this->last = $this->limiter->peek($this->key);
                return new RateLimit($r->remaining, self::at($r->resetAfter), false, $r->limit);
            }
            $this->tooMany($tokens);
        }
        return $this->accepting($this->last = $this->limiter->consume($this->key, $tokens));
    }

    public function reserve(int $tokens = 1, ?float $maxTime = null): Reservation
    {
        if ($this->policy === self::COMPOUND) {
            // As Symfony's CompoundLimiter.
            throw new ReserveNotSupportedException(\Symfony\Component\RateLimiter\CompoundLimiter::class);
        }
        if ($this->policy === 'sliding_window' && !InstalledSymfony::slidingWindowReserves()) {
            throw new ReserveNotSupportedException(\Symfony\Component\RateLimiter\Policy\SlidingWindowLimiter::class);
        }
        if ($tokens > $this->limit) {
            $this->tooMany($tokens);
        }
        $now = microtime(true);
        if ($this->limiter instanceof \TokenBucketRateLimiter) {
            $r = $this->last = $this->limiter->reserve($this->key, $tokens, $maxTime ?? 315360000.0);
            $wait = $r->allowed ? $r->delay : $r->retryAfter;
        } else {
            $r = $this->last = $this->limiter->consume($this->key, $tokens);
            $wait = $r->allowed ? 0.0 : $r->retryAfter;
            if (!$r->allowed && ($maxTime === null || $wait <= $maxTime)) {
                $charged = $this->limiter->charge($this->key, $tokens);
                $r = $this->last = new \RateLimitResult(true, $r->limit, 0, 0.0, $charged->resetAfter);
            }
        }
        if (!$r->allowed) {
            throw new MaxWaitDurationExceededException(
                sprintf('The rate limiter wait time ("%d" seconds) is longer than the provided maximum time ("%d" seconds).', $wait, $maxTime ?? 0),
                self::rateLimit($r),
            );
        }
        if ($wait > 0.0) {
            return new Reservation($now + $wait, new RateLimit($r->remaining, self::at($wait), true, $r->limit));
        }
        return new Reservation($now, $this->accepting($r));
    }

    public function reset(): void
    {
        $this->limiter->reset($this->key);
    }

    /** Symfony's words for a request larger than the limiter. */
    private function tooMany(int $tokens): never
    {
        $what = $this->policy === 'token_bucket' ? 'burst size' : 'size';
        throw new \InvalidArgumentException(sprintf('Cannot reserve more tokens (%d) than the %s of the rate limiter (%d).', $tokens, $what, $this->limit));
    }

    /**
     * A decision as Symfony's RateLimit. Symfony 6.4+ says when the next token
     * frees up on an accepted request that took the last one; the decision
     * tells it without another round trip: a fixed window frees its tokens at
     * its end, a bucket (now empty) refills one in 1/limit of the time it
     * takes to refill all, and a sliding window has every unit back by
     * resetAfter (its log entries of one burst leave together).
     */
    private function accepting(\RateLimitResult $r): RateLimit
    {
        if ($r->allowed && $r->remaining === 0 && InstalledSymfony::showsWaitWhenEmptied()) {
            $wait = $this->policy === 'token_bucket' ? $r->resetAfter / max(1, $r->limit) : $r->resetAfter;
            return new RateLimit(0, self::at($wait), true, $r->limit);
        }
        return self::rateLimit($r);
    }

    private static function rateLimit(\RateLimitResult $r): RateLimit
    {
        return new RateLimit($r->remaining, self::at($r->retryAfter), $r->allowed, $r->limit);
    }

    /** A moment $seconds from now, to the microsecond (Symfony rounds down to the second). */
    private static function at(float $seconds): \DateTimeImmutable
    {
        return \DateTimeImmutable::createFromFormat('U.u', sprintf('%.6F', microtime(true) + $seconds));
    }
}
