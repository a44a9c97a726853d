--TEST--
ratelimit.metrics=local: per limiter key prefix, every consume counted once as allowed, denied, would_deny or errors, plus on_error and block_cache answers; consumeMany per id, throttle(), a compound under its members' prefixes joined by '+'; peek(), reset() and bad arguments not counted; off counts nothing; nothing written to Redis; a forked child counts from zero; php --ri shows the totals
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.metrics=local
ratelimit.connect_timeout=0.2
--FILE--
<?php
require __DIR__ . '/config.inc';
$p = rl_prefix();
$mine = fn () => array_filter(RateLimitMetrics::local(), fn ($k) => str_starts_with((string) $k, $p), ARRAY_FILTER_USE_KEY);
$show = function () use ($mine) {
    foreach ($mine() as $name => $c) {
        echo '  ', substr($name, strlen(rl_prefix())), ': ', implode(' ', array_map(fn ($k, $v) => "$k=$v", array_keys($c), $c)), "\n";
    }
};

echo "-- allowed, denied; a dry run's would_deny\n";
$tb = new TokenBucketRateLimiter(RL_URL, "$p:tb", 2, 0.001);
for ($i = 0; $i < 3; $i++) $tb->consume('u');
$tb->withDryRun()->isAllowed('u');
$tb->peek('u');
$tb->reset('v');
rl_throws(fn () => $tb->consume('u', 5));
$show();

echo "-- consumeMany() per id; throttle(); a compound is one limiter\n";
$fw = new FixedWindowRateLimiter(RL_URL, "$p:fw", 60, 2);
$fw->consumeMany(['a', 'a', 'a', 'b']);
$g = new GcraRateLimiter(RL_URL, "$p:g", 0, 1, 60);
$g->throttle('x');
$g->throttle('x');
$g->throttle('x', 0);
$both = new CompoundRateLimiter([new FixedWindowRateLimiter(RL_URL, "$p:c1", 60, 1), new TokenBucketRateLimiter(RL_URL, "$p:c2", 5, 1)]);
$both->consume('k');
$both->consume('k');
$both->consumeMany(['k', 'l']);
$both->peek('k');
$show();

echo "-- errors: thrown, or answered by on_error\n";
$down = rl_unanswered_connect();
$dead = new TokenBucketRateLimiter($down['url'], "$p:dead", 5, 1);
rl_throws(fn () => $dead->consume('u'));
ini_set('ratelimit.on_error', 'allow');
$dead->consume('u');
$dead->consumeMany(['a', 'b']);
ini_set('ratelimit.on_error', 'throw');
$show();

echo "-- block cache answers\n";
ini_set('ratelimit.block_cache', '1');
$bc = new GcraRateLimiter(RL_URL, "$p:bc", 0, 1, 60);
$bc->consume('u');
$bc->consume('u');
$bc->consume('u');
$bc->consumeMany(['u', 'u']);
$bc->withDryRun()->consume('u');
ini_set('ratelimit.block_cache', '0');
$show();

echo "-- off: nothing counted\n";
ini_set('ratelimit.metrics', 'off');
$tb->consume('u');
(new TokenBucketRateLimiter(RL_URL, "$p:off", 2, 1))->consume('u');
$show();
ini_set('ratelimit.metrics', 'local');
var_dump(ini_set('ratelimit.metrics', 'everything'), ini_get('ratelimit.metrics'));

echo "-- nothing in Redis (other tests' counters may be there, none of these limiters')\n";
$r = rl_redis();
$ours = 0;
foreach ($r->keys('*ratelimit-metrics*') as $k) {
    foreach (array_keys($r->hGetAll($k)) as $field) $ours += (int) str_contains($field, $p);
}
var_dump($ours);

echo "-- a forked child counts its own decisions only\n";
$pid = pcntl_fork();
if ($pid === 0) {
    $tb->consume('u');
    file_put_contents(sys_get_temp_dir() . "/rl-metrics-child-" . getmypid(), json_encode($mine()));
    posix_kill(getmypid(), SIGKILL);
}
pcntl_waitpid($pid, $status);
$file = sys_get_temp_dir() . "/rl-metrics-child-$pid";
echo '  child: ', file_get_contents($file), "\n";
unlink($file);

echo "-- php --ri\n";
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
echo substr($info, strpos($info, 'Decision metrics'));
$totals = array_fill_keys(['allowed', 'denied', 'would_deny', 'errors', 'on_error', 'block_cache'], 0);
foreach (RateLimitMetrics::local() as $c) foreach ($c as $k => $v) $totals[$k] += $v;
echo 'local() adds up to the same: ', json_encode(str_contains($info, "allowed => {$totals['allowed']}\n") && str_contains($info, "would_deny => {$totals['would_deny']}\n")), "\n";
?>
--EXPECTF--
-- allowed, denied; a dry run's would_deny
ValueError: TokenBucketRateLimiter::consume(): Argument #2 ($cost) must be at most 2 (the capacity), 5 given
  :tb: allowed=2 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
-- consumeMany() per id; throttle(); a compound is one limiter
  :c1+%s:c2: allowed=2 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :fw: allowed=3 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :g: allowed=1 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :tb: allowed=2 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
-- errors: thrown, or answered by on_error
RateLimiterException: %s
  :c1+%s:c2: allowed=2 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :dead: allowed=0 denied=0 would_deny=0 errors=4 on_error=3 block_cache=0
  :fw: allowed=3 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :g: allowed=1 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :tb: allowed=2 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
-- block cache answers
  :bc: allowed=1 denied=4 would_deny=1 errors=0 on_error=0 block_cache=4
  :c1+%s:c2: allowed=2 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :dead: allowed=0 denied=0 would_deny=0 errors=4 on_error=3 block_cache=0
  :fw: allowed=3 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :g: allowed=1 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :tb: allowed=2 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
-- off: nothing counted
  :bc: allowed=1 denied=4 would_deny=1 errors=0 on_error=0 block_cache=4
  :c1+%s:c2: allowed=2 denied=2 would_deny=0 errors=0 on_error=0 block_cache=0
  :dead: allowed=0 denied=0 would_deny=0 errors=4 on_error=3 block_cache=0
  :fw: allowed=3 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :g: allowed=1 denied=1 would_deny=0 errors=0 on_error=0 block_cache=0
  :tb: allowed=2 denied=1 would_deny=1 errors=0 on_error=0 block_cache=0
bool(false)
string(5) "local"
-- nothing in Redis (other tests' counters may be there, none of these limiters')
int(0)
-- a forked child counts its own decisions only
  child: {"%s:tb":{"allowed":0,"denied":1,"would_deny":0,"errors":0,"on_error":0,"block_cache":0}}
-- php --ri
Decision metrics (this process) => Total
mode => local
dry run (ratelimit.dry_run) => off
limiters => %d
allowed => %d
denied => %d
would_deny => %d
errors => %d
on_error => %d
block_cache => %d
local() adds up to the same: true
