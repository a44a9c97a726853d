<?php
// make bench's threads table (issues 22 and 34), run by scripts/bench-threads.bash
// inside make zts's root, where PHP is thread-safe with the embed and FPM SAPIs.
// What limits rate limiting in a large fleet is the Redis behind it, so the figure
// is decisions per Redis core-second: decisions ÷ the CPU seconds Redis spent
// (INFO's used_cpu_sys + used_cpu_user, before and after each run), next to
// decisions per second. For 1, 8 and 16 concurrent callers, each as php-fpm
// workers behind nginx (`ab -k -c N`) and as threads of one process
// (threads-tests/embed_threads.c, what FrankenPHP's worker threads do): threads
// sharing one connection per target (ratelimit.multiplex = auto, pipelined), and
// for reference each in a call on a connection of its own (multiplex = off, the
// pool before issue 34); on the Lua library and on the server module. Every
// request makes the same token bucket decisions (bench/threads_worker.php).
// Cases run in interleaved rounds (rounds.php), each figure the median of its
// rounds, each target the median of the rounds' own ratios with their range.
// Then issue 52's hot key: 16 threads and 16 php-fpm workers whose every decision
// is on ONE id, leased (withLease(HOTKEY_THREAD_UNITS)) against not leased, in the
// same interleaved rounds, with the Redis calls per decision (INFO commandstats:
// the FCALLs and module commands the clients sent, a script's own commands left out).
// Prints a Markdown section for BENCHMARKS.md, then the plot's data as lines
// "plot<TAB>callers<TAB>…" (scripts/bench.bash draws docs/threads.png from them).
//
// Environment (scripts/bench-threads.bash sets it): BENCH_HARNESS, BENCH_PHP_INI,
// BENCH_WORKER, BENCH_NGINX_PORT, BENCH_REDIS_PORT, BENCH_QUICK=1 (a tiny run that
// only checks the harness), BENCH_THREADS_ROUNDS, BENCH_THREADS_DECISIONS.
declare(strict_types=1);
require __DIR__ . '/lib.php';
require __DIR__ . '/rounds.php';

$quick = getenv('BENCH_QUICK') === '1';
$rounds = (int) (getenv('BENCH_THREADS_ROUNDS') ?: ($quick ? 1 : 5));
// Decisions per run; a request makes PER_REQUEST of them.
$total = (int) (getenv('BENCH_THREADS_DECISIONS') ?: ($quick ? 3200 : 64000));
const PER_REQUEST = 100;
const HOTKEY_THREAD_UNITS = 50;
$harness = (string) getenv('BENCH_HARNESS');
$ini = (string) getenv('BENCH_PHP_INI');
$worker = (string) getenv('BENCH_WORKER');
$nginx = (int) getenv('BENCH_NGINX_PORT');
$redisPort = (int) getenv('BENCH_REDIS_PORT');
if ($harness === '' || $ini === '' || $worker === '' || $nginx <= 0 || $redisPort <= 0) {
    fwrite(STDERR, "bench/threads.php: run me through scripts/bench-threads.bash\n");
    exit(2);
}

/** INFO $section of the bench's server, as name => value (no phpredis: a RESP exchange of its own). */
function threads_info(int $port, string $section): array
{
    $s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 5) or throw new RuntimeException("INFO: $error");
    fwrite($s, "*2\r\n\$4\r\nINFO\r\n\$" . strlen($section) . "\r\n$section\r\n");
    $len = (int) substr(fgets($s), 1);
    $body = '';
    while (strlen($body) < $len + 2) $body .= fread($s, $len + 2 - strlen($body));
    fclose($s);
    $out = [];
    foreach (explode("\r\n", $body) as $line) {
        if (str_contains($line, ':')) {
            [$k, $v] = explode(':', $line, 2);
            $out[$k] = $v;
        }
    }
    return $out;
}

