<?php
// One request of the shared-connection thread tests (threads-tests/shared_*.phpt):
// consumes on this thread's own fixed window, whose limit names the thread
// ((t + 1) x 1,000,000, an hour long), for $_GET['seconds'] or $_GET['decisions']
// calls, on the test's server ($_GET['port']). Every reply is checked: its
// remaining must be in this thread's million (another thread's reply would be
// in another) and fall by one per call, or by up to one more per call that
// failed before (a call that timed out may still run, later); after a failure
// the server may have restarted empty, and the window starts again.
// With $_GET['shared'] > 0 each call also consumes on one window all threads
// share, whose limit is that number (exact counts).
// With $_GET['stop'] (a file) it runs until that file exists, after saying it
// started (the file "$_GET['stop'].<thread>"), then makes one more call with a
// timeout of 5 s: whether the thread decides again once the fault is over.
// Prints "done <thread> <decided> <failed> <foreign> <accepted on the shared
// window> <last call ok 0|1>", then "foreign <detail>" (at most 3), "why
// <message>" once per failure message, and "early <seconds> <message>" for a
// failure that came sooner than $_GET['not_before'] seconds after its call, and
// "late <seconds>" for a call (answered or failed) that took longer than
// $_GET['not_after'] seconds (the time bound), at most 3.
$t = (int) $_GET['thread'];
$url = "redis://127.0.0.1:{$_GET['port']}";
$own = ($t + 1) * 1000000;
$mine = new FixedWindowRateLimiter($url, "own:$t", 3600, $own);
$shared = (int) ($_GET['shared'] ?? 0) > 0 ? new FixedWindowRateLimiter($url, 'shared', 3600, (int) $_GET['shared']) : null;
$seconds = (float) ($_GET['seconds'] ?? 0);
$stop = $_GET['stop'] ?? '';
if ($stop !== '') touch("$stop.$t");
$calls = (int) ($_GET['decisions'] ?? 0);
$notBefore = (float) ($_GET['not_before'] ?? 0);
$notAfter = (float) ($_GET['not_after'] ?? 0);
$late = [];
$took = function (float $at) use (&$late, $notAfter) {
    $waited = microtime(true) - $at;
    if ($notAfter > 0 && $waited > $notAfter) $late[] = sprintf('%.3f', $waited);
};
$last = $own;
$failedSoFar = 0;
$decided = $failed = $accepted = 0;
$lastOk = false;
$foreign = $why = $early = [];
$fail = function (Throwable $e, float $at) use (&$failed, &$failedSoFar, &$why, &$early, &$lastOk, $notBefore) {
    $failed++;
    $failedSoFar++;
    $lastOk = false;
    $why[get_class($e) . ': ' . $e->getMessage()] = true;
    $waited = microtime(true) - $at;
    if ($waited < $notBefore) $early[] = sprintf('%.3f %s', $waited, $e->getMessage());
};
$started = microtime(true);
$more = function (int $i) use ($stop, $seconds, $started, $calls): bool {
    if ($stop !== '') {
        clearstatcache();
        return !file_exists($stop);
    }
    return $seconds > 0 ? microtime(true) - $started < $seconds : $i < $calls;
};
for ($i = 0; ; $i++) {
    $final = !$more($i);
    if ($final && $stop === '') break;
    // After the stop: one more call, with room to answer.
    if ($final) ini_set('ratelimit.timeout', '5');
    $at = microtime(true);
    try {
        $r = $mine->consume();
        $step = $last - $r->remaining;
        $inRange = $r->remaining < $own && $r->remaining >= $own - 500000;
        $restarted = $failedSoFar > 0 && $r->remaining >= $own - 1 - $failedSoFar;
        if (!$inRange || !(($step >= 1 && $step <= 1 + $failedSoFar) || $restarted)) {
            $foreign[] = "thread $t: remaining {$r->remaining} after $last ($failedSoFar failed so far)";
        }
        $last = $r->remaining;
        $decided++;
        $lastOk = true;
    } catch (RateLimiterException $e) {
        $fail($e, $at);
    }
    if (!$final) $took($at);
    if ($final) break;
    if ($shared) {
        $at = microtime(true);
        try {
            $accepted += (int) $shared->isAllowed();
        } catch (RateLimiterException $e) {
            $fail($e, $at);
        }
        $took($at);
    }
}
printf("done %d %d %d %d %d %d\n", $t, $decided, $failed, count($foreign), $accepted, $lastOk ? 1 : 0);
foreach (array_slice($foreign, 0, 3) as $f) echo "foreign $f\n";
foreach (array_keys($why) as $w) echo "why $w\n";
foreach ($early as $e) echo "early $e\n";
foreach (array_slice($late, 0, 3) as $l) echo "late $l\n";
