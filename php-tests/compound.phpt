--TEST--
CompoundRateLimiter: all-or-nothing over members of any classes in one atomic round trip, the most restrictive answer, peek/reset/consumeMany, $remaining, bad members named; 8 processes on (50/min, 100/min) accept exactly 50 and leave the second member at exactly 50
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
// Counts round trips (INFO stats): a server of this test's own.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$redis = rl_redis($server['port']);
$reads = fn () => (int) $redis->info('stats')['total_reads_processed'];
$p = rl_prefix();
$brief = fn (RateLimitResult $r) => sprintf('%s limit=%d remaining=%d', $r->allowed ? 'Y' : 'n', $r->limit, $r->remaining);

echo "-- a per-second and a per-day plan: one atomic round trip, all or nothing\n";
$second = new FixedWindowRateLimiter($url, "$p:sec", 1, 2);
$day = new TokenBucketRateLimiter($url, "$p:day", 5, 5 / 86400);
$plan = new CompoundRateLimiter([$second, $day]);
$plan->peek('k'); // connected, script loaded
$before = $reads();
$r = $plan->consume('k');
echo $brief($r), ", round trips ", $reads() - $before - 1, "\n";
echo $brief($plan->consume('k')), "\n";
$denied = $plan->consume('k');
echo $brief($denied), ", retryAfter in (0, 1]: ", var_export($denied->retryAfter > 0 && $denied->retryAfter <= 1, true), ", \$remaining ", $plan->remaining, "\n";
echo "the day was not charged for the denied call: ", $day->peek('k')->remaining, " of 5 left\n";
echo "a cost above any member's limit: "; rl_throws(fn () => $plan->consume('k', 3));
echo "peek writes nothing: ", $brief($plan->peek('k')), ", ", $day->peek('k')->remaining, " left\n";
$plan->reset('k');
echo "reset() deletes every member's key: ", $redis->exists("$p:sec:k", "$p:day:k"), ", \$remaining ", var_export($plan->remaining, true), "\n";
echo "consumeMany: ", implode(' ', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $plan->consumeMany(['a', 'a', 'a', 'b']))), "\n";

echo "-- members of every class at once\n";
$members = [];
foreach (rl_classes() as $kind => $c) {
    $members[] = rl_long($kind, $url, "$p:all-$kind", 3 + count($members));
}
$all = new CompoundRateLimiter($members);
$seq = '';
for ($i = 0; $i < 5; $i++) {
    $seq .= $all->isAllowed('m') ? 'Y' : 'n';
}
echo "$seq; every member took exactly 3: ";
echo implode(', ', array_map(fn ($m) => $m->peek('m')->remaining, $members)), " left of 3..8\n";

echo "-- TIME only when a member reads the clock (fixed windows keep theirs in the key's expiry)\n";
// What the Lua library calls (the server module reads its server's clock without a command).
ini_set('ratelimit.server_module', 'off');
$times = fn () => (int) (preg_match('/calls=(\d+)/', $redis->info('commandstats')['cmdstat_time'] ?? '', $m) ? $m[1] : 0);
$windows = new CompoundRateLimiter([$second, new FixedWindowRateLimiter($url, "$p:min", 60, 5)]);
$before = $times();
$windows->consume('t');
$windows->peek('t');
echo "two fixed windows: ", $times() - $before, " TIME; ";
$before = $times();
$plan->consume('t');
echo "a fixed window and a token bucket: ", $times() - $before, " TIME\n";
ini_restore('ratelimit.server_module');

echo "-- bad members\n";
rl_throws(fn () => new CompoundRateLimiter([]));
rl_throws(fn () => new CompoundRateLimiter(array_fill(0, 17, $second)));
rl_throws(fn () => new CompoundRateLimiter(['x' => new stdClass()]));
rl_throws(fn () => new CompoundRateLimiter('x'));
rl_throws(fn () => new CompoundRateLimiter([$second, new FixedWindowRateLimiter($url, "$p:sec", 9, 9)]));
rl_throws(fn () => new CompoundRateLimiter([$second, new FixedWindowRateLimiter('redis://127.0.0.1:1', "$p:x", 1, 1)]));
rl_throws(fn () => new CompoundRateLimiter([$plan]));
echo "isCloneable: ", var_export((new ReflectionClass('CompoundRateLimiter'))->isCloneable(), true), ", final: ",
    var_export((new ReflectionClass('CompoundRateLimiter'))->isFinal(), true), "\n";

echo "-- 8 processes x 40 on one id, (50/min, 100/min)\n";
$accepted = rl_hammer(function () use ($url, $p) {
    static $both;
    $both ??= new CompoundRateLimiter([
        new SlidingWindowRateLimiter($url, "$p:race50", 60, 50),
        new FixedWindowRateLimiter($url, "$p:race100", 60, 100),
    ]);
    return $both->isAllowed('one');
}, 8, 40);
echo "accepted $accepted; first member: ", $redis->zCount("$p:race50:one", '0', '+inf'), " entries; second member's counter: ", $redis->get("$p:race100:one"), "\n";
rl_stop_redis($server);
?>
--EXPECT--
-- a per-second and a per-day plan: one atomic round trip, all or nothing
Y limit=2 remaining=1, round trips 1
Y limit=2 remaining=0
n limit=2 remaining=0, retryAfter in (0, 1]: true, $remaining 0
the day was not charged for the denied call: 3 of 5 left
a cost above any member's limit: ValueError: CompoundRateLimiter::consume(): Argument #2 ($cost) must be at most 2 (the limit), 3 given
peek writes nothing: n limit=2 remaining=0, 3 left
reset() deletes every member's key: 0, $remaining NULL
consumeMany: Y Y n Y
-- members of every class at once
YYYnn; every member took exactly 3: 0, 1, 2, 3, 4, 5 left of 3..8
-- TIME only when a member reads the clock (fixed windows keep theirs in the key's expiry)
two fixed windows: 0 TIME; a fixed window and a token bucket: 1 TIME
-- bad members
ValueError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must hold 1 to 16 limiters, 0 given
ValueError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must hold 1 to 16 limiters, 17 given
TypeError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must contain only rate limiters of this extension, stdClass given at key "x"
TypeError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must be of type array, string given
ValueError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must have distinct key prefixes; limiters 0 and 1 share one
ValueError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must all use the same Redis connection target; limiter 1 uses another than limiter 0
ValueError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must not hold a CompoundRateLimiter; list its members instead
isCloneable: false, final: true
-- 8 processes x 40 on one id, (50/min, 100/min)
accepted 50; first member: 50 entries; second member's counter: 50
