--TEST--
Redis Sentinel: SENTINEL FAILOVER while 8 processes call consume() on one token bucket: no process crashes, calls keep deciding (or raise RateLimiterException) within a bounded time, decisions move to the promoted replica once the sentinels demote the old master (which drops its clients), the old master is never written after, and exactly the limit is accepted
--SKIPIF--
<?php $needs = ['redis', 'posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.5
ratelimit.timeout=0.5
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels();
$dsn = 'redis-sentinel://' . implode(',', $set['sentinels']) . '#mymaster';
$old = rl_redis($set['master']);
$new = $set['replicas'][0];
$r = rl_sentinel_failover_run($set, ['sentinel' => $set['sentinels'], 'service' => 'mymaster'], rl_prefix('hot'),
    fn (Redis $master, Redis $replica, array $set) => rl_sentinel($set, $set['sentinel_ports'][0])->rawCommand('SENTINEL', 'FAILOVER', 'mymaster'),
    // Done when every sentinel names the replica, and the old master has been
    // made its replica (its scripts are counted from then on).
    function (array $set) use ($old, $new) {
        $done = array_sum(array_map(fn ($port) => rl_sentinel_master_port($set, $port) === $new ? 1 : 0, $set['sentinel_ports'])) === 3
            && $old->rawCommand('ROLE')[0] === 'slave';
        if ($done) $old->rawCommand('CONFIG', 'RESETSTAT');
        return $done;
    },
);
rl_sentinel_failover_report($r);
$scripts = 0;
foreach ($old->info('commandstats') as $name => $line) {
    // Run, failed or rejected (READONLY): any script sent to it counts.
    if (in_array($name, ['cmdstat_fcall', 'cmdstat_evalsha', 'cmdstat_eval'], true) && preg_match_all('/(?:^|,)(?:calls|rejected_calls)=(\d+)/', $line, $m)) $scripts += array_sum($m[1]);
}
echo "scripts sent to the old master after its demotion: $scripts\n";
echo "the old master's role afterwards: ", $old->rawCommand('ROLE')[0], "\n";
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
%Ascripts sent to the old master after its demotion: 0
the old master's role afterwards: slave
