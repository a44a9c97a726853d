--TEST--
make bench's accounting (bench/measure.php) against a real redis-server: round trips, commands (incl. those inside scripts) and the commands-per-decision mix come out exact for calls of known shape, the control connection's own INFO and PING samples taken out; Redis-side µs counts a script once, not again for the commands it ran
--SKIPIF--
<?php $phpredis = "make bench's userland baselines and control connections are phpredis clients"; require __DIR__ . '/skipif.inc'; ?>
--INI--
; the Lua library's calls are what this test counts
ratelimit.server_module=off
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/../bench/lib.php';
require __DIR__ . '/../bench/measure.php';
// Counts server-wide figures (INFO stats): a server of this test's own.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
// phpredis clients, as make bench has them (bench/lib.php).
[$client, $ping, $ctl] = array_map(function () use ($server) {
    $r = new Redis();
    $r->connect('127.0.0.1', $server['port'], 2.0);
    return $r;
}, range(1, 3));
$ids = array_map('strval', range(0, 99));
$n = 2500;   // not a multiple of the 1,000-call chunk: the last chunk is short

$sha = $client->script('load', "redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], 60000) return 1");
$shapes = [
    'PING' => fn ($id) => $client->ping(),
    'evalSha running 2 commands' => fn ($id) => $client->evalSha($sha, ["k:$id"], 1),
    'pipeline INCR + EXPIRE' => fn ($id) => $client->multi(Redis::PIPELINE)->incr("p:$id")->expire("p:$id", 60)->exec(),
    'two separate GETs' => function ($id) use ($client) { $client->get("g:$id"); $client->get("h:$id"); },
    'TokenBucketRateLimiter' => [new TokenBucketRateLimiter($url, rl_prefix('tb'), 1000000, 1000), 'isAllowed'],
];
foreach ($shapes as $name => $call) {
    $m = measure($call, $n, $ids, $ping, $ctl);
    $mix = implode(', ', array_map(fn ($c, $v) => "$c $v", array_keys($m['mix']), $m['mix']));
    printf("%s: round trips %.2f, commands %.2f, mix [%s], times positive: %s\n", $name, $m['rtt'], $m['cmds'],
        // One library call, FCALL or (Redis 6) EVALSHA.
        $name === 'TokenBucketRateLimiter' ? (($m['mix']['fcall'] ?? 0) + ($m['mix']['evalsha'] ?? 0) == 1 ? 'library call 1, …' : $mix) : $mix,
        var_export($m['us'] > 0 && $m['ping_us'] > 0 && $m['x_ping'] > 0 && $m['redis_us'] > 0 && $m['cpu_us'] >= 0, true));
}

// A script's usec already holds what it ran: only top-level commands are added up.
$delta = ['evalsha' => [10, 100], 'zadd' => [10, 40], 'get' => [10, 5]];
echo "script + declared plain command: ", redis_side_usec($delta, ['get']), "\n";
echo "script alone: ", redis_side_usec($delta, []), "\n";
echo "function alone: ", redis_side_usec(['fcall' => [10, 70], 'get' => [10, 5], 'set' => [10, 9]], []), "\n";
echo "no script, every command counts: ", redis_side_usec(['incr' => [1, 3], 'expire' => [1, 2]], []), "\n";
echo "median: ", median([3, 1, 2]), ' ', median([4, 1, 3, 2]), "\n";
rl_stop_redis($server);
?>
--EXPECT--
PING: round trips 1.00, commands 1.00, mix [ping 1], times positive: true
evalSha running 2 commands: round trips 1.00, commands 3.00, mix [evalsha 1, incr 1, pexpire 1], times positive: true
pipeline INCR + EXPIRE: round trips 1.00, commands 2.00, mix [expire 1, incr 1], times positive: true
two separate GETs: round trips 2.00, commands 2.00, mix [get 2], times positive: true
TokenBucketRateLimiter: round trips 1.00, commands 5.00, mix [library call 1, …], times positive: true
script + declared plain command: 105
script alone: 100
function alone: 70
no script, every command counts: 5
median: 2 2.5
