--TEST--
withLease() on the token bucket, GCRA and the fixed window: a consume is answered from this process's lease without a round trip (source 'lease'), a lease takes up to $units and never more than is there; what is left goes back at maxAge (next call, request end), on reset() and at process end; a fixed window's lease ends with its window; bad terms are ValueErrors before Redis; Reflection; memory://; dry run, the block cache, on_error (allow, local); RateLimitMetrics::leases() and php --ri
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.metrics=local
ratelimit.connect_timeout=0.2
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$r = rl_redis();
$show = fn (RateLimitResult $x) => sprintf('%s rem %d %s', $x->allowed ? 'allowed' : 'denied', $x->remaining, $x->source);

echo "-- each class: one call takes a lease, the next ones spend it\n";
foreach (['token', 'gcra', 'fixed'] as $kind) {
    $p = rl_prefix("l-$kind");
    $plain = rl_long($kind, RL_URL, $p, 1000);
    $l = $plain->withLease(50);
    $answers = [];
    for ($i = 0; $i < 50; $i++) $answers[] = $l->consume('u');
    $by = RateLimitMetrics::sources()[$p];
    printf("%-6s %s | %s | %s; answered by Redis %d, by the lease %d; Redis has %d left; \$remaining %d; copy of %s\n", $kind,
        $show($answers[0]), $show($answers[1]), $show($answers[49]), $by['redis'], $by['lease'], $plain->peek('u')->remaining, $l->remaining, get_class($l));
    echo '  the 51st takes a new lease: ', $show($l->consume('u')), "\n";
    echo '  a cost of 40 when 49 are held: ', $show($l->consume('u', 40)), '; then a cost of 10: ', $show($l->consume('u', 10)), "\n";
}

echo "-- never more than is there, and less as the limit runs low\n";
$p = rl_prefix('low');
$plain = new TokenBucketRateLimiter(RL_URL, $p, 10, 0.0001);
$plain->consume('u', 7);
$l = $plain->withLease(50);
echo 'lease on 3 left: ', $show($l->consume('u')), '; Redis: ', $plain->peek('u')->remaining, '; held: ', RateLimitMetrics::leases()[$p]['held'], "\n";
echo 'then: ', $show($l->consume('u')), ' ', $show($l->consume('u')), ' ', $show($l->consume('u')), "\n";
echo 'a cost that does not fit: ', $show($l->consume('u', 3)), "\n";

echo "-- gives back at maxAge, on the next call\n";
$p = rl_prefix('age');
$plain = new GcraRateLimiter(RL_URL, $p, 999, 1000, 300);
$l = $plain->withLease(50, 0.2);
$l->consume('u');
echo 'after one consume Redis has ', $plain->peek('u')->remaining, "\n";
usleep(250000);
$l->consume('u');
echo 'past maxAge, the next consume gave 49 back and took 50 again: Redis has ', $plain->peek('u')->remaining, "\n";

echo "-- reset() gives the lease back with the key\n";
$l->reset('u');
$m = RateLimitMetrics::leases()[$p];
echo 'Redis has ', $plain->peek('u')->remaining, "; leased {$m['leased']} returned {$m['returned']} expired {$m['expired']} held {$m['held']}\n";

echo "-- a fixed window's lease ends with its window: its units are void, not refunded into the next\n";
$p = rl_prefix('window');
$plain = new FixedWindowRateLimiter(RL_URL, $p, 0.3, 100);
$l = $plain->withLease(50, 10);
echo $show($l->consume('u')), "\n";
usleep(320000);
echo 'next window: ', $show($l->consume('u')), '; counter ', $r->get("$p:u"), "\n";
$m = RateLimitMetrics::leases()[$p];
echo "leased {$m['leased']} returned {$m['returned']} expired {$m['expired']} held {$m['held']}\n";

echo "-- at the process's end what is left goes back\n";
$p = rl_prefix('end');
$child = rl_php_shell() . ' -r ' . escapeshellarg('$l = (new TokenBucketRateLimiter("' . RL_URL . '", "' . $p . '", 1000, 0.0001))->withLease(50, 60);'
    . ' $l->consume("u"); $l->consume("u"); echo RateLimitMetrics::leases()["' . $p . '"]["held"];');
echo 'the child held ', shell_exec($child), '; after it ended Redis has ', (new TokenBucketRateLimiter(RL_URL, $p, 1000, 0.0001))->peek('u')->remaining, "\n";

echo "-- bad terms\n";
$t = new TokenBucketRateLimiter(RL_URL, rl_prefix('bad'), 10, 1.0);
rl_throws(fn () => $t->withLease(0));
rl_throws(fn () => $t->withLease(5, 0.0));
rl_throws(fn () => $t->withLease(5, NAN));
rl_throws(fn () => $t->withLease(5, INF));
rl_throws(fn () => $t->withLease('x'));
rl_throws(fn () => (new SlidingWindowRateLimiter(RL_URL, 'x', 1.0, 5))->withLease(5));
echo new ReflectionMethod('FixedWindowRateLimiter', 'withLease');

echo "-- memory://\n";
$m = (new FixedWindowRateLimiter('memory://lease', 'm', 60, 10))->withLease(4);
echo $show($m->consume('u')), ' ', $show($m->consume('u')), "\n";

