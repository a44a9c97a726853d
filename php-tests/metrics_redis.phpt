--TEST--
ratelimit.metrics=redis: counted inside the decision's own call (one round trip, as without), per limiter per minute in one hash under ratelimit.key_prefix with an hour's TTL; fleet() adds up every process exactly (8 processes); block-cache answers and errors go with the limiter's next counted call; dry run counts would_deny; consumeMany and compounds counted; a foreign value at the counters' key fails no decision; memory:// keeps its own; bad arguments refused
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.metrics=redis
ratelimit.key_prefix=app:
ratelimit.connect_timeout=0.2
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
// Counts round trips (INFO stats): a server of this test's own.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$r = rl_redis($server['port']);
$reads = fn () => (int) $r->info('stats')['total_reads_processed'];
$p = rl_prefix();
$fleet = function (mixed $connection = null, int $minutes = 5) use ($url, $p) {
    $all = RateLimitMetrics::fleet($connection ?? $url, $minutes);
    $out = [];
    foreach ($all as $name => $c) {
        if (str_starts_with((string) $name, "app:$p")) {
            $out[] = '  ' . substr($name, strlen("app:$p")) . ': ' . implode(' ', array_map(fn ($k, $v) => "$k=$v", array_keys($c), $c));
        }
    }
    sort($out);
    echo implode("\n", $out), "\n";
};

echo "-- every class: one round trip per consume, as with metrics off\n";
$seen = [];
foreach (array_keys(rl_classes()) as $kind) {
    $l = rl_long($kind, $url, "$p:$kind", 2);
    $l->peek('u'); // connected, library loaded
    $trips = [];
    foreach (['redis', 'off', 'redis'] as $mode) {
        ini_set('ratelimit.metrics', $mode);
        $before = $reads();
        $l->consume('u');
        $trips[] = $reads() - $before - 1;
    }
    ini_set('ratelimit.metrics', 'redis');
    $l->consume('u', 2);
    $seen[$kind]['round trips (redis, off, redis)'] = implode(' ', $trips);
}
rl_table($seen);
$fleet();

echo "-- where: one hash per minute under ratelimit.key_prefix, an hour at most\n";
[$s] = $r->time();
$keys = $r->keys('*ratelimit-metrics*');
echo count($keys), ' key: ', preg_replace('/\d+$/', 'MINUTE', $keys[0]), ', its minute is the server\'s: ', json_encode(in_array((int) substr($keys[0], strrpos($keys[0], ':') + 1), [intdiv($s, 60), intdiv($s, 60) - 1], true)), "\n";
$ttl = $r->ttl($keys[0]);
echo 'TTL within the hour after its minute: ', json_encode($ttl > 3480 && $ttl <= 3600), "\n";
$fields = array_keys($r->hGetAll($keys[0]));
sort($fields);
echo 'fields: ', implode(' ', array_map(fn ($f) => str_replace("app:$p", '', $f), array_filter($fields, fn ($f) => str_contains($f, ":$p:fixed")))), "\n";

echo "-- 8 processes, exact totals\n";
$hot = "$p:hot";
$accepted = rl_hammer(function () use ($url, $hot) {
    static $l;
    $l ??= new TokenBucketRateLimiter($url, $hot, 50, 0.0001);
    return $l->isAllowed('shared');
}, 8, 40);
echo "accepted $accepted of 320\n";
$fleet();

echo "-- dry run: would_deny; consumeMany and a compound\n";
$dry = (new FixedWindowRateLimiter($url, "$p:dry", 60, 1))->withDryRun();
$dry->consumeMany(['a', 'a', 'a']);
$dry->consume('b');
$c = new CompoundRateLimiter([new FixedWindowRateLimiter($url, "$p:c1", 60, 1), new GcraRateLimiter($url, "$p:c2", 1, 1, 60)]);
$c->consume('k');
$c->consumeMany(['k', 'l', 'm']);
$c->withDryRun()->consume('k');
$fleet();

echo "-- block-cache answers and errors: counted here, sent with the limiter's next counted call\n";
ini_set('ratelimit.block_cache', '1');
$bc = new GcraRateLimiter($url, "$p:bc", 0, 1, 60);
$bc->consume('u');
$bc->consume('u');
$bc->consume('u');
$bc->consumeMany(['u', 'u']);
ini_set('ratelimit.block_cache', '0');
$fleet();
echo "  local: ", json_encode(RateLimitMetrics::local()["app:$p:bc"]), "\n";
$bc->consume('other');
$fleet();
$down = rl_unanswered_connect();
ini_set('ratelimit.on_error', 'allow');
$dead = new TokenBucketRateLimiter($down['url'], "$p:bc", 5, 1);
$dead->consume('u');
$dead->consumeMany(['a', 'b']);
ini_set('ratelimit.on_error', 'throw');
rl_throws(fn () => $dead->consume('u'));
$bc->consume('another');
$fleet();

