<?php

namespace RateLimit\Symfony;

use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;

/**
 * A symfony/semaphore store on the extension's ConcurrencyLimiter:
 *
 *     $factory = new SemaphoreFactory(new ConcurrencyStore($redis));
 *     $semaphore = $factory->createSemaphore('pdf-export', 4);   // 4 at once
 *     if ($semaphore->acquire()) { ... }
 *
 * Each acquired semaphore holds ConcurrencyPermits (as many as the key's
 * weight) kept in the Key's state; they are freed by release(), when the
 * Semaphore is destroyed (autoRelease), at the end of the request whatever
 * ended it (a fatal error, exit(), a timeout), and when their lease (the
 * semaphore's TTL, on the Redis server's clock) runs out after a worker was
 * killed. A weight above 1 takes its permits one by one and gives them all
 * back when one is refused: never above the limit, though two heavy acquirers
 * racing for the last slots may both be refused. putOffExpiration() renews the
 * lease by the TTL the semaphore was acquired with. save() on a Key whose
 * leases ran out takes slots anew (as Symfony's stores do), since the old ones
 * may be someone else's by then.
 * The methods declare `: void` as Symfony 7 declares them; Symfony 5.4 and 6.4 (no return
 * types there) accept an implementation that adds them.
 */
final class ConcurrencyStore implements PersistingStoreInterface
{
    /**
     * @param mixed $connection what ConcurrencyLimiter takes (a DSN, a config array, a phpredis object, null: ratelimit.redis_url)
     * @param string $keyPrefix the Redis keys are "$keyPrefix:$resource"
     */
    public function __construct(private readonly mixed $connection = null, private readonly string $keyPrefix = 'semaphore')
    {
    }

    public function save(Key $key, float $ttlInSecond): void
    {
        if ($ttlInSecond <= 0) {
            throw new InvalidArgumentException(sprintf('The TTL must be greater than 0, %s given.', $ttlInSecond));
        }
        if ($key->hasState(self::class)) {
            if ($this->exists($key)) {
                return; // acquired already, its leases still running
            }
            // Acquired once, but a lease ran out: its slot may be someone
            // else's by now, so this acquire() takes slots anew or is refused.
            $this->delete($key);
        }
        $limiter = new \ConcurrencyLimiter($this->connection, $this->keyPrefix, $key->getLimit(), $ttlInSecond);
        $permits = [];
        for ($i = 0; $i < $key->getWeight(); $i++) {
            $permit = $limiter->acquire((string) $key);
            if ($permit === null) {
                array_walk($permits, fn (\ConcurrencyPermit $p) => $p->release());
                throw new SemaphoreAcquiringException($key, 'no slot left');
            }
            $permits[] = $permit;
        }
        $key->setState(self::class, $permits);
    }

    public function delete(Key $key): void
    {
        if (!$key->hasState(self::class)) {
            return;
        }
        $permits = $key->getState(self::class);
        $key->removeState(self::class);
        array_walk($permits, fn (\ConcurrencyPermit $p) => $p->release());
    }

    public function exists(Key $key): bool
    {
        if (!$key->hasState(self::class)) {
            return false;
        }
        foreach ($key->getState(self::class) as $permit) {
            if ($permit->expiresIn() <= 0) {
                return false;
            }
        }
        return true;
    }

    public function putOffExpiration(Key $key, float $ttlInSecond): void
    {
        if (!$key->hasState(self::class)) {
            throw new SemaphoreExpiredException($key, 'the semaphore is not acquired');
        }
        try {
            foreach ($key->getState(self::class) as $permit) {
                $permit->renew();
            }
        } catch (\RateLimiterException $e) {
            throw new SemaphoreExpiredException($key, $e->getMessage());
        }
    }
}
