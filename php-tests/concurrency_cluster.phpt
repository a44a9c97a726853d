--TEST--
ConcurrencyLimiter on a Redis Cluster (3 masters, started by the test): the key is prefix:{id} on its slot's master, ids on every master each hold at most $max, release(), inFlight(), reset(), a waiter woken by a release, and a forked child's permit freed at its request's end
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=2
ratelimit.timeout=2
--CONFLICTS--
heavy
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/cluster.inc';
$cluster = rl_start_cluster(3, 0);
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$p = rl_prefix();
$l = new ConcurrencyLimiter($dsn, $p, 2, 5.0);

$held = [];
$counts = [];
foreach (range(1, 9) as $i) {
    $held[] = $l->acquire("id$i");
    $held[] = $l->acquire("id$i");
    $counts[] = ($l->acquire("id$i") === null ? 'full' : 'OVER') . ':' . $l->inFlight("id$i");
}
echo implode(' ', array_unique($counts)), "\n";
$owners = array_unique(array_map(fn ($i) => rl_cluster_owner_port($cluster, "$p:{id$i}"), range(1, 9)));
echo 'masters holding ids: ', count($owners), "\n";
echo 'members at prefix:{id1}: ', rl_cluster_owner($cluster, "$p:{id1}")->rawCommand('ZCARD', "$p:{id1}"), "\n";

// A waiter in a forked child, woken by this process's release.
$pid = pcntl_fork();
if ($pid === 0) {
    $t = microtime(true);
    $got = (new ConcurrencyLimiter($dsn, $p, 2, 5.0))->acquire('id1', 3.0);
    file_put_contents("/tmp/rl-cluster-wait-" . getmypid(), ($got ? 'got' : 'none') . ' ' . (microtime(true) - $t < 2 ? 'soon' : 'late'));
    $got?->release(); // rl_child_exit() ends the child without a request shutdown
    rl_child_exit();
}
usleep(300000);
$held[0]->release();
pcntl_waitpid($pid, $status);
echo 'waiter: ', file_get_contents("/tmp/rl-cluster-wait-$pid"), "\n";
unlink("/tmp/rl-cluster-wait-$pid");

$php = rl_php_shell();
$code = '$l = new ConcurrencyLimiter(' . var_export($dsn, true) . ', ' . var_export($p, true) . ', 4, 5.0); $p = $l->acquire("child"); echo $l->inFlight("child"); exit(1);';
echo 'child held ', shell_exec("$php -r " . escapeshellarg($code)), ', after its end: ', $l->inFlight('child'), "\n";

$held = [];
echo 'after releasing all: ', implode(',', array_unique(array_map(fn ($i) => $l->inFlight("id$i"), range(1, 9)))), "\n";
$a = $l->acquire('r');
$l->reset('r');
echo 'after reset: ', $l->inFlight('r'), "\n";
?>
--EXPECT--
full:2
masters holding ids: 3
members at prefix:{id1}: 2
waiter: got soon
child held 1, after its end: 0
after releasing all: 0
after reset: 0
