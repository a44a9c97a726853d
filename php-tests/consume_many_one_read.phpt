--TEST--
consumeMany() reads the string states of a batch (fixed window at cost > 1, token and leaky bucket, GCRA) with one MGET, and knows the missing ones by one EXISTS: no id needs a GET of its own, except an id repeated in the batch (it sees the write before it) and, when a key of the batch holds another type, every key MGET did not answer (so the foreign type is refused); the sliding windows' keys are no strings and are never MGET
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
; the Lua library's batch read (one MGET) is what this test watches
ratelimit.server_module=off
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
// Counts server-wide figures (INFO commandstats): a server of this test's own.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$redis = rl_redis($server['port']);
$calls = function (string $command) use ($redis): int {
    $line = $redis->info('commandstats')["cmdstat_$command"] ?? '';
    return preg_match('/calls=(\d+)/', $line, $m) ? (int) $m[1] : 0;
};
$brief = fn (RateLimitResult $r) => ($r->allowed ? 'Y' : 'n') . $r->remaining;
$seen = [];
$reads = fn () => sprintf('MGET %d, EXISTS %d, GET %d', $calls('mget'), $calls('exists'), $calls('get'));
foreach (rl_classes() as $kind => $c) {
    $p = rl_prefix("$kind-reads");
    $l = rl_long($kind, $url, $p, 10);
    $l->consume('a', 2);
    $l->consume('b', 2);
    $redis->rawCommand('CONFIG', 'RESETSTAT');
    // a and b exist; a twice; c is new
    $answers = $l->consumeMany(['a', 'b', 'a', 'c'], 2);
    $seen[$kind]['answers'] = implode(' ', array_map($brief, $answers));
    $seen[$kind]['reads'] = $reads();
    // d is new, list holds a list
    $redis->rPush("$p:list", 'v');
    $redis->rawCommand('CONFIG', 'RESETSTAT');
    ini_set('ratelimit.on_error', 'deny');
    $answers = $l->consumeMany(['a', 'd', 'list'], 2);
    ini_set('ratelimit.on_error', 'throw');
    $seen[$kind]['with a list in the batch'] = implode(' ', array_map($brief, $answers)) . '; ' . $reads() . '; the list untouched: ' . $redis->lLen("$p:list");
}
rl_table($seen);
rl_stop_redis($server);
?>
--EXPECT--
answers: Y6 Y6 Y4 Y8
reads:
  fixed    MGET 1, EXISTS 1, GET 1
  sliding  MGET 0, EXISTS 0, GET 0
  blocks   MGET 0, EXISTS 0, GET 0
  token    MGET 1, EXISTS 1, GET 1
  leaky    MGET 1, EXISTS 1, GET 1
  gcra     MGET 1, EXISTS 1, GET 1
with a list in the batch:
  fixed    Y2 Y8 n0; MGET 1, EXISTS 1, GET 2; the list untouched: 1
  sliding  Y2 Y8 n0; MGET 0, EXISTS 0, GET 0; the list untouched: 1
  blocks   Y2 Y8 n0; MGET 0, EXISTS 0, GET 0; the list untouched: 1
  token    Y2 Y8 n0; MGET 1, EXISTS 1, GET 2; the list untouched: 1
  leaky    Y2 Y8 n0; MGET 1, EXISTS 1, GET 2; the list untouched: 1
  gcra     Y2 Y8 n0; MGET 1, EXISTS 1, GET 2; the list untouched: 1
