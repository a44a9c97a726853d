--TEST--
stubs/ratelimit.stub.php declares exactly what Reflection shows of the loaded extension (classes, interfaces, constants, functions, ini, properties with types/readonly/defaults, methods with modifiers, parameters, types, defaults, cloneable)
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/describe.inc';

/** The stub's declarations, read by PHP itself in a process without any extension (-n). */
function stub_side(string $stub): array
{
    $code = 'require ' . var_export(__DIR__ . '/describe.inc', true) . '; echo json_encode(rl_describe_stub(' . var_export($stub, true) . '));';
    $json = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -r ' . escapeshellarg($code) . ' 2>&1');
    $lines = json_decode((string) $json, true);
    if (!is_array($lines)) {
        echo "the stub did not load under php -n:\n$json\n";
        exit(1);
    }
    return $lines;
}

$stub = realpath(__DIR__ . '/../stubs/ratelimit.stub.php');
$ext = rl_describe_extension('ratelimit');
$differences = rl_differences(stub_side($stub), $ext);
echo $differences ? implode("\n", $differences) . "\n" : "the stub and the extension agree\n";

// What was compared, so an empty comparison cannot pass.
$count = fn (string $suffix) => count(array_filter(array_keys($ext), fn ($k) => preg_match($suffix, $k)));
printf("%s\n%d properties, %d methods, %d parameters; ini: %s\n", $ext['classes'],
    $count('/::\$\w+$/'), $count('/\(\)$/'), $count('/\(\) #\d+$/'), $ext['ini']);

echo "-- the comparison sees a changed stub\n";
$tmp = tempnam(sys_get_temp_dir(), 'rlstub');
file_put_contents($tmp, strtr(file_get_contents($stub), [
    'public readonly bool $allowed;' => 'public bool $allowed;',
    'float $delay = 0.0,' => 'float $delay = 1.0,',
    'final protected function __clone()' => 'public function __clone()',
]));
echo implode("\n", array_filter(rl_differences(stub_side($tmp), $ext), fn ($l) => str_contains($l, 'RateLimitResult::$allowed')
    || str_contains($l, '__construct() #5') || str_contains($l, 'FixedWindowRateLimiter cloneable'))), "\n";
unlink($tmp);
?>
--EXPECT--
the stub and the extension agree
CompoundRateLimiter, ConcurrencyLimiter, ConcurrencyPermit, FixedWindowRateLimiter, GcraRateLimiter, LeakyBucketRateLimiter, RateLimitMetrics, RateLimitResult, RateLimiterException, RateLimiterInterface, SlidingWindowRateLimiter, TokenBucketRateLimiter
17 properties, 124 methods, 189 parameters; ini: ratelimit.block_cache, ratelimit.block_cache_size, ratelimit.connect_timeout, ratelimit.dry_run, ratelimit.key_prefix, ratelimit.local_share, ratelimit.max_connections, ratelimit.metrics, ratelimit.multiplex, ratelimit.on_error, ratelimit.redis_url, ratelimit.retry_interval, ratelimit.server_module, ratelimit.timeout
-- the comparison sees a changed stub
- stub:      FixedWindowRateLimiter cloneable: true
+ extension: FixedWindowRateLimiter cloneable: false
- stub:      RateLimitResult::$allowed: public bool (no default)
+ extension: RateLimitResult::$allowed: public readonly bool (no default)
- stub:      RateLimitResult::__construct() #5: float $delay = 1.0
+ extension: RateLimitResult::__construct() #5: float $delay = 0.0
