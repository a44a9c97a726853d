--TEST--
Every class under contention, one table: 8 processes x 200 attempts on one key, limit 100, exactly 100 accepted and exactly 100 units stored
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
// Limit 100 over 100000 s: one unit frees up every 1000 s, long after the
// hammering is over.
$seen = [];
foreach (rl_classes() as $kind => $c) {
    $prefix = rl_prefix($kind);
    $accepted = rl_hammer(function () use ($kind, $prefix) {
        static $limiter;
        $limiter ??= rl_long($kind, RL_URL, $prefix, 100, 100000);
        return $limiter->isAllowed('one-key');
    });
    $seen[$kind] = ['accepted' => $accepted, 'stored' => rl_state($kind, $redis, "$prefix:one-key", 100, 100000)];
}
rl_table($seen);
?>
--EXPECT--
accepted: 100
stored:
  fixed    counter '100'
  sliding  entries 100
  blocks   counted in the slices 100
  token    tokens 0.0
  leaky    level 100.0
  gcra     TAT 100.0 intervals ahead
