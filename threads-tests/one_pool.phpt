--TEST--
Threads: the pool is one per process and bounded: one thread opens one connection per target; 16 threads open at most 8 per target (lanes, so round trips overlap), and never more than ratelimit.max_connections
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
echo "1 thread, 20 requests, 2 targets:\n";
[$n] = $opened(fn () => rl_threads(__DIR__ . '/workers/one_pool.php', 1, 20, ['port' => $server['port']]));
echo "  connections opened: $n\n";
echo "16 threads, 20 requests each, 2 targets:\n";
[$n] = $opened(fn () => rl_threads(__DIR__ . '/workers/one_pool.php', 16, 20, ['port' => $server['port']]));
echo '  connections opened: ', $n >= 2 && $n <= 16 ? 'between 2 and 16' : $n, "\n";
echo "16 threads, ratelimit.max_connections = 3:\n";
[$n, $lines] = $opened(fn () => rl_threads(__DIR__ . '/workers/one_pool.php', 16, 20, ['port' => $server['port'], 'sample' => 1],
    ['ratelimit.max_connections' => 3]));
// The sample counts this test's own connection ($redis) too.
$most = max(array_map(fn ($w) => (int) $w[0], rl_tagged($lines, 'clients'))) - 1;
echo '  most connections open at once (sampled 20 times): ', $most <= 3 ? 'at most 3' : $most, "\n";
rl_stop_redis($server);
?>
--EXPECT--
1 thread, 20 requests, 2 targets:
  requests: 20
  anything else printed: []
  connections opened: 2
16 threads, 20 requests each, 2 targets:
  requests: 320
  anything else printed: []
  connections opened: between 2 and 16
16 threads, ratelimit.max_connections = 3:
  requests: 320
  anything else printed: []
  most connections open at once (sampled 20 times): at most 3
