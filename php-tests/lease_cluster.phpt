--TEST--
withLease() on a Redis Cluster (3 masters, started by the test): the token bucket, GCRA and the fixed window, each with ids whose slots are on the three different masters; a lease is taken from the key's master in one call and answered in the process after it (source 'lease', no call on any master, metrics leased); what is left goes back to that master at maxAge, on reset() and at the process's end (its state read on that master); two processes sharing a limit of 20 on each master admit exactly 20, never more
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.metrics=local
ratelimit.connect_timeout=2
ratelimit.timeout=2
--CONFLICTS--
heavy # a cluster of its own (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/cluster.inc';
$cluster = rl_start_cluster(3, 0);
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$masters = rl_cluster_masters($cluster);
$any = reset($masters);
$p = rl_prefix();
$kinds = ['token', 'gcra', 'fixed'];
// A period so long that nothing refills or ends while the test runs (a GCRA interval of 1,000 s).
const LONG = 1e6;
$show = fn (RateLimitResult $x) => sprintf('%s rem %d %s', $x->allowed ? 'allowed' : 'denied', $x->remaining, $x->source);
// Library calls (FCALL/EVALSHA, or the module's commands) on every master, by port.
$calls = fn () => array_map(fn (RlClient $m) => rl_library_calls($m), $masters);
$diff = fn (array $after, array $before) => array_combine(array_keys($after), array_map(fn ($a, $b) => $a - $b, $after, $before));
// The key of $id under $prefix: its hash tag is the id, so its slot is the id's.
$key = fn (string $prefix, string $id) => "$prefix:{" . $id . '}';

// Three ids whose slots are served by three different masters.
$ids = [];
for ($i = 0; count($ids) < 3; $i++) {
    $port = rl_cluster_owner_port($cluster, $key($p, "u$i"));
    $ids[$port] ??= "u$i";
}
$slots = array_map(fn ($id) => $any->rawCommand('CLUSTER', 'KEYSLOT', $key($p, $id)), $ids);
// Each master's first call loads the library (or finds the module): made here, before calls are counted.
foreach ($ids as $id) rl_long('token', $dsn, "$p:warm", 10)->consume($id);
echo 'ids on ', count($ids), ' masters, in ', count(array_unique($slots)), " slots\n";

echo "-- a lease from each id's master, then answers without a round trip\n";
$seen = [];
foreach ($kinds as $kind) {
    $kp = "$p:$kind";
    $leased = rl_long($kind, $dsn, $kp, 1000, LONG)->withLease(50, 60);
    $rows = [];
    foreach ($ids as $port => $id) {
        $before = $calls();
        $first = $leased->consume($id);
        $taken = $calls();
        $rest = [];
        for ($i = 0; $i < 9; $i++) $rest[] = $leased->consume($id);
        $after = $calls();
        $rows['take: the first call'][] = $show($first);
        $ran = array_filter($diff($taken, $before));
        $rows['take: the masters that ran it'][] = $ran === [$port => 1] ? "the id's, 1 call" : json_encode($diff($taken, $before));
        $rows['9 calls after'][] = implode(' ', array_unique(array_map(fn ($x) => $x->source, $rest))) . ', the last ' . $show(end($rest))
            . ', calls on the masters ' . (array_sum($after) - array_sum($taken));
        $rows["state on the id's master"][] = rl_state($kind, $masters[$port], $key($kp, $id), 1000, LONG);
    }
    foreach ($rows as $check => $values) $seen[$kind][$check] = implode(' | ', array_unique(array_map('strval', $values)));
    $m = RateLimitMetrics::leases()[$kp];
    $by = RateLimitMetrics::sources()[$kp];
    $seen[$kind]['metrics'] = "leased {$m['leased']} held {$m['held']}; answered by redis {$by['redis']}, by the lease {$by['lease']}";
}
rl_table($seen);

echo "-- what is left goes back to the id's master\n";
$seen = [];
foreach ($kinds as $kind) {
    $kp = "$p:back:$kind";
    $plain = rl_long($kind, $dsn, $kp, 1000, LONG);
    [$a, $b, $c] = array_keys($ids);
    // reset(): the key is deleted on its master, the lease goes with it.
    $leased = $plain->withLease(50, 60);
    $leased->consume($ids[$a]);
    $leased->reset($ids[$a]);
    $seen[$kind]['reset(): on its master'] = rl_state($kind, $masters[$a], $key($kp, $ids[$a]), 1000, LONG) . ', a peek ' . $show($plain->peek($ids[$a]))
        . ', the next call takes a new lease: ' . $show($leased->consume($ids[$a]));
    // maxAge: a lease of 0.2 s, its next call gives the 49 left back to the master and takes 50 anew.
    $young = $plain->withLease(50, 0.2);
    $young->consume($ids[$b]);
    $taken = rl_state($kind, $masters[$b], $key($kp, $ids[$b]), 1000, LONG);
    usleep(250000);
    $before = rl_library_calls($masters[$b]);
    $young->consume($ids[$b]);
    $seen[$kind]['maxAge: on its master'] = "$taken; past maxAge, a call: " . rl_state($kind, $masters[$b], $key($kp, $ids[$b]), 1000, LONG)
        . ' (' . (rl_library_calls($masters[$b]) - $before) . ' calls: the give-back and the take)';
}
// The process's end: a child takes a lease of 50 on each id of each kind, spends 2, and ends.
$code = '$ids = ' . var_export(array_values($ids), true) . ';'
    . ' foreach (["TokenBucketRateLimiter" => [1000, 1000 / 1e6], "GcraRateLimiter" => [999, 1000, 1e6], "FixedWindowRateLimiter" => [1e6, 1000]] as $class => $args) {'
    . '  $l = (new $class(' . var_export($dsn, true) . ', ' . var_export("$p:end", true) . ' . ":$class", ...$args))->withLease(50, 60);'
    . '  foreach ($ids as $id) { $l->consume($id); $l->consume($id); } }'
    . ' echo array_sum(array_column(RateLimitMetrics::leases(), "held"));';
