<?php
// For use without Composer: require this file. Symfony's RateLimiter and
// OptionsResolver must already be autoloadable (Composer's vendor/autoload.php,
// or Debian's /usr/share/php/Symfony/Component/RateLimiter/autoload.php).

spl_autoload_register(static function (string $class): void {
    $prefix = 'RateLimit\\Symfony\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
