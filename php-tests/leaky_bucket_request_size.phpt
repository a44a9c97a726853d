--TEST--
LeakyBucketRateLimiter requestSize: each request adds requestSize units; limit, remaining and delays are in capacity units; cost x requestSize must fit
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
// 0.01 unit/s: what leaks during the test is far below one unit, so counts
// are exact; times print rounded up to whole seconds.
echo "-- requestSize 3 in a bucket of 10\n";
$sized = new LeakyBucketRateLimiter(RL_URL, rl_prefix('sized'), 10, 0.01, 3);
$c = [];
for ($i = 0; $i < 4; $i++) {
    $r = $sized->consume('s');
    $c[] = ($r->allowed ? 'Y' : 'n') . $r->remaining . ' delay ' . ceil($r->delay) . ($r->allowed ? '' : ' retry ' . ceil($r->retryAfter));
}
echo "limit {$r->limit}: ", implode(', ', $c), "\n";
$r = $sized->consume('t', 3);
echo "cost 3 x size 3 = 9 units: ", var_export($r->allowed, true), " remaining {$r->remaining}\n";
$r = $sized->consume('t', 1);
echo "then 3 more do not fit: ", var_export($r->allowed, true), " remaining {$r->remaining}, retry ", ceil($r->retryAfter), "\n";
$p = $sized->peek('t');
echo "peek asks for one request (3 units): ", var_export($p->allowed, true), " remaining {$p->remaining}\n";
printf("stored level: %.2f\n", unpack('e', rl_redis()->get(rl_prefix('sized') . ':t'))[1]);

echo "-- named arguments, requestSize 2 in a bucket of 6 at 0.5 units/s\n";
$named = new LeakyBucketRateLimiter(leakRate: 0.5, requestSize: 2, bucketCapacity: 6, keyPrefix: rl_prefix('named'), connection: RL_URL);
$r = $named->consume('x');
var_dump($r->limit, $r->remaining, $r->resetAfter);
?>
--EXPECT--
-- requestSize 3 in a bucket of 10
limit 10: Y7 delay 0, Y4 delay 300, Y1 delay 600, n1 delay 0 retry 200
cost 3 x size 3 = 9 units: true remaining 1
then 3 more do not fit: false remaining 1, retry 200
peek asks for one request (3 units): false remaining 1
stored level: 9.00
-- named arguments, requestSize 2 in a bucket of 6 at 0.5 units/s
int(6)
int(4)
float(4)
