--TEST--
GcraRateLimiter: redis-cell's own test table (limit 5, 1 per second), exact CL.THROTTLE tuples, with time moved by shifting the stored TAT; then real refills on a short period, measured and run again when the machine stalled
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$r = rl_redis();
$p = rl_prefix();

// GCRA's whole state is the TAT; only TAT - now matters. Moving the stored TAT
// back by $ms is the clock moving forward by $ms, without waiting for it.
// The real time that passes meanwhile adds to that: the tuples round to whole
// seconds, so a run that took over 0.5 s (a stalled machine) proves nothing
// and runs again on a fresh key.
// [case, ms since start, quantity, expected CL.THROTTLE reply]
$cases = [
    [0, 0, 6, [1, 5, 5, -1, 0]],     // you can never make a request larger than the maximum
    [1, 0, 1, [0, 5, 4, -1, 1]],     // rate limit normal requests appropriately
    [2, 0, 1, [0, 5, 3, -1, 2]],
    [3, 0, 1, [0, 5, 2, -1, 3]],
    [4, 0, 1, [0, 5, 1, -1, 4]],
    [5, 0, 1, [0, 5, 0, -1, 5]],
    [6, 0, 1, [1, 5, 0, 1, 5]],
    [7, 3000, 1, [0, 5, 2, -1, 3]],
    [8, 3100, 1, [0, 5, 1, -1, 4]],  // reset 3.9 s: rounded up
    [9, 4000, 1, [0, 5, 1, -1, 4]],
    [10, 8000, 1, [0, 5, 4, -1, 1]],
    [11, 9500, 1, [0, 5, 4, -1, 1]],
    [12, 9500, 0, [0, 5, 4, -1, 1]], // zero-volume request just peeks at the state
    [13, 9500, 2, [0, 5, 2, -1, 3]], // high-volume request uses up more of the limit
    [14, 9500, 5, [1, 5, 2, 3, 3]],  // large requests cannot exceed limits
    // Ours: a TAT long past counts as now (the key outlived it only because
    // this test moved it; its TTL would have removed it).
    [15, 30000, 1, [0, 5, 4, -1, 1]],
];
rl_retry(function (RlTimeline $clock, int $try) use ($r, $p, $cases) {
    $key = "$p:foo$try";
    $advance = function (int $ms) use ($r, $key): void {
        $tat = $r->get($key);
        if ($tat !== false) {
            $r->set($key, (string) ((int) $tat - $ms * 1000), ['KEEPTTL']);
        }
    };
    $cell = new GcraRateLimiter(RL_URL, $p, 4, 1, 1);
    $now = 0;
    foreach ($cases as [$case, $at, $quantity, $expected]) {
        $advance($at - $now);
        $now = $at;
        $got = $cell->throttle("foo$try", $quantity);
        printf("case %2d at %4d ms, quantity %d: %-17s %s\n", $case, $at, $quantity, json_encode($got),
            $got === $expected ? 'ok' : 'EXPECTED ' . json_encode($expected));
        if ($case === 0) echo "  nothing written: exists = ", $r->exists($key), "\n";
    }
}, 0.5);

echo "-- real time: limit 3, one per 100 ms\n";
// Times may only have shrunk by what elapsed since the burst; a step that ran
// more than 50 ms late (half an interval) proves nothing and runs again.
rl_retry(function (RlTimeline $clock, int $try) use ($r, $p) {
    $fast = new GcraRateLimiter(RL_URL, "$p:fast$try", 2, 10, 1);
    $seq = '';
    for ($i = 0; $i < 4; $i++) $seq .= $fast->isAllowed() ? 'Y' : 'n';
    $denied = $fast->consume();
    $since = $clock->end();
    echo "$seq retryAfter: ", rl_within($denied->retryAfter, 0.1, $since), "\n";
    echo "sub-second times round up to a whole second: ", json_encode($fast->throttle()), "\n";
    $clock->at($since + $denied->retryAfter + 0.01);
    $seq = '';
    for ($i = 0; $i < 2; $i++) $seq .= $fast->isAllowed() ? 'Y' : 'n';
    echo "after retryAfter one more fits: $seq\n";
    // Its TAT is now 0.3 s ahead at most: then the key is gone.
    $clock->at($since + $denied->retryAfter + 0.35);
    echo "after the tolerance has passed the key is gone: ", $r->exists("$p:fast$try"), "\n";
    echo json_encode($fast->throttle()), "\n";
}, 0.05);
?>
--EXPECT--
case  0 at    0 ms, quantity 6: [1,5,5,-1,0]      ok
  nothing written: exists = 0
case  1 at    0 ms, quantity 1: [0,5,4,-1,1]      ok
case  2 at    0 ms, quantity 1: [0,5,3,-1,2]      ok
case  3 at    0 ms, quantity 1: [0,5,2,-1,3]      ok
case  4 at    0 ms, quantity 1: [0,5,1,-1,4]      ok
case  5 at    0 ms, quantity 1: [0,5,0,-1,5]      ok
case  6 at    0 ms, quantity 1: [1,5,0,1,5]       ok
case  7 at 3000 ms, quantity 1: [0,5,2,-1,3]      ok
case  8 at 3100 ms, quantity 1: [0,5,1,-1,4]      ok
case  9 at 4000 ms, quantity 1: [0,5,1,-1,4]      ok
case 10 at 8000 ms, quantity 1: [0,5,4,-1,1]      ok
case 11 at 9500 ms, quantity 1: [0,5,4,-1,1]      ok
case 12 at 9500 ms, quantity 0: [0,5,4,-1,1]      ok
case 13 at 9500 ms, quantity 2: [0,5,2,-1,3]      ok
case 14 at 9500 ms, quantity 5: [1,5,2,3,3]       ok
case 15 at 30000 ms, quantity 1: [0,5,4,-1,1]      ok
-- real time: limit 3, one per 100 ms
YYYn retryAfter: 0.10
sub-second times round up to a whole second: [1,3,0,1,1]
after retryAfter one more fits: Yn
after the tolerance has passed the key is gone: 0
[0,3,2,-1,1]
