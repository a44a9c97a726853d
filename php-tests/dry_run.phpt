--TEST--
Dry run (withDryRun(), ratelimit.dry_run): every class decides and writes exactly what enforcing writes (a would-deny consumes nothing) but never denies; wouldDeny and the real remaining/retryAfter; headers() of an accepted request; withDryRun() is a copy of the object's own class; consumeMany, CompoundRateLimiter, the block cache, memory://, throttle() and on_error honour it
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.block_cache=0
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$r = rl_redis();
$p = rl_prefix();

echo "-- every class: the same answers and the same state as an enforcing twin\n";
$seen = [];
foreach (array_keys(rl_classes()) as $kind) {
    $enforcing = rl_long($kind, RL_URL, "$p:$kind:e", 3);
    $dry = rl_long($kind, RL_URL, "$p:$kind:d", 3)->withDryRun();
    $calls = [];
    foreach ([1, 1, 2, 1, 1, 1] as $cost) {
        $e = $enforcing->consume('u', $cost);
        $d = $dry->consume('u', $cost);
        $same = $e->remaining === $d->remaining && abs($e->retryAfter - $d->retryAfter) < 0.05 && abs($e->resetAfter - $d->resetAfter) < 0.05;
        $calls[] = ($e->allowed ? 'Y' : 'n') . ($d->allowed ? 'Y' : 'n') . ($d->wouldDeny ? 'w' : '-') . ($e->wouldDeny ? '!' : '') . ($same ? '' : '≠');
    }
    $seen[$kind]['enforcing/dry run/wouldDeny per call'] = implode(' ', $calls);
    $seen[$kind]['state'] = rl_state($kind, $r, "$p:$kind:e:u", 3) === rl_state($kind, $r, "$p:$kind:d:u", 3) ? 'the same' : 'differs';
    $seen[$kind]['isAllowed() when it would deny'] = var_export($dry->isAllowed('u'), true) . ', $remaining ' . $dry->remaining;
    $seen[$kind]['access()'] = var_export($dry->access('u'), true);
    $peek = $dry->peek('u');
    $seen[$kind]['peek()'] = json_encode([$peek->allowed, $peek->wouldDeny]);
}
rl_table($seen);

echo "-- headers(): what an accepted request gets (no Retry-After), with the real numbers\n";
$dry = (new FixedWindowRateLimiter(RL_URL, "$p:h", 60, 1))->withDryRun();
$dry->consume('u');
$over = $dry->consume('u');
echo json_encode([$over->allowed, $over->wouldDeny, $over->remaining, $over->retryAfter > 59]), ' ', json_encode(array_keys($over->headers())), ' ', json_encode(array_keys($over->headers('ietf'))), "\n";

echo "-- withDryRun(): a copy; the original unchanged; false enforces whatever the ini says\n";
class MyLimiter extends TokenBucketRateLimiter
{
    public string $label = 'mine';
}
$mine = new MyLimiter(RL_URL, "$p:mine", 1, 0.001);
$mine->label = 'changed';
$mine->consume('x');
$copy = $mine->withDryRun();
var_dump(get_class($copy), $copy !== $mine, $copy->label, $copy->remaining, (new ReflectionMethod($mine, 'withDryRun'))->getReturnType()->getName());
echo 'original denies: ', json_encode($mine->isAllowed('x')), ', copy does not: ', json_encode($copy->isAllowed('x')), ', withDryRun(false) denies: ', json_encode($copy->withDryRun(false)->isAllowed('x')), "\n";
ini_set('ratelimit.dry_run', '1');
echo 'ratelimit.dry_run=1 at run time: ', json_encode($mine->isAllowed('x')), ', withDryRun(false) still enforces: ', json_encode($mine->withDryRun(false)->isAllowed('x')), "\n";
echo 'a limiter made while it is on follows the setting, call by call: ';
$later = new FixedWindowRateLimiter(RL_URL, "$p:later", 60, 1);
$later->consume('x');
echo json_encode($later->isAllowed('x')), ' ';
ini_set('ratelimit.dry_run', '0');
echo json_encode($later->isAllowed('x')), "\n";
rl_throws(fn () => $mine->withDryRun([]));
var_dump($mine->withDryRun('0')->isAllowed('x'));

echo "-- consumeMany(): every id as consume() would answer it, none denied\n";
$batch = (new TokenBucketRateLimiter(RL_URL, "$p:many", 2, 0.001))->withDryRun()->consumeMany(['a', 'a', 'a', 'b']);
echo implode(' ', array_map(fn ($x) => ($x->allowed ? 'Y' : 'n') . ($x->wouldDeny ? 'w' : '-') . $x->remaining, $batch)), "\n";
echo "fixed window at cost 1: ";
$batch = (new FixedWindowRateLimiter(RL_URL, "$p:fw", 60, 2))->withDryRun()->consumeMany(['a', 'a', 'a']);
echo implode(' ', array_map(fn ($x) => ($x->allowed ? 'Y' : 'n') . ($x->wouldDeny ? 'w' : '-') . $x->remaining, $batch)), "\n";

