--TEST--
Framework examples and integrations parse (php -l), their vendor/ dirs (frameworks laid out for the tests) left out
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
$root = dirname(__DIR__, 2);
$files = [];
foreach (['examples/yii', 'examples/laravel', 'integrations'] as $dir) {
    $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator("$root/$dir", FilesystemIterator::SKIP_DOTS));
    foreach ($it as $f) {
        if ($f->getExtension() === 'php' && !str_contains($f->getPathname(), '/vendor/')) {
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
ok  integrations/laravel/autoload.php
ok  integrations/laravel/src/ConnectionSettings.php
ok  integrations/laravel/src/ExtensionRateLimiter.php
ok  integrations/laravel/src/FunnelBuilder.php
ok  integrations/laravel/src/FunnelRedisManager.php
ok  integrations/laravel/src/LimitSet.php
ok  integrations/laravel/src/RateLimitServiceProvider.php
ok  integrations/laravel/src/RedisTarget.php
ok  integrations/laravel/src/StepAside.php
ok  integrations/laravel/src/ThrottleRequests.php
ok  integrations/laravel/src/TlsSettings.php
ok  integrations/symfony/autoload.php
ok  integrations/symfony/src/ConcurrencyStore.php
ok  integrations/symfony/src/DependencyInjection/Configuration.php
ok  integrations/symfony/src/DependencyInjection/ExtensionLimitersPass.php
ok  integrations/symfony/src/DependencyInjection/RateLimitExtension.php
ok  integrations/symfony/src/ExtensionCompoundRateLimiterFactory.php
ok  integrations/symfony/src/ExtensionLimiter.php
ok  integrations/symfony/src/ExtensionRateLimiterFactory.php
ok  integrations/symfony/src/InstalledSymfony.php
ok  integrations/symfony/src/LimiterFactory.php
ok  integrations/symfony/src/RateLimitBundle.php
ok  integrations/yii1/RateLimitFilter.php
ok  integrations/yii2/autoload.php
ok  integrations/yii2/src/ConcurrencyFilter.php
ok  integrations/yii2/src/NoAllowanceStorage.php
ok  integrations/yii2/src/RateLimiter.php
ok  integrations/yii3/autoload.php
ok  integrations/yii3/config/di-web.php
ok  integrations/yii3/config/params.php
ok  integrations/yii3/src/ExtensionCounter.php
ok  integrations/yii3/src/ServiceUnavailableMiddleware.php
