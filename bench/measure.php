<?php
// Times one case in this process and accounts for what Redis did meanwhile:
//   µs per decision  the timed loop only, run in chunks of 1,000 calls;
//   × PING           after every chunk (outside the timing) 50 phpredis PINGs over the case's
//                    transport are timed too: the round-trip floor at the same moments and load;
//   client CPU       user+sys (getrusage) around the chunks only, per call;
//   Redis side       INFO stats/commandstats deltas on a control connection: round trips
//                    (total_reads_processed), commands incl. those inside scripts
//                    (total_commands_processed), and µs of top-level commands per decision.
declare(strict_types=1);

const CHUNK = 1000;
const PINGS_PER_CHUNK = 50;

/** INFO stats + commandstats in one command: [stats => [k => v], cmd => [name => [calls, usec]]]. */
function info_snapshot(Redis $ctl): array
{
    $out = ['stats' => [], 'cmd' => []];
    foreach (explode("\n", (string) $ctl->rawCommand('INFO', 'stats', 'commandstats')) as $line) {
        $line = trim($line);
        if (preg_match('/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/', $line, $m)) {
            $out['cmd'][$m[1]] = [(int) $m[2], (int) $m[3]];
        } elseif (preg_match('/^(\w+):(\d+)$/', $line, $m)) {
            $out['stats'][$m[1]] = (int) $m[2];
        }
    }
    return $out;
}

/** Per-command [calls, usec] done between two snapshots, without the control connection's own INFO/PINGs. */
function command_delta(array $before, array $after, int $pings): array
{
    $d = [];
    foreach ($after['cmd'] as $name => [$calls, $usec]) {
        [$c0, $u0] = $before['cmd'][$name] ?? [0, 0];
        $dc = $calls - $c0;
        $du = $usec - $u0;
        if ($name === 'info') continue;
        if ($name === 'ping' && $dc > 0) {   // the samples cost what the case's own PINGs cost
            $du -= (int) round($du * $pings / $dc);
            $dc -= $pings;
        }
        if ($dc > 0) $d[$name] = [$dc, $du];
    }
    return $d;
}

/** Commands that run Lua: their usec already includes the commands the Lua ran. */
const SCRIPT_COMMANDS = ['eval', 'evalsha', 'fcall', 'fcall_ro'];

/** Redis µs of the top-level commands: EVAL/EVALSHA/FCALL (which include what they ran) + plain commands. */
function redis_side_usec(array $delta, array $top): int
{
    $scripted = array_intersect(SCRIPT_COMMANDS, array_keys($delta)) !== [];
    $usec = 0;
    foreach ($delta as $name => [$calls, $u]) {
        if (!$scripted || in_array($name, SCRIPT_COMMANDS, true) || in_array($name, $top, true)) $usec += $u;
    }
    return $usec;
}

/** One timed run of $call over $n decisions cycling over $keys ids. */
function measure(callable $call, int $n, array $ids, Redis $ping, Redis $ctl, array $top = []): array
{
    $k = count($ids);
    gc_collect_cycles();
    $before = info_snapshot($ctl);
    $ns = $pingNs = $pings = 0;
    $cpu = 0.0;
    for ($base = 0; $base < $n; $base += CHUNK) {
        $end = min($n, $base + CHUNK);
        $c = cpu_seconds();
        $t = hrtime(true);
        for ($i = $base; $i < $end; $i++) $call($ids[$i % $k]);
        $ns += hrtime(true) - $t;
        $cpu += cpu_seconds() - $c;
        $t = hrtime(true);
        for ($j = 0; $j < PINGS_PER_CHUNK; $j++) $ping->ping();
        $pingNs += hrtime(true) - $t;
        $pings += PINGS_PER_CHUNK;
    }
    $after = info_snapshot($ctl);
    $delta = command_delta($before, $after, $pings);
    // the control connection's own traffic: one INFO, and the PINGs
    $own = 1 + $pings;
    $us = $ns / 1e3 / $n;
    $pingUs = $pingNs / 1e3 / $pings;
    return [
        'us' => $us,
        'ping_us' => $pingUs,
        'x_ping' => $us / $pingUs,
        'cpu_us' => $cpu * 1e6 / $n,
        'rtt' => ($after['stats']['total_reads_processed'] - $before['stats']['total_reads_processed'] - $own) / $n,
        'cmds' => ($after['stats']['total_commands_processed'] - $before['stats']['total_commands_processed'] - $own) / $n,
        'redis_us' => redis_side_usec($delta, $top) / $n,
        'mix' => mix_per_decision($delta, $n),
    ];
}

/** Commands per decision, most frequent first, ties by name (PHP's sort is stable). */
function mix_per_decision(array $delta, int $n): array
{
    $mix = array_map(static fn ($cu) => round($cu[0] / $n, 2), $delta);
    ksort($mix);
    arsort($mix);
    return $mix;
}
