--TEST--
The connection argument: DSN, unix socket, config array, null = ratelimit.redis_url (phpredis objects: phpredis_objects.phpt); one pooled connection per target
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$p = rl_prefix();
$r = rl_redis();

function where(RlClient $r, int $db, string $key): string {
    $r->select($db);
    $v = $r->get($key);
    $r->select(0);
    return "db$db:" . var_export($v, true);
}

$forms = [
    'dsn'        => RL_URL,
    'dsn db 3'   => RL_URL . '/3',
    'unix'       => 'unix://' . RL_SOCKET,
    'unix db 4'  => 'unix://' . RL_SOCKET . '?db=4',
    'array'      => ['host' => '127.0.0.1', 'port' => RL_PORT, 'database' => 5, 'timeout' => 0.5, 'read_timeout' => 0.5, 'persistent' => true],
    'array index'=> ['host' => '127.0.0.1', 'port' => RL_PORT, 'index' => 6],
    'array unix' => ['host' => RL_SOCKET, 'index' => 7],
    'null'       => null,
];
$dbs = ['dsn' => 0, 'dsn db 3' => 3, 'unix' => 0, 'unix db 4' => 4, 'array' => 5, 'array index' => 6, 'array unix' => 7, 'null' => 0];
foreach ($forms as $name => $conn) {
    $l = new FixedWindowRateLimiter($conn, "$p:$name", 60, 10);
    $l->isAllowed('x', 2);
    echo str_pad($name, 12), where($r, $dbs[$name], "$p:$name:x"), "\n";
}

echo "-- the pool: one connection per target, reused by every limiter of the process\n";
$own = rl_start_redis();   // a server no other test talks to, so its client count is ours
for ($i = 0; $i < 20; $i++) {
    (new FixedWindowRateLimiter('redis://127.0.0.1:' . $own['port'], "$p:pool$i", 60, 10))->isAllowed('x');
}
$admin = rl_redis($own['port']);
echo "connections for 20 limiters on one target: ", count($admin->client('list')) - 1, "\n";
// Received so far: $admin's and ours (rl_start_redis() connects to nothing:
// it reads whose socket listens from /proc).
echo "connections the extension ever opened: ", $admin->info('stats')['total_connections_received'] - 1, "\n";
rl_stop_redis($own);
?>
--EXPECT--
dsn         db0:'2'
dsn db 3    db3:'2'
unix        db0:'2'
unix db 4   db4:'2'
array       db5:'2'
array index db6:'2'
array unix  db7:'2'
null        db0:'2'
-- the pool: one connection per target, reused by every limiter of the process
connections for 20 limiters on one target: 1
connections the extension ever opened: 1
