--TEST--
Laravel drop-in on a 3-master Redis Cluster through the phpredis client (database.redis.clusters, options.cluster = redis), plain and TLS: stock's keys in stock's slots, exact under 8 processes, one round trip per request and limit
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php $phpredis = 'Laravel on the phpredis client'; require __DIR__ . '/../skipif.inc'; ?>
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';
require __DIR__ . '/../tls.inc';
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/laravel_topology.inc';

$cluster = rl_start_cluster(3, 0);
rl_laravel_on('cluster', rl_laravel_cluster_redis('phpredis', $cluster), fn ($key) => rl_cluster_owner($cluster, $key), array_values(rl_cluster_masters($cluster)));
$tls = rl_start_cluster(3, 0, true);
rl_laravel_on('TLS cluster, options.context: cafile, verify_peer', rl_laravel_cluster_redis('phpredis', $tls), fn ($key) => rl_cluster_owner($tls, $key), [], false);
?>
--EXPECT--
== cluster
in charge: the drop-in
throttle:5,1: stock 200/4, stock 200/3, stock 200/2, drop-in 200/1, drop-in 200/0, drop-in 429/0, drop-in 429/0
stock's key '5', ttl set
8 processes on throttle:120,1: 120 of 240 accepted, counter 120
8 processes on 100 per IP + 50 per user: 50 of 160 accepted, counters 100 and 50
/race: 1.00 round trips per request (10x200)
/fixed: 1.00 round trips per request (4x200,4x429)
/two: 2.00 round trips per request (1x200)
== TLS cluster, options.context: cafile, verify_peer
in charge: the drop-in
throttle:5,1: stock 200/4, stock 200/3, stock 200/2, drop-in 200/1, drop-in 200/0, drop-in 429/0, drop-in 429/0
stock's key '5', ttl set
