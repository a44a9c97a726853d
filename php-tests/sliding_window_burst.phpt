--TEST--
SlidingWindowRateLimiter log mode is exact in a burst: every request of a tight loop and every unit of a cost counts, even inside one microsecond
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$redis = rl_redis();
$limiter = new SlidingWindowRateLimiter(RL_URL, rl_prefix(), 60, 1000);
$accepted = 0;
for ($i = 0; $i < 1200; $i++) {
    $accepted += $limiter->isAllowed('loop') ? 1 : 0;
}
$key = rl_prefix() . ':loop';
echo "tight loop of 1200: accepted $accepted, remaining {$limiter->remaining}, entries ", $redis->zCount($key, '0', '+inf'), "\n";

echo "-- one call of cost 400 writes 400 members with the same microsecond, all distinct\n";
$limiter->consume('cost', 400);
$limiter->consume('cost', 400);
$r = $limiter->consume('cost', 201);
echo "400 + 400, then 201: ", $r->allowed ? 'allowed' : 'denied', ", remaining {$r->remaining}\n";
$r = $limiter->consume('cost', 200);
echo "then 200: ", $r->allowed ? 'allowed' : 'denied', ", remaining {$r->remaining}\n";
$key = rl_prefix() . ':cost';
$entries = $redis->zRangeByScore($key, '0', '+inf', ['withscores' => true]);
echo "entries: ", count($entries), ", distinct timestamps: ", count(array_unique(array_values($entries))), "\n";
$members = array_map('intval', array_keys($entries));
sort($members); // equal scores sort as strings in Redis: "1", "10", "100", ...
echo "members are the sequence 1..1000: ", var_export($members === range(1, 1000), true), "\n";
echo "the sequence member: ", $redis->zScore($key, ''), "\n";

echo "-- 3 accepted of 5: exactly the accepted requests are stored, each named by its own time\n";
$small = new SlidingWindowRateLimiter(RL_URL, rl_prefix('small'), 60, 3);
for ($i = 0; $i < 5; $i++) {
    $small->isAllowed('u');
}
$entries = $redis->zRange(rl_prefix('small') . ':u', 0, -1, true);
echo count($entries), " members, named by their time: ",
    var_export(array_map('strval', array_keys($entries)) === array_map(fn ($t) => sprintf('%d', $t), array_values($entries)), true),
    ", sequence member: ", var_export($redis->zScore(rl_prefix('small') . ':u', ''), true), "\n";
?>
--EXPECT--
tight loop of 1200: accepted 1000, remaining 0, entries 1000
-- one call of cost 400 writes 400 members with the same microsecond, all distinct
400 + 400, then 201: denied, remaining 200
then 200: allowed, remaining 0
entries: 1000, distinct timestamps: 3
members are the sequence 1..1000: true
the sequence member: -1000
-- 3 accepted of 5: exactly the accepted requests are stored, each named by its own time
3 members, named by their time: true, sequence member: false
