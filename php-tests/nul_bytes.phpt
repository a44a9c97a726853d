--TEST--
NUL bytes: messages PHP can carry (escaped), always the right exception class; php --ri with NUL in key_prefix or a pooled host prints its whole table, no panic
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.3
--FILE--
<?php
require __DIR__ . '/config.inc';
echo "-- messages\n";
rl_throws(fn () => new FixedWindowRateLimiter(['host' => "127.0.0.1\0evil"], 'k', 60, 5));
rl_throws(fn () => new FixedWindowRateLimiter("redis://127.0.0.1\0evil:6379", 'k', 60, 5));
rl_throws(fn () => new FixedWindowRateLimiter("unix:///tmp/a\0b.sock", 'k', 60, 5));
rl_throws(fn () => new FixedWindowRateLimiter("redis://\0:0", 'k', 60, 5));
$l = new FixedWindowRateLimiter(RL_URL, rl_prefix(), 60, 5);
rl_throws(fn () => $l->consume(new class {}));
rl_throws(fn () => $l->consume('x', new class {}));
rl_throws(fn () => new FixedWindowRateLimiter(new class {}, 'k', 60, 5));
rl_throws(fn () => new FixedWindowRateLimiter(RL_URL, 'k', "6\x000", 5));
echo "-- a NUL byte in ids and key prefixes is data, not a problem\n";
var_dump((new FixedWindowRateLimiter(RL_URL, rl_prefix("a\0b"), 60, 5))->consume("x\0y")->remaining);

echo "-- php --ri with a NUL byte in ratelimit.key_prefix and in a pooled unix path\n";
$code = <<<'PHP'
ini_set('ratelimit.key_prefix', "pre\0fix:");
$l = new FixedWindowRateLimiter($argv[1], 'k', 60, 5);
try { new FixedWindowRateLimiter(['host' => "/tmp/a\0b.sock"], 'k', 60, 5); } catch (ValueError $e) {}
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
echo preg_replace('/127\.0\.0\.1:\d+/', 'HOST:PORT', $info);
PHP;
$proc = proc_open([...rl_php_command(), '-r', $code, RL_URL], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
echo "exit ", proc_close($proc), ", stderr ", var_export($err, true), "\n";
echo implode("\n", array_filter(explode("\n", $out), fn ($l) => str_contains($l, 'key_prefix') || str_contains($l, 'pool') || str_contains($l, 'HOST'))), "\n";
?>
--EXPECT--
-- messages
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) host must not contain a NUL byte, "127.0.0.1\0evil" given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (invalid host): "redis://127.0.0.1\0evil:6379"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (the socket path contains a NUL byte): "unix:///tmp/a\0b.sock"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (invalid host): "redis://\0:0"
TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, class@anonymous given
TypeError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be of type int, class@anonymous given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be of type Redis|RedisCluster|array|string|null, class@anonymous given
TypeError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be of type float, string given
-- a NUL byte in ids and key prefixes is data, not a problem
int(4)
-- php --ri with a NUL byte in ratelimit.key_prefix and in a pooled unix path
exit 0, stderr ''
ratelimit.redis_url => redis://HOST:PORT => redis://HOST:PORT
ratelimit.key_prefix => pre\0fix: => no value
Connection pool (this process) => State
redis://HOST:PORT => closed, opened 0 time(s), 0 failure(s); breaker closed
