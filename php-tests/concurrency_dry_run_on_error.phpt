--TEST--
ConcurrencyLimiter: dry run grants every acquire and says in the permit what enforcing would have answered (wouldDeny; such a permit is not counted); on_error allow grants a permit that is not counted, deny answers null, throw a RateLimiterException; reset() always throws; ratelimit.metrics counts acquires
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.metrics=local
ratelimit.connect_timeout=0.2
--FILE--
<?php
require __DIR__ . '/config.inc';
$prefix = rl_prefix();
$l = new ConcurrencyLimiter(RL_URL, $prefix, 1, 1.0);
ini_set('ratelimit.dry_run', '1');
$a = $l->acquire('d');
$b = $l->acquire('d');
var_dump($a->wouldDeny, $b->wouldDeny, $b->remaining, $l->inFlight('d'));
$b->release();
$b->renew();
var_dump($l->inFlight('d'));
ini_set('ratelimit.dry_run', '0');
var_dump($l->acquire('d'));
$a->release();
$m = RateLimitMetrics::local()[$prefix];
echo "allowed {$m['allowed']}, denied {$m['denied']}, would_deny {$m['would_deny']}\n";

$down = new ConcurrencyLimiter('redis://127.0.0.1:1', $prefix, 1, 1.0);
ini_set('ratelimit.on_error', 'allow');
$p = $down->acquire('x');
var_dump($p->remaining, $p->wouldDeny);
$p->renew();
$p->release();
ini_set('ratelimit.on_error', 'deny');
var_dump($down->acquire('x'));
ini_set('ratelimit.on_error', 'throw');
foreach ([fn () => $down->acquire('x'), fn () => $down->inFlight('x')] as $call) {
    try {
        $call();
    } catch (RateLimiterException $e) {
        echo "RateLimiterException: ", str_contains($e->getMessage(), 'connection refused') ? 'connection refused' : $e->getMessage(), "\n";
    }
}
ini_set('ratelimit.on_error', 'allow');
try {
    $down->reset('x');
} catch (RateLimiterException $e) {
    echo "reset: RateLimiterException\n";
}
?>
--EXPECT--
bool(false)
bool(true)
int(0)
int(1)
int(1)
NULL
allowed 1, denied 1, would_deny 1
int(1)
bool(false)
NULL
RateLimiterException: connection refused
RateLimiterException: connection refused
reset: RateLimiterException
