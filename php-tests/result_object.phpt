--TEST--
RateLimitResult: final, properties cannot be written or unset, headers() per API.md
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

echo "-- written from PHP: refused\n";
foreach (['allowed', 'remaining', 'retryAfter', 'somethingNew'] as $prop) {
    try {
        $ok->$prop = 1;
        echo "$prop: written!\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
rl_throws(function () use ($ok) { unset($ok->limit); });
var_dump($ok->remaining, $ok->limit);
rl_throws(fn () => new RateLimitResult());
echo "-- cannot be extended\n";
var_dump((new ReflectionClass('RateLimitResult'))->isFinal());
?>
--EXPECTF--
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
-- written from PHP: refused
Exception: No setter available for this property.
Exception: No setter available for this property.
Exception: No setter available for this property.
Error: Cannot create dynamic property RateLimitResult::$somethingNew
Error: Cannot unset property RateLimitResult::$limit
int(0)
int(2)
Exception: You cannot instantiate this class from PHP.
-- cannot be extended
bool(true)
