<?php
// Reads the valgrind reports that `make test-valgrind` left, one file per
// process (TEST.mem.PID: scripts/valgrind/bin/valgrind), and says which of
// them count:
//   php scripts/valgrind/php-report.php FILE.mem.PID...
// prints, per test with reports that count, its records that count, and
// ends with one line "valgrind: N processes of T tests, M tests count";
// exit status 1 when any counts.
//
// What counts, per process (valgrind's ==PID== prefix):
// - every memory error (an invalid read or write, a use of an uninitialised
//   value, a bad free, ...), whatever process met it;
// - a definite or indirect leak whose allocation's stack has a frame of the
//   extension (ratelimit.so, ratelimit:: or ext_php_rs::), in a process that
//   shut down.
// A PHP that shuts down frees what it allocated at startup. A process whose
// report shows PHP's own startup allocations lost (a stack through
// php_module_startup with no frame of the extension) never shut down: it
// was killed by a signal (a server the test started and stopped, a worker,
// a child ended by the harness), and its leak records only say what it held
// when it died. Its errors still count. The leaks of other programs the
// tests run (bash, tools) are theirs.

$files = array_slice($argv, 1);
$byTest = [];
foreach ($files as $file) {
    $byTest[preg_replace('/\.mem\.\d+$/', '', $file)][] = $file;
}
ksort($byTest);
$counted = 0;
foreach ($byTest as $test => $processes) {
    $text = implode("\n", array_map(fn ($f) => (string) @file_get_contents($f), $processes));
    // One record per "==PID== " block, blocks separated by an "==PID== " line alone.
    $records = [];
    foreach (preg_split('/\R/', $text) as $line) {
        if (!preg_match('/^==(\d+)== ?(.*)$/', $line, $m)) continue;
        [$pid, $rest] = [$m[1], $m[2]];
        if ($rest === '') {
            unset($open[$pid]);
            continue;
        }
        if (!isset($open[$pid])) {
            $records[] = ['pid' => $pid, 'lines' => []];
            $open[$pid] = count($records) - 1;
        }
        $records[$open[$pid]]['lines'][] = $rest;
    }
    $open = [];
    $ours = fn (array $r) => (bool) preg_grep('/ratelimit\.so|ratelimit::|ext_php_rs::/', $r['lines']);
    $isLeak = fn (array $r) => (bool) preg_match('/ bytes in [\d,]+ blocks are (definitely|indirectly|possibly) lost/', $r['lines'][0]);
    $killed = [];
    foreach ($records as $r) {
        if ($isLeak($r) && !$ours($r) && preg_grep('/php_module_startup/', $r['lines'])) $killed[$r['pid']] = true;
    }
    $counts = [];
    foreach ($records as $r) {
        if (!$isLeak($r) || ($ours($r) && !isset($killed[$r['pid']]))) $counts[] = $r;
    }
    if ($counts) {
        $counted++;
        echo "---- $test: ", count($counts), " record(s) that count (of ", count($records), " in ", count($processes), " process(es); processes that never shut down: ", count($killed), ")\n";
        foreach (array_slice($counts, 0, 20) as $r) echo '  ', implode("\n  ", $r['lines']), "\n\n";
    }
}
echo 'valgrind: ', count($files), ' processes of ', count($byTest), ' tests, ', $counted, " tests count\n";
exit($counted > 0 ? 1 : 0);
