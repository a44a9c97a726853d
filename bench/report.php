<?php
// Turns run.php's JSON into BENCHMARKS.md (stdout) and the plot's data file.
//   php report.php results.json plot.dat > BENCHMARKS.md
declare(strict_types=1);

[, $jsonFile, $datFile] = $argv + [null, null, null];
$r = json_decode((string) file_get_contents($jsonFile), true, 512, JSON_THROW_ON_ERROR);
$t = $r['table'];
$f = static fn (float $v, int $d = 1): string => number_format($v, $d, '.', ',');
$ok = static fn (bool $b): string => $b ? 'met' : '**missed**';
$deb = static fn (string $pkg): string => trim((string) shell_exec('dpkg-query -W -f=\'${Version}\' ' . escapeshellarg($pkg) . ' 2>/dev/null')) ?: 'not installed';
preg_match('/^model name\s*:\s*(.+)$/m', (string) @file_get_contents('/proc/cpuinfo'), $cpu);
$versions = $r['versions'] + [
    'Symfony RateLimiter (php-symfony-rate-limiter)' => $deb('php-symfony-rate-limiter'),
    'Laravel (php-laravel-framework)' => $deb('php-laravel-framework'),
];
$load = static fn (array $l): string => implode(' ', array_map(static fn ($x) => sprintf('%.2f', $x), $l));
$cfg = $r['config'];

$out = [];
if ($cfg['quick']) {
    $out[] = '> **Quick run on a busy machine, not for comparison** (`BENCH_QUICK=1`: ' . $cfg['attempts'] . ' attempts, '
        . $cfg['rounds'] . ' round, Symfony and Laravel\'s RateLimiter skipped). It only shows the harness works; '
        . 'take figures from `make bench` on a quiet machine.';
    $out[] = '';
}
$out[] = '# Benchmarks';
$out[] = '';
$out[] = "Written by `make bench` on {$r['date']} in {$r['wall_s']} s. Machine: " . trim((string) shell_exec('nproc')) . ' CPU(s), '
    . ($cpu[1] ?? 'unknown CPU') . '; load average (1, 5, 15 min) at start ' . $load($r['load_start']) . ', at end ' . $load($r['load_end'])
    . ' (the end figure includes the bench\'s own processes: its redis-servers and the 8 throughput processes, so only the start tells whether the machine was quiet).';
$out[] = '';
// Only the start: by the end the bench itself has loaded the machine (8 processes at once), on a quiet machine too.
if ($r['load_start'][0] > 0.5) {
    $out[] = '> **Warning: the 1-minute load average at the start was above 0.5**: other processes shared the CPUs, so every figure is squeezed towards 1 × PING. Compare only runs on a quiet machine.';
    $out[] = '';
}
$out[] = 'Versions: ' . implode(', ', array_map(static fn ($k, $v) => "$k $v", array_keys($versions), $versions)) . '.';
$out[] = '';
$out[] = '![µs per decision by system](docs/benchmarks.png)';
$out[] = '';

$out[] = '## One process: µs per decision';
$out[] = '';
$out[] = sprintf('One PHP process, %s attempts over %d ids round robin (Symfony and Laravel\'s RateLimiter: a quarter of that), %d round(s), order reversed every other round, Redis flushed before each timing, median of rounds. Nothing is denied (limit %s per %d s), so every call does the full work.',
    $f($cfg['attempts'], 0), $cfg['keys'], $cfg['rounds'], $f(1000000, 0), 60);
