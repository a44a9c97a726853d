--TEST--
The examples of consumeMany, CompoundRateLimiter, the block cache and refund()/charge() run against a real redis-server and say what they promise
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$root = dirname(__DIR__);
foreach (['api_plan', 'notification_fanout', 'login_under_attack', 'llm_token_budget'] as $example) {
    echo "== $example\n";
    passthru(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg(getenv('RATELIMIT_SO') ?: realpath("$root/modules/ratelimit.so"))
        . ' -d ratelimit.redis_url=' . escapeshellarg(RL_URL) . ' ' . escapeshellarg("$root/examples/$example.php"));
}
?>
--EXPECTF--
== api_plan
first refusal: limit 10 (the per-second one), retry after %f s
  RateLimit-Policy: "second";q=10, "day";q=1000
  RateLimit: "second";r=0;t=1, "day";r=990;t=864
  Retry-After: 1
burst of 25: served 10, refused 15
the day's allowance lost only what was served: 990 of 1000 left
== notification_fanout
200 decisions in one round trip (%f ms): send 150, hold back 50
msg-1 sent, msg-151 held (the 4th for user-1)
== login_under_attack
10000 guesses: 5 let through to the password check, %f µs per answer
locked out for 900 more seconds
answered from memory (php --ri ratelimit, block cache hits): 9995
after reset(): allowed
== llm_token_budget
estimated 8000, used 1500: refunded 6500, %d left this minute
estimated 8000, used 8000: settled
estimated 8000, used 12000: charged 4000 more, over budget: next request in %d s
refused: retry in %f s
the day's budget lost exactly what was used: 178500 of 200000 left
