--TEST--
TLS asked for in any form never falls back to plain TCP (a phpredis object's: phpredis_objects.phpt): against a plain listener every form sends only a TLS hello (never the password) and fails with a RateLimiterException; a plain redis-server never sees AUTH; an unknown scheme is a ValueError
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
ratelimit.connect_timeout=0.3
ratelimit.timeout=0.3
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
// A plain TCP listener on loopback: whatever reaches it is recorded.
$listener = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($listener, false))[1];
$pw = 'tls-secret-' . getmypid();


$forms = [
    'rediss:// DSN' => "rediss://:$pw@127.0.0.1:$port",
    'REDISS:// DSN' => "REDISS://user:$pw@127.0.0.1:$port/1",
    'tls:// DSN' => "tls://:$pw@127.0.0.1:$port",
    "scheme 'tls'" => ['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tls', 'auth' => $pw],
    "scheme 'rediss'" => ['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'rediss', 'auth' => $pw],
    "scheme 'ssl'" => ['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'SSL', 'auth' => $pw],
    "'ssl' options" => ['host' => '127.0.0.1', 'port' => $port, 'ssl' => ['verify_peer' => false], 'auth' => $pw],
    "'ssl' => true" => ['host' => '127.0.0.1', 'port' => $port, 'ssl' => true, 'auth' => $pw],
    "'context' stream options" => ['host' => '127.0.0.1', 'port' => $port, 'context' => ['stream' => ['verify_peer' => false]], 'auth' => $pw],
    'tls:// host' => ['host' => 'tls://127.0.0.1', 'port' => $port, 'auth' => $pw],
    'ssl:// host' => ['host' => 'ssl://127.0.0.1', 'port' => $port, 'auth' => $pw],
    "unknown scheme 'tcps'" => ['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tcps', 'auth' => $pw],
];
/** What reached the listener since the last look, summed up: a TLS hello or not, the password or not. */
function received($listener, string $pw): string
{
    $seen = [];
    while ($conn = @stream_socket_accept($listener, 0.05)) {
        stream_set_timeout($conn, 0, 200000);
        $bytes = (string) fread($conn, 16384);
        $seen[] = (str_starts_with($bytes, "\x16\x03") ? 'a TLS hello' : 'NOT TLS: ' . var_export(substr($bytes, 0, 40), true))
            . (str_contains($bytes, $pw) ? ' WITH THE PASSWORD' : '');
    }
    return $seen ? implode(', ', $seen) : 'nothing';
}
$shown = fn (string $m) => preg_replace(['/127\.0\.0\.1:\d+/', '/ \(Resource temporarily unavailable[^)]*\)\)/'], ['127.0.0.1:PORT', ''], $m);

foreach ($forms as $name => $connection) {
    try {
        $l = new FixedWindowRateLimiter($connection, 'tls', 60, 5);
        $l->consume('x');
        echo "$name: accepted it\n";
    } catch (Throwable $e) {
        echo str_pad($name, 27), get_class($e), ': ', $shown($e->getMessage()), "\n";
        if (str_contains($e->getMessage(), $pw) || str_contains((string) $e, $pw)) echo "  PASSWORD SHOWN\n";
    }
    echo str_pad('', 27), 'the listener received: ', received($listener, $pw), "\n";
}
echo "-- the default connection\n";
var_dump(ini_set('ratelimit.redis_url', "rediss://:$pw@127.0.0.1:$port") !== false);
rl_throws(fn () => (new GcraRateLimiter('tls', 5, 10, 60))->consume('x'));
echo 'the listener received: ', received($listener, $pw), "\n";

echo "-- a plain redis-server with a password, asked for TLS\n";
$server = rl_start_redis(['--requirepass', $pw]);
rl_throws(fn () => (new TokenBucketRateLimiter("rediss://:$pw@127.0.0.1:{$server['port']}?verify_peer=0", 'tls', 5, 1))->consume('x'));
$r = rl_redis($server['port']);
$r->auth($pw);
echo "AUTH calls the server saw: ", $r->info('commandstats')['cmdstat_auth'] ?? 'none', " (the harness's own, just now)\n";
rl_stop_redis($server);
?>
--EXPECTF--
rediss:// DSN              RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
REDISS:// DSN              RateLimiterException: Redis at rediss://127.0.0.1:PORT db 1 user user: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
tls:// DSN                 RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
scheme 'tls'               RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
scheme 'rediss'            RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
scheme 'ssl'               RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
'ssl' options              RateLimiterException: Redis at rediss://127.0.0.1:PORT verify_peer=0: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
'ssl' => true              RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
'context' stream options   RateLimiterException: Redis at rediss://127.0.0.1:PORT verify_peer=0: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
tls:// host                RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
ssl:// host                RateLimiterException: Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
                           the listener received: a TLS hello
unknown scheme 'tcps'      ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) scheme must be "tcp", "redis" or "tls", "tcps" given
                           the listener received: nothing
-- the default connection
bool(true)
RateLimiterException: Redis at rediss://127.0.0.1:%d: timed out%s
the listener received: a TLS hello
-- a plain redis-server with a password, asked for TLS
RateLimiterException: Redis at rediss://127.0.0.1:%d verify_peer=0: %s
AUTH calls the server saw: calls=1,%s (the harness's own, just now)
