<?php
// The same stack with Yii's own Counter (GCRA in PHP) on a FileCache, as yiisoft/app stores it.
use Yiisoft\Cache\File\FileCache;
use Yiisoft\Yii\RateLimiter\Counter;
use Yiisoft\Yii\RateLimiter\Storage\SimpleCacheStorage;

$counter = static fn () => new Counter(new SimpleCacheStorage(new FileCache(getenv('RL_RUNTIME') . '/cache')), (int) getenv('RL_LIMIT'), 3600);
require dirname(__DIR__) . '/app.php';
