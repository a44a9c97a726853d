--TEST--
ratelimit.on_error=local with a lock-out: while Redis is away the local store keeps blocks of its own (a local denial of a withLockout() limiter blocks the id in this process; a charge is denied by it, a refund is not); a block Redis holds is not known locally
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.timeout=0.2
ratelimit.connect_timeout=0.2
ratelimit.retry_interval=0.3
ratelimit.on_error=local
--FILE--
<?php
require __DIR__ . '/../config.inc';
ini_set("log_errors", "1");
ini_set('error_log', tempnam(sys_get_temp_dir(), 'rl-log'));
$server = rl_start_redis();
$url = "redis://127.0.0.1:{$server['port']}";
// A share of 2 per minute locally (0.1 of 20), blocked for 30 s on a denial.
$login = (new FixedWindowRateLimiter($url, 'login', 60, 20))->withLockout(30);
$login->block('mallory', 600);
echo "redis: mallory ", $login->isAllowed('mallory') ? 'allowed' : 'blocked', "\n";
rl_stop_redis($server, false);
echo "-- Redis is down\n";
$r = [];
for ($i = 0; $i < 4; $i++) {
    $r[] = $login->consume('alice');
}
foreach ($r as $i => $x) {
    printf("alice #%d: %s %s retry %s\n", $i + 1, $x->source, $x->allowed ? 'allowed' : 'denied',
        $x->allowed ? '-' : ($x->retryAfter > 29 && $x->retryAfter <= 60 ? '30 s or more' : $x->retryAfter));
}
$c = $login->charge('alice');
printf("charge: %s %s, retry %s\n", $c->source, $c->allowed ? 'allowed' : 'denied', $c->retryAfter > 29 ? 'the block' : $c->retryAfter);
$b = $login->refund('alice');
printf("refund: %s %s\n", $b->source, $b->allowed ? 'allowed' : 'denied');
$o = $login->consume('bob');
printf("bob: %s %s\n", $o->source, $o->allowed ? 'allowed' : 'denied');
$m = $login->consume('mallory');
printf("mallory (blocked on Redis): %s %s\n", $m->source, $m->allowed ? 'allowed' : 'denied');
$compound = (new CompoundRateLimiter([new FixedWindowRateLimiter($url, 'c1', 60, 10), new TokenBucketRateLimiter($url, 'c2', 100, 1.0)]))->withLockout(30);
$a = $compound->consume('carol');
$d = $compound->consume('carol');
$e = $compound->consume('carol');
printf("compound: %s %s, then %s, then %s retry %s\n", $a->source, $a->allowed ? 'allowed' : 'denied', $d->allowed ? 'allowed' : 'denied',
    $e->allowed ? 'allowed' : 'denied', $e->retryAfter > 29 ? '30 s or more' : $e->retryAfter);
?>
--EXPECT--
redis: mallory blocked
-- Redis is down
alice #1: local allowed retry -
alice #2: local allowed retry -
alice #3: local denied retry 30 s or more
alice #4: local denied retry 30 s or more
charge: local denied, retry the block
refund: local allowed
bob: local allowed
mallory (blocked on Redis): local allowed
compound: local allowed, then denied, then denied retry 30 s or more
