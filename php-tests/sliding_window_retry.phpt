--TEST--
SlidingWindowRateLimiter log mode: retryAfter waits for just enough of the oldest entries to leave, resetAfter for the newest; measured, run again when the machine stalled
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$show = function (string $what, RateLimitResult $r, float $retry, float $reset) {
    printf("%-14s %s remaining=%d retryAfter=%s resetAfter=%s\n", $what, $r->allowed ? 'allowed' : 'denied ',
        $r->remaining, rl_near($r->retryAfter, $retry), rl_near($r->resetAfter, $reset));
};
// A step more than 30 ms late (a stalled machine) proves nothing: the run is
// done again on a fresh key.
rl_retry(function (RlTimeline $clock, int $try) use ($show) {
    $limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix("try$try"), 1, 3);
    $at = [$clock, 'at'];
    // Comments: the log (times in s after t=0) and why the values are what they are.
    $show('t=0 cost 1', $limiter->consume(), 0, 1);            // 0
    $at(0.2);
    $show('t=.2 cost 2', $limiter->consume('', 2), 0, 1);      // 0, .2, .2
    $show('t=.2 cost 1', $limiter->consume(), 0.8, 1);         // full: the entry of t=0 leaves at 1.0
    $show('t=.2 cost 2', $limiter->consume('', 2), 1, 1);      // 2 must leave: the 2nd oldest leaves at 1.2
    $show('t=.2 cost 3', $limiter->consume('', 3), 1, 1);      // all 3 must leave
    $show('t=.2 peek', $limiter->peek(), 0.8, 1);              // peek asks about cost 1
    $at(0.6);
    $show('t=.6 cost 1', $limiter->consume(), 0.4, 0.6);
    $at(1.05);
    $show('t=1.05 cost 2', $limiter->consume('', 2), 0.15, 0.15); // t=0 left: 1 free, 2 do not fit yet
    $show('t=1.05 cost 1', $limiter->consume(), 0, 1);         // .2, .2, 1.05
    $at(1.25);
    $show('t=1.25 peek', $limiter->peek(), 0, 0.8);            // .2 left: 1.05 alone, 2 free
}, 0.03);
?>
--EXPECT--
t=0 cost 1     allowed remaining=2 retryAfter=0.00 resetAfter=1.00
t=.2 cost 2    allowed remaining=0 retryAfter=0.00 resetAfter=1.00
t=.2 cost 1    denied  remaining=0 retryAfter=0.80 resetAfter=1.00
t=.2 cost 2    denied  remaining=0 retryAfter=1.00 resetAfter=1.00
t=.2 cost 3    denied  remaining=0 retryAfter=1.00 resetAfter=1.00
t=.2 peek      denied  remaining=0 retryAfter=0.80 resetAfter=1.00
t=.6 cost 1    denied  remaining=0 retryAfter=0.40 resetAfter=0.60
t=1.05 cost 2  denied  remaining=1 retryAfter=0.15 resetAfter=0.15
t=1.05 cost 1  allowed remaining=0 retryAfter=0.00 resetAfter=1.00
t=1.25 peek    allowed remaining=2 retryAfter=0.00 resetAfter=0.80