echo "-- a foreign value at the counters' key fails no decision (it is not counted)\n";
ini_set('ratelimit.key_prefix', 'foreign:'); // read at construction: this limiter's keys and counters only
[$s] = $r->time();
foreach ([0, 1] as $ahead) $r->set("foreign:ratelimit-metrics:" . (intdiv($s, 60) + $ahead), 'not a hash');
$f = new FixedWindowRateLimiter($url, "$p:foreign", 60, 5);
ini_set('ratelimit.key_prefix', 'app:');
var_dump($f->isAllowed('u'), $f->consume('u', 2)->remaining, $r->get("foreign:ratelimit-metrics:" . intdiv($s, 60)));

echo "-- memory:// keeps its own, read by fleet('memory://…')\n";
$m = new TokenBucketRateLimiter('memory://fleet', "$p:mem", 1, 0.001);
$m->consume('u');
$m->withDryRun()->consume('u');
$m->consumeMany(['u', 'v']);
$fleet('memory://fleet');

echo "-- bad arguments\n";
rl_throws(fn () => RateLimitMetrics::fleet($url, 0));
rl_throws(fn () => RateLimitMetrics::fleet($url, 61));
rl_throws(fn () => RateLimitMetrics::fleet(new stdClass()));
rl_throws(fn () => RateLimitMetrics::fleet($down['url']));
var_dump(count(RateLimitMetrics::fleet($url, 60)) > 0);
?>
--EXPECTF--
-- every class: one round trip per consume, as with metrics off
round trips (redis, off, redis): 1 1 1
  :blocks: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :fixed: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :gcra: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :leaky: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :sliding: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :token: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
-- where: one hash per minute under ratelimit.key_prefix, an hour at most
1 key: app:ratelimit-metrics:MINUTE, its minute is the server's: true
TTL within the hour after its minute: true
fields: allowed::fixed denied::fixed
-- 8 processes, exact totals
accepted 50 of 320
  :blocks: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :fixed: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :gcra: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :hot: allowed=50 denied=270 would_deny=0 errors=0 on_error=0 block_cache=0
  :leaky: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :sliding: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :token: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
-- dry run: would_deny; consumeMany and a compound
  :blocks: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :c1+app:%s:c2: allowed=3 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
  :dry: allowed=2 denied=0 would_deny=2 errors=0 on_error=0 block_cache=0
  :fixed: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :gcra: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :hot: allowed=50 denied=270 would_deny=0 errors=0 on_error=0 block_cache=0
  :leaky: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :sliding: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :token: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
-- block-cache answers and errors: counted here, sent with the limiter's next counted call
  :bc: allowed=1 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :blocks: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :c1+app:%s:c2: allowed=3 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
  :dry: allowed=2 denied=0 would_deny=2 errors=0 on_error=0 block_cache=0
  :fixed: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :gcra: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :hot: allowed=50 denied=270 would_deny=0 errors=0 on_error=0 block_cache=0
  :leaky: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :sliding: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :token: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  local: {"allowed":1,"denied":4,"would_deny":0,"errors":0,"on_error":0,"block_cache":3}
  :bc: allowed=2 denied=4 would_deny=0 errors=0 on_error=0 block_cache=3
  :blocks: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :c1+app:%s:c2: allowed=3 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
  :dry: allowed=2 denied=0 would_deny=2 errors=0 on_error=0 block_cache=0
  :fixed: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :gcra: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :hot: allowed=50 denied=270 would_deny=0 errors=0 on_error=0 block_cache=0
  :leaky: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :sliding: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :token: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
RateLimiterException: %s
  :bc: allowed=3 denied=4 would_deny=0 errors=4 on_error=3 block_cache=3
  :blocks: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :c1+app:%s:c2: allowed=3 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
  :dry: allowed=2 denied=0 would_deny=2 errors=0 on_error=0 block_cache=0
  :fixed: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :gcra: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :hot: allowed=50 denied=270 would_deny=0 errors=0 on_error=0 block_cache=0
  :leaky: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :sliding: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :token: allowed=1 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
-- a foreign value at the counters' key fails no decision (it is not counted)
bool(true)
int(2)
string(10) "not a hash"
-- memory:// keeps its own, read by fleet('memory://…')
  :mem: allowed=2 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
-- bad arguments
ValueError: RateLimitMetrics::fleet(): Argument #2 ($minutes) must be between 1 and 60, 0 given
ValueError: RateLimitMetrics::fleet(): Argument #2 ($minutes) must be between 1 and 60, 61 given
TypeError: RateLimitMetrics::fleet(): Argument #1 ($connection) must be of type Redis|RedisCluster|array|string|null, stdClass given
RateLimiterException: %s
bool(true)
