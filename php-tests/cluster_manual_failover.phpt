--TEST--
Redis Cluster: CLUSTER FAILOVER on the replica of the master owning a token bucket's key while 8 processes call consume(): no process crashes, calls keep deciding (or raise RateLimiterException) within a bounded time, the replica serves as master afterwards, and exactly the limit is accepted
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.5
ratelimit.timeout=0.5
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/cluster.inc';
$cluster = rl_start_cluster();
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$promoted = 'not asked';
$r = rl_cluster_failover_run($cluster, $dsn, rl_prefix('hot'), function (RlClient $master, ?RlClient $replica) use (&$promoted) {
    $replica->rawCommand('CLUSTER', 'FAILOVER');
    for ($i = 0; $i < 100 && $replica->rawCommand('ROLE')[0] !== 'master'; $i++) usleep(50000);
    $promoted = $replica->rawCommand('ROLE')[0];
}, runFor: 6.0);
rl_cluster_failover_report($r);
echo "the replica's role afterwards: $promoted\n";
?>
--EXPECTF--
bucket before: tokens 0.0, replicas that had it: 1
children that ended otherwise than by their own SIGKILL: 0
other exceptions: none
accepted: exactly the limit
every child decides again after its last failure: yes
decided again within 10 s: yes
every call within 3 s: yes
measured: accepted 200, denied %d, failed %d, first failure %s, decided again %s s after, longest call %s s
the replica's role afterwards: master
