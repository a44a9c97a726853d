--TEST--
ratelimit.metrics=redis on a Redis Cluster (3 masters, started by the test): each decision counts in a counters' key of its own key's slot (a hash tag per slot), fleet() adds up every master's exactly, also after a slot moved to another master with its counters (MOVED); consumeMany and compounds counted per call; a ratelimit.key_prefix holding a hash tag keeps one counters' key in that slot
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=2
ratelimit.timeout=2
ratelimit.metrics=redis
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/cluster.inc';
$cluster = rl_start_cluster(3, 0);
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$p = rl_prefix();
$any = rl_redis($cluster['ports'][0]);
$fleet = function () use ($dsn, $p) {
    foreach (RateLimitMetrics::fleet($dsn) as $name => $c) {
        if (str_contains((string) $name, $p)) {
            echo '  ', str_replace($p, '', $name), ': ', implode(' ', array_map(fn ($k, $v) => "$k=$v", array_keys($c), $c)), "\n";
        }
    }
};
$ids = array_map(fn ($i) => "u$i", range(1, 120));

echo "-- 120 ids over all three masters: consume, consumeMany, a compound, a dry run\n";
$one = new FixedWindowRateLimiter($dsn, "$p:one", 60, 1);
foreach ($ids as $id) $one->consume($id);
$one->consumeMany($ids);
$both = new CompoundRateLimiter([new TokenBucketRateLimiter($dsn, "$p:c1", 1, 0.001), new GcraRateLimiter($dsn, "$p:c2", 3, 1, 60)]);
$both->consumeMany(array_slice($ids, 0, 40));
$both->withDryRun()->consumeMany(array_slice($ids, 0, 40));
$fleet();

echo "-- where: in each decision key's slot\n";
$metricsSlots = [];
$perMaster = [];
foreach (rl_cluster_masters($cluster) as $port => $r) {
    $keys = $r->keys('*ratelimit-metrics*');
    $perMaster[] = count($keys) > 0;
    foreach ($keys as $k) {
        if (!preg_match('/^ratelimit-metrics:\{\d+\}:\d+$/', $k)) echo "unexpected key $k\n";
        $metricsSlots[$r->rawCommand('CLUSTER', 'KEYSLOT', $k)] = true;
    }
}
$decisionSlots = [];
foreach ($ids as $id) $decisionSlots[$any->rawCommand('CLUSTER', 'KEYSLOT', "$p:one:{{$id}}")] = true;
ksort($metricsSlots);
ksort($decisionSlots);
echo 'counters on every master: ', json_encode($perMaster), ', one counters\' key per decision slot: ', json_encode(array_keys($metricsSlots) === array_keys($decisionSlots)), ' (', count($decisionSlots), " slots)\n";

echo "-- a slot moved to another master, its counters with it: still exact\n";
$key = "$p:one:{u1}";
$from = rl_cluster_owner($cluster, $key);
$slot = $from->rawCommand('CLUSTER', 'KEYSLOT', $key);
$fromId = $from->rawCommand('CLUSTER', 'MYID');
foreach (rl_cluster_masters($cluster) as $port => $to) {
    if (($toId = $to->rawCommand('CLUSTER', 'MYID')) !== $fromId) break;
}
$to->rawCommand('CLUSTER', 'SETSLOT', $slot, 'IMPORTING', $fromId);
$from->rawCommand('CLUSTER', 'SETSLOT', $slot, 'MIGRATING', $toId);
$moving = $from->rawCommand('CLUSTER', 'GETKEYSINSLOT', $slot, 100);
$from->rawCommand('MIGRATE', '127.0.0.1', $port, '', 0, 5000, 'KEYS', ...$moving);
foreach (rl_cluster_masters($cluster) as $r) $r->rawCommand('CLUSTER', 'SETSLOT', $slot, 'NODE', $toId);
echo 'moved keys: ', count(array_filter($moving, fn ($k) => str_contains($k, 'ratelimit-metrics'))), " counters' key(s) among them\n";
$one->consume('u1');
$fleet();

echo "-- ratelimit.key_prefix with a hash tag: one slot for everything, one counters' key\n";
ini_set('ratelimit.key_prefix', '{tenant}:');
$t = new TokenBucketRateLimiter($dsn, "$p:t", 2, 0.001);
$t->consumeMany(['a', 'a', 'a']);
$tagged = rl_cluster_owner($cluster, '{tenant}:x')->keys('{tenant}:ratelimit-metrics*');
echo count($tagged), ' key, in the tag\'s slot: ', json_encode($any->rawCommand('CLUSTER', 'KEYSLOT', $tagged[0]) === $any->rawCommand('CLUSTER', 'KEYSLOT', '{tenant}')), "\n";
$fleet();
?>
--EXPECT--
-- 120 ids over all three masters: consume, consumeMany, a compound, a dry run
  :c1+:c2: allowed=40 denied=0 would_deny=40 errors=0 on_error=0 block_cache=0
  :one: allowed=120 denied=120 would_deny=0 errors=0 on_error=0 block_cache=0
-- where: in each decision key's slot
counters on every master: [true,true,true], one counters' key per decision slot: true (120 slots)
-- a slot moved to another master, its counters with it: still exact
moved keys: 1 counters' key(s) among them
  :c1+:c2: allowed=40 denied=0 would_deny=40 errors=0 on_error=0 block_cache=0
  :one: allowed=120 denied=121 would_deny=0 errors=0 on_error=0 block_cache=0
-- ratelimit.key_prefix with a hash tag: one slot for everything, one counters' key
1 key, in the tag's slot: true
  {tenant}::t: allowed=2 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
