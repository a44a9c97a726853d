--TEST--
Threads: the block cache is one per process: a denial one thread learnt answers the others without a round trip, and a reset() in one thread frees the id for all at once
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis();
$lines = rl_threads(__DIR__ . '/workers/block_cache.php', 16, 2, ['port' => $server['port']], ['ratelimit.block_cache' => 1]);
sort($lines);
echo implode("\n", array_unique($lines)), "\n";
echo 'asks before the reset: ', count(rl_tagged($lines, 'ask0')), ', after: ', count(rl_tagged($lines, 'ask1')), "\n";
rl_stop_redis($server);
?>
--EXPECT--
ask0 denied
ask1 allowed
calls for 15 asks: 0
filled 100
asks before the reset: 15, after: 15
