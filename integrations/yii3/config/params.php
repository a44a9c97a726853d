<?php

declare(strict_types=1);

// ratelimit/yii3's parameters (yiisoft/config merges them into $params); override in the app's config/params.php.
return [
    'ratelimit/yii3' => [
        'limit' => 60,              // hits per period, per fingerprint of LimitRequestsMiddleware's policy
        'periodInSeconds' => 60,
        'connection' => null,       // any connection the extension takes; null: ratelimit.redis_url
        'keyPrefix' => 'rate-limiter',
    ],
];
