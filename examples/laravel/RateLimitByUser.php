<?php
// Laravel middleware: 120 requests per minute per user (or client IP), with the
// usual headers, on the extension's GCRA limiter. Register it in
// app/Http/Kernel.php ('ratelimit.user' => \App\Http\Middleware\RateLimitByUser::class)
// and set ratelimit.redis_url in php.ini / the FPM pool to Laravel's Redis.
// To make Laravel's own `throttle` middleware and RateLimiter facade exact instead,
// with no change to routes, register integrations/laravel's RateLimitServiceProvider.

namespace App\Http\Middleware;

use Closure;
use Illuminate\Http\Request;
use Symfony\Component\HttpFoundation\Response;

final class RateLimitByUser
{
    private static ?\RateLimiterInterface $limiter = null;

    public function handle(Request $request, Closure $next): Response
    {
        // Built once per worker: the connection it uses is pooled inside the extension.
        self::$limiter ??= new \GcraRateLimiter('laravel:api', 119, 120, 60.0);   // short form

        $id = (string) ($request->user()?->getAuthIdentifier() ?? $request->ip());
        try {
            $result = self::$limiter->consume($id);
        } catch (\RateLimiterException $e) {
            report($e);                  // Redis trouble: let the request through, but say so in the logs
            return $next($request);
        }
        $response = $result->allowed
            ? $next($request)
            : response('Too Many Requests', 429);
        foreach ($result->headers() as $name => $value) {
            $response->headers->set($name, (string) $value);
        }
        return $response;
    }
}
