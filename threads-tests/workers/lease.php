<?php
// One request of lease.phpt, in one of many threads: $_GET['decisions'] consumes
// of one key shared by every thread, through a token bucket of 1,000 that does
// not refill during the run, with withLease(50). Prints "accepted <n>", and
// "held <units>": what this thread holds in leases after the request (a
// thread's lease outlives its requests; it goes back when the thread ends).
require __DIR__ . '/../../php-tests/config.inc';

$l = (new TokenBucketRateLimiter(RL_URL, $_GET['prefix'], 1000, 0.0001))->withLease(50, 60);
$accepted = 0;
for ($i = 0; $i < (int) $_GET['decisions']; $i++) {
    if ($l->isAllowed('hot')) $accepted++;
}
ob_start();
(new ReflectionExtension('ratelimit'))->info();
preg_match('/held by this thread => (\d+) in/', ob_get_clean(), $m);
echo "accepted $accepted\nheld {$m[1]}\n";
