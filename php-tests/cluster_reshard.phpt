--TEST--
Redis Cluster live reshard (3 masters, started by the test): while 8 processes decide on one hot id, its slot moves to another master and back again and again, key by key as redis-cli --cluster reshard moves it (IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE); every class, consumeMany, a compound, peeks and resets follow ASK (ASKING + the command at the named node) and MOVED: every limiter accepts exactly its limit, no call fails, none takes more than 3 s
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
$cluster = rl_start_cluster(3, 0);
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$p = rl_prefix();
// Each process decides at least ROUNDS rounds, STEP apart, and until the
// parent has moved the slot MOVES times: every move happens under load.
const PROCS = 8, ROUNDS = 60, STEP = 0.05, LIMIT = 300, MOVES = 6;
const DAY = 86400.0;   // the buckets and GCRA refill a unit per DAY / LIMIT seconds: nothing while the test runs

// On a cluster a key is prefix:{id}: every limiter's key for the id 'hot'
// is in the slot of "hot", the one that moves.
$limiters = function () use ($dsn, $p): array {
    $l = [];
    foreach (array_keys(rl_classes()) as $kind) $l[$kind] = rl_long($kind, $dsn, "$p:$kind", LIMIT, DAY);
    // Two units per consumeMany(['hot', 'hot']) call, so twice the limit.
    $l['consumeMany fixed'] = rl_long('fixed', $dsn, "$p:many-fixed", 2 * LIMIT, DAY);
    $l['consumeMany token'] = rl_long('token', $dsn, "$p:many-token", 2 * LIMIT, DAY);
    $l['compound'] = new CompoundRateLimiter([rl_long('fixed', $dsn, "$p:c-fixed", LIMIT, DAY), rl_long('gcra', $dsn, "$p:c-gcra", LIMIT, DAY)]);
    return $l;
};

$t0 = microtime(true) + 1.0;
$stop = tempnam(sys_get_temp_dir(), 'rl-reshard-stop');
unlink($stop);
$files = $pids = [];
for ($i = 0; $i < PROCS; $i++) {
    $files[$i] = tempnam(sys_get_temp_dir(), 'rl-reshard');
    if (($pid = pcntl_fork()) === 0) {
        $l = $limiters();
        $peek = rl_long('sliding', $dsn, "$p:peek", LIMIT);
        $scratch = [rl_long('fixed', $dsn, "$p:scratch-$i", 5), new CompoundRateLimiter([rl_long('token', $dsn, "$p:sc1-$i", 5), rl_long('leaky', $dsn, "$p:sc2-$i", 5)])];
        $s = ['accepted' => array_fill_keys(array_keys($l), 0), 'failed' => 0, 'errors' => [], 'max_call' => 0.0];
        $try = function (string $what, callable $f) use (&$s) {
            $t = microtime(true);
            try {
                $f();
            } catch (Throwable $e) {
                $s['failed']++;
                $s['errors'][$what . ': ' . get_class($e) . ': ' . preg_replace('/\d{4,5}/', 'N', $e->getMessage())] = true;
            }
            $s['max_call'] = max($s['max_call'], microtime(true) - $t);
        };
        for ($round = 0; $round < ROUNDS || !file_exists($stop); $round++) {
            // On schedule, or at once when behind it (a loaded machine).
            if (($wait = $t0 + $round * STEP - microtime(true)) > 0) usleep((int) ($wait * 1e6));
            foreach ($l as $name => $limiter) {
                $try($name, function () use ($name, $limiter, &$s) {
                    $results = str_starts_with($name, 'consumeMany') ? $limiter->consumeMany(['hot', 'hot']) : [$limiter->consume('hot')];
                    foreach ($results as $r) $s['accepted'][$name] += (int) $r->allowed;
                });
            }
            $try('peek', fn () => $peek->peek('hot'));
            foreach ($scratch as $n => $sc) $try("consume and reset $n", function () use ($sc) { $sc->consume('hot'); $sc->reset('hot'); });
        }
        file_put_contents($files[$i], serialize($s));
        rl_child_exit(); // no shutdown functions: the parent owns the cluster
    }
    $pids[] = $pid;
}

// The parent moves the slot of "hot" back and forth MOVES times, then tells the children to stop.
$any = rl_redis($cluster['ports'][0]);
$slot = $any->rawCommand('CLUSTER', 'KEYSLOT', 'hot');
$home = rl_cluster_owner_port($cluster, 'hot');
$away = current(array_filter($cluster['ports'], fn ($port) => $port !== $home));
rl_sleep_until($t0 + 0.3);
$keysMoved = 0;
$from = $home;
for ($moves = 0; $moves < MOVES; $moves++) {
    $to = $from === $home ? $away : $home;
    $keysMoved += rl_cluster_migrate_slot($cluster, $slot, $from, $to, 0.02);
    $from = $to;
}
touch($stop);
foreach ($pids as $pid) pcntl_waitpid($pid, $status);
unlink($stop);
$all = array_map(fn ($f) => unserialize((string) file_get_contents($f)), $files);
array_map('unlink', $files);

echo "moves of the slot while deciding: $moves, keys moved one by one: ", $keysMoved >= 20 ? 'at least 20' : $keysMoved, "\n";
$limits = array_map(fn ($name) => str_starts_with($name, 'consumeMany') ? 2 * LIMIT : LIMIT, array_combine(array_keys($all[0]['accepted']), array_keys($all[0]['accepted'])));
foreach ($limits as $name => $limit) {
    $accepted = array_sum(array_map(fn ($s) => $s['accepted'][$name], $all));
    printf("%-18s %s\n", $name, $accepted === $limit ? 'exactly the limit' : "$accepted accepted, limit $limit");
}
echo "failed calls: ", array_sum(array_column($all, 'failed')), "\n";
foreach (array_keys(array_merge(...array_column($all, 'errors'))) as $e) echo "  $e\n";
$longest = max(array_column($all, 'max_call'));
echo "every call within 3 s: ", $longest < 3 ? 'yes' : sprintf('no (%.2f s)', $longest), "\n";
// For the record: the redirections the masters answered (INFO errorstats, Redis >= 6.2 and Valkey).
$stats = [];
foreach (rl_cluster_masters($cluster) as $r) {
    foreach ($r->info('errorstats') ?: [] as $k => $v) {
        if (preg_match('/^errorstat_(ASK|MOVED|TRYAGAIN)$/', $k, $m) && preg_match('/count=(\d+)/', (string) $v, $c)) $stats[$m[1]] = ($stats[$m[1]] ?? 0) + (int) $c[1];
    }
}
printf("measured: %d moves, %d keys moved, longest call %.3f s, redirections %s\n", $moves, $keysMoved, $longest, $stats ? json_encode($stats) : 'not counted by this server');
?>
--EXPECTF--
moves of the slot while deciding: 6, keys moved one by one: at least 20
fixed              exactly the limit
sliding            exactly the limit
blocks             exactly the limit
token              exactly the limit
leaky              exactly the limit
gcra               exactly the limit
consumeMany fixed  exactly the limit
consumeMany token  exactly the limit
compound           exactly the limit
failed calls: 0
every call within 3 s: yes
measured: %s
