--TEST--
Threads: ratelimit.metrics=redis with the block cache, 16 threads x 10 requests x 100 decisions on one shared limiter: the process's counters (atomics every thread adds to) are exact, and what they counted without a round trip reaches Redis with a later call, so the fleet's counters equal them
--FILE--
<?php
require __DIR__ . '/threads.inc';
$prefix = rl_prefix('metrics');
$signin = tempnam(sys_get_temp_dir(), 'rl-metrics-threads-');
$lines = rl_threads(__DIR__ . '/workers/metrics.php', 16, 10, ['decisions' => 100, 'prefix' => $prefix, 'signin' => $signin, 'total' => 160],
    ['ratelimit.metrics' => 'redis', 'ratelimit.block_cache' => 1]);
unlink($signin);
$localLine = preg_grep('/^local /', $lines);
$fleetLine = preg_grep('/^fleet /', $lines);
$local = json_decode(substr((string) reset($localLine), 6), true);
$fleet = json_decode(substr((string) reset($fleetLine), 6), true);
echo 'local: allowed ', $local['allowed'], ', denied ', $local['denied'], ', errors ', $local['errors'], ', block cache answers ', $local['block_cache'] > 0 ? 'some' : 'none', "\n";
echo 'the fleet\'s are the same: ', json_encode($local === $fleet), "\n";
echo 'anything else printed: ', json_encode(array_values(array_filter($lines, fn ($l) => !preg_match('/^(local|fleet) /', $l)))), "\n";
?>
--EXPECT--
local: allowed 1000, denied 15001, errors 0, block cache answers some
the fleet's are the same: true
anything else printed: []
