<?php
// For use without Composer: require this file, then register
// RateLimit\Laravel\RateLimitServiceProvider in config/app.php. Laravel itself
// must already be autoloadable (Composer's vendor/autoload.php, or Debian's
// /usr/share/php/Illuminate/autoload.php).

spl_autoload_register(static function (string $class): void {
    $prefix = 'RateLimit\\Laravel\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
