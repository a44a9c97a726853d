--TEST--
TLS certificates: the server's certificate is verified by default (unknown CA, expired, wrong host name, no cafile: RateLimiterException naming the cause); verify_peer=0 is the explicit opt-out; client certificates for --tls-auth-clients yes with a password; unreadable files named; contradictory options are ValueErrors before anything is sent
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=2
ratelimit.timeout=2
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/tls.inc';
$certs = rl_tls_certs();
$p = rl_prefix();
// Ports, the certificates' dir and the instants rustls compared vary by run.
$shown = fn (string $m) => str_replace($certs, 'CERTS', preg_replace(['/127\.0\.0\.1:\d+/', '/verification time \d+ \(UNIX\), but certificate is not valid after \d+ \(\d+ seconds ago\)/'],
    ['127.0.0.1:PORT', 'verification time T, but certificate is not valid after T (a day ago)'], $m));
$try = function (mixed $connection) use ($p, $shown) {
    try {
        $l = new FixedWindowRateLimiter($connection, "$p:x", 60, 5);
        echo $l->consume('a')->allowed ? "allowed\n" : "denied\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $shown($e->getMessage()), "\n";
    }
};

echo "-- the server's certificate, checked against cafile\n";
foreach (['server' => 'a good one', 'stranger' => 'from another CA', 'expired' => 'expired', 'wronghost' => 'for wrong.example'] as $cert => $what) {
    $s = rl_start_tls_redis($cert);
    $port = $s['tls_port'];
    echo "$what: ";
    $try("rediss://127.0.0.1:$port?cafile=$certs/ca.pem");
    echo "  verify_peer=0: ";
    $try("rediss://127.0.0.1:$port?verify_peer=0");
    echo "  'verify_peer' => false: ";
    $try(['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tls', 'ssl' => ['cafile' => "$certs/ca.pem", 'verify_peer' => false]]);
    if ($cert === 'server') {
        echo "  by the name localhost: ";
        $try("rediss://localhost:$port?cafile=$certs/ca.pem");
        echo "  without cafile (the system's CAs do not know the test CA): ";
        $try("rediss://127.0.0.1:$port");
        echo "  a tls:// host: ";
        $try(['host' => "tls://127.0.0.1", 'port' => $port, 'ssl' => ['cafile' => "$certs/ca.pem"]]);
    }
}

echo "-- client certificates (--tls-auth-clients yes, requirepass)\n";
$pw = 'tls-pw-' . getmypid();
$s = rl_start_tls_redis('server', clientCerts: true, extra: ['--requirepass', $pw]);
$port = $s['tls_port'];
echo "none: ";
$try("rediss://:$pw@127.0.0.1:$port?cafile=$certs/ca.pem");
echo "DSN certfile+keyfile: ";
$try("rediss://:$pw@127.0.0.1:$port?cafile=$certs/ca.pem&certfile=$certs/client.pem&keyfile=$certs/client.key");
echo "array local_cert+local_pk: ";
$try(['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tls', 'auth' => $pw,
    'ssl' => ['cafile' => "$certs/ca.pem", 'local_cert' => "$certs/client.pem", 'local_pk' => "$certs/client.key"]]);
echo "wrong password over TLS: ";
$try("rediss://:nope@127.0.0.1:$port?cafile=$certs/ca.pem&certfile=$certs/client.pem&keyfile=$certs/client.key");
echo "a client certificate from another CA: ";
$try("rediss://:$pw@127.0.0.1:$port?cafile=$certs/ca.pem&certfile=$certs/stranger.pem&keyfile=$certs/stranger.key");
echo "a key that is not the certificate's: ";
$try("rediss://:$pw@127.0.0.1:$port?cafile=$certs/ca.pem&certfile=$certs/client.pem&keyfile=$certs/stranger.key");

echo "-- files that cannot be read\n";
$try("rediss://127.0.0.1:$port?cafile=$certs/missing-ca.pem");
$try("rediss://127.0.0.1:$port?cafile=$certs/ca.pem&certfile=$certs/client.pem&keyfile=$certs/missing.key");
$try("rediss://127.0.0.1:$port?cafile=$certs/client.ext");