$out[] = '';
$out[] = '| case | over | µs/decision | range | × PING | Redis µs/decision | round trips | Redis commands | client CPU µs/call | commands per decision |';
$out[] = '|---|---|---:|---:|---:|---:|---:|---:|---:|---|';
$mixText = static fn (array $mix): string => implode(', ', array_map(static fn ($c, $n) => strtoupper($c) . " $n", array_keys($mix), $mix));
foreach ($t as $name => $row) {
    if ($row['system'] === 'metrics' || $row['system'] === 'giveback') continue; // their own sections below
    $mix = $mixText($row['mix']);
    $out[] = sprintf('| %s | %s | %s | %s–%s | %.2f | %s | %.2f | %.2f | %s | %s |', $name, $row['transport'], $f($row['us']),
        $f($row['us_min']), $f($row['us_max']), $row['x_ping'], $f($row['redis_us']), $row['rtt'], $row['cmds'], $f($row['cpu_us']), $mix);
}
$out[] = '';
$out[] = '- **× PING**: µs per decision ÷ µs of a phpredis PING over the same transport, sampled all along the same loop (50 PINGs after every 1,000 decisions, timed apart): the round-trip floor at the same moments and load.';
$out[] = '- **Redis µs/decision**: INFO commandstats `usec` of the top-level commands (EVAL/EVALSHA/FCALL include what their Lua ran) ÷ decisions. **Round trips**: INFO `total_reads_processed` delta ÷ decisions; **Redis commands**: `total_commands_processed` delta ÷ decisions (commands run inside scripts count too). The control connection\'s own INFO and PINGs are taken out.';
$out[] = '- **Client CPU**: user+sys `getrusage()` around the timed chunks ÷ decisions; "phpredis evalSha \'return 1\'" is the client cost of the cheapest script call.';
$out[] = '';

// Issue 9's targets, read off the table above.
$x = static fn (string $name): ?array => $t[$name] ?? null;
$targets = [
    ['FixedWindow (tcp)', 1.12, 'userland fixed window: pipeline INCR+EXPIRE NX'],
    ['SlidingWindow log (tcp)', 1.45, 'userland sliding log: evalSha zset, unique members'],
    ['SlidingWindow blocks=10 (tcp)', 1.40, 'userland sliding log: evalSha zset, unique members'],
    ['TokenBucket (tcp)', 1.35, 'userland token bucket: evalSha HMGET/HSET'],
    ['LeakyBucket (tcp)', 1.35, 'userland token bucket: evalSha HMGET/HSET'],
    ['Gcra (tcp)', 1.35, 'userland token bucket: evalSha HMGET/HSET'],
];
$floorCpu = $x("phpredis evalSha 'return 1' (tcp)")['cpu_us'] ?? null;
$out[] = '## Against the targets (issue 9)';
$out[] = '';
$out[] = '| extension | × PING | target | userland equivalent × PING | Redis µs: extension / userland | client CPU − evalSha \'return 1\' (target ≤ 0.5 µs) |';
$out[] = '|---|---:|---:|---:|---:|---:|';
foreach ($targets as [$ext, $target, $user]) {
    if (!($e = $x($ext)) || !($u = $x($user))) continue;
    $cpuDiff = $floorCpu === null ? null : $e['cpu_us'] - $floorCpu;
    $out[] = sprintf('| %s | %.2f | ≤ %.2f %s | %.2f (%s) | %s / %s (%s) | %s |', $ext, $e['x_ping'], $target, $ok($e['x_ping'] <= $target),
        $u['x_ping'], $ok($e['x_ping'] <= $u['x_ping']), $f($e['redis_us']), $f($u['redis_us']), $ok($e['redis_us'] <= $u['redis_us']),
        $cpuDiff === null ? 'n/a' : sprintf('%+.2f µs (%s)', $cpuDiff, $ok($cpuDiff <= 0.5)));
}
if ($floor = $x($floorName = "phpredis evalSha TIME+GET+SET PX (tcp)")) {
    $out[] = '';
    $out[] = sprintf('The floor of any exact bucket on the server\'s clock in Lua, "%s" (read TIME, GET the state, SET it back with PX; no arithmetic, not a limiter): %.2f × PING, %s Redis µs per call. A target below it cannot be met by a script on this machine.',
        $floorName, $floor['x_ping'], $f($floor['redis_us']));
}
$out[] = '';

