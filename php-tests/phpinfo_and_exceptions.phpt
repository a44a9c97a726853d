--TEST--
php --ri: support line, version, ini values in force, pool state; RateLimiterException carries the caller's file, line and trace
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.on_error=deny
ratelimit.key_prefix=app:
--FILE--
<?php
require __DIR__ . '/config.inc';
(new FixedWindowRateLimiter(RL_URL, rl_prefix(), 60, 5))->isAllowed();
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
echo preg_replace('/127\.0\.0\.1:\d+/', 'HOST:PORT', $info);

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
ratelimit

ratelimit support => enabled
version => %d.%d.%d
scripts => %s

Directive => Value in force
ratelimit.redis_url => redis://HOST:PORT
ratelimit.connect_timeout => 1
ratelimit.timeout => 1
ratelimit.on_error => deny
ratelimit.key_prefix => app:

Connection pool (this process) => State
max connections => 64
targets => 1
open connections => 1
closed by the bound (least recently used) => 0
dropped (no connection, no limiter) => 0
redis://HOST:PORT => open, opened 1 time(s), 0 failure(s)
phpinfo_and_exceptions.php:10
isAllowed <- call_it
bool(true)
int(0)
