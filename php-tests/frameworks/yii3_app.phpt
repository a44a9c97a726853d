--TEST--
Yii 3 app under php-fpm + nginx: LimitRequestsMiddleware (yiisoft/rate-limiter 3.0) with RateLimit\Yii3\ExtensionCounter wired by its DI config: the middleware's headers and 429, remaining and reset as the middleware means them, exactly the limit of 200 requests from 8 concurrent clients, 503 with the cause logged when Redis is down (200 with on_error=allow, 429 with deny), recovery; Yii's own Counter beside it on the same app, its overshoot reported
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../config.inc';
require __DIR__ . '/yii.inc';
rl_yii_skipif(3);
?>
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/yii.inc';

$redis = rl_start_redis();
$url = "redis://127.0.0.1:{$redis['port']}";
$app = rl_yii_serve(3, ['ratelimit.redis_url' => $url], ['RL_LIMIT' => '5']);
$rate = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'];
// X-Rate-Limit-Reset is a Unix time: shown as seconds from now, to 10 s (a second may turn between).
$show = function (string $path, ?array $on = null) use (&$app, $rate): string {
    $line = rl_yii_show(($on ?? $app)['url'] . "/$path", $rate);
    return preg_replace_callback('/Reset: (\d+)/', fn ($m) => 'Reset: now+~' . round(((int) $m[1] - time()) / 10) * 10, $line);
};

// Limit 5 per hour, one at a time: the middleware refuses when remaining is 0.
foreach (['index.php', 'stock.php'] as $path) {
    for ($i = 1; $i <= 6; $i++) echo "$path #$i: ", $show("$path?one-at-a-time"), "\n";
}

// 50 per hour, 8 clients: a pool with that limit (and its key prefix, yii3-limit50).
$race = rl_yii_serve(3, ['ratelimit.redis_url' => $url], ['RL_LIMIT' => '50']);
$t = microtime(true);
$ours = rl_yii_race("{$race['url']}/index.php?race", 200);
printf("ExtensionCounter, 200 requests by 8 clients: %s\n", json_encode($ours));
$oursMs = (microtime(true) - $t) * 1000;
$t = microtime(true);
$stock = rl_yii_race("{$race['url']}/stock.php?race", 200);
printf("Yii's Counter (FileCache), same race: %d of 200 accepted with limit 50 (ours %.0f ms, Yii's %.0f ms)\n", $stock[200] ?? 0, $oursMs, (microtime(true) - $t) * 1000);

rl_stop_redis($redis, false);
echo "redis down: ", $show('index.php?down'), "\n";
$m = rl_fpm_log_wait(fn () => preg_match('/PHP message: rate limiter unavailable: (.*?)"?$/m', (string) @file_get_contents($app['log']), $m) ? $m : null);
echo $m ? "logged: $m[1]\n" : "not logged:\n" . @file_get_contents($app['log']) . "\n";
$allow = rl_yii_serve(3, ['ratelimit.redis_url' => $url, 'ratelimit.on_error' => 'allow'], ['RL_LIMIT' => '5']);
echo "redis down, on_error=allow: ", $show('index.php?down', $allow), "\n";
$deny = rl_yii_serve(3, ['ratelimit.redis_url' => $url, 'ratelimit.on_error' => 'deny'], ['RL_LIMIT' => '5']);
echo "redis down, on_error=deny: ", $show('index.php?down', $deny), "\n";

$redis = rl_start_redis($redis['extra'], $redis['port'], $redis['dir']);
echo "redis back: ", $show('index.php?back'), "\n";
?>
--EXPECTF--
index.php #1: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 4, X-Rate-Limit-Reset: now+~720; ok
index.php #2: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 3, X-Rate-Limit-Reset: now+~1440; ok
index.php #3: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 2, X-Rate-Limit-Reset: now+~2160; ok
index.php #4: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 1, X-Rate-Limit-Reset: now+~2880; ok
index.php #5: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 1, X-Rate-Limit-Reset: now+~3600; ok
index.php #6: 429; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 0, X-Rate-Limit-Reset: now+~3600; Too Many Requests
stock.php #1: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 4, X-Rate-Limit-Reset: now+~720; ok
stock.php #2: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 3, X-Rate-Limit-Reset: now+~1440; ok
stock.php #3: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 2, X-Rate-Limit-Reset: now+~2160; ok
stock.php #4: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 1, X-Rate-Limit-Reset: now+~2880; ok
stock.php #5: 429; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 0, X-Rate-Limit-Reset: now+~3600; Too Many Requests
stock.php #6: 429; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 0, X-Rate-Limit-Reset: now+~3600; Too Many Requests
ExtensionCounter, 200 requests by 8 clients: {"200":50,"429":150}
Yii's Counter (FileCache), same race: %d of 200 accepted with limit 50 (ours %d ms, Yii's %d ms)
redis down: 503; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; Service Unavailable
logged: Redis at redis://127.0.0.1:%d: connection refused
redis down, on_error=allow: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 5, X-Rate-Limit-Reset: now+~0; ok
redis down, on_error=deny: 429; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 0, X-Rate-Limit-Reset: now+~0; Too Many Requests
redis back: 200; X-Rate-Limit-Limit: 5, X-Rate-Limit-Remaining: 4, X-Rate-Limit-Reset: now+~720; ok
