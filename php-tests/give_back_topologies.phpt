--TEST--
refund(), charge() and reserve() on a Redis Cluster (3 masters, no replicas) and through Sentinel (1 master, 3 sentinels), every class and a compound: each decided in one call where the key lives, the same answers as on one server
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
require __DIR__ . '/sentinel.inc';
$yn = fn (RateLimitResult ...$rs) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $rs));
$run = function (string $connection, string $p) use ($yn) {
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $connection, "$p:$kind", 3);
        $l->consume('id', 3);
        $back = $l->refund('id', 2);
        $seq = $yn($l->consume('id'), $l->consume('id'), $l->consume('id'));
        $owe = $l->charge('id', 1);
        $line = sprintf('%-8s refund %s rem %d, then %s; charge %s', $kind, $yn($back), $back->remaining, $seq, $yn($owe));
        if (method_exists($l, 'reserve')) {
            $line .= sprintf('; reserve, 0 s: %s, 1000 s: %s', $yn($l->reserve('id', 1, 0.0)), $yn($l->reserve('id', 1, 1000.0)));
        }
        echo $line, "\n";
    }
    $both = new CompoundRateLimiter([rl_long('fixed', $connection, "$p:c1", 2), rl_long('token', $connection, "$p:c2", 3)]);
    $both->consume('k', 2);
    $back = $both->refund('k', 1);
    echo 'compound refund ', $yn($back), ' rem ', $back->remaining, ', then ', $yn($both->consume('k'), $both->consume('k')), "\n";
};

echo "-- cluster\n";
$cluster = rl_start_cluster(3, 0);
$run('redis-cluster://' . implode(',', $cluster['seeds']), rl_prefix('gb-cluster'));

echo "-- sentinel\n";
$set = rl_start_sentinels();
$run('redis-sentinel://' . implode(',', $set['sentinels']) . '#mymaster', rl_prefix('gb-sentinel'));
?>
--EXPECT--
-- cluster
fixed    refund Y rem 2, then YYn; charge n
sliding  refund Y rem 2, then YYn; charge n
blocks   refund Y rem 2, then YYn; charge n
token    refund Y rem 2, then YYn; charge n; reserve, 0 s: n, 1000 s: Y
leaky    refund Y rem 2, then YYn; charge n; reserve, 0 s: n, 1000 s: Y
gcra     refund Y rem 2, then YYn; charge n; reserve, 0 s: n, 1000 s: Y
compound refund Y rem 1, then Yn
-- sentinel
fixed    refund Y rem 2, then YYn; charge n
sliding  refund Y rem 2, then YYn; charge n
blocks   refund Y rem 2, then YYn; charge n
token    refund Y rem 2, then YYn; charge n; reserve, 0 s: n, 1000 s: Y
leaky    refund Y rem 2, then YYn; charge n; reserve, 0 s: n, 1000 s: Y
gcra     refund Y rem 2, then YYn; charge n; reserve, 0 s: n, 1000 s: Y
compound refund Y rem 1, then Yn
