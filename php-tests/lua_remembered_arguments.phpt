--TEST--
The Lua library remembers each argument string's number between calls (num() in lua/library.lua) and starts again after 4,096 distinct ones: 5,000 distinct costs on two limiters interleaved still decide exactly
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
// Costs above 1 go through the library for the fixed window too. Every cost is a
// new argument string, and each call also passes the limiters' own arguments,
// so the remembered table fills, starts again and fills again during the run.
$window = new FixedWindowRateLimiter(RL_URL, rl_prefix('fw'), 600, 100000000);
$blocks = new SlidingWindowRateLimiter(RL_URL, rl_prefix('swb'), 600, 90000000, 10); // blocks: no refill within the test
$wantWindow = 100000000;
$wantBlocks = 90000000;
$wrong = 0;
for ($cost = 2; $cost <= 5001; $cost++) {
    $wantWindow -= $cost;
    $wantBlocks -= $cost;
    $a = $window->consume('id', $cost);
    $b = $blocks->consume('id', $cost);
    if (!$a->allowed || $a->remaining !== $wantWindow || !$b->allowed || $b->remaining !== $wantBlocks) {
        if (++$wrong <= 3) echo "cost $cost: window {$a->remaining} (want $wantWindow), blocks {$b->remaining} (want $wantBlocks)\n";
    }
}
echo "wrong answers: $wrong\n";
echo "window ", $window->peek('id')->remaining, ", blocks ", $blocks->peek('id')->remaining, "\n";
?>
--EXPECT--
wrong answers: 0
window 87492500, blocks 77492500
