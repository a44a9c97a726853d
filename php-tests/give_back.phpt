--TEST--
refund() and charge() on every class, and CompoundRateLimiter's on all members in one call; bad units are ValueErrors before Redis; a refund clears this process's cached denial (ratelimit.block_cache); a charge may take more than the limit; dry run answers a charge's debt with wouldDeny; metrics count them as decisions; ratelimit.on_error answers them
--INI--
ratelimit.block_cache=1
ratelimit.metrics=local
ratelimit.connect_timeout=0.2
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$r = fn (RateLimitResult $x) => sprintf('%s rem %d%s', $x->allowed ? 'allowed' : 'denied', $x->remaining,
    $x->allowed ? '' : sprintf(' retry %s', $x->retryAfter > 0 ? '>0' : '0'));
foreach (rl_classes() as $kind => $c) {
    $p = rl_prefix("gbf-$kind");
    $l = rl_long($kind, RL_URL, $p, 3);
    $l->consume('u', 3);
    $back = $l->refund('u', 2);
    $kept = $l->remaining;
    $after = [$l->consume('u')->allowed, $l->consume('u')->allowed, $l->consume('u')->allowed];
    $owe = $l->charge('u', 2);
    printf("%-8s refund: %s (\$remaining %d); then %s; charge: %s; next consume: %s\n", $kind, $r($back), $kept,
        implode(' ', array_map(fn ($a) => $a ? 'Y' : 'N', $after)), $r($owe), $r($l->consume('u')));
    foreach ([fn () => $l->refund('u', 0), fn () => $l->charge('u', 0), fn () => $l->refund('u', 2 ** 41)] as $bad) {
        rl_throws($bad);
    }
}

echo "-- a compound gives back on every member\n";
$p = rl_prefix('gbf-compound');
$a = new FixedWindowRateLimiter(RL_URL, "$p:a", 60, 3);
$b = new TokenBucketRateLimiter(RL_URL, "$p:b", 5, 0.001);
$both = new CompoundRateLimiter([$a, $b]);
$both->consume('u', 3);
echo 'refund: ', $r($both->refund('u', 2)), '; members: ', $a->peek('u')->remaining, ' ', $b->peek('u')->remaining, "\n";
echo 'charge: ', $r($both->charge('u', 3)), '; members: ', $a->peek('u')->remaining, ' ', $b->peek('u')->remaining, "\n";
rl_throws(fn () => $both->refund('u', -1));

echo "-- a refund clears the cached denial\n";
$g = new GcraRateLimiter(RL_URL, rl_prefix('gbf-cache'), 0, 1, 60);
$g->consume('u');
$g->consume('u');                       // denied by Redis, remembered
echo 'cached: ', $r($g->consume('u')), "\n";
$g->refund('u');
echo 'after the refund: ', $r($g->consume('u')), "\n";

echo "-- dry run\n";
$d = (new TokenBucketRateLimiter(RL_URL, rl_prefix('gbf-dry'), 2, 0.001))->withDryRun();
$x = $d->charge('u', 2);
$y = $d->charge('u', 1);
printf("within: allowed %s wouldDeny %s; past the limit: allowed %s wouldDeny %s\n",
    var_export($x->allowed, true), var_export($x->wouldDeny, true), var_export($y->allowed, true), var_export($y->wouldDeny, true));

echo "-- metrics: a refund and a charge within the limit count as allowed, a charge past it as denied\n";
$m = RateLimitMetrics::local()[rl_prefix('gbf-token')];
echo "token bucket: allowed {$m['allowed']} denied {$m['denied']}\n";

echo "-- on_error\n";
$down = new FixedWindowRateLimiter('redis://127.0.0.1:' . rl_free_port(), rl_prefix('gbf-down'), 60, 3);
ini_set('ratelimit.on_error', 'allow');
echo 'allow: ', $r($down->refund('u')), ' / ', $r($down->charge('u')), "\n";
ini_set('ratelimit.on_error', 'deny');
echo 'deny: ', $r($down->charge('u')), "\n";
ini_set('ratelimit.on_error', 'throw');
rl_throws(fn () => $down->refund('u'));
?>
--EXPECTF--
fixed    refund: allowed rem 2 ($remaining 2); then Y Y N; charge: denied rem 0 retry >0; next consume: denied rem 0 retry >0
ValueError: FixedWindowRateLimiter::refund(): Argument #2 ($units) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::charge(): Argument #2 ($units) must be greater than or equal to 1
ValueError: FixedWindowRateLimiter::refund(): Argument #2 ($units) must be at most 1099511627776, 2199023255552 given
sliding  refund: allowed rem 2 ($remaining 2); then Y Y N; charge: denied rem 0 retry >0; next consume: denied rem 0 retry >0
ValueError: SlidingWindowRateLimiter::refund(): Argument #2 ($units) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::charge(): Argument #2 ($units) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::refund(): Argument #2 ($units) must be at most 1099511627776, 2199023255552 given
blocks   refund: allowed rem 2 ($remaining 2); then Y Y N; charge: denied rem 0 retry >0; next consume: denied rem 0 retry >0
ValueError: SlidingWindowRateLimiter::refund(): Argument #2 ($units) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::charge(): Argument #2 ($units) must be greater than or equal to 1
ValueError: SlidingWindowRateLimiter::refund(): Argument #2 ($units) must be at most 1099511627776, 2199023255552 given
token    refund: allowed rem 2 ($remaining 2); then Y Y N; charge: denied rem 0 retry >0; next consume: denied rem 0 retry >0
ValueError: TokenBucketRateLimiter::refund(): Argument #2 ($units) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::charge(): Argument #2 ($units) must be greater than or equal to 1
ValueError: TokenBucketRateLimiter::refund(): Argument #2 ($units) must be at most 1099511627776, 2199023255552 given
leaky    refund: allowed rem 2 ($remaining 2); then Y Y N; charge: denied rem 0 retry >0; next consume: denied rem 0 retry >0
ValueError: LeakyBucketRateLimiter::refund(): Argument #2 ($units) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::charge(): Argument #2 ($units) must be greater than or equal to 1
ValueError: LeakyBucketRateLimiter::refund(): Argument #2 ($units) must be at most 1099511627776, 2199023255552 given
gcra     refund: allowed rem 2 ($remaining 2); then Y Y N; charge: denied rem 0 retry >0; next consume: denied rem 0 retry >0
ValueError: GcraRateLimiter::refund(): Argument #2 ($units) must be greater than or equal to 1
ValueError: GcraRateLimiter::charge(): Argument #2 ($units) must be greater than or equal to 1
ValueError: GcraRateLimiter::refund(): Argument #2 ($units) must be at most 1099511627776, 2199023255552 given
-- a compound gives back on every member
refund: allowed rem 2; members: 2 4
charge: denied rem 0 retry >0; members: 0 1
ValueError: CompoundRateLimiter::refund(): Argument #2 ($units) must be greater than or equal to 1
-- a refund clears the cached denial
cached: denied rem 0 retry >0
after the refund: allowed rem 0
-- dry run
within: allowed true wouldDeny false; past the limit: allowed true wouldDeny true
-- metrics: a refund and a charge within the limit count as allowed, a charge past it as denied
token bucket: allowed 4 denied 3
-- on_error
allow: allowed rem 3 / allowed rem 3
deny: denied rem 0 retry >0
RateLimiterException: %s
