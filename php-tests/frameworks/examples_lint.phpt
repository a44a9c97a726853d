--TEST--
Framework examples and integrations parse (php -l): Yii is not packaged in Debian, so its filters are linted, not run
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
$root = dirname(__DIR__, 2);
$files = [];
foreach (['examples/yii', 'examples/laravel', 'integrations'] as $dir) {
    $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator("$root/$dir", FilesystemIterator::SKIP_DOTS));
    foreach ($it as $f) {
        if ($f->getExtension() === 'php') {
            $files[] = substr($f->getPathname(), strlen($root) + 1);
        }
    }
}
sort($files);
foreach ($files as $file) {
    exec(escapeshellarg(PHP_BINARY) . ' -n -l ' . escapeshellarg("$root/$file") . ' 2>&1', $out, $rc);
    echo $rc === 0 ? 'ok' : 'FAILS: ' . implode(' ', $out), "  $file\n";
    $out = [];
}
?>
--EXPECT--
ok  examples/laravel/RateLimitByUser.php
ok  examples/yii/yii1/RateLimitFilter.php
ok  examples/yii/yii2/RateLimitFilter.php
ok  integrations/laravel/autoload.php
ok  integrations/laravel/src/ConnectionSettings.php
ok  integrations/laravel/src/ExtensionRateLimiter.php
ok  integrations/laravel/src/LimitSet.php
ok  integrations/laravel/src/RateLimitServiceProvider.php
ok  integrations/laravel/src/RedisTarget.php
ok  integrations/laravel/src/StepAside.php
ok  integrations/laravel/src/ThrottleRequests.php
ok  integrations/laravel/src/TlsSettings.php
ok  integrations/symfony/autoload.php
ok  integrations/symfony/src/DependencyInjection/Configuration.php
ok  integrations/symfony/src/DependencyInjection/ExtensionLimitersPass.php
ok  integrations/symfony/src/DependencyInjection/RateLimitExtension.php
ok  integrations/symfony/src/ExtensionCompoundRateLimiterFactory.php
ok  integrations/symfony/src/ExtensionLimiter.php
ok  integrations/symfony/src/ExtensionRateLimiterFactory.php
ok  integrations/symfony/src/InstalledSymfony.php
ok  integrations/symfony/src/LimiterFactory.php
ok  integrations/symfony/src/RateLimitBundle.php
