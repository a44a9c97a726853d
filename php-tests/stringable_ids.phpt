--TEST--
Ids as PHP's coercive mode passes them to a string parameter: a Stringable object is its __toString() (same key), whose exception propagates; other objects are TypeErrors in PHP's words (null: null_scalars.phpt)
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
class UserId { public function __construct(private string $id) {} public function __toString(): string { return $this->id; } }
class Unprintable { public function __toString(): string { throw new UnexpectedValueException('no id yet'); } }

$r = rl_redis();
foreach (['FixedWindowRateLimiter' => [60, 5], 'SlidingWindowRateLimiter' => [60, 5], 'TokenBucketRateLimiter' => [5, 1],
          'LeakyBucketRateLimiter' => [5, 1], 'GcraRateLimiter' => [4, 5, 60]] as $class => $policy) {
    $prefix = rl_prefix($class);
    $l = new $class(RL_URL, $prefix, ...$policy);
    $a = $l->consume(new UserId('u42'))->remaining;
    $b = $l->consume('u42')->remaining;
    $l->isAllowed(new UserId('u42'));
    $p = $l->peek(new UserId('u42'))->remaining;
    echo str_pad($class, 25), "$a $b $p, key ", $r->exists("$prefix:u42") ? 'u42' : 'missing', "\n";
    $l->reset(new UserId('u42'));
    var_dump($r->exists("$prefix:u42"));
}
$l = new FixedWindowRateLimiter(RL_URL, rl_prefix(), 60, 5);
rl_throws(fn () => $l->consume(new Unprintable));
rl_throws(fn () => $l->consume(new stdClass));
echo "-- the short form's key takes a Stringable too (the long form is chosen by a string second argument)\n";
ini_set('ratelimit.redis_url', RL_URL);
var_dump((new FixedWindowRateLimiter(new UserId(rl_prefix('sp')), 60, 5))->consume('x')->remaining, $r->exists(rl_prefix('sp') . ':x'));
?>
--EXPECT--
FixedWindowRateLimiter   4 3 2, key u42
int(0)
SlidingWindowRateLimiter 4 3 2, key u42
int(0)
TokenBucketRateLimiter   4 3 2, key u42
int(0)
LeakyBucketRateLimiter   4 3 2, key u42
int(0)
GcraRateLimiter          4 3 2, key u42
int(0)
UnexpectedValueException: no id yet
TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, stdClass given
-- the short form's key takes a Stringable too (the long form is chosen by a string second argument)
int(4)
int(1)
