--TEST--
ConcurrencyLimiter in php-fpm (16 workers) behind nginx, 16 concurrent clients on $max = 4: never more than 4 inside (the server's count, read inside), every request served by waiting, every slot back after requests that end normally, in a fatal error, an uncaught exception, exit() and max_execution_time; a SIGKILLed worker's slot back when its lease ends and not before
--SKIPIF--
<?php
$needs = ['pcntl', 'posix'];
require __DIR__ . '/skipif.inc';
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
if (rl_fpm_binary() === null || trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v nginx')) === '') die('skip needs php-fpm and nginx (make deps)');
?>
--CONFLICTS--
heavy
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
$prefix = rl_prefix();
$r = rl_redis();
$docroot = sys_get_temp_dir() . '/ratelimit-inflight-' . getmypid();
mkdir($docroot);
register_shutdown_function(fn () => array_map('unlink', glob("$docroot/*")) && rmdir($docroot));
$resp = var_export(__DIR__ . '/resp.inc', true);
$port = RL_PORT;
// One slot of 4 (lease 1 s): counted in, the server's count read inside, held 30 ms, then the request ends as ?end says.
file_put_contents("$docroot/slot.php", <<<PHP
<?php
require $resp;
\$prefix = \$_GET['p'];
\$r = new RlClient();
\$r->connect('127.0.0.1', $port);
\$l = new ConcurrencyLimiter(ini_get('ratelimit.redis_url'), \$prefix, 4, 1.0);
\$permit = \$l->acquire('slot', 8.0);
if (\$permit === null) { http_response_code(503); exit; }
\$r->rawCommand('INCR', "\$prefix:served");
if (\$l->inFlight('slot') > 4) \$r->rawCommand('INCR', "\$prefix:over");
usleep(30000);
switch (\$_GET['end']) {
    case 'fatal': undefined_function();
    case 'exception': throw new RuntimeException('boom');
    case 'exit': exit;
    case 'timeout': set_time_limit(1); while (true) {}
}
echo 'ok';
PHP);
// Holds a slot (lease 1 s) and says its pid, then sleeps until killed.
file_put_contents("$docroot/hold.php", <<<PHP
<?php
require $resp;
\$r = new RlClient();
\$r->connect('127.0.0.1', $port);
\$l = new ConcurrencyLimiter(ini_get('ratelimit.redis_url'), \$_GET['p'], 4, 1.0);
\$permit = \$l->acquire('slot');
\$r->rawCommand('SET', \$_GET['p'] . ':pid', getmypid() . ' ' . microtime(true));
sleep(5);
PHP);
$fpm = rl_start_fpm($docroot, [], 16);
echo 'workers: ', count($fpm['workers']), "\n";

// 16 clients x 4 requests; two of the requests run into max_execution_time. Each
// request's end is told by its body (display_errors is on: a fatal error is a 200).
$told = ['ok' => 'ok', 'fatal' => 'undefined function', 'exception' => 'Uncaught RuntimeException', 'timeout' => 'Maximum execution time'];
$ends = ['ok', 'fatal', 'exception', 'exit'];
$pids = [];
$files = [];
for ($c = 0; $c < 16; $c++) {
    $files[$c] = tempnam(sys_get_temp_dir(), 'rl-inflight');
    $pid = pcntl_fork();
    if ($pid === 0) {
        $codes = [];
        for ($i = 0; $i < 4; $i++) {
            $end = $c < 2 && $i === 0 ? 'timeout' : $ends[($c + $i) % 4];
            [$status, , $body] = rl_http_get("{$fpm['url']}/slot.php?p=" . urlencode($prefix) . "&end=$end");
            $as = $end === 'exit' ? $body === '' : str_contains($body, $told[$end]);
            $codes[] = "$end:" . ($as ? 'as-told' : "$status-" . strlen($body));
        }
        file_put_contents($files[$c], implode(' ', $codes));
        rl_child_exit();
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) pcntl_waitpid($pid, $status);
$statuses = [];
foreach ($files as $f) {
    foreach (explode(' ', (string) file_get_contents($f)) as $code) $statuses[$code] = ($statuses[$code] ?? 0) + 1;
    unlink($f);
}
ksort($statuses);
echo json_encode($statuses), "\n";
$l = new ConcurrencyLimiter(RL_URL, $prefix, 4, 1.0);
echo 'served: ', $r->get("$prefix:served"), '; more than 4 inside: ', var_export($r->get("$prefix:over"), true), '; in flight after: ', $l->inFlight('slot'), "\n";

// SIGKILL: the worker's slot comes back when its lease ends, not before.
$sock = stream_socket_client(str_replace('http://', 'tcp://', $fpm['url']));
fwrite($sock, "GET /hold.php?p=" . urlencode($prefix) . " HTTP/1.0\r\nHost: x\r\n\r\n");
for ($i = 0; $i < 250 && !$r->get("$prefix:pid"); $i++) usleep(20000);
[$pid, $acquired] = explode(' ', $r->get("$prefix:pid"));
posix_kill((int) $pid, SIGKILL);
usleep(100000);
echo 'killed: in flight 0.1 s later: ', $l->inFlight('slot'), "\n";
while ($l->inFlight('slot') > 0 && microtime(true) - $acquired < 3) usleep(10000);
$back = microtime(true) - $acquired;
echo 'back after the lease: ', $back >= 0.95 && $back < 1.5 ? 'yes' : "no ($back s)", "\n";
fclose($sock);
?>
--EXPECT--
workers: 16
{"exception:as-told":16,"exit:as-told":16,"fatal:as-told":15,"ok:as-told":15,"timeout:as-told":2}
served: 64; more than 4 inside: false; in flight after: 0
killed: in flight 0.1 s later: 1
back after the lease: yes
