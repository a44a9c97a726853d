--TEST--
SlidingWindowRateLimiter log mode really slides: in a 0.5 s window, entries leave one group at a time while newer ones stay; measured, run again when the machine stalled
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
// Every entry is at least 0.1 s from the window's edge at each step: a step
// more than 50 ms late (a stalled machine) proves nothing, and the run is
// done again on a fresh key.
rl_retry(function (RlTimeline $clock, int $run) use ($redis) {
    $key = rl_prefix("run$run");
    $limiter = new SlidingWindowRateLimiter(RL_URL, $key, 0.5, 4);
    $at = [$clock, 'at'];
    $try = function (int $n) use ($limiter) {
        $s = '';
        for ($i = 0; $i < $n; $i++) {
            $s .= $limiter->isAllowed() ? 'Y' : 'n';
        }
        return $s . ' ' . $limiter->remaining;
    };
    $log = fn () => $redis->zCount($key, '0', '+inf');
    // Comments: the log after each step (times in s after t=0).
    echo "t=0.00  ", $try(2), "\n";              // 0, 0
    $at(0.20);
    echo "t=0.20  ", $try(3), "\n";              // 0, 0, .2, .2 — the 3rd is denied
    $at(0.35);
    echo "t=0.35  ", $try(1), "\n";              // nothing has left yet
    $at(0.60);
    echo "t=0.60  ", $try(3), " log: ", $log(), "\n"; // t=0 left, t=.2 stays: .2, .2, .6, .6
    $at(0.90);
    echo "t=0.90  ", $try(3), " log: ", $log(), "\n"; // t=.2 left: .6, .6, .9, .9
    $at(1.30);
    echo "t=1.30  peek remaining: ", $limiter->peek()->remaining, " log: ", $log(), "\n"; // .6 is out of the window, still stored
    echo "t=1.30  ", $try(3), " log: ", $log(), "\n"; // .9, .9, 1.3, 1.3
}, 0.05);
?>
--EXPECT--
t=0.00  YY 2
t=0.20  YYn 0
t=0.35  n 0
t=0.60  YYn 0 log: 4
t=0.90  YYn 0 log: 4
t=1.30  peek remaining: 2 log: 4
t=1.30  YYn 0 log: 4
