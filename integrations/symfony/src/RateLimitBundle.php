<?php

namespace RateLimit\Symfony;

use RateLimit\Symfony\DependencyInjection\ExtensionLimitersPass;
use RateLimit\Symfony\DependencyInjection\RateLimitExtension;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\Extension\ExtensionInterface;
use Symfony\Component\HttpKernel\Bundle\Bundle;

/**
 * Enable it (config/bundles.php) and every limiter of `framework.rate_limiter`
 * is backed by the ratelimit extension: the `limiter.<name>` services keep
 * their ids, policies and options, and become ExtensionRateLimiterFactory
 * (ExtensionCompoundRateLimiterFactory for Symfony 7.3+'s `compound`
 * policy). Configured under `ratelimit:` (RateLimitExtension): the connection
 * and the header style. ExtensionLimitersPass does the rewiring.
 */
final class RateLimitBundle extends Bundle
{
    public function build(ContainerBuilder $container): void
    {
        parent::build($container);
        $container->addCompilerPass(new ExtensionLimitersPass());
    }

    public function getContainerExtension(): ?ExtensionInterface
    {
        return $this->extension ??= new RateLimitExtension();
    }
}
