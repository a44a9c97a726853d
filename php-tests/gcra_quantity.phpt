--TEST--
GcraRateLimiter quantities and costs: quantity 0 peeks and writes nothing, a quantity above the limit is limited with retryAfter -1, costs take several units; maxBurst 0 and fractional periods
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$r = rl_redis();
$p = rl_prefix();
$l = new GcraRateLimiter(RL_URL, $p, 14, 30, 60);

echo "-- quantity 0 on an idle key: the whole burst is left, no key is made\n";
echo json_encode($l->throttle('a', 0)), ' remaining=', $l->remaining, ' exists=', $r->exists("$p:a"), "\n";

echo "-- quantity above the limit: limited, retryAfter -1, nothing written\n";
echo json_encode($l->throttle('a', 16)), ' exists=', $r->exists("$p:a"), "\n";
echo json_encode($l->throttle('a', PHP_INT_MAX)), "\n";

echo "-- several units at once\n";
echo json_encode($l->throttle('a', 3)), "\n";
$tat = $r->get("$p:a");
echo json_encode($l->throttle('a', 0)), ' TAT unchanged by the peek: ', var_export($r->get("$p:a") === $tat, true), "\n";
echo json_encode($l->throttle('a', 16)), ' TAT unchanged: ', var_export($r->get("$p:a") === $tat, true), "\n";
echo json_encode($l->throttle('a', 12)), "\n";
echo "full: ", json_encode($l->throttle('a')), ' ', json_encode($l->throttle('a', 0)), ' ', json_encode($l->throttle('a', 16)), "\n";

echo "-- the whole limit at once fits an idle key, one more does not\n";
echo json_encode($l->throttle('b', 15)), ' ', json_encode($l->throttle('b', 1)), "\n";

echo "-- isAllowed/consume with a cost take the same units\n";
$t0 = microtime(true);   // the times below may only have shrunk by what elapsed since
var_dump($l->isAllowed('c', 5), $l->remaining);
$d = $l->consume('c', 10);
printf("allowed=%s remaining=%d resetAfter=%s\n", var_export($d->allowed, true), $d->remaining, rl_within($d->resetAfter, 30, microtime(true) - $t0));
$d = $l->consume('c', 2);
printf("allowed=%s remaining=%d retryAfter=%s\n", var_export($d->allowed, true), $d->remaining, rl_within($d->retryAfter, 4, microtime(true) - $t0));
echo "the same as throttle: ", json_encode($l->throttle('c', 2)), "\n";
rl_throws(fn () => $l->consume('c', 16));
rl_throws(fn () => $l->throttle('c', -1));

echo "-- maxBurst 0 is valid: limit 1, one request per interval\n";
$one = new GcraRateLimiter("$p:one", 0, 1, 10);
echo json_encode($one->throttle()), ' ', json_encode($one->throttle()), "\n";

echo "-- a fractional period: 3 per 1.5 s is one per 500 ms\n";
$half = new GcraRateLimiter(RL_URL, "$p:half", 1, 3, 1.5);
$t0 = microtime(true);
echo json_encode($half->throttle()), ' ', json_encode($half->throttle()), ' ', json_encode($half->throttle()), "\n";
echo "retryAfter: ", rl_within($half->peek()->retryAfter, 0.5, microtime(true) - $t0), "\n";
?>
--EXPECT--
-- quantity 0 on an idle key: the whole burst is left, no key is made
[0,15,15,-1,0] remaining=15 exists=0
-- quantity above the limit: limited, retryAfter -1, nothing written
[1,15,15,-1,0] exists=0
[1,15,15,-1,0]
-- several units at once
[0,15,12,-1,6]
[0,15,12,-1,6] TAT unchanged by the peek: true
[1,15,12,-1,6] TAT unchanged: true
[0,15,0,-1,30]
full: [1,15,0,2,30] [0,15,0,-1,30] [1,15,0,-1,30]
-- the whole limit at once fits an idle key, one more does not
[0,15,0,-1,30] [1,15,0,2,30]
-- isAllowed/consume with a cost take the same units
bool(true)
int(10)
allowed=true remaining=0 resetAfter=30.00
allowed=false remaining=0 retryAfter=4.00
the same as throttle: [1,15,0,4,30]
ValueError: GcraRateLimiter::consume(): Argument #2 ($cost) must be at most 15 (the limit), 16 given
ValueError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be greater than or equal to 0
-- maxBurst 0 is valid: limit 1, one request per interval
[0,1,0,-1,10] [1,1,0,10,10]
-- a fractional period: 3 per 1.5 s is one per 500 ms
[0,2,1,-1,1] [0,2,0,-1,1] [1,2,0,1,1]
retryAfter: 0.50
