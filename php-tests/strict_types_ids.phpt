--TEST--
Under declare(strict_types=1) an id must be a string, as for PHP's own string parameters: Stringable, int and null are TypeErrors in PHP's words
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php declare(strict_types=1);
require __DIR__ . '/config.inc';
class UserId { public function __toString(): string { return 'u1'; } }
$l = new FixedWindowRateLimiter(RL_URL, rl_prefix(), 60, 5);
rl_throws(fn () => $l->consume(new UserId));
rl_throws(fn () => $l->consume(42));
rl_throws(fn () => $l->consume(null));
rl_throws(fn () => $l->peek(1.5));
rl_throws(fn () => $l->reset(new UserId));
var_dump($l->consume('u1')->remaining);
?>
--EXPECT--
TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, UserId given
TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, int given
TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, null given
TypeError: FixedWindowRateLimiter::peek(): Argument #1 ($id) must be of type string, float given
TypeError: FixedWindowRateLimiter::reset(): Argument #1 ($id) must be of type string, UserId given
int(4)
