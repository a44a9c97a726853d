--TEST--
A phpredis RedisCluster object as $connection (3 masters, 3 replicas, started by the test): the $connection type is Redis|RedisCluster|array|string|int|float|null; every class, consumeMany and CompoundRateLimiter decide on the object's cluster and the keys are in it; limiters from the object, a second object and the DSN of its masters share one pooled connection; its read timeout is used; an object that knows no masters, or whose _masters() throws, is a ValueError; on a cluster with a password the object is used without it (phpredis 5.3 has no getAuth()) and the first call's NOAUTH says to pass a DSN or array, while a subclass with getAuth(), the DSN and the array with auth decide
--SKIPIF--
<?php $phpredis = 'a RedisCluster object as the connection argument'; $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
ratelimit.connect_timeout=2
ratelimit.timeout=2
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/cluster.inc';

echo "-- the declared type of \$connection\n";
foreach (array_unique(array_column(rl_classes(), 'class')) as $class) {
    echo $class, ': ', (new ReflectionMethod($class, '__construct'))->getParameters()[0]->getType(), "\n";
}

$cluster = rl_start_cluster();
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));
// Two seeds only: the object learns the third master itself.
$rc = new RedisCluster(null, array_slice($cluster['seeds'], 0, 2), 2.0, 2.0);
$masters = array_map(fn ($m) => "$m[0]:$m[1]", $rc->_masters());
sort($masters);
echo "masters the object knows: ", count($masters), "\n";

