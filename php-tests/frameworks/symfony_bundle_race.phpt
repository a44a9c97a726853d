--TEST--
Symfony bundle: 8 processes through a rate-limited controller of a real kernel accept exactly each limit (fixed_window, sliding_window, token_bucket, and two of them as one compound), with the bundle's connection a single server, a TLS server (rediss://) and a 3-master Redis Cluster (the array form)
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/symfony_app.inc';
require __DIR__ . '/../tls.inc';
require __DIR__ . '/../cluster.inc';

$limiters = [
    'api' => ['policy' => 'fixed_window', 'limit' => 100, 'interval' => '1 minute'],
    'sliding' => ['policy' => 'sliding_window', 'limit' => 60, 'interval' => '1 minute'],
    'bucket' => ['policy' => 'token_bucket', 'limit' => 80, 'rate' => ['interval' => '1 hour', 'amount' => 1]],
];
$controllers = ['/api' => RlApiController::class, '/sliding' => RlSlidingController::class, '/bucket' => RlBucketController::class, '/pair' => RlPairController::class];

$tls = rl_start_tls_redis();
$cluster = rl_start_cluster(3, 0);
$topologies = [
    'one server' => RL_URL,
    'TLS' => "rediss://127.0.0.1:{$tls['tls_port']}?cafile={$tls['certs']}/ca.pem",
    // The array form, as a YAML config gives it.
    'Redis Cluster' => ['cluster' => $cluster['seeds']],
];
$n = 0;
foreach ($topologies as $name => $connection) {
    echo "== $name\n";
    ini_set('ratelimit.key_prefix', rl_prefix("t$n") . ':');
    // Booted before the fork (its container compiled), nothing sent: each child opens its own connection.
    $kernel = rl_symfony_kernel('race' . $n++, ['connection' => $connection], $limiters, $controllers);
    // A client IP per route: /pair takes from the api and sliding limiters of its own IP.
    foreach (['/api' => [100, '10.9.0.1'], '/sliding' => [60, '10.9.0.2'], '/bucket' => [80, '10.9.0.3'], '/pair' => [60, '10.9.0.4']] as $path => [$limit, $ip]) {
        $accepted = rl_hammer(fn () => rl_symfony_get($kernel, $path, $ip)->getStatusCode() === 200, 8, 25);
        printf("%-8s limit %3d: %s\n", $path, $limit, $accepted === $limit ? 'exactly the limit accepted of 200' : "$accepted accepted of 200");
    }
}
?>
--EXPECT--
== one server
/api     limit 100: exactly the limit accepted of 200
/sliding limit  60: exactly the limit accepted of 200
/bucket  limit  80: exactly the limit accepted of 200
/pair    limit  60: exactly the limit accepted of 200
== TLS
/api     limit 100: exactly the limit accepted of 200
/sliding limit  60: exactly the limit accepted of 200
/bucket  limit  80: exactly the limit accepted of 200
/pair    limit  60: exactly the limit accepted of 200
== Redis Cluster
/api     limit 100: exactly the limit accepted of 200
/sliding limit  60: exactly the limit accepted of 200
/bucket  limit  80: exactly the limit accepted of 200
/pair    limit  60: exactly the limit accepted of 200
