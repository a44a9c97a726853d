--TEST--
TokenBucketRateLimiter keeps one small key: 16 bytes of state, under 120 bytes of Redis memory after 100 requests
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
// A key of 23 bytes, like "rl:api:user:12345678901". Memory grows with the
// key in allocator steps (Redis 7.0, jemalloc): 80 bytes up to 6 key bytes,
// 104 for 15..30, 120 for 31..44, so this bound holds for keys up to 30 bytes.
$prefix = substr('tb:' . md5(rl_prefix()), 0, 21);
$limiter = new TokenBucketRateLimiter(RL_URL, $prefix, 1000, 0.5);
for ($i = 0; $i < 100; $i++) {
    $limiter->isAllowed('u');
}
$key = "$prefix:u";
echo "key length: ", strlen($key), "\n";
echo "remaining: {$limiter->remaining}\n";
echo "one key: ", count($redis->keys("$prefix*")), ", type ", $redis->type($key) === Redis::REDIS_STRING ? 'string' : 'other', ", ", strlen($redis->get($key)), " bytes\n";
$bytes = $redis->rawCommand('MEMORY', 'USAGE', $key);
echo "memory under 120 bytes: ", var_export($bytes < 120, true), "\n";
// 100 tokens missing at 0.5/s: full again in 200 s, and that is the TTL.
$ttl = $redis->pttl($key);
echo "TTL the time to full (200 s): ", var_export($ttl > 199000 && $ttl <= 200000, true), "\n";
?>
--EXPECT--
key length: 23
remaining: 900
one key: 1, type string, 16 bytes
memory under 120 bytes: true
TTL the time to full (200 s): true
