--TEST--
consumeMany() reads the string states of a batch (fixed window at cost > 1, token and leaky bucket, GCRA) with one MGET: an id whose key exists needs no GET of its own; a missing key, or an id repeated in the batch, is read with GET (so a foreign type is still refused and a repeat sees the write before it); the sliding windows' keys are no strings and are never MGET
--SKIPIF--
<?php $needs = ['redis']; require __DIR__ . '/skipif.inc'; ?>
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
foreach (rl_classes() as $kind => $c) {
    $l = rl_long($kind, $url, rl_prefix("$kind-reads"), 10);
    $l->consume('a', 2);
    $l->consume('b', 2);
    $redis->rawCommand('CONFIG', 'RESETSTAT');
    // a and b exist; a twice; c is new
    $answers = $l->consumeMany(['a', 'b', 'a', 'c'], 2);
    $seen[$kind] = [
        'answers' => implode(' ', array_map($brief, $answers)),
        'reads' => sprintf('MGET %d, GET %d', $calls('mget'), $calls('get')),
    ];
}
rl_table($seen);
rl_stop_redis($server);
?>
--EXPECT--
answers: Y6 Y6 Y4 Y8
reads:
  fixed    MGET 1, GET 2
  sliding  MGET 0, GET 0
  blocks   MGET 0, GET 0
  token    MGET 1, GET 2
  leaky    MGET 1, GET 2
  gcra     MGET 1, GET 2
