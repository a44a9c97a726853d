--TEST--
SlidingWindowRateLimiter memory per key beyond every_class_memory: the log stays compact with time-named and 11-digit sequence members; blocks mode stays under 1 KB under heavy traffic across many slices
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
$usage = fn (string $key) => (int) $redis->rawCommand('MEMORY', 'USAGE', $key);
$check = fn (string $what, int $bytes, int $max) => printf("%s: %s\n", $what, $bytes <= $max ? "<= $max" : "$bytes > $max");

// A unit accepted alone is named by its time in µs (16 digits); units of a
// larger cost are sequence numbers: after ten billion earlier ones (a key that
// never expired) they are 11-digit numbers. Both are stored as integers.
$log = new SlidingWindowRateLimiter(RL_URL, rl_prefix(), 60, 100);
for ($i = 0; $i < 100; $i++) $log->isAllowed('times');
$check('log, 100 entries named by time', $usage(rl_prefix() . ':times'), 2200);
$redis->zAdd(rl_prefix() . ':old', -10000000000, '');
for ($i = 0; $i < 50; $i++) $log->isAllowed('old', 2);
echo "sequence continues: ", implode(',', array_slice($redis->zRange(rl_prefix() . ':old', 1, 2), 0, 2)), "\n";
$check('log, 100 entries, 11-digit members', $usage(rl_prefix() . ':old'), 2200);

// Blocks: at least 1000 requests and at least 0.8 s over a 0.5 s window of 5
// slices (8 slices crossed), then 1.1 s of a 1 s window of 60 slices. A slow
// machine only makes the run longer, never the bound looser.
foreach ([[0.5, 5, 0.8], [1, 60, 1.1]] as [$window, $blocks, $for]) {
    $limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix(), $window, 1000000, $blocks);
    $key = rl_prefix() . ":blocks$blocks";
    $end = microtime(true) + $for;
    $n = $most = $fields = 0;
    while (microtime(true) < $end || $n < 1000) {
        $limiter->isAllowed("blocks$blocks");
        if (++$n % 25 === 0) {
            $most = max($most, $usage($key));
            $fields = max($fields, $redis->hLen($key));
        }
    }
    echo "blocks $blocks: at most ", $blocks + 2, " fields at any time: ", var_export($fields <= $blocks + 2, true), "\n";
    $check("blocks $blocks, largest seen", $most, 1023);
}
?>
--EXPECT--
log, 100 entries named by time: <= 2200
sequence continues: 10000000001,10000000002
log, 100 entries, 11-digit members: <= 2200
blocks 5: at most 7 fields at any time: true
blocks 5, largest seen: <= 1023
blocks 60: at most 62 fields at any time: true
blocks 60, largest seen: <= 1023
