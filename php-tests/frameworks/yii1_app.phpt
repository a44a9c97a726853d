--TEST--
Yii 1.1 app under php-fpm + nginx: RateLimitFilter (integrations/yii1) gives X-Rate-Limit-* headers, 429 with Retry-After, lets a whitelisted IP through, keeps its key prefixes apart, accepts exactly the limit of 200 requests from 8 concurrent clients, answers 503 with the cause logged when Redis is down (200 with on_error=allow, and with local: this process's share of the limit), recovers
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../config.inc';
require __DIR__ . '/yii.inc';
rl_yii_skipif(1);
?>
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/yii.inc';

$redis = rl_start_redis();
$url = "redis://127.0.0.1:{$redis['port']}";
$app = rl_yii_serve(1, ['ratelimit.redis_url' => $url]);
$rate = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'];
$get = fn (string $action, array $names = []) => rl_yii_show("{$app['url']}/index.php?r=api/$action", $names ?: $rate);

echo "first request: ", $get('other'), "\n";
$race = rl_yii_race("{$app['url']}/index.php?r=api/limited", 200);
echo "200 requests by 8 clients: ", json_encode($race), "\n";
echo "after the race: ", $get('limited', [...$rate, 'Retry-After']), "\n";
echo "another key prefix: ", $get('other'), "\n";
echo "whitelisted, limit 1: ", $get('listed'), " / ", $get('listed'), "\n";

rl_stop_redis($redis, false);
echo "redis down: ", $get('other'), "\n";
$log = (string) @file_get_contents("{$app['runtime']}/application.log");
echo preg_match('/\[error\] \[ext\.ratelimit\.RateLimitFilter\] rate limiter unavailable: (.*)/', $log, $m) ? "logged: $m[1]\n" : "not logged:\n$log\n";
$allow = rl_yii_serve(1, ['ratelimit.redis_url' => $url, 'ratelimit.on_error' => 'allow']);
echo "redis down, on_error=allow: ", rl_yii_show("{$allow['url']}/index.php?r=api/other", $rate), "\n";
$local = rl_yii_serve(1, ['ratelimit.redis_url' => $url, 'ratelimit.on_error' => 'local']);
echo "redis down, on_error=local: ", rl_yii_show("{$local['url']}/index.php?r=api/other", $rate), "\n";

$redis = rl_start_redis($redis['extra'], $redis['port'], $redis['dir']);
echo "redis back: ", $get('other'), "\n";
?>
--EXPECTF--
first request: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 49, X-Rate-Limit-Reset: 3600; ok
200 requests by 8 clients: {"200":50,"429":150}
after the race: 429; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 0, X-Rate-Limit-Reset: %d, Retry-After: %d; Rate limit exceeded; retry in %d s.
another key prefix: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 48, X-Rate-Limit-Reset: %d; ok
whitelisted, limit 1: 200; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; ok / 200; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; ok
redis down: 503; X-Rate-Limit-Limit: -, X-Rate-Limit-Remaining: -, X-Rate-Limit-Reset: -; Service Unavailable
logged: Redis at redis://127.0.0.1:%d: connection refused
redis down, on_error=allow: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 50, X-Rate-Limit-Reset: 0; ok
redis down, on_error=local: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 4, X-Rate-Limit-Reset: %d; ok
redis back: 200; X-Rate-Limit-Limit: 50, X-Rate-Limit-Remaining: 49, X-Rate-Limit-Reset: 3600; ok
