--TEST--
FixedWindowRateLimiter short form (key, window, limit) uses ratelimit.redis_url; named arguments use the long names
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$key = rl_prefix('books');
$api = new FixedWindowRateLimiter($key, 60, 2);
var_dump($api->isAllowed(), $api->isAllowed(), $api->isAllowed(), $api->remaining);
echo "key is exactly the short form's key: ", rl_redis()->get($key), "\n";
echo "with ids: ";
var_dump($api->isAllowed('u1'), rl_redis()->get("$key:u1"));

echo "-- named arguments (long names) in both forms\n";
$named = new FixedWindowRateLimiter(connection: null, keyPrefix: rl_prefix('named'), window: 1.5, limit: 1);
var_dump($named->consume()->limit);
$named2 = new FixedWindowRateLimiter(RL_URL, limit: 7, window: 30, keyPrefix: rl_prefix('named2'));
var_dump($named2->consume()->limit);
echo "-- named arguments after short-form positions\n";
var_dump((new FixedWindowRateLimiter(rl_prefix('sn'), 60, limit: 9))->consume()->limit);
rl_throws(fn () => new FixedWindowRateLimiter(rl_prefix('sn3'), 60, 5, limit: 9));
echo "-- a string second argument means the long form: the first is the connection\n";
rl_throws(fn () => new FixedWindowRateLimiter(rl_prefix('str'), '0.5', 4));
echo "-- numbers may come as numeric strings after the key, like PHP's own int/float parameters\n";
$s = new FixedWindowRateLimiter(rl_prefix('str'), 0.5, '4');
var_dump($s->consume()->limit, $s->peek()->resetAfter <= 0.5);
echo "-- missing arguments name the form that was used\n";
rl_throws(fn () => new FixedWindowRateLimiter(rl_prefix('x'), 60));
rl_throws(fn () => new FixedWindowRateLimiter(null, rl_prefix('x'), 60));
?>
--EXPECTF--
bool(true)
bool(true)
bool(false)
int(0)
key is exactly the short form's key: 2
with ids: bool(true)
string(1) "1"
-- named arguments (long names) in both forms
int(1)
int(7)
-- named arguments after short-form positions
int(9)
ArgumentCountError: FixedWindowRateLimiter::__construct() expects at most 3 arguments in the short form ($key, $window, $limit), 4 given
-- a string second argument means the long form: the first is the connection
ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) not passed; the long form is ($connection, $keyPrefix, $window, $limit)
-- numbers may come as numeric strings after the key, like PHP's own int/float parameters
int(4)
bool(true)
-- missing arguments name the form that was used
ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #3 ($limit) not passed; the short form is ($key, $window, $limit)
ArgumentCountError: FixedWindowRateLimiter::__construct(): Argument #4 ($limit) not passed; the long form is ($connection, $keyPrefix, $window, $limit)
