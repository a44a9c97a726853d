<?php
// `make bench` (through scripts/bench.bash): every measurement in one process run
// against the harness's own redis-server, results as JSON on stdout for report.php.
//   1. the single-process table: every case of cases.php, interleaved rounds
//      (order reversed every other round), Redis flushed before each timing, median;
//   2. issue 10's ratios (ratios.php);
//   3. throughput of 8 processes on one server (throughput.php), in interleaved rounds too,
//      and 8 processes on one hot key, leased against not (hotkey.php);
//   4. the scale-out rows: a Redis Cluster and TLS, each against a PING to it (scaleout.php).
declare(strict_types=1);

require __DIR__ . '/lib.php';
require __DIR__ . '/cases.php';
require __DIR__ . '/measure.php';
require __DIR__ . '/rounds.php';
require __DIR__ . '/ratios.php';
require __DIR__ . '/throughput.php';
require __DIR__ . '/hotkey.php';
require __DIR__ . '/scaleout.php';

$cfg = bench_config();
$load0 = sys_getloadavg();
$started = time();
$ctl = bench_redis('tcp');
$pingBy = ['tcp' => bench_redis('tcp'), 'unix' => bench_redis('unix')];
$ids = array_map('strval', range(0, $cfg['keys'] - 1));

$cases = array_filter(bench_cases(), fn ($c) => !($cfg['quick'] && $c['slow']));
$calls = [];
foreach ($cases as $name => $case) {
    $calls[$name] = ($case['make'])();
    with_ini($case['ini'], function () use ($calls, $name) {
        for ($i = 0; $i < 200; $i++) $calls[$name]('warmup' . ($i % 20));   // classes, scripts, connections
    });
}

$runs = interleaved_rounds(array_keys($cases), $cfg['rounds'], 'single process', function (string $name) use ($cases, $calls, $cfg, $ids, $pingBy, $ctl) {
    $case = $cases[$name];
    $n = $case['slow'] ? max(1000, intdiv($cfg['attempts'], 4)) : $cfg['attempts'];
    $ctl->flushAll();
    return with_ini($case['ini'], fn () => measure($calls[$name], $n, $ids, $pingBy[$case['transport']], $ctl, $case['top']) + ['n' => $n]);
});
$moduleTargets = module_targets($runs);
$table = [];
foreach ($runs as $name => $rs) {
    $table[$name] = ['system' => $cases[$name]['system'], 'transport' => $cases[$name]['transport']] + round_medians($rs);
}
unset($calls);

// A quarter of the attempts: the pairs are many (3 per algorithm) and ratios settle quickly.
$ratioN = max(1000, intdiv($cfg['attempts'], 4));
$ratios = ratio_rows(measure_ratios($ids, $ratioN, $cfg['rounds'], $ctl));

$tn = $cfg['quick'] ? 500 : max(1000, intdiv($cfg['attempts'], 2));
$tcases = throughput_cases();
$truns = interleaved_rounds(array_keys($tcases), $cfg['throughput_rounds'], "throughput, {$cfg['procs']} processes",
    fn (string $name) => run_throughput($tcases[$name], $cfg['procs'], $tn, $ctl));
$throughput = array_map('throughput_row', $truns);
$throughputTargets = throughput_targets($truns);
$ctl->flushAll();

$hcases = hotkey_cases();
$hruns = interleaved_rounds(array_keys($hcases), $cfg['throughput_rounds'], "hot key, {$cfg['procs']} processes",
    fn (string $name) => run_throughput($hcases[$name], $cfg['procs'], $tn, $ctl, 'hot'));
$hotkey = array_map('throughput_row', $hruns);
$hotkeyTargets = hotkey_targets($hruns);
$ctl->flushAll();

// Last: its servers live until this process exits, and no process is forked after they start.
$scaleout = run_scaleout($cfg, $ids, $ctl);
$ctl->flushAll();

$server = $ctl->info('server');
echo json_encode([
    'config' => array_diff_key($cfg, ['port' => 1, 'socket' => 1]),
    'throughput_n' => $tn,
    'module_targets' => $moduleTargets,
    'throughput_targets' => $throughputTargets,
    'ratio_n' => $ratioN,
    'ratio_chunks' => RATIO_CHUNKS,
    'load_start' => $load0,
    'load_end' => sys_getloadavg(),
    'wall_s' => time() - $started,
    'date' => gmdate('Y-m-d H:i') . ' UTC',
    'versions' => [
        'PHP' => PHP_VERSION,
        'phpredis' => phpversion('redis'),
        'ratelimit extension' => phpversion('ratelimit'),
        'redis-server' => $server['redis_version'],
    ],
    'table' => $table,
    'ratios' => $ratios,
    'throughput' => $throughput,
    'hotkey' => $hotkey,
    'hotkey_targets' => $hotkeyTargets,
    'hotkey_units' => HOTKEY_UNITS,
    'scaleout' => $scaleout,
], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
