--TEST--
A target that accepts connections and never answers, 8 processes at full speed on one limiter (1,000 a minute), on_error=local: one slow call per retry interval, local answers within the share
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
$silent = rl_silent_server();
$children = rl_outage(
    fn () => new SlidingWindowRateLimiter($silent['url'], rl_prefix('silent'), 60, 1000),
    8, 0.0, 1.2, 1.2, function () {}, function () {},
);
rl_outage_report($children, 1.2, 100, false, true);
// One warning per opening: each child opened its own breaker once (a failed probe is not another opening).
$lines = array_filter(explode("\n", file_get_contents($log)), fn ($l) => str_contains($l, 'could not be reached'));
echo "one warning per process: ", var_export(count($lines) === 8, true), "\n";
unlink($log);
?>
--EXPECTF--
children ran: true
local answers admit at most the share per process: true
at most one call per interval waits a timeout: true
no call waits more than a probe's timeouts: true
p99 latency in the outage within 20 ms: true
no call failed: true
-- measured
%A
one warning per process: true
