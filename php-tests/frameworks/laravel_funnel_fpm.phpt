--TEST--
Laravel drop-in under php-fpm (16 workers) + nginx: Redis::funnel()->limit(4)->releaseAfter()->block()->then() in a route of the app, 16 concurrent clients: never more than 4 inside (the server's count), every request served by waiting, every slot back after requests that end in a fatal error, an exception, exit() and max_execution_time; stock Laravel's funnel beside it in the same app and run (the same race timed; its slot still taken after a fatal error, exit() and max_execution_time, until releaseAfter); a SIGKILLed worker's slot back after releaseAfter on the server's clock, and not before
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../config.inc';
require __DIR__ . '/../fpm.inc';
if (rl_fpm_binary() === null || trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v nginx')) === '') die('skip needs php-fpm and nginx (make deps)');
?>
--CONFLICTS--
heavy
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';
require __DIR__ . '/inflight.inc';
ini_set('ratelimit.timeout', '5.0'); // as the workers' (rl_start_fpm gives every pool 5 s): a loaded machine's slow reply is not the subject

$prefix = rl_prefix();
rl_laravel_app(true, $prefix); // the app's dir (compiled views), made here and shared by the workers
$fpm = rl_inflight_fpm(__DIR__ . '/inflight-apps/laravel', ['RL_LARAVEL_DIR' => sys_get_temp_dir() . '/rl-laravel-' . getmypid()]);
// A request: funnel "$prefix:$name" (also the prefix of its counters), ending as $end.
$url = fn (string $name, string $end, array $q = []) => "{$fpm['url']}/index.php?" . http_build_query($q + ['p' => "$prefix:$name", 'name' => "$prefix:$name", 'end' => $end]);
// How each end shows: Laravel's handler answers an exception with its 500 page; display_errors shows a fatal error.
$told = [
    'ok' => fn ($status, $body) => $status === 200 && $body === 'ok',
    'exception' => fn ($status, $body) => $status === 500,
    // PHP 8.2 says "Cannot declare class stdClass, because the name is already in use", 8.4 "Cannot redeclare class stdClass".
    'fatal' => fn ($status, $body) => (bool) preg_match('/Cannot (re)?declare class stdClass/', $body),
    'exit' => fn ($status, $body) => $status === 200 && $body === '',
    'timeout' => fn ($status, $body) => str_contains($body, 'Maximum execution time'),
];
// Who holds the slots of funnel "$prefix:$name": the drop-in's permits, stock's keys name1 .. name4 (Laravel's client prefix first).
$ours = fn (string $name) => (new ConcurrencyLimiter(RL_URL, "lrv_$prefix:$name", 4, 30.0))->inFlight();
$r = rl_redis();
$stockTaken = fn (string $name) => count(array_filter(range(1, 4), fn ($i) => $r->exists("lrv_$prefix:$name$i")));

// The race on the drop-in, 16 clients x 4 requests, each end as often (lease
// 30 s: a slot not given back would still be taken after it, and starve the
// waiters); beside it, one request of each failing end on each version (limit 1;
// the drop-in's max_execution_time is the race's one, which is alone in its end).
$plan = rl_inflight_race_ends();
$fails = ['fatal', 'exception', 'exit', 'timeout'];
$clients = array_map(fn ($ends) => array_map(fn ($end) => $url('race', $end), $ends), $plan);
foreach ($fails as $end) {
    $clients["stock-$end"] = [$url("stock-$end", $end, ['stock' => '1', 'limit' => 1, 'release' => 60])];
    if ($end !== 'timeout') $clients["ours-$end"] = [$url("ours-$end", $end, ['limit' => 1])];
}
$got = rl_inflight_clients($clients);
echo 'the race: ', json_encode(rl_inflight_tally($plan, $got, $told)), "\n";
echo 'the race: ', rl_inflight_count("$prefix:race"), '; in flight after: ', $ours('race'), "\n";
foreach ($fails as $end) {
    $ttl = $r->ttl("lrv_$prefix:stock-{$end}1");
    printf("after %s: stock's slot %s; the drop-in's %s\n", $end,
        !$told[$end](...$got["stock-$end"][0]) ? 'NOT ENDED AS TOLD' : ($stockTaken("stock-$end") ? 'still taken' . ($ttl >= 30 ? ' for 30 s or more' : " for $ttl s") : 'back'),
        $end === 'timeout' ? ($ours('race') ? 'still taken (the race\'s)' : 'back (the race\'s)') : (!$told[$end](...$got["ours-$end"][0]) ? 'NOT ENDED AS TOLD' : ($ours("ours-$end") ? 'still taken' : 'back')));
}

// The same race, every request ending well, on each version: timed, printed (stock's waiters retry every 250 ms).
$plain = array_fill(0, 16, array_fill(0, 2, 'ok'));
foreach (['ours' => [], 'stock' => ['stock' => '1']] as $who => $q) {
    $t = microtime(true);
    $got = rl_inflight_clients(array_map(fn ($ends) => array_map(fn ($end) => $url("plain-$who", $end, $q), $ends), $plain));
    $took[$who] = microtime(true) - $t;
    echo "$who, 16 clients x 2: ", json_encode(rl_inflight_tally($plain, $got, $told)), '; ', rl_inflight_count("$prefix:plain-$who"), "\n";
}
printf("the race of 32 took %.2f s on the drop-in, %.2f s on stock\n", $took['ours'], $took['stock']);

// A worker holding a slot (releaseAfter 0.6 s) SIGKILLed.
rl_inflight_sigkill(fn ($name) => [$url($name, 'hold', ['release' => 0.6]), "$prefix:$name", new ConcurrencyLimiter(RL_URL, "lrv_$prefix:$name", 4, 5.0), '', "lrv_$prefix:$name"], 0.6);
?>
--EXPECTF--
the race: {"exception:as-told":16,"exit:as-told":16,"fatal:as-told":16,"ok:as-told":15,"timeout:as-told":1}
the race: peak inside '4'; more than 4 inside: 0 times; in flight after: 0
after fatal: stock's slot still taken for 30 s or more; the drop-in's back
after exception: stock's slot back; the drop-in's back
after exit: stock's slot still taken for 30 s or more; the drop-in's back
after timeout: stock's slot still taken for 30 s or more; the drop-in's back (the race's)
ours, 16 clients x 2: {"ok:as-told":32}; peak inside '%d'; more than 4 inside: 0 times
stock, 16 clients x 2: {"ok:as-told":32}; peak inside '%d'; more than 4 inside: 0 times
the race of 32 took %f s on the drop-in, %f s on stock
the held lease ends 0.6 s after it was taken: true
killed: in flight 1; three more granted: true; a fifth: NULL
50 ms before the lease ends: in flight 4, another: NULL
50 ms after: in flight 3; one more granted: true; then another: NULL
all released: in flight 0
