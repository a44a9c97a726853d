<?php

namespace RateLimit\Symfony;

use Symfony\Component\RateLimiter\Exception\ReserveNotSupportedException;
use Symfony\Component\RateLimiter\Policy\FixedWindowLimiter;
use Symfony\Component\RateLimiter\Policy\SlidingWindowLimiter;
use Symfony\Component\RateLimiter\Storage\InMemoryStorage;

/**
 * How the installed Symfony RateLimiter answers where its versions differ,
 * asked of its own limiters on an in-memory storage (no I/O), once per
 * process, rather than read from a version number:
 *
 * - up to 6.4, an accepted request reports "retry now" even when it took the
 *   last token; from 7.x it reports when the next token frees up;
 * - up to 6.4, the sliding window cannot reserve() and answers a request
 *   larger than its limit with "not accepted"; from 7.x it reserves like the
 *   others and throws InvalidArgumentException for such a request.
 */
final class InstalledSymfony
{
    /** @var array<string, bool> */
    private static array $answers = [];

    /** Does an accepted request that took the last token say when the next one frees up? */
    public static function showsWaitWhenEmptied(): bool
    {
        return self::$answers[__FUNCTION__] ??= (function (): bool {
            $limiter = new FixedWindowLimiter('probe', 1, new \DateInterval('PT60S'), new InMemoryStorage());
            return $limiter->consume(1)->getRetryAfter()->getTimestamp() > time() + 1;
        })();
    }

    /** Does the sliding window reserve() (rather than throw ReserveNotSupportedException)? */
    public static function slidingWindowReserves(): bool
    {
        return self::$answers[__FUNCTION__] ??= (function (): bool {
            try {
                (new SlidingWindowLimiter('probe', 1, new \DateInterval('PT60S'), new InMemoryStorage()))->reserve(1);
                return true;
            } catch (ReserveNotSupportedException) {
                return false;
            }
        })();
    }

    /** Does the sliding window throw for a request larger than its limit (rather than answer "not accepted")? */
    public static function slidingWindowRefusesOversize(): bool
    {
        return self::$answers[__FUNCTION__] ??= (function (): bool {
            try {
                (new SlidingWindowLimiter('probe', 1, new \DateInterval('PT60S'), new InMemoryStorage()))->consume(2);
                return false;
            } catch (\InvalidArgumentException) {
                return true;
            }
        })();
    }
}
