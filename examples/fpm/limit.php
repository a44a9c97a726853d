<?php
// A rate-limited endpoint behind PHP-FPM: 100 requests per hour per client.
//
// The client is named by an X-Client-Id header (an API key in a real app; the
// address when there is none). The answer carries the limiter's headers:
// 200 when allowed, 429 with Retry-After when not, and 503 when Redis cannot
// decide (ratelimit.on_error=throw, the default): failing closed with a clear
// status is kinder to the client than a 500 and safer than letting all through.
//
// The limiter needs nothing per request beyond `new`: the extension keeps one
// pooled Redis connection per FPM worker and reuses it across requests, so a
// request costs one FCALL round trip. Configure the server in php.ini:
//   extension=ratelimit
//   ratelimit.redis_url=redis://127.0.0.1:6379
// scripts/fpm-load.bash serves this file through nginx and php-fpm under load.

$client = (string) ($_SERVER['HTTP_X_CLIENT_ID'] ?? $_SERVER['REMOTE_ADDR'] ?? '');

try {
    // Key "fpm:<client>", a window of 3600 s opened by the client's first request.
    $limiter = new FixedWindowRateLimiter(null, 'fpm', 3600, 100);
    $result = $limiter->consume($client);
} catch (RateLimiterException $e) {
    http_response_code(503);
    header('Retry-After: 1');
    header('Content-Type: text/plain');
    echo "rate limiter unavailable\n";
    return;
}

foreach ($result->headers() as $name => $value) {
    header("$name: $value");
}
header('Content-Type: text/plain');
if (!$result->allowed) {
    http_response_code(429);
    echo "too many requests, retry in {$result->retryAfter} s\n";
    return;
}
echo "hello $client, {$result->remaining} requests left this hour\n";
