--TEST--
CompoundRateLimiter: headers('ietf') lists one policy per member, each with its own q, r and t (before and after a denial, which takes nothing from any member), named by the member's key in $limiters (escaped; positions when a key cannot be an sf-string); the same through consumeMany, a dry run, the block cache setting, on_error answers and memory://; the x style and a single limiter unchanged
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$p = rl_prefix();

/**
 * headers('ietf') on one line. t and Retry-After are whole seconds to each
 * window's end: the window itself right after it opened, one less on a slow
 * machine (a window of 10 s, not 1 s, so that it cannot end mid-test there).
 */
function ietf(RateLimitResult $r): string
{
    $h = $r->headers('ietf');
    $line = "Policy: {$h['RateLimit-Policy']} | RateLimit: {$h['RateLimit']}" . (isset($h['Retry-After']) ? " | Retry-After: {$h['Retry-After']}" : '');
    return preg_replace_callback('/(t=|Retry-After: )(9|59)\b/', fn ($m) => $m[1] . ($m[2] + 1), $line);
}

/** The RateLimit field's items: name => [r, t]. */
function items(RateLimitResult $r): array
{
    preg_match_all('/"((?:[^"\\\\]|\\\\.)*)";r=(\d+);t=(\d+)/', $r->headers('ietf')['RateLimit'], $m, PREG_SET_ORDER);
    return array_combine(array_column($m, 1), array_map(fn ($x) => [(int) $x[2], (int) $x[3]], $m));
}

/** Each item is that member's own decision: r as the member alone now says, t within a second of its reset. */
function own(RateLimitResult $r, array $members, string $id): string
{
    $ok = [];
    foreach (array_values(items($r)) as $i => [$rem, $t]) {
        $alone = $members[$i]->peek($id);
        $ok[] = $rem === $alone->remaining && abs($t - (int) ceil($alone->resetAfter)) <= 1 ? 'own' : "NOT member $i's own ($rem, $t)";
    }
    return implode(' ', $ok);
}

/** The sequence on one target: 3 per 10 s and 10 per minute, as one. */
function run(string $url, string $p): array
{
    $short = new FixedWindowRateLimiter($url, "$p:short", 10, 3);
    $minute = new FixedWindowRateLimiter($url, "$p:minute", 60, 10);
    $both = new CompoundRateLimiter([$short, $minute]);
    $lines = [];
    for ($i = 1; $i <= 5; $i++) {
        $r = $both->consume('k');
        $lines[] = sprintf('%d %s %s | %s', $i, $r->allowed ? 'Y' : 'n', ietf($r), own($r, [$short, $minute], 'k'));
    }
    $x = $r->headers('x');
    $lines[] = "x style, the combined numbers: limit {$x['X-RateLimit-Limit']} remaining {$x['X-RateLimit-Remaining']} reset "
        . ($x['X-RateLimit-Reset'] >= 59 ? 'the minute\'s' : $x['X-RateLimit-Reset']) . " retry {$x['Retry-After']}";
    $lines[] = 'peek: ' . ietf($both->peek('k'));
    foreach ($both->consumeMany(['a', 'a', 'k', 'b']) as $i => $r) {
        $lines[] = "consumeMany[$i] " . ($r->allowed ? 'Y ' : 'n ') . ietf($r);
    }
    $dry = $both->withDryRun()->consume('k');
    $lines[] = sprintf('dry run: allowed %s wouldDeny %s %s', var_export($dry->allowed, true), var_export($dry->wouldDeny, true), ietf($dry));
    return $lines;
}

echo "-- 3 per 10 s and 10 per minute on Redis\n";
$redis = rl_redis();
$compounds = function () use ($redis): int {
    $stats = $redis->info('commandstats');
    return array_sum(array_map(fn ($c) => preg_match('/(?:^|,)calls=(\d+)/', $stats["cmdstat_$c"] ?? '', $m) ? (int) $m[1] : 0,
        ['ratelimit.compound2', 'ratelimit.compound2_peek']));
};
[$before, $calls] = [$compounds(), rl_calls_by_path($redis)];
$lines = run(RL_URL, "$p:redis");
echo implode("\n", $lines), "\n";
// The module's pass: each of the 11 compound calls above (5 consumes, a peek, 4 ids, the dry run) was the
// module's reply, none fell back to Lua; the Lua pass: none was.
$after = rl_calls_by_path($redis);
echo "decided by this pass's path: ", var_export(RL_MODULE !== ''
    ? $compounds() - $before === 11 && $after['lua'] === $calls['lua']
    : $compounds() === $before && $after['lua'] > $calls['lua'], true), "\n";
echo "-- memory:// answers the same: ", var_export(run('memory://compound-headers', "$p:memory") === $lines, true), "\n";

