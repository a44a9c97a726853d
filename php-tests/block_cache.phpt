--TEST--
ratelimit.block_cache: a denial is answered from process memory until its retryAfter has passed (no command sent, times counting down), for the same key and policy and a cost at least as large; reset() in this process forgets it; php --ri shows entries and hits; 8 processes accept exactly the limit with it on
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.block_cache=1
ratelimit.block_cache_size=3
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
// Counts server-wide figures (INFO stats): a server of this test's own.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$redis = rl_redis($server['port']);
$commands = fn () => (int) $redis->info('stats')['total_commands_processed'];
$p = rl_prefix();

// Limit 2, one every 2 s: long enough that a stall of this process (a
// loaded machine) does not outlive the denial before the next steps read it.
$l = new GcraRateLimiter($url, $p, 1, 2, 4);
$l->isAllowed('u');
$l->isAllowed('u');
$first = $l->consume('u');
echo "denied by Redis: ", var_export($first->allowed, true), ", retryAfter ", rl_within($first->retryAfter, 2.0, 1.0), "\n";
usleep(50000);
$before = $commands();
$again = $l->consume('u');
$sent = $commands() - $before - 1;
echo "again: denied ", var_export(!$again->allowed, true), ", commands sent $sent, retryAfter counted down: ",
    var_export($again->retryAfter < $first->retryAfter && $again->retryAfter > 0, true),
    ", resetAfter too: ", var_export($again->resetAfter < $first->resetAfter, true), ", \$remaining ", $l->remaining, "\n";
$before = $commands();
$l->consume('u', 2);
echo "a larger cost from memory too: commands sent ", $commands() - $before - 1, "\n";
$other = new GcraRateLimiter($url, $p, 4, 2, 4); // another policy on the same key
$before = $commands();
$r = $other->peek('u');
echo "another policy on the same key asks Redis: commands sent ", ($commands() - $before - 1) > 0 ? 'some' : 'none', "\n";
usleep((int) ($again->retryAfter * 1e6) + 20000);
$before = $commands();
echo "after retryAfter: ", var_export($l->isAllowed('u'), true), ", asked Redis: ", var_export($commands() - $before - 1 > 0, true), "\n";

echo "-- a cheaper request is asked of Redis\n";
$t = new TokenBucketRateLimiter($url, "$p:t", 3, 0.001);
$t->consume('v', 2);
$big = $t->consume('v', 2);
$before = $commands();
$small = $t->consume('v', 1);
echo "cost 2 denied, then cost 1: ", var_export($small->allowed, true), ", asked Redis: ", var_export($commands() - $before - 1 > 0, true), "\n";

echo "-- reset() in this process forgets\n";
$f = new FixedWindowRateLimiter($url, "$p:f", 60, 1);
$f->isAllowed('w');
$f->isAllowed('w');
$f->reset('w');
echo "after reset: ", var_export($f->isAllowed('w'), true), "\n";

echo "-- what another process's reset() does is seen only when the entry expires\n";
$f->isAllowed('w');
$redis->del("$p:f:w");
echo "key deleted from outside: still denied from memory: ", var_export(!$f->isAllowed('w'), true), "\n";

echo "-- memory is bounded: 4 more denials, 3 entries at most\n";
$x = new FixedWindowRateLimiter($url, "$p:x", 60, 1);
foreach (['x1', 'x2', 'x3', 'x4'] as $id) {
    $x->isAllowed($id);
    $x->isAllowed($id);
}
echo "-- php --ri\n";
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
preg_match('/Block cache \(this process\).*?enabled => (\w+).*?entries => (\d+).*?hits => (\d+)/s', $info, $m);
echo "enabled $m[1], entries $m[2] (at most 3), hits $m[3]\n";

echo "-- consumeMany: cached ids need no round trip\n";
$s = new SlidingWindowRateLimiter($url, "$p:s", 60, 1);
$s->consumeMany(['a', 'b', 'a']);
$before = $commands();
$answers = $s->consumeMany(['a', 'a']);
echo implode(' ', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $answers)), ", commands sent ", $commands() - $before - 1, "\n";

echo "-- 8 processes with the cache on: exactly the limit\n";
foreach (rl_classes() as $kind => $c) {
    $prefix = rl_prefix("race-$kind");
    $accepted = rl_hammer(function () use ($kind, $prefix, $url) {
        static $limiter;
        $limiter ??= rl_long($kind, $url, $prefix, 50, 100000);
        return $limiter->isAllowed('k');
    }, 8, 100);
    echo "$kind $accepted\n";
}
rl_stop_redis($server);
?>
--EXPECT--
denied by Redis: false, retryAfter 2.00
again: denied true, commands sent 0, retryAfter counted down: true, resetAfter too: true, $remaining 0
a larger cost from memory too: commands sent 0
another policy on the same key asks Redis: commands sent some
after retryAfter: true, asked Redis: true
-- a cheaper request is asked of Redis
cost 2 denied, then cost 1: true, asked Redis: true
-- reset() in this process forgets
after reset: true
-- what another process's reset() does is seen only when the entry expires
key deleted from outside: still denied from memory: true
-- memory is bounded: 4 more denials, 3 entries at most
-- php --ri
enabled yes, entries 3 (at most 3), hits 3
-- consumeMany: cached ids need no round trip
n n, commands sent 0
-- 8 processes with the cache on: exactly the limit
fixed 50
sliding 50
blocks 50
token 50
leaky 50
gcra 50
