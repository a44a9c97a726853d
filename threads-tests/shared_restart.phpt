--TEST--
Threads: Redis restarted (killed, then started again empty on its port) under 16 threads sharing one connection: the calls in flight fail, each with its own RateLimiterException; no thread is handed another's reply; the threads reconnect by themselves and all decide again, on one connection again
--FILE--
<?php
require __DIR__ . '/threads.inc';
$server = rl_start_redis();
$port = $server['port'];
$out = tempnam(sys_get_temp_dir(), 'rl-threads-out-');
$err = tempnam(sys_get_temp_dir(), 'rl-threads-err-');
$stop = sys_get_temp_dir() . '/rl-threads-stop-' . getmypid();
$cmd = rl_threads_command(__DIR__ . '/workers/own_window.php', 16, 1, ['port' => $port, 'stop' => $stop],
    ['ratelimit.timeout' => '1.0', 'ratelimit.connect_timeout' => '0.5', 'ratelimit.retry_interval' => '0.2']);
$proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']], $pipes);
rl_wait_for_threads($stop, 16);
usleep(500000);
rl_stop_redis($server, false);
usleep(300000);
$server = rl_start_redis([], $port, $server['dir']);
usleep(1000000);
touch($stop);
$status = proc_close($proc);
echo "exit status of the threaded process: $status\n";
echo 'its stderr: ', json_encode(file_get_contents($err)), "\n";
$lines = explode("\n", rtrim(file_get_contents($out), "\n"));
$done = rl_tagged($lines, 'done');
echo 'threads that reported: ', count($done), "\n";
echo 'calls that failed: ', array_sum(array_column($done, 2)) > 0 ? 'some (the restart was felt)' : 'none (the restart did not bite)', "\n";
echo 'threads that decided again after it (a last call, after the test said stop): ', count(array_filter($done, fn ($d) => $d[5] === '1')), "\n";
echo 'replies handed to the wrong thread: ', array_sum(array_column($done, 3)), "\n";
echo 'anything else printed: ', json_encode(array_slice(rl_untagged($lines, ['done', 'why', 'early', 'foreign']), 0, 5)), "\n";
foreach (rl_tagged($lines, 'foreign') as $f) echo 'foreign: ', implode(' ', $f), "\n";
$why = array_map(fn ($w) => implode(' ', $w), rl_tagged($lines, 'why'));
echo 'failures that are not RateLimiterException: ', json_encode(array_values(array_filter($why, fn ($w) => !str_starts_with($w, 'RateLimiterException: ')))), "\n";
// The restarted server's connections: the threads' and this look at INFO.
echo 'connections the threads opened to the restarted server: ', rl_redis($port)->info('stats')['total_connections_received'] - 1, "\n";
rl_stop_redis($server);
@unlink($out); @unlink($err); @unlink($stop);
foreach (glob("$stop.*") as $f) unlink($f);
?>
--EXPECT--
exit status of the threaded process: 0
its stderr: ""
threads that reported: 16
calls that failed: some (the restart was felt)
threads that decided again after it (a last call, after the test said stop): 16
replies handed to the wrong thread: 0
anything else printed: []
failures that are not RateLimiterException: []
connections the threads opened to the restarted server: 1
