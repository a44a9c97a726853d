<?php
// What `make demo` shows: limiters allowing, then denying, with what a caller
// needs to answer well (remaining, retry-after, headers).
// Run: php -d extension=modules/ratelimit.so -d ratelimit.redis_url=redis://127.0.0.1:6379 examples/demo.php

printf("ratelimit %s, Redis at %s\n\n", phpversion('ratelimit'), ini_get('ratelimit.redis_url'));

// Article style: a connection, a key prefix, a window of 2 seconds, 5 requests per window.
$limiter = new FixedWindowRateLimiter(null, 'demo:login', 2.0, 5);
$limiter->reset('alice');
echo "FixedWindowRateLimiter: 5 requests per 2 s for 'alice'\n";
for ($i = 1; $i <= 7; $i++) {
    $r = $limiter->consume('alice');
    printf("  request %d: %-7s remaining %d  retryAfter %.3f s\n",
        $i, $r->allowed ? 'allowed' : 'DENIED', $r->remaining, $r->retryAfter);
}
echo "  headers of the last answer:\n";
foreach ($r->headers() as $name => $value) {
    echo "    $name: $value\n";
}
printf("  waiting %.2f s for the window to end...\n", $r->retryAfter);
usleep((int) ceil($r->retryAfter * 1e6) + 10000);
printf("  request 8: %s, remaining %d\n\n", $limiter->isAllowed('alice') ? 'allowed' : 'DENIED', $limiter->remaining);

// Short form: the key first, the default connection (ratelimit.redis_url).
$api = new FixedWindowRateLimiter('demo:api:books', 60, 3);
$api->reset();
echo "Short form ('demo:api:books', 60 s, 3): ";
$answers = [];
for ($i = 0; $i < 5; $i++) {
    $answers[] = $api->isAllowed() ? 'yes' : 'no';
}
echo implode(' ', $answers), "\n";

// The other algorithms, same interface.
$sliding = new SlidingWindowRateLimiter(null, 'demo:sliding', 1.0, 3);
$token = new TokenBucketRateLimiter(null, 'demo:token', 3, 0.5);
$gcra = new GcraRateLimiter(null, 'demo:gcra', 2, 3, 1.0);
foreach (['SlidingWindow (3 per 1 s)' => $sliding, 'TokenBucket (3, +0.5/s)' => $token, 'Gcra (burst 3, 3 per s)' => $gcra] as $name => $l) {
    $l->reset('carol');
    $answers = [];
    for ($i = 0; $i < 5; $i++) {
        $answers[] = $l->isAllowed('carol') ? 'yes' : 'no';
    }
    printf("%-26s %s\n", $name . ':', implode(' ', $answers));
    $l->reset('carol');
}
$tom = new GcraRateLimiter(null, 'demo:tom', 14, 30, 60);
$tom->reset('reply');
echo "redis-cell's example, throttle('reply') on (14, 30, 60): [", implode(', ', $tom->throttle('reply')), "]\n";
$tom->reset('reply');

// Redis trouble is an exception unless ratelimit.on_error says otherwise.
ini_set('ratelimit.connect_timeout', '0.2');
$down = new FixedWindowRateLimiter('redis://127.0.0.1:1', 'demo', 60, 10);
try {
    $down->isAllowed('bob');
} catch (RateLimiterException $e) {
    echo "\nUnreachable Redis: RateLimiterException: {$e->getMessage()}\n";
}
ini_set('ratelimit.on_error', 'allow');
printf("With ratelimit.on_error=allow the same call answers: %s\n", $down->isAllowed('bob') ? 'allowed' : 'denied');
ini_set('ratelimit.on_error', 'throw');

foreach (['alice'] as $id) $limiter->reset($id);
$api->reset();
