--TEST--
ratelimit.on_error=local: a call Redis cannot decide is decided in this process for ratelimit.local_share of the limit (every algorithm, consumeMany, a compound, peek, dry run), $source says so, metrics count it; local state is dropped once Redis answers again
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.timeout=0.2
ratelimit.connect_timeout=0.2
ratelimit.retry_interval=0.3
ratelimit.on_error=local
ratelimit.metrics=local
--FILE--
<?php
require __DIR__ . '/../config.inc';
ini_set("log_errors", "1");
ini_set('error_log', $log = tempnam(sys_get_temp_dir(), 'rl-log'));
$server = rl_start_redis();
$port = $server['port'];
$url = "redis://127.0.0.1:$port";
$fw = new FixedWindowRateLimiter($url, 'fw', 60, 1000);
$r = $fw->consume('a');
var_dump($r->source, $r->remaining);

rl_stop_redis($server, false);
echo "-- Redis is down: 10 % of each limit, in this process (the limit the limiter's own)\n";
$r = $fw->consume('a');
var_dump($r->allowed, $r->source, $r->limit, $r->remaining);
$n = 1;
while ($fw->isAllowed('a')) $n++;
echo "fixed window admitted $n locally\n";
$r = $fw->consume('a');
var_dump($r->allowed, $r->source, $r->retryAfter > 59 && $r->retryAfter <= 60, $r->headers()['Retry-After']);
var_dump($fw->peek('b')->source, $fw->peek('b')->remaining);
$many = $fw->consumeMany(['x' => 'b', 'y' => 'c'], 2);
var_dump($many['x']->source, $many['x']->remaining, $many['y']->remaining);
echo "a cost above the share is denied here: ", var_export(!$fw->consume('z', 101)->allowed, true), "\n";
foreach ([
    new SlidingWindowRateLimiter($url, 'sw', 1, 50),
    new SlidingWindowRateLimiter($url, 'sb', 1, 50, 10),
    new TokenBucketRateLimiter($url, 'tb', 40, 4.0),
    new LeakyBucketRateLimiter($url, 'lb', 30, 3.0),
    new GcraRateLimiter($url, 'g', 19, 20, 1.0),
] as $l) {
    $n = 0;
    while ($l->isAllowed('a') && $n < 100) $n++;
    $r = $l->consume('a');
    printf("%s: admitted %d, then %s (%s, limit %d, remaining %d)\n", get_class($l), $n, $r->allowed ? 'allowed' : 'denied', $r->source, $r->limit, $r->remaining);
}
$c = new CompoundRateLimiter([new FixedWindowRateLimiter($url, 'c1', 60, 30), new TokenBucketRateLimiter($url, 'c2', 50, 1.0)]);
$n = 0;
while ($c->isAllowed('a') && $n < 100) $n++;
$r = $c->consume('a');
printf("compound: admitted %d, then %s (%s, limit %d, remaining %d)\n", $n, $r->allowed ? 'allowed' : 'denied', $r->source, $r->limit, $r->remaining);
$dry = $fw->withDryRun()->consume('a');
var_dump($dry->allowed, $dry->wouldDeny, $dry->source);
ini_set('ratelimit.local_share', '0');
$zero = new FixedWindowRateLimiter($url, 'zero', 60, 1000);
echo "local_share 0 admits 1: ", var_export($zero->isAllowed('a') && !$zero->isAllowed('a'), true), "\n";
ini_set('ratelimit.local_share', '0.1');
rl_throws(fn () => $fw->reset('a'));
$b = RateLimitMetrics::breakers()[$url];
var_dump($b['state'], $b['local_keys'] > 0);
$sources = RateLimitMetrics::sources();
var_dump($sources['fw']['redis'], $sources['fw']['local'] > 100);

echo "-- Redis is back (empty: no persistence): it decides again, and the local state is gone\n";
$server = rl_start_redis([], $port, $server['dir']);
usleep(400000);
$r = $fw->consume('a');
var_dump($r->source, $r->remaining, RateLimitMetrics::breakers()[$url]['state'], RateLimitMetrics::breakers()[$url]['local_keys']);
rl_stop_redis($server);
echo "-- a memory:// target has no local answer: its own failures are answers\n";
$m = new FixedWindowRateLimiter('memory://local-test', 'm', 60, 5);
var_dump($m->consume('a')->source);
unlink($log);
?>
--EXPECTF--
string(5) "redis"
int(999)
-- Redis is down: 10 % of each limit, in this process (the limit the limiter's own)
bool(true)
string(5) "local"
int(1000)
int(99)
fixed window admitted 100 locally
bool(false)
string(5) "local"
bool(true)
int(60)
string(5) "local"
int(100)
string(5) "local"
int(98)
int(98)
a cost above the share is denied here: true
SlidingWindowRateLimiter: admitted 5, then denied (local, limit 50, remaining 0)
SlidingWindowRateLimiter: admitted 5, then denied (local, limit 50, remaining 0)
TokenBucketRateLimiter: admitted 4, then denied (local, limit 40, remaining 0)
LeakyBucketRateLimiter: admitted 3, then denied (local, limit 30, remaining 0)
GcraRateLimiter: admitted 2, then denied (local, limit 20, remaining 0)
compound: admitted 3, then denied (local, limit 30, remaining 0)
bool(true)
bool(true)
string(5) "local"
local_share 0 admits 1: true
RateLimiterException: Redis at redis://127.0.0.1:%d: not tried%A
string(4) "open"
bool(true)
int(1)
bool(true)
-- Redis is back (empty: no persistence): it decides again, and the local state is gone
string(5) "redis"
int(999)
string(6) "closed"
int(0)
-- a memory:// target has no local answer: its own failures are answers
string(6) "memory"
