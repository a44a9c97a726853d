--TEST--
Redis Sentinel over TLS (rediss-sentinel:// and the 'sentinel' array with 'scheme' => 'tls' + 'ssl'): a master and a sentinel that speak only TLS, with certificates made at test time; every class decides exactly; the TLS options apply to the sentinels and the master alike; an unverified certificate is a RateLimiterException naming the cause; verify_peer=0 is the explicit opt-out; plain redis-sentinel:// to a TLS sentinel fails, never falls back
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=1
ratelimit.timeout=0.5
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/tls.inc';
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels(replicas: 0, sentinels: 1, quorum: 1, tls: true);
$certs = $set['tls'];
$s = $set['sentinels'][0];
$master = rl_sentinel_node($set, $set['master']);
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));
$show = fn (string $m) => str_replace($certs, 'CERTS', preg_replace('/:\d{4,5}\b/', ':PORT', $m));
$dsn = "rediss-sentinel://$s?cafile=" . rawurlencode("$certs/ca.pem") . '#mymaster';
$array = ['sentinel' => [$s], 'service' => 'mymaster', 'scheme' => 'tls', 'ssl' => ['cafile' => "$certs/ca.pem", 'verify_peer' => true]];
foreach (['DSN' => $dsn, 'array' => $array] as $form => $connection) {
    echo "-- $form\n";
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $connection, "$p:$form:$kind", 3);
        printf("%-8s %s  %s\n", $kind, $yn([$l->consume('id'), $l->consume('id'), $l->consume('id'), $l->consume('id')]), rl_state($kind, $master, "$p:$form:$kind:id", 3));
    }
}
echo "-- what cannot work\n";
foreach ([
    'no cafile (the system trust store)' => "rediss-sentinel://$s#mymaster",
    'verify_peer=0' => "rediss-sentinel://$s?verify_peer=0#mymaster",
    'plain to a TLS sentinel' => "redis-sentinel://$s#mymaster",
] as $what => $connection) {
    echo "$what: ";
    try {
        $l = rl_long('gcra', $connection, "$p:$what", 2);
        echo $yn([$l->consume('x'), $l->consume('x'), $l->consume('x')]), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $show($e->getMessage()), "\n";
    }
}
?>
--EXPECTF--
-- DSN
fixed    YYYn  counter '3'
sliding  YYYn  entries 3
blocks   YYYn  counted in the slices 3
token    YYYn  tokens 0.0
leaky    YYYn  level 3.0
gcra     YYYn  TAT 3.0 intervals ahead
-- array
fixed    YYYn  counter '3'
sliding  YYYn  entries 3
blocks   YYYn  counted in the slices 3
token    YYYn  tokens 0.0
leaky    YYYn  level 3.0
gcra     YYYn  TAT 3.0 intervals ahead
-- what cannot work
no cafile (the system trust store): RateLimiterException: Redis at rediss-sentinel://127.0.0.1:PORT#mymaster: no sentinel answered (127.0.0.1:PORT: TLS handshake failed: the server's certificate does not verify: it is not signed by a trusted CA (cafile))
verify_peer=0: YYn
plain to a TLS sentinel: RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT#mymaster: no sentinel answered (127.0.0.1:PORT: %s)
