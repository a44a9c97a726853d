--TEST--
Redis paused past the timeout (CLIENT PAUSE), 8 processes at full speed on one limiter (1,000 a minute), on_error=local: local answers within the share, no call waits, back to Redis within a retry interval, at most once
--CONFLICTS--
heavy
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/outage.inc';
foreach (RL_OUTAGE_INI as $k => $v) ini_set($k, $v);
ini_set("log_errors", "1");
ini_set('error_log', $log = tempnam(sys_get_temp_dir(), 'rl-log'));
$server = rl_start_redis();
$port = $server['port'];
$prefix = rl_prefix('paused');
$admin = rl_redis($port);
$pause = null;
$children = rl_outage(
    fn () => new SlidingWindowRateLimiter("redis://127.0.0.1:$port", $prefix, 60, 1000),
    8, 0.2, 1.2, 2.4,
    function () use ($admin, &$pause) { $pause = rl_client_pause($admin, 1000); },
    function () use ($admin, &$pause) { rl_client_unpause($admin, $pause); },
);
rl_outage_report($children, 1.0, 100, true, true);
// Every call Redis admitted is in the log once; a call that timed out may have run when the pause ended, once.
$held = (int) $admin->rawCommand('ZCARD', "$prefix:u");
$admitted = rl_redis_allowed($children, 0) + rl_redis_allowed($children, 1) + rl_redis_allowed($children, 2);
echo "at most once: ", var_export($held >= $admitted && $held <= $admitted + rl_slow_calls($children) && $held <= 1000, true), " ($held, $admitted)\n";
rl_stop_redis($server);
unlink($log);
?>
--EXPECTF--
children ran: true
local answers admit at most the share per process: true
at most one call per interval waits a timeout: true
no call waits more than a probe's timeouts: true
p99 latency in the outage within 20 ms: true
back to Redis within one retry interval: true
no call failed: true
-- measured
%A
at most once: true (%d, %d)
