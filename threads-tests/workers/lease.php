<?php
// One request of lease.phpt, in one of many threads: $_GET['decisions'] consumes
// of one key shared by every thread, through a token bucket of 1,000 that does
// not refill during the run, with withLease(50). Prints "accepted <n>", and
// "held <units>": what the process's threads hold in leases after the request
// (a thread's lease outlives its requests; it goes back when the thread ends).
require __DIR__ . '/../../php-tests/config.inc';

$l = (new TokenBucketRateLimiter(RL_URL, $_GET['prefix'], 1000, 0.0001))->withLease(50, 60);
$accepted = 0;
for ($i = 0; $i < (int) $_GET['decisions']; $i++) {
    if ($l->isAllowed('hot')) $accepted++;
}
$held = RateLimitMetrics::leases()[$_GET['prefix']]['held'];
echo "accepted $accepted\nheld $held\n";
