--TEST--
GcraRateLimiter state: one string per id holding the TAT in integer microseconds of the server clock, one emission interval ahead after one request; a value that is not such an integer is refused, not computed with
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$r = rl_redis();
$p = rl_prefix();
$usNow = function () use ($r) {
    [$s, $us] = $r->time();
    return (int) $s * 1000000 + (int) $us;
};
// (Key layout, TTLs, expiry, memory and the other foreign values: every_class_keys_ttl.phpt, every_class_memory.phpt.)
$l = new GcraRateLimiter(RL_URL, $p, 14, 30, 60);
$before = $usNow();
$l->throttle('id');
$after = $usNow();
$tat = $r->get("$p:id");
echo "TAT is an integer: ", var_export(ctype_digit($tat), true), "\n";
// The script read TIME between $before and $after; the TAT is that plus one interval (60/30 s).
echo "TAT = the server's TIME at the call + 2 s: ", var_export((int) $tat >= $before + 2000000 && (int) $tat <= $after + 2000000, true), "\n";

echo "-- values that are not an integer TAT\n";
foreach (['nan', '1.5', '-'] as $i => $value) {
    $r->set("$p:foreign$i", $value);
    rl_throws(fn () => (new GcraRateLimiter(RL_URL, "$p:foreign$i", 1, 1, 1))->throttle());
    echo "still there: ", $r->get("$p:foreign$i"), "\n";
}
?>
--EXPECTF--
TAT is an integer: true
TAT = the server's TIME at the call + 2 s: true
-- values that are not an integer TAT
RateLimiterException: %sthe key holds a value that is not a GCRA timestamp
still there: nan
RateLimiterException: %sthe key holds a value that is not a GCRA timestamp
still there: 1.5
RateLimiterException: %sthe key holds a value that is not a GCRA timestamp
still there: -
