<?php
// Actions limited by RateLimitFilter: 'limited' (50 per hour per IP), 'other'
// (a key prefix of its own), 'listed' (this client's IP whitelisted).
class ApiController extends CController
{
    public function filters()
    {
        return [
            ['ratelimit.RateLimitFilter + limited', 'limit' => 50, 'window' => 3600, 'keyPrefix' => 'yii1:limited'],
            ['ratelimit.RateLimitFilter + other', 'limit' => 50, 'window' => 3600, 'keyPrefix' => 'yii1:other'],
            ['ratelimit.RateLimitFilter + listed', 'limit' => 1, 'window' => 3600, 'whitelist' => ['127.0.0.1']],
        ];
    }

    public function actionLimited()
    {
        echo 'ok';
    }

    public function actionOther()
    {
        echo 'ok';
    }

    public function actionListed()
    {
        echo 'ok';
    }
}