// Issue 21's targets for the server module, read off the table above.
$out[] = '## The server module (issue 21)';
$out[] = '';
$out[] = 'The same limiters where the server module decides (rows "module: …": the bench\'s server loaded `modules/ratelimit-redis.so`, and those cases turn `ratelimit.server_module` to `auto`; every other extension row runs with `off`, the Lua library). Targets: wall time per decision within 1.05× of the Lua path\'s fixed window ("FixedWindow (tcp)": a cost-1 consume, one library call since lock-out (#49) as every decision reads the id\'s block; before that three plain commands, this client\'s floor, so results from before #49 are not comparable), and Redis µs per decision at most 0.3× the Lua path\'s for the same algorithm. Each ratio is the median of the rounds\' own ratios (both sides measured in the same round), with its range over the rounds; the µs columns are the table\'s medians.';
$out[] = '';
$out[] = '| algorithm | module µs | × PING | ÷ FixedWindow (tcp) (target ≤ 1.05) | Lua µs | module Redis µs | Lua Redis µs | module ÷ Lua Redis µs (target ≤ 0.3) | decisions per Redis core-second: module / Lua |';
$out[] = '|---|---:|---:|---:|---:|---:|---:|---:|---:|';
$perCore = static fn (float $us): string => $us > 0 ? $f(1e6 / $us, 0) : 'n/a';
$range = static fn (array $q, float $most): string => sprintf('%.2f (%.2f–%.2f) %s', $q['ratio'], $q['low'], $q['high'], $ok($q['ratio'] <= $most));
foreach ($r['module_targets'] ?? [] as $algo => $target) {
    $row = $x("module: $algo (tcp)");
    $lua = $x("$algo (tcp)");
    $out[] = sprintf('| %s | %s | %.2f | %s | %s | %s | %s | %s | %s / %s |', $algo, $f($row['us']), $row['x_ping'], $range($target['wall'], 1.05),
        $f($lua['us']), $f($row['redis_us']), $f($lua['redis_us']), $range($target['redis'], 0.3), $perCore($row['redis_us']), $perCore($lua['redis_us']));
}
$out[] = '';
$out[] = 'Redis µs here are INFO commandstats `usec` of the top-level command, which includes the commands a script or the module ran; decisions per Redis core-second = 10⁶ ÷ that. The throughput table below measures Redis CPU with networking included.';
$out[] = '';

$out[] = '## Decision metrics (issue 33)';
$out[] = '';
$out[] = 'What `ratelimit.metrics = redis` costs: the same limiters with each decision also counting itself in Redis inside its own call (an `HINCRBY` per outcome counted, a `PEXPIREAT` when a minute\'s field is new, a `TIME` for the fixed window, whose decisions read no clock otherwise), measured in the same interleaved rounds as the table above (medians; every call accepted, so one `allowed` field per call). Redis µs as in the table: INFO commandstats `usec` of the top-level command.';
$out[] = '';
$out[] = '| algorithm | path | Redis µs/decision without | with | + Redis µs | µs/decision without | with | round trips with | commands per decision with |';
$out[] = '|---|---|---:|---:|---:|---:|---:|---:|---|';
foreach (array_keys($t) as $name) {
    if (!preg_match('/^(module )?metrics: (.+) \(tcp\)$/', $name, $m)) continue;
    $with = $t[$name];
    $without = $t[($m[1] ? 'module: ' : '') . "{$m[2]} (tcp)"] ?? null;
    if ($without === null) continue;
    $out[] = sprintf('| %s | %s | %s | %s | %+.2f | %s | %s | %.2f | %s |', $m[2], $m[1] ? 'server module' : 'Lua library', $f($without['redis_us'], 2), $f($with['redis_us'], 2),
        $with['redis_us'] - $without['redis_us'], $f($without['us']), $f($with['us']), $with['rtt'], $mixText($with['mix']));
}
$out[] = '';

$out[] = '## Giving back and booking ahead (issue 49)';
$out[] = '';
$out[] = 'What `refund()` and `reserve()` cost against a `consume()` of the same limiter, on each path, measured in the same interleaved rounds as the table above (medians). A "refund" row alternates, per id, a `consume()` and a `refund()` of the unit it took, so its figures are the mean of the two: the refund alone is estimated as twice the row minus the consume row. A "reserve" row books a unit that is there (no wait). Target: one round trip, and within 10 % of the consume.';
$out[] = '';
$out[] = '| case | µs/call | consume µs | refund or reserve alone ÷ consume | Redis µs/call | consume Redis µs | round trips |';
$out[] = '|---|---:|---:|---:|---:|---:|---:|';
foreach (array_keys($t) as $name) {
    if (!preg_match('/^(module )?(refund|reserve): (.+) \(tcp\)$/', $name, $m)) continue;
    $row = $t[$name];
    $consume = $t[($m[1] ? 'module: ' : '') . "{$m[3]} (tcp)"] ?? null;
    if ($consume === null) continue;
    $alone = $m[2] === 'refund' ? 2 * $row['us'] - $consume['us'] : $row['us'];
    $out[] = sprintf('| %s | %s | %s | %.2f (%s) | %s | %s | %.2f |', $name, $f($row['us']), $f($consume['us']), $alone / $consume['us'],
        $ok($alone <= 1.1 * $consume['us']), $f($row['redis_us']), $f($consume['redis_us']), $row['rtt']);
}
$out[] = '';

