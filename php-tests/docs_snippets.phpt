--TEST--
Every PHP snippet of README.md, docs/ and the integrations' READMEs runs as written (against the test server, ids and environment filled in), or, for the class listing of docs/api.md, says what Reflection says; a doc that drifts from the extension fails here
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$root = dirname(__DIR__);
$dir = sys_get_temp_dir() . '/rl-doc-snippets-' . getmypid();
@mkdir($dir);
// Files the snippets name, made for the run: a CA file the TLS examples point at.
$ca = "$dir/ca.pem";
file_put_contents($ca, "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n");
$substitute = ['/etc/ssl/memorystore-ca.pem' => $ca];
// Blocks that need what a test server is not: said here, with the test that runs them instead.
$elsewhere = [
    'new RedisCluster(' => 'a phpredis RedisCluster at the example hosts (cluster_phpredis_object.phpt)',
    'RateLimit\Symfony' => 'Symfony (php-tests/frameworks/symfony_*.phpt)',
    'RateLimitFilter' => 'Yii 1.1 (php-tests/frameworks/yii1_app.phpt)',
    'RateLimit\Yii2' => 'Yii 2 (php-tests/frameworks/yii2_app.phpt)',
    'RateLimit\Yii3' => 'Yii 3 (php-tests/frameworks/yii3_app.phpt)',
];
$prelude = <<<'PHP'
<?php
// What the snippets take as given: a connection, ids, the environment a framework config reads.
$redis = getenv('RL_DOC_URL');
[$userId, $clientId, $apiKey, $pw] = ['doc-user', 'doc-client', 'doc-key', null];
$_SERVER['REMOTE_ADDR'] ??= '192.0.2.1';   // as a web server passes it
function env(string $k, $default = null) { $v = getenv($k); return $v === false ? $default : $v; }
set_error_handler(function ($no, $msg, $file, $line) { throw new ErrorException($msg, 0, $no, $file, $line); });
$result = include $argv[1];
echo "ran\n";
PHP;
file_put_contents("$dir/prelude.php", $prelude);

/** The class listing of docs/api.md against Reflection: every method's parameter names, every readonly property's type. */
function rl_check_listing(string $code): array {
    $problems = [];
    preg_match_all('/^(?:final )?(?:class|interface) (\w+)/m', $code, $heads, PREG_OFFSET_CAPTURE);
    $classAt = fn (int $pos) => array_reduce($heads[1], fn ($c, $h) => $h[1] <= $pos ? $h[0] : $c, null);
    preg_match_all('/function (\w+)\(([^)]*)\)\s*(?::\s*\??\w+)?\s*;/', $code, $methods, PREG_SET_ORDER | PREG_OFFSET_CAPTURE);
    foreach ($methods as $m) {
        $class = $classAt($m[0][1]);
        // "Every limiter class also has withDryRun()": a comment after the listing, said of every class.
        // So are the lock-out methods; withAnchor() and withCalendar() are the fixed window's.
        $classes = match ($m[1][0]) {
            'withDryRun', 'block', 'unblock', 'withLockout' => ['FixedWindowRateLimiter', 'GcraRateLimiter', 'CompoundRateLimiter'],
            'withAnchor', 'withCalendar' => ['FixedWindowRateLimiter'],
            default => [$class],
        };
        preg_match_all('/\$(\w+)/', $m[2][0], $names);
        foreach ($classes as $c) {
            if (!method_exists($c, $m[1][0])) { $problems[] = "$c::{$m[1][0]}() does not exist"; continue; }
            $real = array_map(fn ($p) => $p->getName(), (new ReflectionMethod($c, $m[1][0]))->getParameters());
            if ($real !== $names[1]) $problems[] = "$c::{$m[1][0]}(" . implode(', ', $names[1]) . ") is (" . implode(', ', $real) . ")";
        }
    }
    preg_match_all('/public readonly (\S+) +\$(\w+);/', $code, $props, PREG_SET_ORDER | PREG_OFFSET_CAPTURE);
    foreach ($props as $p) {
        $class = $classAt($p[0][1]);
        $type = property_exists($class, $p[2][0]) ? (string) (new ReflectionProperty($class, $p[2][0]))->getType() : 'missing';
        if ($type !== $p[1][0]) $problems[] = "$class::\${$p[2][0]} is $type, the doc says {$p[1][0]}";
    }
    return $problems;
}

