--TEST--
A read-only replica: every class's peek() and a compound's peek() answer there, the same as the master's (FCALL_RO of the no-writes functions, or the script form on Redis 6); consume(), consumeMany() and reset() there fail with READONLY and write nothing
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$master = rl_start_redis(RL_MASTER_ARGS);
$replica = rl_start_redis(['--replicaof', '127.0.0.1', (string) $master['port']]);
$m = rl_redis($master['port']);
$r = rl_redis($replica['port']);
echo "replica linked: ", var_export(rl_wait_linked($r), true), "\n";

$masterUrl = 'redis://127.0.0.1:' . $master['port'];
$replicaUrl = 'redis://127.0.0.1:' . $replica['port'];
$brief = fn (RateLimitResult $x) => ($x->allowed ? 'Y' : 'n') . $x->remaining;
$readonly = function (callable $f): string {
    try {
        $f();
        return 'no exception';
    } catch (RateLimiterException $e) {
        return str_contains($e->getMessage(), 'READONLY') ? 'READONLY' : $e->getMessage();
    }
};
foreach (rl_classes() as $kind => $c) {
    $onMaster = rl_long($kind, $masterUrl, "p:$kind", 4);
    $onReplica = rl_long($kind, $replicaUrl, "p:$kind", 4);
    $onMaster->consume('a', 3);
    rl_wait_replica_copy($m, $r, ["p:$kind:a"]);
    $before = $r->dump("p:$kind:a");
    printf("%-8s master peek %s, replica peek %s; replica consume %s, consumeMany %s, reset %s; state unchanged %s\n", $kind,
        $brief($onMaster->peek('a')), $brief($onReplica->peek('a')),
        $readonly(fn () => $onReplica->consume('a')), $readonly(fn () => $onReplica->consumeMany(['a', 'b'])),
        $readonly(fn () => $onReplica->reset('a')),
        var_export($r->dump("p:$kind:a") === $before && $before !== false && $m->dump("p:$kind:a") === $before, true));
}
$members = fn (string $url) => [rl_long('token', $url, 'c:t', 3), rl_long('gcra', $url, 'c:g', 5)];
(new CompoundRateLimiter($members($masterUrl)))->consume('k', 2);
rl_wait_replica_copy($m, $r, ['c:t:k', 'c:g:k']);
$compound = new CompoundRateLimiter($members($replicaUrl));
echo "compound replica peek ", $brief($compound->peek('k')), ", consume ", $readonly(fn () => $compound->consume('k')), "\n";
echo "the replica has no key of its own: ", var_export($r->dbSize() === $m->dbSize(), true), "\n";
rl_stop_redis($replica);
rl_stop_redis($master);
?>
--EXPECT--
replica linked: true
fixed    master peek Y1, replica peek Y1; replica consume READONLY, consumeMany READONLY, reset READONLY; state unchanged true
sliding  master peek Y1, replica peek Y1; replica consume READONLY, consumeMany READONLY, reset READONLY; state unchanged true
blocks   master peek Y1, replica peek Y1; replica consume READONLY, consumeMany READONLY, reset READONLY; state unchanged true
token    master peek Y1, replica peek Y1; replica consume READONLY, consumeMany READONLY, reset READONLY; state unchanged true
leaky    master peek Y1, replica peek Y1; replica consume READONLY, consumeMany READONLY, reset READONLY; state unchanged true
gcra     master peek Y1, replica peek Y1; replica consume READONLY, consumeMany READONLY, reset READONLY; state unchanged true
compound replica peek Y1, consume READONLY
the replica has no key of its own: true
