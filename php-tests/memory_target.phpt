--TEST--
memory://: every class and a compound decide in process memory as they do on Redis (the same calls, the same answers); names are separate stores, shared by the limiters of one process and by nobody else; ratelimit.redis_url may name one; a bad name is a ValueError
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
rl_redis();

// One sequence of calls; what it prints is compared between the targets.
function calls(RateLimiterInterface $l, string $kind): string
{
    $out = [];
    $r = fn (RateLimitResult $x) => ($x->allowed ? 'Y' : 'n') . $x->remaining . '/' . rl_seconds($kind, $x->retryAfter) . '/' . rl_seconds($kind, $x->resetAfter);
    for ($i = 0; $i < 4; $i++) $out[] = ($l->isAllowed('u') ? 'Y' : 'n') . $l->remaining;
    $out[] = 'cost2 ' . $r($l->consume('v', 2));
    $out[] = 'cost2 again ' . $r($l->consume('v', 2));
    $out[] = 'peek ' . $r($l->peek('u'));
    $out[] = 'many ' . implode(',', array_map($r, $l->consumeMany(['a', 'b', 'a', 'a', 'v'])));
    $l->reset('u');
    $out[] = 'after reset ' . $r($l->consume('u'));
    $out[] = 'default id ' . $r($l->consume());
    return implode(' ', $out);
}

$prefix = 'mem' . getmypid();
foreach (rl_classes() as $kind => $c) {
    $onRedis = calls(rl_long($kind, RL_URL, "$prefix:$kind", 3), $kind);
    $inMemory = calls(rl_long($kind, 'memory://t', "$prefix:$kind", 3), $kind);
    echo $kind, ': ', $onRedis === $inMemory ? 'same' : "Redis: $onRedis\nmemory: $inMemory", "\n";
}

$compound = fn ($conn) => new CompoundRateLimiter([rl_long('token', $conn, "$prefix:c1", 5), rl_long('fixed', $conn, "$prefix:c2", 2)]);
$seq = function (CompoundRateLimiter $c) {
    $out = [];
    foreach ([1, 1, 1, 2] as $cost) $out[] = ($c->consume('x', $cost)->allowed ? 'Y' : 'n') . $c->remaining;
    return implode(' ', $out);
};
$a = $seq($compound(RL_URL));
$b = $seq($compound('memory://t'));
echo "compound: ", $a === $b ? "same ($b)" : "Redis $a, memory $b", "\n";

// Two limiter objects on one name share its state; another name does not.
$x = rl_long('fixed', 'memory://shared', 'p', 2);
$y = rl_long('fixed', 'memory://shared', 'p', 2);
$z = rl_long('fixed', 'memory://other', 'p', 2);
echo "shared: ", var_export([$x->isAllowed(), $y->isAllowed(), $x->isAllowed(), $z->isAllowed()], true) === var_export([true, true, false, true], true) ? 'yes' : 'no', "\n";

// Another process has its own store, empty.
$child = rl_php_shell() . ' -r ' . escapeshellarg('$l = new FixedWindowRateLimiter("memory://shared", "p", 60, 2); echo $l->consume()->remaining;');
echo "another process sees: remaining ", shell_exec($child), "\n";

// ratelimit.redis_url may name a memory store: the short form uses it.
$short = rl_php_shell(['ratelimit.redis_url' => 'memory://']) . ' -r ' . escapeshellarg('$l = new GcraRateLimiter("k", 1, 1, 60.0); echo json_encode([$l->isAllowed(), $l->isAllowed(), $l->isAllowed()]);');
echo "redis_url=memory://: ", shell_exec($short), "\n";
echo "ini_set refuses a bad name: ", var_export(ini_set('ratelimit.redis_url', 'memory://a/b'), true), "\n";

try {
    new FixedWindowRateLimiter('memory://no spaces', 'p', 1, 1);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
--EXPECT--
fixed: same
sliding: same
blocks: same
token: same
leaky: same
gcra: same
compound: same (Y1 Y0 n0 n0)
shared: yes
another process sees: remaining 1
redis_url=memory://: [true,true,false]
ini_set refuses a bad name: false
ValueError: FixedWindowRateLimiter::__construct(): Argument #1 ($connection) must be memory:// or memory://name with a name of letters, digits, '_', '-' and '.', "memory://no spaces" given