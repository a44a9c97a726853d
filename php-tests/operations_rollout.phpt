--TEST--
docs/operations.md's worked rollout, as written there: its search.php served by php-fpm (4 workers) behind nginx with ratelimit.metrics=redis, first in dry run (every search answered, the report and the log say who would have been denied), then enforcing (the dry run's state is the enforcing state); the outputs the page shows are what this run gets
--SKIPIF--
<?php
$needs = ['posix'];
require __DIR__ . '/skipif.inc';
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
if (rl_fpm_binary() === null || trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v nginx')) === '') die('skip needs php-fpm and nginx (make deps)');
?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
// The page's files and outputs: a marker comment, then a fenced block.
$page = file_get_contents(dirname(__DIR__) . '/docs/operations.md');
preg_match_all('/<!-- operations-test: (file|output) (\S+) -->\n```\w+\n(.*?)```/s', $page, $blocks, PREG_SET_ORDER);
$files = $outputs = [];
foreach ($blocks as [, $kind, $name, $text]) {
    if ($kind === 'file') $files[$name] = $text; else $outputs[$name] = $text;
}
echo 'the page has: ', implode(', ', array_keys($files)), '; outputs ', implode(', ', array_keys($outputs)), "\n";

// A server of the test's own: the limiter is called "search", as on the page.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$docroot = sys_get_temp_dir() . '/ratelimit-rollout-' . getmypid();
mkdir($docroot);
foreach ($files as $name => $text) file_put_contents("$docroot/$name", $text);
register_shutdown_function(function () use ($docroot, $files) {
    foreach (array_keys($files) as $name) @unlink("$docroot/$name");
    @rmdir($docroot);
});
// The page's php.ini says ratelimit.metrics = redis (rl_start_fpm() gives the workers 5 s timeouts).
$ini = ['ratelimit.metrics' => 'redis', 'ratelimit.redis_url' => $url];
$logs = [];

// Searches per client, in that order; what the answers and the report say.
$step = function (array $env, array $searches, string $page) use ($docroot, $ini, $url, &$logs): string {
    $fpm = rl_start_fpm($docroot, $ini, 4, $env);
    $logs[] = $fpm['log'];
    $statuses = $other = [];
    foreach ($searches as $client => $n) {
        for ($i = 0; $i < $n; $i++) {
            [$status, , $body] = rl_http_get("{$fpm['url']}/search.php", ['X-Client-Id' => $client]);
            $statuses[$status] = ($statuses[$status] ?? 0) + 1;
            // Neither of search.php's answers (an exception is shown, in
            // HTML, with status 200 under php -n's display_errors): its
            // first line of text said, so that a failure names its cause.
            if (!str_starts_with($body, "results for $client") && $body !== "too many searches\n") {
                $other[] = "$status " . strtok(trim(strip_tags($body)) ?: '(empty)', "\n");
            }
        }
    }
    ksort($statuses);
    $out = 'HTTP: ' . implode(', ', array_map(fn ($s, $n) => "$s x $n", array_keys($statuses), $statuses)) . "\n";
    foreach (array_count_values($other) as $line => $n) $out .= "unexpected answer x $n: $line\n";
    $out .= shell_exec(rl_php_shell(['ratelimit.redis_url' => $url]) . ' ' . escapeshellarg("$docroot/report.php"));
    // php-fpm's log is written by its master, a moment after the worker's
    // response (under load, seconds): read until it says what the page says,
    // for up to 5 s. A line too many stays one (the logs add up over the steps).
    $read = function () use ($logs, $out): string {
        $denied = [];
        foreach ($logs as $log) {
            preg_match_all('/search: would deny (\w+)/', (string) @file_get_contents($log), $m);
            foreach ($m[1] as $client) $denied[$client] = ($denied[$client] ?? 0) + 1;
        }
        ksort($denied);
        return $out . 'would deny: ' . implode(', ', array_map(fn ($c, $n) => "$c x $n", array_keys($denied), $denied)) . "\n";
    };
    return rl_fpm_log_wait(fn () => ($got = $read()) === $page ? $got : null) ?? $read();
};

foreach ([
    'dry-run' => [['SEARCH_LIMIT' => 'dry-run'], ['alice' => 30, 'bob' => 10, 'carol' => 25]],
    'enforce' => [[], ['alice' => 5, 'bob' => 15, 'carol' => 5]],
] as $name => [$env, $searches]) {
    $got = $step($env, $searches, $outputs[$name]);
    echo "-- $name: ", $got === $outputs[$name] ? 'as the page shows' : "NOT as the page shows:\n$got", "\n";
}
?>
--EXPECT--
the page has: search.php, report.php; outputs dry-run, enforce
-- dry-run: as the page shows
-- enforce: as the page shows
