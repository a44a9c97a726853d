<?php
// A Yii 1.1 web application (CWebApplication, a CFileLogRoute for errors)
// served by php-fpm for yii1_app.phpt. Its pool's env: RL_YII_VENDOR (the
// Composer vendor dir with yiisoft/yii), RL_ROOT, RL_RUNTIME.
defined('YII_DEBUG') or define('YII_DEBUG', false);
require getenv('RL_YII_VENDOR') . '/yiisoft/yii/framework/yii.php';

Yii::createWebApplication([
    'name' => 'ratelimit-yii1',
    'basePath' => dirname(__DIR__) . '/protected',
    'runtimePath' => getenv('RL_RUNTIME'),
    // The filter where an app keeps an extension: here, the integration itself.
    'aliases' => ['ratelimit' => getenv('RL_ROOT') . '/integrations/yii1'],
    'preload' => ['log'],
    'components' => [
        'log' => ['class' => 'CLogRouter', 'routes' => [['class' => 'CFileLogRoute', 'levels' => 'error']]],
    ],
])->run();
