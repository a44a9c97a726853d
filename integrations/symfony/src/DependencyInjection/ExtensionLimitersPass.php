<?php

namespace RateLimit\Symfony\DependencyInjection;

use RateLimit\Symfony\ExtensionCompoundRateLimiterFactory;
use RateLimit\Symfony\ExtensionRateLimiterFactory;
use RateLimit\Symfony\LimiterFactory;
use Symfony\Component\DependencyInjection\ChildDefinition;
use Symfony\Component\DependencyInjection\Compiler\CompilerPassInterface;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\Definition;
use Symfony\Component\RateLimiter\RateLimiterFactory;

/**
 * Backs every limiter of `framework.rate_limiter` with the extension, after
 * FrameworkBundle has registered them (each `limiter.<name>`, a child of the
 * abstract `limiter` service, RateLimiterFactory with the limiter's config,
 * a storage and a lock; from Symfony 7.3 `compound` ones too, a
 * CompoundRateLimiterFactory of `limiter.<name>` references):
 *
 * - `limiter.<name>` keeps its id, tags and config and becomes an
 *   ExtensionRateLimiterFactory on `ratelimit.connection` (a compound: an
 *   ExtensionCompoundRateLimiterFactory of the same members). Its storage and
 *   lock are no longer used, so Symfony removes them.
 * - Autowiring: `RateLimiterFactoryInterface $<name>Limiter` (7.3+, Symfony's
 *   own alias) now gets it; so do `ExtensionRateLimiterFactory` (or
 *   `ExtensionCompoundRateLimiterFactory`) and `LimiterFactory $<name>Limiter`,
 *   added here on every version.
 * - `RateLimiterFactory $<name>Limiter`: RateLimiterFactory is a final class
 *   that only makes Symfony's own limiters, so no extension-backed object can
 *   be one. Rather than hand such a service a second, stock limiter of the same
 *   name on other keys (two limits where the app configured one), its alias
 *   points to a definition that fails the container build, with a message
 *   naming the types to use instead. A limiter named in `ratelimit.except`
 *   stays Symfony's, aliases and all.
 */
final class ExtensionLimitersPass implements CompilerPassInterface
{
    public function process(ContainerBuilder $container): void
    {
        $connection = $container->hasParameter('ratelimit.connection') ? $container->getParameter('ratelimit.connection') : null;
        $headers = $container->hasParameter('ratelimit.headers') ? $container->getParameter('ratelimit.headers') : 'x';
        $except = $container->hasParameter('ratelimit.except') ? $container->getParameter('ratelimit.except') : [];

        $taken = [];
        foreach ($container->getDefinitions() as $id => $definition) {
            if (!str_starts_with($id, 'limiter.') || in_array($name = substr($id, 8), $except, true)) {
                continue;
            }
            if (($definition instanceof ChildDefinition && $definition->getParent() === 'limiter') || $definition->getClass() === RateLimiterFactory::class) {
                $factory = new Definition(ExtensionRateLimiterFactory::class, [$definition->getArgument(0), $connection, $headers]);
            } elseif ($definition->getClass() === 'Symfony\Component\RateLimiter\CompoundRateLimiterFactory') {
                $factory = new Definition(ExtensionCompoundRateLimiterFactory::class, [$definition->getArgument(0), $headers]);
            } else {
                continue;
            }
            $container->setDefinition($id, $factory->setTags($definition->getTags())->setPublic($definition->isPublic()));
            $taken[$id] = $name;
        }

        foreach ($container->getAliases() as $aliasId => $alias) {
            $target = (string) $alias;
            $type = RateLimiterFactory::class . ' $';
            if (isset($taken[$target]) && (str_starts_with($aliasId, $type) || str_starts_with($aliasId, ".$type"))) {
                $container->setAlias($aliasId, $this->refusal($container, $taken[$target]));
            }
        }
        foreach ($taken as $id => $name) {
            // The 4th argument (Symfony 7.x, ignored before) also names the alias for #[Target('<name>')], as Symfony's own.
            $container->registerAliasForArgument($id, $container->getDefinition($id)->getClass(), "$name.limiter", $name);
            $container->registerAliasForArgument($id, LimiterFactory::class, "$name.limiter", $name);
        }
    }

    /** A private RateLimiterFactory that fails the build when a service uses it, saying what to type-hint. */
    private function refusal(ContainerBuilder $container, string $name): string
    {
        $id = ".ratelimit.final_factory.$name";
        if (!$container->hasDefinition($id)) {
            $container->register($id, RateLimiterFactory::class)->setPublic(false)->addError(sprintf(
                'Rate limiter "%s" is backed by the ratelimit extension (RateLimit\Symfony\RateLimitBundle), and %s is a final class '
                . 'that only makes Symfony\'s own limiters: type-hint %s instead (Symfony\Component\RateLimiter\RateLimiterFactoryInterface '
                . 'on Symfony 7.3+), or list "%s" under ratelimit.except to keep Symfony\'s factory for it.',
                $name, RateLimiterFactory::class, LimiterFactory::class, $name
            ));
        }
        return $id;
    }
}
