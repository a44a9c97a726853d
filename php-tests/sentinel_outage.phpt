--TEST--
Redis Sentinel: the sentinels going away (hanging, then refusing) does not stop decisions on a master already connected: the once-a-second re-check of the master gets no answer and the connection is kept, a hanging sentinel slows at most one call a second (by the reply timeout), refused ones slow none, and every call is counted on the one master
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.3
ratelimit.timeout=0.3
ratelimit.retry_interval=0
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels();
$p = rl_prefix('outage');
// At most the calls the two phases must decide (more than 60 + 40), so that
// "exactly the limit" holds on a slow machine too: it once made 141 calls.
$limit = 100;
$l = rl_long('fixed', 'redis-sentinel://' . implode(',', $set['sentinels']) . '#mymaster', $p, $limit);
$accepted = (int) $l->consume('x')->allowed; // connected: the master is confirmed now

/** Calls for $seconds: [calls, accepted, failures, calls slower than 0.25 s, longest]. */
$load = function (float $seconds) use ($l, &$accepted): array {
    $calls = $failures = $slow = 0;
    $longest = 0.0;
    for ($t0 = microtime(true); microtime(true) - $t0 < $seconds; usleep(10000)) {
        $start = microtime(true);
        try {
            $accepted += (int) $l->consume('x')->allowed;
            $calls++;
        } catch (RateLimiterException $e) {
            $failures++;
            echo "  failure: ", preg_replace('/\d{4,5}/', 'PORT', $e->getMessage()), "\n";
        }
        $took = microtime(true) - $start;
        $longest = max($longest, $took);
        if ($took > 0.25) $slow++;
    }
    return [$calls, $failures, $slow, $longest];
};

echo "-- every sentinel hangs (SIGSTOP: connections accepted, never answered)\n";
foreach ($set['sentinel_ports'] as $port) posix_kill($set['pids'][$port], SIGSTOP);
[$calls, $failures, $slow, $longest] = $load(2.4);
echo "calls decided: ", $calls > 60 ? 'yes' : "only $calls", ", failures: $failures\n";
// A re-check is due 1 s after the last one, which itself waits 0.3 s: one or two in 2.4 s.
echo "calls slowed by a re-check: ", $slow >= 1 && $slow <= 3 ? 'one a second at most' : $slow, "\n";
echo "longest call within the reply timeout and some slack: ", $longest < 1.0 ? 'yes' : sprintf('no (%.2f s)', $longest), "\n";
$hanging = sprintf('%d calls, %d slowed, longest %.2f s', $calls, $slow, $longest);

echo "-- every sentinel gone (connections refused)\n";
foreach ($set['sentinel_ports'] as $port) posix_kill($set['pids'][$port], SIGKILL);
[$calls, $failures, $slow, $longest] = $load(1.5);
echo "calls decided: ", $calls > 40 ? 'yes' : "only $calls", ", failures: $failures\n";
echo "calls slowed: $slow\n";
printf("measured: hanging: %s; refused: %d calls, longest %.3f s\n", $hanging, $calls, $longest);

echo "accepted: ", $accepted === $limit ? 'exactly the limit' : "$accepted of $limit", "\n";
echo "state on the master: ", rl_state('fixed', rl_redis($set['master']), "$p:x", $limit), "\n";
?>
--EXPECTF--
-- every sentinel hangs (SIGSTOP: connections accepted, never answered)
calls decided: yes, failures: 0
calls slowed by a re-check: one a second at most
longest call within the reply timeout and some slack: yes
-- every sentinel gone (connections refused)
calls decided: yes, failures: 0
calls slowed: 0
measured: %s
accepted: exactly the limit
state on the master: %s