echo "-- bad input: ValueError/TypeError before anything is sent\n";
$try("rediss://127.0.0.1:$port?certfile=$certs/client.pem");
$try(['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tls', 'ssl' => ['local_pk' => "$certs/client.key"]]);
$try("rediss://127.0.0.1:$port?verify_peer=perhaps");
$try("rediss://127.0.0.1:$port?ca=$certs/ca.pem");
$try("redis://127.0.0.1:$port?cafile=$certs/ca.pem");
$try(['host' => '/run/redis.sock', 'scheme' => 'tls']);
$try(['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tls', 'ssl' => ['verify_peer' => 'no']]);
$try(['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tls', 'ssl' => ['cafile' => 42]]);
$try(['host' => '127.0.0.1', 'port' => $port, 'ssl' => 'yes']);
$try(['host' => '127.0.0.1', 'port' => $port, 'scheme' => 'tcps']);
?>
--EXPECT--
-- the server's certificate, checked against cafile
a good one: allowed
  verify_peer=0: allowed
  'verify_peer' => false: allowed
  by the name localhost: allowed
  without cafile (the system's CAs do not know the test CA): RateLimiterException: Redis at rediss://127.0.0.1:PORT: TLS handshake failed: the server's certificate does not verify: it is not signed by a trusted CA (cafile)
  a tls:// host: allowed
from another CA: RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/ca.pem: TLS handshake failed: the server's certificate does not verify: it is not signed by a trusted CA (cafile)
  verify_peer=0: allowed
  'verify_peer' => false: allowed
expired: RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/ca.pem: TLS handshake failed: the server's certificate has expired
  verify_peer=0: allowed
  'verify_peer' => false: allowed
for wrong.example: RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/ca.pem: TLS handshake failed: the server's certificate is for another host name
  verify_peer=0: allowed
  'verify_peer' => false: allowed
-- client certificates (--tls-auth-clients yes, requirepass)
none: RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/ca.pem: TLS handshake failed: the server requires a client certificate (certfile and keyfile)
DSN certfile+keyfile: allowed
array local_cert+local_pk: allowed
wrong password over TLS: RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/ca.pem certfile CERTS/client.pem: authentication failed (wrong user name or password)
a client certificate from another CA: RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/ca.pem certfile CERTS/stranger.pem: TLS handshake failed: the server rejected the client certificate
a key that is not the certificate's: RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/ca.pem certfile CERTS/client.pem: TLS handshake failed: the client key (keyfile) is not the client certificate's
-- files that cannot be read
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) cannot read the TLS CA file (cafile) CERTS/missing-ca.pem: no such file
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) cannot read the TLS client key (keyfile) CERTS/missing.key: no such file
RateLimiterException: Redis at rediss://127.0.0.1:PORT cafile CERTS/client.ext: the TLS CA file CERTS/client.ext holds no PEM certificate
-- bad input: ValueError/TypeError before anything is sent
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (certfile and keyfile go together): "rediss://127.0.0.1:PORT?certfile=CERTS/client.pem"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) needs both a client certificate and its private key (certfile and keyfile, or local_cert and local_pk), or neither
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (verify_peer must be 0 or 1): "rediss://127.0.0.1:PORT?verify_peer=perhaps"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (unknown query parameter, expected cafile, certfile, keyfile or verify_peer): "rediss://127.0.0.1:PORT?ca=CERTS/ca.pem"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is not a valid Redis DSN (query strings are only for rediss:// (TLS options); put the db in the path): "redis://127.0.0.1:PORT?cafile=CERTS/ca.pem"
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) asks for TLS on a unix socket, which has no TLS; use a TCP host
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) ssl verify_peer must be of type bool, string given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) ssl cafile must be a file name, int given
TypeError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) ssl must be of type array|bool, string given
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) scheme must be "tcp", "redis" or "tls", "tcps" given
