--TEST--
Threads: leases are per thread. 16 threads x 4 requests consume one key of a token bucket of 1,000 withLease(50): a thread's lease serves its later requests, what every thread admits stays within the limit (and 16 x 4 x 120 attempts use it up, less what the leases hold), and when the threads end their leases go back: Redis then holds exactly what was not admitted
--FILE--
<?php
require __DIR__ . '/threads.inc';
$prefix = rl_prefix('lease');
$r = rl_redis();
$read = fn () => (int) floor(unpack('e', $r->get($prefix . ':hot') ?: pack('e', 1000.0))[1] + 1e-9);

echo "-- below the limit: 16 x 4 x 5 decisions\n";
$lines = rl_threads(__DIR__ . '/workers/lease.php', 16, 4, ['decisions' => 5, 'prefix' => $prefix]);
$accepted = array_sum(array_map(fn ($w) => (int) $w[0], rl_tagged($lines, 'accepted')));
$held = array_map(fn ($w) => (int) $w[0], rl_tagged($lines, 'held'));
echo "accepted $accepted; every request ended with units held in leases: ", min($held) > 0 ? 'yes' : 'no', "\n";
echo 'after the threads ended Redis holds ', $read(), ' = 1000 - what was admitted: ', $read() === 1000 - $accepted ? 'yes' : 'NO', "\n";
echo 'anything else printed: ', json_encode(rl_untagged($lines, ['accepted', 'held'])), "\n";

echo "-- past the limit: 16 x 4 x 120 decisions on a fresh key\n";
$r->del($prefix . ':hot');
$lines = rl_threads(__DIR__ . '/workers/lease.php', 16, 4, ['decisions' => 120, 'prefix' => $prefix]);
$accepted = array_sum(array_map(fn ($w) => (int) $w[0], rl_tagged($lines, 'accepted')));
echo 'accepted at most 1,000: ', $accepted <= 1000 ? 'yes' : "NO: $accepted", '; more than 1,000 less 16 leases: ', $accepted > 1000 - 16 * 50 ? 'yes' : "NO: $accepted", "\n";
echo 'after the threads ended Redis holds 1000 - what was admitted: ', $read() === 1000 - $accepted ? 'yes' : 'NO: ' . $read(), "\n";
?>
--EXPECT--
-- below the limit: 16 x 4 x 5 decisions
accepted 320; every request ended with units held in leases: yes
after the threads ended Redis holds 680 = 1000 - what was admitted: yes
anything else printed: []
-- past the limit: 16 x 4 x 120 decisions on a fresh key
accepted at most 1,000: yes; more than 1,000 less 16 leases: yes
after the threads ended Redis holds 1000 - what was admitted: yes
