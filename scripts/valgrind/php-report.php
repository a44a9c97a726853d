<?php
// Reads the valgrind reports (.mem files) that `make test-valgrind` left
// for the tests run-tests.php marked LEAK, and says which of them count:
//   php scripts/valgrind/php-report.php FILE.mem...
// prints, per file that counts, its records that count, and ends with one
// line "valgrind: N reports, M count"; exit status 1 when any counts.
//
// What counts, per process of a report (valgrind's ==PID== prefix):
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
// when it died. Its errors still count.

$files = array_slice($argv, 1);
$counted = 0;
foreach ($files as $file) {
    $text = (string) @file_get_contents($file);
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
        echo "---- $file: ", count($counts), " record(s) that count (of ", count($records), "; processes that never shut down: ", count($killed), ")\n";
        foreach (array_slice($counts, 0, 20) as $r) echo '  ', implode("\n  ", $r['lines']), "\n\n";
    }
}
echo 'valgrind: ', count($files), ' reports, ', $counted, " count\n";
exit($counted > 0 ? 1 : 0);
