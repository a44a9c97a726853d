--TEST--
Every class, one table: the exact key (ratelimit.key_prefix read at construction, binary ids, 8 KiB at most), a TTL that is the time the state still matters and that denied calls do not extend, foreign values refused, and short-lived state really expiring on the server's clock
--SKIPIF--
<?php $needs = ['redis']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$r = rl_redis();
foreach (rl_classes() as $kind => $c) {
    echo "== $kind\n";
    $p = rl_prefix($kind);
    ini_set('ratelimit.key_prefix', 'app1:');
    $l = rl_long($kind, RL_URL, $p, 3);
    ini_set('ratelimit.key_prefix', '');   // read at construction: $l keeps 'app1:'
    $l->isAllowed('bob');
    echo "ratelimit.key_prefix: ", $r->exists("app1:$p:bob"), $r->exists("$p:bob"), "\n";

    $bin = "a\0b{x}:\xff";
    $l = rl_long($kind, RL_URL, $p, 3);
    $l->isAllowed($bin);
    $t = microtime(true);
    $one = $l->consume($bin);
    $ttl = $r->pttl("$p:$bin");
    $elapsed = (microtime(true) - $t) * 1000;
    echo "binary id: ", rl_state($kind, $r, "$p:$bin", 3), "\n";
    // The TTL is when the state no longer matters: what resetAfter says, within the time the call and PTTL took.
    $ttlIsReset = fn (int $ttl, RateLimitResult $d, float $elapsed) => $ttl <= ceil($d->resetAfter * 1000) && $ttl >= $d->resetAfter * 1000 - $elapsed - 1;
    echo "TTL after 2 of 3 is resetAfter (", rl_seconds($kind, $one->resetAfter), " s): ", var_export($ttlIsReset($ttl, $one, $elapsed), true), "\n";
    $t = microtime(true);
    $full = $l->consume($bin);
    $ttl = $r->pttl("$p:$bin");
    $elapsed = (microtime(true) - $t) * 1000;
    echo "TTL when full is resetAfter (", rl_seconds($kind, $full->resetAfter), " s): ", var_export($ttlIsReset($ttl, $full, $elapsed), true), "\n";
    $l->consume($bin);
    $l->peek($bin);
    echo "a denied call and a peek do not extend it: ", var_export($r->pttl("$p:$bin") <= $ttl, true), "\n";
    $l->reset($bin);
    $l->isAllowed($bin);
    $r->persist("$p:$bin");
    $l->isAllowed($bin);
    $ttl = $r->pttl("$p:$bin");
    echo "a key found without a TTL gets one: ", var_export($ttl > 0 && $ttl <= RL_SLOW * 1000 * 7 / 6, true), "\n";

    echo "-- a key is at most 8 KiB\n";
    $most = str_repeat('x', 8192 - strlen("$p:"));
    echo "8192 bytes: ", var_export($l->isAllowed($most), true), "\n";
    $r->del("$p:$most");
    rl_throws(fn () => $l->isAllowed("{$most}x"));

    echo "-- a key holding something else is a Redis error, not a guess; the value stays\n";
    $r->set("$p:string", 'hello');
    $r->hSet("$p:hash", 'f', 'v');
    foreach (['string', 'hash'] as $id) {
        try {
            $l->consume($id);
            echo "$id: answered!\n";
        } catch (RateLimiterException $e) {
            // (Redis names the script and line of a WRONGTYPE: not part of the contract.)
            echo "$id: ", preg_replace('/ script: .*/', '', str_replace(RL_URL, 'RL_URL', $e->getMessage())), "\n";
        }
    }
    echo "still there: ", $r->get("$p:string"), ' ', $r->hGet("$p:hash", 'f'), "\n";
}

