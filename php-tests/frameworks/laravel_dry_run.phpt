--TEST--
Laravel drop-in: config ratelimit.dry_run lets every request through throttle (no 429, an accepted request's headers) while counting exactly what enforcing counts (one limit, several limits all or nothing, the facade); an enforcing app then finds that state; ratelimit.metrics counts would_deny per limit
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.metrics=local
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

use Illuminate\Support\Facades\RateLimiter;

$prefix = rl_prefix();
$dry = rl_laravel_app(true, $prefix, ['dry_run' => true]);
echo "== throttle:5,1 in dry run\n";
for ($i = 0; $i < 7; $i++) echo preg_replace('/now\+(59|60)\b/', 'now+60', rl_laravel_line(rl_laravel_get($dry, '/fixed'))), "\n";
echo "== throttle:two (2 per user, 4 per ip): all or nothing, as enforcing\n";
foreach (['u1', 'u1', 'u1', 'u2', 'u2'] as $user) echo rl_laravel_line(rl_laravel_get($dry, '/two', '10.0.0.9', true, ['X-User' => $user]), false), "\n";
echo "== the facade\n";
var_dump(RateLimiter::attempt('fa', 1, fn () => 'ran'), RateLimiter::attempt('fa', 1, fn () => 'ran again'), RateLimiter::tooManyAttempts('fa', 1));
$counted = array_filter(RateLimitMetrics::local(), fn ($k) => str_contains((string) $k, $prefix), ARRAY_FILTER_USE_KEY);
$sum = fn (string $o) => array_sum(array_column($counted, $o));
echo "counted: allowed {$sum('allowed')}, would_deny {$sum('would_deny')}, denied {$sum('denied')}\n";

echo "== the same routes enforcing: the dry run's counts are there\n";
$enforcing = rl_laravel_app(true, $prefix);
echo preg_replace('/(now\+|Retry-After=)(59|60)\b/', '${1}60', rl_laravel_line(rl_laravel_get($enforcing, '/fixed'))), "\n";
echo rl_laravel_line(rl_laravel_get($enforcing, '/two', '10.0.0.9', true, ['X-User' => 'u2']), false), "\n";
?>
--EXPECT--
== throttle:5,1 in dry run
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=4 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=3 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=2 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=1 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 ok
== throttle:two (2 per user, 4 per ip): all or nothing, as enforcing
200 X-RateLimit-Limit=2 X-RateLimit-Remaining=1
200 X-RateLimit-Limit=2 X-RateLimit-Remaining=0
200 X-RateLimit-Limit=2 X-RateLimit-Remaining=0
200 X-RateLimit-Limit=4 X-RateLimit-Remaining=1
200 X-RateLimit-Limit=4 X-RateLimit-Remaining=0
== the facade
string(3) "ran"
string(9) "ran again"
bool(false)
counted: allowed 10, would_deny 4, denied 0
== the same routes enforcing: the dry run's counts are there
429 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 Retry-After=60 X-RateLimit-Reset=now+60 { "message": "Too Many Attempts." }
429 X-RateLimit-Limit=4 X-RateLimit-Remaining=0 Retry-After=60 X-RateLimit-Reset=now+60
