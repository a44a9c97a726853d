--TEST--
Server module: on a server that loaded it, every class, a batch and a compound are decided by its commands (INFO commandstats), php --ri says so; ratelimit.server_module=off keeps the Lua library (auto|off only); 8 processes mixing both paths on the same keys accept exactly the limit; a replica without the module holds byte-identical state after a run (effects replicated, never the command); a server restarted without the module is decided by the Lua library
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';

$master = rl_start_redis(['--loadmodule', RL_MODULE_SO, ...RL_MASTER_ARGS], passModule: false);
// The replica has no module: all it can apply is what the module wrote.
$replica = rl_start_redis(['--replicaof', '127.0.0.1', (string) $master['port']], passModule: false);
$url = "redis://127.0.0.1:{$master['port']}";
$m = rl_redis($master['port']);
$r = rl_redis($replica['port']);
// Linked before the first write: what the replica holds then came as
// replicated effects, not in the snapshot of a first sync.
echo 'replica linked: ', var_export(rl_wait_linked($r), true), "\n";
$stats = function () use (&$m) {
    return rl_calls_by_path($m);
};

echo "-- auto (the default): the module decides\n";
echo 'ratelimit.server_module = ', ini_get('ratelimit.server_module'), "\n";
$before = $stats();
foreach (rl_classes() as $kind => $c) {
    $l = rl_long($kind, $url, "mod:$kind", 3);
    $l->consume('a', 2);
    $l->peek('a');
    $l->consumeMany(['a', 'b', 'c']);
}
(new CompoundRateLimiter([rl_long('token', $url, 'mod:c1', 3), rl_long('gcra', $url, 'mod:c2', 3)]))->consume('x');
$after = $stats();
printf("module commands: %d, Lua calls: %d\n", $after['module'] - $before['module'], $after['lua'] - $before['lua']);
ob_start();
phpinfo(INFO_MODULES);
preg_match('/^' . preg_quote($url, '/') . ' => .*$/m', ob_get_clean(), $row);
echo str_contains($row[0] ?? '', 'decided by server module') ? "php --ri: decided by server module\n" : "php --ri: {$row[0]}\n";

echo "-- off: the Lua library decides\n";
var_dump(ini_set('ratelimit.server_module', 'maybe'));
var_dump(ini_set('ratelimit.server_module', 'off'));
$before = $stats();
foreach (rl_classes() as $kind => $c) rl_long($kind, $url, "lua:$kind", 3)->consume('a');
$after = $stats();
printf("module commands: %d, Lua calls: %d\n", $after['module'] - $before['module'], $after['lua'] - $before['lua']);
ini_restore('ratelimit.server_module');

echo "-- 8 processes, half on each path, on the same keys\n";
$limit = 40;
foreach (rl_classes() as $kind => $c) {
    $pids = [];
    $tmp = tempnam(sys_get_temp_dir(), 'mod');
    for ($p = 0; $p < 8; $p++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            ini_set('ratelimit.server_module', $p % 2 ? 'off' : 'auto');
            $l = rl_long($kind, $url, "mixed:$kind", $limit);
            $ok = 0;
            for ($i = 0; $i < 20; $i++) $ok += $l->isAllowed('shared') ? 1 : 0;
            file_put_contents($tmp, "$ok\n", FILE_APPEND | LOCK_EX);
            exit(0);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) pcntl_waitpid($pid, $status);
    $accepted = array_sum(array_map('intval', file($tmp)));
    unlink($tmp);
    echo "$kind: $accepted accepted of 160, limit $limit\n";
}

echo "-- the replica's state bytes equal the master's\n";
$m->rawCommand('WAIT', '1', '5000');
$keys = $m->keys('*');
sort($keys);
// And the same expiry instant: the master's module sent it (PXAT,
// PEXPIREAT). Redis 6 has no PEXPIRETIME: there the TTLs, read a moment
// apart, agree within 20 ms.
$pexpiretime = $m->rawCommand('PEXPIRETIME', 'no-such-key') !== false;
$m->clearLastError();
$sameExpiry = fn (string $k) => $pexpiretime ? $m->rawCommand('PEXPIRETIME', $k) === $r->rawCommand('PEXPIRETIME', $k)
    : abs($m->pttl($k) - $r->pttl($k)) <= 20;
$differ = [];
for ($try = 0; $try < 50; $try++) {
    $differ = array_filter($keys, fn ($k) => $m->dump($k) !== $r->dump($k) || !$sameExpiry($k));
    if (!$differ) break;
    usleep(20000);
}
printf("%d keys, %d differ%s\n", count($keys), count($differ), $differ ? ': ' . implode(' ', $differ) : '');

echo "-- the server restarted without the module\n";
// (MODULE UNLOAD of this module takes Redis 8.0 down: the restart is how a
// module disappears here.) The pooled connection died with the server; once
// reconnected, the extension finds no module and the Lua library decides.
$l = rl_long('token', $url, 'gone', 3);
var_dump($l->isAllowed('u'));
rl_stop_redis($replica);
rl_stop_redis($master);
$plain = rl_start_redis([], $master['port'], passModule: false);
try { $l->isAllowed('reconnect'); } catch (RateLimiterException $e) {}   // a restart may cost one call
$m = rl_redis($plain['port']);
$before = $stats();
echo implode(' ', array_map(fn ($i) => $l->isAllowed('u') ? 'Y' : 'n', range(1, 4))), "\n";
$after = $stats();
printf("module commands: %d, Lua calls: %d\n", $after['module'] - $before['module'], $after['lua'] - $before['lua']);
rl_stop_redis($plain);
--EXPECT--
replica linked: true
-- auto (the default): the module decides
ratelimit.server_module = auto
module commands: 19, Lua calls: 0
php --ri: decided by server module
-- off: the Lua library decides
bool(false)
string(4) "auto"
module commands: 0, Lua calls: 7
-- 8 processes, half on each path, on the same keys
fixed: 40 accepted of 160, limit 40
sliding: 40 accepted of 160, limit 40
blocks: 40 accepted of 160, limit 40
token: 40 accepted of 160, limit 40
leaky: 40 accepted of 160, limit 40
gcra: 40 accepted of 160, limit 40
-- the replica's state bytes equal the master's
32 keys, 0 differ
-- the server restarted without the module
bool(true)
Y Y Y n
module commands: 0, Lua calls: 4
