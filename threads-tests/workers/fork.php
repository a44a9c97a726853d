<?php
// One request of fork_under_threads.phpt: every thread keeps round trips
// going on one target (and the block cache and a memory store busy); thread
// 0 forks in the middle of each of its requests. The child decides at once
// on the same target, the same memory store and the block cache, which
// threads of its parent were using when it was made, and reports; the
// parent waits for it at most 10 s.
$limiter = new FixedWindowRateLimiter(ini_get('ratelimit.redis_url'), 'fork', 100000, 1000000);
$memory = new TokenBucketRateLimiter('memory://fork', 'fork', 1000, 1000000);
$t = (int) $_GET['thread'];
$r = (int) $_GET['request'];
for ($i = 0; $i < 200; $i++) {
    $limiter->isAllowed("t$t");
    $memory->isAllowed("t$t");
    if ($t === 0 && $i === 100) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            echo "child $r ", $limiter->isAllowed('child') ? 'allowed' : 'denied', ' ', $memory->isAllowed('child') ? 'allowed' : 'denied', "\n";
            exit(0);
        }
        $deadline = microtime(true) + 10;
        while (($done = pcntl_waitpid($pid, $status, WNOHANG)) === 0 && microtime(true) < $deadline) usleep(2000);
        if ($done === 0) {
            posix_kill($pid, SIGKILL);
            pcntl_waitpid($pid, $status);
            echo "fork $r child hung\n";
        } else {
            echo "fork $r child exit ", pcntl_wexitstatus($status), "\n";
        }
    }
}
