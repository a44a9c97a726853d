<?php
// One request of scripts/bench-threads.bash, the same in both servers (16
// threads of embed_threads, 16 php-fpm workers behind nginx):
// $_GET['decisions'] token bucket decisions over 100 ids of this thread or
// worker, nothing denied, on ratelimit.redis_url. Prints "ok".
$limiter = new TokenBucketRateLimiter(ini_get('ratelimit.redis_url'), 'bench-threads', 1e9, 1e9);
$who = isset($_GET['thread']) ? 't' . $_GET['thread'] : 'p' . getmypid();
$decisions = (int) ($_GET['decisions'] ?? 100);
for ($i = 0; $i < $decisions; $i++) {
    $limiter->isAllowed("$who:" . ($i % 100));
}
echo "ok\n";
