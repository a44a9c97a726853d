--TEST--
Lock-out on every class and CompoundRateLimiter (Lua library, server module, memory://): block() denies every call for the id for $seconds (a longer block kept) with retryAfter = resetAfter = its time left and nothing consumed; peek() shows it; unblock() ends it; reset() clears counters and block; withLockout() is a copy that blocks an id whenever one of its calls is denied; blocks hold across processes and end on time; dry run, the block cache and bad input
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.block_cache=0
ratelimit.retry_interval=0
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$r = rl_redis();
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($x) => $x->allowed ? 'Y' : 'n', $results));
// A time left, within 50 ms of what it should be.
$near = fn (float $t, float $want) => abs($t - $want) <= 0.05 ? "~$want" : "$t (want $want)";

foreach (['redis' => RL_URL, 'memory' => 'memory://lockout'] as $where => $connection) {
    echo "-- $where: every class\n";
    $seen = [];
    foreach (array_keys(rl_classes()) as $kind) {
        $l = rl_long($kind, $connection, "$p:$where:$kind", 3);
        $l->consume('u');
        $before = $where === 'redis' ? rl_state($kind, $r, "$p:$where:$kind:u", 3) : '';
        $l->block('u', 30);
        $l->block('u', 0.2);                     // shorter: the longer block is kept
        $d = $l->consume('u');
        $seen[$kind]['blocked consume: allowed remaining retryAfter resetAfter'] =
            json_encode([$d->allowed, $d->remaining]) . ' ' . $near($d->retryAfter, 30) . ' ' . $near($d->resetAfter, 30);
        $seen[$kind]['isAllowed, consumeMany'] = json_encode($l->isAllowed('u')) . ' ' . $yn($l->consumeMany(['u', 'v', 'u']));
        if ($where === 'redis') {
            $seen[$kind]['nothing consumed while blocked'] = rl_state($kind, $r, "$p:$where:$kind:u", 3) === $before ? 'yes' : 'NO';
            $ttl = $r->pttl("$p:$where:$kind!lockout:u");
            $seen[$kind]['block key and its TTL'] = $ttl > 29000 && $ttl <= 30000 ? 'TTL of the block' : $ttl;
        }
        $pk = $l->peek('u');
        $seen[$kind]['peek'] = json_encode([$pk->allowed, $pk->remaining]) . ' ' . $near($pk->retryAfter, 30);
        $l->unblock('u');
        $seen[$kind]['after unblock: remaining of the counters'] = $l->consume('u')->remaining;
        $locked = $l->withLockout(400);     // longer than any of these policies' own waits
        $seen[$kind]['withLockout: copy of its class, original unchanged'] = json_encode([get_class($locked) === get_class($l), $locked !== $l]);
        $calls = [$locked->consume('u'), $locked->consume('u', 2)];   // 2 left: the cost-2 call is denied
        $seen[$kind]['withLockout: the denial blocks for 400 s'] = $yn($calls) . ' ' . $near($calls[1]->retryAfter, 400) . ' ' . $near($calls[1]->resetAfter, 400);
        $seen[$kind]['then even cost 1 (the original limiter too)'] = $yn([$locked->consume('u'), $l->consume('u')]) . ' ' . $near($l->peek('u')->resetAfter, 400);
        $l->reset('u');
        $seen[$kind]['reset clears counters and block'] = $l->consume('u')->remaining . ($where === 'redis' ? ' ' . json_encode($r->exists("$p:$where:$kind!lockout:u")) : '');
    }
    rl_table($seen);

    echo "-- $where: CompoundRateLimiter\n";
    $a = rl_long('fixed', $connection, "$p:$where:ca", 2);
    $b = rl_long('gcra', $connection, "$p:$where:cb", 5);
    $c = new CompoundRateLimiter([$a, $b]);
    $c->consume('k');
    $c->block('k', 20);
    $d = $c->consume('k');
    echo 'blocked: ', json_encode([$d->allowed, $d->remaining]), ' ', $near($d->retryAfter, 20), '; members alone: ', $yn([$a->consume('k'), $b->consume('k')]), "\n";
    $b->unblock('k');
    echo 'one member unblocked, the other still blocks: ', $yn([$c->consume('k'), $b->consume('k')]), "\n";
    $c->unblock('k');
    echo 'unblocked: ', $yn([$c->consume('k')]), ' remaining ', $c->remaining, "\n";
    $lc = $c->withLockout(400);
    $d = $lc->consume('k', 1);   // a: 2 used of 2: denied, so every member is blocked
    echo 'withLockout: ', $yn([$d]), ' ', $near($d->retryAfter, 400), '; members alone now: ', $yn([$a->consume('k'), $b->consume('k')]),
        ' ', $near($b->peek('k')->retryAfter, 400), "\n";
    $c->reset('k');
    echo 'reset: ', $yn([$a->consume('k'), $b->consume('k')]), "\n";
}

