--TEST--
Every class, one table: the exact key (ratelimit.key_prefix read at construction, binary ids, 8 KiB at most), a TTL that is the time the state still matters and that denied calls do not extend, foreign values refused, and short-lived state really expiring on the server's clock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$r = rl_redis();
// What each check prints, kind by kind, for rl_table().
$seen = [];
$print = function (string $kind, string $check, callable $f) use (&$seen) {
    ob_start();
    $f();
    $seen[$kind][$check] = rtrim(ob_get_clean());
};
foreach (rl_classes() as $kind => $c) {
    $p = rl_prefix($kind);
    ini_set('ratelimit.key_prefix', 'app1:');
    $l = rl_long($kind, RL_URL, $p, 3);
    ini_set('ratelimit.key_prefix', '');   // read at construction: $l keeps 'app1:'
    $l->isAllowed('bob');
    $seen[$kind]["ratelimit.key_prefix read at construction: keys 'app1:'.\$key, \$key"] = $r->exists("app1:$p:bob") . ', ' . $r->exists("$p:bob");

    $bin = "a\0b{x}:\xff";
    $l = rl_long($kind, RL_URL, $p, 3);
    $l->isAllowed($bin);
    $t = microtime(true);
    $one = $l->consume($bin);
    $ttl = $r->pttl("$p:$bin");
    $elapsed = (microtime(true) - $t) * 1000;
    $seen[$kind]['a binary id, 2 of 3 taken, stored'] = rl_state($kind, $r, "$p:$bin", 3);
    // The TTL is when the state no longer matters: what resetAfter says, within the time the call and PTTL took.
    $ttlIsReset = fn (int $ttl, RateLimitResult $d, float $elapsed) => $ttl <= ceil($d->resetAfter * 1000) && $ttl >= $d->resetAfter * 1000 - $elapsed - 1;
    $seen[$kind]['2 of 3 taken: resetAfter'] = rl_seconds($kind, $one->resetAfter) . ' s';
    $seen[$kind]['2 of 3 taken: the TTL is resetAfter'] = var_export($ttlIsReset($ttl, $one, $elapsed), true);
    $t = microtime(true);
    $full = $l->consume($bin);
    $ttl = $r->pttl("$p:$bin");
    $elapsed = (microtime(true) - $t) * 1000;
    $seen[$kind]['full: resetAfter'] = rl_seconds($kind, $full->resetAfter) . ' s';
    $seen[$kind]['full: the TTL is resetAfter'] = var_export($ttlIsReset($ttl, $full, $elapsed), true);
    $l->consume($bin);
    $l->peek($bin);
    $seen[$kind]['a denied call and a peek do not extend it'] = var_export($r->pttl("$p:$bin") <= $ttl, true);
    $l->reset($bin);
    $l->isAllowed($bin);
    $r->persist("$p:$bin");
    $l->isAllowed($bin);
    $ttl = $r->pttl("$p:$bin");
    $seen[$kind]['a key found without a TTL gets one'] = var_export($ttl > 0 && $ttl <= RL_SLOW * 1000 * 7 / 6, true);

    // A key is at most 8 KiB.
    $most = str_repeat('x', 8192 - strlen("$p:"));
    $seen[$kind]['a key of 8192 bytes'] = var_export($l->isAllowed($most), true);
    $r->del("$p:$most");
    $print($kind, 'a key of 8193 bytes', fn () => rl_throws(fn () => $l->isAllowed("{$most}x")));

    // A key holding something else is a Redis error, not a guess; the value stays.
    $r->set("$p:string", 'hello');
    $r->hSet("$p:hash", 'f', 'v');
    foreach (['string', 'hash'] as $id) {
        try {
            $l->consume($id);
            $seen[$kind]["a foreign $id"] = 'answered!';
        } catch (RateLimiterException $e) {
            // (Redis names the script and line of a WRONGTYPE: not part of the contract.)
            $seen[$kind]["a foreign $id"] = preg_replace('/ script: .*/', '', str_replace(RL_URL, 'RL_URL', $e->getMessage()));
        }
    }
    $seen[$kind]['the foreign values stay'] = $r->get("$p:string") . ' ' . $r->hGet("$p:hash", 'f');
}

