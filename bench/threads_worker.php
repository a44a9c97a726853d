<?php
// One request of make bench's threads table (bench/threads.php), the same in
// both servers (N threads of embed_threads, N php-fpm workers behind nginx):
// $_GET['decisions'] token bucket decisions over 100 ids of this thread or
// worker, nothing denied, on ratelimit.redis_url; on the server module when
// $_GET['module'] is 1, else the Lua library; with $_GET['multiplex'] as
// ratelimit.multiplex (auto: threads share a connection). Prints
// "ok <start> <end>" (microtime) for the threads' timing.
ini_set('ratelimit.server_module', ($_GET['module'] ?? '0') === '1' ? 'auto' : 'off');
ini_set('ratelimit.multiplex', $_GET['multiplex'] ?? 'auto');
$start = microtime(true);
$limiter = new TokenBucketRateLimiter(ini_get('ratelimit.redis_url'), 'bench-threads', 1e9, 1e9);
$who = isset($_GET['thread']) ? 't' . $_GET['thread'] : 'p' . getmypid();
$decisions = (int) ($_GET['decisions'] ?? 100);
for ($i = 0; $i < $decisions; $i++) {
    $limiter->isAllowed("$who:" . ($i % 100));
}
printf("ok %.6f %.6f\n", $start, microtime(true));
