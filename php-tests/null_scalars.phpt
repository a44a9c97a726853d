--TEST--
null for a scalar parameter ($id, $cost, $quantity, $style) of every class's methods is what PHP's own internal functions make of it: in coercive mode the engine's deprecation, then the call as with "" or 0 (and that value's own error); under strict_types a TypeError. PHP's words come from str_repeat(null, ...) and str_repeat('', null) called in the same mode
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
// Each case: a call with null, the same call with what coercive mode makes of
// null ("" for a string, 0 for an int), and str_repeat()'s parameter of the
// same type and position (#1 string $string, #2 int $times), whose messages
// are PHP's own. Closures are made in a file of each mode, which is what
// strict_types follows.
$cases = <<<'PHP'
return [
    'isAllowed($id)' => [fn ($l, $v) => $l->isAllowed($v), '', 1, 'id'],
    'isAllowed($cost)' => [fn ($l, $v) => $l->isAllowed('x', $v), 0, 2, 'cost'],
    'access($id)' => [fn ($l, $v) => $l->access($v), '', 1, 'id'],
    'access($cost)' => [fn ($l, $v) => $l->access('x', $v), 0, 2, 'cost'],
    'consume($id)' => [fn ($l, $v) => $l->consume($v), '', 1, 'id'],
    'consume($cost)' => [fn ($l, $v) => $l->consume('x', $v), 0, 2, 'cost'],
    'peek($id)' => [fn ($l, $v) => $l->peek($v), '', 1, 'id'],
    'reset($id)' => [fn ($l, $v) => $l->reset($v), '', 1, 'id'],
    'consumeMany($cost)' => [fn ($l, $v) => $l->consumeMany(['a'], $v), 0, 2, 'cost'],
    'throttle($id)' => [fn ($l, $v) => $l->throttle($v), '', 1, 'id'],
    'throttle($quantity)' => [fn ($l, $v) => $l->throttle('x', $v), 0, 2, 'quantity'],
    'headers($style)' => [fn ($l, $v) => $l->consume('x')->headers($v), '', 1, 'style'],
    'php' => [fn ($v) => str_repeat($v, 1), fn ($v) => str_repeat('', $v)],
];
PHP;
$dir = sys_get_temp_dir() . '/rl-null-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/weak.php", "<?php\n$cases");
file_put_contents("$dir/strict.php", "<?php declare(strict_types=1);\n$cases");

$messages = [];
set_error_handler(function ($no, $msg) use (&$messages) { $messages[] = ($no === E_DEPRECATED ? 'Deprecated: ' : "$no: ") . $msg; return true; });
/** What a call gives: its value (a result's remaining) or its exception, and the messages it raised. */
function outcome(callable $call): array
{
    global $messages;
    $messages = [];
    try {
        $r = $call();
        $shown = $r instanceof RateLimitResult ? "remaining $r->remaining" : json_encode($r);
    } catch (Throwable $e) {
        $shown = get_class($e) . ': ' . $e->getMessage();
    }
    return [$shown, $messages];
}

$n = 0;
$limiter = function (string $class) use (&$n) {
    $p = rl_prefix($class . ++$n);
    return match ($class) {
        'FixedWindowRateLimiter' => new FixedWindowRateLimiter(RL_URL, $p, 60, 5),
        'SlidingWindowRateLimiter' => new SlidingWindowRateLimiter(RL_URL, $p, 60, 5),
        'TokenBucketRateLimiter' => new TokenBucketRateLimiter(RL_URL, $p, 5, 1),
        'LeakyBucketRateLimiter' => new LeakyBucketRateLimiter(RL_URL, $p, 5, 1),
        'GcraRateLimiter' => new GcraRateLimiter(RL_URL, $p, 4, 5, 60),
        'CompoundRateLimiter' => new CompoundRateLimiter([new FixedWindowRateLimiter(RL_URL, "$p:a", 60, 5), new TokenBucketRateLimiter(RL_URL, "$p:b", 5, 1)]),
    };
};
$classes = ['FixedWindowRateLimiter', 'SlidingWindowRateLimiter', 'TokenBucketRateLimiter', 'LeakyBucketRateLimiter', 'GcraRateLimiter', 'CompoundRateLimiter'];

