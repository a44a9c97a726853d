<?php
// What the single-process table compares: each case is one way of making one
// rate-limit decision, as a closure fn(string $id): bool made fresh for the case.
//   system     the bar colour/group in the report (floor, extension, userland, symfony, laravel)
//   transport  tcp or unix (the socket of the same redis-server)
//   slow       peers an order of magnitude slower: a quarter of the attempts, skipped by BENCH_QUICK
//   top        plain commands a script-using case sends next to its EVAL/EVALSHA; the other
//              commands in its commandstats ran inside scripts (their time is inside EVAL's)
declare(strict_types=1);

require_once __DIR__ . '/userland.php';
require_once __DIR__ . '/frameworks.php';

const BENCH_LIMIT = 1000000;   // never reached: every call is accepted and does the full work
const BENCH_WINDOW = 60;
const FLOOR_CLOCK_READ_WRITE = "phpredis evalSha TIME+GET+SET PX (tcp)";
const FLOOR_CLOCK_READ_WRITE_LUA = <<<'LUA'
local t = redis.call('TIME')
redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], t[2], 'PX', '60000')
return 1
LUA;

/** The extension's limiters, one per algorithm (and the sliding window's block mode), on $conn. */
function extension_limiters($conn, string $prefix = 'x'): array
{
    return [
        'FixedWindow' => new FixedWindowRateLimiter($conn, "$prefix:fw", BENCH_WINDOW, BENCH_LIMIT),
        'SlidingWindow log' => new SlidingWindowRateLimiter($conn, "$prefix:sw", BENCH_WINDOW, BENCH_LIMIT),
        'SlidingWindow blocks=10' => new SlidingWindowRateLimiter($conn, "$prefix:swb", BENCH_WINDOW, BENCH_LIMIT, 10),
        'TokenBucket' => new TokenBucketRateLimiter($conn, "$prefix:tb", BENCH_LIMIT, 1000),
        'LeakyBucket' => new LeakyBucketRateLimiter($conn, "$prefix:lb", BENCH_LIMIT, 1000),
        'Gcra' => new GcraRateLimiter($conn, "$prefix:gcra", BENCH_LIMIT - 1, BENCH_LIMIT, BENCH_WINDOW),
    ];
}

/** The ini a case of the server module's path runs under (the bench's default is server_module=off: the Lua library). */
const MODULE_INI = ['ratelimit.server_module' => 'auto'];

/** The ini of the "metrics" cases: each decision also counts itself in Redis, in its own call. */
const METRICS_INI = ['ratelimit.metrics' => 'redis'];

/**
 * The "give back" rows (system giveback: report.php's section of their own, not in the main
 * table or the plot): refund() and reserve() against the consume() of the same limiter, on
 * both paths. A refund row alternates, per id, a consume() and a refund() of it, so every
 * refund gives back a unit really taken (on a flushed server, a refund alone would find
 * nothing to give back and write nothing); a reserve row books a unit that is there (the
 * bucket is never empty), the booking's whole work with no wait.
 */
function give_back_cases(callable $add): void
{
    foreach (['TokenBucket', 'Gcra', 'FixedWindow'] as $algo) {
        foreach (['' => [], 'module ' => MODULE_INI] as $path => $ini) {
            $add("{$path}refund: $algo (tcp)", 'giveback', 'tcp', function () use ($algo, $path) {
                $limiter = extension_limiters(bench_dsn('tcp'), "g$path")[$algo];
                $taken = [];
                return static function (string $id) use ($limiter, &$taken): bool {
                    $taken[$id] = !($taken[$id] ?? false);
                    return $taken[$id] ? $limiter->consume($id)->allowed : $limiter->refund($id)->allowed;
                };
            }, ini: $ini);
            if ($algo !== 'FixedWindow') {
                $add("{$path}reserve: $algo (tcp)", 'giveback', 'tcp', function () use ($algo, $path) {
                    $limiter = extension_limiters(bench_dsn('tcp'), "r$path")[$algo];
                    return static fn (string $id): bool => $limiter->reserve($id)->allowed;
                }, ini: $ini);
            }
        }
    }
}

