--TEST--
Laravel drop-in: Redis::funnel()->limit(4)->releaseAfter()->block()->then() runs on ConcurrencyLimiter: 16 processes racing never have more than 4 callbacks inside (the server's count), every call served by waiting; block() running out calls the failure callback with Laravel's LimiterTimeoutException; a callback that ends its process in a fatal error or exit() frees its slot; stock Laravel's funnel measured beside it (the same race timed, and its slot still taken after a callback's exit() until releaseAfter, where the drop-in's is back)
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--CONFLICTS--
heavy
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';
use Illuminate\Support\Facades\Redis;

$prefix = rl_prefix();
$kernel = rl_laravel_app(true, $prefix);
$name = "$prefix:funnel";
echo get_class(Redis::funnel($name)), "\n";
// Laravel's client prefix (lrv_) comes first, as in the keys of its own funnel.
$seen = new ConcurrencyLimiter(RL_URL, "lrv_$name", 4, 1.0);
$r = rl_redis();

$served = rl_hammer(function () use ($name, $seen, $r) {
    return Redis::funnel($name)->limit(4)->releaseAfter(1)->block(8)->then(function () use ($seen, $r, $name) {
        if ($seen->inFlight() > 4) $r->rawCommand('INCR', "$name:over");
        usleep(20000);
        return 1;
    }, fn () => 0);
}, 16, 3);
echo "served $served of 48; more than 4 inside: ", var_export($r->get("$name:over"), true), "; in flight after: ", $seen->inFlight(), "\n";

// All 4 slots held here: a wait of 0.1 s runs out.
$held = array_map(fn () => $seen->acquire(), range(1, 4));
$t = microtime(true);
echo Redis::funnel($name)->limit(4)->releaseAfter(1)->block(0.1)->then(fn () => 'ran', fn ($e) => get_class($e)), "\n";
try {
    Redis::funnel($name)->limit(4)->block(0)->then(fn () => 'ran');
} catch (Illuminate\Contracts\Redis\LimiterTimeoutException $e) {
    echo "thrown: ", get_class($e), "\n";
}
$held = [];
echo "then() returns the callback's value: ", Redis::funnel($name)->limit(4)->then(fn () => 42), "\n";

// A callback whose process dies in a fatal error, or exit()s: its slot is back.
$script = sys_get_temp_dir() . "/rl-funnel-" . getmypid() . ".php";
foreach (['undefined_function();', 'exit(0);'] as $end) {
    file_put_contents($script, '<?php require ' . var_export(__DIR__ . '/laravel_app.inc', true) . ';'
        . ' rl_laravel_app(true, ' . var_export($prefix, true) . ');'
        . ' Illuminate\Support\Facades\Redis::funnel(' . var_export($name, true) . ')->limit(4)->releaseAfter(30)->then(function () {'
        . ' fwrite(STDERR, "inside\n"); ' . $end . ' });');
    $out = shell_exec(rl_php_shell() . ' ' . escapeshellarg($script) . ' 2>&1');
    echo $end, ' ', str_contains($out, 'inside') ? 'ran' : "did not run: $out", '; in flight after: ', $seen->inFlight(), "\n";
}

// Stock Laravel's funnel beside it, in the same app without the drop-in:
// the same race (its waiters retry every 250 ms), and a callback that exits
// (an uncaught Error still runs stock's `finally`; exit() and a real fatal error do not).
$ours = microtime(true);
rl_hammer(fn () => Redis::funnel("$name:again")->limit(4)->releaseAfter(1)->block(8)->then(function () { usleep(20000); return 1; }, fn () => 0), 16, 3);
$ours = microtime(true) - $ours;
rl_laravel_app(false, $prefix);
$stock = "$prefix:stock";
// (The parent opens no stock connection before the children fork: they would share its socket.)
$t = microtime(true);
$stockServed = rl_hammer(fn () => Redis::funnel($stock)->limit(4)->releaseAfter(1)->block(8)->then(function () { usleep(20000); return 1; }, fn () => 0), 16, 3);
echo "stock builder: ", get_class(Redis::funnel($stock)), "\n";
printf("stock served %d of 48 in %.2f s; the drop-in %.2f s\n", $stockServed, microtime(true) - $t, $ours);
file_put_contents($script, '<?php require ' . var_export(__DIR__ . '/laravel_app.inc', true) . ';'
    . ' rl_laravel_app(false, ' . var_export($prefix, true) . ');'
    . ' Illuminate\Support\Facades\Redis::funnel(' . var_export("$stock:dies", true) . ')->limit(4)->releaseAfter(30)->then(function () {'
    . ' fwrite(STDERR, "inside\n"); exit(0); });');
$out = shell_exec(rl_php_shell() . ' ' . escapeshellarg($script) . ' 2>&1');
// Stock's slots are keys name1 .. name4 (Laravel's client prefix first), each held until releaseAfter.
$taken = array_filter(range(1, 4), fn ($i) => $r->exists("lrv_$stock:dies$i"));
$ttl = $taken ? $r->ttl("lrv_$stock:dies" . reset($taken)) : -2;
echo 'stock after exit(): ', str_contains($out, 'inside') ? 'ran' : "did not run: $out", '; slots still taken: ', count($taken), '; for 25 s or more: ', var_export($ttl >= 25, true), "\n";
unlink($script);
?>
--EXPECTF--
RateLimit\Laravel\FunnelBuilder
served 48 of 48; more than 4 inside: false; in flight after: 0
Illuminate\Contracts\Redis\LimiterTimeoutException
thrown: Illuminate\Contracts\Redis\LimiterTimeoutException
then() returns the callback's value: 42
undefined_function(); ran; in flight after: 0
exit(0); ran; in flight after: 0
stock builder: Illuminate\Redis\Limiters\ConcurrencyLimiterBuilder
stock served %d of 48 in %f s; the drop-in %f s
stock after exit(): ran; slots still taken: 1; for 25 s or more: true