echo "== short-lived state expires: limit 2 freed in 0.3 s\n";
// A run that stalls more than 0.1 s in a step proves nothing (a unit of the
// buckets and GCRA frees every 0.15 s): rl_retry() runs it again.
foreach (rl_classes() as $kind => $c) {
    rl_retry(function (RlTimeline $clock, int $try) use ($kind, $r) {
        $key = rl_prefix("$kind:expiry$try");
        $l = rl_long($kind, RL_URL, $key, 2, 0.3);
        $seq = '';
        for ($i = 0; $i < 3; $i++) {
            $seq .= $l->isAllowed() ? 'Y' : 'n';
        }
        $d = $l->consume();
        $times = 0 < $d->retryAfter && $d->retryAfter <= $d->resetAfter && $d->resetAfter <= 0.3 + 0.3 / (rl_classes()[$kind]['slices'] ?? INF);
        printf("%-8s %s, key: %d, 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice): %s", $kind, $seq, $r->exists($key), var_export($times, true));
        $clock->at($d->resetAfter + 0.05);
        echo "; after resetAfter, key: ", $r->exists($key);
        $seq = '';
        for ($i = 0; $i < 3; $i++) {
            $seq .= $l->isAllowed() ? 'Y' : 'n';
        }
        echo ", again $seq\n";
    }, 0.1);
}
?>
--EXPECT--
== fixed
ratelimit.key_prefix: 10
binary id: counter '2'
TTL after 2 of 3 is resetAfter (300 s): true
TTL when full is resetAfter (300 s): true
a denied call and a peek do not extend it: true
a key found without a TTL gets one: true
-- a key is at most 8 KiB
8192 bytes: true
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
-- a key holding something else is a Redis error, not a guess; the value stays
string: Redis at RL_URL: ERR ratelimit: the key holds a value that is not a fixed-window counter
hash: Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
still there: hello v
== sliding
ratelimit.key_prefix: 10
binary id: entries 2, sequence member -2.0
TTL after 2 of 3 is resetAfter (300 s): true
TTL when full is resetAfter (300 s): true
a denied call and a peek do not extend it: true
a key found without a TTL gets one: true
-- a key is at most 8 KiB
8192 bytes: true
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
-- a key holding something else is a Redis error, not a guess; the value stays
string: Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
hash: Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
still there: hello v
== blocks
ratelimit.key_prefix: 10
binary id: counted in the slices 2
TTL after 2 of 3 is resetAfter (300+slice s): true
TTL when full is resetAfter (300+slice s): true
a denied call and a peek do not extend it: true
a key found without a TTL gets one: true
-- a key is at most 8 KiB
8192 bytes: true
ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
-- a key holding something else is a Redis error, not a guess; the value stays
string: Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
hash: Redis at RL_URL: ERR ratelimit: the key holds a hash that is not a sliding-window counter
still there: hello v
== token
ratelimit.key_prefix: 10
binary id: tokens 1.00
TTL after 2 of 3 is resetAfter (200 s): true
TTL when full is resetAfter (300 s): true
a denied call and a peek do not extend it: true
a key found without a TTL gets one: true
-- a key is at most 8 KiB
8192 bytes: true
ValueError: TokenBucketRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
-- a key holding something else is a Redis error, not a guess; the value stays
string: Redis at RL_URL: ERR ratelimit: the key holds a value that is not a token bucket
hash: Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
still there: hello v
== leaky
ratelimit.key_prefix: 10
binary id: level 2.00
TTL after 2 of 3 is resetAfter (200 s): true
TTL when full is resetAfter (300 s): true
a denied call and a peek do not extend it: true
a key found without a TTL gets one: true
-- a key is at most 8 KiB
8192 bytes: true
ValueError: LeakyBucketRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
-- a key holding something else is a Redis error, not a guess; the value stays
string: Redis at RL_URL: ERR ratelimit: the key holds a value that is not a leaky bucket
hash: Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
still there: hello v
== gcra
ratelimit.key_prefix: 10
binary id: TAT 2.00 intervals ahead
TTL after 2 of 3 is resetAfter (200 s): true
TTL when full is resetAfter (300 s): true
a denied call and a peek do not extend it: true
a key found without a TTL gets one: true
-- a key is at most 8 KiB
8192 bytes: true
ValueError: GcraRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
-- a key holding something else is a Redis error, not a guess; the value stays
string: Redis at RL_URL: ERR ratelimit: the key holds a value that is not a GCRA timestamp
hash: Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
still there: hello v
== short-lived state expires: limit 2 freed in 0.3 s
fixed    YYn, key: 1, 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice): true; after resetAfter, key: 0, again YYn
sliding  YYn, key: 1, 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice): true; after resetAfter, key: 0, again YYn
blocks   YYn, key: 1, 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice): true; after resetAfter, key: 0, again YYn
token    YYn, key: 1, 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice): true; after resetAfter, key: 0, again YYn
leaky    YYn, key: 1, 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice): true; after resetAfter, key: 0, again YYn
gcra     YYn, key: 1, 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice): true; after resetAfter, key: 0, again YYn