/** CPU seconds Redis has used, all its threads. */
function redis_cpu(int $port): float
{
    $cpu = threads_info($port, 'cpu');
    return (float) $cpu['used_cpu_sys'] + (float) $cpu['used_cpu_user'];
}

/** Calls the clients sent (FCALL, EVALSHA, the module's commands): a Lua script's own commands are not counted. */
function client_calls(int $port): int
{
    $calls = 0;
    foreach (threads_info($port, 'commandstats') as $name => $stat) {
        if (preg_match('/^cmdstat_(fcall|fcall_ro|evalsha|eval|ratelimit\..*)$/', $name) && preg_match('/calls=(\d+)/', $stat, $m)) {
            $calls += (int) $m[1];
        }
    }
    return $calls;
}

/** The cases: name => [server, callers, path, multiplex, hot key, lease units]. */
function threads_cases(): array
{
    $cases = [];
    foreach (['module', 'lua'] as $path) {
        foreach ([1, 8, 16] as $n) {
            $cases["$n php-fpm workers, $path"] = ['fpm', $n, $path, 'auto'];
            $cases["$n threads, $path"] = ['threads', $n, $path, 'auto'];
        }
        // The pool before issue 34: a connection per thread in a call.
        foreach ([1, 16] as $n) {
            $cases["$n threads, own connections, $path"] = ['threads', $n, $path, 'off'];
        }
    }
    return $cases;
}

/** Issue 52's hot-key cases, on the Lua library as make bench's 8-process hot-key table. */
function hotkey_thread_cases(): array
{
    $cases = [];
    foreach (['fpm' => 'php-fpm workers', 'threads' => 'threads'] as $server => $who) {
        $cases["16 $who, hot key, not leased"] = [$server, 16, 'lua', 'auto', true, 0];
        $cases["16 $who, hot key, withLease(" . HOTKEY_THREAD_UNITS . ')'] = [$server, 16, 'lua', 'auto', true, HOTKEY_THREAD_UNITS];
    }
    return $cases;
}

/** One run of a case: decisions, their wall seconds, Redis's CPU seconds. */
function threads_run(array $case, int $total): array
{
    global $harness, $ini, $worker, $nginx, $redisPort;
    [$server, $n, $path, $mux, $hot, $lease] = $case + [4 => false, 5 => 0];
    $requests = intdiv($total, PER_REQUEST);
    $query = http_build_query(['decisions' => PER_REQUEST, 'module' => $path === 'module' ? 1 : 0, 'multiplex' => $mux,
        'hot' => $hot ? 1 : 0, 'lease' => $lease]);
    $cpu = redis_cpu($redisPort);
    $calls = client_calls($redisPort);
    if ($server === 'fpm') {
        $out = shell_exec(sprintf('ab -q -k -n %d -c %d %s 2>&1', $requests, $n, escapeshellarg("http://127.0.0.1:$nginx/?$query")));
        if (!preg_match('/^Failed requests:\s+0$/m', (string) $out) || str_contains((string) $out, 'Non-2xx') || !preg_match('/^Time taken for tests:\s+([\d.]+)/m', (string) $out, $m)) {
            throw new RuntimeException("php-fpm run failed:\n$out");
        }
        $seconds = (float) $m[1];
    } else {
        // Each thread runs its share of the requests; the time is that of the
        // requests themselves (first start to last end), without the process's start.
        $cmd = sprintf('%s -c %s -t %d -r %d -q %s %s', escapeshellarg($harness), escapeshellarg($ini), $n, intdiv($requests, $n), escapeshellarg($query), escapeshellarg($worker));
        $lines = explode("\n", trim((string) shell_exec($cmd)));
        $times = array_map(fn ($l) => array_map('floatval', array_slice(explode(' ', $l), 1)), array_filter($lines, fn ($l) => str_starts_with($l, 'ok ')));
        if (count($times) !== intdiv($requests, $n) * $n) {
            throw new RuntimeException(sprintf("threads run: %d of %d requests answered:\n%s", count($times), $requests, implode("\n", array_slice($lines, 0, 5))));
        }
        $seconds = max(array_column($times, 1)) - min(array_column($times, 0));
        $requests = count($times);
    }
    $decisions = $requests * PER_REQUEST;
    $redis = redis_cpu($redisPort) - $cpu;
    // INFO itself is not among the counted commands.
    $calls = client_calls($redisPort) - $calls;
    return ['n' => $decisions, 'dps' => $decisions / $seconds, 'redis_us' => $redis / $decisions * 1e6, 'per_core' => $decisions / max($redis, 1e-6),
        'calls' => $calls / $decisions];
}

