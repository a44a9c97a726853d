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

/**
 * $a's figure $k against $b's, both from the same round, as the median of the rounds'
 * own ratios with their range: drift between rounds (another load, a warmer cache)
 * moves both sides of a round alike, where a ratio of two medians can pair a fast
 * round with a slow one.
 */
function round_ratios(array $a, array $b, string $k): array
{
    $v = array_map(static fn (array $x, array $y) => $x[$k] / max($y[$k], 1e-9), $a, $b);
    return ['ratio' => median($v), 'low' => min($v), 'high' => max($v)];
}

/**
 * Issue 21's single-process targets, per algorithm with a "module: … (tcp)" case: wall
 * time against the Lua path's fixed window (one library call since lock-out) ("FixedWindow (tcp)") and Redis
 * µs against the Lua path of the same algorithm, each a round_ratios().
 */
function module_targets(array $runs): array
{
    $fixed = $runs['FixedWindow (tcp)'] ?? null;
    if ($fixed === null) return [];
    $rows = [];
    foreach ($runs as $name => $rs) {
        if (!preg_match('/^module: (.+) \(tcp\)$/', $name, $m) || !isset($runs["{$m[1]} (tcp)"])) continue;
        $rows[$m[1]] = ['wall' => round_ratios($rs, $fixed, 'us'), 'redis' => round_ratios($rs, $runs["{$m[1]} (tcp)"], 'redis_us')];
    }
    return $rows;
}
