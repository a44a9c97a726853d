--TEST--
php --ri: support line, version, the ini table as PHP extensions show it (Directive / Local Value / Master Value, a password masked), pool state; RateLimiterException carries the caller's file, line and trace
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.on_error=deny
ratelimit.key_prefix=app:
--FILE--
<?php
require __DIR__ . '/config.inc';
(new FixedWindowRateLimiter(RL_URL, rl_prefix(), 60, 5))->isAllowed();
ini_set('ratelimit.timeout', '2.5');
ini_set('ratelimit.redis_url', 'redis://app:s3cret@127.0.0.1:' . RL_PORT . '/2');
var_dump(ini_get('ratelimit.timeout'), ini_get('ratelimit.connect_timeout'));
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
echo rl_masked($info);

function call_it(RateLimiterInterface $l) {
    return $l->isAllowed('x');
}
ini_set('ratelimit.on_error', 'throw');
try {
    call_it(new FixedWindowRateLimiter('redis://127.0.0.1:' . rl_free_port(), 'k', 60, 5));
} catch (RateLimiterException $e) {
    echo basename($e->getFile()), ':', $e->getLine(), "\n";
    echo $e->getTrace()[0]['function'], ' <- ', $e->getTrace()[1]['function'], "\n";
    var_dump($e instanceof RuntimeException, $e->getCode());
}
?>
--EXPECTF--
string(3) "2.5"
string(3) "1.0"

ratelimit

ratelimit support => enabled
version => %d.%d.%d
build => %s
commit => %s
built for PHP => %s
target => %s
built against glibc => %s
scripts => %s

Directive => Local Value => Master Value
ratelimit.redis_url => redis://app:***@HOST:PORT/2 => redis://HOST:PORT
ratelimit.connect_timeout => 1.0 => 1.0
ratelimit.timeout => 2.5 => 1.0
ratelimit.on_error => deny => deny
ratelimit.key_prefix => app: => app:
ratelimit.block_cache => 0 => 0
ratelimit.block_cache_size => 10000 => 10000
ratelimit.max_connections => 64 => 64
ratelimit.server_module => auto => auto
ratelimit.dry_run => 0 => 0
ratelimit.metrics => off => off
ratelimit.multiplex => auto => auto
ratelimit.local_share => 0.1 => 0.1
ratelimit.retry_interval => 1.0 => 1.0

Connection pool (this process) => State
max connections => 64
targets => 1
open connections => 1
closed by the bound (least recently used) => 0
dropped (no connection, no limiter) => 0
redis://HOST:PORT => open, opened 1 time(s), 0 failure(s), decided by PATH; breaker closed
server module => auto (used where the server has it)

Block cache (this process) => State
enabled => no
entries => 0
hits => 0

Leases (withLease) => Units
held by this thread => 0 in 0 lease(s)
leased (this process) => 0
returned (this process) => 0
expired (this process) => 0
held (this process) => 0

Decision metrics (this process) => Total
mode => off
dry run (ratelimit.dry_run) => off
limiters => 0
allowed => 0
denied => 0
would_deny => 0
errors => 0
on_error => 0
block_cache => 0
phpinfo_and_exceptions.php:13
isAllowed <- call_it
bool(true)
int(0)
