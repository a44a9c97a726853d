--TEST--
Laravel drop-in: the same request sequences through stock Laravel and the drop-in give the same statuses, headers and bodies
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

// Whole-second times may differ by one between the two (stock rounds its
// timer's timestamp down, the extension rounds the TTL up): shown as "~N"
// when within one second of N, which the expected output names.
function norm(string $line, array $want): string
{
    return preg_replace_callback('/(Retry-After|X-RateLimit-Reset)=(now\+)?(-?\d+)/', function ($m) use ($want) {
        $w = $want[$m[1]];
        return abs((int) $m[3] - $w) <= 1 ? "$m[1]=$m[2]~$w" : $m[0];
    }, $line);
}

$sequences = [
    'throttle:5,1' => array_merge(array_fill(0, 7, ['/fixed', '10.0.0.1', true, []]), [['/fixed', '10.0.0.1', false, []], ['/fixed', '10.0.0.2', true, []]]),
    'named, two limits' => [
        ['/two', '10.0.0.1', true, ['X-User' => 'u1']],
        ['/two', '10.0.0.1', true, ['X-User' => 'u1']],
        ['/two', '10.0.0.1', true, ['X-User' => 'u1']],   // the per-user limit (2) denies
        // Stock up to Laravel 10 counted the denied third request in the per-IP
        // limit (it checks and hits each limit in turn); the drop-in decides
        // both limits as one (CompoundRateLimiter), so that request took nothing
        // and u2 gets two. Stock Laravel 11+ checks every limit before it counts
        // any (which Limit::after() needs), and so agrees.
        ['/two', '10.0.0.1', true, ['X-User' => 'u2']],
        ['/two', '10.0.0.1', true, ['X-User' => 'u2']],
    ],
    'named, response()' => array_fill(0, 3, ['/custom', '10.0.0.1', true, []]),
    'Limit::none()' => array_fill(0, 3, ['/none', '10.0.0.1', true, []]),
    'ThrottleRequestsWithRedis' => array_fill(0, 4, ['/withredis', '10.0.0.3', true, []]),
];
// Laravel 11+ Limit::after(): successes are not counted, failures are (2 a minute).
$after = method_exists(Illuminate\Cache\RateLimiting\Limit::class, 'after')
    ? [['/failures/200', '10.0.0.4', true, []], ['/failures/200', '10.0.0.4', true, []], ['/failures/200', '10.0.0.4', true, []],
       ['/failures/401', '10.0.0.4', true, []], ['/failures/401', '10.0.0.4', true, []], ['/failures/200', '10.0.0.4', true, []]]
    : [];

$lines = [];
$afterLines = [];
foreach (['stock' => false, 'drop-in' => true] as $name => $dropIn) {
    $kernel = rl_laravel_app($dropIn, rl_prefix($name));
    $limiter = get_class($kernel->getApplication()->make(Illuminate\Cache\RateLimiter::class));
    $middleware = get_class($kernel->getApplication()->make(Illuminate\Routing\Middleware\ThrottleRequests::class));
    echo "$name: $limiter, $middleware\n";
    foreach ($sequences as $title => $requests) {
        foreach ($requests as $i => [$uri, $ip, $json, $headers]) {
            $lines[$title][$i][$name] = norm(rl_laravel_line(rl_laravel_get($kernel, $uri, $ip, $json, $headers)),
                ['Retry-After' => 60, 'X-RateLimit-Reset' => 60]);
        }
    }
    foreach ($after as $i => [$uri, $ip, $json, $headers]) {
        $afterLines[$i][$name] = norm(rl_laravel_line(rl_laravel_get($kernel, $uri, $ip, $json, $headers)), ['Retry-After' => 60, 'X-RateLimit-Reset' => 60]);
    }
}
// Where stock up to Laravel 10 answers otherwise (see above); from Laravel 11 nowhere.
$checksAllFirst = method_exists(Illuminate\Cache\RateLimiting\Limit::class, 'after');
$oldStock = [
    'named, two limits' => [
        3 => '200 X-RateLimit-Limit=4 X-RateLimit-Remaining=0 ok',
        4 => '429 X-RateLimit-Limit=4 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 { "message": "Too Many Attempts." }',
    ],
];
foreach ($lines as $title => $requests) {
    echo "== $title\n";
    foreach ($requests as $i => $pair) {
        $old = $oldStock[$title][$i] ?? null;
        // On these lines stock must answer as its version does: like the drop-in from 11, $old before.
        $expected = $old === null || $checksAllFirst ? $pair['drop-in'] : $old;
        $note = $pair['stock'] !== $expected ? "   <- stock: {$pair['stock']}" : ($old !== null ? '   <- stock up to Laravel 10: ' . $old : '');
        echo $pair['drop-in'], $note, "\n";
    }
}

