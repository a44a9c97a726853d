<?php
// Puts the table `make matrix` measured into a doc, between its markers:
//   php -n scripts/matrix-docs.php TABLE.md docs/install.md
// The lines between "<!-- matrix:begin -->" and "<!-- matrix:end -->" are
// replaced; a doc without both markers is an error (exit 1), not an append.
[$self, $tableFile, $docFile] = $argv + [null, null, null];
if ($tableFile === null || $docFile === null) {
    fwrite(STDERR, "usage: php scripts/matrix-docs.php TABLE DOC\n");
    exit(2);
}
$doc = file_get_contents($docFile);
$begin = "<!-- matrix:begin -->\n";
$end = "<!-- matrix:end -->";
$from = strpos($doc, $begin);
$to = strpos($doc, $end);
if ($from === false || $to === false || $to < $from) {
    fwrite(STDERR, "$docFile has no $begin...$end markers\n");
    exit(1);
}
$table = rtrim(file_get_contents($tableFile)) . "\n";
file_put_contents($docFile, substr($doc, 0, $from + strlen($begin)) . $table . substr($doc, $to));
