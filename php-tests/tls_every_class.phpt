--TEST--
TLS (rediss:// DSN and the phpredis array form): every class decides over a verified TLS connection with exact counts, consumeMany and CompoundRateLimiter too; the server sees the extension only on its TLS port; TLS and plain targets are separate pool entries
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/tls.inc';
// TLS port for the extension, a plain port for phpredis to look at the keys.
$server = rl_start_tls_redis(plain: true);
$certs = $server['certs'];
$tlsPort = $server['tls_port'];
$redis = rl_redis($server['port']);
$p = rl_prefix();
$dsn = "rediss://127.0.0.1:$tlsPort?cafile=" . rawurlencode("$certs/ca.pem");
$array = ['host' => '127.0.0.1', 'port' => $tlsPort, 'scheme' => 'tls', 'ssl' => ['cafile' => "$certs/ca.pem", 'verify_peer' => true]];
$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));

foreach (['DSN' => $dsn, 'array' => $array] as $form => $connection) {
    echo "-- $form\n";
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $connection, "$p:$form:$kind", 3);
        $seq = [];
        for ($i = 0; $i < 4; $i++) {
            $seq[] = $l->consume('id');
        }
        $many = $l->consumeMany(['m1', 'm1', 'm2']);
        printf("%-8s consume %s  consumeMany %s  %s\n", $kind, $yn($seq), $yn($many), rl_state($kind, $redis, "$p:$form:$kind:id", 3));
    }
    $compound = new CompoundRateLimiter([rl_long('fixed', $connection, "$p:$form:c1", 2), rl_long('gcra', $connection, "$p:$form:c2", 3)]);
    echo "compound ", $yn([$compound->consume('k'), $compound->consume('k'), $compound->consume('k')]), "  keys ", $redis->exists("$p:$form:c1:k", "$p:$form:c2:k"), "\n";
}

echo "-- where the extension's connections arrived\n";
$ports = [];
foreach ($redis->client('list') as $client) {
    if (($client['cmd'] ?? '') === 'client|list') continue; // phpredis itself, on the plain port
    // laddr (the port a client arrived at) is there from Redis 6.2; a Redis
    // 6.0 names only the client's side, so there only the extension's
    // connections being there is checked (tls_never_plain.phpt shows that
    // TLS never falls back to plain on any server).
    $ports[] = !isset($client['laddr']) ? 'TLS port' : ((int) substr(strrchr($client['laddr'], ':'), 1) === $tlsPort ? 'TLS port' : 'PLAIN PORT');
}
echo implode(', ', array_unique($ports)), "\n";

echo "-- one pool entry per TLS setting\n";
$insecure = new FixedWindowRateLimiter("rediss://127.0.0.1:$tlsPort?verify_peer=0", "$p:insecure", 60, 1);
echo "verify_peer=0: ", $yn([$insecure->consume(), $insecure->consume()]), "\n";
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
preg_match_all('/^(rediss?:\/\/127\.0\.0\.1:' . $tlsPort . '.*?) => (?:open|closed)/m', $info, $m);
echo implode("\n", array_map(fn ($t) => str_replace([$certs, (string) $tlsPort], ['CERTS', 'PORT'], trim($t)), array_unique($m[1]))), "\n";
?>
--EXPECT--
-- DSN
fixed    consume YYYn  consumeMany YYY  counter '3'
sliding  consume YYYn  consumeMany YYY  entries 3
blocks   consume YYYn  consumeMany YYY  counted in the slices 3
token    consume YYYn  consumeMany YYY  tokens 0.0
leaky    consume YYYn  consumeMany YYY  level 3.0
gcra     consume YYYn  consumeMany YYY  TAT 3.0 intervals ahead
compound YYn  keys 2
-- array
fixed    consume YYYn  consumeMany YYY  counter '3'
sliding  consume YYYn  consumeMany YYY  entries 3
blocks   consume YYYn  consumeMany YYY  counted in the slices 3
token    consume YYYn  consumeMany YYY  tokens 0.0
leaky    consume YYYn  consumeMany YYY  level 3.0
gcra     consume YYYn  consumeMany YYY  TAT 3.0 intervals ahead
compound YYn  keys 2
-- where the extension's connections arrived
TLS port
-- one pool entry per TLS setting
verify_peer=0: Yn
rediss://127.0.0.1:PORT cafile CERTS/ca.pem
rediss://127.0.0.1:PORT verify_peer=0
