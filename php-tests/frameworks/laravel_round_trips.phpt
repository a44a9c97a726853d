--TEST--
Laravel drop-in: one round trip per request and limit (Redis INFO stats: total_reads_processed; total_commands_processed includes the commands a script runs), stock figures reported
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

// A server of its own: other tests run in parallel on the shared one.
$server = rl_start_redis();
$info = rl_redis($server['port']);
function stats(RlClient $r): array
{
    $s = $r->info('stats');
    return [(int) $s['total_commands_processed'], (int) $s['total_reads_processed']];
}

/** Commands and reads per request for $n requests to $uri (after one warm-up request). */
function per_request(RlTestKernel $kernel, RlClient $info, string $uri, int $n, string $ip, array $headers = []): string
{
    rl_laravel_get($kernel, $uri, $ip, true, $headers);   // connects, loads the script
    [$c0, $r0] = stats($info);
    $statuses = [];
    for ($i = 0; $i < $n; $i++) {
        $statuses[] = rl_laravel_get($kernel, $uri, $ip, true, $headers)->getStatusCode();
    }
    [$c1, $r1] = stats($info);
    // The first INFO counts as a command in the second reading; the second INFO's read counts as a read.
    return sprintf('%s: %.2f commands, %.2f reads per request (%s)', $uri, ($c1 - $c0 - 1) / $n, ($r1 - $r0 - 1) / $n,
        implode(',', array_map(fn ($s) => count(array_keys($statuses, $s)) . "x$s", array_unique($statuses))));
}

foreach (['stock' => false, 'drop-in' => true] as $name => $dropIn) {
    echo "== $name\n";
    $kernel = rl_laravel_app($dropIn, rl_prefix($name), [], $server['port']);
    // Laravel's signature for throttle:N,M is domain and IP only: one IP per route keeps the counters apart.
    // The drop-in's commands per request: under Lua its FCALL and the
    // commands the script runs (a block key's PTTL, the counter's GET, INCRBY
    // or SET, PTTL or PEXPIREAT; for /two both limits'); where the server
    // module decides, its one command (it reads and writes the keys without
    // running commands).
    $expected = fn (string $line, float $lua) => $dropIn ? str_replace(sprintf('%.2f commands', RL_MODULE === '' ? $lua : 1), 'the expected commands', $line) : $line;
    echo $expected(per_request($kernel, $info, '/race', 20, '10.1.1.1'), 5), "\n";    // throttle:120,1, accepted
    echo $expected(per_request($kernel, $info, '/fixed', 10, '10.1.1.2'), 4.4), "\n";   // throttle:5,1: 4 accepted, then denied
    echo $expected(per_request($kernel, $info, '/two', 1, '10.1.1.3', ['X-User' => 'rt']), 9), "\n";
    echo $expected(per_request($kernel, $info, '/withredis', 5, '10.1.1.4'), 4.4), "\n";   // ThrottleRequestsWithRedis 3,1
}
rl_stop_redis($server);
?>
--EXPECTF--
== stock
/race: %f commands, %f reads per request (20x200)
/fixed: %f commands, %f reads per request (4x200,6x429)
/two: %f commands, %f reads per request (1x200)
/withredis: %f commands, %f reads per request (2x200,3x429)
== drop-in
/race: the expected commands, 1.00 reads per request (20x200)
/fixed: the expected commands, 1.00 reads per request (4x200,6x429)
/two: the expected commands, 1.00 reads per request (1x200)
/withredis: the expected commands, 1.00 reads per request (2x200,3x429)
