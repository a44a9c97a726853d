--TEST--
Every class under contention, one table: 8 processes x 200 attempts on one key, limit 100, exactly 100 accepted and exactly 100 units stored
--SKIPIF--
<?php $needs = ['redis', 'pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
// Limit 100 over 100000 s: one unit frees up every 1000 s, long after the
// hammering is over.
foreach (rl_classes() as $kind => $c) {
    $prefix = rl_prefix($kind);
    $accepted = rl_hammer(function () use ($kind, $prefix) {
        static $limiter;
        $limiter ??= rl_long($kind, RL_URL, $prefix, 100, 100000);
        return $limiter->isAllowed('one-key');
    });
    printf("%-8s accepted: %d; stored: %s\n", $kind, $accepted, rl_state($kind, $redis, "$prefix:one-key", 100, 100000));
}
?>
--EXPECT--
fixed    accepted: 100; stored: counter '100'
sliding  accepted: 100; stored: entries 100, sequence member -100.0
blocks   accepted: 100; stored: counted in the slices 100
token    accepted: 100; stored: tokens 0.00
leaky    accepted: 100; stored: level 100.00
gcra     accepted: 100; stored: TAT 100.00 intervals ahead
