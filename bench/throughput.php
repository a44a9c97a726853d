<?php
// Throughput at scale: ONE redis-server driven by 8 PHP processes (pcntl_fork) at
// once, each making decisions as fast as it can over its own 1,000 ids. Reports
// decisions per second of the whole (from the common start to the last process's
// end) and Redis CPU per decision (INFO cpu used_cpu_sys+used_cpu_user delta),
// which is what caps a real deployment once PHP scales out. One run of a case
// moves by a quarter from one run to the next (2 cores shared by 8 processes and
// Redis), so run.php takes interleaved rounds and throughput_row() their medians.
declare(strict_types=1);

require_once __DIR__ . '/rounds.php';

/** name => factory of fn(string $id): bool, made inside each child (connections are per process). */
function throughput_cases(): array
{
    $cases = [];
    // Every algorithm by the Lua library (the bench's default), then by the server module
    // (its ini set in the child, where the calls are made).
    foreach (array_keys(extension_limiters(null)) as $algo) {
        $cases["extension $algo"] = fn () => [extension_limiters(bench_dsn('tcp'))[$algo], 'isAllowed'];
    }
    foreach (array_keys(extension_limiters(null)) as $algo) {
        $cases["module: $algo"] = function () use ($algo) {
            foreach (MODULE_INI as $k => $v) ini_set($k, $v);
            return [extension_limiters(bench_dsn('tcp'), 'm')[$algo], 'isAllowed'];
        };
    }
    return $cases + [
        'userland fixed window (pipeline)' => fn () => userland_fixed_window(bench_redis(), BENCH_LIMIT, BENCH_WINDOW),
        'userland sliding log (evalSha)' => fn () => userland_sliding_log(bench_redis(), BENCH_LIMIT, BENCH_WINDOW),
        'userland token bucket (evalSha)' => fn () => userland_token_bucket(bench_redis(), BENCH_LIMIT, 1000.0),
        'Symfony token bucket, no lock' => fn () => symfony_limiter(['policy' => 'token_bucket', 'limit' => BENCH_LIMIT, 'rate' => ['interval' => '1 second', 'amount' => 1000]], false),
        'Laravel RateLimiter::attempt' => fn () => laravel_rate_limiter(BENCH_LIMIT, BENCH_WINDOW),
    ];
}

function redis_cpu_seconds(Redis $ctl): float
{
    $cpu = $ctl->info('cpu');
    return (float) $cpu['used_cpu_sys'] + (float) $cpu['used_cpu_user'];
}

/** Every command Redis has run (INFO commandstats calls), INFO itself left out. */
function redis_calls(Redis $ctl): int
{
    $calls = 0;
    foreach ($ctl->info('commandstats') as $name => $stat) {
        if ($name === 'cmdstat_info') continue;
        if (preg_match('/calls=(\d+)/', is_array($stat) ? 'calls=' . ($stat['calls'] ?? 0) : (string) $stat, $m)) $calls += (int) $m[1];
    }
    return $calls;
}

/** One case: $procs children × $n decisions each, over their own 1,000 ids, or all on the one
 *  id $hot; [decisions_per_s, redis_cpu_us, redis commands per decision (INFO commandstats:
 *  a script's own commands included), round trips per decision (counted by the children when
 *  ratelimit.metrics is local: the answers not from a lease; else null), wall_s]. */
