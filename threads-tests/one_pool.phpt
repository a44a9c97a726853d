--TEST--
Threads: the pool is one per process and bounded: one thread opens one connection per target; 16 threads share one per target (ratelimit.multiplex = auto), or N with multiplex = N; with multiplex = off each takes a lane (at most 8 per target, so round trips overlap); never more than ratelimit.max_connections
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis();
$redis = rl_redis($server['port']);
$opened = function (callable $run) use ($redis) {
    $before = $redis->info('stats')['total_connections_received'];
    $lines = $run();
    echo '  requests: ', count(rl_tagged($lines, 'done')), "\n";
    echo '  anything else printed: ', json_encode(rl_untagged($lines, ['done', 'clients'])), "\n";
    return [$redis->info('stats')['total_connections_received'] - $before, $lines];
};
$run = fn (int $threads, array $ini = [], array $query = []) => rl_threads(__DIR__ . '/workers/one_pool.php', $threads, 20, ['port' => $server['port']] + $query, $ini);
echo "1 thread, 20 requests, 2 targets:\n";
[$n] = $opened(fn () => $run(1));
echo "  connections opened: $n\n";
echo "16 threads, 20 requests each, 2 targets, multiplex = auto:\n";
[$n] = $opened(fn () => $run(16));
echo "  connections opened: $n\n";
echo "16 threads, multiplex = 3:\n";
[$n] = $opened(fn () => $run(16, ['ratelimit.multiplex' => '3']));
// Threads take the shared connections in turn: 3 per target.
echo "  connections opened: $n\n";
echo "16 threads, multiplex = off:\n";
[$n] = $opened(fn () => $run(16, ['ratelimit.multiplex' => 'off']));
echo '  connections opened: ', $n >= 2 && $n <= 16 ? 'between 2 and 16' : $n, "\n";
foreach (['auto', 'off'] as $mux) {
    echo "16 threads, multiplex = $mux, ratelimit.max_connections = 3:\n";
    [$n, $lines] = $opened(fn () => $run(16, ['ratelimit.max_connections' => 3, 'ratelimit.multiplex' => $mux], ['sample' => 1]));
    // The sample counts this test's own connection ($redis) too.
    $most = max(array_map(fn ($w) => (int) $w[0], rl_tagged($lines, 'clients'))) - 1;
    echo '  most connections open at once (sampled 20 times): ', $most <= 3 ? 'at most 3' : $most, "\n";
}
rl_stop_redis($server);
?>
--EXPECT--
1 thread, 20 requests, 2 targets:
  requests: 20
  anything else printed: []
  connections opened: 2
16 threads, 20 requests each, 2 targets, multiplex = auto:
  requests: 320
  anything else printed: []
  connections opened: 2
16 threads, multiplex = 3:
  requests: 320
  anything else printed: []
  connections opened: 6
16 threads, multiplex = off:
  requests: 320
  anything else printed: []
  connections opened: between 2 and 16
16 threads, multiplex = auto, ratelimit.max_connections = 3:
  requests: 320
  anything else printed: []
  most connections open at once (sampled 20 times): at most 3
16 threads, multiplex = off, ratelimit.max_connections = 3:
  requests: 320
  anything else printed: []
  most connections open at once (sampled 20 times): at most 3
