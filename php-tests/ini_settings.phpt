--TEST--
ini settings: defaults, PHP_INI_ALL changes, invalid values refused
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.redis_url=redis://127.0.0.1:6379
--FILE--
<?php
foreach (['redis_url', 'connect_timeout', 'timeout', 'on_error', 'key_prefix', 'block_cache', 'block_cache_size', 'max_connections'] as $n) {
    echo "ratelimit.$n = ", var_export(ini_get("ratelimit.$n"), true), "\n";
}
echo "-- valid changes\n";
var_dump(ini_set('ratelimit.on_error', 'deny'), ini_get('ratelimit.on_error'));
var_dump(ini_set('ratelimit.timeout', '0.25') !== false, ini_get('ratelimit.timeout'));
var_dump(ini_set('ratelimit.key_prefix', 'app1:') !== false);
var_dump(ini_set('ratelimit.max_connections', '8'), ini_get('ratelimit.max_connections'));
echo "-- invalid values are refused and the old value stays\n";
var_dump(ini_set('ratelimit.on_error', 'maybe'), ini_get('ratelimit.on_error'));
var_dump(ini_set('ratelimit.timeout', '-1'), ini_set('ratelimit.timeout', 'abc'), ini_set('ratelimit.connect_timeout', '0'));
var_dump(ini_get('ratelimit.timeout'));
var_dump(ini_set('ratelimit.redis_url', 'http://example.com'), ini_get('ratelimit.redis_url'));
var_dump(ini_set('ratelimit.block_cache', 'sometimes'), ini_set('ratelimit.block_cache_size', '0'), ini_set('ratelimit.block_cache_size', 'many'));
var_dump(ini_set('ratelimit.block_cache', 'on'), ini_set('ratelimit.block_cache_size', '500'), ini_get('ratelimit.block_cache_size'));
var_dump(ini_set('ratelimit.redis_url', 'rediss://:pw@127.0.0.1:6379?verify_peer=2'), ini_get('ratelimit.redis_url'));
foreach (['0', '-3', '1.5', 'many', '65537'] as $bad) {
    var_dump(ini_set('ratelimit.max_connections', $bad));
}
var_dump(ini_get('ratelimit.max_connections'));
echo "-- ratelimit.multiplex: auto, off or 1 to 8 shared connections\n";
var_dump(ini_get('ratelimit.multiplex'));
foreach (['off', '8', 'auto', '1'] as $ok) var_dump(ini_set('ratelimit.multiplex', $ok) !== false);
foreach (['9', '0.5', 'many', '-1'] as $bad) var_dump(ini_set('ratelimit.multiplex', $bad));
var_dump(ini_get('ratelimit.multiplex'));
?>
--EXPECT--
ratelimit.redis_url = 'redis://127.0.0.1:6379'
ratelimit.connect_timeout = '1.0'
ratelimit.timeout = '1.0'
ratelimit.on_error = 'throw'
ratelimit.key_prefix = ''
ratelimit.block_cache = '0'
ratelimit.block_cache_size = '10000'
ratelimit.max_connections = '64'
-- valid changes
string(5) "throw"
string(4) "deny"
bool(true)
string(4) "0.25"
bool(true)
string(2) "64"
string(1) "8"
-- invalid values are refused and the old value stays
bool(false)
string(4) "deny"
bool(false)
bool(false)
bool(false)
string(4) "0.25"
bool(false)
string(22) "redis://127.0.0.1:6379"
bool(false)
bool(false)
bool(false)
string(1) "0"
string(5) "10000"
string(3) "500"
bool(false)
string(22) "redis://127.0.0.1:6379"
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
string(1) "8"
-- ratelimit.multiplex: auto, off or 1 to 8 shared connections
string(4) "auto"
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
string(1) "1"
