--TEST--
PHP-FPM (4 static workers) behind nginx under ab load: exact counts per client, one reused Redis connection per worker, Redis restarted mid-load without losing a worker
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../config.inc';
require __DIR__ . '/../fpm.inc';
// This PHP's php-fpm as scripts/fpm-load.bash finds it (Debian's php-fpmX.Y, or one built from source's).
if (rl_fpm_binary() === null) die('skip needs the php-fpm of ' . PHP_BINARY . ' (make deps installs Debian\'s)');
foreach (['nginx', 'ab'] as $tool) {
    if (trim((string) shell_exec('PATH="$PATH:/usr/sbin:/sbin" command -v ' . escapeshellarg($tool))) === '') {
        die("skip needs $tool (make deps installs it)");
    }
}
?>
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
// scripts/fpm-load.bash starts its own redis-server, php-fpm and nginx, runs
// the load, asserts and prints the figures (make test-fpm runs it alone). Here
// only its verdict and the figures that must be exact are compared; on
// failure its whole output lands in the diff.
$root = dirname(__DIR__, 2);
$env = getenv();
$env['RATELIMIT_SO'] = getenv('RATELIMIT_SO') ?: "$root/modules/ratelimit.so";
$proc = proc_open(['bash', "$root/scripts/fpm-load.bash"],
    [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, $root, $env);
$out = stream_get_contents($pipes[1]);
fclose($pipes[1]);
$rc = proc_close($proc);

echo "exit code $rc\n";
if ($rc !== 0) {
    echo $out;
}
echo implode("\n", preg_grep('/^  id\d: |^fpm-load: (OK|\d+ assertion)/', explode("\n", $out))), "\n";
preg_match('/at most (\d+) at once in \d+ samples, (\d+) distinct; (\d+) now; (\d+) opened/', $out, $m);
echo "connections <= 4 at once, distinct, now, opened: ", json_encode(array_map(fn ($n) => $n >= 1 && $n <= 4, array_slice($m, 1))), "\n";
preg_match('/^workers before: (.*)\nworkers after: +(.*)$/m', $out, $w);
echo "same 4 workers: ", json_encode(count(explode(' ', $w[1] ?? '')) === 4 && ($w[1] ?? '') === ($w[2] ?? '')), "\n";
?>
--EXPECT--
exit code 0
  id1: 200 x 100, 429 x 600, other x 0; ab: 100 accepted of 700, 0 failed; redis counter 100
  id2: 200 x 100, 429 x 600, other x 0; ab: 100 accepted of 700, 0 failed; redis counter 100
  id3: 200 x 100, 429 x 600, other x 0; ab: 100 accepted of 700, 0 failed; redis counter 100
  id4: 200 x 100, 429 x 600, other x 0; ab: 100 accepted of 700, 0 failed; redis counter 100
  id5: 200 x 100, 429 x 600, other x 0; ab: 100 accepted of 700, 0 failed; redis counter 100
  id6: 200 x 100, 429 x 600, other x 0; ab: 100 accepted of 700, 0 failed; redis counter 100
fpm-load: OK
connections <= 4 at once, distinct, now, opened: [true,true,true,true]
same 4 workers: true
