--TEST--
At most once through a failover, Redis Cluster: the master owning a token bucket's key is stopped (SIGSTOP) under 8 processes until its replica is promoted, then continued (it comes back as a replica): no process crashes, calls decide again on the new master, every call returns within its bound, and the bucket holds at most one unit per failed call beyond what was accepted (the commands the stopped master held are never sent again elsewhere)
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
$prefix = rl_prefix('stalled');
$limit = 1000000;
$r = rl_cluster_failover_run($cluster, $dsn, $prefix, function (RlClient $master, ?RlClient $replica, array $pidByPort) {
    $pid = $pidByPort[(int) $master->rawCommand('CONFIG', 'GET', 'port')[1]];
    posix_kill($pid, SIGSTOP);
    // Until the replica is master (cluster-node-timeout 2 s), and a moment more.
    $deadline = microtime(true) + 15;
    while (($replica?->info('replication')['role'] ?? '') !== 'master' && microtime(true) < $deadline) usleep(100000);
    usleep(500000);
    posix_kill($pid, SIGCONT);
}, limit: $limit);
echo "children that ended otherwise than by their own SIGKILL: {$r['crashed']}\n";
echo "other exceptions: ", $r['other'] ?: 'none', "\n";
echo "some calls failed while the master was stopped: ", $r['errors'] > 0 ? 'yes' : 'no', "\n";
echo "every child decides again after its last failure: ", $r['decided_after'] ? 'yes' : 'no', "\n";
// A call waits its timeout for replies, plus the connect timeout for each
// connection it opens (the cluster's nodes, the slot map read again), and 10 ms
// between tries while the cluster is down.
echo "every call within 3 s: ", $r['max_call'] < 3 ? 'yes' : sprintf('no (%.2f s)', $r['max_call']), "\n";
// The bucket refills limit per day: about 12 units per second of the run.
$applied = $limit - rl_long('token', $dsn, $prefix, $limit, 86400.0)->peek('x')->remaining;
echo "units applied <= accepted + failed: ", $applied <= $r['accepted'] + $r['errors'] ? 'yes' : "NO (applied $applied, accepted {$r['accepted']}, failed {$r['errors']})", "\n";
printf("measured: accepted %d, failed %d, applied %d, decided again %.2f s after, longest call %.2f s\n", $r['accepted'], $r['errors'], $applied, $r['recovered'], $r['max_call']);
?>
--EXPECTF--
children that ended otherwise than by their own SIGKILL: 0
other exceptions: none
some calls failed while the master was stopped: yes
every child decides again after its last failure: yes
every call within 3 s: yes
units applied <= accepted + failed: yes
measured: accepted %d, failed %d, applied %d, decided again %s s after, longest call %s s