$load = sys_getloadavg();
$started = microtime(true);
$cases = threads_cases();
$hotCases = hotkey_thread_cases();
$all = $cases + $hotCases;
// Warm-up: every worker and thread's connection, the library loaded, the module found.
foreach ($all as $case) threads_run($case, 16 * PER_REQUEST);
$runs = interleaved_rounds(array_keys($all), $rounds, 'threads', fn (string $name) => threads_run($all[$name], $total));
$loadEnd = sys_getloadavg();

$med = [];
foreach ($runs as $name => $rs) {
    foreach (['dps', 'redis_us', 'per_core', 'calls'] as $k) $med[$name][$k] = median(array_column($rs, $k));
    $med[$name]['low'] = min(array_column($rs, 'per_core'));
    $med[$name]['high'] = max(array_column($rs, 'per_core'));
}
$fmtRatio = fn (array $r) => sprintf('%.2f× (%.2f–%.2f)', $r['ratio'], $r['low'], $r['high']);

$php = 'PHP ' . PHP_VERSION . (PHP_ZTS ? ' ZTS' : '');
$server = trim((string) shell_exec('redis-server --version'));
preg_match('/v=(\S+)/', $server, $v);
echo "## Threads: one process against PHP-FPM (issues 22, 34)\n\n";
printf("%s, %s %s, its own redis-server with the server module loaded (the Lua cases turn `ratelimit.server_module` off). ", $php, str_starts_with($server, 'Valkey') ? 'Valkey' : 'Redis', $v[1] ?? '?');
printf("Each run: %d decisions in requests of %d token bucket decisions (`bench/threads_worker.php`); %d interleaved round(s), medians. ", $total, PER_REQUEST, $rounds);
echo "PHP-FPM: 16 static workers behind nginx (FastCGI kept alive), `ab -k -c N` for N callers. Threads: N threads of one process (`threads-tests/embed_threads.c`: what FrankenPHP's worker threads do), sharing one connection per target, their commands pipelined (`ratelimit.multiplex = auto`); \"own connections\": each thread in a call holds a connection of its own (`multiplex = off`, the pool before issue 34). ";
echo "Redis CPU is INFO's `used_cpu_sys + used_cpu_user` over the run; decisions per Redis core-second = decisions ÷ that. Clients, nginx and Redis share this machine's cores.\n\n";
printf("Load average %.2f at the start, %.2f at the end (the bench's own processes included); %.0f s.%s\n\n", $load[0], $loadEnd[0], microtime(true) - $started,
    $load[0] > 1.0 ? ' **The machine was busy at the start: the figures are not comparable with a quiet run.**' : '');
