--TEST--
make bench's 8-process rows (bench/throughput.php): a row is the medians of its rounds with their range, and issue 21's targets are the median of each round's own ratio (module against its userland equivalent and against the fixed window (a cost-1 consume: one library call since lock-out, three plain commands before), both sides from the same round), not a ratio of medians; an algorithm without a module row is left out
--FILE--
<?php
require __DIR__ . '/../bench/lib.php';
require __DIR__ . '/../bench/throughput.php';

// Three rounds of three cases, figures chosen so that the median of the rounds'
// ratios (1.2) differs from the ratio of the medians (100 / 100 = 1.0).
$round = fn (float $dps, float $cpu, float $wall) => ['dps' => $dps, 'redis_cpu_us' => $cpu, 'wall' => $wall, 'decisions' => 80000];
$runs = [
    'extension FixedWindow' => [$round(100, 10, 1), $round(90, 12, 1), $round(95, 11, 1)],
    'module: TokenBucket' => [$round(120, 11, 1.0), $round(80, 12, 1.5), $round(100, 13, 1.2)],
    'userland token bucket (evalSha)' => [$round(100, 15, 1), $round(100, 15, 1), $round(50, 15, 2)],
];

$row = throughput_row($runs['module: TokenBucket']);
printf("row: rounds %d, dps %g (%g-%g), cpu %g (%g-%g), wall %g\n", $row['rounds'], $row['dps'], $row['dps_min'], $row['dps_max'],
    $row['redis_cpu_us'], $row['redis_cpu_us_min'], $row['redis_cpu_us_max'], $row['wall']);

foreach (throughput_targets($runs) as $algo => $t) {
    printf("%s against %s: dps %.2f (%.2f-%.2f), cpu %.2f (%.2f-%.2f)\n", $algo, $t['peer'], $t['dps']['ratio'], $t['dps']['low'], $t['dps']['high'],
        $t['cpu']['ratio'], $t['cpu']['low'], $t['cpu']['high']);
}
?>
--EXPECT--
row: rounds 3, dps 100 (80-120), cpu 12 (11-13), wall 1.2
TokenBucket against userland token bucket (evalSha): dps 1.20 (0.80-2.00), cpu 1.10 (1.00-1.18)
