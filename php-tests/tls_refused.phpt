--TEST--
TLS asked for in any form is refused with a ValueError before a byte is sent (a plain listener records nothing); an unknown scheme is a ValueError
--SKIPIF--
<?php $needs = ['redis']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.3
ratelimit.timeout=0.3
--FILE--
<?php
require __DIR__ . '/config.inc';
// A plain TCP listener on loopback: whatever reaches it is recorded.
$listener = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($listener, false))[1];
$pw = 'tls-secret-' . getmypid();

/** A phpredis object as one connected with TLS reports itself. */
class TlsRedis extends Redis {
    public function isConnected(): bool { return true; }
    public function getHost(): string|false { return 'tls://127.0.0.1'; }
    public function getPort(): int|false { return $GLOBALS['port']; }
    public function getAuth(): mixed { return $GLOBALS['pw']; }
    public function getDbNum(): int|false { return 0; }
}

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
    'phpredis object on tls://' => new TlsRedis(),
    "unknown scheme 'tcps'" => ['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tcps', 'auth' => $pw],
];
foreach ($forms as $name => $connection) {
    foreach (['FixedWindowRateLimiter' => [60, 5], 'GcraRateLimiter' => [5, 10, 60]] as $class => $policy) {
        try {
            $l = new $class($connection, 'tls', ...$policy);
            $l->consume('x'); // were the constructor to accept it, the call would connect
            echo "$name: $class accepted it\n";
        } catch (Throwable $e) {
            if ($class === 'FixedWindowRateLimiter') {
                echo str_pad($name, 27), get_class($e), ': ', $e->getMessage(), "\n";
            }
            if (str_contains($e->getMessage(), $pw) || str_contains((string) $e, $pw)) echo "  PASSWORD SHOWN\n";
        }
    }
}
echo "-- the default connection\n";
var_dump(ini_set('ratelimit.redis_url', "rediss://:$pw@127.0.0.1:$port"));
echo "-- what the listener received\n";
$received = '';
while ($conn = @stream_socket_accept($listener, 0.2)) {
    $received .= "connection; " . var_export(fread($conn, 1024), true);
}
var_dump($received);
?>
--EXPECTF--
rediss:// DSN              ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS (rediss://), which is not supported yet; nothing was sent
REDISS:// DSN              ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS (rediss://), which is not supported yet; nothing was sent
tls:// DSN                 ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS (tls://), which is not supported yet; nothing was sent
scheme 'tls'               ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS ('scheme' => 'tls'), which is not supported yet; nothing was sent
scheme 'rediss'            ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS ('scheme' => 'rediss'), which is not supported yet; nothing was sent
scheme 'ssl'               ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS ('scheme' => 'SSL'), which is not supported yet; nothing was sent
'ssl' options              ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS ('ssl' options), which is not supported yet; nothing was sent
'ssl' => true              ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS ('ssl' options), which is not supported yet; nothing was sent
'context' stream options   ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS ('context' ssl options), which is not supported yet; nothing was sent
tls:// host                ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS (host tls://), which is not supported yet; nothing was sent
ssl:// host                ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS (host ssl://), which is not supported yet; nothing was sent
phpredis object on tls://  ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) requests TLS (host tls://), which is not supported yet; nothing was sent
unknown scheme 'tcps'      ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) scheme must be "tcp" or "redis" (TLS is not supported yet), "tcps" given
-- the default connection
bool(false)
-- what the listener received
string(0) ""
