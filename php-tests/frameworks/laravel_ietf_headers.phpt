--TEST--
Laravel drop-in: with config ratelimit.headers = 'ietf', throttle sends RateLimit-Policy / RateLimit (and Retry-After when denied) instead of X-RateLimit-*; an unknown style is refused
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

$kernel = rl_laravel_app(true, rl_prefix(), ['headers' => 'ietf']);
for ($i = 0; $i < 7; $i++) {
    $r = rl_laravel_get($kernel, '/fixed');
    $line = rl_laravel_line($r);
    // t= and Retry-After are whole seconds until the window ends: 60 right after it opened (59 on a slow machine).
    echo preg_replace(['/t=(59|60)\b/', '/Retry-After=(59|60)\b/'], ['t=60', 'Retry-After=60'], $line), "\n";
}
echo "== two limits decided as one: an item per limit (named 0, 1 in the limits' order), each its own numbers; denied, neither took anything\n";
foreach (['u1', 'u1', 'u1'] as $user) {
    echo preg_replace('/(t|Retry-After)=(59|60)\b/', '$1=60', rl_laravel_line(rl_laravel_get($kernel, '/two', '10.0.0.9', true, ['X-User' => $user]))), "\n";
}
rl_throws(fn () => rl_laravel_app(true, rl_prefix(), ['headers' => 'draft'])->getApplication()->make(Illuminate\Cache\RateLimiter::class));
?>
--EXPECT--
200 RateLimit-Policy="default";q=5 RateLimit="default";r=4;t=60 ok
200 RateLimit-Policy="default";q=5 RateLimit="default";r=3;t=60 ok
200 RateLimit-Policy="default";q=5 RateLimit="default";r=2;t=60 ok
200 RateLimit-Policy="default";q=5 RateLimit="default";r=1;t=60 ok
200 RateLimit-Policy="default";q=5 RateLimit="default";r=0;t=60 ok
429 Retry-After=60 RateLimit-Policy="default";q=5 RateLimit="default";r=0;t=60 { "message": "Too Many Attempts." }
429 Retry-After=60 RateLimit-Policy="default";q=5 RateLimit="default";r=0;t=60 { "message": "Too Many Attempts." }
== two limits decided as one: an item per limit (named 0, 1 in the limits' order), each its own numbers; denied, neither took anything
200 RateLimit-Policy="0";q=4, "1";q=2 RateLimit="0";r=3;t=60, "1";r=1;t=60 ok
200 RateLimit-Policy="0";q=4, "1";q=2 RateLimit="0";r=2;t=60, "1";r=0;t=60 ok
429 Retry-After=60 RateLimit-Policy="0";q=4, "1";q=2 RateLimit="0";r=2;t=60, "1";r=0;t=60 { "message": "Too Many Attempts." }
ValueError: ratelimit.headers must be "x" or "ietf", "draft" given