echo "-- every class on the object's cluster\n";
foreach (rl_classes() as $kind => $c) {
    $l = rl_long($kind, $rc, "$p:$kind", 3);
    $seq = [];
    for ($i = 0; $i < 4; $i++) $seq[] = $l->consume('id');
    $ids = array_map(fn ($i) => "m$i", range(1, 30));
    $many = $l->consumeMany(array_merge($ids, $ids, array_slice($ids, 0, 10), array_slice($ids, 0, 10)));
    $key = "$p:$kind:{id}";
    // Read back through the RedisCluster object itself: the key is in its cluster.
    printf("%-8s consume %s  consumeMany %s  key in the cluster: %s  %s\n", $kind, $yn($seq), $yn($many),
        $rc->exists($key) ? 'yes' : 'NO', rl_state($kind, rl_cluster_owner($cluster, $key), $key, 3));
}
$compound = new CompoundRateLimiter([rl_long('fixed', $rc, "$p:c1", 2), rl_long('gcra', $rc, "$p:c2", 3)]);
echo "compound ", $yn([$compound->consume('k'), $compound->consume('k'), $compound->consume('k')]),
    "  consumeMany ", $yn($compound->consumeMany(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c'])), "\n";
echo "  keys in the cluster: ", $rc->exists("$p:c1:{k}") + $rc->exists("$p:c2:{k}"), "\n";
$compound->reset('k');
echo "  after reset: ", $rc->exists("$p:c1:{k}") + $rc->exists("$p:c2:{k}"), "\n";
$holding = 0;
foreach (rl_cluster_masters($cluster) as $r) $holding += count($r->keys("$p:*")) > 0 ? 1 : 0;
echo "masters holding keys: $holding of 3\n";

echo "-- one pooled connection: the object, another object, the DSN of its masters\n";
/** The pool rows of php --ri, ports masked. */
function pool_rows(): string {
    ob_start();
    (new ReflectionExtension('ratelimit'))->info();
    $info = ob_get_clean();
    $rows = array_filter(explode("\n", substr($info, strpos($info, 'Connection pool'))), fn ($l) => preg_match('/^(targets|open connections|redis)/', $l));
    return rl_masked(implode("\n", $rows)) . "\n";
}
$other = new RedisCluster(null, [$cluster['seeds'][2]]);
$dsn = 'redis-cluster://' . implode(',', $masters);
foreach ([$other, $dsn] as $connection) {
    $l = rl_long('fixed', $connection, "$p:shared", 100);
    $l->consume('s');
}
echo pool_rows();

echo "-- the object's read timeout (0.3 s) is used, not ratelimit.timeout (2 s)\n";
class ShortReadTimeout extends RedisCluster {}
$short = new ShortReadTimeout(null, $cluster['seeds'], 2.0, 0.3);
$l = rl_long('token', $short, "$p:timeout", 3);
echo $yn([$l->consume('t')]), "\n";
$owner = rl_cluster_owner($cluster, "$p:timeout:{t}");
// Writes on the key's master wait 3 s: a call must time out on the object's 0.3 s.
$pause = rl_client_pause($owner, 3000, true);
$t = microtime(true);
rl_throws(fn () => $l->consume('t'));
$took = microtime(true) - $t;
rl_client_unpause($owner, $pause);
printf("timed out before ratelimit.timeout: %s (measured %.2f s)\n", $took < 1.5 ? 'yes' : 'no', $took);
echo "decides again: ", $yn([$l->consume('t')]), "\n";

echo "-- objects that cannot be read\n";
$blank = (new ReflectionClass('RedisCluster'))->newInstanceWithoutConstructor();
rl_throws(fn () => new FixedWindowRateLimiter($blank, 'p', 60, 1));
class FailingCluster extends RedisCluster {
    public function _masters(): array { throw new RedisClusterException('no map'); }
}
$failing = (new ReflectionClass('FailingCluster'))->newInstanceWithoutConstructor();
try {
    new FixedWindowRateLimiter($failing, 'p', 60, 1);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n  previous: ", get_class($e->getPrevious()), ': ', $e->getPrevious()->getMessage(), "\n";
}
class OddCluster extends RedisCluster {
    public function _masters(): array { return [['127.0.0.1']]; }
}
rl_throws(fn () => new FixedWindowRateLimiter((new ReflectionClass('OddCluster'))->newInstanceWithoutConstructor(), 'p', 60, 1));
echo "-- a wrong object\n";
rl_throws(fn () => new FixedWindowRateLimiter(new ArrayObject(), 'p', 60, 1));

echo "-- the cluster asks for a password now\n";
foreach ($cluster['ports'] as $port) {
    $r = rl_redis($port);
    $r->config('SET', 'masterauth', 'sekret');
    $r->config('SET', 'requirepass', 'sekret');
}
class AuthCluster extends RedisCluster {
    public function getAuth(): string { return 'sekret'; }
}
// In a child: this process's pool holds a connection opened before the
// password, which Redis keeps authenticated; a forked child opens its own.
$out = tempnam(sys_get_temp_dir(), 'rl-cluster-auth');
if (($pid = pcntl_fork()) === 0) {
    ob_start();
    $authed = new RedisCluster(null, $cluster['seeds'], 2.0, 2.0, false, 'sekret');
    $l = rl_long('fixed', $authed, "$p:auth", 2);
    echo "constructed without touching Redis\n";
    rl_throws(fn () => $l->consume('a'));
    ini_set('ratelimit.on_error', 'deny');
    echo "on_error=deny: ", $yn([$l->consume('a')]), "\n";
    ini_set('ratelimit.on_error', 'throw');
    $connections = [
        'a subclass with getAuth()' => new AuthCluster(null, $cluster['seeds'], 2.0, 2.0, false, 'sekret'),
        'the DSN with the password' => 'redis-cluster://:sekret@' . implode(',', $masters),
        'the array with auth' => ['cluster' => $cluster['seeds'], 'auth' => 'sekret'],
    ];
    foreach ($connections as $form => $connection) {
        $l = rl_long('fixed', $connection, "$p:auth:" . md5($form), 2);
        echo "$form: ", $yn([$l->consume('a'), $l->consume('a'), $l->consume('a')]), "\n";
    }
    file_put_contents($out, ob_get_clean());
    rl_child_exit(); // no shutdown functions: the parent owns the cluster
}
pcntl_waitpid($pid, $status);
echo file_get_contents($out);
unlink($out);
?>
--EXPECTF--
-- the declared type of $connection
FixedWindowRateLimiter: Redis|RedisCluster|array|string|int|float|null
SlidingWindowRateLimiter: Redis|RedisCluster|array|string|int|float|null
TokenBucketRateLimiter: Redis|RedisCluster|array|string|int|float|null
LeakyBucketRateLimiter: Redis|RedisCluster|array|string|int|float|null
GcraRateLimiter: Redis|RedisCluster|array|string|int|float|null
masters the object knows: 3
-- every class on the object's cluster
fixed    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  key in the cluster: yes  counter '3'
sliding  consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  key in the cluster: yes  entries 3
blocks   consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  key in the cluster: yes  counted in the slices 3
token    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  key in the cluster: yes  tokens 0.0
leaky    consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  key in the cluster: yes  level 3.0
gcra     consume YYYn  consumeMany YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYnnnnnnnnnn  key in the cluster: yes  TAT 3.0 intervals ahead
compound YYn  consumeMany YYYYYYnnn
  keys in the cluster: 2
  after reset: 0
masters holding keys: 3 of 3
-- one pooled connection: the object, another object, the DSN of its masters
targets => 1
open connections => 1
redis-cluster://HOST:PORT,HOST:PORT,HOST:PORT => open, opened 1 time(s), 0 failure(s), decided by PATH; breaker closed
-- the object's read timeout (0.3 s) is used, not ratelimit.timeout (2 s)
Y
RateLimiterException: Redis at redis-cluster://%s: timed out%A
timed out before ratelimit.timeout: yes (measured %f s)
decides again: Y
-- objects that cannot be read
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is a RedisCluster object that knows no masters (_masters() is empty: was it constructed?); construct it with the cluster's seeds first
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is a RedisCluster object that could not be read: RedisCluster::_masters() threw
  previous: RedisClusterException: no map
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is a RedisCluster object whose _masters() are not [host, port] pairs
-- a wrong object
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|RedisCluster|array|string|null, ArrayObject given
-- the cluster asks for a password now
constructed without touching Redis
RateLimiterException: Redis at redis-cluster://%s: %sNOAUTH%s; the cluster wants a password and none was given (phpredis does not expose a RedisCluster object's password, so one passed as $connection is used without it): pass a redis-cluster://:password@host:port DSN or ['cluster' => [...], 'auth' => ...] instead
on_error=deny: n
a subclass with getAuth(): YYn
the DSN with the password: YYn
the array with auth: YYn
