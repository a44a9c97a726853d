--TEST--
No password in messages, traces, dumps or php --ri: DSN and query credentials redacted, $connection is a #[\SensitiveParameter], long inputs cut
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
zend.exception_ignore_args=0
ratelimit.on_error=throw
--FILE--
<?php
require __DIR__ . '/config.inc';
$pw = 'topsecretpw' . getmypid();
$seen = [];
/** Everything PHP can show of a throwable: message, string form, trace args. */
function shown_by(Throwable $e): string {
    return $e->getMessage() . "\n" . $e . "\n" . print_r($e->getTrace(), true) . var_export($e->getTrace(), true);
}
echo "-- malformed DSNs: the message shows the DSN without its credentials\n";
foreach (["redis://$pw@127.0.0.1:0", "redis://user:$pw@127.0.0.1:0", "unix:///tmp/x.sock?password=$pw&bogus=1",
          "redis://:$pw@[::1", "$pw@127.0.0.1:6379"] as $dsn) {
    try {
        new FixedWindowRateLimiter($dsn, 'k', 60, 5);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
        $seen[] = shown_by($e);
    }
}
echo "-- a refused connection with a password: RateLimiterException\n";
foreach (["redis://u:$pw@127.0.0.1:" . rl_free_port(), ['host' => '127.0.0.1', 'port' => rl_free_port(), 'auth' => ['u', $pw]]] as $c) {
    try {
        (new FixedWindowRateLimiter($c, 'k', 60, 5))->consume('x');
    } catch (RateLimiterException $e) {
        echo preg_replace('/:\d+ /', ':PORT ', $e->getMessage()), "\n";
        $seen[] = shown_by($e);
    }
}
echo "-- stack traces show a SensitiveParameterValue for \$connection\n";
foreach (['FixedWindowRateLimiter', 'SlidingWindowRateLimiter', 'TokenBucketRateLimiter', 'LeakyBucketRateLimiter', 'GcraRateLimiter'] as $class) {
    try {
        new $class("redis://u:$pw@127.0.0.1:6379", 'k', 0, 0, 0);
    } catch (Throwable $e) {
        echo $class, ': ', get_class($e->getTrace()[0]['args'][0]), "; trace: ", explode("\n", $e->getTraceAsString())[0], "\n";
        $seen[] = shown_by($e);
    }
    $attrs = (new ReflectionMethod($class, '__construct'))->getParameters()[0]->getAttributes();
    if (count($attrs) !== 1 || $attrs[0]->getName() !== 'SensitiveParameter') echo "$class: no attribute\n";
}
echo "-- dumps of a limiter with a password\n";
$l = new FixedWindowRateLimiter("redis://u:$pw@127.0.0.1:" . RL_PORT . '/3', 'k', 60, 5);
$dumps = [print_r($l, true), var_export($l, true), json_encode($l), serialize((array) $l)];
ob_start(); var_dump($l); $dumps[] = ob_get_clean();
ob_start(); (new ReflectionExtension('ratelimit'))->info(); $dumps[] = ob_get_clean();
echo $dumps[0];
$seen = array_merge($seen, $dumps);
echo "-- a 1 MB DSN is cut in the message\n";
try {
    new FixedWindowRateLimiter('redis://u:' . $pw . '@' . str_repeat('h', 1 << 20) . ':0', 'k', 60, 5);
} catch (ValueError $e) {
    echo strlen($e->getMessage()) < 400 ? 'short' : 'long: ' . strlen($e->getMessage()), ', ends with ', substr($e->getMessage(), -4), "\n";
    $seen[] = shown_by($e);
}
echo "-- the password appears nowhere: ", count(array_filter($seen, fn ($s) => str_contains($s, $pw))), " of ", count($seen), "\n";
?>
--EXPECTF--
-- malformed DSNs: the message shows the DSN without its credentials
FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://***@127.0.0.1:0"
FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (port must be 1..65535): "redis://user:***@127.0.0.1:0"
FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown query parameter, expected db, user or password): "unix:///tmp/x.sock?password=***&bogus=1"
FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unclosed [ in IPv6 host): "redis://:***@[::1"
FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "***@127.0.0.1:6379"
-- a refused connection with a password: RateLimiterException
Redis at redis://127.0.0.1:PORT user u: connection refused
Redis at redis://127.0.0.1:PORT user u: connection refused
-- stack traces show a SensitiveParameterValue for $connection
FixedWindowRateLimiter: SensitiveParameterValue; trace: #0 %s: FixedWindowRateLimiter->__construct(Object(SensitiveParameterValue), 'k', 0, 0, 0)
SlidingWindowRateLimiter: SensitiveParameterValue; trace: #0 %s: SlidingWindowRateLimiter->__construct(Object(SensitiveParameterValue), 'k', 0, 0, 0)
TokenBucketRateLimiter: SensitiveParameterValue; trace: #0 %s: TokenBucketRateLimiter->__construct(Object(SensitiveParameterValue), 'k', 0, 0, 0)
LeakyBucketRateLimiter: SensitiveParameterValue; trace: #0 %s: LeakyBucketRateLimiter->__construct(Object(SensitiveParameterValue), 'k', 0, 0, 0)
GcraRateLimiter: SensitiveParameterValue; trace: #0 %s: GcraRateLimiter->__construct(Object(SensitiveParameterValue), 'k', 0, 0, 0)
-- dumps of a limiter with a password
FixedWindowRateLimiter Object
(
    [class] => FixedWindowRateLimiter
    [keyPrefix] => k
    [policy] => Array
        (
            [window] => 60
            [limit] => 5
        )

    [remaining] => 
)
-- a 1 MB DSN is cut in the message
short, ends with …"
-- the password appears nowhere: 0 of 19
