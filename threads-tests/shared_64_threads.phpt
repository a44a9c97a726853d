--TEST--
Threads: 64 threads of one process share one connection (ratelimit.multiplex = auto): their decisions pipelined on it, exactly the limit accepted on a key they share, and every thread gets its own replies (its own window's remaining, in its own range, falling by one per call)
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis();
$redis = rl_redis($server['port']);
$before = $redis->info('stats')['total_connections_received'];
// 64 threads x 1 request x 500 calls, each call two decisions: 64,000 decisions,
// 32,000 attempts on the shared window of 10,000.
$lines = rl_threads(__DIR__ . '/workers/own_window.php', 64, 1, ['port' => $server['port'], 'decisions' => 500, 'shared' => 10000]);
$done = rl_tagged($lines, 'done');
echo 'threads that reported: ', count($done), "\n";
echo 'calls decided on their own windows: ', array_sum(array_column($done, 1)), "\n";
echo 'calls failed: ', array_sum(array_column($done, 2)), "\n";
echo 'replies handed to the wrong thread: ', array_sum(array_column($done, 3)), "\n";
echo 'accepted on the shared window: ', array_sum(array_column($done, 4)), "\n";
// The threaded process's connections (this test's own look is not one of them).
echo 'connections the process opened: ', $redis->info('stats')['total_connections_received'] - $before, "\n";
echo 'anything else printed: ', json_encode(array_slice(rl_untagged($lines, ['done']), 0, 5)), "\n";
rl_stop_redis($server);
?>
--EXPECT--
threads that reported: 64
calls decided on their own windows: 32000
calls failed: 0
replies handed to the wrong thread: 0
accepted on the shared window: 10000
connections the process opened: 1
anything else printed: []
