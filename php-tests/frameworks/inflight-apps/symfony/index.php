<?php
// The Symfony test app (symfony_app.inc) under php-fpm, for
// symfony_semaphore_fpm.phpt: its one route is RlSemaphoreController. The
// test compiled its container; the pool's env: RATELIMIT_TEST_PORT,
// RL_SYMFONY_DIR (the app's dir), RL_SYMFONY_ENV (the environment compiled).
require dirname(__DIR__, 2) . '/symfony_app.inc';
require '/usr/share/php/Symfony/Component/Semaphore/autoload.php';
require dirname(__DIR__, 2) . '/inflight.inc';

use Symfony\Component\HttpFoundation\Request;

$kernel = rl_symfony_semaphore_kernel(getenv('RL_SYMFONY_ENV'));
$request = Request::createFromGlobals();
$response = $kernel->handle($request);
$response->send();
$kernel->terminate($request, $response);
