<?php
// For use without Composer: require this file after Yii 2's Yii.php
// (vendor/yiisoft/yii2/Yii.php), which autoloads Yii's own classes.

spl_autoload_register(static function (string $class): void {
    $prefix = 'RateLimit\\Yii2\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
