--TEST--
ini settings in a php-fpm pool: a bad php_admin_value[ratelimit.…] or php_value[ratelimit.…], which a worker applies outside any request (where the engine drops a warning), is reported by the worker's first request, once, through PHP's error machinery: in the web server's log with Debian's default pool (catch_workers_output = no) and a production php.ini, also in the pool's log with catch_workers_output = yes, and in the page where display_errors says so; no password; the value kept is in force
--SKIPIF--
<?php
$needs = ['pcntl', 'posix'];
require __DIR__ . '/skipif.inc';
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
if (rl_fpm_binary() === null || trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v nginx')) === '') die('skip needs php-fpm and nginx (make deps)');
?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/fpm.inc';
$docroot = sys_get_temp_dir() . '/ratelimit-docroot-' . getmypid();
mkdir($docroot);
file_put_contents("$docroot/x.php", "<?php echo 'on_error=', ini_get('ratelimit.on_error'), ' redis_url=', ini_get('ratelimit.redis_url'), \"\\n\";");
register_shutdown_function(fn () => unlink("$docroot/x.php") && rmdir($docroot));
$bad = ['php_admin_value[ratelimit.on_error] = bogus', 'php_value[ratelimit.redis_url] = redis//user:s3cret@myredis:6379'];
// The lines of $log naming a ratelimit setting, one per warning (nginx joins a request's
// stderr lines with "; "), without what each log puts around them.
$warnings = function (string $log): array {
    $text = str_replace('; PHP message: ', "\nPHP message: ", (string) @file_get_contents($log));
    preg_match_all('/PHP Warning:  PHP Request Startup: (ratelimit\.[^\n]*?) in Unknown on line 0/', $text, $m);
    sort($m[1]); // in the order php-fpm applies the pool's values
    return str_replace(RL_URL, 'RL_URL', $m[1]);
};
foreach ([
    "production php.ini, Debian's default pool" => [['log_errors' => '1', 'display_errors' => '0', 'html_errors' => '0'], ['catch_workers_output = no']],
    'development php.ini, catch_workers_output = yes' => [['log_errors' => '1', 'display_errors' => '1', 'display_startup_errors' => '1', 'html_errors' => '0'], ['catch_workers_output = yes']],
] as $case => [$ini, $pool]) {
    echo "-- $case\n";
    // RL_URL is the -d ratelimit.redis_url rl_start_fpm gives; the pool's bad one is refused.
    $fpm = rl_start_fpm($docroot, $ini, 1, [], [...$bad, ...$pool]);
    for ($i = 1; $i <= 3; $i++) {
        [$status, , $body] = rl_http_get("{$fpm['url']}/x.php");
        $body = str_replace(RL_URL, 'RL_URL', trim($body));
        echo "request $i: $status ", preg_replace('/\n+/', "\n  ", $body), "\n";
    }
    // php-fpm's master writes what a worker said a moment later (under load,
    // seconds): where the pool logs it, wait for both warnings, up to 5 s;
    // then a while more, for what should not be there.
    $logged = in_array('catch_workers_output = yes', $pool, true) ? 2 : 0;
    rl_fpm_log_wait(fn () => count($warnings($fpm['log'])) >= $logged ? true : null);
    usleep(300000);
    foreach (['web server' => $fpm['nginx_log'], 'pool' => $fpm['log']] as $which => $log) {
        echo "$which log:", $warnings($log) ? "\n  " . implode("\n  ", $warnings($log)) : ' nothing', "\n";
        if (str_contains((string) @file_get_contents($log), 's3cret')) echo "  the password is in the $which log\n";
    }
}
?>
--EXPECT--
-- production php.ini, Debian's default pool
request 1: 200 on_error=throw redis_url=RL_URL
request 2: 200 on_error=throw redis_url=RL_URL
request 3: 200 on_error=throw redis_url=RL_URL
web server log:
  ratelimit.on_error: "bogus" is not a valid value (expected throw, allow, deny or local); keeping "throw"
  ratelimit.redis_url is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "***@myredis:6379"; keeping "RL_URL"
pool log: nothing
-- development php.ini, catch_workers_output = yes
request 1: 200 Warning: PHP Request Startup: ratelimit.redis_url is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "***@myredis:6379"; keeping "RL_URL" in Unknown on line 0
  Warning: PHP Request Startup: ratelimit.on_error: "bogus" is not a valid value (expected throw, allow, deny or local); keeping "throw" in Unknown on line 0
  on_error=throw redis_url=RL_URL
request 2: 200 on_error=throw redis_url=RL_URL
request 3: 200 on_error=throw redis_url=RL_URL
web server log:
  ratelimit.on_error: "bogus" is not a valid value (expected throw, allow, deny or local); keeping "throw"
  ratelimit.redis_url is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "***@myredis:6379"; keeping "RL_URL"
pool log:
  ratelimit.on_error: "bogus" is not a valid value (expected throw, allow, deny or local); keeping "throw"
  ratelimit.redis_url is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "***@myredis:6379"; keeping "RL_URL"
