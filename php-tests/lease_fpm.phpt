--TEST--
withLease() in php-fpm workers behind nginx, on a Redis server of the test's own: a lease lives in its worker across requests (the worker's next request is answered from it: source 'lease', no call on the server); a lease older than maxAge at a request's end goes back then (the server shows it, with no further request); a worker that ends at pm.max_requests, and every worker of a pool stopped gracefully (SIGQUIT, process_control_timeout above 0), gives its leases back (the server shows every unit back); 4 workers under 8 concurrent clients on a limit of 30 never admit more than 30
--SKIPIF--
<?php
$needs = ['pcntl', 'posix'];
require __DIR__ . '/skipif.inc';
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
if (rl_fpm_binary() === null || trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v nginx')) === '') die('skip needs php-fpm and nginx (make deps)');
?>
--CONFLICTS--
heavy # two php-fpm pools and 8 concurrent clients (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/fpm.inc';
// A server of its own, so that its commandstats count this test's calls only.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$r = rl_redis($server['port']);
$p = rl_prefix();
$docroot = sys_get_temp_dir() . '/ratelimit-lease-fpm-' . getmypid();
mkdir($docroot);
register_shutdown_function(fn () => array_map('unlink', glob("$docroot/*")) && rmdir($docroot));
// One consume of a leased token bucket of ?limit (nothing refills while the test runs) on
// key ?p, under withLease(?units, ?age); then ?sleep µs; says what it saw, and its worker's pid.
file_put_contents("$docroot/lease.php", <<<'PHP'
<?php
$limit = (int) $_GET['limit'];
$l = (new TokenBucketRateLimiter(ini_get('ratelimit.redis_url'), $_GET['p'], $limit, $limit / 1e6))->withLease((int) $_GET['units'], (float) $_GET['age']);
$x = $l->consume('u');
usleep((int) ($_GET['sleep'] ?? 0));
echo json_encode(['pid' => getmypid(), 'allowed' => $x->allowed, 'source' => $x->source, 'remaining' => $x->remaining,
    // No entry until a lease of the prefix was taken (a worker whose first call was denied).
    'held' => RateLimitMetrics::leases()[$_GET['p']]['held'] ?? 0]);
PHP);
$get = function (array $fpm, array $query) {
    [$status, , $body] = rl_http_get("{$fpm['url']}/lease.php?" . http_build_query($query));
    return json_decode($body, true) ?? throw new RuntimeException("status $status: $body");
};
$show = fn (array $x) => sprintf('%s rem %d %s, holds %d', $x['allowed'] ? 'allowed' : 'denied', $x['remaining'], $x['source'], $x['held']);
$tokens = fn (string $key) => rl_state('token', $r, $key, 1000);
// What $read() returns once it is $want (polled every 10 ms for up to 2 s), else what it last returned.
$await = function (callable $read, string $want) {
    for ($i = 0; $i < 200 && ($got = $read()) !== $want; $i++) usleep(10000);
    return $got;
};

echo "-- one worker, pm.max_requests = 3\n";
$fpm = rl_start_fpm($docroot, ['ratelimit.redis_url' => $url], 1, [], ['pm.max_requests = 3']);
$q = ['p' => "$p:a", 'limit' => 1000, 'units' => 50, 'age' => 60];
$one = $get($fpm, $q);
echo 'request 1: ', $show($one), '; the server: ', $tokens("$p:a:u"), "\n";
$before = rl_library_calls($r);
$two = $get($fpm, $q);
echo 'request 2: ', $show($two), ', ', $two['pid'] === $one['pid'] ? 'the same worker' : 'another worker', ', calls on the server ', rl_library_calls($r) - $before, "\n";
$three = $get($fpm, $q);
echo 'request 3 (its last): ', $show($three), ', ', $three['pid'] === $one['pid'] ? 'the same worker' : 'another worker', "\n";
echo 'the worker ended: ', $await(fn () => rl_running($one['pid']) ? 'running' : 'ended', 'ended'),
    '; the server, with no further request: ', $await(fn () => $tokens("$p:a:u"), 'tokens 997.0'), "\n";

echo "-- a lease older than maxAge at its request's end goes back then\n";
$aged = $get($fpm, ['p' => "$p:b", 'limit' => 1000, 'units' => 50, 'age' => 0.2, 'sleep' => 250000]);
echo 'a request that took a lease of maxAge 0.2 s and ran 0.25 s: ', $show($aged), ', ', $aged['pid'] === $one['pid'] ? 'the old worker' : 'a new worker',
    '; the server, with no further request: ', $await(fn () => $tokens("$p:b:u"), 'tokens 999.0'), "\n";

echo "-- four workers, 8 clients, 12 requests each, on a limit of 30 (leases of up to 10)\n";
// A graceful stop (SIGQUIT) lets a worker finish and end as at pm.max_requests only
// within process_control_timeout: at php-fpm's default of 0 the master sends SIGTERM
// at once, and a worker ends as a killed one does, giving nothing back.
$pool = rl_start_fpm($docroot, ['ratelimit.redis_url' => $url], 4, [], [], ['process_control_timeout = 5']);
$q = ['p' => "$p:c", 'limit' => 30, 'units' => 10, 'age' => 60];
$files = $pids = [];
$t0 = microtime(true) + 0.2;
for ($c = 0; $c < 8; $c++) {
    $files[$c] = tempnam(sys_get_temp_dir(), 'rl-lease-fpm');
    if (($pid = pcntl_fork()) === 0) {
        $seen = [];
        try {
            rl_sleep_until($t0);
            for ($i = 0; $i < 12; $i++) {
                $x = $get($pool, $q);
                $as = $x['allowed'] ? $x['source'] : 'denied';
                $seen[$as] = ($seen[$as] ?? 0) + 1;
                $seen['pid'][$x['pid']] = 1;
            }
            file_put_contents($files[$c], json_encode($seen));
        } catch (Throwable $e) {
            file_put_contents($files[$c], get_class($e) . ': ' . $e->getMessage());
        }
        rl_child_exit();
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) pcntl_waitpid($pid, $status);
$all = [];
foreach ($files as $f) {
    $all[] = json_decode($raw = (string) file_get_contents($f), true) ?? throw new RuntimeException("a client failed: $raw");
    unlink($f);
}
$sum = fn (string $k) => array_sum(array_map(fn ($s) => $s[$k] ?? 0, $all));
$admitted = $sum('redis') + $sum('lease');
$workers = count(array_merge(...array_map(fn ($s) => $s['pid'] ?? [], $all)));
echo 'answers: ', $admitted + $sum('denied') === 96 ? 96 : $admitted + $sum('denied'), ', from ', $workers > 1 ? 'more than one worker' : 'one worker', "\n";
echo 'admitted at most 30: ', $admitted <= 30 ? 'yes' : "NO: $admitted", '; some from a lease: ', $sum('lease') > 0 ? 'yes' : 'no', "\n";
echo 'the limit was reached (some denied): ', $sum('denied') > 0 ? 'yes' : 'no', "\n";
$left = (float) substr($tokens("$p:c:u"), 7);
echo 'the server has ', $left <= 30 - $admitted ? 'at most what was not admitted' : "MORE: $left", "\n";
// Sequential requests on another key of 1,000: each worker that serves one holds a lease of it.
for ($i = 0; $i < 8; $i++) $d[] = $get($pool, ['p' => "$p:d", 'limit' => 1000, 'units' => 50, 'age' => 60]);
$served = count(array_unique(array_column($d, 'pid')));
echo '8 requests on a limit of 1,000: the workers that served them took leases; the server: ', $tokens("$p:d:u") === sprintf('tokens %.1f', 1000 - 50 * $served) ? '50 less for each' : $tokens("$p:d:u"), "\n";

echo "-- the pool stopped gracefully (SIGQUIT, process_control_timeout 5 s): every worker gives its leases back\n";
posix_kill($pool['pid'], SIGQUIT);
echo 'workers ended: ', $await(fn () => array_filter($pool['workers'], 'rl_running') ? 'some running' : 'all', 'all'), "\n";
echo 'the server: ', $await(fn () => $tokens("$p:d:u"), 'tokens 992.0'), ' of 1,000 (8 admitted); ',
    $await(fn () => $tokens("$p:c:u"), $want = sprintf('tokens %.1f', 30 - $admitted)) === $want ? 'every unit of 30 not admitted is back' : 'NOT: ' . $tokens("$p:c:u"), "\n";
?>
--EXPECT--
-- one worker, pm.max_requests = 3
request 1: allowed rem 999 redis, holds 49; the server: tokens 950.0
request 2: allowed rem 998 lease, holds 48, the same worker, calls on the server 0
request 3 (its last): allowed rem 997 lease, holds 47, the same worker
the worker ended: ended; the server, with no further request: tokens 997.0
-- a lease older than maxAge at its request's end goes back then
a request that took a lease of maxAge 0.2 s and ran 0.25 s: allowed rem 999 redis, holds 49, a new worker; the server, with no further request: tokens 999.0
-- four workers, 8 clients, 12 requests each, on a limit of 30 (leases of up to 10)
answers: 96, from more than one worker
admitted at most 30: yes; some from a lease: yes
the limit was reached (some denied): yes
the server has at most what was not admitted
8 requests on a limit of 1,000: the workers that served them took leases; the server: 50 less for each
-- the pool stopped gracefully (SIGQUIT, process_control_timeout 5 s): every worker gives its leases back
workers ended: all
the server: tokens 992.0 of 1,000 (8 admitted); every unit of 30 not admitted is back
