--TEST--
ratelimit.max_connections bounds the pool: least recently used connection closed first, held limiters still work, failed slots dropped, 16 targets under a 16-descriptor limit, php --ri shows it
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.max_connections=2
ratelimit.connect_timeout=0.5
--FILE--
<?php
require __DIR__ . '/config.inc';
/** The pool rows of php --ri, ports masked. */
function pool_rows(): string {
    ob_start();
    (new ReflectionExtension('ratelimit'))->info();
    $info = ob_get_clean();
    $rows = array_filter(explode("\n", substr($info, strpos($info, 'Connection pool'))));
    return rl_masked(implode("\n", $rows)) . "\n";
}
function sockets(): int {
    return count(array_filter(glob('/proc/self/fd/*'), fn ($f) => str_starts_with((string) @readlink($f), 'socket:')));
}
$base = sockets();
$on = fn (int $db) => new FixedWindowRateLimiter(RL_URL . "/$db", rl_prefix(), 60, 100);

echo "-- least recently used first: A, B, A, then C closes B\n";
[$a, $b, $c] = [$on(1), $on(2), $on(3)];
$a->consume('x'); $b->consume('x'); $a->consume('x'); $c->consume('x');
echo pool_rows();
echo "sockets: ", sockets() - $base, "\n";
echo "-- B still works: it reconnects (and A, now least recently used, closes)\n";
var_dump($b->consume('x')->remaining);
echo pool_rows();

echo "-- 16 targets through a bound of 3, limiters held: every call answers, at most 3 sockets\n";
ini_set('ratelimit.max_connections', '3');
$held = array_map($on, range(0, 15));
$answers = [];
foreach ([1, 2] as $round) {
    foreach ($held as $db => $l) {
        $answers[] = $l->consume('y')->remaining;
        $max = max($max ?? 0, sockets() - $base);
    }
}
echo count($answers), " answers: ", implode(',', array_unique(array_slice($answers, 0, 16))), " then ", implode(',', array_unique(array_slice($answers, 16))), "; at most $max sockets\n";
echo pool_rows();

echo "-- slots of failed targets are dropped once no limiter holds them (open connections stay, up to the bound)\n";
ini_set('ratelimit.on_error', 'allow');
for ($i = 0; $i < 40; $i++) {
    (new FixedWindowRateLimiter('redis://127.0.0.1:' . rl_free_port(), 'k', 60, 5))->consume('x');
}
unset($held, $a, $b, $c);
$on(0)->consume('z');
ob_start(); (new ReflectionExtension('ratelimit'))->info(); $info = ob_get_clean();
preg_match('/^targets => (\d+)$/m', $info, $t);
preg_match('/^dropped \(no connection, no limiter\) => (\d+)$/m', $info, $d);
echo "targets {$t[1]}, dropped ", $d[1] >= 40 ? 'at least 40' : $d[1], ", phpinfo ", strlen($info) < 4096 ? 'small' : strlen($info) . ' bytes', "\n";

echo "-- 16 targets, twice, under a 16-descriptor limit: the bound keeps the process alive\n";
$code = <<<'PHP'
$ok = 0; $err = '';
for ($round = 0; $round < 2; $round++) {
    for ($db = 0; $db < 16; $db++) {
        try {
            $ok += (new FixedWindowRateLimiter($argv[1] . "/$db", 'fd:' . getmypid(), 60, 100))->isAllowed('x') ? 1 : 0;
        } catch (Throwable $e) {
            $err = preg_replace('/127\.0\.0\.1:\d+/', 'HOST:PORT', $e->getMessage());
        }
    }
}
$f = @fopen('/etc/hostname', 'r');
echo ini_get('ratelimit.max_connections'), ': ', $ok === 32 ? 'all 32 allowed' : 'some failed', ', fopen ', $f ? 'ok' : 'failed', $err ? ", last error: $err" : '', "\n";
PHP;
foreach ([4, 64] as $max) {
    // The soft limit, which is the one enforced: under valgrind (make
    // test-valgrind) a traced shell may not set the hard one.
    $cmd = 'ulimit -Sn 16 && exec ' . rl_php_shell(['ratelimit.max_connections' => $max])
        . ' -r ' . escapeshellarg($code) . ' ' . escapeshellarg(RL_URL);
    echo shell_exec("sh -c " . escapeshellarg($cmd) . " 2>&1");
}
?>
--EXPECT--
-- least recently used first: A, B, A, then C closes B
Connection pool (this process) => State
max connections => 2
targets => 3
open connections => 2
closed by the bound (least recently used) => 1
dropped (no connection, no limiter) => 0
redis://HOST:PORT db 1 => open, opened 1 time(s), 0 failure(s), decided by PATH; breaker closed
redis://HOST:PORT db 2 => closed, opened 1 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 3 => open, opened 1 time(s), 0 failure(s), decided by PATH; breaker closed
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
sockets: 2
-- B still works: it reconnects (and A, now least recently used, closes)
int(98)
Connection pool (this process) => State
max connections => 2
targets => 3
open connections => 2
closed by the bound (least recently used) => 2
dropped (no connection, no limiter) => 0
redis://HOST:PORT db 1 => closed, opened 1 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 2 => open, opened 2 time(s), 0 failure(s), decided by PATH; breaker closed
redis://HOST:PORT db 3 => open, opened 1 time(s), 0 failure(s), decided by PATH; breaker closed
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
-- 16 targets through a bound of 3, limiters held: every call answers, at most 3 sockets
32 answers: 99 then 98; at most 3 sockets
Connection pool (this process) => State
max connections => 3
targets => 16
open connections => 3
closed by the bound (least recently used) => 32
dropped (no connection, no limiter) => 0
redis://HOST:PORT => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 1 => closed, opened 3 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 10 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 11 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 12 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 13 => open, opened 2 time(s), 0 failure(s), decided by PATH; breaker closed
redis://HOST:PORT db 14 => open, opened 2 time(s), 0 failure(s), decided by PATH; breaker closed
redis://HOST:PORT db 15 => open, opened 2 time(s), 0 failure(s), decided by PATH; breaker closed
redis://HOST:PORT db 2 => closed, opened 3 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 3 => closed, opened 3 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 4 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 5 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 6 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 7 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 8 => closed, opened 2 time(s), 0 failure(s); breaker closed
redis://HOST:PORT db 9 => closed, opened 2 time(s), 0 failure(s); breaker closed
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
-- slots of failed targets are dropped once no limiter holds them (open connections stay, up to the bound)
targets 3, dropped at least 40, phpinfo small
-- 16 targets, twice, under a 16-descriptor limit: the bound keeps the process alive
4: all 32 allowed, fopen ok
64: some failed, fopen failed, last error: Redis at redis://HOST:PORT db 15: Too many open files
