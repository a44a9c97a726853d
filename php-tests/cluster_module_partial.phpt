--TEST--
Redis Cluster and the server module: where one of 3 masters lacks it, every class, a batch and a compound are decided exactly: a connection asks the master of its first call (not every master: one that cannot answer must not fail the others), that master has it, and the first call to the master without it is refused as an unknown command before it runs and sent again by the Lua library, which decides on that connection from then on (php --ri says so); where every master loads it, the same calls are decided by the module
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
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

$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));

/**
 * Every class (3 calls allowed per id), a batch over 30 ids of all three
 * masters' slots, each id 4 times (the 4th denied), and a compound; then
 * which path the masters ran (INFO commandstats) and what php --ri names.
 */
function decide_on(array $cluster, string $p, callable $yn): void
{
    foreach (rl_cluster_masters($cluster) as $r) $r->rawCommand('CONFIG', 'RESETSTAT');
    $dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
    $ids = array_map(fn ($i) => "m$i", range(1, 30));
    foreach (array_keys(rl_classes()) as $kind) {
        $l = rl_long($kind, $dsn, "$p:$kind", 3);
        $seq = [];
        for ($i = 0; $i < 4; $i++) $seq[] = $l->consume('id');
        $many = $l->consumeMany(array_merge($ids, $ids, $ids, $ids));
        printf("%-8s consume %s  consumeMany %d of 120 allowed\n", $kind, $yn($seq), count(array_filter($many, fn ($r) => $r->allowed)));
    }
    $compound = new CompoundRateLimiter([rl_long('fixed', $dsn, "$p:c1", 2), rl_long('gcra', $dsn, "$p:c2", 3)]);
    echo "compound ", $yn([$compound->consume('k'), $compound->consume('k'), $compound->consume('k')]), "\n";

    $calls = ['module' => 0, 'lua' => 0];
    foreach (rl_cluster_masters($cluster) as $r) {
        foreach (rl_calls_by_path($r) as $path => $n) $calls[$path] += $n;
    }
    echo "module commands: ", $calls['module'] > 0 ? 'some' : 'none', ", Lua calls: ", $calls['lua'] > 0 ? 'some' : 'none', "\n";

    // The rows of this cluster's targets in php --ri: the path each names.
    ob_start();
    phpinfo(INFO_MODULES);
    $paths = [];
    foreach (explode("\n", ob_get_clean()) as $line) {
        $ours = array_filter($cluster['ports'], fn ($port) => str_contains($line, "127.0.0.1:$port"));
        if ($ours && preg_match('/, decided by (' . RL_PATHS . ')/', $line, $m)) {
            $paths[str_starts_with($m[1], 'Lua') ? 'the Lua library' : $m[1]] = true;
        }
    }
    echo "php --ri: ", implode(', ', array_keys($paths)) ?: 'no row', "\n";
}

echo "-- one master of 3 without the module\n";
decide_on(rl_start_cluster(3, 0, moduleNodes: [0, 1]), rl_prefix('partial'), $yn);

echo "-- every master with the module\n";
decide_on(rl_start_cluster(3, 0, moduleNodes: [0, 1, 2]), rl_prefix('every'), $yn);
?>
--EXPECT--
-- one master of 3 without the module
fixed    consume YYYn  consumeMany 90 of 120 allowed
sliding  consume YYYn  consumeMany 90 of 120 allowed
blocks   consume YYYn  consumeMany 90 of 120 allowed
token    consume YYYn  consumeMany 90 of 120 allowed
leaky    consume YYYn  consumeMany 90 of 120 allowed
gcra     consume YYYn  consumeMany 90 of 120 allowed
compound YYn
module commands: some, Lua calls: some
php --ri: the Lua library
-- every master with the module
fixed    consume YYYn  consumeMany 90 of 120 allowed
sliding  consume YYYn  consumeMany 90 of 120 allowed
blocks   consume YYYn  consumeMany 90 of 120 allowed
token    consume YYYn  consumeMany 90 of 120 allowed
leaky    consume YYYn  consumeMany 90 of 120 allowed
gcra     consume YYYn  consumeMany 90 of 120 allowed
compound YYn
module commands: some, Lua calls: none
php --ri: server module
