<?php

namespace RateLimit\Yii2;

use Yii;
use yii\base\ActionFilter;
use yii\web\HttpException;
use yii\web\TooManyRequestsHttpException;

/**
 * An in-flight limit for Yii 2 actions: at most $max requests of one id
 * (the action's unique id, or what $id returns) inside at once, on the
 * extension's ConcurrencyLimiter. A request that finds no free slot within
 * $maxWait seconds gets a 429 with $errorMessage; when Redis fails it gets a
 * 503 and the cause is logged (unless ratelimit.on_error answers).
 *
 *     public function behaviors()
 *     {
 *         return ['exports' => ['class' => \RateLimit\Yii2\ConcurrencyFilter::class,
 *             'only' => ['export'], 'max' => 4, 'ttl' => 120, 'maxWait' => 2]];
 *     }
 *
 * The slot is freed after the action (afterAction), and in any case at the
 * end of the request whatever ended it (an exception, a fatal error, exit(),
 * max_execution_time); a worker killed outright loses it after $ttl seconds.
 */
class ConcurrencyFilter extends ActionFilter
{
    /** @var mixed the Redis connection, any form the extension takes; null: ratelimit.redis_url */
    public $connection = null;
    /** @var string the Redis key prefix of the limit */
    public $keyPrefix = 'yii2-in-flight';
    /** @var int requests of one id inside at once */
    public $max = 4;
    /** @var float seconds a slot is held at most when its worker dies without ending its request */
    public $ttl = 60.0;
    /** @var float seconds to wait for a slot (woken when one frees) */
    public $maxWait = 0.0;
    /** @var callable|null fn ($action): string, the limit's id; null: the action's unique id */
    public $id = null;
    /** @var string the message of the 429 */
    public $errorMessage = 'Too many requests in progress.';
    /** @var string the message of the 503 when Redis fails and ratelimit.on_error is throw */
    public $unavailableMessage = 'The service is temporarily unavailable.';

    private ?\ConcurrencyPermit $permit = null;

    public function beforeAction($action)
    {
        $id = $this->id !== null ? (string) call_user_func($this->id, $action) : $action->getUniqueId();
        try {
            $this->permit = (new \ConcurrencyLimiter($this->connection, $this->keyPrefix, (int) $this->max, (float) $this->ttl))
                ->acquire($id, (float) $this->maxWait);
        } catch (\RateLimiterException $e) {
            Yii::error('in-flight limiter unavailable: ' . $e->getMessage(), __METHOD__);
            throw new HttpException(503, $this->unavailableMessage);
        }
        if ($this->permit === null) {
            throw new TooManyRequestsHttpException($this->errorMessage);
        }
        return true;
    }

    public function afterAction($action, $result)
    {
        $this->permit?->release();
        $this->permit = null;
        return $result;
    }
}
