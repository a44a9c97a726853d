<?php
// Interleaved rounds and their medians, shared by the single-process table
// (run.php) and the scale-out rows (scaleout.php): every case once per round,
// the order reversed every other round (so no case always runs first, on a cold
// cache, or last, on a warm machine), and each figure the median of its rounds.
declare(strict_types=1);

/** name => [what $once($name) returned, one per round]. */
function interleaved_rounds(array $names, int $rounds, string $what, callable $once): array
{
    $runs = [];
    for ($round = 0; $round < $rounds; $round++) {
        log_line(sprintf('%s, round %d/%d, %d cases', $what, $round + 1, $rounds, count($names)));
        foreach ($round % 2 ? array_reverse($names) : $names as $name) {
            $runs[$name][] = $once($name);
        }
    }
    return $runs;
}

/** One table row from the rounds of measure(): medians, the range of µs, the first round's command mix. */
function round_medians(array $rs): array
{
    $row = ['n' => $rs[0]['n']];
    foreach (['us', 'ping_us', 'x_ping', 'cpu_us', 'rtt', 'cmds', 'redis_us'] as $f) $row[$f] = median(array_column($rs, $f));
    $row['us_min'] = min(array_column($rs, 'us'));
    $row['us_max'] = max(array_column($rs, 'us'));
    $row['mix'] = $rs[0]['mix'];
    return $row;
}
