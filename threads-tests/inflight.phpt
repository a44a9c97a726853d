--TEST--
Threads: ConcurrencyLimiter in 16 threads of one process: never more than 4 permits held (the server's count), and every permit a request leaves held (kept to its end, or exit()) is freed by that thread's request shutdown
--FILE--
<?php
require __DIR__ . '/threads.inc';
$prefix = 'threads-inflight-' . getmypid();
$lines = rl_threads(__DIR__ . '/workers/inflight.php', 16, 12, ['prefix' => $prefix]);
$got = $over = 0;
foreach (rl_tagged($lines, 'got') as [$g, $seen]) {
    $got += (int) $g;
    if ((int) $seen > 4) $over++;
}
echo 'requests: ', count(rl_tagged($lines, 'got')), '; some got a permit: ', json_encode($got > 0), "; saw more than 4: $over\n";
echo 'in flight after the process: ', (new ConcurrencyLimiter(RL_URL, $prefix, 4, 30.0))->inFlight('x'), "\n";
echo 'anything else printed: ', json_encode(rl_untagged($lines, ['got'])), "\n";
?>
--EXPECT--
requests: 192; some got a permit: true; saw more than 4: 0
in flight after the process: 0
anything else printed: []
