--TEST--
ConcurrencyLimiter: at most $max permits per id, released by release() (once), by destroying the permit and at the request's end; renew(), expiresIn(), inFlight(), reset(); both constructor forms; the same on memory://; bad arguments are ValueErrors before Redis
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$r = rl_redis();
$prefix = rl_prefix();

foreach ([RL_URL, 'memory://inflight'] as $target) {
    echo "== ", str_starts_with($target, 'memory') ? 'memory' : 'redis', "\n";
    $l = new ConcurrencyLimiter($target, $prefix, 2, 1.0);
    $a = $l->acquire('u');
    $b = $l->acquire('u');
    var_dump($a->id, $a->remaining, $b->remaining, $a->wouldDeny, $l->acquire('u'), $l->inFlight('u'));
    var_dump($a->expiresIn() > 0.9 && $a->expiresIn() <= 1.0);
    $a->release();
    $a->release(); // idempotent: the slot is freed once
    var_dump($a->expiresIn(), $l->inFlight('u'));
    $c = $l->acquire('u');
    var_dump($c instanceof ConcurrencyPermit, $l->inFlight('u'));
    unset($c); // destroying a permit frees its slot
    var_dump($l->inFlight('u'));
    $b->renew();
    var_dump($b->expiresIn() > 0.9);
    // Another id is another limit (the permit, never stored, is gone at once).
    var_dump($l->acquire('v')->remaining, $l->inFlight('v'));
    $l->reset('u');
    var_dump($l->inFlight('u'));
    try {
        $b->renew();
    } catch (RateLimiterException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    $b->release(); // after a reset: nothing to free, no error
}

// The key: prefix:id, a sorted set of leases on the server's clock, with a TTL no longer than the lease.
$l = new ConcurrencyLimiter(RL_URL, $prefix, 3, 0.5);
$p = $l->acquire('k');
$zset = $r->rawCommand('ZRANGE', "$prefix:k", 0, -1, 'WITHSCORES');
var_dump(count($zset), $zset[1] > microtime(true) * 1e6, $r->pttl("$prefix:k") <= 501);
$p->release();
var_dump($r->exists("$prefix:k"));

// Short form: ($key, $max, $ttl) on ratelimit.redis_url.
ini_set('ratelimit.redis_url', RL_URL);
$s = new ConcurrencyLimiter("$prefix:short", 1, 0.5);
$held = $s->acquire();
var_dump($s->acquire(), $s->inFlight());
$held = null;
var_dump($s->inFlight());

// A permit not released by the script is freed at the request's end (here,
// a child PHP's CLI request), and a lease ends on its own after $ttl.
$php = rl_php_shell(['ratelimit.redis_url' => RL_URL]);
$code = '$l = new ConcurrencyLimiter("' . $prefix . ':child", 4, 5.0); $GLOBALS["p"] = $l->acquire("x"); echo $l->inFlight("x");';
echo shell_exec("$php -r " . escapeshellarg($code)), "\n";
$l = new ConcurrencyLimiter(RL_URL, "$prefix:child", 4, 5.0);
var_dump($l->inFlight('x'));

foreach ([
    fn () => new ConcurrencyLimiter(RL_URL, $prefix, 0, 1.0),
    fn () => new ConcurrencyLimiter(RL_URL, $prefix, 2, 0.0),
    fn () => new ConcurrencyLimiter(RL_URL, $prefix, 2, INF),
    fn () => new ConcurrencyLimiter(RL_URL, '', 2, 1.0),
    fn () => (new ConcurrencyLimiter('redis://127.0.0.1:1', $prefix, 2, 1.0))->acquire('x', -1.0),
] as $bad) {
    try {
        $bad();
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
try {
    new ConcurrencyPermit();
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
== redis
string(1) "u"
int(1)
int(0)
bool(false)
NULL
int(2)
bool(true)
float(0)
int(1)
bool(true)
int(2)
int(1)
bool(true)
int(1)
int(0)
int(0)
RateLimiterException: the permit's lease had ended, so its slot may be someone else's
== memory
string(1) "u"
int(1)
int(0)
bool(false)
NULL
int(2)
bool(true)
float(0)
int(1)
bool(true)
int(2)
int(1)
bool(true)
int(1)
int(0)
int(0)
RateLimiterException: the permit's lease had ended, so its slot may be someone else's
int(2)
bool(true)
bool(true)
int(0)
NULL
int(1)
int(0)
1
int(0)
ValueError: ConcurrencyLimiter::__construct(): Argument #3 ($max) must be greater than or equal to 1
ValueError: ConcurrencyLimiter::__construct(): Argument #4 ($ttl) must be greater than 0
ValueError: ConcurrencyLimiter::__construct(): Argument #4 ($ttl) must be a finite number of seconds
ValueError: ConcurrencyLimiter::__construct(): Argument #2 ($keyPrefix) must not be empty
ValueError: ConcurrencyLimiter::acquire(): Argument #2 ($maxWait) must be a finite number of seconds, 0 or more
Error: Call to private ConcurrencyPermit::__construct() from global scope
