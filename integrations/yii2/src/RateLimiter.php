<?php

namespace RateLimit\Yii2;

use Yii;
use yii\web\HttpException;
use yii\web\IdentityInterface;
use yii\web\TooManyRequestsHttpException;

/**
 * A drop-in for yii\filters\RateLimiter: the same behaviour config (user,
 * enableRateLimitHeaders, errorMessage, except/only, request, response), the
 * policy from the identity's getRateLimit() ([$limit, $window]), the same
 * X-Rate-Limit-Limit/-Remaining/-Reset headers and 429 message; swap the class
 * name in behaviors(). Only the decision differs: Yii's loads the allowance,
 * decides in PHP on time() and saves it, so concurrent requests all read the
 * same allowance and all pass; here the extension decides in one atomic call
 * on Redis, a token bucket of capacity $limit refilling $limit per $window
 * (Yii's algorithm, with continuous refill), so the identity stores nothing:
 * use NoAllowanceStorage for the two methods RateLimitInterface still names.
 *
 * Differences from Yii's (docs/frameworks.md, "Yii"): the refill is
 * continuous (Yii's drops the fraction of a token at each request); a 429 also
 * carries Retry-After; X-Rate-Limit-Reset is rounded up, and on a 429 says when
 * the bucket is full again (Yii's sends the whole window); when Redis fails,
 * ratelimit.on_error answers (allow, deny, local: this process's share of the
 * limit, with the usual headers) or, with throw, the request gets a
 * 503 and the cause is logged (Yii::error, category RateLimit\Yii2\RateLimiter).
 */
class RateLimiter extends \yii\filters\RateLimiter
{
    /** @var mixed the Redis connection, any form the extension takes (DSN, array, phpredis object); null: ratelimit.redis_url */
    public $connection = null;
    /** @var string the Redis key prefix: one bucket per (prefix, identity); give two filters two prefixes to keep their buckets apart */
    public $keyPrefix = 'yii2-rate-limit';
    /**
     * @var callable|null fn ($user, $request, $action): string, the bucket's id;
     * null: the identity's getId() (an IdentityInterface)
     */
    public $identityKey = null;
    /** @var string the message of the 503 when Redis fails and ratelimit.on_error is throw */
    public $unavailableMessage = 'The service is temporarily unavailable.';

    /**
     * Consumes one token of the identity's bucket; throws TooManyRequestsHttpException
     * with $errorMessage when it is empty, HttpException(503) when Redis fails.
     */
    public function checkRateLimit($user, $request, $response, $action)
    {
        [$limit, $window] = $user->getRateLimit($request, $action);
        try {
            $result = (new \TokenBucketRateLimiter($this->connection, $this->keyPrefix, (int) $limit, $limit / $window))
                ->consume($this->bucketId($user, $request, $action));
        } catch (\RateLimiterException $e) {
            Yii::error('rate limiter unavailable: ' . $e->getMessage(), __METHOD__);
            // Yii 2 has no ServiceUnavailableHttpException: HttpException with the status.
            // Not chained to $e: Yii's JSON errors show a previous exception to the
            // client (as a 500); the cause is in the log.
            throw new HttpException(503, $this->unavailableMessage);
        }
        // The extension's X-RateLimit-Reset and Retry-After, rounded up as it rounds them.
        $headers = $result->headers();
        $this->addRateLimitHeaders($response, $result->limit, $result->remaining, (int) $headers['X-RateLimit-Reset']);
        if (!$result->allowed) {
            $response->getHeaders()->set('Retry-After', $headers['Retry-After']);
            throw new TooManyRequestsHttpException($this->errorMessage);
        }
    }

    private function bucketId($user, $request, $action): string
    {
        if ($this->identityKey !== null) {
            return (string) call_user_func($this->identityKey, $user, $request, $action);
        }
        if ($user instanceof IdentityInterface) {
            return (string) $user->getId();
        }
        throw new \yii\base\InvalidConfigException(static::class . ': the user is not an IdentityInterface; set identityKey');
    }
}
