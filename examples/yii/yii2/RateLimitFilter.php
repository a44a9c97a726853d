<?php
/**
 * Yii 2 action filter: 10 login attempts per 15 minutes per username+IP on a
 * sliding window (exact log), denied with HTTP 429 and Retry-After; the
 * headers of every decision in the configured style ('x': X-RateLimit-*,
 * 'ietf': RateLimit-Policy / RateLimit of draft-ietf-httpapi-ratelimit-headers-09).
 *
 *   public function behaviors()
 *   {
 *       return ['rateLimit' => ['class' => \app\filters\RateLimitFilter::class, 'only' => ['login'], 'headers' => 'ietf']];
 *   }
 *
 * Redis trouble: with ratelimit.on_error = allow or deny the extension answers
 * by itself; with `throw` (the default) the filter logs the cause and answers
 * 503, so an outage is neither silent nor an open door.
 */

namespace app\filters;

use Yii;
use yii\base\ActionFilter;
use yii\web\ServiceUnavailableHttpException;
use yii\web\TooManyRequestsHttpException;

final class RateLimitFilter extends ActionFilter
{
    public int $limit = 10;
    public float $window = 900.0;
    /** 'x' or 'ietf' */
    public string $headers = 'x';
    /** @var string[] client IPs that are never limited */
    public array $whitelist = [];

    public function beforeAction($action): bool
    {
        $request = Yii::$app->request;
        if (in_array($request->userIP, $this->whitelist, true)) {
            return parent::beforeAction($action);
        }
        // Article style: a DSN from the app's params (null: ratelimit.redis_url).
        $limiter = new \SlidingWindowRateLimiter(Yii::$app->params['rateLimitRedis'] ?? null, 'yii:login', $this->window, $this->limit);
        $id = $request->post('username', '') . '|' . $request->userIP;
        try {
            $result = $limiter->consume($id);
        } catch (\RateLimiterException $e) {
            Yii::error('rate limiter unavailable: ' . $e->getMessage(), __METHOD__);
            throw new ServiceUnavailableHttpException('Service temporarily unavailable.', 0, $e);
        }
        foreach ($result->headers($this->headers) as $name => $value) {
            Yii::$app->response->headers->set($name, (string) $value);
        }
        if (!$result->allowed) {
            throw new TooManyRequestsHttpException('Too many login attempts; retry in ' . ceil($result->retryAfter) . ' s.');
        }
        return parent::beforeAction($action);
    }
}
