--TEST--
examples/metrics.php in php-fpm (4 workers) behind nginx: after 480 requests of one client from 8 processes to examples/fpm/limit.php with ratelimit.metrics=redis, any worker answers the fleet's exact totals, which a real Prometheus text-format parser (python3-prometheus-client) reads back; prometheus(local()) parses as counters; label values escaped; 503 when Redis cannot be read
--SKIPIF--
<?php
$needs = ['pcntl', 'posix'];
require __DIR__ . '/skipif.inc';
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
if (rl_fpm_binary() === null || trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v nginx')) === '') die('skip needs php-fpm and nginx (make deps)');
?>
--INI--
ratelimit.metrics=local
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
$root = dirname(__DIR__);
$prefix = rl_prefix() . ':'; // ratelimit.key_prefix of the pool: its keys and counters apart from other tests'
$docroot = sys_get_temp_dir() . '/ratelimit-docroot-' . getmypid();
mkdir($docroot);
symlink("$root/examples/metrics.php", "$docroot/metrics.php");
symlink("$root/examples/fpm/limit.php", "$docroot/limit.php");
register_shutdown_function(fn () => array_map('unlink', ["$docroot/metrics.php", "$docroot/limit.php"]) && rmdir($docroot));
$fpm = rl_start_fpm($docroot, ['ratelimit.metrics' => 'redis', 'ratelimit.key_prefix' => $prefix]);
echo 'workers: ', count($fpm['workers']), "\n";

echo "-- 8 processes x 60 requests of one client, on a limit of 100 per hour per client\n";
$statuses = rl_hammer(function () use ($fpm) {
    [$status] = rl_http_get("{$fpm['url']}/limit.php", ['X-Client-Id' => 'c1']);
    return $status === 200 ? 1 : ($status === 429 ? 1000 : 1000000);
}, 8, 60);
$ok = $statuses % 1000;
$limited = intdiv($statuses, 1000) % 1000;
echo "200: $ok, 429: $limited, other: ", intdiv($statuses, 1000000), "\n";

echo "-- the endpoint, scraped\n";
[$status, $headers, $body] = rl_http_get("{$fpm['url']}/metrics.php");
echo "$status ", $headers['content-type'], "\n";
$families = rl_prometheus_parse($body);
foreach ($families as $name => $f) {
    echo "$name ({$f['type']})\n";
    foreach ($f['samples'] as [$sample, $labels, $value]) {
        if (($labels['limiter'] ?? '') !== "{$prefix}fpm") continue;
        unset($labels['limiter']);
        echo "  $sample ", json_encode($labels), ' ', $value, "\n";
    }
}
foreach ($families['ratelimit_recent_decisions']['samples'] as [, $labels, $value]) {
    if ($labels['limiter'] === "{$prefix}fpm" && $labels['outcome'] === 'allowed') echo "allowed = 200s: ", json_encode($value == $ok), "\n";
    if ($labels['limiter'] === "{$prefix}fpm" && $labels['outcome'] === 'denied') echo "denied = 429s: ", json_encode($value == $limited), "\n";
}

echo "-- prometheus(local()): counters, as this process counted\n";
$l = new TokenBucketRateLimiter(RL_URL, "{$prefix}cli", 1, 0.001);
$l->consume('u');
$l->consume('u');
$l->withDryRun()->consume('u');
$odd = new FixedWindowRateLimiter(RL_URL, "{$prefix}say \"hi\" \\ back\nslash \xff", 60, 5);
$odd->consume('u');
$families = rl_prometheus_parse(RateLimitMetrics::prometheus(RateLimitMetrics::local()));
foreach ($families as $name => $f) {
    echo "$name ({$f['type']})\n";
    foreach ($f['samples'] as [$sample, $labels, $value]) {
        if (!str_starts_with($labels['limiter'], $prefix)) continue;
        $labels['limiter'] = substr($labels['limiter'], strlen($prefix));
        echo "  $sample ", json_encode($labels, JSON_UNESCAPED_UNICODE), ' ', $value, "\n";
    }
}
echo "-- what the parser refuses is refused here first\n";
rl_throws(fn () => RateLimitMetrics::prometheus(['api' => ['allowed' => -1]]));
rl_throws(fn () => RateLimitMetrics::prometheus(['api' => 'many']));
rl_throws(fn () => RateLimitMetrics::prometheus(['api' => ['allowed' => 'lots']]));
rl_throws(fn () => RateLimitMetrics::prometheus([], 61));
$samples = rl_prometheus_parse(RateLimitMetrics::prometheus(['api' => ['denied' => 3], 42 => []], 5))['ratelimit_recent_decisions']['samples'];
echo json_encode(array_values(array_filter($samples, fn ($x) => $x[1]['outcome'] === 'denied'))), "\n";

echo "-- Redis cannot be read: 503\n";
$down = rl_unanswered_connect();
passthru(implode(' ', array_map('escapeshellarg', rl_php_command(['ratelimit.redis_url' => $down['url'], 'ratelimit.connect_timeout' => '0.2']))) . ' ' . escapeshellarg("$root/examples/metrics.php"));
?>
--EXPECTF--
workers: 4
-- 8 processes x 60 requests of one client, on a limit of 100 per hour per client
200: 100, 429: 380, other: 0
-- the endpoint, scraped
200 text/plain; version=0.0.4; charset=utf-8
ratelimit_recent_decisions (gauge)
  ratelimit_recent_decisions {"outcome":"allowed","minutes":"5"} 100
  ratelimit_recent_decisions {"outcome":"denied","minutes":"5"} 380
  ratelimit_recent_decisions {"outcome":"would_deny","minutes":"5"} 0
  ratelimit_recent_decisions {"outcome":"error","minutes":"5"} 0
ratelimit_recent_on_error_answers (gauge)
  ratelimit_recent_on_error_answers {"minutes":"5"} 0
ratelimit_recent_block_cache_answers (gauge)
  ratelimit_recent_block_cache_answers {"minutes":"5"} 0
allowed = 200s: true
denied = 429s: true
-- prometheus(local()): counters, as this process counted
ratelimit_decisions (counter)
  ratelimit_decisions_total {"limiter":"cli","outcome":"allowed"} 1
  ratelimit_decisions_total {"limiter":"cli","outcome":"denied"} 1
  ratelimit_decisions_total {"limiter":"cli","outcome":"would_deny"} 1
  ratelimit_decisions_total {"limiter":"cli","outcome":"error"} 0
  ratelimit_decisions_total {"limiter":"say \"hi\" \\ back\nslash �","outcome":"allowed"} 1
  ratelimit_decisions_total {"limiter":"say \"hi\" \\ back\nslash �","outcome":"denied"} 0
  ratelimit_decisions_total {"limiter":"say \"hi\" \\ back\nslash �","outcome":"would_deny"} 0
  ratelimit_decisions_total {"limiter":"say \"hi\" \\ back\nslash �","outcome":"error"} 0
ratelimit_on_error_answers (counter)
  ratelimit_on_error_answers_total {"limiter":"cli"} 0
  ratelimit_on_error_answers_total {"limiter":"say \"hi\" \\ back\nslash �"} 0
ratelimit_block_cache_answers (counter)
  ratelimit_block_cache_answers_total {"limiter":"cli"} 0
  ratelimit_block_cache_answers_total {"limiter":"say \"hi\" \\ back\nslash �"} 0
-- what the parser refuses is refused here first
ValueError: RateLimitMetrics::prometheus(): Argument #1 ($counters) must hold counts >= 0, -1 given for "api" allowed
TypeError: RateLimitMetrics::prometheus(): Argument #1 ($counters) must map each limiter to an array of counts, string given for "api"
TypeError: %s
ValueError: RateLimitMetrics::prometheus(): Argument #2 ($minutes) must be 0 (counters of local()) or fleet()'s minutes, 1 to 60, 61 given
[["ratelimit_recent_decisions",{"limiter":"42","outcome":"denied","minutes":"5"},0],["ratelimit_recent_decisions",{"limiter":"api","outcome":"denied","minutes":"5"},3]]
-- Redis cannot be read: 503
# rate-limit counters unavailable: %s