echo "-- dry run: a denied take is answered allowed with wouldDeny, and holds nothing (2 left: leases of 1)\n";
$p = rl_prefix('dry');
$d = (new GcraRateLimiter(RL_URL, $p, 1, 2, 300))->withLease(50)->withDryRun();
foreach ([1, 2, 3] as $i) { $x = $d->consume('u'); echo $show($x), ' wouldDeny ', var_export($x->wouldDeny, true), "\n"; }

echo "-- the block cache answers a remembered denial without a take\n";
ini_set('ratelimit.block_cache', '1');
$p = rl_prefix('cache');
$c = (new TokenBucketRateLimiter(RL_URL, $p, 2, 0.0001))->withLease(50);
echo $show($c->consume('u', 2)), ' | ', $show($c->consume('u')), ' | ', $show($c->consume('u')), "\n";
ini_set('ratelimit.block_cache', '0');

echo "-- on_error: a failed take is a failed call\n";
$down = (new TokenBucketRateLimiter('redis://127.0.0.1:' . rl_free_port(), rl_prefix('down'), 100, 1.0))->withLease(50);
ini_set('ratelimit.on_error', 'allow');
echo 'allow: ', $show($down->consume('u')), "\n";
ini_set('ratelimit.on_error', 'local');
echo 'local: ', $show($down->consume('u')), ' ', $show($down->consume('u')), "\n";
ini_set('ratelimit.on_error', 'throw');
rl_throws(fn () => $down->consume('u'));

echo "-- php --ri\n";
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
preg_match('/held by this thread => (.*)/', $info, $m);
echo 'held by this thread => ', $m[1], "\n";
?>
--EXPECTF--
-- each class: one call takes a lease, the next ones spend it
token  allowed rem 999 redis | allowed rem 998 lease | allowed rem 950 lease; answered by Redis 1, by the lease 49; Redis has 950 left; $remaining 950; copy of TokenBucketRateLimiter
  the 51st takes a new lease: allowed rem 949 redis
  a cost of 40 when 49 are held: allowed rem 909 lease; then a cost of 10: allowed rem 899 redis
gcra   allowed rem 999 redis | allowed rem 998 lease | allowed rem 950 lease; answered by Redis 1, by the lease 49; Redis has 950 left; $remaining 950; copy of GcraRateLimiter
  the 51st takes a new lease: allowed rem 949 redis
  a cost of 40 when 49 are held: allowed rem 909 lease; then a cost of 10: allowed rem 899 redis
fixed  allowed rem 999 redis | allowed rem 998 lease | allowed rem 950 lease; answered by Redis 1, by the lease 49; Redis has 950 left; $remaining 950; copy of FixedWindowRateLimiter
  the 51st takes a new lease: allowed rem 949 redis
  a cost of 40 when 49 are held: allowed rem 909 lease; then a cost of 10: allowed rem 899 redis
-- never more than is there, and less as the limit runs low
lease on 3 left: allowed rem 2 redis; Redis: 2; held: 0
then: allowed rem 1 redis allowed rem 0 redis denied rem 0 redis
a cost that does not fit: denied rem 0 redis
-- gives back at maxAge, on the next call
after one consume Redis has 950
past maxAge, the next consume gave 49 back and took 50 again: Redis has 949
-- reset() gives the lease back with the key
Redis has 1000; leased 100 returned 98 expired 0 held 0
-- a fixed window's lease ends with its window: its units are void, not refunded into the next
allowed rem 99 redis
next window: allowed rem 99 redis; counter 25
leased 50 returned 0 expired 24 held 24
-- at the process's end what is left goes back
the child held 48; after it ended Redis has 998
-- bad terms
ValueError: TokenBucketRateLimiter::withLease(): Argument #1 ($units) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::withLease(): Argument #2 ($maxAge) must be a number of seconds greater than 0 and at most 86400, 0 given
ValueError: TokenBucketRateLimiter::withLease(): Argument #2 ($maxAge) must be a number of seconds greater than 0 and at most 86400, NaN given
ValueError: TokenBucketRateLimiter::withLease(): Argument #2 ($maxAge) must be a number of seconds greater than 0 and at most 86400, inf given
TypeError: TokenBucketRateLimiter::withLease(): Argument #1 ($units) must be of type int, string given
Error: Call to undefined method SlidingWindowRateLimiter::withLease()
Method [ <internal:ratelimit> public method withLease ] {

  - Parameters [2] {
    Parameter #0 [ <required> int $units ]
    Parameter #1 [ <optional> float $maxAge = 1.0 ]
  }
  - Return [ static ]
}
-- memory://
allowed rem 9 memory allowed rem 8 lease
-- dry run: a denied take is answered allowed with wouldDeny, and holds nothing (2 left: leases of 1)
allowed rem 1 redis wouldDeny false
allowed rem 0 redis wouldDeny false
allowed rem 0 redis wouldDeny true
-- the block cache answers a remembered denial without a take
allowed rem 0 redis | denied rem 0 redis | denied rem 0 cache
-- on_error: a failed take is a failed call
allow: allowed rem 100 on_error
local: allowed rem 9 local allowed rem 8 local
RateLimiterException: Redis at redis://127.0.0.1:%d: not tried, the circuit breaker is open for %f s more (the last call failed: connection refused); the decision was not counted
-- php --ri
held by this thread => %d in %d lease(s)
