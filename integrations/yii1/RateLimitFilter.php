<?php
/**
 * Yii 1.1 filter: at most $limit requests per $window seconds per client IP
 * (sliding window, exact under concurrency: one Lua script per request),
 * with X-Rate-Limit-Limit / X-Rate-Limit-Remaining / X-Rate-Limit-Reset on
 * every response, Retry-After and HTTP 429 when over, and a whitelist of
 * IPs that are never limited.
 *
 * Copy this file to protected/extensions/ratelimit/ (or require it); in a controller:
 *   public function filters()
 *   {
 *       return array(
 *           array('ext.ratelimit.RateLimitFilter + index, view',
 *                 'limit' => 100, 'window' => 60, 'keyPrefix' => 'yii:api',
 *                 'whitelist' => array('127.0.0.1')),
 *       );
 *   }
 * Give each filter with its own limit its own keyPrefix: one counter per
 * (keyPrefix, client IP). The Redis server: the filter's 'connection', else
 * 'rateLimitRedis' in the application params (a DSN such as
 * 'redis://10.0.0.5:6379/2' or a phpredis-style array), else ratelimit.redis_url.
 *
 * Redis trouble: with ratelimit.on_error = allow, deny or local in php.ini the
 * extension answers by itself (local: decided in this process for its share
 * of the limit, an answer like any other) and no exception reaches this filter; with
 * `throw` (the default) the request ends with 503 and the cause is logged,
 * so an outage is neither silent nor an open door.
 */
class RateLimitFilter extends CFilter
{
    public $limit = 100;
    public $window = 60;
    /** @var string[] client IPs that are never limited */
    public $whitelist = array();
    /** @var string the limiter's key prefix; one key per prefix and IP */
    public $keyPrefix = 'yii:api';
    /** @var mixed any connection the extension takes; null: the 'rateLimitRedis' param, else ratelimit.redis_url */
    public $connection = null;

    protected function preFilter($filterChain)
    {
        $ip = Yii::app()->request->userHostAddress;
        if (in_array($ip, $this->whitelist, true)) {
            return true;
        }

        // Built per request (cheap: the connection itself is pooled inside the extension).
        $params = Yii::app()->params;
        $limiter = new SlidingWindowRateLimiter(
            $this->connection !== null ? $this->connection : (isset($params['rateLimitRedis']) ? $params['rateLimitRedis'] : null),
            $this->keyPrefix,
            (float) $this->window,
            (int) $this->limit
        );
        try {
            $result = $limiter->consume((string) $ip);
        } catch (RateLimiterException $e) {
            Yii::log('rate limiter unavailable: ' . $e->getMessage(), CLogger::LEVEL_ERROR, 'ext.ratelimit.RateLimitFilter');
            throw new CHttpException(503, 'Service temporarily unavailable.');
        }

        // The article's header names (X-Rate-Limit-*), from the extension's X-RateLimit-* fields.
        foreach ($result->headers() as $name => $value) {
            header(str_replace('X-RateLimit-', 'X-Rate-Limit-', $name) . ': ' . $value);
        }
        if (!$result->allowed) {
            throw new CHttpException(429, 'Rate limit exceeded; retry in ' . (int) ceil($result->retryAfter) . ' s.');
        }
        return true;
    }
}
