<?php

namespace RateLimit\Laravel;

use Illuminate\Contracts\Foundation\Application;

/**
 * Why the drop-in leaves a Laravel app's rate limiting to stock Laravel (the
 * extension is not loaded, the limiter's store is not on Redis, a setting the
 * extension cannot honour), and the one place that says so in Laravel's log:
 * once per reason and process, so a PHP-FPM worker says it on its first
 * request and not on every one.
 */
final class StepAside extends \RuntimeException
{
    /** @var array<string, true> the reasons this process has logged */
    private static array $said = [];

    /** Logs $reason (a warning, through the app's logger) unless this process already did. */
    public static function log(Application $app, string $reason): void
    {
        if (isset(self::$said[$reason]) || !$app->bound('log')) {
            return;
        }
        self::$said[$reason] = true;
        $app->make('log')->warning("ratelimit: stock Laravel rate limiting stays in charge: $reason");
    }
}
