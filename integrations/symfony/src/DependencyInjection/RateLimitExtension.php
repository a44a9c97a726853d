<?php

namespace RateLimit\Symfony\DependencyInjection;

use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\Extension\Extension;

/**
 * The `ratelimit:` configuration of RateLimitBundle (Configuration), kept as
 * container parameters for ExtensionLimitersPass:
 *   ratelimit.connection  the extension's connection (DSN, array, null: ratelimit.redis_url)
 *   ratelimit.headers     'x' or 'ietf'
 *   ratelimit.except      names of framework.rate_limiter limiters left to Symfony
 */
final class RateLimitExtension extends Extension
{
    public function load(array $configs, ContainerBuilder $container): void
    {
        $config = $this->processConfiguration(new Configuration(), $configs);
        $container->setParameter('ratelimit.connection', $config['connection']);
        $container->setParameter('ratelimit.headers', $config['headers']);
        $container->setParameter('ratelimit.except', $config['except']);
    }

    public function getAlias(): string
    {
        return 'ratelimit';
    }
}
