<?php
// One request of block_cache_shared.phpt (ratelimit.block_cache on, 16
// threads, 2 requests; $_GET['port'] is the test's own server).
// Request 0: thread 0 takes all 100 units of id 'b' and is denied once more
// (the block cache remembers the denial), notes how many calls the server
// has answered, and opens phase 1; every other thread waits for phase 1 and
// asks about 'b'. Request 1: thread 0 waits until all 15 have asked, notes
// the server's count again, resets 'b' and opens phase 2; the others wait
// for phase 2 and ask again. Phases are keys on the server (plain commands).
require __DIR__ . '/../../php-tests/config.inc';
$t = (int) $_GET['thread'];
$r = (int) $_GET['request'];
$redis = rl_redis((int) $_GET['port']);
$limiter = new SlidingWindowRateLimiter("redis://127.0.0.1:{$_GET['port']}", 'cache', 100000, 100);
$wait = function (string $key, int $at_least) use ($redis) {
    $deadline = microtime(true) + 20;
    while ((int) $redis->get($key) < $at_least) {
        if (microtime(true) > $deadline) { echo "timeout waiting for $key\n"; return; }
        usleep(1000);
    }
};
if ($t === 0 && $r === 0) {
    $taken = 0;
    while ($limiter->isAllowed('b')) $taken++;
    echo "filled $taken\n";
    $redis->set('calls-before', rl_library_calls($redis));
    $redis->set('phase', 1);
} elseif ($t === 0 && $r === 1) {
    $wait('asked', 15);
    echo 'calls for 15 asks: ', rl_library_calls($redis) - (int) $redis->get('calls-before'), "\n";
    $limiter->reset('b');
    $redis->set('phase', 2);
} else {
    $wait('phase', $r + 1);
    echo "ask$r ", $limiter->isAllowed('b') ? 'allowed' : 'denied', "\n";
    if ($r === 0) $redis->incr('asked');
}
