--TEST--
withLease() on a fixed window on the calendar (withCalendar(), withAnchor()): a lease is taken from the current calendar window and spent in it; once an anchored window ends, the next call takes a lease from the new window and the old window's units are not given back into it
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$show = fn (RateLimitResult $x) => sprintf('%s %s', $x->allowed ? 'allowed' : 'denied', $x->source);
$p = rl_prefix('lc');
$day = (new FixedWindowRateLimiter(RL_URL, $p, 60, 1000))->withCalendar('day', 'Europe/Paris');
$leased = $day->withLease(50);
echo 'a day in Paris: ', $show($leased->consume('u')), ', ', $show($leased->consume('u')), '; left in Redis: ', $day->peek('u')->remaining, "\n";

// Windows of 1 s anchored at a whole second: wait for the start of one, then use it and the next.
$anchored = (new FixedWindowRateLimiter(RL_URL, "$p:a", 1, 1000))->withAnchor(1_000_000_000);
$leased = $anchored->withLease(50);
usleep((int) ((1 - fmod(microtime(true), 1)) * 1e6) + 50000);
echo 'in a window: ', $show($leased->consume('u')), ', ', $show($leased->consume('u')), '; left in Redis: ', $anchored->peek('u')->remaining, "\n";
usleep((int) ((1 - fmod(microtime(true), 1)) * 1e6) + 50000);
echo 'the next window: ', $show($leased->consume('u')), '; left in Redis: ', $anchored->peek('u')->remaining, "\n";
?>
--EXPECT--
a day in Paris: allowed redis, allowed lease; left in Redis: 950
in a window: allowed redis, allowed lease; left in Redis: 950
the next window: allowed redis; left in Redis: 950
