--TEST--
The extension loads: module name, version = crate version, classes and interface
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
preg_match('/^version = "([^"]+)"/m', file_get_contents(__DIR__ . '/../Cargo.toml'), $m);
var_dump(in_array('ratelimit', get_loaded_extensions(), true));
var_dump(phpversion('ratelimit') === $m[1]);
var_dump(interface_exists('RateLimiterInterface'));
var_dump(get_parent_class('RateLimiterException'));
var_dump((new ReflectionClass('RateLimitResult'))->isFinal());
var_dump(in_array('RateLimiterInterface', class_implements('FixedWindowRateLimiter'), true));
$ext = new ReflectionExtension('ratelimit');
var_dump(array_keys($ext->getINIEntries()));
$m = new ReflectionMethod('RateLimiterInterface', 'isAllowed');
foreach ($m->getParameters() as $p) {
    echo $p->getType(), ' $', $p->getName(), ' = ', var_export($p->getDefaultValue(), true), "\n";
}
echo (new ReflectionMethod('FixedWindowRateLimiter', 'consume'))->getReturnType(), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(16) "RuntimeException"
bool(true)
bool(true)
array(14) {
  [0]=>
  string(19) "ratelimit.redis_url"
  [1]=>
  string(25) "ratelimit.connect_timeout"
  [2]=>
  string(17) "ratelimit.timeout"
  [3]=>
  string(18) "ratelimit.on_error"
  [4]=>
  string(20) "ratelimit.key_prefix"
  [5]=>
  string(21) "ratelimit.block_cache"
  [6]=>
  string(26) "ratelimit.block_cache_size"
  [7]=>
  string(25) "ratelimit.max_connections"
  [8]=>
  string(23) "ratelimit.server_module"
  [9]=>
  string(17) "ratelimit.dry_run"
  [10]=>
  string(17) "ratelimit.metrics"
  [11]=>
  string(19) "ratelimit.multiplex"
  [12]=>
  string(21) "ratelimit.local_share"
  [13]=>
  string(24) "ratelimit.retry_interval"
}
string $id = ''
int $cost = 1
RateLimitResult
