<?php
// The Laravel test app (laravel_app.inc) under php-fpm, for
// laravel_funnel_fpm.phpt. GET /index.php?p=P&name=N&end=E[&stock=1][&limit=4][&release=30]
// runs, in a route of the app, Redis::funnel(N)->limit(limit)->releaseAfter(release)
// ->block(8)->then(...) on the drop-in (RateLimitServiceProvider registered)
// or on stock Laravel (stock=1); inside, rl_inflight_inside(P, E) (inflight.inc),
// or rl_inflight_hold(P) for E = hold. Its pool's env: RATELIMIT_TEST_PORT,
// RL_LARAVEL_DIR (the app's dir, made by the test).
require dirname(__DIR__, 2) . '/laravel_app.inc';
require dirname(__DIR__, 2) . '/inflight.inc';

use Illuminate\Http\Request;
use Illuminate\Support\Facades\Redis;

$q = $_GET;
$kernel = rl_laravel_app(($q['stock'] ?? '') !== '1', $q['p']);
$kernel->getApplication()['router']->get('/', fn () => Redis::funnel($q['name'])
    ->limit((int) ($q['limit'] ?? 4))->releaseAfter(($q['stock'] ?? '') === '1' ? (int) ($q['release'] ?? 30) : (float) ($q['release'] ?? 30))->block(8)
    ->then(fn () => $q['end'] === 'hold' ? rl_inflight_hold($q['p']) : rl_inflight_inside($q['p'], $q['end']), fn () => response('no slot within block()', 503)));
$request = Request::capture();
$response = $kernel->handle($request);
$response->send();
$kernel->terminate($request, $response);
