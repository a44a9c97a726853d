--TEST--
Redis Cluster: a slot left half moved (IMPORTING/MIGRATING with one of a compound's two keys migrated) refuses the compound's call (TRYAGAIN; on Redis 6.0 an ASK at the end) until the migration ends; the call is sent again until its reply timeout and then raises RateLimiterException naming the slot, the node it is on and the node it is moving to; nothing was counted, and once the slot has moved the compound decides again
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=2
ratelimit.timeout=0.5
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/cluster.inc';
$cluster = rl_start_cluster(3, 0);
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$p = rl_prefix();
$compound = new CompoundRateLimiter([rl_long('fixed', $dsn, "$p:a", 5), rl_long('token', $dsn, "$p:b", 5)]);
echo 'first call: ', json_encode($compound->consume('stuck')->allowed), "\n";

// Its two keys ({stuck}) share a slot; move one of them and stop there.
$slot = rl_redis($cluster['ports'][0])->rawCommand('CLUSTER', 'KEYSLOT', 'stuck');
$from = rl_cluster_owner_port($cluster, 'stuck');
$to = current(array_filter($cluster['ports'], fn ($port) => $port !== $from));
$src = rl_cluster_node($cluster, $from);
$dst = rl_cluster_node($cluster, $to);
$dst->rawCommand('CLUSTER', 'SETSLOT', $slot, 'IMPORTING', $src->rawCommand('CLUSTER', 'MYID'));
$src->rawCommand('CLUSTER', 'SETSLOT', $slot, 'MIGRATING', $dst->rawCommand('CLUSTER', 'MYID'));
$keys = $src->rawCommand('CLUSTER', 'GETKEYSINSLOT', $slot, 10);
echo 'keys in the slot: ', count($keys), "\n";
$src->rawCommand('MIGRATE', '127.0.0.1', $to, '', 0, 5000, 'KEYS', $keys[0]);

try {
    $compound->consume('stuck');
    echo "decided on a half-moved slot\n";
} catch (RateLimiterException $e) {
    $said = str_replace(["127.0.0.1:$from", "127.0.0.1:$to", " $slot "], ['FROM', 'TO', ' SLOT '], $e->getMessage());
    // The last refusal: TRYAGAIN, or on Redis 6.0 the ASK that sends the call back to the target.
    $said = preg_replace('/: (TRYAGAIN|ASK)\b[^;]*;/', ': refused ($1);', $said);
    echo preg_replace('/^Redis at \S+: /', 'Redis at <cluster>: ', $said), "\n";
}

rl_cluster_migrate_slot($cluster, $slot, $from, $to);
echo 'now on the other master: ', json_encode(rl_cluster_owner_port($cluster, 'stuck') === $to), "\n";
$r = $compound->consume('stuck');
echo 'after the move: ', json_encode($r->allowed), ', remaining ', $r->remaining, " (the refused call counted nothing)\n";
?>
--EXPECTF--
first call: true
keys in the slot: 2
Redis at <cluster>: refused (%r(TRYAGAIN|ASK)%r); slot SLOT is on FROM (moving to TO), still so after 500 ms
now on the other master: true
after the move: true, remaining 3 (the refused call counted nothing)
