--TEST--
Threads: no leak: resident memory of the threaded process stays flat after warm-up over 1,000,000 decisions (16 threads x 125 requests x 500 decisions, every class, on the connection the threads share)
--FILE--
<?php
require __DIR__ . '/threads.inc';
$prefix = rl_prefix('threads-rss');
$lines = rl_threads(__DIR__ . '/workers/exact_counts.php', 16, 125, ['decisions' => 500, 'prefix' => $prefix]);
// The largest RSS seen by requests 10-19 (warm: every thread has its engine
// state, the pool its connection) against requests 115-124: 1,520 requests and
// 760,000 decisions later. A leak of 4 bytes per decision would add 3 MB.
$rss = [];
foreach (rl_tagged($lines, 'rss') as [$request, $kb]) $rss[intdiv((int) $request, 5)][] = (int) $kb;
$warm = max(array_merge($rss[2], $rss[3]));
$late = max(array_merge($rss[23], $rss[24]));
echo 'requests that reported: ', array_sum(array_map('count', $rss)), "\n";
$accepted = 0;
foreach (rl_tagged($lines, 'accepted') as [, , $n]) $accepted += (int) $n;
echo 'decisions accepted (1,000 per key, 12 keys): ', $accepted, "\n";
$growth = ($late - $warm) / 1024;
echo $growth < 2 ? 'flat' : sprintf('grew by %.1f MB (%d kB -> %d kB)', $growth, $warm, $late), "\n";
printf("(RSS: warm %.1f MB, late %.1f MB)\n", $warm / 1024, $late / 1024);
?>
--EXPECTF--
requests that reported: 2000
decisions accepted (1,000 per key, 12 keys): 12000
flat
(RSS: warm %f MB, late %f MB)
