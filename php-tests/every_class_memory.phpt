--TEST--
Every class, one table: one small key per id after 100 requests, its size in Redis memory bounded, its TTL the time its state still matters
--SKIPIF--
<?php $needs = ['redis']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
// MEMORY USAGE per kind, at most (Redis 7.0, jemalloc). A 23-byte key, like
// "rl:api:user:12345678901": memory grows with the key in allocator steps
// (80 bytes up to 6 key bytes, 104 for 15..30, 120 for 31..44), so the string
// bounds hold for keys up to 30 bytes. The log holds 100 compact unique
// members; the blocks mode, six slice counters.
$most = ['fixed' => 119, 'sliding' => 2200, 'blocks' => 1023, 'token' => 119, 'leaky' => 119, 'gcra' => 119];
$types = [Redis::REDIS_STRING => 'string', Redis::REDIS_ZSET => 'zset', Redis::REDIS_HASH => 'hash'];
foreach (rl_classes() as $kind => $c) {
    // Limit 1000 over 2000 s: 0.5 units/s for the buckets and GCRA.
    $prefix = substr("$kind:" . md5(rl_prefix()), 0, 21);
    $limiter = rl_long($kind, RL_URL, $prefix, 1000, 2000);
    for ($i = 0; $i < 99; $i++) {
        $limiter->isAllowed('u');
    }
    $t = microtime(true);
    $last = $limiter->consume('u');
    $key = "$prefix:u";
    $ttl = $redis->pttl($key);
    $elapsed = (microtime(true) - $t) * 1000;
    $type = $types[$redis->type($key)] ?? 'other';
    $size = match ($type) { 'string' => strlen($redis->get($key)) . ' bytes', 'zset' => $redis->zCard($key) . ' members', 'hash' => ($redis->hLen($key) <= 2 ? 'at most 2' : $redis->hLen($key)) . ' fields' }; // 100 requests span one slice, or two
    $bytes = $redis->rawCommand('MEMORY', 'USAGE', $key);
    printf("%-8s key of %d bytes, remaining %d, keys: %d, %s of %s, memory at most %d: %s\n", $kind, strlen($key), $limiter->remaining,
        count($redis->keys("$prefix*")), $type, $size, $most[$kind], $bytes <= $most[$kind] ? 'yes' : "no ($bytes)");
    printf("%-8s resetAfter %s s; the TTL is that, in ms rounded up, less what elapsed since: %s\n", '', rl_seconds($kind, $last->resetAfter, 2000),
        $ttl <= ceil($last->resetAfter * 1000) && $ttl >= $last->resetAfter * 1000 - $elapsed - 1 ? 'yes' : "no ($ttl ms, resetAfter {$last->resetAfter})");
}
?>
--EXPECT--
fixed    key of 23 bytes, remaining 900, keys: 1, string of 3 bytes, memory at most 119: yes
         resetAfter 2000 s; the TTL is that, in ms rounded up, less what elapsed since: yes
sliding  key of 23 bytes, remaining 900, keys: 1, zset of 101 members, memory at most 2200: yes
         resetAfter 2000 s; the TTL is that, in ms rounded up, less what elapsed since: yes
blocks   key of 23 bytes, remaining 900, keys: 1, hash of at most 2 fields, memory at most 1023: yes
         resetAfter 2000+slice s; the TTL is that, in ms rounded up, less what elapsed since: yes
token    key of 23 bytes, remaining 900, keys: 1, string of 16 bytes, memory at most 119: yes
         resetAfter 200 s; the TTL is that, in ms rounded up, less what elapsed since: yes
leaky    key of 23 bytes, remaining 900, keys: 1, string of 16 bytes, memory at most 119: yes
         resetAfter 200 s; the TTL is that, in ms rounded up, less what elapsed since: yes
gcra     key of 23 bytes, remaining 900, keys: 1, string of 16 bytes, memory at most 119: yes
         resetAfter 200 s; the TTL is that, in ms rounded up, less what elapsed since: yes
