--TEST--
Threads: pcntl_fork() from one thread while 15 others are mid round trip: the child decides at once (no lock left held by a thread it did not inherit), on Redis and in memory
--FILE--
<?php
require __DIR__ . '/threads.inc';
$lines = rl_threads(__DIR__ . '/workers/fork.php', 16, 20, [], ['ratelimit.block_cache' => 1]);
$children = array_count_values(array_map(fn ($w) => "$w[1] $w[2]", rl_tagged($lines, 'child')));
$parents = array_count_values(array_map(fn ($w) => implode(' ', array_slice($w, 1)), rl_tagged($lines, 'fork')));
ksort($parents);
echo 'children: ', json_encode($children), "\n";
echo 'parents saw: ', json_encode($parents), "\n";
echo 'anything else printed: ', json_encode(rl_untagged($lines, ['child', 'fork'])), "\n";
?>
--EXPECT--
children: {"allowed allowed":20}
parents saw: {"child exit 0":20}
anything else printed: []
