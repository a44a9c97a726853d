<?php
// The runs behind docs/plots/*.png and the memory table of docs/: real
// limiters against a real redis-server (scripts/plots.bash starts one and
// passes it as ratelimit.redis_url; phpredis reads MEMORY USAGE).
//
//   php scripts/plots.php <out dir>
//
// Load: one client id offered OFFERED requests per second, evenly spaced, for
// SECONDS seconds, against policies that all mean "10 per second". Writes
// <out dir>/<name>.dat, one line per request: seconds since the start, 1 if
// accepted else 0, accepted so far, and for an accepted request the second at
// which it leaves the queue (call + delay; leaky bucket) and how many have
// left by then ("?" when denied); and <out dir>/<name>.bins: accepted per
// 100 ms. Counted here, not by gnuplot's smoothing, which mis-bins floats at
// bin edges. Then prints the memory table (markdown).
// Times are the client's clock around the calls; the decisions use Redis'.

const OFFERED = 40;
const SECONDS = 5.0;

[, $out] = $argv + [1 => null];
if ($out === null || !is_dir($out)) {
    fwrite(STDERR, "usage: php scripts/plots.php <existing out dir>\n");
    exit(2);
}

// Each "10 per second", in its own algorithm's words.
$policies = [
    'fixed_window' => fn () => new FixedWindowRateLimiter(null, 'plot:fixed', 1.0, 10),
    'sliding_window_log' => fn () => new SlidingWindowRateLimiter(null, 'plot:log', 1.0, 10),
    'sliding_window_blocks' => fn () => new SlidingWindowRateLimiter(null, 'plot:blocks', 1.0, 10, 10),
    'token_bucket' => fn () => new TokenBucketRateLimiter(null, 'plot:token', 10, 10.0),
    'leaky_bucket' => fn () => new LeakyBucketRateLimiter(null, 'plot:leaky', 10, 10.0),
    'gcra' => fn () => new GcraRateLimiter(null, 'plot:gcra', 9, 10, 1.0),
];

foreach ($policies as $name => $make) {
    $limiter = $make();
    $limiter->reset('user42');
    $lines = [];
    $bins = [];
    $accepted = 0;
    $n = (int) (OFFERED * SECONDS);
    $start = microtime(true);
    for ($i = 0; $i < $n; $i++) {
        // On schedule even when a call was slow: sleep to the i-th slot, never a
        // fixed pause. A request already late goes at once, so a stall of this
        // (shared, busy) machine shows in a plot as a short burst after a gap.
        $wait = $start + $i / OFFERED - microtime(true);
        if ($wait > 0) {
            usleep((int) ($wait * 1e6));
        }
        $t = microtime(true) - $start;
        $r = $limiter->consume('user42');
        if ($r->allowed) {
            $accepted++;
            $bins[(int) floor($t * 10)] = ($bins[(int) floor($t * 10)] ?? 0) + 1;
        }
        // Requests leave a queue in the order they were accepted: the n-th
        // accepted is the n-th to leave.
        $lines[] = sprintf("%.4f %d %d %s\n", $t, $r->allowed ? 1 : 0, $accepted,
            $r->allowed ? sprintf('%.4f %d', $t + $r->delay, $accepted) : '? ?');
    }
    file_put_contents("$out/$name.dat", implode('', $lines));
    $binLines = '';
    for ($b = 0; $b < SECONDS * 10; $b++) {
        $binLines .= sprintf("%.2f %d\n", $b / 10 + 0.05, $bins[$b] ?? 0);
    }
    file_put_contents("$out/$name.bins", $binLines);
    printf("%-22s %d offered in %.2f s, %d accepted\n", $name, $n, microtime(true) - $start, $accepted);
}

// Memory per key, as Redis counts it (MEMORY USAGE, key name included).
// Key names are the same length for all, "m:<8 chars>:user42".
$redis = new Redis();
$url = parse_url(ini_get('ratelimit.redis_url'));
$redis->connect($url['host'], $url['port']);
$usage = fn (string $key) => (int) $redis->rawCommand('MEMORY', 'USAGE', $key, 'SAMPLES', '0');
$cases = [
    ['fixed window (any limit)', 'm:fixedwin', fn ($k) => new FixedWindowRateLimiter(null, $k, 60.0, 1000), [1, 1000]],
    ['sliding window log, limit 10', 'm:slidlog1', fn ($k) => new SlidingWindowRateLimiter(null, $k, 60.0, 10), [10]],
    ['sliding window log, limit 100', 'm:slidlog2', fn ($k) => new SlidingWindowRateLimiter(null, $k, 60.0, 100), [100]],
    ['sliding window log, limit 1000', 'm:slidlog3', fn ($k) => new SlidingWindowRateLimiter(null, $k, 60.0, 1000), [1000]],
    ['sliding window blocks (10 slices), 1 slice used', 'm:slidblk1', fn ($k) => new SlidingWindowRateLimiter(null, $k, 60.0, 1000, 10), [1, 1000]],
    ['token bucket (any capacity)', 'm:tokenbkt', fn ($k) => new TokenBucketRateLimiter(null, $k, 1000, 1.0), [1, 1000]],
    ['leaky bucket (any capacity)', 'm:leakybkt', fn ($k) => new LeakyBucketRateLimiter(null, $k, 1000, 1.0), [1, 1000]],
    ['GCRA (any burst)', 'm:gcra0000', fn ($k) => new GcraRateLimiter(null, $k, 999, 1000, 60.0), [1, 1000]],
];
echo "\n| algorithm | accepted requests in the key | MEMORY USAGE (bytes) |\n|---|---|---|\n";
foreach ($cases as [$what, $prefix, $make, $counts]) {
    foreach ($counts as $calls) {
        $l = $make($prefix);
        $l->reset('user42');
        for ($i = 0; $i < $calls; $i++) {
            $l->consume('user42');
        }
        printf("| %s | %d | %d |\n", $what, $calls, $usage("$prefix:user42"));
        $l->reset('user42');
    }
}

// Sliding window blocks over time: the hash never holds more than blocks + 2
// slices, however many requests; here 10 slices of 0.1 s, 20 per slice for 3 s.
$l = new SlidingWindowRateLimiter(null, 'm:slidblk2', 1.0, 1000, 10);
$l->reset('user42');
$most = 0;
$start = microtime(true);
for ($i = 0; microtime(true) - $start < 3.0; $i++) {
    $l->consume('user42');
    $most = max($most, $usage('m:slidblk2:user42'));
    usleep(5000);
}
printf("| sliding window blocks (10 slices), every slice used | %d over 3 s | at most %d |\n", $i, $most);
$l->reset('user42');
