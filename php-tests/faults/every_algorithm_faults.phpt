--TEST--
Every algorithm through faults: FUNCTION FLUSH, a server that lost its function library on restart, a foreign key, an unreachable server under each on_error policy
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.retry_interval=0
ratelimit.connect_timeout=0.3
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../classes.inc';
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
// Every kind of limiter in classes.inc, keyed by its kind (also its key prefix):
// limit 10, one unit back every 1000 s at most.
$make = function ($conn) {
    $limiters = [];
    foreach (rl_classes() as $kind => $c) {
        $limiters[$kind] = rl_long($kind, $conn, $kind, 10, 10000);
    }
    return $limiters;
};
$limiters = $make($url);
$admin = rl_redis($server['port']);
foreach ($limiters as $name => $l) {
    $seq = [$l->consume('a')->remaining];
    rl_library_flush($admin);
    $seq[] = $l->consume('a')->remaining;
    echo str_pad($name, 8), 'flush: ', implode(' ', $seq);

    rl_stop_redis($server, false);
    try { $l->isAllowed('a'); echo " down: answered!"; } catch (RateLimiterException $e) { echo ' down: exception'; }
    $server = rl_start_redis($server['extra'], $server['port'], $server['dir']);
    $admin = rl_redis($server['port']);
    echo ' restarted: ', $l->consume('a')->remaining;

    $key = "$name:foreign";
    $admin->rPush($key, 'v');
    try { $l->consume('foreign'); echo " foreign: answered!"; } catch (RateLimiterException $e) { echo ' foreign: exception'; }
    echo ' list intact: ', json_encode($admin->lRange($key, 0, -1)), "\n";
}
rl_stop_redis($server);

echo "-- unreachable: allow and deny answer, throw throws, reset always throws\n";
$down = $make('redis://127.0.0.1:' . rl_free_port());
foreach (['allow', 'deny', 'throw'] as $policy) {
    ini_set('ratelimit.on_error', $policy);
    $line = [];
    foreach ($down as $name => $l) {
        try {
            $r = $l->consume('a');
            $line[] = "$name=" . ($r->allowed ? 'Y' : 'n') . $r->remaining;
        } catch (RateLimiterException $e) {
            $line[] = "$name=exception";
        }
    }
    echo "$policy: ", implode(' ', $line), "\n";
}
ini_set('ratelimit.on_error', 'allow');
$thrown = 0;
foreach ($down as $l) { try { $l->reset('a'); } catch (RateLimiterException $e) { $thrown++; } }
echo "reset under allow threw $thrown of ", count($down), "\n";
?>
--EXPECT--
fixed   flush: 9 8 down: exception restarted: 9 foreign: exception list intact: ["v"]
sliding flush: 9 8 down: exception restarted: 9 foreign: exception list intact: ["v"]
blocks  flush: 9 8 down: exception restarted: 9 foreign: exception list intact: ["v"]
token   flush: 9 8 down: exception restarted: 9 foreign: exception list intact: ["v"]
leaky   flush: 9 8 down: exception restarted: 9 foreign: exception list intact: ["v"]
gcra    flush: 9 8 down: exception restarted: 9 foreign: exception list intact: ["v"]
-- unreachable: allow and deny answer, throw throws, reset always throws
allow: fixed=Y10 sliding=Y10 blocks=Y10 token=Y10 leaky=Y10 gcra=Y10
deny: fixed=n0 sliding=n0 blocks=n0 token=n0 leaky=n0 gcra=n0
throw: fixed=exception sliding=exception blocks=exception token=exception leaky=exception gcra=exception
reset under allow threw 6 of 6
