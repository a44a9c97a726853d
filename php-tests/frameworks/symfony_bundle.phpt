--TEST--
Symfony bundle: in a real kernel (FrameworkBundle from Debian), RateLimitBundle backs every framework.rate_limiter limiter with the extension (same ids, policies, options; compound on 7.3+), autowired as RateLimiterFactoryInterface (7.3+), LimiterFactory or ExtensionRateLimiterFactory; autowiring by the final RateLimiterFactory fails the build with a message; ratelimit.except keeps Symfony's own
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/symfony_app.inc';

$id = rl_prefix();
$limiters = [
    'api' => ['policy' => 'fixed_window', 'limit' => 3, 'interval' => '1 minute'],
    'sliding' => ['policy' => 'sliding_window', 'limit' => 2, 'interval' => '1 minute'],
    'bucket' => ['policy' => 'token_bucket', 'limit' => 2, 'rate' => ['interval' => '1 hour', 'amount' => 1]],
];
$controllers = ['/api' => RlApiController::class, '/sliding' => RlSlidingController::class, '/bucket' => RlBucketController::class];
if (rl_symfony_has_interface()) {
    echo "Symfony ", Symfony\Component\HttpKernel\Kernel::VERSION, ": RateLimiterFactoryInterface and the compound policy\n";
    $limiters['pair'] = ['policy' => 'compound', 'limiters' => ['api', 'sliding']];
    $controllers += ['/iface' => RlInterfaceController::class, '/pair' => RlCompoundController::class];
} else {
    echo "Symfony ", Symfony\Component\HttpKernel\Kernel::VERSION, ": no RateLimiterFactoryInterface, no compound policy\n";
    $controllers += ['/iface' => RlApiController::class, '/pair' => RlPairController::class];
}
// Keys of this test's own: the limiters' ids carry no prefix, ratelimit.key_prefix does.
ini_set('ratelimit.key_prefix', "$id:");
$kernel = rl_symfony_kernel('bundle', ['connection' => RL_URL], $limiters, $controllers);

echo "== each route: the factory it was given, then statuses and the last response's headers\n";
foreach (['/api' => '10.0.0.1', '/sliding' => '10.0.0.2', '/bucket' => '10.0.0.3', '/iface' => '10.0.0.4', '/pair' => '10.0.0.5'] as $path => $ip) {
    $statuses = [];
    for ($i = 0; $i < 4; $i++) {
        $r = rl_symfony_get($kernel, $path, $ip);
        $statuses[] = $r->getStatusCode();
    }
    printf("%-8s %s: %s; %s\n", $path, $r->headers->get('X-Factory'), implode(' ', $statuses),
        implode(', ', array_map(fn ($h) => "$h=" . $r->headers->get($h), ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After'])));
}
echo "== the keys: ratelimit.key_prefix . symfony:<limiter id>:<key>\n";
$redis = rl_redis();
$keys = $redis->keys("$id:*");
sort($keys);
foreach ($keys as $k) echo substr($k, strlen($id) + 1), ' (', $redis->type($k), ")\n";
// /iface and /api share the api limiter (10.0.0.1 and 10.0.0.4); /pair took from api and sliding for 10.0.0.5 as one.
ini_restore('ratelimit.key_prefix');

echo "== autowiring by the final RateLimiterFactory\n";
rl_throws(fn () => rl_symfony_kernel('refused', ['connection' => RL_URL], $limiters, ['/stock' => RlStockController::class]));
echo "== ratelimit.except: [api] keeps Symfony's factory for it\n";
$kernel = rl_symfony_kernel('except', ['connection' => RL_URL, 'except' => ['api']], $limiters, ['/stock' => RlStockController::class, '/sliding' => RlSlidingController::class]);
echo rl_symfony_get($kernel, '/stock', '10.1.0.1')->headers->get('X-Factory'), "\n";
echo rl_symfony_get($kernel, '/sliding', '10.1.0.1')->headers->get('X-Factory'), "\n";
echo "== without the bundle: stock Symfony\n";
$kernel = rl_symfony_kernel('stock', null, $limiters, ['/stock' => RlStockController::class]);
echo rl_symfony_get($kernel, '/stock', '10.1.0.2')->headers->get('X-Factory'), "\n";
?>
--EXPECTF--
Symfony %s
== each route: the factory it was given, then statuses and the last response's headers
/api     RateLimit\Symfony\ExtensionRateLimiterFactory: 200 200 200 429; X-RateLimit-Limit=3, X-RateLimit-Remaining=0, Retry-After=60
/sliding RateLimit\Symfony\ExtensionRateLimiterFactory: 200 200 429 429; X-RateLimit-Limit=2, X-RateLimit-Remaining=0, Retry-After=60
/bucket  RateLimit\Symfony\ExtensionRateLimiterFactory: 200 200 429 429; X-RateLimit-Limit=2, X-RateLimit-Remaining=0, Retry-After=3600
/iface   RateLimit\Symfony\ExtensionRateLimiterFactory: 200 200 200 429; X-RateLimit-Limit=3, X-RateLimit-Remaining=0, Retry-After=60
/pair    RateLimit\Symfony\ExtensionCompoundRateLimiterFactory: 200 200 429 429; X-RateLimit-Limit=2, X-RateLimit-Remaining=0, Retry-After=60
== the keys: ratelimit.key_prefix . symfony:<limiter id>:<key>
symfony:api:10.0.0.1 (string)
symfony:api:10.0.0.4 (string)
symfony:api:10.0.0.5 (string)
symfony:bucket:10.0.0.3 (string)
symfony:sliding:10.0.0.2 (zset)
symfony:sliding:10.0.0.5 (zset)
== autowiring by the final RateLimiterFactory
Symfony\Component\DependencyInjection\Exception\RuntimeException: Rate limiter "api" is backed by the ratelimit extension (RateLimit\Symfony\RateLimitBundle), and Symfony\Component\RateLimiter\RateLimiterFactory is a final class that only makes Symfony's own limiters: type-hint RateLimit\Symfony\LimiterFactory instead (Symfony\Component\RateLimiter\RateLimiterFactoryInterface on Symfony 7.3+), or list "api" under ratelimit.except to keep Symfony's factory for it.
== ratelimit.except: [api] keeps Symfony's factory for it
Symfony\Component\RateLimiter\RateLimiterFactory
RateLimit\Symfony\ExtensionRateLimiterFactory
== without the bundle: stock Symfony
Symfony\Component\RateLimiter\RateLimiterFactory
