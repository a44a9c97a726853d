<?php
// The Yii 2 test application's classes: a controller whose actions are
// limited by the drop-in (ours, other; rest: for the identity a bearer token
// logged in) and by Yii's own RateLimiter (stock), each for the identity
// named by the X-Client-ID header (rest: the token).

namespace rlapp;

use Yii;
use yii\base\BaseObject;
use yii\filters\RateLimitInterface;
use yii\web\Controller;
use yii\web\IdentityInterface;

/** Shared by both identities: the id, and the policy: RL_LIMIT per RL_WINDOW seconds. */
abstract class AppUser extends BaseObject implements IdentityInterface, RateLimitInterface
{
    public $id;

    public static function fromRequest(): static
    {
        return new static(['id' => Yii::$app->request->headers->get('X-Client-ID', 'anonymous')]);
    }

    public function getRateLimit($request, $action)
    {
        return [(int) getenv('RL_LIMIT'), (int) getenv('RL_WINDOW')];
    }

    public static function findIdentity($id)
    {
        return new static(['id' => $id]);
    }

    /** A bearer token is the identity's id (HttpBearerAuth). */
    public static function findIdentityByAccessToken($token, $type = null)
    {
        return new static(['id' => $token]);
    }

    public function getId()
    {
        return $this->id;
    }

    public function getAuthKey()
    {
        return null;
    }

    public function validateAuthKey($authKey)
    {
        return false;
    }
}

/** For the drop-in: no allowance storage. */
final class OurUser extends AppUser
{
    use \RateLimit\Yii2\NoAllowanceStorage;
}

/** For Yii's own RateLimiter: the allowance in the app's cache, as Yii's guide stores it. */
final class StockUser extends AppUser
{
    public function loadAllowance($request, $action)
    {
        return Yii::$app->cache->get('allowance:' . $this->id) ?: [(int) getenv('RL_LIMIT'), time()];
    }

    public function saveAllowance($request, $action, $allowance, $timestamp)
    {
        Yii::$app->cache->set('allowance:' . $this->id, [$allowance, $timestamp]);
    }
}

/** Who examples/yii/yii2/README.md limits on login: not an identity, so the bucket comes from identityKey. */
final class LoginAttempt implements RateLimitInterface
{
    use \RateLimit\Yii2\NoAllowanceStorage;

    public function getRateLimit($request, $action)
    {
        return [2, 900];
    }
}

final class ApiController extends Controller
{
    public function behaviors()
    {
        return [
            // A REST controller's usual pair (yii\rest\Controller's): the identity
            // from a bearer token, then the limiter on Yii::$app->user's identity.
            'authenticator' => [
                'class' => \yii\filters\auth\HttpBearerAuth::class,
                'only' => ['rest'],
            ],
            'rateLimiter' => [
                'class' => \RateLimit\Yii2\RateLimiter::class,
                'only' => ['rest'],
                'keyPrefix' => 'yii2-rest',
            ],
            // The drop-in, configured as Yii's own is.
            'ours' => [
                'class' => \RateLimit\Yii2\RateLimiter::class,
                'only' => ['ours'],
                'user' => fn () => OurUser::fromRequest(),
                'errorMessage' => 'Slow down.',
            ],
            // A second drop-in with a key prefix of its own: its buckets are not ours'.
            'other' => [
                'class' => \RateLimit\Yii2\RateLimiter::class,
                'only' => ['other'],
                'keyPrefix' => 'yii2-other',
                'enableRateLimitHeaders' => false,
                'user' => fn () => OurUser::fromRequest(),
            ],
            // examples/yii/yii2/README.md's login limit (the username from the query here, from POST there).
            'loginLimit' => [
                'class' => \RateLimit\Yii2\RateLimiter::class,
                'only' => ['login'],
                'keyPrefix' => 'yii:login',
                'user' => fn () => new LoginAttempt(),
                'identityKey' => fn ($user, $request) => $request->get('username', '') . '|' . $request->userIP,
                'errorMessage' => 'Too many login attempts.',
            ],
            'stock' => [
                'class' => \yii\filters\RateLimiter::class,
                'only' => ['stock'],
                'user' => fn () => StockUser::fromRequest(),
            ],
        ];
    }

    public function actionOurs()
    {
        return 'ok';
    }

    public function actionOther()
    {
        return 'ok';
    }

    public function actionStock()
    {
        return 'ok';
    }

    public function actionLogin()
    {
        return 'ok';
    }

    public function actionRest()
    {
        return 'ok';
    }

    public function actionFree()
    {
        return 'ok';
    }
}

/** yii2_in_flight.phpt: actions under RateLimit\Yii2\ConcurrencyFilter (2 at once; wait: up to 5 s for a slot). */
final class InFlightController extends Controller
{
    public function behaviors()
    {
        $common = ['class' => \RateLimit\Yii2\ConcurrencyFilter::class, 'keyPrefix' => getenv('RL_INFLIGHT_PREFIX') ?: 'yii2-in-flight', 'max' => 2, 'ttl' => 5,
            'id' => fn () => 'work'];
        return [
            'now' => $common + ['only' => ['now', 'fail']],
            'wait' => $common + ['only' => ['wait'], 'maxWait' => 5, 'errorMessage' => 'Still busy.'],
        ];
    }

    /** Holds its slot ?ms milliseconds; says how many the server counted inside. */
    private function work(): array
    {
        $inside = (new \ConcurrencyLimiter(null, getenv('RL_INFLIGHT_PREFIX') ?: 'yii2-in-flight', 2, 5))->inFlight('work');
        usleep(1000 * (int) Yii::$app->request->get('ms', 0));
        return ['inside' => $inside];
    }

    public function actionNow()
    {
        return $this->work();
    }

    public function actionWait()
    {
        return $this->work();
    }

    public function actionFail()
    {
        $this->work();
        undefined_function();
    }
}
