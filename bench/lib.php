<?php
// Shared by every bench/*.php file: the run's settings (from the environment that
// scripts/bench.bash sets), connections to the harness's own redis-server, and
// small statistics helpers. Nothing here times anything.
declare(strict_types=1);

error_reporting(E_ALL);
ini_set('display_errors', 'stderr');

/** Settings of this run; BENCH_QUICK=1 is a tiny run that only checks the harness works. */
function bench_config(): array
{
    static $c = null;
    if ($c !== null) return $c;
    $quick = getenv('BENCH_QUICK') === '1';
    $c = [
        'quick' => $quick,
        'attempts' => (int) (getenv('BENCH_ATTEMPTS') ?: ($quick ? 2000 : 20000)),
        'rounds' => (int) (getenv('BENCH_ROUNDS') ?: ($quick ? 1 : 5)),
        // 8-process rounds take about 35 s each (Laravel's and Symfony's alone 11 s).
        'throughput_rounds' => (int) (getenv('BENCH_THROUGHPUT_ROUNDS') ?: ($quick ? 1 : 3)),
        'keys' => 1000,
        'port' => (int) getenv('BENCH_REDIS_PORT'),
        'socket' => (string) getenv('BENCH_REDIS_SOCKET'),
        'procs' => 8,
    ];
    if ($c['port'] <= 0 || $c['socket'] === '') {
        fwrite(STDERR, "bench: run me through scripts/bench.bash (BENCH_REDIS_PORT/BENCH_REDIS_SOCKET unset)\n");
        exit(2);
    }
    return $c;
}

/** A fresh phpredis connection over 'tcp' or 'unix' to the harness's server. */
function bench_redis(string $transport = 'tcp'): Redis
{
    $c = bench_config();
    $r = new Redis();
    $ok = $transport === 'unix' ? $r->connect($c['socket']) : $r->connect('127.0.0.1', $c['port'], 2.0);
    if (!$ok) throw new RuntimeException("cannot connect to the bench redis-server over $transport");
    return $r;
}

/** The extension's connection argument (a DSN) for a transport. */
function bench_dsn(string $transport): string
{
    $c = bench_config();
    return $transport === 'unix' ? 'unix://' . $c['socket'] : 'redis://127.0.0.1:' . $c['port'];
}

function median(array $v): float
{
    sort($v);
    $n = count($v);
    return $n % 2 ? (float) $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

/** user+sys CPU seconds this process has used so far. */
function cpu_seconds(): float
{
    $u = getrusage();
    return $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
}

function log_line(string $msg): void
{
    fprintf(STDERR, "[bench %s] %s\n", gmdate('H:i:s'), $msg);
}

/** $f() with the ini settings $ini in force (restored after): a case of the server module's path. */
function with_ini(array $ini, callable $f): mixed
{
    foreach ($ini as $k => $v) ini_set($k, $v);
    try {
        return $f();
    } finally {
        foreach ($ini as $k => $v) ini_restore($k);
    }
}
