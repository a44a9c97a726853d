--TEST--
LeakyBucketRateLimiter: delays space accepted requests 1/rate apart (the queue form); the level drains continuously and keeps fractions
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
$key = rl_prefix() . ':a';
$state = fn() => unpack('elevel/ets', $redis->get($key));
// 4 units/s: one request leaks out every 0.25 s; 0.375 s drains 1.5 units,
// with 125 ms of slack before 2.
$limiter = new LeakyBucketRateLimiter(RL_URL, rl_prefix(), 5, 4);

$delays = [];
for ($i = 0; $i < 5; $i++) {
    $r = $limiter->consume('a');
    $delays[] = round($r->delay * 4) . '/4';
    // i/rate minus the little that leaked while the loop ran
    $ok[] = $r->delay <= $i * 0.25 && $r->delay > $i * 0.25 - 0.02;
}
echo "delays: ", implode(' ', $delays), " s, each within 20 ms below i/rate: ", var_export(!in_array(false, $ok, true), true), "\n";
$level = $state()['level'];
echo "full: remaining {$r->remaining}, stored level about 5: ", var_export($level > 4.9 && $level <= 5, true), "\n";
$d = $limiter->consume('a');
printf("next: %s, retryAfter about 0.25 s: %s, resetAfter about 1.25 s: %s, delay %s\n", var_export($d->allowed, true),
    var_export($d->retryAfter > 0.2 && $d->retryAfter <= 0.25, true),
    var_export($d->resetAfter > 1.2 && $d->resetAfter <= 1.25, true), var_export($d->delay, true));
$ttl = $redis->pttl($key);
echo "TTL the time to empty (1.25 s): ", var_export($ttl > 1150 && $ttl <= 1250, true), "\n";

usleep(375000);
$p = $limiter->peek('a');
echo "after 0.375 s: peek remaining {$p->remaining} (level 3.5)\n";
$d = $limiter->consume('a', 2);
printf("cost 2 denied: %s, retryAfter about 0.125 s: %s\n", var_export(!$d->allowed, true),
    var_export($d->retryAfter > 0.0 && $d->retryAfter <= 0.125, true));
$r = $limiter->consume('a');
printf("cost 1: %s remaining %d, delay about 0.875 s: %s\n", var_export($r->allowed, true), $r->remaining,
    var_export($r->delay > 0.8 && $r->delay <= 0.875, true));
$s = $state();
printf("stored level: 4.5 minus a little: %s\n", var_export($s['level'] > 4.4 && $s['level'] <= 4.5, true));

usleep(375000);
$p = $limiter->peek('a');
echo "after another 0.375 s: peek remaining {$p->remaining} (level 3.0: the half unit kept)\n";
echo "peek wrote nothing: ", var_export($state() == $s, true), "\n";

echo "-- a caller that waits its delay works at the leak rate\n";
$queue = new LeakyBucketRateLimiter(RL_URL, rl_prefix('queue'), 10, 20);
$start = microtime(true);
$done = [];
for ($i = 0; $i < 6; $i++) {
    $r = $queue->consume('job');
    $done[] = microtime(true) - $start + $r->delay; // when this one leaks out
}
$gaps = [];
for ($i = 1; $i < 6; $i++) {
    $gaps[] = abs($done[$i] - $done[$i - 1] - 0.05) < 0.01 ? 'ok' : sprintf('%.4f', $done[$i] - $done[$i - 1]);
}
echo "gaps of 1/20 s: ", implode(' ', $gaps), "\n";
?>
--EXPECT--
delays: 0/4 1/4 2/4 3/4 4/4 s, each within 20 ms below i/rate: true
full: remaining 0, stored level about 5: true
next: false, retryAfter about 0.25 s: true, resetAfter about 1.25 s: true, delay 0.0
TTL the time to empty (1.25 s): true
after 0.375 s: peek remaining 1 (level 3.5)
cost 2 denied: true, retryAfter about 0.125 s: true
cost 1: true remaining 0, delay about 0.875 s: true
stored level: 4.5 minus a little: true
after another 0.375 s: peek remaining 2 (level 3.0: the half unit kept)
peek wrote nothing: true
-- a caller that waits its delay works at the leak rate
gaps of 1/20 s: ok ok ok ok ok
