--TEST--
Threads: 16 threads of one process x 10,000 decisions on keys they share: exactly the limit accepted per key, every class, no crash
--FILE--
<?php
require __DIR__ . '/threads.inc';
require __DIR__ . '/../php-tests/classes.inc';
$prefix = rl_prefix('threads');
// 16 threads x 10 requests x 1,000 decisions = 160,000 over 6 kinds x 2 keys:
// about 13,300 attempts per key, limit 1,000.
$lines = rl_threads(__DIR__ . '/workers/exact_counts.php', 16, 10, ['decisions' => 1000, 'prefix' => $prefix]);
$accepted = [];
foreach (rl_tagged($lines, 'accepted') as [$kind, $key, $n]) {
    $accepted["$kind $key"] = ($accepted["$kind $key"] ?? 0) + (int) $n;
}
ksort($accepted);
foreach ($accepted as $kindKey => $n) echo "$kindKey: $n\n";
echo 'requests that reported: ', count(rl_tagged($lines, 'rss')), "\n";
echo 'anything else printed: ', json_encode(rl_untagged($lines, ['accepted', 'rss'])), "\n";
?>
--EXPECT--
blocks k0: 1000
blocks k1: 1000
fixed k0: 1000
fixed k1: 1000
gcra k0: 1000
gcra k1: 1000
leaky k0: 1000
leaky k1: 1000
sliding k0: 1000
sliding k1: 1000
token k0: 1000
token k1: 1000
requests that reported: 160
anything else printed: []
