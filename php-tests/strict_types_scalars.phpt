--TEST--
Every scalar parameter follows PHP's own rules for its declared type: under declare(strict_types=1) only that type (an int for a float) else a TypeError as for a userland function; the same calls in coercive mode are taken with PHP's own coercions and deprecations
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php declare(strict_types=1);
require __DIR__ . '/config.inc';
// The same calls, made from a file in coercive mode (no declare) and from this strict one.
$calls = <<<'PHP'
return [
    'consume cost "2"' => fn ($l) => $l->consume('x', '2')->remaining,
    'consume cost 1.5' => fn ($l) => $l->consume('x', 1.5)->remaining,
    'consume cost true' => fn ($l) => $l->consume('x', true)->remaining,
    'isAllowed cost "1"' => fn ($l) => $l->isAllowed('x', '1'),
    'consumeMany cost "1"' => fn ($l) => count($l->consumeMany(['a'], '1')),
    'id 42' => fn ($l) => $l->consume(42)->remaining,
    'id true' => fn ($l) => $l->consume(true)->remaining,
    'long form window "60" limit "5"' => fn ($l) => get_class(new FixedWindowRateLimiter(RL_URL, 'st', '60', '5')),
    'short form window "60"' => fn ($l) => get_class(new FixedWindowRateLimiter('st', '60', 5)),
    'token bucket capacity 5.0' => fn ($l) => get_class(new TokenBucketRateLimiter('st', 20, 5.0)),
    'sliding blocks "2"' => fn ($l) => get_class(new SlidingWindowRateLimiter('st', 60, 5, '2')),
    'gcra throttle quantity "1"' => fn ($l) => implode(',', (new GcraRateLimiter(RL_URL, 'st-gcra-' . getmypid(), 4, 5, 60))->throttle('q', '1')),
    'result limit "10"' => fn ($l) => (new RateLimitResult(true, '10', 5))->limit,
    'result allowed 1' => fn ($l) => var_export((new RateLimitResult(1, 10, 5))->allowed, true),
    'result retryAfter "2.5"' => fn ($l) => (new RateLimitResult(false, 10, 0, '2.5'))->retryAfter,
    'result retryAfter 2 (int for float)' => fn ($l) => (new RateLimitResult(false, 10, 0, 2))->retryAfter,
    'headers style 1' => fn ($l) => implode(',', array_keys((new RateLimitResult(true, 10, 5))->headers(1))),
    'withDryRun on 1' => fn ($l) => get_class($l->withDryRun(1)),
];
PHP;
$dir = sys_get_temp_dir() . '/rl-strict-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/weak.php", "<?php\n$calls");
file_put_contents("$dir/strict.php", "<?php declare(strict_types=1);\n$calls");
set_error_handler(function ($no, $msg) { echo "  [", $no === E_DEPRECATED ? 'Deprecated' : $no, ": $msg]\n"; return true; });
foreach (['weak', 'strict'] as $mode) {
    echo "-- $mode\n";
    foreach (require "$dir/$mode.php" as $name => $call) {
        $l = new FixedWindowRateLimiter(RL_URL, rl_prefix($mode . $name), 60, 5);
        echo "$name: ";
        try {
            echo $call($l), "\n";
        } catch (Throwable $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
}
unlink("$dir/weak.php");
unlink("$dir/strict.php");
rmdir($dir);
?>
--EXPECT--
-- weak
consume cost "2": 3
consume cost 1.5:   [Deprecated: Implicit conversion from float 1.5 to int loses precision]
4
consume cost true: 4
isAllowed cost "1": 1
consumeMany cost "1": 1
id 42: 4
id true: 4
long form window "60" limit "5": FixedWindowRateLimiter
short form window "60": FixedWindowRateLimiter
token bucket capacity 5.0: TokenBucketRateLimiter
sliding blocks "2": SlidingWindowRateLimiter
gcra throttle quantity "1": 0,5,4,-1,12
result limit "10": 10
result allowed 1: true
result retryAfter "2.5": 2.5
result retryAfter 2 (int for float): 2
headers style 1: ValueError: RateLimitResult::headers(): Argument #1 ($style) must be "x" or "ietf"
withDryRun on 1: FixedWindowRateLimiter
-- strict
consume cost "2": TypeError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be of type int, string given
consume cost 1.5: TypeError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be of type int, float given
consume cost true: TypeError: FixedWindowRateLimiter::consume(): Argument #2 ($cost) must be of type int, bool given
isAllowed cost "1": TypeError: FixedWindowRateLimiter::isAllowed(): Argument #2 ($cost) must be of type int, string given
consumeMany cost "1": TypeError: FixedWindowRateLimiter::consumeMany(): Argument #2 ($cost) must be of type int, string given
id 42: TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, int given
id true: TypeError: FixedWindowRateLimiter::consume(): Argument #1 ($id) must be of type string, bool given
long form window "60" limit "5": TypeError: FixedWindowRateLimiter::__construct(): Argument #3 ($window) must be of type float, string given
short form window "60": TypeError: FixedWindowRateLimiter::__construct(): Argument #2 ($window) must be of type float, string given
token bucket capacity 5.0: TypeError: TokenBucketRateLimiter::__construct(): Argument #3 ($capacity) must be of type int, float given
sliding blocks "2": TypeError: SlidingWindowRateLimiter::__construct(): Argument #4 ($blocks) must be of type int, string given
gcra throttle quantity "1": TypeError: GcraRateLimiter::throttle(): Argument #2 ($quantity) must be of type int, string given
result limit "10": TypeError: RateLimitResult::__construct(): Argument #2 ($limit) must be of type int, string given
result allowed 1: TypeError: RateLimitResult::__construct(): Argument #1 ($allowed) must be of type bool, int given
result retryAfter "2.5": TypeError: RateLimitResult::__construct(): Argument #4 ($retryAfter) must be of type float, string given
result retryAfter 2 (int for float): 2
headers style 1: TypeError: RateLimitResult::headers(): Argument #1 ($style) must be of type string, int given
withDryRun on 1: TypeError: FixedWindowRateLimiter::withDryRun(): Argument #1 ($on) must be of type bool, int given
