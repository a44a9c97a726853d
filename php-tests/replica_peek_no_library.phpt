--TEST--
A read-only replica that has no copy of the function library (its master decided through the server module, which the replica lacks, or nothing has decided yet): every class's peek() and a compound's peek() answer there, the same as the master's, by the read-only script form (EVALSHA_RO; EVALSHA on Redis 6), with no FUNCTION LOAD and no write attempted; consume() there still fails READONLY, and ratelimit.on_error applies
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
// The master decides by the server module (so nothing loads the Lua
// library); the replica loads no module, in both passes of the suite.
$master = rl_start_redis([...RL_MASTER_ARGS, '--loadmodule', RL_MODULE_SO], passModule: false);
$replica = rl_start_redis(['--replicaof', '127.0.0.1', (string) $master['port']], passModule: false);
$m = rl_redis($master['port']);
$r = rl_redis($replica['port']);
echo "replica linked: ", var_export(rl_wait_linked($r), true), "\n";
$masterUrl = 'redis://127.0.0.1:' . $master['port'];
$replicaUrl = 'redis://127.0.0.1:' . $replica['port'];
$brief = fn (RateLimitResult $x) => ($x->allowed ? 'Y' : 'n') . $x->remaining;

echo "-- before anything decided: every peek answers the full limit\n";
$line = [];
foreach (rl_classes() as $kind => $c) $line[] = "$kind " . $brief(rl_long($kind, $replicaUrl, "p:$kind", 4)->peek('a'));
echo implode(', ', $line), "\n";

echo "-- after the master decided (by its module): the replica's peeks equal the master's\n";
foreach (rl_classes() as $kind => $c) {
    rl_long($kind, $masterUrl, "p:$kind", 4)->consume('a', 3);
}
$members = fn (string $url) => [rl_long('token', $url, 'c:t', 3), rl_long('gcra', $url, 'c:g', 5)];
(new CompoundRateLimiter($members($masterUrl)))->consume('k', 2);
$keys = array_merge(array_map(fn ($kind) => "p:$kind:a", array_keys(rl_classes())), ['c:t:k', 'c:g:k']);
echo "state on the replica: ", var_export(rl_wait_replica_copy($m, $r, $keys), true), "\n";
// The commands the replica runs from here on are the peeks' own (the
// master is idle: no replicated write comes in between).
$calls = function () use ($r): array {
    $n = [];
    foreach ($r->info('commandstats') as $k => $v) if (preg_match('/^calls=(\d+)/', (string) $v, $c)) $n[substr($k, 8)] = (int) $c[1];
    return $n;
};
$before = $calls();
foreach (rl_classes() as $kind => $c) {
    printf("%-8s master %s, replica %s\n", $kind, $brief(rl_long($kind, $masterUrl, "p:$kind", 4)->peek('a')), $brief(rl_long($kind, $replicaUrl, "p:$kind", 4)->peek('a')));
}
echo "compound master ", $brief((new CompoundRateLimiter($members($masterUrl)))->peek('k')), ", replica ", $brief((new CompoundRateLimiter($members($replicaUrl)))->peek('k')), "\n";

echo "-- what the replica was sent\n";
echo "decided by the module on the master: ", var_export(rl_calls_by_path($m)['module'] > 0 && rl_calls_by_path($m)['lua'] === 0, true), "\n";
$after = $calls();
$ran = array_keys(array_filter($after, fn ($n, $c) => $n > ($before[$c] ?? 0), ARRAY_FILTER_USE_BOTH));
$scripted = rl_server_has($r, 'FCALL') ? 'evalsha_ro' : 'evalsha';
echo "read by the read-only script form: ", var_export(in_array($scripted, $ran, true), true), "\n";
// Every command the peeks ran, their scripts' own included, reads only.
$writes = ['fcall', 'eval', 'set', 'del', 'unlink', 'incrby', 'incrbyfloat', 'zadd', 'zrem', 'zremrangebyscore', 'zincrby', 'hset', 'hincrby', 'hdel', 'pexpire', 'pexpireat', 'expire'];
$wrote = array_filter($ran, fn ($c) => str_starts_with($c, 'function') || in_array($c, $writes, true));
echo "no FUNCTION LOAD, no write command: ", $wrote ? 'ran ' . implode(', ', $wrote) : 'none', "\n";
echo "the replica holds no function library: ", var_export(!rl_server_has($r, 'FCALL') || $r->rawCommand('FUNCTION', 'LIST') === [], true), "\n";

echo "-- consume() on the replica\n";
$onReplica = rl_long('token', $replicaUrl, 'p:token', 4);
rl_throws(fn () => $onReplica->consume('a'));
ini_set('ratelimit.on_error', 'allow');
echo "on_error=allow: ", $brief($onReplica->consume('a')), "\n";
rl_stop_redis($replica);
rl_stop_redis($master);
?>
--EXPECTF--
replica linked: true
-- before anything decided: every peek answers the full limit
fixed Y4, sliding Y4, blocks Y4, token Y4, leaky Y4, gcra Y4
-- after the master decided (by its module): the replica's peeks equal the master's
state on the replica: true
fixed    master Y1, replica Y1
sliding  master Y1, replica Y1
blocks   master Y1, replica Y1
token    master Y1, replica Y1
leaky    master Y1, replica Y1
gcra     master Y1, replica Y1
compound master Y1, replica Y1
-- what the replica was sent
decided by the module on the master: true
read by the read-only script form: true
no FUNCTION LOAD, no write command: none
the replica holds no function library: true
-- consume() on the replica
RateLimiterException: Redis at redis://127.0.0.1:%d: READONLY You can't write against a read only replica.%w
on_error=allow: Y4
