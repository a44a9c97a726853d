<?php
// `make bench`: µs per decision for this extension's limiters next to the
// userland approaches the articles publish (phpredis + Lua / MULTI), all in the
// same process against the same redis-server, as ratios to a phpredis PING.
// The machine is shared and noisy: compare the ratios, not the absolute times.
//   php -d extension=modules/ratelimit.so bench/bench.php [attempts] [rounds]

$attempts = (int) ($argv[1] ?? 50000);
$rounds = (int) ($argv[2] ?? 5);
$keys = 1000;
$url = ini_get('ratelimit.redis_url');
$port = (int) parse_url($url, PHP_URL_PORT);

$redis = new Redis();
$redis->connect('127.0.0.1', $port);

// The articles' sliding window (sorted set, member = timestamp) as one Lua script.
$slidingLua = <<<'LUA'
local key, now, window, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, now)
  redis.call('EXPIRE', key, window)
  return 1
end
return 0
LUA;
$slidingSha = $redis->script('load', $slidingLua);

$cases = [
    'phpredis PING (floor)' => fn ($id) => $redis->ping(),
    'userland fixed window (pipelined INCR+EXPIRE)' => function ($id) use ($redis) {
        [$n] = $redis->pipeline()->incr("bench:u:fw:$id")->expire("bench:u:fw:$id", 60)->exec();
        return $n <= 1000000;
    },
    'userland sliding window (evalSha zset)' => fn ($id) => $redis->evalSha($slidingSha, ["bench:u:sw:$id", microtime(true), 60, 1000000], 1) === 1,
];
$ours = [
    'FixedWindowRateLimiter' => fn () => new FixedWindowRateLimiter(null, 'bench:fw', 60, 1000000),
    'SlidingWindowRateLimiter (log)' => fn () => new SlidingWindowRateLimiter(null, 'bench:sw', 60, 1000000),
    'SlidingWindowRateLimiter (blocks=10)' => fn () => new SlidingWindowRateLimiter(null, 'bench:swb', 60, 1000000, 10),
    'TokenBucketRateLimiter' => fn () => new TokenBucketRateLimiter(null, 'bench:tb', 1000000, 1000),
    'LeakyBucketRateLimiter' => fn () => new LeakyBucketRateLimiter(null, 'bench:lb', 1000000, 1000),
    'GcraRateLimiter' => fn () => new GcraRateLimiter(null, 'bench:gcra', 999999, 1000000, 60),
];
foreach ($ours as $name => $make) {
    if (!class_exists(strtok($name, ' '))) continue;
    $limiter = $make();
    $cases[$name] = fn ($id) => $limiter->isAllowed($id);
}

// Sliding-window logs grow with every call: keep rounds comparable by starting clean.
$clean = function () use ($redis) {
    foreach (['bench:*'] as $pattern) {
        $it = null;
        while ($found = $redis->scan($it, $pattern, 1000)) $redis->del($found);
    }
};

$times = array_fill_keys(array_keys($cases), []);
for ($round = 0; $round < $rounds; $round++) {
    $names = array_keys($cases);
    if ($round % 2) $names = array_reverse($names);
    foreach ($names as $name) {
        $clean();
        $f = $cases[$name];
        $t = hrtime(true);
        for ($i = 0; $i < $attempts; $i++) {
            $f((string) ($i % $keys));
        }
        $times[$name][] = (hrtime(true) - $t) / 1e3 / $attempts;
    }
}
$clean();

function median(array $v): float { sort($v); return $v[intdiv(count($v), 2)]; }
$floor = median($times['phpredis PING (floor)']);
$baseline = median($times['userland sliding window (evalSha zset)']);
printf("%d attempts over %d keys, %d rounds (order reversed every other round), median µs per call\n\n", $attempts, $keys, $rounds);
printf("| %-42s | %8s | %8s | %22s |\n", 'case', 'µs/call', '× PING', '× userland sliding Lua');
printf("|%s|%s|%s|%s|\n", str_repeat('-', 44), str_repeat('-', 10), str_repeat('-', 10), str_repeat('-', 24));
foreach ($times as $name => $t) {
    $m = median($t);
    printf("| %-42s | %8.1f | %8.2f | %22.2f |\n", $name, $m, $m / $floor, $m / $baseline);
}
