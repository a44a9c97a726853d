--TEST--
GcraRateLimiter keys: one string per id holding the TAT in integer microseconds of the server clock, a TTL that ends when the TAT has passed, memory per key, foreign values refused
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$r = rl_redis();
$p = rl_prefix();

ini_set('ratelimit.key_prefix', 'app1:');
$l = new GcraRateLimiter(RL_URL, $p, 14, 30, 60);
ini_set('ratelimit.key_prefix', '');
[$s, $us] = $r->time();
$l->throttle("bin\0id");
$key = "app1:$p:bin\0id";
$tat = $r->get($key);
$now = (int) $s * 1000000 + (int) $us;
echo "type: ", $r->type($key) === Redis::REDIS_STRING ? 'string' : 'other', "\n";
echo "TAT is an integer: ", var_export(ctype_digit($tat), true), "\n";
echo "TAT - TIME before the call is one interval (2 s, within 50 ms): ", var_export(abs((int) $tat - $now - 2000000) < 50000, true), "\n";
$pttl = $r->pTtl($key);
echo "PTTL in (1900, 2000]: ", var_export($pttl > 1900 && $pttl <= 2000, true), "\n";
for ($i = 0; $i < 14; $i++) $l->throttle("bin\0id");
$pttl = $r->pTtl($key);
echo "after the burst, PTTL in (29900, 30000]: ", var_export($pttl > 29900 && $pttl <= 30000, true), "\n";
$l->throttle("bin\0id");
echo "a denied request does not touch the TTL: ", var_export($r->pTtl($key) <= $pttl, true), "\n";

echo "-- the key expires when the TAT has passed\n";
$short = new GcraRateLimiter(RL_URL, "$p:short", 1, 10, 1);
$short->throttle();
$short->throttle();
$pttl = $r->pTtl("$p:short");
echo "PTTL in (150, 200]: ", var_export($pttl > 150 && $pttl <= 200, true), "\n";
usleep(230000);
echo "gone: ", $r->exists("$p:short"), "\n";

echo "-- peek writes nothing\n";
$short->peek('never');
$short->throttle('never', 0);
echo "exists: ", $r->exists("$p:short:never"), "\n";

echo "-- memory of a key after 100 requests\n";
$m = new GcraRateLimiter(RL_URL, "$p:mem", 99, 1, 100000);
$accepted = 0;
for ($i = 0; $i < 100; $i++) $accepted += $m->isAllowed('user:42') ? 1 : 0;
$bytes = $r->rawCommand('MEMORY', 'USAGE', "$p:mem:user:42");
echo "accepted $accepted, MEMORY USAGE < 120 B: ", var_export($bytes > 0 && $bytes < 120, true), "\n";

echo "-- a foreign value is refused, not computed with\n";
$r->set("$p:foreign", 'hello');
rl_throws(fn () => (new GcraRateLimiter(RL_URL, "$p:foreign", 1, 1, 1))->isAllowed());
$r->set("$p:nan", 'nan');
rl_throws(fn () => (new GcraRateLimiter(RL_URL, "$p:nan", 1, 1, 1))->throttle());
$r->set("$p:frac", '1.5');
rl_throws(fn () => (new GcraRateLimiter(RL_URL, "$p:frac", 1, 1, 1))->peek());
$r->hSet("$p:hash", 'f', 'v');
rl_throws(fn () => (new GcraRateLimiter(RL_URL, "$p:hash", 1, 1, 1))->isAllowed());
echo "still there: ", $r->get("$p:foreign"), "\n";
?>
--EXPECTF--
type: string
TAT is an integer: true
TAT - TIME before the call is one interval (2 s, within 50 ms): true
PTTL in (1900, 2000]: true
after the burst, PTTL in (29900, 30000]: true
a denied request does not touch the TTL: true
-- the key expires when the TAT has passed
PTTL in (150, 200]: true
gone: 0
-- peek writes nothing
exists: 0
-- memory of a key after 100 requests
accepted 100, MEMORY USAGE < 120 B: true
-- a foreign value is refused, not computed with
RateLimiterException: %sthe key holds a value that is not a GCRA timestamp
RateLimiterException: %sthe key holds a value that is not a GCRA timestamp
RateLimiterException: %sthe key holds a value that is not a GCRA timestamp
RateLimiterException: %sWRONGTYPE%s
still there: hello
