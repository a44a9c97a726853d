<?php
// One limiter's consume() N times after 500 warm-up calls, for
// bench/instructions.bash, which counts the client's instructions under
// valgrind: usage php instructions.php TARGET N KIND (TARGET: a redis:// URL
// or memory://bench; KIND: fixed, token, gcra, sliding).
[$_, $url, $n, $kind] = $argv;
$l = match ($kind) {
    'fixed' => new FixedWindowRateLimiter($url, 'b:fixed', 3600, 100000000),
    'token' => new TokenBucketRateLimiter($url, 'b:token', 100000000, 1000.0),
    'gcra' => new GcraRateLimiter($url, 'b:gcra', 100000000, 1000, 1.0),
    'sliding' => new SlidingWindowRateLimiter($url, 'b:sl', 60, 100000000, 10),
};
for ($i = 0; $i < 500; $i++) $l->consume('x');
for ($i = 0, $n = (int) $n; $i < $n; $i++) $l->consume('x' . ($i % 1000));
