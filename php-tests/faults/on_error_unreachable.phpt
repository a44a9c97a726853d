--TEST--
ratelimit.on_error with an unreachable server: throw (within connect_timeout), allow, deny; reset() always throws
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
ratelimit.connect_timeout=0.3
--FILE--
<?php
require __DIR__ . '/../config.inc';
$down = 'redis://127.0.0.1:' . rl_free_port();
$l = new FixedWindowRateLimiter($down, 'p', 60, 10);
$t = microtime(true);
rl_throws(fn () => $l->isAllowed('a'));
echo "answered within connect_timeout + margin: ", var_export(microtime(true) - $t < 0.3 + 0.5, true), "\n";
var_dump($l->remaining);

// Connecting hangs: the connect timeout decides.
$hang = rl_unanswered_connect();
$t = microtime(true);
rl_throws(fn () => (new FixedWindowRateLimiter($hang['url'], 'p', 60, 10))->isAllowed());
$took = microtime(true) - $t;
echo "hanging connect answered after connect_timeout, within a margin: ", var_export($took >= 0.29 && $took < 0.3 + 0.5, true), "\n";

// Connected, but no reply ever: ratelimit.timeout decides.
ini_set('ratelimit.timeout', '0.2');
$silent = rl_silent_server();
$t = microtime(true);
rl_throws(fn () => (new FixedWindowRateLimiter($silent['url'], 'p', 60, 10))->isAllowed());
$took = microtime(true) - $t;
echo "silent server answered after timeout, within a margin: ", var_export($took >= 0.19 && $took < 0.2 + 0.5, true), "\n";

ini_set('ratelimit.on_error', 'allow');
$r = $l->consume('a');
var_dump($r->allowed, $r->remaining, $r->retryAfter, $l->isAllowed('a'), $l->peek('a')->allowed, $l->remaining);
rl_throws(fn () => $l->reset('a'));

ini_set('ratelimit.on_error', 'deny');
$r = $l->consume('a');
var_dump($r->allowed, $r->remaining, $r->retryAfter, $l->isAllowed('a'), $r->headers()['Retry-After']);
rl_throws(fn () => $l->reset('a'));

echo "-- bad arguments are still errors under allow\n";
ini_set('ratelimit.on_error', 'allow');
rl_throws(fn () => $l->isAllowed('a', 11));
?>
--EXPECTF--
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
answered within connect_timeout + margin: true
NULL
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out%A
hanging connect answered after connect_timeout, within a margin: true
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out%A
silent server answered after timeout, within a margin: true
bool(true)
int(10)
float(0)
bool(true)
bool(true)
int(10)
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
bool(false)
int(0)
float(1)
bool(false)
int(1)
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
-- bad arguments are still errors under allow
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be at most 10 (the limit), 11 given
