<?php

namespace RateLimit\Symfony;

use Symfony\Component\OptionsResolver\Options;
use Symfony\Component\OptionsResolver\OptionsResolver;
use Symfony\Component\RateLimiter\LimiterInterface;
use Symfony\Component\RateLimiter\Policy\NoLimiter;

/**
 * Symfony's RateLimiterFactory, on the extension: the same config array
 * (`id`, `policy`: fixed_window | sliding_window | token_bucket | no_limit,
 * `limit`, `interval`, `rate`: {interval, amount}), plus `dry_run` (bool,
 * default false: every limiter decides and counts as enforcing would, but
 * never refuses; docs/operations.md), the same `create($key)`,
 * returning a Symfony `LimiterInterface`. No storage and no Lock: every
 * decision is one atomic script in Redis, so concurrent processes never
 * overshoot. Implements Symfony's RateLimiterFactoryInterface where the
 * installed Symfony has it (7.3+; LimiterFactory).
 *
 * The Redis key of a limiter is `ratelimit.key_prefix . "symfony:" . id . ":" . key`
 * (on a Redis Cluster target the key is a hash tag: `symfony:id:{key}`).
 */
final class ExtensionRateLimiterFactory implements LimiterFactory
{
    private array $config;

    /** The extension's limiter of this policy (one for every key; null for no_limit), made on first use. */
    private ?\RateLimiterInterface $limiter = null;

    /**
     * @param array $config the array RateLimiterFactory takes
     * @param \Redis|\RedisCluster|array|string|null $connection any connection the extension accepts; null: ratelimit.redis_url
     * @param string $headers the style of ExtensionLimiter::headers(): 'x' (X-RateLimit-*) or 'ietf' (RateLimit-Policy / RateLimit)
     */
    public function __construct(array $config, private mixed $connection = null, private string $headers = 'x')
    {
        if ($headers !== 'x' && $headers !== 'ietf') {
            throw new \ValueError(sprintf('%s::__construct(): Argument #3 ($headers) must be "x" or "ietf"', self::class));
        }
        $options = new OptionsResolver();
        self::configureOptions($options);
        $this->config = $options->resolve($config);
    }

    public function create(?string $key = null): LimiterInterface
    {
        $limiter = $this->extensionLimiter();
        if ($limiter === null) {
            return new NoLimiter();
        }
        return new ExtensionLimiter($limiter, (string) $key, $this->config['policy'], $this->limit(), $this->headers);
    }

    /** The policy: fixed_window, sliding_window, token_bucket or no_limit. */
    public function policy(): string
    {
        return $this->config['policy'];
    }

    /** The most one key may take at once (0 for no_limit). */
    public function limit(): int
    {
        return $this->config['policy'] === 'no_limit' ? 0 : self::requiredLimit($this->config);
    }

    /** The style of the headers of its limiters: 'x' or 'ietf'. */
    public function headerStyle(): string
    {
        return $this->headers;
    }

    /** The extension's limiter behind every key of this factory; null for no_limit. */
    public function extensionLimiter(): ?\RateLimiterInterface
    {
        if ($this->limiter !== null || $this->config['policy'] === 'no_limit') {
            return $this->limiter;
        }
        $c = $this->config;
        $prefix = 'symfony:' . $c['id'];
        $limit = self::requiredLimit($c);
        switch ($c['policy']) {
            case 'fixed_window':
                $limiter = new \FixedWindowRateLimiter($this->connection, $prefix, (float) $c['interval'], $limit);
                break;
            case 'sliding_window':
                $limiter = new \SlidingWindowRateLimiter($this->connection, $prefix, (float) $c['interval'], $limit);
                break;
            default: // token_bucket: allowedValues() let nothing else through
                if ($c['rate'] === null) {
                    throw new \LogicException('The token_bucket policy needs "rate": {interval, amount}.');
                }
                [$interval, $amount] = $c['rate'];
                $limiter = new \TokenBucketRateLimiter($this->connection, $prefix, $limit, $amount / $interval);
        }
        return $this->limiter = $c['dry_run'] ? $limiter->withDryRun() : $limiter;
    }

    private static function requiredLimit(array $c): int
    {
        if (!isset($c['limit'])) {
            throw new \LogicException(sprintf('The %s policy needs "limit".', $c['policy']));
        }
        // In the Symfony option's words, as Symfony's own limiters refuse it (not the
        // extension's "Argument #4 ($limit)", which names no option of the user's config).
        if ($c['limit'] < 1) {
            throw new \InvalidArgumentException(sprintf('Cannot set the "limit" option of the "%s" rate limiter (policy %s) to %d, as that would never accept any hit: it must be at least 1.', $c['id'], $c['policy'], $c['limit']));
        }
        return $c['limit'];
    }

    /** Symfony's options, with intervals as seconds (Symfony keeps DateIntervals, then counts their seconds). */
    private static function configureOptions(OptionsResolver $options): void
    {
        $seconds = static function (Options $options, string $interval): int {
            $now = \DateTimeImmutable::createFromFormat('U', (string) time());
            $later = @$now->modify('+' . $interval);
            if (!$later) {
                throw new \LogicException(sprintf('Cannot parse interval "%s", please use a valid unit as described on https://www.php.net/datetime.formats.relative.', $interval));
            }
            return $later->getTimestamp() - $now->getTimestamp();
        };
        $options
            ->define('id')->required()->allowedTypes('string')
            ->define('policy')->required()->allowedValues('token_bucket', 'fixed_window', 'sliding_window', 'no_limit')
            ->define('limit')->allowedTypes('int')
            ->define('dry_run')->allowedTypes('bool')->default(false)
            ->define('interval')->allowedTypes('string')->normalize($seconds)
            ->define('rate')
                ->default(function (OptionsResolver $rate) use ($seconds) {
                    $rate
                        ->define('amount')->allowedTypes('int')->default(1)
                        ->define('interval')->allowedTypes('string')->normalize($seconds);
                })
                ->normalize(fn (Options $options, $value) => isset($value['interval']) ? [$value['interval'], $value['amount']] : null);
    }
}
