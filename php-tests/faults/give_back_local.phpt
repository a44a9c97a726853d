--TEST--
ratelimit.on_error=local: refund(), charge() and reserve() that Redis cannot decide are decided in this process on the same local share as consume() (one limiter and a compound); with Redis up their source is redis, on memory:// memory
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
$tb = new TokenBucketRateLimiter($url, 'tb', 40, 0.001);
echo "redis up: ", $tb->refund('a')->source, ' ', $tb->charge('a')->source, ' ', $tb->reserve('a')->source, "\n";
echo "memory: ", (new TokenBucketRateLimiter('memory://', 'tb', 40, 0.001))->refund('a')->source, "\n";
rl_stop_redis($server, false);
echo "-- Redis is down: a share of 4 tokens\n";
$n = 0;
while ($tb->isAllowed('a') && $n < 100) $n++;
echo "admitted $n\n";
$r = $tb->refund('a', 2);
printf("refund: %s %s remaining %d\n", $r->source, var_export($r->allowed, true), $r->remaining);
$n = 0;
while ($tb->isAllowed('a') && $n < 100) $n++;
echo "admitted $n after the refund\n";
$r = $tb->charge('a', 3);
printf("charge: %s allowed %s remaining %d, a debt of 3 tokens: retry after %.0f s\n", $r->source, var_export($r->allowed, true), $r->remaining, $r->retryAfter);
$r = $tb->reserve('b', 2, 0.0);
printf("reserve: %s allowed %s remaining %d\n", $r->source, var_export($r->allowed, true), $r->remaining);
$r = $tb->reserve('b', 5, 1e6);
printf("reserve above the share: %s allowed %s\n", $r->source, var_export($r->allowed, true));
$c = new CompoundRateLimiter([new FixedWindowRateLimiter($url, 'c1', 60, 30), new TokenBucketRateLimiter($url, 'c2', 50, 1.0)]);
$n = 0;
while ($c->isAllowed('a') && $n < 100) $n++;
$r = $c->refund('a');
printf("compound: admitted %d; refund %s remaining %d; then %s\n", $n, $r->source, $r->remaining, $c->isAllowed('a') ? 'one more' : 'none');
?>
--EXPECT--
redis up: redis redis redis
memory: memory
-- Redis is down: a share of 4 tokens
admitted 4
refund: local true remaining 2
admitted 2 after the refund
charge: local allowed false remaining 0, a debt of 3 tokens: retry after 40000 s
reserve: local allowed true remaining 2
reserve above the share: local allowed false
compound: admitted 3; refund local remaining 1; then one more
