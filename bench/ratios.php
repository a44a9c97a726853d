<?php
// Issue 10's ratios, each a pair of ways to make the same decisions, timed in the
// same rounds (order reversed every other round, Redis flushed before each timing,
// median of rounds):
//   block cache   a blocked id answered from process memory vs the same denial by a round trip;
//   consumeMany   100 ids in one call vs 100 consume() calls;
//   compound      a CompoundRateLimiter of 3 limiters vs 1 limiter, and vs the 3 called one by one.
declare(strict_types=1);

const BATCH = 100;
// The floor of a bucket's batch, by phpredis: what any exact bucket on the server's clock
// must do for 100 ids, with no arithmetic and no answer per id. Not a limiter.
const FLOOR_BATCH = 'floor: TIME, one MGET, SET PX per id (phpredis evalSha)';
const FLOOR_BATCH_LUA = <<<'LUA'
local t = redis.call('TIME')
redis.call('MGET', unpack(KEYS))
for k = 1, #KEYS do redis.call('SET', KEYS[k], t[2], 'PX', '60000') end
return 1
LUA;

/** µs per decision of $run($n), which makes $n decisions. */
function time_decisions(callable $run, int $n): float
{
    $t = hrtime(true);
    $run($n);
    return (hrtime(true) - $t) / 1e3 / $n;
}

/** label => fn(int $n) making $n decisions, for every pair of issue 10 and every algorithm. */
function ratio_runs(array $ids): array
{
    $k = count($ids);
    $dsn = bench_dsn('tcp');
    $runs = [];
    // one limit per minute on one id: after the first call every call is a denial
    $blocked = new SlidingWindowRateLimiter($dsn, 'r:blocked', 60, 1);
    $deny = function (string $cache) use ($blocked) {
        return function (int $n) use ($blocked, $cache) {
            ini_set('ratelimit.block_cache', $cache);
            $blocked->isAllowed('abuser');           // accepted after the flush, or already denied
            for ($i = 0; $i < $n; $i++) $blocked->isAllowed('abuser');
            ini_set('ratelimit.block_cache', '0');
        };
    };
    $runs['block cache']['SlidingWindow log'] = ['denial by a round trip' => $deny('0'), 'denial from the block cache' => $deny('1')];
    // Each algorithm by the Lua library (the bench's default), then by the server module.
    foreach (['' => [], 'module: ' => MODULE_INI] as $path => $ini) {
        $single = extension_limiters($dsn, "{$path}r1");
        $members = [$single, extension_limiters($dsn, "{$path}r2"), extension_limiters($dsn, "{$path}r3")];
        // A way of making decisions, with the path's ini in force while it runs.
        $on = fn (callable $run) => fn (int $n) => with_ini($ini, fn () => $run($n));
        foreach ($single as $algo => $limiter) {
            $runs['consumeMany'][$path . $algo] = [
                '100 × consume()' => $on(function (int $n) use ($limiter, $ids, $k) {
                    for ($i = 0; $i < $n; $i++) $limiter->consume($ids[$i % $k]);
                }),
                'consumeMany(100 ids)' => $on(function (int $n) use ($limiter, $ids) {
                    for ($i = 0; $i < $n; $i += BATCH) $limiter->consumeMany(array_slice($ids, $i % count($ids), BATCH));
                }),
            ];
            $three = array_column($members, $algo);
            $compound = new CompoundRateLimiter($three);
            $runs['compound'][$path . $algo] = [
                '1 limiter' => $on(function (int $n) use ($limiter, $ids, $k) {
                    for ($i = 0; $i < $n; $i++) $limiter->consume($ids[$i % $k]);
                }),
                '3 limiters one by one' => $on(function (int $n) use ($three, $ids, $k) {
                    for ($i = 0; $i < $n; $i++) foreach ($three as $l) $l->consume($ids[$i % $k]);
                }),
                'CompoundRateLimiter of 3' => $on(function (int $n) use ($compound, $ids, $k) {
                    for ($i = 0; $i < $n; $i++) $compound->consume($ids[$i % $k]);
                }),
            ];
        }
    }
    // Its single calls are the floor row of the one-process table (TIME + GET + SET PX).
    $r = bench_redis('tcp');
    $one = $r->script('load', FLOOR_CLOCK_READ_WRITE_LUA);
    $batch = $r->script('load', FLOOR_BATCH_LUA);
    $keys = array_map(fn ($id) => "floor:$id", $ids);
    $runs['consumeMany'][FLOOR_BATCH] = [
        '100 × consume()' => function (int $n) use ($r, $one, $keys, $k) {
            for ($i = 0; $i < $n; $i++) $r->evalSha($one, [$keys[$i % $k]], 1);
        },
        'consumeMany(100 ids)' => function (int $n) use ($r, $batch, $keys) {
            for ($i = 0; $i < $n; $i += BATCH) $r->evalSha($batch, array_slice($keys, $i % count($keys), BATCH), BATCH);
        },
    ];
    return $runs;
}

