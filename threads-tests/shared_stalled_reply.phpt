--TEST--
Threads: the server stalls (a 1.2 s script on another connection) under 16 threads sharing one connection with ratelimit.timeout = 0.3: every thread's calls time out on their own deadline, none sooner, with RateLimiterException "timed out"; no thread is ever handed a late reply meant for another; all decide again once the server answers
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis();
$out = tempnam(sys_get_temp_dir(), 'rl-threads-out-');
$err = tempnam(sys_get_temp_dir(), 'rl-threads-err-');
$cmd = rl_threads_command(__DIR__ . '/workers/own_window.php', 16, 1, ['port' => $server['port'], 'seconds' => 3.5, 'not_before' => 0.29],
    ['ratelimit.timeout' => '0.3']);
$proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']], $pipes);
usleep(1000000);
// Redis runs one script at a time and nothing else meanwhile: every reply waits.
$spin = "local t = redis.call('TIME') local s = t[1] * 1000000 + t[2] "
    . "while true do local n = redis.call('TIME') if n[1] * 1000000 + n[2] - s > tonumber(ARGV[1]) then return 1 end end";
$r = rl_redis($server['port']);
echo 'the stall ran: ', var_export($r->rawCommand('EVAL', $spin, 0, 1200000), true), "\n";
$status = proc_close($proc);
echo "exit status of the threaded process: $status\n";
echo 'its stderr: ', json_encode(file_get_contents($err)), "\n";
$lines = explode("\n", rtrim(file_get_contents($out), "\n"));
$done = rl_tagged($lines, 'done');
echo 'threads that reported: ', count($done), "\n";
echo 'threads whose calls timed out: ', count(array_filter($done, fn ($d) => $d[2] > 0)), "\n";
echo 'threads that decided again after it (their last call): ', count(array_filter($done, fn ($d) => $d[5] === '1')), "\n";
echo 'replies handed to the wrong thread: ', array_sum(array_column($done, 3)), "\n";
$why = array_map(fn ($w) => implode(' ', $w), rl_tagged($lines, 'why'));
echo 'failures other than a timeout: ', json_encode(array_values(array_filter($why, fn ($w) => !preg_match('/^RateLimiterException: Redis at .*: timed out/', $w)))), "\n";
echo 'timeouts sooner than the timeout: ', json_encode(array_slice(rl_tagged($lines, 'early'), 0, 3)), "\n";
echo 'anything else printed: ', json_encode(array_slice(rl_untagged($lines, ['done', 'why', 'early', 'foreign']), 0, 5)), "\n";
foreach (rl_tagged($lines, 'foreign') as $f) echo 'foreign: ', implode(' ', $f), "\n";
rl_stop_redis($server);
@unlink($out); @unlink($err);
?>
--EXPECT--
the stall ran: 1
exit status of the threaded process: 0
its stderr: ""
threads that reported: 16
threads whose calls timed out: 16
threads that decided again after it (their last call): 16
replies handed to the wrong thread: 0
failures other than a timeout: []
timeouts sooner than the timeout: []
anything else printed: []
