--TEST--
Every class, one table: one small key per id after 100 requests, its size in Redis memory bounded, its TTL the time its state still matters
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
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
$types = ['string' => 'string', 'zset' => 'zset', 'hash' => 'hash'];   // TYPE, as RlClient::type() names it
$seen = [];
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
    $seen[$kind] = [
        'key length' => strlen($key),
        'remaining after 100' => $limiter->remaining,
        'keys' => count($redis->keys("$prefix*")),
        'type and size' => "$type of $size",
        'MEMORY USAGE at most' => $bytes <= $most[$kind] ? $most[$kind] : "$bytes > {$most[$kind]}",
        'resetAfter' => rl_seconds($kind, $last->resetAfter, 2000) . ' s',
        'TTL: resetAfter in ms rounded up, less what elapsed since' => $ttl <= ceil($last->resetAfter * 1000) && $ttl >= $last->resetAfter * 1000 - $elapsed - 1
            ? 'yes' : "no ($ttl ms, resetAfter {$last->resetAfter})",
    ];
}
rl_table($seen);
?>
--EXPECT--
key length: 23
remaining after 100: 900
keys: 1
type and size:
  fixed    string of 3 bytes
  sliding  zset of 100 members
  blocks   hash of at most 2 fields
  token    string of 16 bytes
  leaky    string of 16 bytes
  gcra     string of 16 bytes
MEMORY USAGE at most:
  fixed    119
  sliding  2200
  blocks   1023
  token    119
  leaky    119
  gcra     119
resetAfter:
  fixed    2000 s
  sliding  2000 s
  blocks   2000+slice s
  token    200 s
  leaky    200 s
  gcra     200 s
TTL: resetAfter in ms rounded up, less what elapsed since: yes
