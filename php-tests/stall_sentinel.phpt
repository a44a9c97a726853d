--TEST--
At most once, Redis Sentinel: a call whose master stalls (DEBUG SLEEP, CLIENT PAUSE ALL, SIGSTOP) fails within ratelimit.timeout saying the decision may have been counted, and applies at most one unit, for every algorithm; 8 processes through a stall accept at most the limit and apply at most one unit per failed call
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
require __DIR__ . '/sentinel.inc';
require __DIR__ . '/stall.inc';
$set = rl_start_sentinels(1, 3, rl_debug_args());
$dsn = 'redis-sentinel://' . implode(',', $set['sentinels']) . '#' . $set['service'];
$at = fn (string $keyPrefix, string $id) => ['pid' => $set['pids'][$set['master']], 'client' => fn () => rl_redis($set['master'])];
$p = rl_prefix();
rl_stall_each_call($dsn, $p, $at, ['DEBUG SLEEP', 'CLIENT PAUSE ALL', 'SIGSTOP']);
rl_stall_hammer_report('DEBUG SLEEP', rl_stall_hammer($dsn, "$p:hammer", $at, rl_stalls()['DEBUG SLEEP']));
?>
--EXPECT--
DEBUG SLEEP        fixed    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        sliding  failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        token    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        leaky    failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
DEBUG SLEEP        gcra     failed, may have been counted; units applied <= 1: yes; within 0.39 s: yes
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
8 processes through DEBUG SLEEP: accepted <= limit: yes; accepted <= applied <= accepted + failed: yes; some failed: yes; every call within 0.59 s: yes
