--TEST--
SlidingWindowRateLimiter blocks mode: per-slice counters; every slice overlapping the window counts (denies up to one slice early, never late); expired slices are deleted
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
// Window 0.6 s in 3 slices of 0.2 s, at most 4 requests.
$limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix(), 0.6, 4, 3);
$redis = rl_redis();
$key = rl_prefix();
// Slices are aligned on the server clock (the same clock as ours here): start
// 10 ms into a slice B, so that every step below lands 10 ms into its slice.
$b = ceil(microtime(true) / 0.2) * 0.2;
$at = function (float $t) use ($b) { time_sleep_until($b + 0.01 + $t); };
$show = function (string $what, RateLimitResult $r, float $retry, float $reset) {
    printf("%-12s %s remaining=%d retryAfter=%s resetAfter=%s\n", $what, $r->allowed ? 'allowed' : 'denied ',
        $r->remaining, rl_near($r->retryAfter, $retry), rl_near($r->resetAfter, $reset));
};

// Comments: slice counts (B, B+1, ...) and the slices a decision counts.
$at(0);
$limiter->consume(); $limiter->consume();
$show('t=0', $limiter->consume(), 0, 0.79);          // B:3 — the slice B leaves at B+0.2+0.6
$at(0.2);
$show('t=.2', $limiter->consume(), 0, 0.79);         // B:3 B+1:1
$show('t=.2', $limiter->consume(), 0.59, 0.79);      // full; B leaves the window at 0.8
echo "fields: ", $redis->hLen($key), "\n";
$at(0.62);
// An exact log would allow now (the 3 of t=0 are 0.62 s old), but slice B
// still overlaps the window (0.02, 0.62]: denied, one slice early at most.
$show('t=.62', $limiter->consume(), 0.17, 0.37);
$at(0.8);
$r = [$limiter->consume(), $limiter->consume(), $limiter->consume()];
$show('t=.8 x3', $r[2], 0, 0.79);                    // B gone: B+1:1 B+4:3
$show('t=.8', $limiter->consume(), 0.19, 0.79);      // B+1 leaves at 1.0
echo "fields: ", $redis->hLen($key), " (slice B was deleted)\n";
$at(1.25);
$show('t=1.25 peek', $limiter->peek(), 0, 0.34);     // B+1 gone: B+4:3 left, it leaves at 1.6
echo "fields: ", $redis->hLen($key), " (peek deletes nothing)\n";
echo "counts: ", implode(',', array_values($redis->hGetAll($key))), "\n";
?>
--EXPECT--
t=0          allowed remaining=1 retryAfter=0.00 resetAfter=0.79
t=.2         allowed remaining=0 retryAfter=0.00 resetAfter=0.79
t=.2         denied  remaining=0 retryAfter=0.59 resetAfter=0.79
fields: 2
t=.62        denied  remaining=0 retryAfter=0.17 resetAfter=0.37
t=.8 x3      allowed remaining=0 retryAfter=0.00 resetAfter=0.79
t=.8         denied  remaining=0 retryAfter=0.19 resetAfter=0.79
fields: 2 (slice B was deleted)
t=1.25 peek  allowed remaining=1 retryAfter=0.00 resetAfter=0.34
fields: 2 (peek deletes nothing)
counts: 1,3