$out[] = '## Fewer round trips (issue 10)';
$out[] = '';
$out[] = sprintf('Same process, %s decisions per way and round (nothing denied but the blocked id), %d round(s). Each round flushes Redis once per row, then times the row\'s ways in %d alternating chunks (order reversed every other chunk), so both sides of a ratio see the machine in the same state. µs per decision (a compound decision counts once): median over rounds; ratio: median of the rounds\' ratios, with their range. A compound has 3 members of the same algorithm under 3 prefixes; "1 limiter" is one of them alone.', $f($r['ratio_n'], 0), $cfg['rounds'], $r['ratio_chunks']);
$out[] = '';
$out[] = '| ratio | algorithm | µs (numerator) | µs (denominator) | ratio | rounds | target | |';
$out[] = '|---|---|---:|---:|---:|---:|---:|---|';
foreach ($r['ratios'] as $row) {
    $target = $row['op'] === 'floor' ? '(floor, not a limiter: no target)' : ($row['op'] === '>=' ? '≥ ' : '≤ ') . $row['target'];
    $met = $row['met'] === null ? '' : ($row['met'] ? 'met' : '**missed**');
    $out[] = sprintf('| %s | %s | %s | %s | %.2f | %.2f–%.2f | %s | %s |', $row['what'], $row['algo'], $f($row['num'], 2), $f($row['den'], 2),
        $row['ratio'], $row['low'], $row['high'], $target, $met);
}
$out[] = '';

$out[] = '## Throughput of one Redis (issue 9)';
$out[] = '';
$out[] = sprintf('%d PHP processes (pcntl_fork) at once on ONE redis-server over TCP, %s decisions each over their own 1,000 ids, nothing denied. Decisions per second from the common start to the last process\'s end; Redis CPU = INFO cpu `used_cpu_sys` + `used_cpu_user` delta ÷ decisions. On %s CPU(s) the PHP processes and Redis share the cores, so the Redis CPU column is the one that transfers to a real deployment. %d interleaved round(s), order reversed every other round: medians, with the range over rounds.',
    $cfg['procs'], $f($r['throughput_n'], 0), trim((string) shell_exec('nproc')), $cfg['throughput_rounds']);
