--TEST--
GcraRateLimiter with Redis unreachable: throttle() and the RateLimiter methods follow ratelimit.on_error (allow, deny, throw); reset() always throws
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$down = 'redis://127.0.0.1:' . rl_free_port();   // nothing listens: connection refused
$l = new GcraRateLimiter($down, rl_prefix(), 14, 30, 60);
foreach (['allow', 'deny'] as $policy) {
    ini_set('ratelimit.on_error', $policy);
    echo "$policy: ", json_encode($l->throttle('a')), ' q0 ', json_encode($l->throttle('a', 0)),
        ' q16 ', json_encode($l->throttle('a', 16)), ' $remaining=', $l->remaining,
        ' isAllowed=', var_export($l->isAllowed('a'), true), "\n";
}
ini_set('ratelimit.on_error', 'throw');
rl_throws(fn () => $l->throttle('a'));
echo "bad arguments are still ValueErrors: ";
rl_throws(fn () => $l->throttle('a', -1));
ini_set('ratelimit.on_error', 'allow');
rl_throws(fn () => $l->reset('a'));
?>
--EXPECTF--
allow: [0,15,15,-1,0] q0 [0,15,15,-1,0] q16 [1,15,15,-1,0] $remaining=15 isAllowed=true
deny: [1,15,0,1,1] q0 [0,15,0,-1,1] q16 [1,15,0,-1,1] $remaining=0 isAllowed=false
RateLimiterException: %s
bad arguments are still ValueErrors: ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be greater than or equal to 0
RateLimiterException: %s
