<?php

namespace RateLimit\Symfony\DependencyInjection;

use Symfony\Component\Config\Definition\Builder\TreeBuilder;
use Symfony\Component\Config\Definition\ConfigurationInterface;

/**
 * ratelimit:
 *     connection: '%env(RATELIMIT_REDIS_URL)%'  # any connection the extension takes: a DSN
 *                                              # (redis://, rediss://, redis-cluster://, rediss-cluster://,
 *                                              # redis-sentinel://, unix://) or its array form; ~: ratelimit.redis_url
 *     headers: x                               # ExtensionLimiter::headers(): x (X-RateLimit-*) or ietf
 *     except: []                               # limiter names left to Symfony's own factory
 */
final class Configuration implements ConfigurationInterface
{
    public function getConfigTreeBuilder(): TreeBuilder
    {
        $tree = new TreeBuilder('ratelimit');
        $tree->getRootNode()
            ->children()
                ->variableNode('connection')
                    ->info('the connection every limiter decides on: a DSN or the extension\'s array form; null: the ratelimit.redis_url ini setting')
                    ->defaultNull()
                    ->validate()
                        ->ifTrue(fn ($v) => $v !== null && !is_string($v) && !is_array($v))
                        ->thenInvalid('ratelimit.connection must be a DSN string, an array or null, %s given')
                    ->end()
                ->end()
                ->enumNode('headers')->values(['x', 'ietf'])->defaultValue('x')->end()
                ->arrayNode('except')
                    ->info('names of framework.rate_limiter limiters that stay on Symfony\'s own factory')
                    ->scalarPrototype()->end()
                ->end()
            ->end();
        return $tree;
    }
}
