--TEST--
At most once, one server: a call that meets a stalled server (DEBUG SLEEP, CLIENT PAUSE WRITE and ALL, SIGSTOP) fails within ratelimit.timeout, says the decision may have been counted, and applies at most one unit, for every algorithm (fixed window's pipeline included); against a listener that never answers every algorithm's call returns within the timeout; 8 processes through a stall accept at most the limit, and apply at most one unit per failed call
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
require __DIR__ . '/stall.inc';
$server = rl_start_redis(rl_debug_args());
$url = "redis://127.0.0.1:{$server['port']}";
$at = fn (string $keyPrefix, string $id) => ['pid' => $server['pid'], 'client' => fn () => rl_redis($server['port'])];
$p = rl_prefix();
rl_stall_each_call($url, $p, $at);
rl_stall_other_calls($url, "$p:other", $at);

echo "-- a listener that accepts and never answers\n";
$silent = rl_silent_server();
foreach (['fixed', 'sliding', 'token', 'leaky', 'gcra'] as $kind) {
    $l = rl_long($kind, $silent['url'], "$p:silent:$kind", 10);
    $t = microtime(true);
    rl_throws(fn () => $l->consume('id'));
    $took = microtime(true) - $t;
    printf("%-8s within %.2f s: %s\n", $kind, RL_STALL_BOUND, $took <= RL_STALL_BOUND ? 'yes' : sprintf('NO (%.3f s)', $took));
}

foreach (['DEBUG SLEEP', 'SIGSTOP'] as $name) {
    rl_stall_hammer_report($name, rl_stall_hammer($url, "$p:hammer:" . strtr($name, ' ', '_'), $at, rl_stalls()[$name]));
}
rl_stop_redis($server);
?>
--EXPECTF--
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
-- a listener that accepts and never answers
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out after 0.2 s; the decision may have been counted
fixed    within 0.39 s: yes
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out after 0.2 s; the decision may have been counted
sliding  within 0.39 s: yes
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out after 0.2 s; the decision may have been counted
token    within 0.39 s: yes
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out after 0.2 s; the decision may have been counted
leaky    within 0.39 s: yes
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out after 0.2 s; the decision may have been counted
gcra     within 0.39 s: yes
8 processes through DEBUG SLEEP: accepted <= limit: yes; accepted <= applied <= accepted + failed: yes; some failed: yes; every call within 0.59 s: yes
8 processes through SIGSTOP: accepted <= limit: yes; accepted <= applied <= accepted + failed: yes; some failed: yes; every call within 0.59 s: yes
