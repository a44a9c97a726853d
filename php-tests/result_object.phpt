--TEST--
RateLimitResult: final, typed readonly properties PHP itself enforces, clone copies, headers() per API.md
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$l = new FixedWindowRateLimiter(RL_URL, rl_prefix(), 2.5, 2);
$ok = $l->consume('h', 2);
print_r($ok->headers());
$no = $l->consume('h');
print_r(array_keys($no->headers()));
$h = $no->headers();
var_dump($h['Retry-After'] === (int) ceil($no->retryAfter), $h['X-RateLimit-Reset'] === 3, $h['X-RateLimit-Remaining']);

echo "-- Reflection: typed, readonly, no default, in this order\n";
foreach ((new ReflectionClass('RateLimitResult'))->getProperties() as $p) {
    echo $p->getType(), ' $', $p->getName(), ': ', $p->isReadOnly() ? 'readonly' : 'writable', ', ',
        $p->hasDefaultValue() ? 'default' : 'no default', ', ', $p->isInitialized($ok) ? 'initialized' : 'uninitialized', "\n";
}

echo "-- written or unset from PHP: PHP's own readonly errors\n";
foreach (['allowed' => false, 'limit' => 3, 'remaining' => 1, 'retryAfter' => 1.0, 'resetAfter' => 1.0, 'delay' => 1.0, 'somethingNew' => 1] as $prop => $v) {
    rl_throws(function () use ($ok, $prop, $v) { $ok->$prop = $v; });
}
rl_throws(function () use ($ok) { unset($ok->limit); });
rl_throws(function () use ($ok) { $ok->remaining++; });
// A reference is refused too; PHP 8.4 words it "Cannot indirectly modify".
ob_start();
rl_throws(function () use ($ok) { $r = &$ok->remaining; });
echo str_replace('Cannot indirectly modify', 'Cannot modify', ob_get_clean());
var_dump($ok->allowed, $ok->limit, $ok->remaining, isset($ok->delay), property_exists($ok, 'retryAfter'));

echo "-- clone copies the decision\n";
$copy = clone $ok;
var_dump($copy == $ok, $copy !== $ok, $copy->remaining, $copy->headers() === $ok->headers());
rl_throws(function () use ($copy) { $copy->allowed = false; });
var_dump((new ReflectionClass('RateLimitResult'))->isCloneable());

echo "-- cannot be extended, takes no dynamic property, cannot be serialized\n";
var_dump((new ReflectionClass('RateLimitResult'))->isFinal());
rl_throws(fn () => serialize($ok));
?>
--EXPECT--
Array
(
    [X-RateLimit-Limit] => 2
    [X-RateLimit-Remaining] => 0
    [X-RateLimit-Reset] => 3
)
Array
(
    [0] => X-RateLimit-Limit
    [1] => X-RateLimit-Remaining
    [2] => X-RateLimit-Reset
    [3] => Retry-After
)
bool(true)
bool(true)
int(0)
-- Reflection: typed, readonly, no default, in this order
bool $allowed: readonly, no default, initialized
int $limit: readonly, no default, initialized
int $remaining: readonly, no default, initialized
float $retryAfter: readonly, no default, initialized
float $resetAfter: readonly, no default, initialized
float $delay: readonly, no default, initialized
bool $wouldDeny: readonly, no default, initialized
string $source: readonly, no default, initialized
-- written or unset from PHP: PHP's own readonly errors
Error: Cannot modify readonly property RateLimitResult::$allowed
Error: Cannot modify readonly property RateLimitResult::$limit
Error: Cannot modify readonly property RateLimitResult::$remaining
Error: Cannot modify readonly property RateLimitResult::$retryAfter
Error: Cannot modify readonly property RateLimitResult::$resetAfter
Error: Cannot modify readonly property RateLimitResult::$delay
Error: Cannot create dynamic property RateLimitResult::$somethingNew
Error: Cannot unset readonly property RateLimitResult::$limit
Error: Cannot modify readonly property RateLimitResult::$remaining
Error: Cannot modify readonly property RateLimitResult::$remaining
bool(true)
int(2)
int(0)
bool(true)
bool(true)
-- clone copies the decision
bool(true)
bool(true)
int(0)
bool(true)
Error: Cannot modify readonly property RateLimitResult::$allowed
bool(true)
-- cannot be extended, takes no dynamic property, cannot be serialized
bool(true)
Exception: Serialization of 'RateLimitResult' is not allowed
