<?php
// Puts the rows `make matrix` measured into a doc's support table, between
// its markers:
//   php -n scripts/matrix-docs.php TABLE.md docs/install.md ROW...
// TABLE.md is the table of the rows this run measured (the whole suite of
// each). Each of them replaces its own line in the doc (or is added); the
// rows this run did not measure keep theirs, with the date and commit they
// were measured at. The lines come in the order of the ROWs given (every
// row of make matrix); a line of a row no longer among them is dropped.
// A doc without both markers is an error (exit 1), not an append.
// RATELIMIT_DOCS_MARKER=dist: the table between the dist markers instead,
// which make check-dist measures (scripts/check-dist.bash).
[$self, $tableFile, $docFile] = $argv + [null, null, null];
$order = array_slice($argv, 3);
if ($tableFile === null || $docFile === null || $order === []) {
    fwrite(STDERR, "usage: php scripts/matrix-docs.php TABLE DOC ROW...\n");
    exit(2);
}
$doc = file_get_contents($docFile);
$marker = getenv('RATELIMIT_DOCS_MARKER') ?: 'matrix';
$target = $marker === 'matrix' ? 'make matrix' : "make check-$marker";
$begin = "<!-- $marker:begin -->\n";
$end = "<!-- $marker:end -->";
$from = strpos($doc, $begin);
$to = strpos($doc, $end);
if ($from === false || $to === false || $to < $from) {
    fwrite(STDERR, "$docFile has no $begin...$end markers\n");
    exit(1);
}

/** The table's row lines (not its header or separator), by row name. */
function rows_of(string $text): array
{
    $rows = [];
    foreach (explode("\n", $text) as $line) {
        if (preg_match('/^\| ([a-z0-9-]+) \|/', $line, $m) && $m[1] !== 'row') $rows[$m[1]] = $line;
    }
    return $rows;
}

$table = file_get_contents($tableFile);
$rows = array_merge(rows_of(substr($doc, $from, $to - $from)), rows_of($table));
preg_match('/^\| row \|.*$/m', $table, $header);
$columns = substr_count($header[0], '|') - 1;
$out = "Each row as its last `$target` run measured it (UTC date, commit):\n\n" . $header[0] . "\n|" . str_repeat('---|', $columns) . "\n";
foreach ($order as $row) {
    if (isset($rows[$row])) $out .= $rows[$row] . "\n";
}
file_put_contents($docFile, substr($doc, 0, $from + strlen($begin)) . $out . substr($doc, $to));
