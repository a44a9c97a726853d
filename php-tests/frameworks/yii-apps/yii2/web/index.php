<?php
// A Yii 2 web application (yii\web\Application, JSON responses, a FileCache,
// a FileTarget log) served by php-fpm for yii2_app.phpt. Its pool's env:
// RL_YII_VENDOR (the Composer vendor dir with yiisoft/yii2), RL_ROOT (this
// project), RL_RUNTIME (a temp dir of the test's), RL_LIMIT.
defined('YII_DEBUG') or define('YII_DEBUG', false);
$vendor = getenv('RL_YII_VENDOR');
require "$vendor/autoload.php";
require "$vendor/yiisoft/yii2/Yii.php";
require getenv('RL_ROOT') . '/integrations/yii2/autoload.php';
require dirname(__DIR__) . '/app.php';

$config = [
    'id' => 'ratelimit-yii2',
    'basePath' => dirname(__DIR__),
    'runtimePath' => getenv('RL_RUNTIME'),
    'bootstrap' => ['log'],
    'controllerMap' => ['api' => rlapp\ApiController::class, 'inflight' => rlapp\InFlightController::class],
    'components' => [
        'request' => ['enableCookieValidation' => false, 'enableCsrfValidation' => false],
        'response' => ['format' => yii\web\Response::FORMAT_JSON],
        'cache' => ['class' => yii\caching\FileCache::class],
        'user' => ['identityClass' => rlapp\OurUser::class, 'enableSession' => false],
        'log' => ['targets' => [['class' => yii\log\FileTarget::class, 'levels' => ['error'], 'logVars' => []]]],
    ],
];
(new yii\web\Application($config))->run();