/** The timing of one way is split into this many chunks, alternating with the other way(s) of its row. */
const RATIO_CHUNKS = 10;

/**
 * [kind][algo][label] => µs per decision, one per round. A round flushes Redis
 * once per (kind, algorithm), then times that row's ways in RATIO_CHUNKS
 * alternating chunks (order reversed every other chunk), so both sides of a
 * ratio are timed within the same fraction of a second: on a VM whose speed
 * drifts by tens of percent over seconds, a ratio of two timings taken apart
 * measures the drift as much as the two ways.
 */
function measure_ratios(array $ids, int $n, int $rounds, Redis $ctl): array
{
    $runs = ratio_runs($ids);
    $chunk = max(BATCH, intdiv($n, RATIO_CHUNKS * BATCH) * BATCH);   // whole batches
    $samples = [];
    for ($round = 0; $round < $rounds; $round++) {
        log_line(sprintf('issue 10 ratios, round %d/%d', $round + 1, $rounds));
        foreach ($runs as $kind => $byAlgo) foreach ($byAlgo as $algo => $byLabel) {
            $ctl->flushAll();
            $spent = array_fill_keys(array_keys($byLabel), 0.0);
            for ($c = 0; $c < RATIO_CHUNKS; $c++) {
                $labels = ($round + $c) % 2 ? array_reverse(array_keys($byLabel)) : array_keys($byLabel);
                foreach ($labels as $label) $spent[$label] += time_decisions($byLabel[$label], $chunk);
            }
            foreach ($spent as $label => $us) $samples[$kind][$algo][$label][] = $us / RATIO_CHUNKS;
        }
    }
    return $samples;
}

/**
 * The targets of issue 10 as rows: what, algorithm, median µs of the slower and
 * the faster way, the ratio (the median over rounds of each round's ratio) and
 * the range of the rounds' ratios, target, met.
 */
function ratio_rows(array $m): array
{
    $rows = [];
    $row = function (string $what, string $algo, array $slow, array $fast, string $op, float $target) use (&$rows) {
        $each = array_map(fn ($a, $b) => $a / $b, $slow, $fast);
        $ratio = median($each);
        $low = min($each);
        $high = max($each);
        $num = median($slow);
        $den = median($fast);
        $met = match ($op) { '>=' => $ratio >= $target, '<=' => $ratio <= $target, 'floor' => null };
        $rows[] = compact('what', 'algo', 'num', 'den', 'ratio', 'low', 'high', 'op', 'target', 'met');
    };
    foreach ($m['block cache'] ?? [] as $algo => $t) {
        $row('blocked id: round trip ÷ block cache', $algo, $t['denial by a round trip'], $t['denial from the block cache'], '>=', 20);
    }
    // The server module's targets (issue 21) are stricter than the Lua library's (issue 10).
    foreach ($m['consumeMany'] ?? [] as $algo => $t) {
        $module = str_starts_with($algo, 'module: ');
        $row('100 × consume() ÷ consumeMany(100 ids)', $algo, $t['100 × consume()'], $t['consumeMany(100 ids)'], $algo === FLOOR_BATCH ? 'floor' : '>=', $module ? 20 : 10);
    }
    foreach ($m['compound'] ?? [] as $algo => $t) {
        $module = str_starts_with($algo, 'module: ');
        $row('compound of 3 ÷ 1 limiter', $algo, $t['CompoundRateLimiter of 3'], $t['1 limiter'], '<=', $module ? 1.10 : 1.25);
        $row('3 calls one by one ÷ compound of 3', $algo, $t['3 limiters one by one'], $t['CompoundRateLimiter of 3'], '>=', 2.4);
    }
    return $rows;
}
