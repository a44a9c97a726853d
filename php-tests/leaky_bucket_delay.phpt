--TEST--
LeakyBucketRateLimiter: delays space accepted requests 1/rate apart (the queue form); the level drains continuously and keeps fractions
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';

// 4 units/s: one request leaks out every 0.25 s; 0.375 s drains 1.5 units.
// Every step measures the time that really passed; a run in which this
// machine stalled a step past its slack (a busy CI host) proves nothing, so it
// runs again on a fresh key (3 tries).
rl_retry(function (RlTimeline $clock, int $try) {
    $id = "try$try";
    $redis = rl_redis();
    $limiter = new LeakyBucketRateLimiter(RL_URL, rl_prefix(), 5, 4);
    $key = rl_prefix() . ":$id";
    $state = fn() => unpack('elevel/ets', $redis->get($key));
    $since = [$clock, 'end']; // at least the drain time the server saw

    $delays = [];
    $ok = true;
    for ($i = 0; $i < 5; $i++) {
        $r = $limiter->consume($id);
        $delays[] = round($r->delay * 4) . '/4';
        // i/rate, less what leaked out since the first request
        $ok = $ok && $r->delay <= $i * 0.25 && $r->delay >= $i * 0.25 - $since();
    }
    $clock->by(0.1);
    echo "delays: ", implode(' ', $delays), " s, i/rate less the time since the first: ", var_export($ok, true), "\n";
    $level = $state()['level'];
    echo "full: remaining {$r->remaining}, stored level 5 less what leaked: ", var_export($level <= 5 && $level >= 5 - 4 * $since(), true), "\n";
    $d = $limiter->consume($id);
    $s = $since();
    printf("next: %s, retryAfter 0.25 s less the time since: %s, resetAfter 1.25 s less it: %s, delay %s\n", var_export($d->allowed, true),
        var_export($d->retryAfter <= 0.25 && $d->retryAfter >= 0.25 - $s, true),
        var_export($d->resetAfter <= 1.25 && $d->resetAfter >= 1.25 - $s, true), var_export($d->delay, true));
    $ttl = $redis->pttl($key);
    echo "TTL the time to empty: ", var_export($ttl <= 1250 && $ttl >= 1249 - $since() * 1000, true), "\n";

    $clock->at($clock->end() + 0.375); // 0.375 s after the last call: at least that much on the server
    $p = $limiter->peek($id);
    $clock->by(0.47); // level = 5 - 4 x elapsed: 3 at 0.5 s
    echo "after 0.375 s: peek remaining {$p->remaining} (level 3.5)\n";
    $d = $limiter->consume($id, 2);
    printf("cost 2 denied: %s, retryAfter at most 0.125 s: %s\n", var_export(!$d->allowed, true),
        var_export($d->retryAfter > 0.0 && $d->retryAfter <= 0.125, true));
    $r = $limiter->consume($id);
    $clock->by(0.47);
    printf("cost 1: %s remaining %d, delay 1.25 s less the time since: %s\n", var_export($r->allowed, true), $r->remaining,
        var_export($r->delay <= 0.875 && $r->delay >= 1.25 - $since(), true));
    $s = $state(); // 6 added - 4 x elapsed
    printf("stored level: 4.5 less what leaked since 0.375 s: %s\n", var_export($s['level'] <= 4.5 && $s['level'] >= 6 - 4 * $since(), true));

    $clock->at($clock->end() + 0.375);
    $p = $limiter->peek($id);
    $clock->by(0.97);
    echo "after another 0.375 s: peek remaining {$p->remaining} (level 3.0: the half unit kept)\n";
    echo "peek wrote nothing: ", var_export($state() == $s, true), "\n";
}, 0.09);

echo "-- a caller that waits its delay works at the leak rate\n";
// Request i leaks out at (server time of its call) + delay. Each call happens
// between two microtime() readings, so with exact spacing every interval
// [before_i + delay_i, after_i + delay_i] - i/rate holds one common instant.
$queue = new LeakyBucketRateLimiter(RL_URL, rl_prefix('queue'), 10, 20);
$low = -INF;
$high = INF;
for ($i = 0; $i < 8; $i++) {
    $before = microtime(true);
    $r = $queue->consume('job');
    $after = microtime(true);
    $low = max($low, $before + $r->delay - $i / 20);
    $high = min($high, $after + $r->delay - $i / 20);
}
echo "8 requests leak out exactly 1/20 s apart: ", var_export($low <= $high + 1e-5, true), "\n";
?>
--EXPECT--
delays: 0/4 1/4 2/4 3/4 4/4 s, i/rate less the time since the first: true
full: remaining 0, stored level 5 less what leaked: true
next: false, retryAfter 0.25 s less the time since: true, resetAfter 1.25 s less it: true, delay 0.0
TTL the time to empty: true
after 0.375 s: peek remaining 1 (level 3.5)
cost 2 denied: true, retryAfter at most 0.125 s: true
cost 1: true remaining 0, delay 1.25 s less the time since: true
stored level: 4.5 less what leaked since 0.375 s: true
after another 0.375 s: peek remaining 2 (level 3.0: the half unit kept)
peek wrote nothing: true
-- a caller that waits its delay works at the leak rate
8 requests leak out exactly 1/20 s apart: true
