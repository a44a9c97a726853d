--TEST--
Redis Sentinel: SENTINEL FAILOVER of a live master while 8 processes call consume() on one token bucket: no process crashes, calls keep deciding, every process leaves the old master within about a second of the sentinels naming the new one (it re-confirms the master once a second), so the old master gets at most about one second's worth of scripts after the switch, and exactly the limit is accepted
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.5
ratelimit.timeout=0.5
ratelimit.retry_interval=0
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels();
$dsn = 'redis-sentinel://' . implode(',', $set['sentinels']) . '#mymaster';
$old = rl_redis($set['master']);
$new = $set['replicas'][0];
/** Scripts $r was sent (run, failed or rejected with READONLY: any counts). */
$scripts = fn (RlClient $r): int => rl_library_calls($r, true);
// The load's rate on the old master before the failover: "one second's worth".
$perSecond = 0.0;
// When the first sentinel named the new master; the old master's scripts then,
// and when they last grew.
$switched = $atSwitch = $lastGrowth = $seen = null;
$r = rl_sentinel_failover_run($set, ['sentinel' => $set['sentinels'], 'service' => 'mymaster'], rl_prefix('hot'),
    function (RlClient $master, RlClient $replica, array $set) use ($scripts, &$perSecond) {
        [$n0, $t0] = [$scripts($master), microtime(true)];
        usleep(500000);
        $perSecond = ($scripts($master) - $n0) / (microtime(true) - $t0);
        rl_sentinel($set, $set['sentinel_ports'][0])->rawCommand('SENTINEL', 'FAILOVER', 'mymaster');
    },
    // Done when every sentinel names the replica and the old master has had
    // no script for 1.5 s (without the re-check that takes until the
    // sentinels demote it, ~11 s later, and the time below says so).
    function (array $set) use ($old, $new, $scripts, &$switched, &$atSwitch, &$lastGrowth, &$seen) {
        $now = microtime(true);
        $n = $scripts($old);
        $naming = array_sum(array_map(fn ($port) => rl_sentinel_master_port($set, $port) === $new ? 1 : 0, $set['sentinel_ports']));
        if ($switched === null) {
            if ($naming > 0) [$switched, $atSwitch, $lastGrowth, $seen] = [$now, $n, $now, $n];
            return false;
        }
        if ($n > $seen) [$lastGrowth, $seen] = [$now, $n];
        return $naming === 3 && $now - $lastGrowth > 1.5;
    },
);
rl_sentinel_failover_report($r);
$after = $seen - $atSwitch;
$movedAfter = $lastGrowth - $switched;
$lastRun = $scripts($old) - $seen;
echo "decisions left the old master within 2 s of the switch: ", $movedAfter < 2.0 ? 'yes' : sprintf('no (%.2f s)', $movedAfter), "\n";
echo "scripts the old master got after the switch, at most about one second's worth: ",
    $after <= 1.5 * $perSecond ? 'yes' : sprintf('no (%d, %.0f a second)', $after, $perSecond), "\n";
echo "scripts the old master got in the run's last 2.5 s: $lastRun\n";
printf("measured: last script on the old master %.2f s after the first sentinel named the new one; %d scripts there after it, %.0f a second before the failover (%.2f s worth)\n",
    $movedAfter, $after, $perSecond, $perSecond > 0 ? $after / $perSecond : 0);
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
%Adecisions left the old master within 2 s of the switch: yes
scripts the old master got after the switch, at most about one second's worth: yes
scripts the old master got in the run's last 2.5 s: 0
measured: %s
