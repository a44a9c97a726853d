--TEST--
SlidingWindowRateLimiter blocks mode: per-slice counters; every slice overlapping the window counts (denies up to one slice early, never late); expired slices are deleted; timed on slice boundaries, run again when the machine stalled
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
$show = function (string $what, RateLimitResult $r, float $retry, float $reset) {
    printf("%-12s %s remaining=%d retryAfter=%s resetAfter=%s\n", $what, $r->allowed ? 'allowed' : 'denied ',
        $r->remaining, rl_near($r->retryAfter, $retry), rl_near($r->resetAfter, $reset));
};
// Slices are aligned on the server clock (the same clock as ours here): each
// run starts 10 ms into a slice B, so that every step below lands 10 ms into
// its slice. A step more than 30 ms late (a stalled machine) proves nothing:
// the run is done again on a fresh key.
$sliceStart = fn () => ceil(microtime(true) / 0.2) * 0.2 + 0.01;
rl_retry(function (RlTimeline $clock, int $try) use ($redis, $show) {
    // Window 0.6 s in 3 slices of 0.2 s, at most 4 requests.
    $key = rl_prefix("try$try");
    $limiter = new SlidingWindowRateLimiter(RL_URL, $key, 0.6, 4, 3);
    $at = [$clock, 'at'];

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
}, 0.03, 3, $sliceStart);
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
