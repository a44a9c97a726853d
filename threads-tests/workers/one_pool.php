<?php
// One request of one_pool.phpt: decisions on two targets (databases 0 and 1
// of the test's own server, $_GET['port']), by limiters built anew in every
// request, as a framework's middleware does. With $_GET['sample'], thread 0
// also prints how many clients the server has besides its own look
// ("clients <n>") at the end of each of its requests, while the others run.
$t = (int) $_GET['thread'];
foreach ([0, 1] as $db) {
    $limiter = new GcraRateLimiter("redis://127.0.0.1:{$_GET['port']}/$db", 'pool', 1000, 1000000, 1);
    for ($i = 0; $i < 50; $i++) $limiter->isAllowed("t$t");
}
if ($t === 0 && !empty($_GET['sample'])) {
    require_once __DIR__ . '/../../php-tests/resp.inc';   // the harness's client: no phpredis needed
    $redis = new RlClient();
    $redis->connect('127.0.0.1', (int) $_GET['port']);
    echo 'clients ', $redis->info('clients')['connected_clients'] - 1, "\n";
    $redis->close();
}
echo "done $t\n";
