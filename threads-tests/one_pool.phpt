--TEST--
Threads: one pooled connection per target per process, not per thread: 16 threads x 20 requests on two targets open exactly two connections
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis();
$redis = rl_redis($server['port']);
$before = $redis->info('stats')['total_connections_received'];
$lines = rl_threads(__DIR__ . '/workers/one_pool.php', 16, 20, ['port' => $server['port']]);
echo 'requests: ', count(rl_tagged($lines, 'done')), "\n";
echo 'connections the threaded process opened: ', $redis->info('stats')['total_connections_received'] - $before, "\n";
echo 'anything else printed: ', json_encode(rl_untagged($lines, ['done'])), "\n";
rl_stop_redis($server);
?>
--EXPECT--
requests: 320
connections the threaded process opened: 2
anything else printed: []
