--TEST--
Yii 2 app under php-fpm + nginx: RateLimit\Yii2\RateLimiter (the drop-in for yii\filters\RateLimiter) gives Yii's headers and 429 with Retry-After, accepts exactly the limit of 200 requests from 8 concurrent clients, keeps its key prefixes apart, limits a non-identity by identityKey, answers 503 with the cause logged when Redis is down (200 with on_error=allow, 429 with deny), recovers; Yii's own RateLimiter beside it on the same app, its overshoot reported
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../config.inc';
require __DIR__ . '/yii.inc';
rl_yii_skipif(2);
?>
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/yii.inc';

// A private server: stopped and started again below. 50 per hour: no token
// comes back while a race lasts (one every 72 s).
$redis = rl_start_redis();
$url = "redis://127.0.0.1:{$redis['port']}";
$env = ['RL_LIMIT' => '50', 'RL_WINDOW' => '3600'];
$app = rl_yii_serve(2, ['ratelimit.redis_url' => $url], $env);
$get = fn (string $action, string $client, array $names) => rl_yii_show("{$app['url']}/index.php?r=api/$action", $names, ['X-Client-ID' => $client]);
$rate = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'];

echo "drop-in, first request: ", $get('ours', 'alice', $rate), "\n";
echo "stock, first request:   ", $get('stock', 'alice', $rate), "\n";
echo "not in only:            ", $get('free', 'alice', $rate), "\n";
// The user component's identity, logged in by HttpBearerAuth: the drop-in with no 'user' set.
$rest = "{$app['url']}/index.php?r=api/rest";
echo "REST, bearer token:     ", rl_yii_show($rest, $rate, ['Authorization' => 'Bearer carol']), "\n";
echo "REST, again:            ", rl_yii_show($rest, $rate, ['Authorization' => 'Bearer carol']), "\n";
echo "REST, no token:         ", rl_yii_show($rest, $rate), "\n";
// Not an identity: the bucket named by identityKey (username|IP), 2 per 15 minutes.
foreach (['dave', 'dave', 'dave', 'erin'] as $who) {
    echo "login as $who: ", rl_yii_show("{$app['url']}/index.php?r=api/login&username=$who", ['X-Rate-Limit-Remaining']), "\n";
}

$t = microtime(true);
$ours = rl_yii_race("{$app['url']}/index.php?r=api/ours", 200, ['X-Client-ID' => 'race']);
printf("drop-in, 200 requests by 8 clients: %s\n", json_encode($ours));
$oursMs = (microtime(true) - $t) * 1000;
echo "drop-in, after the race: ", $get('ours', 'race', [...$rate, 'Retry-After']), "\n";
echo "another key prefix, same identity: ", $get('other', 'race', $rate), "\n";

$t = microtime(true);
$stock = rl_yii_race("{$app['url']}/index.php?r=api/stock", 200, ['X-Client-ID' => 'race']);
printf("stock yii\\filters\\RateLimiter (FileCache), same race: %d of 200 accepted with limit 50 (drop-in %.0f ms, stock %.0f ms)\n",
    $stock[200] ?? 0, $oursMs, (microtime(true) - $t) * 1000);

// Redis down: 503 with the cause in the app's log; on_error=allow: the request passes.
rl_stop_redis($redis, false);
echo "redis down: ", $get('ours', 'bob', $rate), "\n";
$log = (string) @file_get_contents("{$app['runtime']}/logs/app.log");
echo preg_match('/\[error\]\[RateLimit\\\\Yii2\\\\RateLimiter::checkRateLimit\] rate limiter unavailable: (.*)/', $log, $m) ? "logged: $m[1]\n" : "not logged:\n$log\n";
$allow = rl_yii_serve(2, ['ratelimit.redis_url' => $url, 'ratelimit.on_error' => 'allow'], $env);
echo "redis down, on_error=allow: ", rl_yii_show("{$allow['url']}/index.php?r=api/ours", $rate, ['X-Client-ID' => 'bob']), "\n";
$deny = rl_yii_serve(2, ['ratelimit.redis_url' => $url, 'ratelimit.on_error' => 'deny'], $env);
echo "redis down, on_error=deny: ", rl_yii_show("{$deny['url']}/index.php?r=api/ours", [...$rate, 'Retry-After'], ['X-Client-ID' => 'bob']), "\n";

// Back: the same workers decide again (a new, empty server: a full bucket).
$redis = rl_start_redis($redis['extra'], $redis['port'], $redis['dir']);
echo "redis back: ", $get('ours', 'bob', $rate), "\n";
?>
--EXPECTF--
drop-in, first request: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 49, X-Rate-Limit-Reset: 72; "ok"
stock, first request:   200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 49, X-Rate-Limit-Reset: 72; "ok"
not in only:            200; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; "ok"
REST, bearer token:     200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 49, X-Rate-Limit-Reset: 72; "ok"
REST, again:            200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 48, X-Rate-Limit-Reset: %r(143|144)%r; "ok"
REST, no token:         401; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; Your request was made with invalid credentials.
login as dave: 200; X-Rate-Limit-Remaining: 1; "ok"
login as dave: 200; X-Rate-Limit-Remaining: 0; "ok"
login as dave: 429; X-Rate-Limit-Remaining: 0; Too many login attempts.
login as erin: 200; X-Rate-Limit-Remaining: 1; "ok"
drop-in, 200 requests by 8 clients: {"200":50,"429":150}
drop-in, after the race: 429; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 0, X-Rate-Limit-Reset: %d, Retry-After: %d; Slow down.
another key prefix, same identity: 200; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; "ok"
stock yii\filters\RateLimiter (FileCache), same race: %d of 200 accepted with limit 50 (drop-in %d ms, stock %d ms)
redis down: 503; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; The service is temporarily unavailable.
logged: Redis at redis://127.0.0.1:%d: connection refused
redis down, on_error=allow: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 50, X-Rate-Limit-Reset: %d; "ok"
redis down, on_error=deny: 429; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 0, X-Rate-Limit-Reset: %d, Retry-After: 1; Slow down.
redis back: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 49, X-Rate-Limit-Reset: 72; "ok"
