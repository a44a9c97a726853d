--TEST--
Laravel drop-in on a TLS server through the predis client: scheme tls and a rediss:// URL, with ssl options (cafile, verify_peer, local_cert, local_pk); stock's keys, exact under 8 processes, one round trip per request
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';
require __DIR__ . '/../tls.inc';
require __DIR__ . '/laravel_topology.inc';
rl_laravel_need_predis();

$server = rl_start_tls_redis('server', false, true);
$plain = fn () => rl_redis($server['port']);
rl_laravel_on('scheme tls, ssl: cafile, verify_peer', rl_laravel_tls_redis('predis', $server, 'scheme'), $plain, [$plain()]);
rl_laravel_on('url rediss://', rl_laravel_tls_redis('predis', $server, 'url'), $plain, [$plain()], false);
// A server that requires a client certificate.
$strict = rl_start_tls_redis('server', true, true);
rl_laravel_on('client certificate: local_cert, local_pk', rl_laravel_tls_redis('predis', $strict, 'scheme', true), fn () => rl_redis($strict['port']), [], false);
?>
--EXPECT--
== scheme tls, ssl: cafile, verify_peer
in charge: the drop-in
throttle:5,1: stock 200/4, stock 200/3, stock 200/2, drop-in 200/1, drop-in 200/0, drop-in 429/0, drop-in 429/0
stock's key '5', ttl set
8 processes on throttle:120,1: 120 of 240 accepted, counter 120
8 processes on 100 per IP + 50 per user: 50 of 160 accepted, counters 50 and 50
/race: 1.00 round trips per request (10x200)
/fixed: 1.00 round trips per request (4x200,4x429)
/two: 1.00 round trips per request (1x200)
== url rediss://
in charge: the drop-in
throttle:5,1: stock 200/4, stock 200/3, stock 200/2, drop-in 200/1, drop-in 200/0, drop-in 429/0, drop-in 429/0
stock's key '5', ttl set
== client certificate: local_cert, local_pk
in charge: the drop-in
throttle:5,1: stock 200/4, stock 200/3, stock 200/2, drop-in 200/1, drop-in 200/0, drop-in 429/0, drop-in 429/0
stock's key '5', ttl set
