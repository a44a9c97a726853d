--TEST--
Redis stalled (CLIENT PAUSE) with ratelimit.timeout=0.2: the call returns in time, and the next calls get their own replies
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.timeout=0.2
--FILE--
<?php
require __DIR__ . '/../config.inc';
$server = rl_start_redis();
$port = $server['port'];
$l = new FixedWindowRateLimiter("redis://127.0.0.1:$port", 'k', 60, 100);
var_dump($l->consume('a')->remaining);

$admin = rl_redis($port);
$pause = rl_client_pause($admin, 1500);
$t = microtime(true);
rl_throws(fn () => $l->consume('a'));
$took = microtime(true) - $t;
echo "returned within the timeout + margin: ", var_export($took >= 0.19 && $took < 0.2 + 0.5, true), "\n";
usleep(1600000);   // the pause ends; the timed-out command now runs on the server

echo "-- next calls: their own replies, never the late one\n";
$seen = [];
for ($i = 0; $i < 5; $i++) {
    $seen[] = $l->consume('a')->remaining;
}
// The timed-out command may or may not have run (Redis drops a closed client's
// pending input); either way the replies count down by one, ending where Redis is.
$first = $seen[0];
echo "first is 98 or 97: ", var_export(in_array($first, [98, 97], true), true), "\n";
echo "consecutive: ", var_export($seen === range($first, $first - 4), true), "\n";
echo "last matches Redis: ", var_export(100 - (int) $admin->get('k:a') === end($seen), true), "\n";
echo "another id: ", $l->consume('b')->remaining, "\n";
rl_stop_redis($server);
?>
--EXPECTF--
int(99)
RateLimiterException: Redis at redis://127.0.0.1:%d: timed out%A
returned within the timeout + margin: true
-- next calls: their own replies, never the late one
first is 98 or 97: true
consecutive: true
last matches Redis: true
another id: 99
