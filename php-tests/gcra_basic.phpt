--TEST--
GcraRateLimiter throttle(): the seed example, a burst of maxBurst + 1 with CL.THROTTLE's exact tuples, denied attempts consume nothing; the RateLimiterInterface methods make the same decisions
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$p = rl_prefix('tom');
$limiter = new GcraRateLimiter(RL_URL, $p, 14, 30, 60);
$t0 = microtime(true);   // every time below may only have shrunk by what elapsed since
echo "seed: ", json_encode($limiter->throttle('reply')), "\n";
echo "\$remaining after throttle(): ", $limiter->remaining, "\n";

echo "-- the rest of the burst: each request pushes the TAT by 60/30 = 2 s\n";
for ($i = 2; $i <= 16; $i++) {
    echo json_encode($limiter->throttle('reply')), $i % 4 === 0 ? "\n" : ' ';
}
echo "\n-- denied attempts consume nothing: still 2 s to wait\n";
echo json_encode($limiter->throttle('reply')), "\n";

echo "-- isAllowed/access/consume/peek make the same decision\n";
var_dump($limiter->isAllowed('reply'), $limiter->access('reply'), $limiter->remaining);
$d = $limiter->consume('reply');
printf("allowed=%s limit=%d remaining=%d retryAfter=%s resetAfter=%s delay=%s\n", var_export($d->allowed, true), $d->limit, $d->remaining,
    rl_within($d->retryAfter, 2, microtime(true) - $t0), rl_within($d->resetAfter, 30, microtime(true) - $t0), var_export($d->delay, true));
$pk = $limiter->peek('reply');
printf("peek when full: allowed=%s remaining=%d retryAfter=%s\n", var_export($pk->allowed, true),
    $pk->remaining, rl_within($pk->retryAfter, 2, microtime(true) - $t0));
echo "headers: ", json_encode($pk->headers()), "\n";

echo "-- reset() deletes the key and \$remaining; the seed answer again\n";
$limiter->reset('reply');
var_dump(rl_redis()->exists("$p:reply"), $limiter->remaining);
echo json_encode($limiter->throttle('reply')), "\n";
?>
--EXPECT--
seed: [0,15,14,-1,2]
$remaining after throttle(): 14
-- the rest of the burst: each request pushes the TAT by 60/30 = 2 s
[0,15,13,-1,4] [0,15,12,-1,6] [0,15,11,-1,8]
[0,15,10,-1,10] [0,15,9,-1,12] [0,15,8,-1,14] [0,15,7,-1,16]
[0,15,6,-1,18] [0,15,5,-1,20] [0,15,4,-1,22] [0,15,3,-1,24]
[0,15,2,-1,26] [0,15,1,-1,28] [0,15,0,-1,30] [1,15,0,2,30]

-- denied attempts consume nothing: still 2 s to wait
[1,15,0,2,30]
-- isAllowed/access/consume/peek make the same decision
bool(false)
bool(false)
int(0)
allowed=false limit=15 remaining=0 retryAfter=2.00 resetAfter=30.00 delay=0.0
peek when full: allowed=false remaining=0 retryAfter=2.00
headers: {"X-RateLimit-Limit":15,"X-RateLimit-Remaining":0,"X-RateLimit-Reset":30,"Retry-After":2}
-- reset() deletes the key and $remaining; the seed answer again
int(0)
NULL
[0,15,14,-1,2]
