--TEST--
Symfony drop-in under php-fpm (16 workers) + nginx: a controller's Semaphore (limit 4) on RateLimit\Symfony\ConcurrencyStore, 16 concurrent clients (a refused request, 429, sent again, since symfony/semaphore does not wait): never more than 4 inside (the server's count), every slot back after requests that end in a fatal error, an exception, exit() and max_execution_time; Symfony's RedisStore beside it in the same app and run (the same race timed; its slot still taken after a fatal error and max_execution_time, until the ttl); a SIGKILLed worker's slot back after the ttl on the server's clock, and not before
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../config.inc';
require __DIR__ . '/../fpm.inc';
if (rl_fpm_binary() === null || trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v nginx')) === '') die('skip needs php-fpm and nginx (make deps)');
if (!is_file('/usr/share/php/Symfony/Component/Semaphore/autoload.php')) die('skip needs php-symfony-semaphore (make deps installs it)');
?>
--CONFLICTS--
heavy
--FILE--
<?php
require __DIR__ . '/symfony_app.inc';
require '/usr/share/php/Symfony/Component/Semaphore/autoload.php';
require __DIR__ . '/inflight.inc';
ini_set('ratelimit.timeout', '5.0'); // as the workers' (rl_start_fpm gives every pool 5 s): a loaded machine's slow reply is not the subject

$prefix = rl_prefix();
$kernel = rl_symfony_semaphore_kernel('semaphore'); // its container compiled here, in the app's dir the workers share
$fpm = rl_inflight_fpm(__DIR__ . '/inflight-apps/symfony', ['RL_SYMFONY_DIR' => $kernel->getProjectDir(), 'RL_SYMFONY_ENV' => 'semaphore']);
// A request: a Semaphore of "$prefix:$name" (also the prefix of its counters) from $store, ending as $end.
$url = fn (string $store, string $name, string $end, array $q = []) => "{$fpm['url']}/index.php?"
    . http_build_query($q + ['store' => $store, 'p' => "$prefix:$name", 'name' => "$prefix:$name", 'end' => $end]);
// How each end shows: Symfony's error page for an exception, and display_errors (before Symfony's page) for a fatal error.
$told = [
    'ok' => fn ($status, $body) => $status === 200 && $body === 'ok',
    'exception' => fn ($status, $body) => $status === 500,
    // PHP 8.2 says "Cannot declare class stdClass, because the name is already in use", 8.4 "Cannot redeclare class stdClass".
    'fatal' => fn ($status, $body) => (bool) preg_match('/Cannot (re)?declare class stdClass/', $body),
    'exit' => fn ($status, $body) => $status === 200 && $body === '',
    'timeout' => fn ($status, $body) => str_contains($body, 'Maximum execution time'),
];
// Who holds the slots of "$prefix:$name": the drop-in's permits (keys "semaphore:…"); Symfony's
// RedisStore's "{$name}:time" (a member per holder scored with its end, on the PHP client's clock).
$ours = fn (string $name) => (new ConcurrencyLimiter(RL_URL, 'semaphore', 4, 30.0))->inFlight("$prefix:$name");
$r = rl_redis();
$stockFor = fn (string $name) => max([0, ...array_map(fn ($end) => $end - microtime(true), $r->zRange("{{$prefix}:{$name}}:time", 0, -1, true) ?: [])]);
$refusals = fn (array $got) => array_sum(array_map(fn ($requests) => array_sum(array_column($requests, 2)), $got));

// The race on the drop-in, 16 clients x 4 requests, each end as often (ttl
// 30 s: a slot not given back would still be taken after it); beside it, one
// request of each failing end on each store (limit 1; the drop-in's
// max_execution_time is the race's one, which is alone in its end).
$plan = rl_inflight_race_ends();
$fails = ['fatal', 'exception', 'exit', 'timeout'];
$clients = array_map(fn ($ends) => array_map(fn ($end) => $url('ours', 'race', $end), $ends), $plan);
foreach ($fails as $end) {
    $clients["stock-$end"] = [$url('stock', "stock-$end", $end, ['limit' => 1, 'ttl' => 60])];
    if ($end !== 'timeout') $clients["ours-$end"] = [$url('ours', "ours-$end", $end, ['limit' => 1])];
}
$got = rl_inflight_clients($clients, true);
echo 'the race: ', json_encode(rl_inflight_tally($plan, $got, $told)), "\n";
echo 'the race: ', rl_inflight_count("$prefix:race"), '; in flight after: ', $ours('race'), '; refused and sent again: ', $refusals($got) > 0 ? 'some' : 'none', "\n";
foreach ($fails as $end) {
    $left = $stockFor("stock-$end");
    printf("after %s: stock's slot %s; the drop-in's %s\n", $end,
        !$told[$end](...$got["stock-$end"][0]) ? 'NOT ENDED AS TOLD' : ($left > 0 ? 'still taken' . ($left >= 30 ? ' for 30 s or more' : sprintf(' for %.1f s', $left)) : 'back'),
        $end === 'timeout' ? ($ours('race') ? 'still taken (the race\'s)' : 'back (the race\'s)') : (!$told[$end](...$got["ours-$end"][0]) ? 'NOT ENDED AS TOLD' : ($ours("ours-$end") ? 'still taken' : 'back')));
}

// The same race, every request ending well, on each store: timed, printed.
$plain = array_fill(0, 16, array_fill(0, 2, 'ok'));
foreach (['ours', 'stock'] as $store) {
    $t = microtime(true);
    $got = rl_inflight_clients(array_map(fn ($ends) => array_map(fn ($end) => $url($store, "plain-$store", $end), $ends), $plain), true);
    $took[$store] = microtime(true) - $t;
    $sent[$store] = $refusals($got);
    echo "$store, 16 clients x 2: ", json_encode(rl_inflight_tally($plain, $got, $told)), '; ', rl_inflight_count("$prefix:plain-$store"), "\n";
}
printf("the race of 32 took %.2f s on the drop-in (%d refused and sent again), %.2f s on stock (%d)\n", $took['ours'], $sent['ours'], $took['stock'], $sent['stock']);

// A worker holding a slot (a Semaphore with a ttl of 0.6 s) SIGKILLed.
rl_inflight_sigkill(fn ($name) => [$url('ours', $name, 'hold', ['ttl' => 0.6]), "$prefix:$name", new ConcurrencyLimiter(RL_URL, 'semaphore', 4, 5.0), "$prefix:$name", "semaphore:$prefix:$name"], 0.6);
?>
--EXPECTF--
the race: {"exception:as-told":16,"exit:as-told":16,"fatal:as-told":16,"ok:as-told":15,"timeout:as-told":1}
the race: peak inside '4'; more than 4 inside: 0 times; in flight after: 0; refused and sent again: some
after fatal: stock's slot still taken for 30 s or more; the drop-in's back
after exception: stock's slot back; the drop-in's back
after exit: stock's slot back; the drop-in's back
after timeout: stock's slot still taken for 30 s or more; the drop-in's back (the race's)
ours, 16 clients x 2: {"ok:as-told":32}; peak inside '%d'; more than 4 inside: 0 times
stock, 16 clients x 2: {"ok:as-told":32}; peak inside '%d'; more than 4 inside: 0 times
the race of 32 took %f s on the drop-in (%d refused and sent again), %f s on stock (%d)
the held lease ends 0.6 s after it was taken: true
killed: in flight 1; three more granted: true; a fifth: NULL
50 ms before the lease ends: in flight 4, another: NULL
50 ms after: in flight 3; one more granted: true; then another: NULL
all released: in flight 0