echo "-- the block cache setting: a compound's denial still comes from Redis, each member's own, counting down\n";
ini_set('ratelimit.block_cache', '1');
$hits = function (): int {
    ob_start();
    phpinfo(INFO_MODULES);
    return preg_match('/Block cache.*?hits => (\d+)/s', ob_get_clean(), $m) ? (int) $m[1] : -1;
};
$short = new FixedWindowRateLimiter(RL_URL, "$p:cache-short", 10, 1);
$minute = new FixedWindowRateLimiter(RL_URL, "$p:cache-minute", 60, 5);
$both = new CompoundRateLimiter([$short, $minute]);
$both->consume('c');
$before = $hits();
$first = $both->consume('c');
echo ietf($first), "\n";
usleep(1_100_000);
$later = $both->consume('c');
echo "a second later: ", own($later, [$short, $minute], 'c'), ", each t down by at least 1: ",
    var_export(array_map(fn ($a, $b) => $b[1] <= $a[1] - 1, items($first), items($later)) === [true, true], true),
    ", r unchanged: ", var_export(array_column(items($later), 0) === array_column(items($first), 0), true),
    ", block cache hits: ", $hits() - $before, "\n";
ini_restore('ratelimit.block_cache');

echo "-- names: the members' keys in \$limiters\n";
$a = new FixedWindowRateLimiter(RL_URL, "$p:n1", 10, 3);
$b = new TokenBucketRateLimiter(RL_URL, "$p:n2", 10, 1.0);
echo ietf((new CompoundRateLimiter(['per 10 s' => $a, 'burst "b\\c"' => $b]))->consume('n')), "\n";
echo ietf((new CompoundRateLimiter([7 => $a, 'x' => $b]))->peek('n')), "\n";
echo ietf((new CompoundRateLimiter(["d\u{e9}bit" => $a, 'x' => $b]))->peek('n')), " (a key that is no sf-string)\n";
echo ietf((new CompoundRateLimiter(['solo' => $a]))->peek('n')), " (one member)\n";
echo ietf($a->peek('n')), " (one limiter alone)\n";

echo "-- on_error answers: every member the answer for its own limit\n";
$down = 'redis://127.0.0.1:' . rl_free_port();
$offline = new CompoundRateLimiter([new FixedWindowRateLimiter($down, "$p:o1", 10, 3), new FixedWindowRateLimiter($down, "$p:o2", 60, 10)]);
foreach (['allow', 'deny'] as $policy) {
    ini_set('ratelimit.on_error', $policy);
    echo "$policy: ", ietf($offline->consume('o')), "\n";
}
ini_restore('ratelimit.on_error');
?>
--EXPECT--
-- 3 per 10 s and 10 per minute on Redis
1 Y Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=2;t=10, "1";r=9;t=60 | own own
2 Y Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=1;t=10, "1";r=8;t=60 | own own
3 Y Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=0;t=10, "1";r=7;t=60 | own own
4 n Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=0;t=10, "1";r=7;t=60 | Retry-After: 10 | own own
5 n Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=0;t=10, "1";r=7;t=60 | Retry-After: 10 | own own
x style, the combined numbers: limit 3 remaining 0 reset the minute's retry 10
peek: Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=0;t=10, "1";r=7;t=60 | Retry-After: 10
consumeMany[0] Y Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=2;t=10, "1";r=9;t=60
consumeMany[1] Y Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=1;t=10, "1";r=8;t=60
consumeMany[2] n Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=0;t=10, "1";r=7;t=60 | Retry-After: 10
consumeMany[3] Y Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=2;t=10, "1";r=9;t=60
dry run: allowed true wouldDeny true Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=0;t=10, "1";r=7;t=60
decided by this pass's path: true
-- memory:// answers the same: true
-- the block cache setting: a compound's denial still comes from Redis, each member's own, counting down
Policy: "0";q=1, "1";q=5 | RateLimit: "0";r=0;t=10, "1";r=4;t=60 | Retry-After: 10
a second later: own own, each t down by at least 1: true, r unchanged: true, block cache hits: 0
-- names: the members' keys in $limiters
Policy: "per 10 s";q=3, "burst \"b\\c\"";q=10 | RateLimit: "per 10 s";r=2;t=10, "burst \"b\\c\"";r=9;t=1
Policy: "7";q=3, "x";q=10 | RateLimit: "7";r=2;t=10, "x";r=9;t=1
Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=2;t=10, "1";r=9;t=1 (a key that is no sf-string)
Policy: "solo";q=3 | RateLimit: "solo";r=2;t=10 (one member)
Policy: "default";q=3 | RateLimit: "default";r=2;t=10 (one limiter alone)
-- on_error answers: every member the answer for its own limit
allow: Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=3;t=0, "1";r=10;t=0
deny: Policy: "0";q=3, "1";q=10 | RateLimit: "0";r=0;t=1, "1";r=0;t=1 | Retry-After: 1
