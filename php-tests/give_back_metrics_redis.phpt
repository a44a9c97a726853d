--TEST--
ratelimit.metrics=redis: refund(), charge() and reserve() count themselves inside their own call (one round trip each, as with metrics off), a compound's as one decision; fleet() reads them
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.metrics=redis
--FILE--
<?php
require __DIR__ . '/config.inc';
// Counts round trips (INFO stats): a server of this test's own.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$r = rl_redis($server['port']);
$reads = fn () => (int) $r->info('stats')['total_reads_processed'];
$p = rl_prefix('gbm');
$t = new TokenBucketRateLimiter($url, "$p:t", 2, 0.001);
$f = new FixedWindowRateLimiter($url, "$p:f", 60, 5);
$t->peek('u');   // connected, library loaded
$t->refund('u'); // a first counted call (nothing to give back: allowed)
$before = $reads();
$t->consume('u', 2);
$t->refund('u');         // allowed
$t->charge('u', 2);      // past the limit: denied
$t->reserve('u', 1, 0);  // would wait: denied
$t->reserve('u', 1, 3600); // booked (2 tokens owed: 2000 s): allowed
echo 'round trips for 5 calls: ', $reads() - $before - 1, "\n"; // less the INFO that reads it
$both = new CompoundRateLimiter([$f, $t]);
$both->refund('u', 3);
$both->charge('u', 1);   // within both limits: allowed
foreach (RateLimitMetrics::fleet($url) as $name => $c) {
    if (str_contains((string) $name, $p)) {
        echo substr($name, strlen(rl_prefix())), ': ', implode(' ', array_map(fn ($k, $v) => "$k=$v", array_keys($c), $c)), "\n";
    }
}
rl_stop_redis($server);
?>
--EXPECTF--
round trips for 5 calls: 5
%Sgbm:f+%Sgbm:t: allowed=2 denied=0%S
%Sgbm:t: allowed=4 denied=2%S
