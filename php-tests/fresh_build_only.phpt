--TEST--
The suite tests the fresh build alone: no php.ini, no conf.d, and the only ratelimit.so in this process is the one the harness passed, even with a copy installed (make install, the .deb)
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
// The harness runs every test with php -n: a conf.d that enables an installed
// ratelimit would otherwise load it ("Module already loaded", or worse, the
// installed copy tested instead of the build).
var_dump(php_ini_loaded_file(), php_ini_scanned_files());
// Every file mapped into this process whose name says ratelimit.
$mapped = [];
foreach (file('/proc/self/maps') as $line) {
    $path = preg_split('/\s+/', trim($line), 6)[5] ?? '';
    if (str_contains(basename($path), 'ratelimit')) {
        $mapped[$path] = true;
    }
}
$want = realpath((string) getenv('RATELIMIT_TEST_SO'));
var_dump($want !== false);
var_dump(array_keys($mapped) === [$want] ? 'only the build under test' : $mapped);
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
string(25) "only the build under test"
