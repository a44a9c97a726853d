--TEST--
Threads, at most once: 16 threads sharing one connection through a server stall (DEBUG SLEEP 0.7 with ratelimit.timeout = 0.2): every call returns within its timeout (plus connect_timeout when it opens the next connection), each thread's own window holds every call it decided plus at most one per call that failed (a timed-out command is never sent again), the shared window accepts at most its limit, and every failure says the decision may have been counted
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis(['--enable-debug-command', 'local']);
$out = tempnam(sys_get_temp_dir(), 'rl-threads-out-');
$err = tempnam(sys_get_temp_dir(), 'rl-threads-err-');
$stop = sys_get_temp_dir() . '/rl-threads-stop-' . getmypid();
$limit = 400;
// The bound: the timeout, plus the connect timeout for a call that opens the
// connection again after the stall closed it, plus scheduling on a loaded machine.
$cmd = rl_threads_command(__DIR__ . '/workers/own_window.php', 16, 1,
    ['port' => $server['port'], 'stop' => $stop, 'shared' => $limit, 'not_after' => 0.2 + 0.2 + 0.45],
    ['ratelimit.timeout' => '0.2', 'ratelimit.connect_timeout' => '0.2', 'ratelimit.retry_interval' => '0']);
$proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']], $pipes);
rl_wait_for_threads($stop, 16);
usleep(200000);
$r = rl_redis($server['port']);
echo 'the stall ran: ', var_export($r->rawCommand('DEBUG', 'SLEEP', '0.7'), true), "\n";
usleep(300000);
touch($stop);
$status = proc_close($proc);
echo "exit status of the threaded process: $status\n";
echo 'its stderr: ', json_encode(file_get_contents($err)), "\n";
$lines = explode("\n", rtrim(file_get_contents($out), "\n"));
$done = rl_tagged($lines, 'done');
echo 'threads that reported: ', count($done), "\n";
echo 'threads whose calls failed in the stall: ', count(array_filter($done, fn ($d) => $d[2] > 0)), "\n";
// Each: [thread, decided, failed, foreign, accepted on the shared window, last call ok].
$off = [];
foreach ($done as $d) {
    // The own window counts every call of the thread that ran: those it decided (the last call
    // after the stop included) and at most those that failed (a failed call may have run once).
    $counted = (int) $r->get("own:{$d[0]}");
    if ($counted < (int) $d[1] || $counted > (int) $d[1] + (int) $d[2]) $off[] = "thread {$d[0]}: counted $counted, decided {$d[1]}, failed {$d[2]}";
}
echo 'threads whose window counted more than decided + failed (or less than decided): ', json_encode($off), "\n";
$accepted = array_sum(array_column($done, 4));
echo 'shared window: accepted <= limit: ', $accepted <= $limit ? 'yes' : "NO ($accepted)", "\n";
echo 'replies handed to the wrong thread: ', array_sum(array_column($done, 3)), "\n";
$why = array_map(fn ($w) => implode(' ', $w), rl_tagged($lines, 'why'));
echo 'failures that do not say the decision may have been counted: ',
    json_encode(array_values(array_filter($why, fn ($w) => !str_contains($w, 'timed out after 0.2 s; the decision may have been counted')))), "\n";
echo 'calls slower than the bound: ', json_encode(array_slice(rl_tagged($lines, 'late'), 0, 3)), "\n";
echo 'anything else printed: ', json_encode(array_slice(rl_untagged($lines, ['done', 'why', 'early', 'foreign', 'late']), 0, 5)), "\n";
rl_stop_redis($server);
@unlink($out); @unlink($err); @unlink($stop);
foreach (glob("$stop.*") as $f) unlink($f);
?>
--EXPECT--
the stall ran: true
exit status of the threaded process: 0
its stderr: ""
threads that reported: 16
threads whose calls failed in the stall: 16
threads whose window counted more than decided + failed (or less than decided): []
shared window: accepted <= limit: yes
replies handed to the wrong thread: 0
failures that do not say the decision may have been counted: []
calls slower than the bound: []
anything else printed: []
