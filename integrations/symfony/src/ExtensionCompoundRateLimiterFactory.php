<?php

namespace RateLimit\Symfony;

use Symfony\Component\RateLimiter\LimiterInterface;
use Symfony\Component\RateLimiter\Policy\NoLimiter;

/**
 * Symfony's CompoundRateLimiterFactory (7.3+), on the extension: several
 * ExtensionRateLimiterFactory policies for one key (per second and per day,
 * say), decided as one by the extension's CompoundRateLimiter: one atomic
 * round trip, accepted only if every policy accepts, and a request one policy
 * denies takes nothing from the others. (Symfony's CompoundLimiter consumes
 * from each limiter in turn, so a request denied by one has still counted in
 * the limiters before it.) The answer is the most restrictive policy's.
 *
 * The members must be on one connection target (the extension's rule for a
 * compound); no_limit members add nothing. On a Redis Cluster the members'
 * keys of one key share its hash tag, so a compound needs a non-empty key there.
 */
final class ExtensionCompoundRateLimiterFactory implements LimiterFactory
{
    /** @var list<ExtensionRateLimiterFactory> */
    private array $factories = [];

    /**
     * @param iterable<ExtensionRateLimiterFactory> $rateLimiterFactories
     * @param string|null $headers the style of ExtensionLimiter::headers(); null: the first member's
     */
    public function __construct(iterable $rateLimiterFactories, private ?string $headers = null)
    {
        foreach ($rateLimiterFactories as $factory) {
            if (!$factory instanceof ExtensionRateLimiterFactory) {
                throw new \TypeError(sprintf('%s::__construct(): Argument #1 ($rateLimiterFactories) must hold only %s, %s given', self::class, ExtensionRateLimiterFactory::class, get_debug_type($factory)));
            }
            $this->factories[] = $factory;
        }
        if ($this->factories === []) {
            throw new \ValueError(sprintf('%s::__construct(): Argument #1 ($rateLimiterFactories) must hold at least one factory', self::class));
        }
    }

    public function create(?string $key = null): LimiterInterface
    {
        $members = [];
        $limit = PHP_INT_MAX;
        foreach ($this->factories as $factory) {
            if (($limiter = $factory->extensionLimiter()) !== null) {
                $members[] = $limiter;
                $limit = min($limit, $factory->limit());
            }
        }
        if ($members === []) {
            return new NoLimiter();
        }
        return new ExtensionLimiter(new \CompoundRateLimiter($members), (string) $key, ExtensionLimiter::COMPOUND, $limit,
            $this->headers ?? $this->factories[0]->headerStyle());
    }
}
