--TEST--
new RateLimitResult(...): for users' own tests; types and defaults as Reflection shows them, nonsense refused with ValueError/TypeError naming the parameter, a second __construct() refused like any readonly write
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';

echo (new ReflectionMethod('RateLimitResult', '__construct'))->getNumberOfRequiredParameters(), " required:\n";
foreach ((new ReflectionMethod('RateLimitResult', '__construct'))->getParameters() as $p) {
    echo '  ', $p->getType(), ' $', $p->getName(), $p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : '', "\n";
}

echo "-- built by PHP code\n";
$r = new RateLimitResult(false, 10, 0, 1.5, 30.0);
var_dump($r);
print_r($r->headers());
$r = new RateLimitResult(true, 5, 4, delay: 0.25);
var_dump($r->allowed, $r->remaining, $r->retryAfter, $r->resetAfter, $r->delay);
echo "-- coercive typing, as PHP's own functions read arguments\n";
$r = new RateLimitResult(1, '7', 7.0, '2', 3);
var_dump($r->allowed, $r->limit, $r->remaining, $r->retryAfter, $r->resetAfter);
echo "-- through Reflection\n";
var_dump((new ReflectionClass('RateLimitResult'))->newInstanceArgs([true, 3, 2])->remaining);
var_dump((new ReflectionClass('RateLimitResult'))->newInstance(allowed: false, limit: 3, remaining: 0, retryAfter: 9.0)->retryAfter);

echo "-- nonsense\n";
rl_throws(fn () => new RateLimitResult(true, 0, 0));
rl_throws(fn () => new RateLimitResult(true, -5, 0));
rl_throws(fn () => new RateLimitResult(true, 5, 6));
rl_throws(fn () => new RateLimitResult(true, 5, -1));
rl_throws(fn () => new RateLimitResult(false, 5, 0, -1.0));
rl_throws(fn () => new RateLimitResult(false, 5, 0, 1.0, NAN));
rl_throws(fn () => new RateLimitResult(true, 5, 0, delay: INF));
rl_throws(fn () => new RateLimitResult(true, 'five', 0));
rl_throws(fn () => new RateLimitResult(true, 5, INF));   // 2.5 is PHP's coercion (2, deprecated): strict_types_scalars.phpt
rl_throws(fn () => new RateLimitResult([], 5, 0));
rl_throws(fn () => new RateLimitResult(true, 5, 0, 'soon'));
rl_throws(fn () => new RateLimitResult(true, 5));
rl_throws(fn () => new RateLimitResult(true, 5, 0, 0.0, 0.0, 0.0, false, 'redis', 'extra'));
rl_throws(fn () => new RateLimitResult(true, 5, 0, source: 'bogus'));
var_dump((new RateLimitResult(true, 5, 0, source: 'local'))->source);
rl_throws(fn () => new RateLimitResult(false, 5, 0, 1.0, wouldDeny: true));
echo "-- a dry run's answer: accepted, and enforcing would have denied it\n";
$r = new RateLimitResult(true, 5, 0, 2.0, 2.0, wouldDeny: true);
var_dump($r->allowed, $r->wouldDeny, $r->retryAfter, isset($r->headers()['Retry-After']));

echo "-- a second __construct() is a second write of readonly properties\n";
$r = new RateLimitResult(true, 5, 4);
rl_throws(fn () => $r->__construct(false, 1, 0));
var_dump($r->allowed, $r->limit, $r->remaining);
echo "-- a failed construction leaves nothing behind\n";
try {
    $bad = new RateLimitResult(true, 0, 0);
} catch (ValueError) {
    var_dump(isset($bad));
}
?>
--EXPECT--
3 required:
  bool $allowed
  int $limit
  int $remaining
  float $retryAfter = 0.0
  float $resetAfter = 0.0
  float $delay = 0.0
  bool $wouldDeny = false
  string $source = 'redis'
-- built by PHP code
object(RateLimitResult)#8 (8) {
  ["allowed"]=>
  bool(false)
  ["limit"]=>
  int(10)
  ["remaining"]=>
  int(0)
  ["retryAfter"]=>
  float(1.5)
  ["resetAfter"]=>
  float(30)
  ["delay"]=>
  float(0)
  ["wouldDeny"]=>
  bool(false)
  ["source"]=>
  string(5) "redis"
}
Array
(
    [X-RateLimit-Limit] => 10
    [X-RateLimit-Remaining] => 0
    [X-RateLimit-Reset] => 30
    [Retry-After] => 2
)
bool(true)
int(4)
float(0)
float(0)
float(0.25)
-- coercive typing, as PHP's own functions read arguments
bool(true)
int(7)
int(7)
float(2)
float(3)
-- through Reflection
int(2)
float(9)
-- nonsense
ValueError: RateLimitResult::__construct(): Argument #2 ($limit) must be greater than or equal to 1
ValueError: RateLimitResult::__construct(): Argument #2 ($limit) must be greater than or equal to 1
ValueError: RateLimitResult::__construct(): Argument #3 ($remaining) must be between 0 and $limit (5), 6 given
ValueError: RateLimitResult::__construct(): Argument #3 ($remaining) must be between 0 and $limit (5), -1 given
ValueError: RateLimitResult::__construct(): Argument #4 ($retryAfter) must be greater than or equal to 0
ValueError: RateLimitResult::__construct(): Argument #5 ($resetAfter) must be a finite number of seconds
ValueError: RateLimitResult::__construct(): Argument #6 ($delay) must be a finite number of seconds
TypeError: RateLimitResult::__construct(): Argument #2 ($limit) must be of type int, string given
TypeError: RateLimitResult::__construct(): Argument #3 ($remaining) must be of type int, float given
TypeError: RateLimitResult::__construct(): Argument #1 ($allowed) must be of type bool, array given
TypeError: RateLimitResult::__construct(): Argument #4 ($retryAfter) must be of type float, string given
ArgumentCountError: RateLimitResult::__construct() expects at least 3 arguments, 2 given
ArgumentCountError: RateLimitResult::__construct() expects at most 8 arguments, 9 given
ValueError: RateLimitResult::__construct(): Argument #8 ($source) must be one of 'redis', 'memory', 'cache', 'local' or 'on_error'
string(5) "local"
ValueError: RateLimitResult::__construct(): Argument #7 ($wouldDeny) must be false when $allowed is false (only a dry run's accepted request would have been denied)
-- a dry run's answer: accepted, and enforcing would have denied it
bool(true)
bool(true)
float(2)
bool(false)
-- a second __construct() is a second write of readonly properties
Error: Cannot modify readonly property RateLimitResult::$allowed
bool(true)
int(5)
int(4)
-- a failed construction leaves nothing behind
bool(false)
