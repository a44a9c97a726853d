--TEST--
withLease() across processes: 8 processes deciding in a loop on one key of a limit of 1,000 (a fixed window: counted per window by the children; a token bucket) never admit more than the limit allows; with a limit nearly used up each new lease is smaller (a quarter of what is left), and the false denials of another process are exactly the units the leases hold; when the leasing processes end, their units are back in Redis
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--CONFLICTS--
heavy # 8 processes at once (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';

/**
 * Forks 8 children that consume from $make() (made in the child) until
 * $seconds have passed; each returns what $record collects of its admitted
 * results, merged by $merge.
 */
function race(callable $make, float $seconds, callable $record, int $pause = 0, int $attempts = PHP_INT_MAX): array
{
    $start = microtime(true) + 0.3;
    $files = $pids = [];
    for ($p = 0; $p < 8; $p++) {
        $files[$p] = tempnam(sys_get_temp_dir(), 'rl-lease');
        $pid = pcntl_fork();
        if ($pid === 0) {
            try {
                $l = $make();
                $seen = [];
                rl_sleep_until($start);
                for ($i = 0; $i < $attempts && microtime(true) < $start + $seconds; $i++) {
                    $x = $l->consume('hot');
                    if ($x->allowed) $record($seen, $x);
                    if ($pause) usleep($pause);
                }
                file_put_contents($files[$p], json_encode($seen));
            } catch (Throwable $e) {
                file_put_contents($files[$p], 'error: ' . $e->getMessage());
            }
            rl_child_exit();
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) pcntl_waitpid($pid, $status);
    $all = [];
    foreach ($files as $f) {
        $got = json_decode($raw = file_get_contents($f), true);
        unlink($f);
        if (!is_array($got)) throw new RuntimeException("a child failed: $raw");
        $all[] = $got;
    }
    return $all;
}

echo "-- a fixed window of 0.4 s, 1,000 per window: the admitted counted per window\n";
$p = rl_prefix('window');
$children = race(fn () => (new FixedWindowRateLimiter(RL_URL, $p, 0.4, 1000))->withLease(50, 10), 1.1,
    function (array &$seen, RateLimitResult $x) {
        // The window an answer belongs to, by its end (ms); a lease's answer
        // with no time left in its window would be a unit of an ended window
        // (Redis itself may admit in a window's last millisecond: resetAfter 0).
        $end = $x->source === 'lease' && $x->resetAfter <= 0 ? 'ended' : (string) (int) round((microtime(true) + $x->resetAfter) * 1000);
        $seen[$end] = ($seen[$end] ?? 0) + 1;
    });
$ends = [];
$late = 0;
foreach ($children as $seen) foreach ($seen as $end => $n) {
    if ($end === 'ended') { $late += $n; continue; }
    $ends[(int) $end] = ($ends[(int) $end] ?? 0) + $n;
}
ksort($ends);
echo 'admitted after their window ended: ', $late, "\n";
// Ends of one window differ by the round trips' ms; two windows by ~400 ms.
$windows = [];
$last = null;
foreach ($ends as $end => $n) {
    if ($last === null || $end - $last > 200) $windows[] = 0;
    $windows[count($windows) - 1] += $n;
    $last = $end;
}
echo 'windows seen: ', count($windows) >= 2 ? 'at least 2' : count($windows), "\n";
echo 'every window admitted at most 1,000: ', max($windows) <= 1000 ? 'yes' : 'NO: ' . implode(' ', $windows), "\n";
echo 'the fullest admitted at least 1,000 less the 8 leases: ', max($windows) >= 1000 - 8 * 50 ? 'yes' : 'NO: ' . implode(' ', $windows), "\n";

echo "-- the same, paced below the limit: leases hold units when a window ends, and spend none of them after it\n";
$p = rl_prefix('paced');
$children = race(fn () => (new FixedWindowRateLimiter(RL_URL, $p, 0.3, 1000))->withLease(50, 10), 0.7,
    function (array &$seen, RateLimitResult $x) {
        $seen['late'] = ($seen['late'] ?? 0) + ($x->source === 'lease' && $x->resetAfter <= 0 ? 1 : 0);
        $seen['admitted'] = ($seen['admitted'] ?? 0) + 1;
    }, 3000);
echo 'admitted after their window ended: ', array_sum(array_map(fn ($s) => $s['late'] ?? 0, $children)), ' of ',
    array_sum(array_map(fn ($s) => $s['admitted'] ?? 0, $children)) > 100 ? 'many' : 'few', "\n";

echo "-- a token bucket of 1,000 refilling 10 a second\n";
$p = rl_prefix('bucket');
$t0 = microtime(true);
// 400 attempts each (3,200 in all), however slow the machine is (at most 20 s).
$children = race(fn () => (new TokenBucketRateLimiter(RL_URL, $p, 1000, 10.0))->withLease(50, 10), 20.0,
    function (array &$seen, RateLimitResult $x) { $seen[0] = ($seen[0] ?? 0) + 1; }, 0, 400);
$admitted = array_sum(array_map(fn ($s) => $s[0] ?? 0, $children));
$allowed = 1000 + (int) ceil(10 * (microtime(true) - $t0));
echo 'admitted at most the capacity and the refill: ', $admitted <= $allowed ? 'yes' : "NO: $admitted > $allowed", "\n";
echo 'and at least 1,000 less the 8 leases: ', $admitted >= 1000 - 8 * 50 ? 'yes' : "NO: $admitted", "\n";

echo "-- a limit nearly used up: leases shrink, and false denials are what they hold\n";
$p = rl_prefix('low');
$plain = new TokenBucketRateLimiter(RL_URL, $p, 100, 0.0001);
$code = '$l = (new TokenBucketRateLimiter("' . RL_URL . '", "' . $p . '", 100, 0.0001))->withLease(50, 60);'
    . ' $l->consume("u"); echo RateLimitMetrics::leases()["' . $p . '"]["held"], "\n"; fgets(STDIN);';
$procs = [];
$held = [];
for ($i = 0; $i < 4; $i++) {
    $procs[$i] = proc_open([...rl_php_command(), '-r', $code], [['pipe', 'r'], ['pipe', 'w'], STDERR], $pipes[$i]);
    $held[] = (int) trim(fgets($pipes[$i][1]));
}
echo 'each process took 1 and holds: ', implode(' ', $held), "\n";
$admitted = 0;
while ($plain->consume('u')->allowed) $admitted++;
printf("another process admitted %d and was denied with %d units held in leases (%d spent by them): %s\n", $admitted, array_sum($held), 4,
    $admitted + array_sum($held) + 4 === 100 ? 'false denials = the units held' : 'NO');
foreach ($procs as $i => $proc) { fclose($pipes[$i][0]); fclose($pipes[$i][1]); proc_close($proc); }
echo 'after they ended, Redis has ', $plain->peek('u')->remaining, " back\n";
?>
--EXPECT--
-- a fixed window of 0.4 s, 1,000 per window: the admitted counted per window
admitted after their window ended: 0
windows seen: at least 2
every window admitted at most 1,000: yes
the fullest admitted at least 1,000 less the 8 leases: yes
-- the same, paced below the limit: leases hold units when a window ends, and spend none of them after it
admitted after their window ended: 0 of many
-- a token bucket of 1,000 refilling 10 a second
admitted at most the capacity and the refill: yes
and at least 1,000 less the 8 leases: yes
-- a limit nearly used up: leases shrink, and false denials are what they hold
each process took 1 and holds: 24 17 13 9
another process admitted 33 and was denied with 63 units held in leases (4 spent by them): false denials = the units held
after they ended, Redis has 63 back
