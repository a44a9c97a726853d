--TEST--
Redis killed and restarted on the same port: calls fail cleanly while it is down and succeed again, the function library reloaded
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
; the Lua library's reload is what this test watches
ratelimit.server_module=off
ratelimit.connect_timeout=0.5
--FILE--
<?php
require __DIR__ . '/../config.inc';
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$l = new FixedWindowRateLimiter($url, 'k', 60, 5);
var_dump($l->isAllowed('a'), $l->remaining);

rl_stop_redis($server, false);
rl_throws(fn () => $l->isAllowed('a'));
rl_throws(fn () => $l->isAllowed('a'));

$server = rl_start_redis($server['extra'], $server['port'], $server['dir']);
echo "-- back: the data was lost with the server, the library is loaded again\n";
var_dump($l->isAllowed('a'), $l->remaining, $l->isAllowed('a'), $l->remaining);

echo "-- FUNCTION FLUSH between calls: the library is loaded again (peek runs it; a cost-1 fixed window needs none)\n";
rl_library_flush(rl_redis($server['port']));
var_dump($l->isAllowed('a'), $l->peek('a')->remaining, rl_library_count(rl_redis($server['port'])));

echo "-- a connection killed by the server (CLIENT KILL) is replaced without failing the call\n";
$admin = rl_redis($server['port']);
$admin->rawCommand('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
var_dump($l->isAllowed('a'), $l->remaining);
rl_stop_redis($server);
?>
--EXPECTF--
bool(true)
int(4)
RateLimiterException: Redis at redis://127.0.0.1:%d: %s
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
-- back: the data was lost with the server, the library is loaded again
bool(true)
int(4)
bool(true)
int(3)
-- FUNCTION FLUSH between calls: the library is loaded again (peek runs it; a cost-1 fixed window needs none)
bool(true)
int(2)
int(1)
-- a connection killed by the server (CLIENT KILL) is replaced without failing the call
bool(true)
int(1)
