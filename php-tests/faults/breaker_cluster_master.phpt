--TEST--
Breaker, Redis Cluster: a breaker per master. While one master is stopped (SIGSTOP), its keys get the on_error answer at once after the first timeout, and the other masters' keys are still decided by Redis (one breaker for the whole cluster answered them with on_error too); RateLimitMetrics::breakers() and php --ri show that master's breaker; once the master is back and the interval has passed, its keys are decided by Redis again
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.retry_interval=1.5
ratelimit.timeout=0.2
ratelimit.connect_timeout=0.2
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../cluster.inc';
$cluster = rl_start_cluster(3, 0);
$dsn = 'redis-cluster://' . implode(',', $cluster['seeds']);
$p = rl_prefix();
$l = new FixedWindowRateLimiter($dsn, $p, 60, 100);
// An id on the master that will stop, and one on another master.
$owner = fn (string $id) => rl_cluster_owner_port($cluster, "$p:{" . $id . "}");
$stopped = $owner('a');
for ($i = 0; $owner("b$i") === $stopped; $i++);
$other = "b$i";
$pid = $cluster['pids'][array_search($stopped, $cluster['ports'], true)];
$master = "127.0.0.1:$stopped";

echo "before: ", $l->consume('a')->source, ' ', $l->consume($other)->source, "\n";
posix_kill($pid, SIGSTOP);
try {
    rl_throws(fn () => $l->consume('a'));
    $t = microtime(true);
    rl_throws(fn () => $l->consume('a'));
    echo "refused at once: ", var_export(microtime(true) - $t < 0.05, true), "\n";
    $r = $l->consume($other);
    echo "the other master's id: allowed ", var_export($r->allowed, true), ", source {$r->source}\n";
    ini_set('ratelimit.on_error', 'allow');
    $r = $l->consume('a');
    echo "the stopped master's id with on_error = allow: allowed ", var_export($r->allowed, true), ", source {$r->source}\n";
    echo "the other master's id again: ", $l->consume($other)->source, "\n";
    $b = RateLimitMetrics::breakers()[$dsn];
    echo "the cluster's own breaker: {$b['state']}; masters: ", implode(', ', array_keys($b['masters'])) === $master ? 'the stopped one' : json_encode(array_keys($b['masters'])), "\n";
    $m = $b['masters'][$master];
    var_dump($m['state'], $m['opens'], $m['refused'], $m['cause'], $m['open_for'] > 0 && $m['open_for'] <= 1.8);
    ob_start();
    phpinfo(INFO_MODULES);
    $info = ob_get_clean();
    echo "php --ri shows it: ", var_export(str_contains($info, "$dsn master $master => breaker open for "), true), "\n";
} finally {
    posix_kill($pid, SIGCONT);
}
usleep((int) (RateLimitMetrics::breakers()[$dsn]['masters'][$master]['open_for'] * 1e6) + 20000); // until the interval has passed
$r = $l->consume('a');
echo "after: allowed ", var_export($r->allowed, true), ", source {$r->source}; its breaker: ", RateLimitMetrics::breakers()[$dsn]['masters'][$master]['state'], "\n";
echo "counted by Redis: ", 100 - $l->peek('a')->remaining, " for the stopped master's id, ", 100 - $l->peek($other)->remaining, " for the other\n";
?>
--EXPECTF--
before: redis redis
RateLimiterException: Redis at %s: timed out after 0.2 s; the decision may have been counted
RateLimiterException: Redis at %s: not tried, the circuit breaker of its master 127.0.0.1:%d is open for %f s more (the last call failed: timed out after 0.2 s); the decision was not counted
refused at once: true
the other master's id: allowed true, source redis
the stopped master's id with on_error = allow: allowed true, source on_error
the other master's id again: redis
the cluster's own breaker: closed; masters: the stopped one
string(4) "open"
int(1)
int(2)
string(21) "timed out after 0.2 s"
bool(true)
php --ri shows it: true
after: allowed true, source redis; its breaker: closed
counted by Redis: %r[23]%r for the stopped master's id, 3 for the other
