<?php
// For use without Composer: require this file after Composer's autoloader
// (yiisoft/rate-limiter and the PSR interfaces must be autoloadable).

spl_autoload_register(static function (string $class): void {
    $prefix = 'RateLimit\\Yii3\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