$out[] = '';
$out[] = '| case | decisions/s | range | Redis CPU µs/decision | range | decisions per Redis core-second | wall s |';
$out[] = '|---|---:|---:|---:|---:|---:|---:|';
foreach ($r['throughput'] as $name => $row) {
    $out[] = sprintf('| %s | %s | %s–%s | %s | %s–%s | %s | %.2f |', $name, $f($row['dps'], 0), $f($row['dps_min'], 0), $f($row['dps_max'], 0),
        $f($row['redis_cpu_us'], 1), $f($row['redis_cpu_us_min'], 1), $f($row['redis_cpu_us_max'], 1),
        $row['redis_cpu_us'] > 0 ? $f(1e6 / $row['redis_cpu_us'], 0) : 'n/a', $row['wall']);
}
$out[] = '';
$out[] = 'Issue 21\'s targets with 8 processes, for the server module: decisions per second at least the userland equivalent\'s (the blocks against the userland sliding log, the leaky bucket and GCRA against the userland token bucket: the code each replaces), and Redis CPU per decision within 1.1× of the fixed window\'s ("extension FixedWindow": one library call since lock-out (#49), three plain commands before, so not comparable with earlier runs). Each ratio is the median of the rounds\' own ratios (both sides ran in the same round), with their range.';
$out[] = '';
$out[] = '| algorithm | module ÷ userland decisions/s (target ≥ 1) | range | Redis CPU ÷ fixed window (target ≤ 1.1) | range |';
$out[] = '|---|---:|---:|---:|---:|';
foreach ($r['throughput_targets'] as $algo => $row) {
    $out[] = sprintf('| %s | %.2f against %s (%s) | %.2f–%.2f | %.2f (%s) | %.2f–%.2f |', $algo, $row['dps']['ratio'], $row['peer'], $ok($row['dps']['ratio'] >= 1.0),
        $row['dps']['low'], $row['dps']['high'], $row['cpu']['ratio'], $ok($row['cpu']['ratio'] <= 1.1), $row['cpu']['low'], $row['cpu']['high']);
}
$out[] = '';
$out[] = '## A hot key: leases (issue 52)';
$out[] = '';
$out[] = sprintf('%d PHP processes at once on ONE key of ONE redis-server (a limit no run uses up, nothing denied), %s decisions each, deciding in a loop as the throughput table\'s processes do: without a lease (every decision a round trip) and with `withLease(%d)` (one call takes up to %d units, the process answers the next ones itself). Redis calls = round trips ÷ decisions, counted by the processes (the answers Redis gave; a lease\'s give-back, at most one per lease, is not counted); Redis commands = INFO commandstats calls ÷ decisions (a script\'s own commands included: a take is about 5); Redis CPU as above. %d interleaved round(s): medians, with the range over rounds.',
    $cfg['procs'], $f($r['throughput_n'], 0), $r['hotkey_units'], $r['hotkey_units'], $cfg['throughput_rounds']);
$out[] = '';
$out[] = '| case | decisions/s | range | Redis calls/decision | Redis commands/decision | Redis CPU µs/decision | range | wall s |';
$out[] = '|---|---:|---:|---:|---:|---:|---:|---:|';
foreach ($r['hotkey'] as $name => $row) {
    $out[] = sprintf('| %s | %s | %s–%s | %.3f | %.3f | %s | %s–%s | %.2f |', $name, $f($row['dps'], 0), $f($row['dps_min'], 0), $f($row['dps_max'], 0),
        $row['trips'] ?? NAN, $row['calls'], $f($row['redis_cpu_us'], 2), $f($row['redis_cpu_us_min'], 2), $f($row['redis_cpu_us_max'], 2), $row['wall']);
}
$out[] = '';
$out[] = sprintf('Issue 52\'s targets at `$units = %d`: leased decisions/s at least 5× the unleased limiter\'s (each round\'s own ratio, median and range), and at most 0.1 Redis calls per decision.', $r['hotkey_units']);
$out[] = '';
$out[] = '| algorithm | leased ÷ not leased decisions/s (target ≥ 5) | range | Redis calls per leased decision (target ≤ 0.1) |';
$out[] = '|---|---:|---:|---:|';
foreach ($r['hotkey_targets'] as $algo => $row) {
    $out[] = sprintf('| %s | %.1f (%s) | %.1f–%.1f | %.3f (%s) |', $algo, $row['dps']['ratio'], $ok($row['dps']['ratio'] >= 5.0), $row['dps']['low'], $row['dps']['high'],
        $row['trips'], $ok($row['trips'] <= 0.1));
}
$out[] = '';
$out[] = 'The same with 16 threads of one ZTS process and with 16 php-fpm workers, whose leases outlive their requests: "16 callers on one hot key" in the threads section below.';
$out[] = '';
$so = $r['scaleout'];
$st = $so['table'];
$out[] = '## Scale-out: Redis Cluster and TLS (issue 13)';
$out[] = '';
$out[] = sprintf('The same process, after the tables above, against servers started for the run on loopback ports: a Redis Cluster of %d masters (%s) over `redis-cluster://`, and a TLS-only redis-server (`--port 0`, certificates made by openssl for the run, verified against its CA) over `rediss://…?cafile=…`, next to the same over plain TCP to the bench\'s own server. %s attempts per case and round, %d round(s), order reversed every other round, the target flushed before each timing, median. **× PING** divides by a phpredis PING to the same target, sampled all along the same loop: on the cluster, the master that owns the one key\'s slot; over TLS, a PING over TLS (the extension uses rustls, phpredis PHP\'s OpenSSL). On the cluster, *one key* is every call on one id (one slot, one master), *1,000 keys* are the ids of the table above, which the hash tag in the key (`prefix:{id}`) spreads over the slots of every master; the Redis columns add up the masters.',
    $so['masters'], $so['replicas'] ? "{$so['replicas']} replica(s) each" : 'no replicas', $f($so['n'], 0), $cfg['rounds']);
