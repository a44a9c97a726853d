--TEST--
requirepass and an ACL user: DSN with credentials, array auth (a phpredis object after auth(): phpredis_objects.phpt); wrong credentials name the cause
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$server = rl_start_redis(['--requirepass', 's3cret:/@x']);
$port = $server['port'];
$admin = new RlClient();
$admin->connect('127.0.0.1', $port);
$admin->auth('s3cret:/@x');
$admin->rawCommand('ACL', 'SETUSER', 'limiter', 'on', '>limiter-pw', '~*', '+@all');

$conns = [
    'dsn password'      => "redis://:s3cret%3A%2F%40x@127.0.0.1:$port",
    'dsn user'          => "redis://limiter:limiter-pw@127.0.0.1:$port/1",
    'array auth string' => ['host' => '127.0.0.1', 'port' => $port, 'auth' => 's3cret:/@x'],
    'array auth pair'   => ['host' => '127.0.0.1', 'port' => $port, 'auth' => ['limiter', 'limiter-pw']],
    'array auth named'  => ['host' => '127.0.0.1', 'port' => $port, 'auth' => ['user' => 'limiter', 'pass' => 'limiter-pw']],
];
foreach ($conns as $name => $conn) {
    $l = new FixedWindowRateLimiter($conn, 'k', 60, 10);
    echo str_pad($name, 22), var_export($l->isAllowed($name), true), "\n";
}

echo "-- wrong or missing credentials\n";
foreach ([
    "redis://:wrong@127.0.0.1:$port",
    "redis://limiter:wrong@127.0.0.1:$port",
    "redis://127.0.0.1:$port",
] as $dsn) {
    rl_throws(fn () => (new FixedWindowRateLimiter($dsn, 'k', 60, 10))->isAllowed());
}
echo "-- the password never shows in phpinfo\n";
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
var_dump(str_contains($info, 's3cret'), str_contains($info, 'limiter-pw'), str_contains($info, "redis://127.0.0.1:$port db 1 user limiter"));
rl_stop_redis($server);
?>
--EXPECTF--
dsn password          true
dsn user              true
array auth string     true
array auth pair       true
array auth named      true
-- wrong or missing credentials
RateLimiterException: Redis at redis://127.0.0.1:%d: authentication failed (wrong user name or password)
RateLimiterException: Redis at redis://127.0.0.1:%d user limiter: authentication failed (wrong user name or password)
RateLimiterException: Redis at redis://127.0.0.1:%d: %SNOAUTH%s
-- the password never shows in phpinfo
bool(false)
bool(false)
bool(true)
