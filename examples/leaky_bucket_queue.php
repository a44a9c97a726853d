<?php
// The leaky bucket as a queue: callers arrive in bursts, each accepted one is
// told its `delay` (when its turn to leak out of the bucket comes), sleeps that
// long, then does the work. The work happens at a constant rate however bursty
// the arrivals. Every caller here is a process of its own, as requests of a web
// app are; they agree because the queue level lives in Redis.
//
// Run: php -d extension=modules/ratelimit.so -d ratelimit.redis_url=redis://127.0.0.1:6379 examples/leaky_bucket_queue.php
// (needs pcntl, as the PHP CLI usually has)

if (!function_exists('pcntl_fork')) {
    exit("this example forks a process per caller: it needs the pcntl extension\n");
}

$rate = 5.0;    // jobs per second leaving the bucket
$capacity = 8;  // jobs that may wait; more are turned away
$key = 'mailer';
(new LeakyBucketRateLimiter(null, 'example:queue', $capacity, $rate))->reset($key);
printf("LeakyBucketRateLimiter: capacity %d, leak rate %.0f/s: work should happen every %.2f s\n\n", $capacity, $rate, 1 / $rate);

$start = microtime(true);
$log = tempnam(sys_get_temp_dir(), 'leaky-queue');

// One caller: ask for a place in the queue, wait the delay, work.
function caller(int $job, string $key, float $start, string $log, int $capacity, float $rate): void
{
    $limiter = new LeakyBucketRateLimiter(null, 'example:queue', $capacity, $rate);
    $r = $limiter->consume($key);
    $now = microtime(true) - $start;
    if (!$r->allowed) {
        printf("%6.3f s  job %2d turned away, the queue is full (retry in %.3f s)\n", $now, $job, $r->retryAfter);
        return;
    }
    printf("%6.3f s  job %2d queued: delay %.3f s, %d place(s) left\n", $now, $job, $r->delay, $r->remaining);
    usleep((int) round($r->delay * 1e6));
    $done = microtime(true) - $start;
    printf("%6.3f s  job %2d WORK\n", $done, $job);
    file_put_contents($log, "$done\n", FILE_APPEND | LOCK_EX);
}

// Two bursts: 6 callers at once, then 6 more 0.5 s later, when the bucket
// still holds 3.5 jobs: 4 of them fit, 2 are turned away.
$children = [];
$job = 0;
foreach ([[0.0, 6], [0.5, 6]] as [$at, $count]) {
    usleep(max(0, (int) round(($start + $at - microtime(true)) * 1e6)));
    for ($i = 0; $i < $count; $i++) {
        $job++;
        $pid = pcntl_fork();
        if ($pid === 0) {
            caller($job, $key, $start, $log, $capacity, $rate);
            exit(0);
        }
        $children[] = $pid;
        usleep(2000); // arrival order = job order, for a readable log
    }
}
foreach ($children as $pid) {
    pcntl_waitpid($pid, $status);
}

$done = array_map('floatval', file($log, FILE_IGNORE_NEW_LINES));
unlink($log);
sort($done);
$gaps = [];
for ($i = 1; $i < count($done); $i++) {
    $gaps[] = sprintf('%.3f', $done[$i] - $done[$i - 1]);
}
echo "\nwork done ", count($done), " times, gaps between: ", implode(' ', $gaps), " s\n";
(new LeakyBucketRateLimiter(null, 'example:queue', $capacity, $rate))->reset($key);
