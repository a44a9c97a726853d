--TEST--
Redis Cluster over TLS (every node TLS-only, certificates made by openssl at test time): rediss-cluster:// and the 'cluster' array with 'scheme' => 'tls' decide exactly for every class and a compound; the server certificate is verified (no cafile: RateLimiterException naming the cause), verify_peer=0 opts out; plain redis-cluster:// to TLS nodes fails
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=1
ratelimit.timeout=1
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/tls.inc';
require __DIR__ . '/cluster.inc';
$cluster = rl_start_cluster(tls: true);
$certs = $cluster['tls'];
$seeds = implode(',', $cluster['seeds']);
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));
$shown = fn (string $m) => preg_replace('/127\.0\.0\.1:\d+/', 'NODE', str_replace([$certs, $seeds], ['CERTS', 'SEEDS'], $m));

$forms = [
    'DSN' => "rediss-cluster://$seeds?cafile=" . rawurlencode("$certs/ca.pem"),
    'array' => ['cluster' => $cluster['seeds'], 'scheme' => 'tls', 'ssl' => ['cafile' => "$certs/ca.pem"]],
];
foreach ($forms as $form => $connection) {
    echo "-- $form\n";
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $connection, "$p:$form:$kind", 3);
        $seq = [];
        for ($i = 0; $i < 4; $i++) $seq[] = $l->consume('id');
        $ids = array_map(fn ($i) => "m$i", range(1, 12));
        $many = $l->consumeMany(array_merge($ids, $ids, $ids, $ids));
        $key = "$p:$form:$kind:{id}";
        printf("%-8s consume %s  consumeMany %s  %s\n", $kind, $yn($seq), $yn($many), rl_state($kind, rl_cluster_owner($cluster, $key), $key, 3));
    }
    $compound = new CompoundRateLimiter([rl_long('fixed', $connection, "$p:$form:c1", 2), rl_long('gcra', $connection, "$p:$form:c2", 3)]);
    echo "compound ", $yn([$compound->consume('k'), $compound->consume('k'), $compound->consume('k')]), "\n";
}
echo "-- verification\n";
foreach (["rediss-cluster://$seeds", "rediss-cluster://$seeds?verify_peer=0", "redis-cluster://$seeds"] as $dsn) {
    try {
        echo $yn([(new FixedWindowRateLimiter($dsn, "$p:v", 60, 5))->consume('v')]), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $shown($e->getMessage()), "\n";
    }
}
?>
--EXPECT--
-- DSN
fixed    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  counter '3'
sliding  consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  entries 3
blocks   consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  counted in the slices 3
token    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  tokens 0.0
leaky    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  level 3.0
gcra     consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  TAT 3.0 intervals ahead
compound YYn
-- array
fixed    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  counter '3'
sliding  consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  entries 3
blocks   consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  counted in the slices 3
token    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  tokens 0.0
leaky    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  level 3.0
gcra     consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnnnn  TAT 3.0 intervals ahead
compound YYn
-- verification
RateLimiterException: Redis at rediss-cluster://SEEDS: TLS handshake failed: the server's certificate does not verify: it is not signed by a trusted CA (cafile)
Y
RateLimiterException: Redis at redis-cluster://SEEDS: no cluster node answered: Failed to connect to each cluster node (NODE: the server reset the connection; NODE: the server reset the connection; NODE: the server reset the connection; NODE: the server reset the connection; NODE: the server reset the connection; NODE: the server reset the connection)
