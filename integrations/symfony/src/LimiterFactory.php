<?php

namespace RateLimit\Symfony;

use Symfony\Component\RateLimiter\LimiterInterface;
use Symfony\Component\RateLimiter\RateLimiterFactoryInterface;

// The factory contract of the installed Symfony, so the extension's factories
// implement RateLimiterFactoryInterface where Symfony has it (7.3+), and code
// that type-hints it gets them; before 7.3 the same method, declared here.
if (interface_exists(RateLimiterFactoryInterface::class)) {
    /** A rate limiter factory: Symfony's RateLimiterFactoryInterface (7.3+). */
    interface LimiterFactory extends RateLimiterFactoryInterface
    {
    }
} else {
    /** A rate limiter factory: the shape of Symfony 7.3's RateLimiterFactoryInterface. */
    interface LimiterFactory
    {
        public function create(?string $key = null): LimiterInterface;
    }
}
