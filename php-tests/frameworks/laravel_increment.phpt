--TEST--
Laravel drop-in: RateLimiter::increment() and decrement() with an amount, and hit(), each one atomic call on the extension; 8 processes incrementing and decrementing one key leave exactly their sum
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

use Illuminate\Support\Facades\RateLimiter;

rl_laravel_app(true, rl_prefix('drop-in'));
$limiter = RateLimiter::getFacadeRoot();
echo 'increment(k, 60, 5): ', $limiter->increment('k', 60, 5), "\n";
echo 'decrement(k, 60, 2): ', $limiter->decrement('k', 60, 2), "\n";
echo 'hit(k): ', $limiter->hit('k'), "\n";
echo 'increment(k, 60, -1): ', $limiter->increment('k', 60, -1), "\n";
echo 'decrement(k, 60, 9): ', $limiter->decrement('k', 60, 9), " (not below 0)\n";
echo 'decrement(none, 60, 1): ', $limiter->decrement('none', 60, 1), " (no window opened)\n";
echo 'attempts(k): ', $limiter->attempts('k'), ', availableIn(k) in 59..60: ', var_export(in_array($limiter->availableIn('k'), [59, 60], true), true), "\n";

// 8 processes, each 20 times: increment by 3, then decrement by 1.
$r = rl_redis();
$before = rl_library_calls($r);
rl_hammer(function () use ($limiter) {
    $limiter->increment('race', 60, 3);
    $limiter->decrement('race', 60, 1);
    return 0;
}, 8, 20);
$sent = rl_library_calls($r) - $before;
echo 'after 8 x 20 x (+3, -1): ', $limiter->attempts('race'), "\n";
echo 'one library call per call: ', $sent === 8 * 20 * 2 ? 'yes' : "no ($sent for 320 calls)", "\n";
?>
--EXPECT--
increment(k, 60, 5): 5
decrement(k, 60, 2): 3
hit(k): 4
increment(k, 60, -1): 3
decrement(k, 60, 9): 0 (not below 0)
decrement(none, 60, 1): 0 (no window opened)
attempts(k): 0, availableIn(k) in 59..60: true
after 8 x 20 x (+3, -1): 320
one library call per call: yes
