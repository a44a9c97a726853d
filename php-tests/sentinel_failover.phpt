--TEST--
Redis Sentinel failover under load: 8 processes on one token bucket while the master is killed (kill -9): no process crashes, every call decides or raises RateLimiterException within a bounded time, the sentinels promote the replica and calls decide again on it without a restart, and no more than the limit is ever accepted (the state was replicated before the kill)
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
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels();
$dsn = 'redis-sentinel://' . implode(',', $set['sentinels']) . '#mymaster';
$old = $set['master'];
$new = $set['replicas'][0];
$r = rl_sentinel_failover_run($set, $dsn, rl_prefix('hot'),
    fn (RlClient $master, RlClient $replica, array $set) => posix_kill($set['pids'][$set['master']], SIGKILL),
    // Done when every sentinel names the replica as master.
    fn (array $set) => array_sum(array_map(fn ($port) => rl_sentinel_master_port($set, $port) === $new ? 1 : 0, $set['sentinel_ports'])) === 3,
);
rl_sentinel_failover_report($r);
echo "some calls failed during the failover: ", $r['errors'] > 0 ? 'yes' : 'no', "\n";
echo "decided again within 10 s: ", $r['recovered'] < 10 ? 'yes' : sprintf('no (%.2f s)', $r['recovered']), "\n";
?>
--EXPECTF--
bucket before: tokens 0.0, replicas that had it: 1
the failover completed: yes
children that ended otherwise than by their own SIGKILL: 0
other exceptions: none
accepted: exactly the limit
every child decides again after its last failure: yes
decisions taken on the promoted replica: some
every call within 3 s: yes
measured: %s
%A
some calls failed during the failover: yes
decided again within 10 s: yes
