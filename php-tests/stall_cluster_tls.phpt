--TEST--
At most once, Redis Cluster over TLS (3 masters): a call whose key's master stalls (DEBUG SLEEP, SIGSTOP) is sent once, fails within ratelimit.timeout saying the decision may have been counted, and applies at most one unit, for every algorithm
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
ratelimit.timeout=0.2
ratelimit.connect_timeout=0.2
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/tls.inc';
require __DIR__ . '/cluster.inc';
require __DIR__ . '/stall.inc';
$cluster = rl_start_cluster(3, 0, tls: true, extra: rl_debug_args());
$dsn = 'rediss-cluster://' . implode(',', $cluster['seeds']) . '?cafile=' . rawurlencode($cluster['tls'] . '/ca.pem');
$at = function (string $keyPrefix, string $id) use ($cluster) {
    $port = rl_cluster_owner_port($cluster, "$keyPrefix:{" . $id . "}");
    return ['pid' => $cluster['pids'][array_search($port, $cluster['ports'], true)], 'client' => fn () => rl_cluster_node($cluster, $port)];
};
rl_stall_each_call($dsn, rl_prefix(), $at, ['DEBUG SLEEP', 'SIGSTOP']);
?>
--EXPECT--
DEBUG SLEEP        fixed    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        sliding  failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        token    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        leaky    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        gcra     failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            fixed    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            sliding  failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            token    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            leaky    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            gcra     failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
