<?php
// Times one case in this process and accounts for what Redis did meanwhile:
//   µs per decision  the timed loop only, run in chunks of 1,000 calls;
//   × PING           after every chunk (outside the timing) 50 phpredis PINGs over the case's
//                    transport are timed too: the round-trip floor at the same moments and load;
//   client CPU       user+sys (getrusage) around the chunks only, per call;
//   Redis side       INFO stats/commandstats deltas on a control connection: round trips
//                    (total_reads_processed), commands incl. those inside scripts
//                    (total_commands_processed), and µs of top-level commands per decision.
//                    On a cluster, one control connection per master, their figures summed.
declare(strict_types=1);

const CHUNK = 1000;
const PINGS_PER_CHUNK = 50;

/**
 * INFO stats + commandstats in one command per server: [stats => [k => v], cmd => [name => [calls, usec]]],
 * summed over $nodes (one server, or every master of a cluster: a decision runs on one of them).
 * One command is `INFO all`: Redis 6.0 takes one section name only.
 * @param Redis[] $nodes
 */
function info_snapshot(array $nodes): array
{
    $out = ['stats' => [], 'cmd' => []];
    foreach ($nodes as $node) {
        foreach (explode("\n", (string) $node->rawCommand('INFO', 'all')) as $line) {
            $line = trim($line);
            if (preg_match('/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/', $line, $m)) {
                [$c, $u] = $out['cmd'][$m[1]] ?? [0, 0];
                $out['cmd'][$m[1]] = [$c + (int) $m[2], $u + (int) $m[3]];
            } elseif (preg_match('/^(\w+):(\d+)$/', $line, $m)) {
                $out['stats'][$m[1]] = ($out['stats'][$m[1]] ?? 0) + (int) $m[2];
            }
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

/** Commands that run Lua or the server module: their usec already includes the commands they ran. */
const SCRIPT_COMMANDS = ['eval', 'evalsha', 'fcall', 'fcall_ro',
    'ratelimit.take', 'ratelimit.peek', 'ratelimit.take_many', 'ratelimit.compound2', 'ratelimit.block', 'ratelimit.compound2_peek',
    'ratelimit.adjust', 'ratelimit.adjust_counted'];

/** Redis µs of the top-level commands: EVAL/EVALSHA/FCALL or the module's (which include what they ran) + plain commands. */
function redis_side_usec(array $delta, array $top): int
{
    $scripted = array_intersect(SCRIPT_COMMANDS, array_keys($delta)) !== [];
    $usec = 0;
    foreach ($delta as $name => [$calls, $u]) {
        if (!$scripted || in_array($name, SCRIPT_COMMANDS, true) || in_array($name, $top, true)) $usec += $u;
    }
    return $usec;
}

/**
 * One timed run of $call over $n decisions cycling over $keys ids. $ctl: the control connection to the
 * server, or an array of one per master of a cluster; $ping must reach one of those servers (its
 * samples are taken out of the counts).
 */
function measure(callable $call, int $n, array $ids, Redis $ping, Redis|array $ctl, array $top = []): array
{
    $k = count($ids);
    $nodes = is_array($ctl) ? array_values($ctl) : [$ctl];
    gc_collect_cycles();
    $before = info_snapshot($nodes);
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
    $after = info_snapshot($nodes);
    $delta = command_delta($before, $after, $pings);
    // the control connections' own traffic: one INFO per server (the one before; the one after
    // is not in its own figures), and the PINGs
    $own = count($nodes) + $pings;
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