$held = shell_exec(rl_php_shell() . ' -r ' . escapeshellarg($code));
foreach (['token' => 'TokenBucketRateLimiter', 'gcra' => 'GcraRateLimiter', 'fixed' => 'FixedWindowRateLimiter'] as $kind => $class) {
    $seen[$kind]['a process that held ' . $held . ' in 9 leases ended: on each master'] = implode(' | ', array_unique(array_map(
        fn ($port) => rl_state($kind, $masters[$port], $key("$p:end:$class", $ids[$port]), 1000, LONG), array_keys($ids))));
}
rl_table($seen);

echo "-- two processes, a limit of 20 on each master: exactly 20 admitted of 60 tries each\n";
$t0 = microtime(true) + 0.2;
$files = $pids = [];
for ($c = 0; $c < 2; $c++) {
    $files[$c] = tempnam(sys_get_temp_dir(), 'rl-lease-cluster');
    if (($pid = pcntl_fork()) === 0) {
        $out = [];
        try {
            $limiters = array_map(fn ($kind) => rl_long($kind, $dsn, "$p:race:$kind", 20, LONG)->withLease(10, 60), array_combine($kinds, $kinds));
            rl_sleep_until($t0);
            for ($i = 0; $i < 60; $i++) {
                foreach ($limiters as $kind => $l) {
                    // Each kind on another master.
                    $x = $l->consume($ids[array_keys($ids)[array_search($kind, $kinds)]]);
                    $out[$kind][$x->allowed ? $x->source : 'denied'] = ($out[$kind][$x->allowed ? $x->source : 'denied'] ?? 0) + 1;
                }
                usleep(2000);
            }
            file_put_contents($files[$c], json_encode($out));
        } catch (Throwable $e) {
            file_put_contents($files[$c], get_class($e) . ': ' . $e->getMessage());
        }
        rl_child_exit();
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) pcntl_waitpid($pid, $status);
$seen = [];
$children = [];
foreach ($files as $f) {
    $children[] = json_decode($raw = (string) file_get_contents($f), true) ?? throw new RuntimeException("a child failed: $raw");
    unlink($f);
}
foreach ($kinds as $kind) {
    $admitted = array_sum(array_map(fn ($o) => ($o[$kind]['redis'] ?? 0) + ($o[$kind]['lease'] ?? 0), $children));
    $leased = array_sum(array_map(fn ($o) => $o[$kind]['lease'] ?? 0, $children));
    $seen[$kind]['admitted'] = ($admitted === 20 ? 'exactly 20' : "$admitted of 20") . ($leased > 0 ? ', some from leases' : ', none from a lease');
}
rl_table($seen);
?>
--EXPECT--
ids on 3 masters, in 3 slots
-- a lease from each id's master, then answers without a round trip
take: the first call: allowed rem 999 redis
take: the masters that ran it: the id's, 1 call
9 calls after: lease, the last allowed rem 990 lease, calls on the masters 0
state on the id's master:
  token    tokens 950.0
  gcra     TAT 50.0 intervals ahead
  fixed    counter '50'
metrics: leased 150 held 120; answered by redis 3, by the lease 27
-- what is left goes back to the id's master
reset(): on its master: no key, a peek allowed rem 1000 redis, the next call takes a new lease: allowed rem 999 redis
maxAge: on its master:
  token    tokens 950.0; past maxAge, a call: tokens 949.0 (2 calls: the give-back and the take)
  gcra     TAT 50.0 intervals ahead; past maxAge, a call: TAT 51.0 intervals ahead (2 calls: the give-back and the take)
  fixed    counter '50'; past maxAge, a call: counter '51' (2 calls: the give-back and the take)
a process that held 432 in 9 leases ended: on each master:
  token    tokens 998.0
  gcra     TAT 2.0 intervals ahead
  fixed    counter '2'
-- two processes, a limit of 20 on each master: exactly 20 admitted of 60 tries each
admitted: exactly 20, some from leases
