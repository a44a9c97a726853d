<?php
// A login form under a password-guessing attack: 5 attempts per 15 minutes per
// username. With ratelimit.block_cache on, once a username is locked out, this
// process answers its further attempts from memory until the lockout ends:
// no round trip, so the attacker's flood costs Redis nothing.
// Run: php -d extension=modules/ratelimit.so -d ratelimit.redis_url=redis://127.0.0.1:6379 examples/login_under_attack.php

ini_set('ratelimit.block_cache', '1');
$login = new SlidingWindowRateLimiter(null, 'login', 900, 5);
$user = 'victim-' . getmypid();

$t = hrtime(true);
$allowed = 0;
for ($i = 0; $i < 10000; $i++) { // the attacker's guesses
    $allowed += $login->isAllowed($user) ? 1 : 0;
}
$us = (hrtime(true) - $t) / 1e3 / 10000;
printf("10000 guesses: %d let through to the password check, %.2f µs per answer\n", $allowed, $us);
$r = $login->consume($user);
printf("locked out for %.0f more seconds\n", ceil($r->retryAfter));
ob_start();
(new ReflectionExtension('ratelimit'))->info();
preg_match('/hits => (\d+)/', ob_get_clean(), $m);
echo "answered from memory (php --ri ratelimit, block cache hits): $m[1]\n";
$login->reset($user); // the real user reset their password
echo "after reset(): ", $login->isAllowed($user) ? 'allowed' : 'denied', "\n";
$login->reset($user);
