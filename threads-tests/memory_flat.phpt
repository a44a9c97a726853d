--TEST--
Threads: no leak: resident memory of the threaded process stays flat after warm-up over 16 threads x 60 requests x 200 decisions, every class
--FILE--
<?php
require __DIR__ . '/threads.inc';
$prefix = rl_prefix('threads-rss');
$lines = rl_threads(__DIR__ . '/workers/exact_counts.php', 16, 60, ['decisions' => 200, 'prefix' => $prefix]);
// The largest RSS seen by requests 10-19 (warm: every thread has its engine
// state, the pool its connection) against requests 50-59: 640 requests and
// 128,000 decisions later. A leak of 16 bytes per decision would add 2 MB.
$rss = [];
foreach (rl_tagged($lines, 'rss') as [$request, $kb]) $rss[intdiv((int) $request, 10)][] = (int) $kb;
$warm = max($rss[1]);
$late = max($rss[5]);
echo 'requests that reported: ', array_sum(array_map('count', $rss)), "\n";
$growth = ($late - $warm) / 1024;
echo $growth < 2 ? 'flat' : sprintf('grew by %.1f MB (%d kB -> %d kB)', $growth, $warm, $late), "\n";
printf("(RSS: warm %.1f MB, late %.1f MB)\n", $warm / 1024, $late / 1024);
?>
--EXPECTF--
requests that reported: 960
flat
(RSS: warm %f MB, late %f MB)
