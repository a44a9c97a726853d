<?php
// One request of exact_counts.phpt and memory_flat.phpt, in one of many
// threads: $_GET['decisions'] attempts spread round robin over every class,
// two keys each, shared by all threads (limit 1000 per 100000 s: nothing
// frees up during the run). Prints "accepted <kind> <key> <n>" per key it
// tried, and "rss <request> <kB>": the process's resident memory after it.
require __DIR__ . '/../../php-tests/config.inc';
require __DIR__ . '/../../php-tests/classes.inc';

$decisions = (int) ($_GET['decisions'] ?? 1000);
$prefix = $_GET['prefix'] ?? 'threads';
$limiters = [];
foreach (array_keys(rl_classes()) as $kind) {
    $limiters[$kind] = rl_long($kind, RL_URL, "$prefix:$kind", 1000, 100000);
}
$accepted = [];
$kinds = array_keys($limiters);
$start = (int) $_GET['thread'] + (int) $_GET['request'];   // threads start at different places
for ($i = 0; $i < $decisions; $i++) {
    $n = $start + $i;
    $kind = $kinds[$n % count($kinds)];
    $key = 'k' . (intdiv($n, count($kinds)) % 2);
    $accepted["$kind $key"] ??= 0;
    if ($limiters[$kind]->isAllowed($key)) $accepted["$kind $key"]++;
}
$out = '';
foreach ($accepted as $kindKey => $n) $out .= "accepted $kindKey $n\n";
preg_match('/^VmRSS:\s+(\d+) kB/m', file_get_contents('/proc/self/status'), $m);
echo $out, "rss {$_GET['request']} {$m[1]}\n";
