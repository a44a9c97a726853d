<?php
// One request of make bench's threads table (bench/threads.php), the same in
// both servers (N threads of embed_threads, N php-fpm workers behind nginx):
// $_GET['decisions'] token bucket decisions over 100 ids of this thread or
// worker, nothing denied, on ratelimit.redis_url; on the server module when
// $_GET['module'] is 1, else the Lua library; with $_GET['multiplex'] as
// ratelimit.multiplex (auto: threads share a connection). The hot-key rows
// (issue 52): with $_GET['hot'] = 1 every decision of every thread or worker
// is on ONE id of a limit no run uses up, and with $_GET['lease'] = N the
// limiter is withLease(N) (a thread's or worker's lease outlives its request,
// as it would in a server). Prints "ok <start> <end>" (microtime) for the
// threads' timing.
ini_set('ratelimit.server_module', ($_GET['module'] ?? '0') === '1' ? 'auto' : 'off');
ini_set('ratelimit.multiplex', $_GET['multiplex'] ?? 'auto');
$start = microtime(true);
$hot = ($_GET['hot'] ?? '0') === '1';
$limiter = $hot
    ? new TokenBucketRateLimiter(ini_get('ratelimit.redis_url'), 'bench-threads-hot', 10_000_000_000, 1_000_000.0)
    : new TokenBucketRateLimiter(ini_get('ratelimit.redis_url'), 'bench-threads', 1e9, 1e9);
$lease = (int) ($_GET['lease'] ?? 0);
if ($lease > 0) $limiter = $limiter->withLease($lease, 1.0);
$who = isset($_GET['thread']) ? 't' . $_GET['thread'] : 'p' . getmypid();
$decisions = (int) ($_GET['decisions'] ?? 100);
for ($i = 0; $i < $decisions; $i++) {
    if (!$limiter->isAllowed($hot ? 'hot' : "$who:" . ($i % 100))) {
        http_response_code(500);
        exit("denied\n");
    }
}
printf("ok %.6f %.6f\n", $start, microtime(true));
