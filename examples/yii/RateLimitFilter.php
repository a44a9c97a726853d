<?php
// Yii 2 action filter: 10 login attempts per 15 minutes per username+IP on a
// sliding window (exact log), denied with HTTP 429 and Retry-After.
//   public function behaviors() { return ['rateLimit' => ['class' => RateLimitFilter::class, 'only' => ['login']]]; }

namespace app\filters;

use Yii;
use yii\base\ActionFilter;
use yii\web\TooManyRequestsHttpException;

final class RateLimitFilter extends ActionFilter
{
    public int $limit = 10;
    public float $window = 900.0;

    public function beforeAction($action): bool
    {
        // Article style: a DSN from the app's params (null: ratelimit.redis_url).
        $limiter = new \SlidingWindowRateLimiter(Yii::$app->params['rateLimitRedis'] ?? null, 'yii:login', $this->window, $this->limit);
        $id = Yii::$app->request->post('username', '') . '|' . Yii::$app->request->userIP;
        $result = $limiter->consume($id);
        foreach ($result->headers() as $name => $value) {
            Yii::$app->response->headers->set($name, (string) $value);
        }
        if (!$result->allowed) {
            throw new TooManyRequestsHttpException('Too many login attempts; retry in ' . ceil($result->retryAfter) . ' s.');
        }
        return parent::beforeAction($action);
    }
}
