--TEST--
A foreign key of the wrong type at a limiter's key: RateLimiterException naming the cause, the key untouched, other ids fine
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = rl_prefix();
$r = rl_redis();
$r->rPush("$p:list", 'a', 'b');
$r->set("$p:text", 'hello');
$l = new FixedWindowRateLimiter(RL_URL, $p, 60, 5);
rl_throws(fn () => $l->isAllowed('list'));
rl_throws(fn () => $l->consume('text'));
var_dump($r->lRange("$p:list", 0, -1), $r->get("$p:text"), $r->ttl("$p:list"));
var_dump($l->isAllowed('other'), $l->remaining);
ini_set('ratelimit.on_error', 'deny');
var_dump($l->isAllowed('list'));
?>
--EXPECTF--
RateLimiterException: Redis at redis://127.0.0.1:%d: WRONGTYPE Operation against a key holding the wrong kind of value
RateLimiterException: Redis at redis://127.0.0.1:%d: ERR ratelimit: the key holds a value that is not a fixed-window counter
array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
}
string(5) "hello"
int(-1)
bool(true)
int(4)
bool(false)
