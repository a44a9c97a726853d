--TEST--
At most once, Redis Cluster (3 masters): a call whose key's master stalls (DEBUG SLEEP, CLIENT PAUSE WRITE and ALL, SIGSTOP) is sent once, fails within ratelimit.timeout saying the decision may have been counted, and applies at most one unit, for every algorithm (the cluster client used to send a timed-out command again, and the stalled master ran every copy); 8 processes through a stall accept at most the limit and apply at most one unit per failed call
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
require __DIR__ . '/cluster.inc';
require __DIR__ . '/stall.inc';
$cluster = rl_start_cluster(3, 0, extra: rl_debug_args());
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$at = function (string $keyPrefix, string $id) use ($cluster) {
    $port = rl_cluster_owner_port($cluster, "$keyPrefix:{" . $id . "}");
    return ['pid' => $cluster['pids'][array_search($port, $cluster['ports'], true)], 'client' => fn () => rl_cluster_node($cluster, $port)];
};
$p = rl_prefix();
rl_stall_each_call($dsn, $p, $at);
rl_stall_other_calls($dsn, "$p:other", $at);
foreach (['DEBUG SLEEP', 'SIGSTOP'] as $name) {
    rl_stall_hammer_report($name, rl_stall_hammer($dsn, "$p:hammer:" . strtr($name, ' ', '_'), $at, rl_stalls()[$name]));
}
?>
--EXPECT--
DEBUG SLEEP        fixed    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        sliding  failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        token    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        leaky    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        gcra     failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE WRITE fixed    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE WRITE sliding  failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE WRITE token    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE WRITE leaky    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE WRITE gcra     failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE ALL   fixed    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE ALL   sliding  failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE ALL   token    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE ALL   leaky    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
CLIENT PAUSE ALL   gcra     failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            fixed    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            sliding  failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            token    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            leaky    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
SIGSTOP            gcra     failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
consumeMany  failed, may have been counted; units applied <= 1 each: yes; within 0.39 s: yes
compound     failed, may have been counted; units applied <= 1 each: yes; within 0.39 s: yes
throttle     failed, may have been counted; units applied <= 1 each: yes; within 0.39 s: yes
reset        failed, may have been counted; units applied <= 1 each: yes; within 0.39 s: yes
8 processes through DEBUG SLEEP: accepted <= limit: yes; accepted <= applied <= accepted + failed: yes; some failed: yes; every call within 0.59 s: yes
8 processes through SIGSTOP: accepted <= limit: yes; accepted <= applied <= accepted + failed: yes; some failed: yes; every call within 0.59 s: yes
