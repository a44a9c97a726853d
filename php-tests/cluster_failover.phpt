--TEST--
Redis Cluster failover under load: 8 processes on one token bucket while the master owning its key is killed (kill -9): no process crashes, every call decides or raises RateLimiterException within a bounded time, calls decide again once the replica is promoted, and no more than the limit is ever accepted (the state was replicated before the kill)
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
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
$r = rl_cluster_failover_run($cluster, $dsn, rl_prefix('hot'), function (RlClient $master, ?RlClient $replica, array $pidByPort) {
    posix_kill($pidByPort[(int) $master->rawCommand('CONFIG', 'GET', 'port')[1]], SIGKILL);
});
rl_cluster_failover_report($r);
echo "some calls failed during the failover: ", $r['errors'] > 0 ? 'yes' : 'no', "\n";
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
some calls failed during the failover: yes
