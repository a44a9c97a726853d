<?php

namespace RateLimit\Yii2;

/**
 * For an identity limited by RateLimit\Yii2\RateLimiter: the two methods of
 * yii\filters\RateLimitInterface that only Yii's own RateLimiter calls (the
 * extension keeps the bucket in Redis). The identity implements getRateLimit().
 *
 *   class User extends ActiveRecord implements IdentityInterface, RateLimitInterface
 *   {
 *       use \RateLimit\Yii2\NoAllowanceStorage;
 *       public function getRateLimit($request, $action) { return [100, 600]; }
 *   }
 */
trait NoAllowanceStorage
{
    public function loadAllowance($request, $action)
    {
        throw new \LogicException(static::class . ' keeps no allowance: limit it with RateLimit\Yii2\RateLimiter, not yii\filters\RateLimiter');
    }

    public function saveAllowance($request, $action, $allowance, $timestamp)
    {
        throw new \LogicException(static::class . ' keeps no allowance: limit it with RateLimit\Yii2\RateLimiter, not yii\filters\RateLimiter');
    }
}
