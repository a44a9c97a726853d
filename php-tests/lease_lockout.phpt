--TEST--
withLease() and lock-out: a lease is not taken on a blocked id (the lease's call reads the block, as a charge does, and starts none); block() on a leased limiter gives this thread's lease of the id back first, so its next call meets the block; withLease() on a limiter that locks out, and withLockout() on a leased one, are ValueErrors (a lease's answers would not see a block)
--INI--
ratelimit.metrics=local
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$show = fn (RateLimitResult $x) => sprintf('%s rem %d retry %s %s', $x->allowed ? 'allowed' : 'denied', $x->remaining, $x->retryAfter > 0 ? '>0' : '0', $x->source);
foreach (['Lua or the module' => RL_URL, 'memory://' => 'memory://lease-lockout'] as $where => $conn) {
    echo "-- $where\n";
    $p = rl_prefix('ll');
    $plain = new TokenBucketRateLimiter($conn, $p, 1000, 1.0);
    $leased = $plain->withLease(50);
    $plain->block('u', 30);
    echo 'a lease on a blocked id: ', $show($leased->consume('u')), '; Redis still has ', $plain->peek('v')->remaining, " for another id\n";
    $plain->unblock('u');
    echo 'unblocked, a lease: ', $show($leased->consume('u')), '; then from it: ', $show($leased->consume('u')), '; left in Redis: ', $plain->peek('u')->remaining, "\n";
    $held = RateLimitMetrics::leases()[$p]['held'];
    $leased->block('u', 30);
    echo "block() on the leased limiter: units held $held, then ", RateLimitMetrics::leases()[$p]['held'], ' (its lease back); its next call: ', $show($leased->consume('u')), "\n";
    foreach ([fn () => $plain->withLockout(10)->withLease(50), fn () => $leased->withLockout(10)] as $f) {
        try {
            $f();
            echo "no error\n";
        } catch (ValueError $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
}
?>
--EXPECT--
-- Lua or the module
a lease on a blocked id: denied rem 0 retry >0 redis; Redis still has 1000 for another id
unblocked, a lease: allowed rem 999 retry 0 redis; then from it: allowed rem 998 retry 0 lease; left in Redis: 950
block() on the leased limiter: units held 48, then 0 (its lease back); its next call: denied rem 0 retry >0 redis
ValueError: TokenBucketRateLimiter::withLease(): Argument #1 ($units) must be used on a limiter that does not lock out (a lease's answers would not see withLockout()'s blocks)
ValueError: TokenBucketRateLimiter::withLockout(): Argument #1 ($seconds) must be used on a limiter without a lease (withLease(): a lease's answers would not see a block)
-- memory://
a lease on a blocked id: denied rem 0 retry >0 memory; Redis still has 1000 for another id
unblocked, a lease: allowed rem 999 retry 0 memory; then from it: allowed rem 998 retry 0 lease; left in Redis: 950
block() on the leased limiter: units held 48, then 0 (its lease back); its next call: denied rem 0 retry >0 memory
ValueError: TokenBucketRateLimiter::withLease(): Argument #1 ($units) must be used on a limiter that does not lock out (a lease's answers would not see withLockout()'s blocks)
ValueError: TokenBucketRateLimiter::withLockout(): Argument #1 ($seconds) must be used on a limiter without a lease (withLease(): a lease's answers would not see a block)