$out[] = '';
$out[] = '| case | keys | µs/decision | range | × PING (same target) | Redis µs/decision | round trips | client CPU µs/call | commands per decision |';
$out[] = '|---|---:|---:|---:|---:|---:|---:|---:|---|';
foreach ($st as $name => $row) {
    $out[] = sprintf('| %s | %s | %s | %s–%s | %.2f | %s | %.2f | %s | %s |', $name, $f($row['keys'], 0), $f($row['us']), $f($row['us_min']), $f($row['us_max']),
        $row['x_ping'], $f($row['redis_us']), $row['rtt'], $f($row['cpu_us']), $mixText($row['mix']));
}
$out[] = '';
// What TLS and a cluster add, read off the rows above (µs ÷ µs of the same case over plain TCP).
$vs = static function (string $a, string $b) use ($st, $f): string {
    return isset($st[$a], $st[$b]) ? sprintf('%.2f× (%s µs more)', $st[$a]['us'] / $st[$b]['us'], $f($st[$a]['us'] - $st[$b]['us'])) : 'n/a';
};
$out[] = '- **TLS ÷ plain TCP**: PING ' . $vs('PING (TLS)', 'PING (plain TCP)') . ', TokenBucket ' . $vs('TokenBucket (TLS)', 'TokenBucket (plain TCP)') . '.';
$out[] = '- **Cluster ÷ plain TCP**: PING ' . $vs('PING (cluster)', 'PING (plain TCP)') . ', TokenBucket on 1,000 keys ' . $vs('TokenBucket (cluster, 1,000 keys)', 'TokenBucket (plain TCP)') . '.';
$out[] = '';

$out[] = '## Reproduce';
$out[] = '';
$out[] = '`make bench` (about 30 minutes on the project\'s 2-core machine, and about 10 more for the threads table when make zts has built its PHP; `BENCH_ATTEMPTS`, `BENCH_ROUNDS`, `BENCH_QUICK=1` for a tiny check of the harness). It starts a redis-server of its own (free loopback port and a unix socket, no persistence) and, for the scale-out rows, a 3-master Redis Cluster (`redis-cli --cluster create`) and a TLS redis-server with certificates made by openssl at run time (free loopback ports, temp dirs, stopped by PID: the test suite\'s php-tests/cluster.inc and tls.inc), runs PHP with `-n` and only the extensions it names (igbinary, redis, ratelimit from `modules/`), so an installed copy of the extension or other ini settings do not count. Run it on a quiet machine: the load average is part of the report.';
$out[] = '';
$out[] = 'Build against build, measured by hand and kept apart from this generated page: [bench/connection-layer.md](bench/connection-layer.md) (issue 43). `bench/instructions.bash N SO [SO...]` counts the client\'s instructions per decision of one or more builds there (valgrind; any load will do).';
echo implode("\n", $out), "\n";

// The plot: one bar per case, µs per decision, coloured by system.
$colours = ['floor' => 0x888888, 'extension' => 0x1f77b4, 'module' => 0x9467bd, 'userland' => 0xff7f0e, 'symfony' => 0x2ca02c, 'laravel' => 0xd62728];
$dat = '';
$i = 0;
foreach (array_reverse(array_filter($t, static fn ($row) => $row['system'] !== 'metrics' && $row['system'] !== 'giveback'), true) as $name => $row) {
    $dat .= sprintf("%d %.3f %d \"%s\"\n", $i++, $row['us'], $colours[$row['system']] ?? 0, str_replace('"', "'", $name));
}
file_put_contents($datFile, $dat);
