--TEST--
Redis Cluster (3 masters, 3 replicas, started by the test): every class, consumeMany over ids of many slots and CompoundRateLimiter decide exactly through redis-cluster:// and the 'cluster' array; keys are prefix:{id}, a compound's keys share a slot; the function library reloads after FUNCTION FLUSH on every master; a slot moved to another master (MOVED) is followed; forked children share nothing and accept exactly the limit
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=2
ratelimit.timeout=2
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/cluster.inc';
$cluster = rl_start_cluster();
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$array = ['cluster' => array_slice($cluster['seeds'], 0, 2)];
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));
$any = rl_redis($cluster['ports'][0]);
foreach (rl_cluster_masters($cluster) as $r) $r->rawCommand('CONFIG', 'RESETSTAT');

foreach (['DSN' => $dsn, 'array' => $array] as $form => $connection) {
    echo "-- $form\n";
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $connection, "$p:$form:$kind", 3);
        $seq = [];
        for ($i = 0; $i < 4; $i++) $seq[] = $l->consume('id');
        // 30 ids land on slots of all three masters; each id twice, then the
        // first ten twice more: their 4th call is denied, wherever they live.
        $ids = array_map(fn ($i) => "m$i", range(1, 30));
        $many = $l->consumeMany(array_merge($ids, $ids, array_slice($ids, 0, 10), array_slice($ids, 0, 10)));
        $key = "$p:$form:$kind:{id}";
        printf("%-8s consume %s  consumeMany %s  %s\n", $kind, $yn($seq), $yn($many), rl_state($kind, rl_cluster_owner($cluster, $key), $key, 3));
    }
    $compound = new CompoundRateLimiter([rl_long('fixed', $connection, "$p:$form:c1", 2), rl_long('gcra', $connection, "$p:$form:c2", 3)]);
    echo "compound ", $yn([$compound->consume('k'), $compound->consume('k'), $compound->consume('k')]),
        "  consumeMany ", $yn($compound->consumeMany(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c'])), "\n";
    echo "  one slot: ", $any->rawCommand('CLUSTER', 'KEYSLOT', "$p:$form:c1:{k}") === $any->rawCommand('CLUSTER', 'KEYSLOT', "$p:$form:c2:{k}") ? 'yes' : 'NO', "\n";
    $compound->reset('k');
    echo "  reset: ", rl_cluster_owner($cluster, "$p:$form:c1:{k}")->exists("$p:$form:c1:{k}", "$p:$form:c2:{k}"), " keys left\n";
}

echo "-- a compound with the empty id: the bare prefixes are in different slots\n";
$c2 = new CompoundRateLimiter([rl_long('fixed', $dsn, "$p:e1", 2), rl_long('gcra', $dsn, "$p:e2", 3)]);
rl_throws(fn () => $c2->consume(''));

echo "-- masters that hold keys of the consumeMany above\n";
$holding = 0;
foreach (rl_cluster_masters($cluster) as $r) $holding += count($r->keys("$p:*")) > 0 ? 1 : 0;
echo "$holding of 3\n";

echo "-- what decided above: the server module where every master loaded it (make test's module pass), else the Lua library\n";
$calls = ['module' => 0, 'lua' => 0];
foreach (rl_cluster_masters($cluster) as $r) {
    foreach (rl_calls_by_path($r) as $path => $n) $calls[$path] += $n;
}
$expected = RL_MODULE === '' ? $calls['lua'] > 0 && $calls['module'] === 0 : $calls['module'] > 0 && $calls['lua'] === 0;
echo $expected ? "the expected path\n" : "unexpected: " . json_encode($calls) . "\n";

echo "-- FUNCTION FLUSH on every master: the library is loaded again (on every master)\n";
// The Lua library's own behaviour: pinned to it, the module loaded or not.
ini_set('ratelimit.server_module', 'off');
foreach (rl_cluster_masters($cluster) as $r) rl_library_flush($r);
$g = rl_long('gcra', $dsn, "$p:flush", 5);
echo $yn($g->consumeMany(array_map(fn ($i) => "f$i", range(1, 12)))), "\n";
echo implode(' ', array_map('rl_library_count', rl_cluster_masters($cluster))), "\n";
ini_restore('ratelimit.server_module');

echo "-- a slot moved to another master: MOVED is followed\n";
$l = rl_long('token', $dsn, "$p:moved", 3);
$key = "$p:moved:{x}";
echo $yn([$l->consume('x')]), "\n";
$from = rl_cluster_owner($cluster, $key);
$slot = $from->rawCommand('CLUSTER', 'KEYSLOT', $key);
$fromId = $from->rawCommand('CLUSTER', 'MYID');
foreach (rl_cluster_masters($cluster) as $port => $to) {
    if (($toId = $to->rawCommand('CLUSTER', 'MYID')) !== $fromId) break;
}
$to->rawCommand('CLUSTER', 'SETSLOT', $slot, 'IMPORTING', $fromId);
$from->rawCommand('CLUSTER', 'SETSLOT', $slot, 'MIGRATING', $toId);
$from->rawCommand('MIGRATE', '127.0.0.1', $port, '', 0, 5000, 'KEYS', $key);
foreach (rl_cluster_masters($cluster) as $r) $r->rawCommand('CLUSTER', 'SETSLOT', $slot, 'NODE', $toId);
echo "moved to another master: ", rl_cluster_owner($cluster, $key)->rawCommand('CLUSTER', 'MYID') === $toId ? 'yes' : 'no', "\n";
echo $yn([$l->consume('x'), $l->consume('x'), $l->consume('x')]), "  ", rl_state('token', $to, $key, 3), "\n";

echo "-- forked children (one cluster connection each): 4 x 40 on a limit of 100\n";
$shared = rl_long('fixed', $dsn, "$p:fork", 100);
$shared->peek('warm'); // the parent's connection is open before fork()
echo rl_hammer(fn () => $shared->consume('f')->allowed, 4, 40), " accepted\n";
echo "counter ", rl_cluster_owner($cluster, "$p:fork:{f}")->get("$p:fork:{f}"), " (on a cluster a cost-1 denial counts nothing: the library decides)\n";
?>
--EXPECTF--
-- DSN
fixed    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  counter '3'
sliding  consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  entries 3
blocks   consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  counted in the slices 3
token    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  tokens 0.0
leaky    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  level 3.0
gcra     consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  TAT 3.0 intervals ahead
compound YYn  consumeMany YYYYYYnnn
  one slot: yes
  reset: 0 keys left
-- array
fixed    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  counter '3'
sliding  consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  entries 3
blocks   consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  counted in the slices 3
token    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  tokens 0.0
leaky    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  level 3.0
gcra     consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  TAT 3.0 intervals ahead
compound YYn  consumeMany YYYYYYnnn
  one slot: yes
  reset: 0 keys left
-- a compound with the empty id: the bare prefixes are in different slots
RateLimiterException: Redis at redis-cluster://%s: CROSSSLOT %s
-- masters that hold keys of the consumeMany above
3 of 3
-- what decided above: the server module where every master loaded it (make test's module pass), else the Lua library
the expected path
-- FUNCTION FLUSH on every master: the library is loaded again (on every master)
YYYYYYYYYYYY
1 1 1
-- a slot moved to another master: MOVED is followed
Y
moved to another master: yes
YYn  tokens 0.0
-- forked children (one cluster connection each): 4 x 40 on a limit of 100
100 accepted
counter 100 (on a cluster a cost-1 denial counts nothing: the library decides)