echo "-- CompoundRateLimiter: its own choice, all or nothing as when enforcing\n";
$perSecond = new TokenBucketRateLimiter(RL_URL, "$p:c1", 5, 0.001);
$perDay = new FixedWindowRateLimiter(RL_URL, "$p:c2", 86400, 2);
$both = (new CompoundRateLimiter([$perSecond, $perDay]))->withDryRun();
$answers = [];
for ($i = 0; $i < 3; $i++) {
    $x = $both->consume('u');
    $answers[] = ($x->allowed ? 'Y' : 'n') . ($x->wouldDeny ? 'w' : '-') . $x->remaining;
}
echo implode(' ', $answers), "; tokens left ", $perSecond->peek('u')->remaining, " (the would-deny took none)\n";
echo 'an enforcing copy denies: ', json_encode($both->withDryRun(false)->isAllowed('u')), "\n";

echo "-- the block cache: a dry-run limiter is answered from it, and never told 'denied'\n";
ini_set('ratelimit.block_cache', '1');
// Counts server-wide figures (INFO stats): a server of this part's own.
$own = rl_start_redis();
$ownClient = rl_redis($own['port']);
$cached = (new GcraRateLimiter('redis://127.0.0.1:' . $own['port'], "$p:bc", 0, 1, 60))->withDryRun();
$cached->consume('u');
$first = $cached->consume('u');
$commands = fn () => (int) $ownClient->info('stats')['total_commands_processed'];
$before = $commands();
$again = $cached->consume('u');
$sent = $commands() - $before - 1;
echo json_encode([$first->allowed, $first->wouldDeny, $again->allowed, $again->wouldDeny, $again->retryAfter > 0]), ", commands sent for the second: $sent\n";
$enforcing = $cached->withDryRun(false);
echo 'the same cache entry for an enforcing copy: ', json_encode($enforcing->isAllowed('u')), "\n";
ini_set('ratelimit.block_cache', '0');
rl_stop_redis($own);

echo "-- memory://: the same\n";
$mem = (new LeakyBucketRateLimiter('memory://dry', "$p:mem", 2, 0.001))->withDryRun();
echo implode(' ', array_map(fn () => ($x = $mem->consume('u')) ? ($x->allowed ? 'Y' : 'n') . ($x->wouldDeny ? 'w' : '-') . $x->remaining : '', [1, 2, 3])), "\n";

echo "-- throttle(): never limited in dry run\n";
$g = (new GcraRateLimiter(RL_URL, "$p:cell", 0, 1, 60))->withDryRun();
echo json_encode($g->throttle('u')), ' ', json_encode($g->throttle('u')), ' ', json_encode($g->throttle('u', 5)), "\n";

echo "-- on_error: deny is not a denial in dry run; throw still throws\n";
$down = rl_unanswered_connect();
ini_set('ratelimit.connect_timeout', '0.2');
ini_set('ratelimit.on_error', 'deny');
$x = (new TokenBucketRateLimiter($down['url'], "$p:down", 5, 1))->withDryRun()->consume('u');
echo json_encode([$x->allowed, $x->wouldDeny, $x->remaining]), "\n";
ini_set('ratelimit.on_error', 'throw');
rl_throws(fn () => (new TokenBucketRateLimiter($down['url'], "$p:down", 5, 1))->withDryRun()->consume('u'));
?>
--EXPECTF--
-- every class: the same answers and the same state as an enforcing twin
enforcing/dry run/wouldDeny per call: YY- YY- nYw YY- nYw nYw
state: the same
isAllowed() when it would deny: true, $remaining 0
access(): true
peek(): [true,true]
-- headers(): what an accepted request gets (no Retry-After), with the real numbers
[true,true,0,true] ["X-RateLimit-Limit","X-RateLimit-Remaining","X-RateLimit-Reset"] ["RateLimit-Policy","RateLimit"]
-- withDryRun(): a copy; the original unchanged; false enforces whatever the ini says
string(9) "MyLimiter"
bool(true)
string(7) "changed"
int(0)
string(6) "static"
original denies: false, copy does not: true, withDryRun(false) denies: false
ratelimit.dry_run=1 at run time: true, withDryRun(false) still enforces: false
a limiter made while it is on follows the setting, call by call: true false
TypeError: TokenBucketRateLimiter::withDryRun(): Argument #1 ($on) must be of type bool, array given
bool(false)
-- consumeMany(): every id as consume() would answer it, none denied
Y-1 Y-0 Yw0 Y-1
fixed window at cost 1: Y-1 Y-0 Yw0
-- CompoundRateLimiter: its own choice, all or nothing as when enforcing
Y-1 Y-0 Yw0; tokens left 3 (the would-deny took none)
an enforcing copy denies: false
-- the block cache: a dry-run limiter is answered from it, and never told 'denied'
[true,true,true,true,true], commands sent for the second: 0
the same cache entry for an enforcing copy: false
-- memory://: the same
Y-1 Y-0 Yw0
-- throttle(): never limited in dry run
[0,1,0,-1,60] [0,1,0,-1,60] [0,1,0,-1,60]
-- on_error: deny is not a denial in dry run; throw still throws
[true,true,0]
RateLimiterException: %s
