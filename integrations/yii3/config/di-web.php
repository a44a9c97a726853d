<?php

declare(strict_types=1);

use RateLimit\Yii3\ExtensionCounter;
use Yiisoft\Yii\RateLimiter\CounterInterface;

/**
 * ratelimit/yii3's web definitions (yiisoft/config merges them into the app's
 * di-web group; without yiisoft/config, merge this array into the container's
 * definitions): LimitRequestsMiddleware, autowired, gets ExtensionCounter.
 * Put RateLimit\Yii3\ServiceUnavailableMiddleware before it in the stack.
 *
 * @var array $params
 */
return [
    CounterInterface::class => [
        'class' => ExtensionCounter::class,
        '__construct()' => [
            'limit' => $params['ratelimit/yii3']['limit'],
            'periodInSeconds' => $params['ratelimit/yii3']['periodInSeconds'],
            'connection' => $params['ratelimit/yii3']['connection'],
            'keyPrefix' => $params['ratelimit/yii3']['keyPrefix'],
        ],
    ],
];