// Short-lived state expires: limit 2, freed in 0.3 s. A run that stalls more
// than 0.1 s in a step proves nothing (a unit of the buckets and GCRA frees
// every 0.15 s): rl_retry() runs it again.
foreach (rl_classes() as $kind => $c) {
    $print($kind, 'limit 2 freed in 0.3 s: 3 calls; the key; 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice); after resetAfter: the key; 3 calls',
        fn () => rl_retry(function (RlTimeline $clock, int $try) use ($kind, $r) {
            $key = rl_prefix("$kind:expiry$try");
            $l = rl_long($kind, RL_URL, $key, 2, 0.3);
            $seq = '';
            for ($i = 0; $i < 3; $i++) {
                $seq .= $l->isAllowed() ? 'Y' : 'n';
            }
            $d = $l->consume();
            $times = 0 < $d->retryAfter && $d->retryAfter <= $d->resetAfter && $d->resetAfter <= 0.3 + 0.3 / (rl_classes()[$kind]['slices'] ?? INF);
            echo "$seq; ", $r->exists($key), '; ', var_export($times, true);
            $clock->at($d->resetAfter + 0.05);
            $gone = $r->exists($key);
            $seq = '';
            for ($i = 0; $i < 3; $i++) {
                $seq .= $l->isAllowed() ? 'Y' : 'n';
            }
            echo "; $gone; $seq";
        }, 0.1));
}
rl_table($seen);
?>
--EXPECT--
ratelimit.key_prefix read at construction: keys 'app1:'.$key, $key: 1, 0
a binary id, 2 of 3 taken, stored:
  fixed    counter '2'
  sliding  entries 2
  blocks   counted in the slices 2
  token    tokens 1.0
  leaky    level 2.0
  gcra     TAT 2.0 intervals ahead
2 of 3 taken: resetAfter:
  fixed    300 s
  sliding  300 s
  blocks   300+slice s
  token    200 s
  leaky    200 s
  gcra     200 s
2 of 3 taken: the TTL is resetAfter: true
full: resetAfter:
  fixed    300 s
  sliding  300 s
  blocks   300+slice s
  token    300 s
  leaky    300 s
  gcra     300 s
full: the TTL is resetAfter: true
a denied call and a peek do not extend it: true
a key found without a TTL gets one: true
a key of 8192 bytes: true
a key of 8193 bytes:
  fixed    ValueError: FixedWindowRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
  sliding  ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
  blocks   ValueError: SlidingWindowRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
  token    ValueError: TokenBucketRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
  leaky    ValueError: LeakyBucketRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
  gcra     ValueError: GcraRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
a foreign string:
  fixed    Redis at RL_URL: ERR ratelimit: the key holds a value that is not a fixed-window counter
  sliding  Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
  blocks   Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
  token    Redis at RL_URL: ERR ratelimit: the key holds a value that is not a token bucket
  leaky    Redis at RL_URL: ERR ratelimit: the key holds a value that is not a leaky bucket
  gcra     Redis at RL_URL: ERR ratelimit: the key holds a value that is not a GCRA timestamp
a foreign hash:
  fixed    Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
  sliding  Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
  blocks   Redis at RL_URL: ERR ratelimit: the key holds a hash that is not a sliding-window counter
  token    Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
  leaky    Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
  gcra     Redis at RL_URL: WRONGTYPE Operation against a key holding the wrong kind of value
the foreign values stay: hello v
limit 2 freed in 0.3 s: 3 calls; the key; 0 < retryAfter <= resetAfter <= 0.3 s (+ a slice); after resetAfter: the key; 3 calls: YYn; 1; true; 0; YYn
