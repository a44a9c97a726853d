--TEST--
Laravel drop-in: the RateLimiter facade answers like stock Laravel, on the same keys; a mixed fleet during a rollout
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

use Illuminate\Support\Facades\RateLimiter;

/** The same calls through the facade; one line per call. */
function calls(): array
{
    $out = [];
    $log = function (string $call, $value) use (&$out) {
        // attempts() is a string from stock's cache ("2") and an int here: compared as numbers.
        $out[] = sprintf('%-34s %s', $call, is_numeric($value) ? (string) (int) $value : var_export($value, true));
    };
    $log('attempts(k)', RateLimiter::attempts('k'));
    $log('tooManyAttempts(k, 2)', RateLimiter::tooManyAttempts('k', 2));
    $log('hit(k)', RateLimiter::hit('k'));
    $log('hit(k, 30)', RateLimiter::hit('k', 30));
    $log('attempts(k)', RateLimiter::attempts('k'));
    $log('tooManyAttempts(k, 2)', RateLimiter::tooManyAttempts('k', 2));
    $log('tooManyAttempts(k, 3)', RateLimiter::tooManyAttempts('k', 3));
    $log('remaining(k, 5)', RateLimiter::remaining('k', 5));
    $log('retriesLeft(k, 5)', RateLimiter::retriesLeft('k', 5));
    $in = RateLimiter::availableIn('k');
    $log('availableIn(k) in 59..60', $in >= 59 && $in <= 60);
    $log('resetAttempts(k)', RateLimiter::resetAttempts('k'));
    $log('attempts(k)', RateLimiter::attempts('k'));
    $log('hit(k, 10)', RateLimiter::hit('k', 10));
    $in = RateLimiter::availableIn('k');
    $log('availableIn(k) in 9..10', $in >= 9 && $in <= 10);
    RateLimiter::clear('k');
    $log('clear(k); attempts(k)', RateLimiter::attempts('k'));
    $log('availableIn(k)', RateLimiter::availableIn('k'));
    $called = 0;
    $cb = function () use (&$called) { $called++; return $called === 1 ? 'done' : null; };
    $log('attempt(a, 2, cb)', RateLimiter::attempt('a', 2, $cb));
    $log('attempt(a, 2, cb returning null)', RateLimiter::attempt('a', 2, $cb));
    $log('attempt(a, 2, cb)', RateLimiter::attempt('a', 2, $cb));
    $log('callback calls', $called);
    $log('attempts(a)', RateLimiter::attempts('a'));
    // Laravel's key cleaning (HTML entities to their first letter) applies to both.
    $log('hit(café); attempts(cafe)', [RateLimiter::hit('café'), RateLimiter::attempts('cafe')][1]);
    $log('limiter(two) is a Closure', RateLimiter::limiter('two') instanceof Closure);
    return $out;
}

$results = [];
foreach (['stock' => false, 'drop-in' => true] as $name => $dropIn) {
    rl_laravel_app($dropIn, rl_prefix($name));
    echo "$name: ", get_class(RateLimiter::getFacadeRoot()), "\n";
    $results[$name] = calls();
}
foreach ($results['drop-in'] as $i => $line) {
    echo $line, $line === $results['stock'][$i] ? '' : "   <- stock: {$results['stock'][$i]}", "\n";
}

echo "== mixed fleet: stock and drop-in nodes share the counters (same prefixes)\n";
$shared = rl_prefix('fleet');
rl_laravel_app(false, $shared);
RateLimiter::hit('s');
RateLimiter::hit('s');
rl_laravel_app(true, $shared);
echo "drop-in sees stock's hits: ", RateLimiter::attempts('s'), "; hit: ", RateLimiter::hit('s'), "; tooManyAttempts(s, 3): ", var_export(RateLimiter::tooManyAttempts('s', 3), true), "\n";

foreach ([false, true] as $timerKeys) {
    $p = rl_prefix('timer' . (int) $timerKeys);
    rl_laravel_app(true, $p, ['timer_keys' => $timerKeys]);
    RateLimiter::hit('t');
    RateLimiter::hit('t');
    rl_laravel_app(false, $p);
    // Stock decides "too many" only when its :timer key exists; without it, it deletes the count.
    echo 'timer_keys ', var_export($timerKeys, true), ': stock node tooManyAttempts(t, 2): ', var_export(RateLimiter::tooManyAttempts('t', 2), true),
        ', then attempts: ', (int) RateLimiter::attempts('t'), "\n";
}
?>
--EXPECT--
stock: Illuminate\Cache\RateLimiter
drop-in: RateLimit\Laravel\ExtensionRateLimiter
attempts(k)                        0
tooManyAttempts(k, 2)              false
hit(k)                             1
hit(k, 30)                         2
attempts(k)                        2
tooManyAttempts(k, 2)              true
tooManyAttempts(k, 3)              false
remaining(k, 5)                    3
retriesLeft(k, 5)                  3
availableIn(k) in 59..60           true
resetAttempts(k)                   true
attempts(k)                        0
hit(k, 10)                         1
availableIn(k) in 9..10            true   <- stock: availableIn(k) in 9..10            false
clear(k); attempts(k)              0
availableIn(k)                     0
attempt(a, 2, cb)                  'done'
attempt(a, 2, cb returning null)   true
attempt(a, 2, cb)                  false
callback calls                     2
attempts(a)                        2
hit(café); attempts(cafe)         1
limiter(two) is a Closure          true
== mixed fleet: stock and drop-in nodes share the counters (same prefixes)
drop-in sees stock's hits: 2; hit: 3; tooManyAttempts(s, 3): true
timer_keys false: stock node tooManyAttempts(t, 2): false, then attempts: 0
timer_keys true: stock node tooManyAttempts(t, 2): true, then attempts: 2