/** name => [system, transport, slow, top, ini, factory]; `ini` is set around the case's calls. */
function bench_cases(): array
{
    $cases = [];
    $add = function (string $name, string $system, string $transport, callable $make, bool $slow = false, array $top = [], array $ini = []) use (&$cases) {
        $cases[$name] = compact('system', 'transport', 'slow', 'top', 'ini') + ['make' => $make];
    };
    foreach (['tcp', 'unix'] as $t) {
        $add("PING ($t)", 'floor', $t, function () use ($t) {
            $r = bench_redis($t);
            return static fn (string $id): bool => $r->ping() !== false;
        });
        $add("phpredis evalSha 'return 1' ($t)", 'floor', $t, function () use ($t) {
            $r = bench_redis($t);
            $sha = $r->script('load', 'return 1');
            return static fn (string $id): bool => $r->evalSha($sha, [$id], 1) === 1;
        });
        if ($t === 'tcp') {
            // The least any exact bucket on the server's clock must do in Lua: read the
            // clock, read the state, write it back with an expiry. Not a limiter.
            $add(FLOOR_CLOCK_READ_WRITE, 'floor', $t, function () use ($t) {
                $r = bench_redis($t);
                $sha = $r->script('load', FLOOR_CLOCK_READ_WRITE_LUA);
                return static fn (string $id): bool => $r->evalSha($sha, ["floor:$id"], 1) === 1;
            });
        }
        foreach (array_keys(extension_limiters(null)) as $algo) {
            $add("$algo ($t)", 'extension', $t, function () use ($t, $algo) {
                $limiter = extension_limiters(bench_dsn($t))[$algo];
                return static fn (string $id): bool => $limiter->isAllowed($id);
            });
            // The same limiter where the server module decides (the bench's server loaded it).
            $add("module: $algo ($t)", 'module', $t, function () use ($t, $algo) {
                $limiter = extension_limiters(bench_dsn($t), 'm')[$algo];
                return static fn (string $id): bool => $limiter->isAllowed($id);
            }, ini: MODULE_INI);
            if ($t === 'tcp') {
                // The same two paths with ratelimit.metrics = redis: what counting costs
                // (report.php's "Decision metrics" section; not in the main table or the plot).
                $add("metrics: $algo ($t)", 'metrics', $t, function () use ($t, $algo) {
                    $limiter = extension_limiters(bench_dsn($t), 'c')[$algo];
                    return static fn (string $id): bool => $limiter->isAllowed($id);
                }, ini: METRICS_INI);
                $add("module metrics: $algo ($t)", 'metrics', $t, function () use ($t, $algo) {
                    $limiter = extension_limiters(bench_dsn($t), 'mc')[$algo];
                    return static fn (string $id): bool => $limiter->isAllowed($id);
                }, ini: MODULE_INI + METRICS_INI);
            }
        }
    }
    give_back_cases($add);
    $add('userland fixed window: pipeline INCR+EXPIRE NX', 'userland', 'tcp',
        fn () => userland_fixed_window(bench_redis(), BENCH_LIMIT, BENCH_WINDOW));
    $add('userland sliding log: evalSha zset, unique members', 'userland', 'tcp',
        fn () => userland_sliding_log(bench_redis(), BENCH_LIMIT, BENCH_WINDOW));
    $add('userland token bucket: evalSha HMGET/HSET', 'userland', 'tcp',
        fn () => userland_token_bucket(bench_redis(), BENCH_LIMIT, 1000.0));
    $windows = [
        'fixed' => ['policy' => 'fixed_window', 'limit' => BENCH_LIMIT, 'interval' => BENCH_WINDOW . ' seconds'],
        'sliding' => ['policy' => 'sliding_window', 'limit' => BENCH_LIMIT, 'interval' => BENCH_WINDOW . ' seconds'],
        'token' => ['policy' => 'token_bucket', 'limit' => BENCH_LIMIT, 'rate' => ['interval' => '1 second', 'amount' => 1000]],
    ];
    foreach ($windows as $kind => $policy) {
        $add("Symfony $kind, no lock", 'symfony', 'tcp', fn () => symfony_limiter($policy, false), true);
        $add("Symfony $kind + Lock", 'symfony', 'tcp', fn () => symfony_limiter($policy, true), true, ['mget', 'setex']);
    }
    $add('Laravel RateLimiter::attempt', 'laravel', 'tcp',
        fn () => laravel_rate_limiter(BENCH_LIMIT, BENCH_WINDOW), true, ['get', 'incrby']);
    $add('Laravel DurationLimiter::acquire', 'laravel', 'tcp',
        fn () => laravel_duration_limiter(BENCH_LIMIT, BENCH_WINDOW));
    return $cases;
}
