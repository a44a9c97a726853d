<?php

namespace RateLimit\Laravel;

/**
 * The one place that decides a request against several Laravel limits (a named
 * limiter returning an array of `Limit`s). Every other class sees one decision.
 *
 * - With `CompoundRateLimiter` (the extension has it since 0.1): one atomic
 *   round trip, all-or-nothing (a request denied by any limit counts in none).
 * - While `timer_keys` is on (a rollout next to stock nodes), on a Redis
 *   Cluster (stock's keys of the limits are in different slots, often on
 *   different nodes), or on an older extension: each limit in turn, one round
 *   trip each, stopping at the first that denies; limits before it have
 *   counted the request, as stock Laravel does. Each limit on its own stays
 *   exact under concurrency.
 */
final class LimitSet
{
    /**
     * @param ExtensionRateLimiter $limiter
     * @param list<object{key: string, maxAttempts: int, decayMinutes: int|float, responseCallback: ?callable}> $limits
     *        as Laravel's ThrottleRequests builds them
     */
    public function __construct(private ExtensionRateLimiter $limiter, private array $limits)
    {
    }

    /**
     * The decision and the limit it speaks for: when denied, the limit that
     * denied; when accepted, the limit with the fewest requests left (the
     * first of equals), whose numbers stock Laravel shows in its headers.
     *
     * @return array{0: object, 1: \RateLimitResult}
     */
    public function consume(): array
    {
        if (count($this->limits) > 1 && class_exists('CompoundRateLimiter') && $this->limiter->decidesLimitsTogether()) {
            return $this->consumeAtomically();
        }
        $chosen = null;
        foreach ($this->limits as $limit) {
            $result = $this->limiter->consume($limit->key, (int) $limit->maxAttempts, self::seconds($limit));
            // A dry run stops where enforcing would, so the limits after it count what enforcing counts.
            if (!$result->allowed || ($this->limiter->dryRun() && $result->wouldDeny)) {
                return [$limit, $result];
            }
            if ($chosen === null || $result->remaining < $chosen[1]->remaining) {
                $chosen = [$limit, $result];
            }
        }
        return $chosen;
    }

    /** All limits in one script: accepted only if every limit accepts. */
    private function consumeAtomically(): array
    {
        $windows = [];
        foreach ($this->limits as $limit) {
            $windows[] = $this->limiter->window($limit->key, self::seconds($limit), (int) $limit->maxAttempts);
        }
        // Its own dry run: the windows' do not carry into a compound.
        $compound = $this->limiter->asConfigured(new \CompoundRateLimiter($windows));
        $result = $compound->consume();
        // The compound result carries the numbers of its most restrictive member;
        // the Laravel limit it speaks for is the first with that limit.
        $chosen = $this->limits[0];
        foreach ($this->limits as $limit) {
            if ((int) $limit->maxAttempts === $result->limit) {
                $chosen = $limit;
                break;
            }
        }
        return [$chosen, $result];
    }

    /** The limit's window: Laravel 11+ carries decaySeconds, Laravel 8-10 decayMinutes. */
    public static function seconds(object $limit): int
    {
        return isset($limit->decaySeconds) ? (int) $limit->decaySeconds : (int) round($limit->decayMinutes * 60);
    }
}
