<?php
// The scale-out rows (issue 13): the extension on a Redis Cluster and over TLS,
// each as a ratio to a phpredis PING to the same target in the same run.
//   cluster  3 masters (no replicas: fewer processes on a small machine), one key
//            and 1,000 keys (hash tags spread them over the slots of every master);
//            the PING goes to the master that owns the one key's slot;
//   TLS      a TLS-only redis-server (--port 0) with certificates made by openssl
//            now, next to the same decisions over plain TCP to the bench's own server.
// The servers come from the test suite's own harness (php-tests/tls.inc and
// cluster.inc, which need config.inc's free port and phpredis helpers): free
// loopback ports, temp dirs, stopped by PID and removed when this process exits.
declare(strict_types=1);

require_once __DIR__ . '/../php-tests/config.inc';
require_once __DIR__ . '/../php-tests/tls.inc';
require_once __DIR__ . '/../php-tests/cluster.inc';

const SCALEOUT_MASTERS = 3;
/** The id of the one-key rows: its hash tag decides the slot, so both algorithms' keys are on one master. */
const SCALEOUT_ONE_ID = 'one';

/** phpredis to 127.0.0.1:$port. */
function scaleout_redis(int $port): Redis
{
    $r = new Redis();
    if (!$r->connect('127.0.0.1', $port, 2.0)) throw new RuntimeException("cannot connect to 127.0.0.1:$port");
    return $r;
}

/** phpredis over TLS to $port, verifying the server against the run's CA. */
function scaleout_tls_redis(int $port, string $certs): Redis
{
    $r = new Redis();
    $ok = $r->connect('tls://127.0.0.1', $port, 2.0, null, 0, 0, ['stream' => ['cafile' => "$certs/ca.pem", 'verify_peer' => true]]);
    if (!$ok) throw new RuntimeException("cannot connect over TLS to 127.0.0.1:$port");
    return $r;
}

/**
 * The targets: label => [ping => a factory of phpredis clients to the PING's server, ctl => the
 * control connections (every server a decision may run on), dsn => the extension's connection].
 */
function scaleout_targets(array $cluster, array $tls, Redis $plainCtl): array
{
    return [
        'cluster' => [
            // phpredis, as every other target's PING and control connection (the test
            // harness's own client, RlClient, is PHP code: its PING would be no baseline).
            'ping' => fn () => scaleout_redis(rl_cluster_owner_port($cluster, '{' . SCALEOUT_ONE_ID . '}')),
            'ctl' => array_map('scaleout_redis', array_keys(rl_cluster_masters($cluster))),
            'dsn' => 'redis-cluster://' . implode(',', $cluster['seeds']),
        ],
        'TLS' => [
            'ping' => fn () => scaleout_tls_redis($tls['tls_port'], $tls['certs']),
            'ctl' => [scaleout_tls_redis($tls['tls_port'], $tls['certs'])],
            'dsn' => "rediss://127.0.0.1:{$tls['tls_port']}?cafile=" . rawurlencode($tls['certs'] . '/ca.pem'),
        ],
        'plain TCP' => [
            'ping' => fn () => bench_redis('tcp'),
            'ctl' => [$plainCtl],
            'dsn' => bench_dsn('tcp'),
        ],
    ];
}

/** name => [target, system, ids, make: fn () => fn(string $id): bool]. */
function scaleout_cases(array $targets, array $ids): array
{
    $one = [SCALEOUT_ONE_ID];
    $cases = [];
    $add = function (string $name, string $target, string $system, array $ids, callable $make) use (&$cases) {
        $cases[$name] = compact('target', 'system', 'ids', 'make');
    };
    foreach ($targets as $target => $t) {
        $add("PING ($target)", $target, 'floor', $one, function () use ($t) {
            $r = ($t['ping'])();
            return static fn (string $id): bool => $r->ping() !== false;
        });
        $algos = $target === 'cluster' ? ['TokenBucket', 'SlidingWindow log'] : ['TokenBucket'];
        foreach ($algos as $algo) {
            $make = function () use ($t, $algo) {
                $limiter = extension_limiters($t['dsn'], 'so')[$algo];
                return static fn (string $id): bool => $limiter->isAllowed($id);
            };
            if ($target === 'cluster') {
                $add("$algo ($target, one key)", $target, 'extension', $one, $make);
                $add("$algo ($target, 1,000 keys)", $target, 'extension', $ids, $make);
            } else {
                $add("$algo ($target)", $target, 'extension', $ids, $make);
            }
        }
    }
    return $cases;
}

/** Starts the servers (stopped when this process exits), times every case in interleaved rounds; the report's 'scaleout' part. */
function run_scaleout(array $cfg, array $ids, Redis $plainCtl): array
{
    // Ctrl-C or a kill: leave through exit(), so the harness's shutdown functions stop the servers.
    pcntl_async_signals(true);
    foreach ([SIGINT, SIGTERM] as $sig) pcntl_signal($sig, static fn () => exit(128 + $sig));

    log_line('scale-out: starting a ' . SCALEOUT_MASTERS . '-master Redis Cluster and a TLS redis-server');
    $cluster = rl_start_cluster(SCALEOUT_MASTERS, 0);
    $tls = rl_start_tls_redis();
    $targets = scaleout_targets($cluster, $tls, $plainCtl);
    $cases = scaleout_cases($targets, $ids);
    $n = $cfg['attempts'];
    $calls = $pings = [];
    foreach ($cases as $name => $case) {
        $calls[$name] = ($case['make'])();
        // warm up: connections, and the library loaded on every master the case's ids reach
        foreach (array_slice($case['ids'], 0, 200) as $id) $calls[$name]($id);
        $pings[$name] = ($targets[$case['target']]['ping'])();
    }
    $runs = interleaved_rounds(array_keys($cases), $cfg['rounds'], 'scale-out', function (string $name) use ($cases, $targets, $calls, $pings, $n) {
        $case = $cases[$name];
        $ctl = $targets[$case['target']]['ctl'];
        foreach ($ctl as $node) $node->flushAll();
        return measure($calls[$name], $n, $case['ids'], $pings[$name], $ctl) + ['n' => $n];
    });
    $table = [];
    foreach ($runs as $name => $rs) {
        $table[$name] = ['target' => $cases[$name]['target'], 'system' => $cases[$name]['system'], 'keys' => count($cases[$name]['ids'])] + round_medians($rs);
    }
    unset($calls, $pings, $targets);
    foreach ([SIGINT, SIGTERM] as $sig) pcntl_signal($sig, SIG_DFL);
    return ['masters' => SCALEOUT_MASTERS, 'replicas' => 0, 'n' => $n, 'table' => $table];
}
