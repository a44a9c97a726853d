<?php

namespace RateLimit\Laravel;

use Closure;
use Illuminate\Http\Exceptions\HttpResponseException;
use Illuminate\Http\Exceptions\ThrottleRequestsException;
use Illuminate\Routing\Middleware\ThrottleRequests as StockThrottleRequests;
use Symfony\Component\HttpFoundation\Response;

/**
 * Laravel's `throttle` middleware (`throttle:N,M`, `throttle:named`), deciding
 * each request in one atomic call to the extension instead of stock's
 * check-then-hit (which lets concurrent requests through past the limit).
 * Request signatures, named limiters, `Limit::by()` / `response()`, the
 * exception and the headers are Laravel's own; only the counting changed.
 *
 * Bound by RateLimitServiceProvider in place of both ThrottleRequests and
 * ThrottleRequestsWithRedis. When the rate limiter is not the extension's
 * (its cache store is not on Redis), it is stock Laravel.
 */
class ThrottleRequests extends StockThrottleRequests
{
    /** The decision of the current request. */
    private ?\RateLimitResult $decision = null;

    protected function handleRequest($request, Closure $next, array $limits)
    {
        if (!$this->limiter instanceof ExtensionRateLimiter || $limits === []) {
            // Stock Laravel's path; with no limits (a named limiter returning []) it only passes the request on.
            return parent::handleRequest($request, $next, $limits);
        }
        // Laravel 11+ Limit::after($callback): such a limit counts a request only
        // once its response is known and the callback says so. As in stock, it
        // is checked before the request (a peek) and counted after it.
        $now = array_values(array_filter($limits, fn ($l) => empty($l->afterCallback)));
        $after = array_values(array_filter($limits, fn ($l) => !empty($l->afterCallback)));
        foreach ($after as $limit) {
            $this->decision = $this->limiter->window($limit->key, LimitSet::seconds($limit), (int) $limit->maxAttempts)->peek();
            if (!$this->decision->allowed) {
                throw $this->buildException($request, $limit->key, $limit->maxAttempts, $limit->responseCallback);
            }
        }
        $shown = null;
        if ($now !== []) {
            [$shown, $this->decision] = (new LimitSet($this->limiter, $now))->consume();
            if (!$this->decision->allowed) {
                throw $this->buildException($request, $shown->key, $shown->maxAttempts, $shown->responseCallback);
            }
        }
        $response = $next($request);
        foreach ($after as $limit) {
            $result = ($limit->afterCallback)($response)
                ? $this->limiter->consume($limit->key, (int) $limit->maxAttempts, LimitSet::seconds($limit))
                : $this->limiter->window($limit->key, LimitSet::seconds($limit), (int) $limit->maxAttempts)->peek();
            if ($shown === null || $result->remaining < $this->decision->remaining) {
                [$shown, $this->decision] = [$limit, $result];
            }
        }
        return $this->addHeaders($response, $shown->maxAttempts, $this->decision->remaining);
    }

    /** Seconds the denied client should wait: from the decision, no second round trip. */
    protected function getTimeUntilNextRetry($key)
    {
        if ($this->decision === null) {
            return parent::getTimeUntilNextRetry($key);
        }
        return max(1, (int) ceil($this->decision->retryAfter));
    }

    protected function calculateRemainingAttempts($key, $maxAttempts, $retryAfter = null)
    {
        if ($this->decision === null) {
            return parent::calculateRemainingAttempts($key, $maxAttempts, $retryAfter);
        }
        return $retryAfter === null ? $this->decision->remaining : 0;
    }

    /** Laravel's X-RateLimit-* headers, or the IETF fields when ratelimit.headers is 'ietf'. */
    protected function getHeaders($maxAttempts, $remainingAttempts, $retryAfter = null, ?Response $response = null)
    {
        if ($this->decision !== null && $this->limiter instanceof ExtensionRateLimiter && $this->limiter->headerStyle() === 'ietf') {
            return array_map('strval', $this->decision->headers('ietf'));
        }
        return parent::getHeaders($maxAttempts, $remainingAttempts, $retryAfter, $response);
    }
}
