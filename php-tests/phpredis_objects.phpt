--TEST--
A phpredis object as the connection argument: its server, selected db and credentials are read from it (TCP and unix socket), the extension uses its own pooled connection, not the object's socket; an object that is not connected is a ValueError; one that reports a tls:// host gets TLS, never plain TCP
--SKIPIF--
<?php $phpredis = 'phpredis objects as the connection argument'; $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$p = rl_prefix();
$r = rl_redis();

function where(RlClient $r, int $db, string $key): string {
    $r->select($db);
    $v = $r->get($key);
    $r->select(0);
    return "db$db:" . var_export($v, true);
}

echo "-- its server and selected db, not its socket\n";
$redis = new Redis();
$redis->connect('127.0.0.1', RL_PORT);
$redis->select(2);
$l = new FixedWindowRateLimiter($redis, "$p:obj", 60, 10);
$redis->close();                 // our pooled connection is our own
var_dump($l->isAllowed('x'), where($r, 2, "$p:obj:x"));
$viaSocket = new Redis();
$viaSocket->connect(RL_SOCKET);
$l = new FixedWindowRateLimiter($viaSocket, "$p:objsock", 60, 10);
var_dump($l->isAllowed('x'), where($r, 0, "$p:objsock:x"));

echo "-- every class, long form on a phpredis object: three calls on a limit of 2\n";
$obj = new Redis();
$obj->connect('127.0.0.1', RL_PORT);
foreach (rl_classes() as $kind => $c) {
    $l = rl_long($kind, $obj, "$p:every:$kind", 2);
    echo str_pad($kind, 8), implode('', array_map(fn () => $l->isAllowed('u') ? 'Y' : 'n', range(1, 3))), ' ', $r->exists("$p:every:$kind:u"), "\n";
}

echo "-- not connected\n";
rl_throws(fn () => new FixedWindowRateLimiter(new Redis(), "$p:nc", 60, 10));

echo "-- after auth() as an ACL user, on a server with requirepass\n";
$server = rl_start_redis(['--requirepass', 's3cret:/@x']);
$admin = new RlClient();
$admin->connect('127.0.0.1', $server['port']);
$admin->auth('s3cret:/@x');
$admin->rawCommand('ACL', 'SETUSER', 'limiter', 'on', '>limiter-pw', '~*', '+@all');
$obj = new Redis();
$obj->connect('127.0.0.1', $server['port']);
$obj->auth(['limiter', 'limiter-pw']);
$obj->select(1);
var_dump((new FixedWindowRateLimiter($obj, 'k', 60, 10))->isAllowed('a'));
$admin->select(1);
var_dump($admin->get('k:a'));
rl_stop_redis($server);

echo "-- one that reports a tls:// host: TLS only, against a plain listener\n";
$listener = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($listener, false))[1];
$pw = 'tls-secret-' . getmypid();
/** A phpredis object as one connected with TLS reports itself (its
 *  timeouts too: phpredis's own getters answer false on an object that is
 *  not connected, against their float return type; a debug PHP stops there). */
class TlsRedis extends Redis {
    public function isConnected(): bool { return true; }
    public function getHost(): string { return 'tls://127.0.0.1'; }
    public function getPort(): int { return $GLOBALS['port']; }
    public function getAuth(): mixed { return $GLOBALS['pw']; }
    public function getDbNum(): int { return 0; }
    public function getTimeout(): float { return 0.0; }
    public function getReadTimeout(): float { return 0.0; }
}
ini_set('ratelimit.connect_timeout', '0.3');
ini_set('ratelimit.timeout', '0.3');
try {
    (new FixedWindowRateLimiter(new TlsRedis(), 'tls', 60, 5))->consume('x');
    echo "accepted it\n";
} catch (RateLimiterException $e) {
    echo preg_replace(['/127\.0\.0\.1:\d+/', '/ \(Resource temporarily unavailable[^)]*\)\)/'], ['127.0.0.1:PORT', ''], $e->getMessage()), "\n";
    if (str_contains((string) $e, $pw)) echo "PASSWORD SHOWN\n";
}
$conn = @stream_socket_accept($listener, 1);
stream_set_timeout($conn, 0, 200000);
$bytes = (string) fread($conn, 16384);
echo "the listener received: ", str_starts_with($bytes, "\x16\x03") ? 'a TLS hello' : 'NOT TLS', str_contains($bytes, $pw) ? ' WITH THE PASSWORD' : '', "\n";
?>
--EXPECT--
-- its server and selected db, not its socket
bool(true)
string(7) "db2:'1'"
bool(true)
string(7) "db0:'1'"
-- every class, long form on a phpredis object: three calls on a limit of 2
fixed   YYn 1
sliding YYn 1
blocks  YYn 1
token   YYn 1
leaky   YYn 1
gcra    YYn 1
-- not connected
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is a Redis object that is not connected; call connect() first
-- after auth() as an ACL user, on a server with requirepass
bool(true)
string(1) "1"
-- one that reports a tls:// host: TLS only, against a plain listener
Redis at rediss://127.0.0.1:PORT: timed out; over TLS this is also what a plain, non-TLS port gives
the listener received: a TLS hello