$files = array_merge(["$root/README.md"], glob("$root/docs/*.md"), glob("$root/integrations/*/README.md"));
foreach ($files as $file) {
    preg_match_all('/^```php\n(.*?)^```/ms', file_get_contents($file), $blocks);
    foreach ($blocks[1] as $i => $code) {
        $name = substr($file, strlen($root) + 1) . ' #' . ($i + 1);
        $why = null;
        foreach ($elsewhere as $needle => $reason) if (str_contains($code, $needle)) $why = $reason;
        if (str_contains($code, 'interface RateLimiterInterface {')) {
            $problems = rl_check_listing($code);
            echo "$name: the class listing ", $problems ? "differs from Reflection:\n  " . implode("\n  ", $problems) : 'is what Reflection says', "\n";
            continue;
        }
        $code = strtr($code, $substitute);
        // A config excerpt ("'redis' => [ … ],") is evaluated as the array it is part of.
        if (preg_match("/^'\w+' => \[/", $code)) $code = "return [\n$code];\n";
        // A controller's method ("public function behaviors()", which may call parent::): parsed inside a class that has a parent.
        if (preg_match('/^(\s*\/\/[^\n]*\n)*\s*public function/', $code)) $code = "class RlDocSnippet extends ArrayObject {\n$code}\n";
        if (!str_starts_with($code, '<?php')) $code = "<?php\n$code";
        file_put_contents("$dir/block.php", $code);
        $lint = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -l ' . escapeshellarg("$dir/block.php") . ' 2>&1');
        if (!str_contains($lint, 'No syntax errors')) { echo "$name: does not parse: ", trim($lint), "\n"; continue; }
        if ($why !== null) { echo "$name: parses; runs with $why\n"; continue; }
        $out = shell_exec('RL_DOC_URL=' . escapeshellarg(RL_URL) . ' ' . rl_php_shell(['ratelimit.redis_url' => RL_URL])
            . ' ' . escapeshellarg("$dir/prelude.php") . ' ' . escapeshellarg("$dir/block.php") . ' 2>&1');
        echo "$name: ", str_ends_with($out, "ran\n") ? 'runs' : "FAILS:\n" . trim($out), "\n";
    }
}
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
README.md #1: runs
docs/api.md #1: the class listing is what Reflection says
docs/api.md #2: runs
docs/fewer-round-trips.md #1: runs
docs/fixed-window.md #1: runs
docs/frameworks.md #1: runs
docs/frameworks.md #2: runs
docs/give-back.md #1: runs
docs/in-flight.md #1: runs
docs/leases.md #1: runs
docs/lockout.md #1: runs
docs/operations.md #1: runs
docs/operations.md #2: runs
docs/scale-out.md #1: runs
docs/scale-out.md #2: runs
docs/scale-out.md #3: parses; runs with a phpredis RedisCluster at the example hosts (cluster_phpredis_object.phpt)
docs/scale-out.md #4: runs
integrations/laravel/README.md #1: runs
integrations/symfony/README.md #1: parses; runs with Symfony (php-tests/frameworks/symfony_*.phpt)
integrations/symfony/README.md #2: parses; runs with Symfony (php-tests/frameworks/symfony_*.phpt)
integrations/symfony/README.md #3: parses; runs with Symfony (php-tests/frameworks/symfony_*.phpt)
integrations/yii1/README.md #1: parses; runs with Yii 1.1 (php-tests/frameworks/yii1_app.phpt)
integrations/yii2/README.md #1: parses; runs with Yii 2 (php-tests/frameworks/yii2_app.phpt)
integrations/yii2/README.md #2: parses; runs with Yii 2 (php-tests/frameworks/yii2_app.phpt)
integrations/yii2/README.md #3: parses; runs with Yii 2 (php-tests/frameworks/yii2_app.phpt)
integrations/yii3/README.md #1: runs
integrations/yii3/README.md #2: parses; runs with Yii 3 (php-tests/frameworks/yii3_app.phpt)
