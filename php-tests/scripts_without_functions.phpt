--TEST--
A Redis without functions (FCALL and FUNCTION renamed away, as on Redis 6): every class, peek, consumeMany and a compound answer exactly as with the function library, through EVALSHA of the script form, reloaded after SCRIPT FLUSH; the server with functions never sees an EVALSHA
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
; the Lua library's calls are what this test counts
ratelimit.server_module=off
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$with = rl_start_redis();
// A server with functions (Redis >= 7, Valkey) gets a twin with them renamed
// away; a Redis 6 has none to rename: both servers then take the script form.
$hasFunctions = rl_server_has(rl_redis($with['port']), 'FCALL');
$without = rl_start_redis($hasFunctions ? ['--rename-command', 'FCALL', '', '--rename-command', 'FUNCTION', ''] : []);

// The same calls against one server; what they answer, as one line per class.
$scenario = function (array $server): string {
    $url = 'redis://127.0.0.1:' . $server['port'];
    $brief = fn (RateLimitResult $r) => ($r->allowed ? 'Y' : 'n') . $r->remaining;
    $out = '';
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $url, "s:$kind", 4);
        $seq = [$brief($l->consume('a', 2)), $brief($l->peek('a')), $brief($l->consume('a', 3))];
        rl_redis($server['port'])->script('flush');
        $seq[] = $brief($l->consume('a', 2));
        $seq[] = implode(',', array_map($brief, $l->consumeMany(['b', 'b', 'a', 'b', 'b', 'c'], 1)));
        $out .= str_pad($kind, 8) . implode(' ', $seq) . "\n";
    }
    $compound = new CompoundRateLimiter([rl_long('token', $url, 'c:t', 3), rl_long('fixed', $url, 'c:f', 5)]);
    $out .= 'compound ' . implode(' ', array_map(fn () => $brief($compound->consume('k')), range(1, 4))) . ' peek ' . $brief($compound->peek('k')) . "\n";
    return $out;
};

// One process per server: a process that met a Redis without FCALL uses
// EVALSHA from then on, for every server.
$file = tempnam(sys_get_temp_dir(), 'rl');
$pid = pcntl_fork();
if ($pid === 0) {
    file_put_contents($file, $scenario($without));
    exit(0);
}
pcntl_waitpid($pid, $status);
$functions = $scenario($with);
$scripts = file_get_contents($file);
unlink($file);
echo $functions;
echo "the same without functions: ", var_export($functions === $scripts, true), "\n";
if ($functions !== $scripts) echo $scripts;
$calls = function (array $server, string $command) {
    $stats = rl_redis($server['port'])->info('commandstats');
    return (int) (explode(',', substr($stats["cmdstat_$command"] ?? 'calls=0,', 6))[0]);
};
$seen = $hasFunctions ? 'fcall ' . ($calls($with, 'fcall') > 20 ? 'many' : 'few') . ', evalsha ' . $calls($with, 'evalsha')
    : 'fcall ' . $calls($with, 'fcall') . ', evalsha ' . ($calls($with, 'evalsha') > 20 ? 'many' : 'few');
echo "with functions: ", $seen === ($hasFunctions ? 'fcall many, evalsha 0' : 'fcall 0, evalsha many') ? 'fcall many, evalsha 0 (a Redis 6: none, evalsha many)' : "UNEXPECTED: $seen", "\n";
echo "without: fcall ", $calls($without, 'fcall'), ", evalsha ", $calls($without, 'evalsha') > 20 ? 'many' : 'few', "\n";
rl_stop_redis($with);
rl_stop_redis($without);
?>
--EXPECT--
fixed   Y2 Y2 n2 Y0 Y3,Y2,n0,Y1,Y0,Y3
sliding Y2 Y2 n2 Y0 Y3,Y2,n0,Y1,Y0,Y3
blocks  Y2 Y2 n2 Y0 Y3,Y2,n0,Y1,Y0,Y3
token   Y2 Y2 n2 Y0 Y3,Y2,n0,Y1,Y0,Y3
leaky   Y2 Y2 n2 Y0 Y3,Y2,n0,Y1,Y0,Y3
gcra    Y2 Y2 n2 Y0 Y3,Y2,n0,Y1,Y0,Y3
compound Y2 Y1 Y0 n0 peek n0
the same without functions: true
with functions: fcall many, evalsha 0 (a Redis 6: none, evalsha many)
without: fcall 0, evalsha many