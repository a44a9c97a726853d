<?php
// One request of metrics_threads.phpt, in one of many threads of one process:
// $_GET['decisions'] attempts on one token bucket every thread shares
// (capacity 1000, no refill to speak of), with ratelimit.metrics = redis and
// the block cache on. Then it signs in (a counter in a file, under flock);
// the request that signs in last, when every other has finished deciding,
// makes one more decision (another policy on the same name: past the block
// cache, to Redis, carrying what the process counted without a round trip)
// and prints the process's counters and the fleet's.
require __DIR__ . '/../../php-tests/config.inc';

$prefix = $_GET['prefix'];
$limiter = new TokenBucketRateLimiter(RL_URL, $prefix, 1000, 0.0001);
for ($i = 0; $i < (int) $_GET['decisions']; $i++) {
    $limiter->isAllowed('shared');
}
$f = fopen($_GET['signin'], 'c+');
flock($f, LOCK_EX);
$done = (int) stream_get_contents($f) + 1;
ftruncate($f, 0);
rewind($f);
fwrite($f, (string) $done);
if ($done === (int) $_GET['total']) {
    (new TokenBucketRateLimiter(RL_URL, $prefix, 1000, 0.0002))->isAllowed('shared');
    $local = RateLimitMetrics::local()[$prefix];
    $fleet = RateLimitMetrics::fleet(RL_URL)[$prefix];
    echo 'local ', json_encode($local), "\n", 'fleet ', json_encode($fleet), "\n";
}
flock($f, LOCK_UN);
fclose($f);