// Where Laravel has Limit::after(): the drop-in answers exactly as stock, the
// third request after two failures is refused, and no success counted before.
echo "== Limit::after() (Laravel 11+): ";
if ($after === []) {
    echo "as stock, failures counted\n"; // no such Limit here: nothing to count differently
} else {
    $same = array_filter($afterLines, fn ($p) => $p['drop-in'] === $p['stock']) === $afterLines;
    $statuses = implode(' ', array_map(fn ($p) => strtok($p['drop-in'], ' '), $afterLines));
    echo $same && $statuses === '200 200 200 401 401 429' ? "as stock, failures counted\n" : "UNEXPECTED: $statuses\n" . print_r($afterLines, true);
}

// Keys: the drop-in counts on stock Laravel's own key ({client prefix}{store prefix}{key}).
$r = rl_redis();
$key = rl_laravel_key(rl_prefix('drop-in'), sha1('|10.0.0.1'));
echo "drop-in counter for /fixed: ", $r->get($key), ", ttl ", ($r->ttl($key) > 50 ? 'about 60' : $r->ttl($key)), "\n";
echo "no timer key: ", var_export($r->exists("$key:timer") === 0, true), "\n";
?>
--EXPECT--
stock: Illuminate\Cache\RateLimiter, Illuminate\Routing\Middleware\ThrottleRequests
drop-in: RateLimit\Laravel\ExtensionRateLimiter, RateLimit\Laravel\ThrottleRequests
== throttle:5,1
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=4 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=3 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=2 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=1 ok
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 ok
429 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 { "message": "Too Many Attempts." }
429 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 { "message": "Too Many Attempts." }
429 X-RateLimit-Limit=5 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 Too Many Requests
200 X-RateLimit-Limit=5 X-RateLimit-Remaining=4 ok
== named, two limits
200 X-RateLimit-Limit=2 X-RateLimit-Remaining=1 ok
200 X-RateLimit-Limit=2 X-RateLimit-Remaining=0 ok
429 X-RateLimit-Limit=2 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 { "message": "Too Many Attempts." }
200 X-RateLimit-Limit=4 X-RateLimit-Remaining=1 ok   <- stock up to Laravel 10: 200 X-RateLimit-Limit=4 X-RateLimit-Remaining=0 ok
200 X-RateLimit-Limit=4 X-RateLimit-Remaining=0 ok   <- stock up to Laravel 10: 429 X-RateLimit-Limit=4 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 { "message": "Too Many Attempts." }
== named, response()
200 X-RateLimit-Limit=2 X-RateLimit-Remaining=1 ok
200 X-RateLimit-Limit=2 X-RateLimit-Remaining=0 ok
429 X-RateLimit-Limit=2 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 slow down
== Limit::none()
200 ok
200 ok
200 ok
== ThrottleRequestsWithRedis
200 X-RateLimit-Limit=3 X-RateLimit-Remaining=2 ok
200 X-RateLimit-Limit=3 X-RateLimit-Remaining=1 ok
200 X-RateLimit-Limit=3 X-RateLimit-Remaining=0 ok
429 X-RateLimit-Limit=3 X-RateLimit-Remaining=0 Retry-After=~60 X-RateLimit-Reset=now+~60 { "message": "Too Many Attempts." }
== Limit::after() (Laravel 11+): as stock, failures counted
drop-in counter for /fixed: 5, ttl about 60
no timer key: true
