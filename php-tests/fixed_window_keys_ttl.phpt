--TEST--
FixedWindowRateLimiter keys: exact layout with ratelimit.key_prefix, binary-safe ids, a TTL on every key, window expiry
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$r = rl_redis();
$p = rl_prefix();

ini_set('ratelimit.key_prefix', 'app1:');
$a = new FixedWindowRateLimiter(RL_URL, "$p:pref", 10, 5);
ini_set('ratelimit.key_prefix', '');   // read at construction: $a keeps 'app1:'
$a->isAllowed('bob');
var_dump($r->get("app1:$p:pref:bob"), $r->exists("$p:pref:bob"));

$bin = "a\0b{x}:\xff";
$b = new FixedWindowRateLimiter(RL_URL, "$p:bin", 10, 5);
$b->isAllowed($bin);
$b->isAllowed($bin);
var_dump($r->get("$p:bin:$bin"));

echo "-- the TTL is the window\n";
$pttl = $r->pTtl("$p:bin:$bin");
var_dump($pttl > 9000 && $pttl <= 10000);
$r->set("$p:bin:noexpiry", 1);
$b->isAllowed('noexpiry');
$pttl = $r->pTtl("$p:bin:noexpiry");
echo "a counter found without expiry gets one: ", var_export($pttl > 0 && $pttl <= 10000, true), "\n";

echo "-- the window ends on the server's clock and opens at the next accepted request\n";
$c = new FixedWindowRateLimiter(RL_URL, "$p:short", 0.3, 2);
$seq = [];
foreach ([0, 0, 0] as $_) $seq[] = $c->isAllowed() ? 'Y' : 'n';
$denied = $c->consume();
echo implode('', $seq), ' retryAfter in (0, 0.3]: ', var_export($denied->retryAfter > 0 && $denied->retryAfter <= 0.3, true), "\n";
usleep((int) ($denied->retryAfter * 1e6) + 20000);
var_dump($r->exists("$p:short"));
foreach ([0, 0, 0] as $_) $seq[] = $c->isAllowed() ? 'Y' : 'n';
echo implode('', $seq), "\n";

echo "-- reset() deletes the key and the object's remaining\n";
$c->reset();
var_dump($r->exists("$p:short"), $c->remaining);

echo "-- an 8 KiB key is the most\n";
$long = new FixedWindowRateLimiter(RL_URL, "k", 10, 5);
var_dump($long->isAllowed(str_repeat('x', 8190)));
$r->del('k:' . str_repeat('x', 8190));
rl_throws(fn () => $long->isAllowed(str_repeat('x', 8191)));
?>
--EXPECT--
string(1) "1"
int(0)
string(1) "2"
-- the TTL is the window
bool(true)
a counter found without expiry gets one: true
-- the window ends on the server's clock and opens at the next accepted request
YYn retryAfter in (0, 0.3]: true
int(0)
YYnYYn
-- reset() deletes the key and the object's remaining
int(0)
NULL
-- an 8 KiB key is the most
bool(true)
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #1 ($id) makes a Redis key of 8193 bytes; keys are limited to 8192