echo "| callers | server | path | decisions/s | Redis µs per decision | decisions per Redis core-second (range) |\n|---:|---|---|---:|---:|---:|\n";
foreach ($cases as $name => [$srv, $n, $path, $mux]) {
    $who = $srv === 'fpm' ? 'php-fpm workers' : ($mux === 'off' ? 'threads, own connections' : 'threads, one shared connection');
    $m = $med[$name];
    printf("| %d | %s | %s | %.0f | %.1f | %.0f (%.0f–%.0f) |\n", $n, $who, $path === 'module' ? 'server module' : 'Lua library', $m['dps'], $m['redis_us'], $m['per_core'], $m['low'], $m['high']);
}
echo "\nTargets (issue 34), each the median of the rounds' own ratios (range):\n\n| | measured | target |\n|---|---:|---:|\n";
$targets = [
    ['16 threads ÷ 16 php-fpm workers, module: decisions per Redis core-second', '16 threads, module', '16 php-fpm workers, module', 'per_core', '≥ 3×'],
    ['16 threads ÷ 16 php-fpm workers, module: decisions/s', '16 threads, module', '16 php-fpm workers, module', 'dps', '≥ 1.5×'],
    ['1 thread ÷ 1 thread on its own connection (the pool before), module: decisions/s', '1 threads, module', '1 threads, own connections, module', 'dps', '≥ 0.95×'],
    ['1 thread ÷ 1 thread on its own connection, Lua: decisions/s', '1 threads, lua', '1 threads, own connections, lua', 'dps', '≥ 0.95×'],
    ['16 threads ÷ 16 php-fpm workers, Lua: decisions per Redis core-second', '16 threads, lua', '16 php-fpm workers, lua', 'per_core', ''],
    ['16 threads ÷ 16 php-fpm workers, Lua: decisions/s', '16 threads, lua', '16 php-fpm workers, lua', 'dps', ''],
    ['16 threads shared ÷ own connections, module: decisions per Redis core-second', '16 threads, module', '16 threads, own connections, module', 'per_core', ''],
];
foreach ($targets as [$label, $a, $b, $k, $target]) {
    printf("| %s | %s | %s |\n", $label, $fmtRatio(round_ratios($runs[$a], $runs[$b], $k)), $target);
}
echo "\n";
printf("### 16 callers on one hot key (issue 52)\n\nThe same runs, interleaved with the cases above: every decision of every thread or worker on ONE id of a token bucket no run uses up (`bench/threads_worker.php` with `hot=1`), on the Lua library, not leased and `withLease(%d)` (a thread's or php-fpm worker's lease outlives its requests). Redis calls per decision: the FCALLs the clients sent (INFO commandstats; a script's own commands are not counted) ÷ decisions.\n\n", HOTKEY_THREAD_UNITS);
echo "| callers | server | limiter | decisions/s | Redis calls per decision | Redis µs per decision |\n|---:|---|---|---:|---:|---:|\n";
foreach ($hotCases as $name => [$srv, $n, , , , $lease]) {
    $m = $med[$name];
    printf("| %d | %s | %s | %.0f | %.3f | %.2f |\n", $n, $srv === 'fpm' ? 'php-fpm workers' : 'threads, one shared connection',
        $lease > 0 ? "`withLease($lease)`" : 'not leased', $m['dps'], $m['calls'], $m['redis_us']);
}
echo "\nTargets (issue 52) at `\$units = " . HOTKEY_THREAD_UNITS . "`, each the median of the rounds' own ratios (range):\n\n| | measured | target |\n|---|---:|---:|\n";
foreach (['php-fpm workers', 'threads'] as $who) {
    $leased = "16 $who, hot key, withLease(" . HOTKEY_THREAD_UNITS . ')';
    printf("| 16 %s, leased ÷ not leased: decisions/s | %s | ≥ 5× |\n", $who, $fmtRatio(round_ratios($runs[$leased], $runs["16 $who, hot key, not leased"], 'dps')));
    printf("| 16 %s, leased: Redis calls per decision | %.3f | ≤ 0.1 |\n", $who, $med[$leased]['calls']);
}
echo "\n";
// The plot: decisions per Redis core-second by callers, four bars each.
foreach ([1, 8, 16] as $n) {
    printf("plot\t%d\t%.0f\t%.0f\t%.0f\t%.0f\n", $n, $med["$n php-fpm workers, lua"]['per_core'], $med["$n threads, lua"]['per_core'],
        $med["$n php-fpm workers, module"]['per_core'], $med["$n threads, module"]['per_core']);
}
