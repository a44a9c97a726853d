<?php
// Issue 52's hot key: 8 processes (pcntl_fork) deciding in a loop on ONE key of a large
// limit, each as fast as it can, leased (withLease(50)) against not leased, in the same
// interleaved rounds: decisions per second of the whole, Redis calls (round trips) per
// decision (counted by the children), Redis commands per decision (INFO commandstats, a
// script's own commands included) and Redis CPU per decision (INFO cpu), by run_throughput().
// Targets on the 2-core host: leased >= 5x the unleased decisions/s, <= 0.1 Redis calls
// per decision at $units = 50.
declare(strict_types=1);

require_once __DIR__ . '/throughput.php';

const HOTKEY_UNITS = 50;

/** name => factory of [limiter, 'isAllowed'], made inside each child; nothing is ever denied. */
function hotkey_cases(): array
{
    $limiters = [
        // Limits no run of the bench can use up.
        'TokenBucket' => fn () => new TokenBucketRateLimiter(bench_dsn('tcp'), 'bench:hot:tb', 10_000_000_000, 1_000_000.0),
        'Gcra' => fn () => new GcraRateLimiter(bench_dsn('tcp'), 'bench:hot:gcra', 100_000_000, 1_000_000, 1.0),
        'FixedWindow' => fn () => new FixedWindowRateLimiter(bench_dsn('tcp'), 'bench:hot:fw', 600.0, 10_000_000_000),
    ];
    $cases = [];
    // The children count the answers Redis gave (round trips) with ratelimit.metrics = local, in both.
    foreach ($limiters as $algo => $make) {
        $cases["$algo, not leased"] = function () use ($make) {
            ini_set('ratelimit.metrics', 'local');
            return [$make(), 'isAllowed'];
        };
        $cases["$algo, withLease(" . HOTKEY_UNITS . ')'] = function () use ($make) {
            ini_set('ratelimit.metrics', 'local');
            return [$make()->withLease(HOTKEY_UNITS, 1.0), 'isAllowed'];
        };
    }
    return $cases;
}

/** Per algorithm: leased ÷ not leased decisions/s (each round's own ratio, median and range),
 *  and the leased case's Redis calls per decision. */
function hotkey_targets(array $runs): array
{
    $rows = [];
    foreach (['TokenBucket', 'Gcra', 'FixedWindow'] as $algo) {
        $plain = $runs["$algo, not leased"] ?? null;
        $leased = $runs["$algo, withLease(" . HOTKEY_UNITS . ')'] ?? null;
        if ($plain === null || $leased === null) continue;
        $rows[$algo] = ['dps' => round_ratios($leased, $plain, 'dps'), 'trips' => median(array_column($leased, 'trips')),
            'calls' => median(array_column($leased, 'calls'))];
    }
    return $rows;
}
