--TEST--
Yii 2 app under php-fpm + nginx: RateLimit\Yii2\ConcurrencyFilter keeps at most 2 requests inside an action (the server's count, read inside), answers 429 with its message when no slot is free, serves every request when it may wait for one, and a request that dies in a fatal error inside the action gives its slot back
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
heavy
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/yii.inc';
$prefix = rl_prefix();
$app = rl_yii_serve(2, ['ratelimit.redis_url' => RL_URL], ['RL_INFLIGHT_PREFIX' => $prefix]);
$seen = new ConcurrencyLimiter(RL_URL, $prefix, 2, 5.0);

// What 8 clients x 2 requests got: 200 (inside <= 2), 429, or anything else.
$race = function (string $action) use ($app) {
    $sum = rl_hammer(function () use ($app, $action) {
        [$status, , $body] = rl_http_get("{$app['url']}/index.php?r=inflight/$action&ms=150");
        return match (true) {
            $status === 200 && (json_decode($body, true)['inside'] ?? 99) <= 2 => 1,
            $status === 429 => 1000,
            default => 1000000,
        };
    }, 8, 2);
    return ['200' => $sum % 1000, '429' => intdiv($sum, 1000) % 1000, 'other' => intdiv($sum, 1000000)];
};
$now = $race('now');
echo "no wait: 200 and 429 both: ", json_encode($now['200'] >= 2 && $now['429'] >= 1 && $now['200'] + $now['429'] === 16), ", other: {$now['other']}\n";
echo "in flight after: ", $seen->inFlight('work'), "\n";
echo "waiting up to 5 s: ", json_encode($race('wait')), "\n";

$held = [$seen->acquire('work'), $seen->acquire('work')];
[$status, , $body] = rl_http_get("{$app['url']}/index.php?r=inflight/now");
echo "both slots held elsewhere: $status ", json_decode($body, true)['message'] ?? $body, "\n";
$held = [];

[$status] = rl_http_get("{$app['url']}/index.php?r=inflight/fail");
echo "a fatal error inside: $status; in flight after: ", $seen->inFlight('work'), "\n";
?>
--EXPECT--
no wait: 200 and 429 both: true, other: 0
in flight after: 0
waiting up to 5 s: {"200":16,"429":0,"other":0}
both slots held elsewhere: 429 Too many requests in progress.
a fatal error inside: 500; in flight after: 0
