--TEST--
make bench's single-process targets for the server module (bench/rounds.php): wall time against the Lua path's fixed window (a cost-1 consume: one library call since lock-out) and Redis µs against the Lua path of the same algorithm, each the median of every round's own ratio (both sides from the same round) with its range, not a ratio of medians; an algorithm without a module case is left out, and without the fixed window there are no targets
--FILE--
<?php
require __DIR__ . '/../bench/lib.php';
require __DIR__ . '/../bench/rounds.php';

// Three rounds; the figures make the median of the rounds' ratios differ from the
// ratio of the medians (wall: 1.10 against 40 / 40 = 1.00; Redis µs: 0.30 against 4 / 12).
$round = fn (float $us, float $redisUs) => ['us' => $us, 'redis_us' => $redisUs];
$runs = [
    'FixedWindow (tcp)' => [$round(40, 2), $round(50, 2), $round(30, 2)],
    'TokenBucket (tcp)' => [$round(60, 12), $round(70, 16), $round(50, 10)],
    'module: TokenBucket (tcp)' => [$round(44, 3.6), $round(40, 4), $round(36, 5)],
    'Gcra (tcp)' => [$round(60, 12), $round(60, 12), $round(60, 12)],
];

foreach (module_targets($runs) as $algo => $t) {
    printf("%s: wall %.2f (%.2f-%.2f), Redis µs %.2f (%.2f-%.2f)\n", $algo, $t['wall']['ratio'], $t['wall']['low'], $t['wall']['high'],
        $t['redis']['ratio'], $t['redis']['low'], $t['redis']['high']);
}
unset($runs['FixedWindow (tcp)']);
var_dump(module_targets($runs));
?>
--EXPECT--
TokenBucket: wall 1.10 (0.80-1.20), Redis µs 0.30 (0.25-0.50)
array(0) {
}
