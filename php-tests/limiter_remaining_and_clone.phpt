--TEST--
Every limiter: $remaining is a readonly ?int PHP code cannot write (null, then each call's remaining, null after reset()); limiters are uncloneable and Reflection says so, subclasses included
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
// PHP's own words for a protected __clone() differ by version ("Call to
// protected method C::__clone()" from PHP 8.6): one form here.
ob_start(fn (string $out) => str_replace('Call to protected method ', 'Call to protected ', $out));

$limiters = [
    new FixedWindowRateLimiter(RL_URL, rl_prefix('fw'), 60, 5),
    new SlidingWindowRateLimiter(RL_URL, rl_prefix('sw'), 60, 5),
    new TokenBucketRateLimiter(RL_URL, rl_prefix('tb'), 5, 0.001),
    new LeakyBucketRateLimiter(RL_URL, rl_prefix('lb'), 5, 0.001),
    new GcraRateLimiter(RL_URL, rl_prefix('gc'), 4, 1, 1000),
];
foreach ($limiters as $l) {
    $class = new ReflectionClass($l);
    $p = $class->getProperty('remaining');
    echo $class->getName(), ': ', $p->getType(), ' $remaining ', $p->isReadOnly() ? 'readonly' : 'writable', ', ',
        $p->hasDefaultValue() ? 'default' : 'no default', ', cloneable: ', var_export($class->isCloneable(), true), "\n";
    $seen = [$l->remaining];
    $l->isAllowed('a');
    $seen[] = $l->remaining;
    $l->access('a', 2);
    $seen[] = $l->remaining;
    $seen[] = $l->consume('a')->remaining === $l->remaining ? $l->remaining : 'differs';
    $seen[] = $l->peek('a')->remaining === $l->remaining ? $l->remaining : 'differs';
    $l->reset('a');
    $seen[] = $l->remaining;
    $l->peek('a');
    $seen[] = $l->remaining;
    echo '  ', implode(' ', array_map(fn ($v) => var_export($v, true), $seen)), "\n";
    rl_throws(function () use ($l) { $l->remaining = 3; });
    rl_throws(function () use ($l) { unset($l->remaining); });
    rl_throws(function () use ($l) { $l->remaining++; });
    rl_throws(fn () => clone $l);
}

echo "-- throttle() sets it too\n";
$g = new GcraRateLimiter(RL_URL, rl_prefix('throttle'), 14, 30, 60);
var_dump($g->remaining, $g->throttle('x')[2], $g->remaining);

echo "-- a failing call leaves the last value\n";
$f = new FixedWindowRateLimiter(RL_URL, rl_prefix('fail'), 60, 5);
$f->isAllowed('x');
rl_throws(fn () => $f->isAllowed('x', 99));
var_dump($f->remaining);

echo "-- a subclass inherits the property (beside properties of its own), and cannot be cloned either\n";
class MyLimiter extends FixedWindowRateLimiter
{
    public int $mine = 7;
    public ?int $other = null;
    public function copy(): static { return clone $this; }
}
$m = new MyLimiter(RL_URL, rl_prefix('sub'), 60, 5);
var_dump($m->remaining, $m->isAllowed(), $m->remaining, (new ReflectionClass($m))->isCloneable());
// The extension writes $remaining where the class declared it; the subclass's own stay as they were.
var_dump([$m->mine, $m->other]);
rl_throws(fn () => clone $m);
rl_throws(fn () => $m->copy());
rl_throws(function () use ($m) { $m->remaining = 1; });

echo "-- __clone() is final: a subclass cannot make limiters cloneable\n";
preg_match('~\S+/[^/\s]*ratelimit[^/\s]*\.so~', file_get_contents('/proc/self/maps'), $so);
$code = 'class C extends FixedWindowRateLimiter { public function __clone() {} }';
// The first line: from PHP 8.5 a fatal error is followed by its stack trace.
echo strtok(trim(shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d display_errors=1 -d log_errors=0 -d extension=' . escapeshellarg($so[0]) . ' -r ' . escapeshellarg($code) . ' 2>&1')), "\n"), "\n";
?>
--EXPECT--
FixedWindowRateLimiter: ?int $remaining readonly, no default, cloneable: false
  NULL 4 2 1 1 NULL 5
Error: Cannot modify readonly property FixedWindowRateLimiter::$remaining
Error: Cannot unset readonly property FixedWindowRateLimiter::$remaining
Error: Cannot modify readonly property FixedWindowRateLimiter::$remaining
Error: Call to protected FixedWindowRateLimiter::__clone() from global scope
SlidingWindowRateLimiter: ?int $remaining readonly, no default, cloneable: false
  NULL 4 2 1 1 NULL 5
Error: Cannot modify readonly property SlidingWindowRateLimiter::$remaining
Error: Cannot unset readonly property SlidingWindowRateLimiter::$remaining
Error: Cannot modify readonly property SlidingWindowRateLimiter::$remaining
Error: Call to protected SlidingWindowRateLimiter::__clone() from global scope
TokenBucketRateLimiter: ?int $remaining readonly, no default, cloneable: false
  NULL 4 2 1 1 NULL 5
Error: Cannot modify readonly property TokenBucketRateLimiter::$remaining
Error: Cannot unset readonly property TokenBucketRateLimiter::$remaining
Error: Cannot modify readonly property TokenBucketRateLimiter::$remaining
Error: Call to protected TokenBucketRateLimiter::__clone() from global scope
LeakyBucketRateLimiter: ?int $remaining readonly, no default, cloneable: false
  NULL 4 2 1 1 NULL 5
Error: Cannot modify readonly property LeakyBucketRateLimiter::$remaining
Error: Cannot unset readonly property LeakyBucketRateLimiter::$remaining
Error: Cannot modify readonly property LeakyBucketRateLimiter::$remaining
Error: Call to protected LeakyBucketRateLimiter::__clone() from global scope
GcraRateLimiter: ?int $remaining readonly, no default, cloneable: false
  NULL 4 2 1 1 NULL 5
Error: Cannot modify readonly property GcraRateLimiter::$remaining
Error: Cannot unset readonly property GcraRateLimiter::$remaining
Error: Cannot modify readonly property GcraRateLimiter::$remaining
Error: Call to protected GcraRateLimiter::__clone() from global scope
-- throttle() sets it too
NULL
int(14)
int(14)
-- a failing call leaves the last value
ValueError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be at most 5 (the limit), 99 given
int(4)
-- a subclass inherits the property (beside properties of its own), and cannot be cloned either
NULL
bool(true)
int(4)
bool(false)
array(2) {
  [0]=>
  int(7)
  [1]=>
  NULL
}
Error: Call to protected FixedWindowRateLimiter::__clone() from global scope
Error: Trying to clone an uncloneable object of class FixedWindowRateLimiter
Error: Cannot modify readonly property FixedWindowRateLimiter::$remaining
-- __clone() is final: a subclass cannot make limiters cloneable
Fatal error: Cannot override final method FixedWindowRateLimiter::__clone() in Command line code on line 1