foreach (['weak', 'strict'] as $mode) {
    $cases = require "$dir/$mode.php";
    [$phpString, $phpInt] = $cases['php'];
    unset($cases['php']);
    // PHP's own answer to null for str_repeat()'s #1 string $string and #2 int $times.
    $php = [1 => outcome(fn () => $phpString(null)), 2 => outcome(fn () => $phpInt(null))];
    echo "-- $mode: PHP's own str_repeat(null, 1): ", implode(' ', [...$php[1][1], $php[1][0]]), "\n";
    $inOurWords = function (string $text, string $method, int $pos, string $name) {
        return str_replace(['str_repeat()', $pos === 1 ? '($string)' : '($times)'], ["$method()", "(\$$name)"], $text);
    };
    foreach ([...$classes, 'RateLimitResult'] as $class) {
        $same = 0;
        foreach ($cases as $label => [$call, $coerced, $pos, $name]) {
            $method = substr($label, 0, strpos($label, '('));
            if (($method === 'throttle' && $class !== 'GcraRateLimiter') || ($method === 'headers') !== ($class === 'RateLimitResult')) {
                continue;
            }
            $owner = $class === 'RateLimitResult' ? $limiter('FixedWindowRateLimiter') : $limiter($class);
            [$got, $raised] = outcome(fn () => $call($owner, null));
            $ourClass = $method === 'headers' ? 'RateLimitResult' : $class;
            // Expected: PHP's deprecation in our method's words, then what the coerced value gives
            // (weak); PHP's TypeError in our method's words (strict).
            if ($mode === 'weak') {
                $expected = [outcome(fn () => $call($class === 'RateLimitResult' ? $limiter('FixedWindowRateLimiter') : $limiter($class), $coerced))[0],
                    array_map(fn ($m) => $inOurWords($m, "$ourClass::$method", $pos, $name), $php[$pos][1])];
            } else {
                $expected = [$inOurWords($php[$pos][0], "$ourClass::$method", $pos, $name), []];
            }
            if ([$got, $raised] === $expected) {
                $same++;
            } else {
                echo "  $class $label: got ", json_encode([$got, $raised]), ", expected ", json_encode($expected), "\n";
            }
            if ($class === 'FixedWindowRateLimiter' || $class === 'RateLimitResult' || $label === 'throttle($quantity)') {
                echo "  $label: ", implode(' ', $raised), ($raised ? ' → ' : ''), $got, "\n";
            }
        }
        echo "$class: $same calls as PHP's own\n";
    }
}
unlink("$dir/weak.php");
unlink("$dir/strict.php");
rmdir($dir);
?>
--EXPECT--
-- weak: PHP's own str_repeat(null, 1): Deprecated: str_repeat(): Passing null to parameter #1 ($string) of type string is deprecated ""
  isAllowed($id): Deprecated: FixedWindowRateLimiter::isAllowed(): Passing null to parameter #1 ($id) of type string is deprecated → true
  isAllowed($cost): Deprecated: FixedWindowRateLimiter::isAllowed(): Passing null to parameter #2 ($cost) of type int is deprecated → ValueError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be greater than or equal to 1
  access($id): Deprecated: FixedWindowRateLimiter::access(): Passing null to parameter #1 ($id) of type string is deprecated → true
  access($cost): Deprecated: FixedWindowRateLimiter::access(): Passing null to parameter #2 ($cost) of type int is deprecated → ValueError: FixedWindowRateLimiter::access(): Argument #2 ($cost) must be greater than or equal to 1
  consume($id): Deprecated: FixedWindowRateLimiter::consume(): Passing null to parameter #1 ($id) of type string is deprecated → remaining 4
  consume($cost): Deprecated: FixedWindowRateLimiter::consume(): Passing null to parameter #2 ($cost) of type int is deprecated → ValueError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be greater than or equal to 1
  peek($id): Deprecated: FixedWindowRateLimiter::peek(): Passing null to parameter #1 ($id) of type string is deprecated → remaining 5
  reset($id): Deprecated: FixedWindowRateLimiter::reset(): Passing null to parameter #1 ($id) of type string is deprecated → null
  consumeMany($cost): Deprecated: FixedWindowRateLimiter::consumeMany(): Passing null to parameter #2 ($cost) of type int is deprecated → ValueError: FixedWindowRateLimiter::consumeMany(): Argument #2 ($cost) must be greater than or equal to 1
FixedWindowRateLimiter: 9 calls as PHP's own
SlidingWindowRateLimiter: 9 calls as PHP's own
TokenBucketRateLimiter: 9 calls as PHP's own
LeakyBucketRateLimiter: 9 calls as PHP's own
  throttle($quantity): Deprecated: GcraRateLimiter::throttle(): Passing null to parameter #2 ($quantity) of type int is deprecated → [0,5,5,-1,0]
GcraRateLimiter: 11 calls as PHP's own
CompoundRateLimiter: 9 calls as PHP's own
  headers($style): Deprecated: RateLimitResult::headers(): Passing null to parameter #1 ($style) of type string is deprecated → ValueError: RateLimitResult::headers(): Argument #1 ($style) must be "x" or "ietf"
RateLimitResult: 1 calls as PHP's own
-- strict: PHP's own str_repeat(null, 1): TypeError: str_repeat(): Argument #1 ($string) must be of type string, null given
  isAllowed($id): TypeError: FixedWindowRateLimiter::isAllowed(): Argument #1 ($id) must be of type string, null given
  isAllowed($cost): TypeError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be of type int, null given
  access($id): TypeError: FixedWindowRateLimiter::access(): Argument #1 ($id) must be of type string, null given
  access($cost): TypeError: FixedWindowRateLimiter::access(): Argument #2 ($cost) must be of type int, null given
  consume($id): TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, null given
  consume($cost): TypeError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be of type int, null given
  peek($id): TypeError: FixedWindowRateLimiter::peek(): Argument #1 ($id) must be of type string, null given
  reset($id): TypeError: FixedWindowRateLimiter::reset(): Argument #1 ($id) must be of type string, null given
  consumeMany($cost): TypeError: FixedWindowRateLimiter::consumeMany(): Argument #2 ($cost) must be of type int, null given
FixedWindowRateLimiter: 9 calls as PHP's own
SlidingWindowRateLimiter: 9 calls as PHP's own
TokenBucketRateLimiter: 9 calls as PHP's own
LeakyBucketRateLimiter: 9 calls as PHP's own
  throttle($quantity): TypeError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be of type int, null given
GcraRateLimiter: 11 calls as PHP's own
CompoundRateLimiter: 9 calls as PHP's own
  headers($style): TypeError: RateLimitResult::headers(): Argument #1 ($style) must be of type string, null given
RateLimitResult: 1 calls as PHP's own