echo "-- across processes: a 0.3 s block, seen by 3 other processes, ends on time\n";
// The children connect first and wait for the word: the block starts once all are ready.
$code = '$l = new TokenBucketRateLimiter(' . var_export(RL_URL, true) . ', ' . var_export("$p:procs", true) . ', 100, 1);'
    . '$l->peek("warm"); echo "ready\n"; fgets(STDIN);'
    . '$seen = []; $t0 = microtime(true);'
    . 'while (microtime(true) - $t0 < 2.0) { $x = $l->consume("ip"); if ($x->allowed) break; $seen[] = $x->retryAfter; usleep(10000); }'
    . 'echo json_encode(["allowed_at" => microtime(true), "denied" => count($seen), "first_retry" => $seen[0] ?? null]);';
$procs = $pipes = [];
for ($i = 0; $i < 3; $i++) {
    $procs[] = proc_open(array_merge(rl_php_command(), ['-r', $code]), [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes[$i]);
}
foreach ($pipes as $pp) fgets($pp[1]);
$l = new TokenBucketRateLimiter(RL_URL, "$p:procs", 100, 1);
$start = microtime(true);
$l->block('ip', 0.3);
foreach ($pipes as $pp) fwrite($pp[0], "go\n");
foreach ($procs as $i => $proc) {
    $out = json_decode(stream_get_contents($pipes[$i][1]), true);
    proc_close($proc);
    $ended = $out['allowed_at'] - $start;
    printf("process %d: denied first (retryAfter %s), allowed %s\n", $i,
        $out['denied'] >= 1 && $out['first_retry'] > 0 && $out['first_retry'] <= 0.3 ? 'within the block' : json_encode($out),
        $ended >= 0.29 && $ended < 0.3 + 0.15 ? 'when the block ended' : "after $ended s");
}

echo "-- withLockout: a 0.3 s lockout after a denial ends on time\n";
$short = (new FixedWindowRateLimiter(RL_URL, "$p:short", 0.05, 1))->withLockout(0.3);
$t0 = microtime(true);
$x = [$short->consume('s'), $short->consume('s')];
echo $yn($x), ' retryAfter ', $near($x[1]->retryAfter, 0.3);
rl_sleep_until($t0 + 0.25);
echo ', at 0.25 s ', $yn([$short->consume('s')]);
rl_sleep_until($t0 + 0.32);
echo ', at 0.32 s ', $yn([$short->consume('s')]), "\n";

echo "-- dry run: a blocked id is wouldDeny, never denied\n";
$dl = (new FixedWindowRateLimiter(RL_URL, "$p:dry", 60, 1))->withLockout(60)->withDryRun();
$x = [$dl->consume('d'), $dl->consume('d'), $dl->consume('d')];
echo $yn($x), ' wouldDeny ', json_encode(array_map(fn ($y) => $y->wouldDeny, $x)), ' blocked for ', $near($x[2]->retryAfter, 60), "\n";

echo "-- the block cache answers a blocked id from memory, and unblock() forgets it\n";
ini_set('ratelimit.block_cache', '1');
$bc = new GcraRateLimiter(RL_URL, "$p:cache", 5, 5, 1);
$bc->block('c', 0.5);
$r->rawCommand('CONFIG', 'RESETSTAT');
$first = $bc->consume('c');
usleep(100000);
$second = $bc->consume('c');
echo 'decisions Redis ran: ', rl_library_calls($r), '; the second answer counts down: ', $second->retryAfter < $first->retryAfter - 0.05 ? 'yes' : 'no', "\n";
$bc->unblock('c');
echo 'after unblock: ', $yn([$bc->consume('c')]), "\n";
ini_set('ratelimit.block_cache', '0');

echo "-- bad input: ValueError naming the parameter, before Redis\n";
$bad = new FixedWindowRateLimiter('redis://127.0.0.1:1', 'nowhere', 60, 1);
foreach ([0, -1, NAN, INF, 315360001, 0.0001] as $s) rl_throws(fn () => $bad->block('u', $s));
rl_throws(fn () => $bad->withLockout(0));
rl_throws(fn () => $bad->withLockout(NAN));
rl_throws(fn () => $bad->block('u', 'soon'));
echo "-- a Redis failure throws, whatever ratelimit.on_error says (a lost block is a lost write)\n";
ini_set('ratelimit.on_error', 'allow');
rl_throws(fn () => $bad->block('u', 1));
rl_throws(fn () => $bad->unblock('u'));
ini_set('ratelimit.on_error', 'throw');

echo "-- Reflection\n";
foreach (['block', 'unblock', 'withLockout'] as $m) {
    $rm = new ReflectionMethod('SlidingWindowRateLimiter', $m);
    echo $m, '(', implode(', ', array_map(fn ($q) => $q->getType() . ' $' . $q->getName(), $rm->getParameters())), '): ', $rm->getReturnType(), "\n";
}
--EXPECT--
-- redis: every class
blocked consume: allowed remaining retryAfter resetAfter: [false,0] ~30 ~30
isAllowed, consumeMany: false nYn
nothing consumed while blocked: yes
block key and its TTL: TTL of the block
peek: [false,0] ~30
after unblock: remaining of the counters: 1
withLockout: copy of its class, original unchanged: [true,true]
withLockout: the denial blocks for 400 s: Yn ~400 ~400
then even cost 1 (the original limiter too): nn ~400
reset clears counters and block: 2 0
-- redis: CompoundRateLimiter
blocked: [false,0] ~20; members alone: nn
one member unblocked, the other still blocks: nY
unblocked: Y remaining 0
withLockout: n ~400; members alone now: nn ~400
reset: YY
-- memory: every class
blocked consume: allowed remaining retryAfter resetAfter: [false,0] ~30 ~30
isAllowed, consumeMany: false nYn
peek: [false,0] ~30
after unblock: remaining of the counters: 1
withLockout: copy of its class, original unchanged: [true,true]
withLockout: the denial blocks for 400 s: Yn ~400 ~400
then even cost 1 (the original limiter too): nn ~400
reset clears counters and block: 2
-- memory: CompoundRateLimiter
blocked: [false,0] ~20; members alone: nn
one member unblocked, the other still blocks: nY
unblocked: Y remaining 0
withLockout: n ~400; members alone now: nn ~400
reset: YY
-- across processes: a 0.3 s block, seen by 3 other processes, ends on time
process 0: denied first (retryAfter within the block), allowed when the block ended
process 1: denied first (retryAfter within the block), allowed when the block ended
process 2: denied first (retryAfter within the block), allowed when the block ended
-- withLockout: a 0.3 s lockout after a denial ends on time
Yn retryAfter ~0.3, at 0.25 s n, at 0.32 s Y
-- dry run: a blocked id is wouldDeny, never denied
YYY wouldDeny [false,true,true] blocked for ~60
-- the block cache answers a blocked id from memory, and unblock() forgets it
decisions Redis ran: 1; the second answer counts down: yes
after unblock: Y
-- bad input: ValueError naming the parameter, before Redis
ValueError: FixedWindowRateLimiter::block(): Argument #2 ($seconds) must be greater than 0
ValueError: FixedWindowRateLimiter::block(): Argument #2 ($seconds) must be greater than 0
ValueError: FixedWindowRateLimiter::block(): Argument #2 ($seconds) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::block(): Argument #2 ($seconds) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::block(): Argument #2 ($seconds) must be at most 315360000 seconds (10 years)
ValueError: FixedWindowRateLimiter::block(): Argument #2 ($seconds) must be at least 0.001 (one millisecond)
ValueError: FixedWindowRateLimiter::withLockout(): Argument #1 ($seconds) must be greater than 0
ValueError: FixedWindowRateLimiter::withLockout(): Argument #1 ($seconds) must be a finite number of seconds
TypeError: FixedWindowRateLimiter::block(): Argument #2 ($seconds) must be of type float, string given
-- a Redis failure throws, whatever ratelimit.on_error says (a lost block is a lost write)
RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
RateLimiterException: Redis at redis://127.0.0.1:1: connection refused
-- Reflection
block(string $id, float $seconds): void
unblock(string $id): void
withLockout(float $seconds): static