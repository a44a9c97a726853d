--TEST--
Redis Cluster (3 masters, started by the test): lock-out on every class and a CompoundRateLimiter; each block key is in its limiter key's slot (the id's hash tag; for the empty id and a prefix with an unclosed brace, a tag found for that slot), so one script or module command reads both; block, withLockout, peek, unblock and reset as on one server; a calendar window's key expires at its window's end
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
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
$cluster = rl_start_cluster(3, 0);
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$any = rl_redis($cluster['ports'][0]);
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));
$slot = fn (string $key) => $any->rawCommand('CLUSTER', 'KEYSLOT', $key);
// The block key of $key: the one key of the limiter's slot whose name starts with the prefix and '!lockout'.
$blockOf = function (string $prefix, string $key) use ($cluster, $slot) {
    $owner = rl_cluster_owner($cluster, $key);
    $found = array_values(array_filter($owner->keys("$prefix!lockout*"), fn ($k) => $slot($k) === $slot($key)));
    return count($found) === 1 ? $found[0] : 'found ' . count($found);
};

$seen = [];
foreach (array_keys(rl_classes()) as $kind) {
    $l = rl_long($kind, $dsn, "$p:$kind", 3);
    $l->consume('id');
    $l->block('id', 30);
    $d = $l->consume('id');
    $block = $blockOf("$p:$kind", "$p:$kind:{id}");
    $seen[$kind]['blocked'] = $yn([$d]) . ' ' . (abs($d->retryAfter - 30) < 0.05 ? '~30' : $d->retryAfter) . ' ' . $yn([$l->peek('id')]);
    $seen[$kind]['block key'] = $block === "$p:$kind!lockout:{id}" ? 'prefix!lockout:{id}' : $block;
    $l->unblock('id');
    $locked = $l->withLockout(60);
    $seen[$kind]['unblocked, then withLockout denies and blocks'] = $yn([$l->consume('id'), $locked->consume('id', 2), $l->consume('id')]);
    $l->reset('id');
    $seen[$kind]['reset: keys left'] = rl_cluster_owner($cluster, "$p:$kind:{id}")->exists("$p:$kind:{id}", "$p:$kind!lockout:{id}");
    // The empty id: its key is the bare prefix, with no hash tag.
    $l->block('', 30);
    $block = $blockOf("$p:$kind", "$p:$kind");
    $seen[$kind]['empty id: blocked, block key in the slot of the bare prefix'] = $yn([$l->consume('')]) . ' ' . (str_starts_with($block, "$p:$kind!lockout:{") ? 'prefix!lockout:{N}' : $block);
    $l->reset('');
    $seen[$kind]['empty id: reset'] = $yn([$l->consume('')]);
}
rl_table($seen);

echo "-- a key prefix with an unclosed brace\n";
$odd = new TokenBucketRateLimiter($dsn, "$p:odd{x", 3, 0.01);
$odd->block('u', 30);
$block = $blockOf("$p:odd{x", "$p:odd{x:{u}");
echo $yn([$odd->consume('u')]), ' ', str_starts_with($block, "$p:odd{x!lockout:{") ? 'prefix!lockout:{N}' : $block, "\n";
$odd->unblock('u');
echo $yn([$odd->consume('u')]), "\n";

echo "-- calendar windows on a cluster: the key in its id's slot, its expiry the window's end\n";
$cal = (new FixedWindowRateLimiter($dsn, "$p:cal", 60, 1))->withCalendar('day', 'Europe/Paris');
$r = [$cal->consume('c'), $cal->consume('c')];
$end = (new DateTimeImmutable('tomorrow', new DateTimeZone('Europe/Paris')))->getTimestamp() * 1000;
echo $yn($r), ' expiry ', rl_cluster_owner($cluster, "$p:cal:{c}")->rawCommand('PEXPIRETIME', "$p:cal:{c}") === $end ? "midnight in Paris" : 'elsewhere', "\n";

echo "-- CompoundRateLimiter: one call over its members' keys and block keys, one slot\n";
$a = rl_long('fixed', $dsn, "$p:ca", 2);
$b = rl_long('gcra', $dsn, "$p:cb", 5);
$c = new CompoundRateLimiter([$a, $b]);
$c->block('k', 30);
echo 'blocked: ', $yn([$c->consume('k'), $a->consume('k'), $b->consume('k')]), "\n";
$c->unblock('k');
$lc = $c->withLockout(60);
echo 'withLockout: ', $yn([$lc->consume('k'), $lc->consume('k'), $lc->consume('k'), $b->consume('k')]), "\n";
echo 'block keys: ', json_encode([$blockOf("$p:ca", "$p:ca:{k}") === "$p:ca!lockout:{k}", $blockOf("$p:cb", "$p:cb:{k}") === "$p:cb!lockout:{k}"]), "\n";
$c->reset('k');
echo 'reset: ', $yn([$c->consume('k')]), ' keys left ', rl_cluster_owner($cluster, "$p:ca:{k}")->exists("$p:ca:{k}", "$p:cb:{k}", "$p:ca!lockout:{k}", "$p:cb!lockout:{k}") - 2, "\n";
?>
--EXPECT--
blocked: n ~30 n
block key: prefix!lockout:{id}
unblocked, then withLockout denies and blocks: Ynn
reset: keys left: 0
empty id: blocked, block key in the slot of the bare prefix: n prefix!lockout:{N}
empty id: reset: Y
-- a key prefix with an unclosed brace
n prefix!lockout:{N}
Y
-- calendar windows on a cluster: the key in its id's slot, its expiry the window's end
Yn expiry midnight in Paris
-- CompoundRateLimiter: one call over its members' keys and block keys, one slot
blocked: nnn
withLockout: YYnn
block keys: [true,true]
reset: Y keys left 0