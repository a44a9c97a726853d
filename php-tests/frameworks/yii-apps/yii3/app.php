<?php
// The Yii 3 test application: yiisoft/yii-http's Application over a
// MiddlewareDispatcher whose middleware yiisoft/di makes from definitions,
// as a Yii 3 app's config does (ratelimit/yii3's config/di-web.php merged
// in), PSR-7 by httpsoft (Yii 3's app template's). Served by php-fpm for
// yii3_app.phpt; its pool's env: RL_YII_VENDOR, RL_ROOT, RL_RUNTIME, RL_LIMIT.
// $counter: null for ExtensionCounter (the DI config), or a definition of
// CounterInterface that replaces it (web/stock.php: Yii's own Counter).

use HttpSoft\Message\ResponseFactory;
use HttpSoft\ServerRequest\ServerRequestCreator;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\ResponseInterface;
use RateLimit\Yii3\ServiceUnavailableMiddleware;
use Yiisoft\Di\Container;
use Yiisoft\Di\ContainerConfig;
use Yiisoft\Middleware\Dispatcher\MiddlewareDispatcher;
use Yiisoft\Middleware\Dispatcher\MiddlewareFactory;
use Yiisoft\Yii\Http\Application;
use Yiisoft\Yii\RateLimiter\CounterInterface;
use Yiisoft\Yii\RateLimiter\LimitRequestsMiddleware;

require getenv('RL_YII_VENDOR') . '/autoload.php';
require getenv('RL_ROOT') . '/integrations/yii3/autoload.php';

$params = require getenv('RL_ROOT') . '/integrations/yii3/config/params.php';
$params['ratelimit/yii3']['limit'] = (int) getenv('RL_LIMIT');
$params['ratelimit/yii3']['periodInSeconds'] = 3600;
$params['ratelimit/yii3']['keyPrefix'] = 'yii3-limit' . getenv('RL_LIMIT');
$definitions = [ResponseFactoryInterface::class => ResponseFactory::class] + (require getenv('RL_ROOT') . '/integrations/yii3/config/di-web.php');
if (isset($counter)) {
    $definitions[CounterInterface::class] = $counter;
}
$container = new Container(ContainerConfig::create()->withDefinitions($definitions));

$dispatcher = (new MiddlewareDispatcher(new MiddlewareFactory($container)))->withMiddlewares([
    ServiceUnavailableMiddleware::class,
    LimitRequestsMiddleware::class,
    static function (ResponseFactoryInterface $factory): ResponseInterface {
        $response = $factory->createResponse(200);
        $response->getBody()->write('ok');
        return $response;
    },
]);
$app = new Application($dispatcher);
$app->start();
$response = $app->handle(ServerRequestCreator::create());
// What yii-runner-http's SapiEmitter does, in short.
http_response_code($response->getStatusCode());
foreach ($response->getHeaders() as $name => $values) {
    foreach ($values as $value) header("$name: $value", false);
}
echo $response->getBody();
$app->afterEmit($response);
$app->shutdown();
