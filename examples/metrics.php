<?php
// GET /metrics.php: the rate-limit decisions of the whole php-fpm fleet, for
// Prometheus to scrape.
//
// Every worker of every server counts its decisions in Redis inside each
// decision's own call (php.ini: ratelimit.metrics = redis), per limiter and per
// minute; any worker answers this endpoint with the fleet's exact totals over
// the last 5 minutes (RateLimitMetrics::fleet(), one round trip). They are the
// last minutes' counts, so Prometheus sees gauges:
//   ratelimit_recent_decisions{limiter="api",outcome="allowed|denied|would_deny|error",minutes="5"}
//   ratelimit_recent_on_error_answers{limiter="api",minutes="5"}
//   ratelimit_recent_block_cache_answers{limiter="api",minutes="5"}
// Graph them as they are (requests per 5 minutes), or / 300 for per second.
// A single long-lived process (a worker, FrankenPHP, a CLI daemon) can expose
// its own ever-growing counters instead: RateLimitMetrics::prometheus(RateLimitMetrics::local()).
//
// Keep the endpoint off the public internet (an nginx `allow`/`deny`, or a
// port of its own): limiter names are your key prefixes.

const MINUTES = 5;

try {
    $text = RateLimitMetrics::prometheus(RateLimitMetrics::fleet(null, MINUTES), MINUTES);
} catch (RateLimiterException $e) {
    // Redis cannot be read: say so, and let Prometheus mark the target down.
    http_response_code(503);
    header('Content-Type: text/plain; charset=utf-8');
    echo "# rate-limit counters unavailable: {$e->getMessage()}\n";
    return;
}
header('Content-Type: text/plain; version=0.0.4; charset=utf-8');
echo $text;
