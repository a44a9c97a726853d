--TEST--
ini settings: a value that is not valid in php.ini or -d is reported at startup (a PHP warning naming the setting, the value given and the value kept, no password), never dropped in silence; ini_set() says false
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$settings = [
    'redis_url' => 'redis//user:s3cret@myredis:6379',
    'connect_timeout' => '-1',
    'timeout' => 'soon',
    'on_error' => 'bogus',
    'block_cache' => 'sometimes',
    'block_cache_size' => '0',
    'max_connections' => '1.5',
    'server_module' => 'maybe',
    'dry_run' => 'perhaps',
    'metrics' => 'prometheus',
    'multiplex' => '99',
];
foreach ($settings as $name => $bad) {
    $cmd = rl_php_shell(["ratelimit.$name" => $bad, 'display_startup_errors' => '1', 'log_errors' => '0', 'html_errors' => '0'])
        . ' -r ' . escapeshellarg("echo 'in force: ', ini_get('ratelimit.$name'), ', ini_set: ', var_export(ini_set('ratelimit.$name', '$bad'), true), \"\\n\";") . ' 2>&1';
    echo trim(preg_replace('/\n+/', "\n", shell_exec($cmd))), "\n";
}
?>
--EXPECT--
Warning: PHP Startup: ratelimit.redis_url is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "***@myredis:6379"; keeping "redis://127.0.0.1:6379" in Unknown on line 0
in force: redis://127.0.0.1:6379, ini_set: false
Warning: PHP Startup: ratelimit.connect_timeout: "-1" is not a valid value (expected seconds, a number above 0 and at most 86400); keeping "1.0" in Unknown on line 0
in force: 1.0, ini_set: false
Warning: PHP Startup: ratelimit.timeout: "soon" is not a valid value (expected seconds, a number above 0 and at most 86400); keeping "1.0" in Unknown on line 0
in force: 1.0, ini_set: false
Warning: PHP Startup: ratelimit.on_error: "bogus" is not a valid value (expected throw, allow, deny or local); keeping "throw" in Unknown on line 0
in force: throw, ini_set: false
Warning: PHP Startup: ratelimit.block_cache: "sometimes" is not a valid value (expected 1, on, yes or true, or 0, off, no or false); keeping "0" in Unknown on line 0
in force: 0, ini_set: false
Warning: PHP Startup: ratelimit.block_cache_size: "0" is not a valid value (expected a whole number of entries from 1 to 10000000); keeping "10000" in Unknown on line 0
in force: 10000, ini_set: false
Warning: PHP Startup: ratelimit.max_connections: "1.5" is not a valid value (expected a whole number of connections from 1 to 65536); keeping "64" in Unknown on line 0
in force: 64, ini_set: false
Warning: PHP Startup: ratelimit.server_module: "maybe" is not a valid value (expected auto or off); keeping "auto" in Unknown on line 0
in force: auto, ini_set: false
Warning: PHP Startup: ratelimit.dry_run: "perhaps" is not a valid value (expected 1, on, yes or true, or 0, off, no or false); keeping "0" in Unknown on line 0
in force: 0, ini_set: false
Warning: PHP Startup: ratelimit.metrics: "prometheus" is not a valid value (expected off, local or redis); keeping "off" in Unknown on line 0
in force: off, ini_set: false
Warning: PHP Startup: ratelimit.multiplex: "99" is not a valid value (expected auto, off or a number of shared connections from 1 to 8); keeping "auto" in Unknown on line 0
in force: auto, ini_set: false
