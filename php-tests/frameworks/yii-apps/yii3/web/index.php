<?php
// The route limited by RateLimit\Yii3\ExtensionCounter, wired by ratelimit/yii3's DI config.
require dirname(__DIR__) . '/app.php';