function run_throughput(callable $make, int $procs, int $n, Redis $ctl, ?string $hot = null): array
{
    $ctl->flushAll();
    $pipes = [];
    for ($p = 0; $p < $procs; $p++) {
        [$parentEnd, $childEnd] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        if ($pid === -1) throw new RuntimeException('fork failed');
        if ($pid === 0) {
            fclose($parentEnd);
            $code = 0;
            try {
                $call = $make();
                $ids = [];
                for ($i = 0; $i < 1000; $i++) $ids[] = $hot ?? "p$p:$i";
                $call($ids[0]);                    // connect and load scripts before the start
                fwrite($childEnd, "ready\n");
                if (fgets($childEnd) !== "go\n") throw new RuntimeException('no start signal');
                for ($i = 0; $i < $n; $i++) $call($ids[$i % 1000]);
                // With ratelimit.metrics on (the hot-key cases), the answers Redis gave: a
                // round trip each (a lease's own answers are none).
                $trips = ini_get('ratelimit.metrics') === 'local'
                    ? array_sum(array_map(fn ($by) => array_sum($by) - ($by['lease'] ?? 0), RateLimitMetrics::sources())) : null;
                fwrite($childEnd, json_encode(['end' => microtime(true), 'trips' => $trips]) . "\n");
            } catch (Throwable $e) {
                fwrite(STDERR, "throughput child: {$e->getMessage()}\n");
                $code = 1;
            }
            fclose($childEnd);
            child_exit($code);
        }
        fclose($childEnd);
        $pipes[$pid] = $parentEnd;
    }
    // Barrier: every process is connected and warmed up before any starts.
    foreach ($pipes as $pipe) {
        if (fgets($pipe) !== "ready\n") throw new RuntimeException('a throughput process failed before the start');
    }
    $cpu0 = redis_cpu_seconds($ctl);
    $calls0 = redis_calls($ctl);
    $start = microtime(true);
    foreach ($pipes as $pipe) fwrite($pipe, "go\n");
    $ends = [];
    $trips = 0;
    foreach ($pipes as $pid => $pipe) {
        $r = json_decode((string) fgets($pipe), true);
        fclose($pipe);
        pcntl_waitpid($pid, $status);
        if (!is_array($r) || !pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
            throw new RuntimeException("a throughput process failed (status $status)");
        }
        $ends[] = $r['end'];
        $trips = $r['trips'] === null || $trips === null ? null : $trips + $r['trips'];
    }
    $decisions = $procs * $n;
    $cpu = redis_cpu_seconds($ctl) - $cpu0;
    $calls = redis_calls($ctl) - $calls0;
    $wall = max($ends) - $start;
    return ['dps' => $decisions / $wall, 'redis_cpu_us' => $cpu * 1e6 / $decisions, 'calls' => $calls / $decisions,
        'trips' => $trips === null ? null : $trips / $decisions, 'wall' => $wall, 'decisions' => $decisions];
}

/** One table row from the rounds of run_throughput(): medians, with the range of both figures. */
function throughput_row(array $rs): array
{
    $row = ['rounds' => count($rs)];
    foreach (['dps', 'redis_cpu_us', 'wall'] as $k) $row[$k] = median(array_column($rs, $k));
    // Commands and round trips per decision: where every round has them.
    foreach (['calls', 'trips'] as $k) {
        $v = array_column($rs, $k);
        $row[$k] = count($v) === count($rs) ? median($v) : null;
    }
    foreach (['dps', 'redis_cpu_us'] as $k) {
        $row["{$k}_min"] = min(array_column($rs, $k));
        $row["{$k}_max"] = max(array_column($rs, $k));
    }
    return $row;
}

/** The module's rows against issue 21's 8-process targets, each a median of the rounds' own
 *  ratios (both sides of a ratio ran in the same round): decisions/s ÷ the userland
 *  equivalent's (target >= 1), Redis CPU ÷ the fixed window's (one library call since lock-out) (target <= 1.1). */
function throughput_targets(array $runs): array
{
    // The userland code each algorithm replaces: the blocks approximate the same sliding
    // window as the log; a leaky bucket and GCRA are the buckets people hand-write.
    $userland = [
        'FixedWindow' => 'userland fixed window (pipeline)',
        'SlidingWindow log' => 'userland sliding log (evalSha)',
        'SlidingWindow blocks=10' => 'userland sliding log (evalSha)',
        'TokenBucket' => 'userland token bucket (evalSha)',
        'LeakyBucket' => 'userland token bucket (evalSha)',
        'Gcra' => 'userland token bucket (evalSha)',
    ];
    $fixed = $runs['extension FixedWindow'] ?? null;
    if ($fixed === null) return [];
    $rows = [];
    foreach ($userland as $algo => $peer) {
        $mine = $runs["module: $algo"] ?? null;
        if ($mine === null || !isset($runs[$peer])) continue;
        $rows[$algo] = ['peer' => $peer, 'dps' => round_ratios($mine, $runs[$peer], 'dps'), 'cpu' => round_ratios($mine, $fixed, 'redis_cpu_us')];
    }
    return $rows;
}

/** A child leaves without PHP's shutdown: objects copied from the parent (its control
 *  connection) must not be closed or QUIT from here. exec replaces the process at once. */
function child_exit(int $code): never
{
    pcntl_exec($code === 0 ? '/bin/true' : '/bin/false');
    exit($code);   // only when exec itself failed
}
