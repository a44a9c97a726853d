--TEST--
Threads: the server stalls (DEBUG SLEEP 1.2 on another connection) under 16 threads sharing one connection with ratelimit.timeout = 0.3: every thread's calls time out on their own deadline, none sooner, with RateLimiterException "timed out"; no thread is ever handed a late reply meant for another; all decide again once the server answers
--FILE--
<?php
require __DIR__ . '/threads.inc';
// DEBUG from a loopback client (Redis >= 7 refuses it by default).
$server = rl_start_redis(['--enable-debug-command', 'local']);
$out = tempnam(sys_get_temp_dir(), 'rl-threads-out-');
$err = tempnam(sys_get_temp_dir(), 'rl-threads-err-');
$stop = sys_get_temp_dir() . '/rl-threads-stop-' . getmypid();
$cmd = rl_threads_command(__DIR__ . '/workers/own_window.php', 16, 1, ['port' => $server['port'], 'stop' => $stop, 'not_before' => 0.29],
    ['ratelimit.timeout' => '0.3', 'ratelimit.retry_interval' => '0']);
$proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']], $pipes);
rl_wait_for_threads($stop, 16);
usleep(300000);
// Redis sleeps inside one command and runs nothing else meanwhile: every
// reply waits. (A script spinning on TIME would not do: since Redis 7.2 TIME
// stands still inside a script.)
$r = rl_redis($server['port']);
echo 'the stall ran: ', var_export($r->rawCommand('DEBUG', 'SLEEP', '1.2'), true), "\n";
usleep(500000);
touch($stop);
$status = proc_close($proc);
echo "exit status of the threaded process: $status\n";
echo 'its stderr: ', json_encode(file_get_contents($err)), "\n";
$lines = explode("\n", rtrim(file_get_contents($out), "\n"));
$done = rl_tagged($lines, 'done');
echo 'threads that reported: ', count($done), "\n";
echo 'threads whose calls timed out: ', count(array_filter($done, fn ($d) => $d[2] > 0)), "\n";
echo 'threads that decided again after it (a last call, after the test said stop): ', count(array_filter($done, fn ($d) => $d[5] === '1')), "\n";
echo 'replies handed to the wrong thread: ', array_sum(array_column($done, 3)), "\n";
$why = array_map(fn ($w) => implode(' ', $w), rl_tagged($lines, 'why'));
echo 'failures other than a timeout: ', json_encode(array_values(array_filter($why, fn ($w) => !preg_match('/^RateLimiterException: Redis at .*: timed out/', $w)))), "\n";
echo 'timeouts sooner than the timeout: ', json_encode(array_slice(rl_tagged($lines, 'early'), 0, 3)), "\n";
echo 'anything else printed: ', json_encode(array_slice(rl_untagged($lines, ['done', 'why', 'early', 'foreign']), 0, 5)), "\n";
foreach (rl_tagged($lines, 'foreign') as $f) echo 'foreign: ', implode(' ', $f), "\n";
rl_stop_redis($server);
@unlink($out); @unlink($err); @unlink($stop);
foreach (glob("$stop.*") as $f) unlink($f);
?>
--EXPECT--
the stall ran: true
exit status of the threaded process: 0
its stderr: ""
threads that reported: 16
threads whose calls timed out: 16
threads that decided again after it (a last call, after the test said stop): 16
replies handed to the wrong thread: 0
failures other than a timeout: []
timeouts sooner than the timeout: []
anything else printed: []
