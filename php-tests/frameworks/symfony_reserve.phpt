--TEST--
Symfony adapter: reserve() books at once and never polls: a token bucket's bookings (the extension's reserve()) are due one token apart in booking order and its Reservation waits exactly that; a later consume() cannot take booked tokens; a fixed window books as Symfony's (its tokens added past the limit); beyond maxTime nothing is booked (MaxWaitDurationExceededException); consume(0) writes nothing
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require_once '/usr/share/php/Symfony/Component/RateLimiter/autoload.php';
require_once __DIR__ . '/../../integrations/symfony/autoload.php';

use RateLimit\Symfony\ExtensionRateLimiterFactory;

// 2 tokens, 10 per second: once empty, the next token comes after 0.1 s.
$config = ['id' => rl_prefix(), 'policy' => 'token_bucket', 'limit' => 2, 'rate' => ['interval' => '1 second', 'amount' => 10]];
$limiter = (new ExtensionRateLimiterFactory($config, RL_URL))->create('k');
$near = fn (float $t, float $want) => abs($t - $want) <= 0.05 ? sprintf('%.1f', $want) : sprintf('%.3f (want %.1f)', $t, $want);

echo "consume(0) on a new key: ", $limiter->consume(0)->getRemainingTokens(), " remaining, key written: ", rl_redis()->exists('symfony:' . rl_prefix() . ':k'), "\n";
var_dump($limiter->consume(2)->isAccepted());
rl_throws(fn () => $limiter->reserve(1, 0.01));   // 0.1 s needed, 0.01 s allowed: nothing booked
$library = rl_library_calls(rl_redis());
$t = microtime(true);
$first = $limiter->reserve(1, 5.0);
$second = $limiter->reserve(1, 5.0);
$returned = microtime(true) - $t;
echo "two bookings returned at once: ", $returned < 0.05 ? 'yes' : "no ($returned s)", ", one call each: ", rl_library_calls(rl_redis()) - $library === 2 ? 'yes' : 'no', "\n";
echo "due in ", $near($first->getWaitDuration(), 0.1), " and ", $near($second->getWaitDuration(), 0.2), " s, accepted: ",
    var_export($first->getRateLimit()->isAccepted() && $second->getRateLimit()->isAccepted(), true), "\n";
echo "a consume now cannot take them: ", var_export(!$limiter->consume(1)->isAccepted(), true), "\n";
$first->wait();
$waited = microtime(true) - $t;
echo "the first waited ", $near($waited, 0.1), " s\n";
$second->wait();
echo "the second waited ", $near(microtime(true) - $t, 0.2), " s\n";
rl_throws(fn () => $limiter->reserve(3));

// A fixed window of 2 per second: a booking past the limit is due when the window ends.
$fixed = (new ExtensionRateLimiterFactory(['id' => rl_prefix('fixed'), 'policy' => 'fixed_window', 'limit' => 2, 'interval' => '1 second'], RL_URL))->create('k');
$fixed->consume(2);
$booked = $fixed->reserve(1, 5.0);
echo "fixed window: due in ", $near($booked->getWaitDuration(), 1.0), " s; then a consume: ", var_export($fixed->consume(1)->isAccepted(), true), "\n";
?>
--EXPECT--
consume(0) on a new key: 2 remaining, key written: 0
bool(true)
Symfony\Component\RateLimiter\Exception\MaxWaitDurationExceededException: The rate limiter wait time ("0" seconds) is longer than the provided maximum time ("0" seconds).
two bookings returned at once: yes, one call each: yes
due in 0.1 and 0.2 s, accepted: true
a consume now cannot take them: true
the first waited 0.1 s
the second waited 0.2 s
InvalidArgumentException: Cannot reserve more tokens (3) than the burst size of the rate limiter (2).
fixed window: due in 1.0 s; then a consume: false
