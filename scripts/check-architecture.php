<?php
/*
 * `make check-architecture`: what docs/ARCHITECTURE.md names still exists.
 * A map that names a moved file or a renamed function sends its reader to
 * nothing; this check fails first.
 *
 *   php scripts/check-architecture.php [--list] [--root DIR] [DOC]
 *
 * DOC defaults to docs/ARCHITECTURE.md, DIR (where its paths start) to the
 * repository. Exit 0: all there; 1: each missing name on a line of its own,
 * `DOC:LINE: `span`: why`.
 *
 * The convention (docs/ARCHITECTURE.md says it in a comment at its top). Only
 * backticked spans are read; a "row" is a table row, a list item or a
 * paragraph, and fenced code and HTML comments are skipped.
 * - A path: a span without spaces or `://` that has a `/` or ends in a file
 *   ending (.rs .lua .php .phpt .md .bash .c .h .toml .json). One that starts
 *   at a folder of the repository's top (`src/…`, `core/…`, `lua/…`,
 *   `module/…`, `tests/…`, `php-tests/…`, …) must exist there; any other
 *   (`lanes.rs`, `redis/counter.rs`, `php/`) must exist in a folder that the
 *   same row names, or its section (its heading and the paths from the top
 *   written anywhere in it), or one above those, or a crate's sources (src/,
 *   core/src/, module/src/, lua/). `*` and `<word>`
 *   are wildcards that must match something; a trailing `/` is a folder.
 * - A name: `Name::member`, `name()` (also `Name::member()`) anywhere, and a
 *   bare `CamelCase` (one capital first, a small letter after) in a table
 *   row or a list item. It must be defined in a file the row names, or one
 *   directly in a folder it names (Rust: fn,
 *   struct, enum, trait, type, union, const, static, an enum's variant,
 *   `impl … Name`, `use … as Name`; Lua: `function name`, `local function
 *   name`, `name = function`); or defined anywhere in the crate sources and
 *   spelled in a file the row names (a row may name what its files use: the
 *   call `Entry::Take` in instance.rs); or, in a row that names no file,
 *   defined anywhere in the crate sources. For `Name::member` both parts must
 *   pass. Another crate's names are written with their crate's path
 *   (`redis::Cmd`, `libc::fork()`): a path that starts with a small letter
 *   is not a name and is not checked, nor are ALL_CAPS words, `$php` or
 *   anything with spaces.
 * - A table with the columns `file` and `function` (the path of one
 *   decision, `| step | file | function | what happens |`) is stricter: each
 *   function of a row must be defined in that row's `file` cell, not merely
 *   spelled there; a `function` cell holds backticked names or is empty.
 *
 * Self-test: tests/fixtures/architecture (make check-architecture).
 */

declare(strict_types=1);

const TOP = ['src', 'core', 'lua', 'module', 'tests', 'php-tests', 'threads-tests', 'scripts', 'docs', 'fuzz', 'bench', 'stubs', 'integrations', 'examples', 'docker', 'phpize'];
const SOURCES = ['src', 'core/src', 'module/src', 'lua'];
const ENDINGS = '/\.(rs|lua|php|phpt|md|bash|c|h|toml|json)$/';

/** Source text without its comments (Rust's line and block comments, Lua's --), so a comment defines nothing. */
function code_of(string $path): string
{
    $s = file_get_contents($path);
    if (str_ends_with($path, '.lua')) return preg_replace('/--.*$/m', '', $s);
    $s = preg_replace('~/\*.*?\*/~s', '', $s);
    return preg_replace('~(^|[^:"])//.*$~m', '$1', $s);
}

/** The names a file defines: name => [kind => true], kinds 'fn' (functions, macros), 'type', 'value' (const, static), 'variant'. */
function definitions(string $path): array
{
    $code = code_of($path);
    $names = [];
    if (str_ends_with($path, '.lua')) {
        preg_match_all('/\bfunction\s+(?:[\w]+[.:])*(\w+)\s*\(|\b(\w+)\s*=\s*function\b/', $code, $m);
        foreach (array_merge($m[1], $m[2]) as $n) if ($n !== '') $names[$n]['fn'] = true;
        return $names;
    }
    preg_match_all('/\b(fn|struct|enum|trait|type|union|const|static(?:\s+mut)?)\s+(\w+)/', $code, $m, PREG_SET_ORDER);
    foreach ($m as [, $kw, $n]) $names[$n][$kw === 'fn' ? 'fn' : (in_array($kw, ['const', 'static', 'static mut'], true) ? 'value' : 'type')] = true;
    preg_match_all('/\bmacro_rules!\s*(\w+)/', $code, $m);
    foreach ($m[1] as $n) $names[$n]['fn'] = true;
    preg_match_all('/\bas\s+(\w+)\s*[;,}]/', $code, $m);
    foreach ($m[1] as $n) $names[$n]['type'] = true;
    // impl<T> Trait for Type<T>, impl Type: both names count.
    preg_match_all('/\bimpl\b\s*(?:<[^{;]*?>)?\s*([\w:]+)(?:<[^{;]*?>)?(?:\s+for\s+([\w:]+))?/', $code, $m);
    foreach (array_merge($m[1], $m[2]) as $n) if ($n !== '') $names[preg_replace('/.*::/', '', $n)]['type'] = true;
    // An enum's variants: the words that start its body's entries.
    if (preg_match_all('/\benum\s+\w+[^{;]*\{/', $code, $m, PREG_OFFSET_CAPTURE)) {
        foreach ($m[0] as [$head, $at]) {
            $i = $at + strlen($head);
            $depth = 1;
            $body = '';
            for ($n = strlen($code); $i < $n && $depth > 0; $i++) {
                $c = $code[$i];
                if ($c === '{' || $c === '(') $depth++;
                if ($c === '}' || $c === ')') $depth--;
                if ($depth === 1 && $c !== '}' && $c !== ')') $body .= $c;
                if ($depth === 1 && ($c === '}' || $c === ')')) $body .= ' ';
            }
            $body = preg_replace('/#\[[^\]]*\]/', '', $body);
            foreach (explode(',', $body) as $entry) {
                if (preg_match('/^\s*(\w+)/', $entry, $v)) $names[$v[1]]['variant'] = true;
            }
        }
    }
    return $names;
}

final class Doc
{
    public array $failures = [];
    public int $paths = 0;
    public int $names = 0;
    /** Every span checked, `LINE: span (path|name)`, for --list. */
    public array $seen = [];
    /** file => names it defines */
    private array $defs = [];
    private ?array $everywhere = null;

    public function __construct(private string $root, private string $doc) {}

    private function fail(int $line, string $span, string $why): void
    {
        $this->failures[] = "$this->doc:$line: `$span`: $why";
    }

    private function defs(string $file): array
    {
        return $this->defs[$file] ??= is_file("$this->root/$file") && preg_match('/\.(rs|lua)$/', $file) ? definitions("$this->root/$file") : [];
    }

    /** Every .rs and .lua file of the crate sources. */
    private function sources(): array
    {
        if ($this->everywhere !== null) return $this->everywhere;
        $this->everywhere = [];
        foreach (SOURCES as $dir) {
            if (!is_dir("$this->root/$dir")) continue;
            $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator("$this->root/$dir", FilesystemIterator::SKIP_DOTS));
            foreach ($it as $f) {
                if (preg_match('/\.(rs|lua)$/', $f->getFilename())) $this->everywhere[] = substr($f->getPathname(), strlen($this->root) + 1);
            }
        }
        sort($this->everywhere);
        return $this->everywhere;
    }

    public static function is_path(string $span): bool
    {
        return !str_contains($span, '://') && !preg_match('/\s/', $span) && preg_match('~^[\w.<>*-]+(/[\w.<>*-]+)*/?$~', $span)
            && (str_contains($span, '/') || preg_match(ENDINGS, $span));
    }

    /** The files and folders a path names under $base, '' for the repository. */
    private function matches(string $base, string $span): array
    {
        $pattern = preg_replace('/<[\w-]+>/', '*', rtrim($span, '/'));
        $prefix = $base === '' ? '' : "$base/";
        $found = glob("$this->root/$prefix$pattern", GLOB_NOSORT) ?: [];
        if (str_ends_with($span, '/')) $found = array_filter($found, 'is_dir');
        return array_map(fn($f) => substr($f, strlen($this->root) + 1), $found);
    }

    /** What a path span names: the repository's paths it matches, [] when none. */
    public function resolve(string $span, array $folders): array
    {
        $top = explode('/', $span)[0];
        if (in_array($top, TOP, true) && str_contains($span, '/')) return $this->matches('', $span);
        $bases = [];
        foreach (array_merge($folders, SOURCES) as $f) {
            for (; $f !== '.' && $f !== ''; $f = dirname($f)) $bases[$f] = true;
        }
        foreach (array_keys($bases) as $base) {
            $found = $this->matches($base, $span);
            if ($found) return $found;
        }
        return [];
    }

    /** Checks a row: $cells are [column name, text, line] (a paragraph or list item: one cell named ''). */
    public function row(array $cells, array $headingFolders): void
    {
        $spans = [];
        foreach ($cells as [$col, $text, $line]) {
            preg_match_all('/`([^`]+)`/', $text, $m);
            foreach ($m[1] as $s) $spans[] = [$col, trim($s), $line];
        }
        // The row's paths first: the files and folders that the names are looked up in.
        $files = [];
        $strictFiles = [];
        $folders = $headingFolders;
        $rowFolders = [];
        $later = [];
        // What a path found adds to the row: a folder to look in, or a file
        // (and its folder) whose definitions count; in the file column, strictly.
        $take = function (array $found, string $col) use (&$folders, &$rowFolders, &$files, &$strictFiles): void {
            foreach ($found as $f) {
                if (is_dir("$this->root/$f")) {
                    $folders[] = $f;
                    $rowFolders[] = $f;
                } else {
                    $files[] = $f;
                    $folders[] = dirname($f);
                    if ($col === 'file') $strictFiles[] = $f;
                }
            }
        };
        foreach ($spans as [$col, $s, $line]) {
            if (!self::is_path($s) || !(in_array(explode('/', $s)[0], TOP, true) && str_contains($s, '/'))) {
                $later[] = [$col, $s, $line];
                continue;
            }
            $this->paths++;
            $this->seen[] = "$line: `$s` (path)";
            $found = $this->resolve($s, []);
            if (!$found) $this->fail($line, $s, 'no such ' . (str_ends_with($s, '/') ? 'folder' : 'file'));
            $take($found, $col);
        }
        $names = [];
        // Paths from a folder the row names: a folder found (`classes/`) is one more
        // to look in (`state.rs`), in any order, so until a round finds nothing new.
        $relative = [];
        foreach ($later as [$col, $s, $line]) {
            if (self::is_path($s)) {
                $this->paths++;
                $this->seen[] = "$line: `$s` (path in this row's or section's folders)";
                $relative[] = [$col, $s, $line];
            } else {
                $names[] = [$col, $s, $line];
            }
        }
        do {
            $left = [];
            foreach ($relative as [$col, $s, $line]) {
                $found = $this->resolve($s, $folders);
                if (!$found) $left[] = [$col, $s, $line];
                $take($found, $col);
            }
            $progress = count($left) < count($relative);
            $relative = $left;
        } while ($relative && $progress);
        foreach ($relative as [$col, $s, $line]) {
            $this->fail($line, $s, 'no such ' . (str_ends_with($s, '/') ? 'folder' : 'file') . ' here, nor in a folder this row or section names');
        }
        // A folder the row names names its files too (a room's table row: `result/`, `RateLimitResult`).
        foreach (array_unique($rowFolders) as $dir) {
            foreach (array_merge(glob("$this->root/$dir/*.rs") ?: [], glob("$this->root/$dir/*.lua") ?: []) as $f) $files[] = substr($f, strlen($this->root) + 1);
        }
        $files = array_values(array_unique($files));
        foreach ($names as [$col, $s, $line]) {
            $call = str_ends_with($s, '()');
            $parts = explode('::', $call ? substr($s, 0, -2) : $s);
            if ($col === 'function') {
                $this->names++;
                $this->seen[] = "$line: `$s` (function of this row's file)";
                if (count($parts) > 2 || array_filter($parts, fn($p) => !preg_match('/^\w+$/', $p))) {
                    $this->fail($line, $s, 'not a function name (`name`, `name()`, `Type::name`)');
                    continue;
                }
                $wanted = count($parts) === 2 ? [[$parts[0], ['type']], [$parts[1], ['fn']]] : [[$parts[0], ['fn']]];
                foreach ($wanted as [$p, $kinds]) {
                    if (!$this->defined_in($p, $kinds, $strictFiles)) {
                        $this->fail($line, $s, "`$p` is not defined in this row's file" . ($strictFiles ? ' (' . implode(', ', $strictFiles) . ')' : ': its file cell names none'));
                    }
                }
                continue;
            }
            if (count($parts) === 2 && preg_match('/^[A-Z]\w*$/', $parts[0]) && preg_match('/^\w+$/', $parts[1])) {
                $wanted = [[$parts[0], ['type']], [$parts[1], $call ? ['fn'] : ['fn', 'value', 'variant']]];
            } elseif (count($parts) === 1 && $call && preg_match('/^[A-Za-z_]\w*$/', $parts[0])) {
                $wanted = [[$parts[0], ['fn']]];
            } elseif (count($parts) === 1 && !$call && ($col !== '' || $this->inList) && preg_match('/^[A-Z]+[a-z]\w*$/', $s)) {
                $wanted = [[$s, ['type']]];
            } else {
                continue;
            }
            $this->names++;
            $this->seen[] = "$line: `$s` (name)";
            foreach ($wanted as [$p, $kinds]) {
                $why = $this->missing($p, $kinds, $files);
                if ($why !== null) $this->fail($line, $s, $why);
            }
        }
    }

    /** Set by the reader while it reads a list item (a bare CamelCase is checked there too). */
    public bool $inList = false;

    /** Whether one of $files defines $name as one of $kinds. */
    private function defined_in(string $name, array $kinds, array $files): bool
    {
        foreach ($files as $f) {
            foreach ($kinds as $kind) if (isset($this->defs($f)[$name][$kind])) return true;
        }
        return false;
    }

    /** Why $name fails for a row naming $files, or null. */
    private function missing(string $name, array $kinds, array $files): ?string
    {
        if ($this->defined_in($name, $kinds, $files)) return null;
        $anywhere = $this->defined_in($name, $kinds, $this->sources());
        if (!$files) return $anywhere ? null : "`$name` is defined nowhere in " . implode(', ', SOURCES);
        if (!$anywhere) return "`$name` is defined nowhere in " . implode(', ', SOURCES) . ' (another crate\'s name: write its path)';
        foreach ($files as $f) {
            if (is_file("$this->root/$f") && preg_match('/\b' . preg_quote($name, '/') . '\b/', code_of("$this->root/$f"))) return null;
        }
        return "`$name` is neither defined nor used in the files this row names (" . implode(', ', $files) . ')';
    }

    public function read(): void
    {
        $lines = explode("\n", file_get_contents("$this->root/$this->doc"));
        $heading = [];
        $fence = false;
        $comment = false;
        $block = [];
        $kind = '';
        $header = null;
        $flush = function () use (&$block, &$kind, &$heading) {
            if ($block) {
                $this->inList = $kind === 'list';
                $this->row(array_map(fn($b) => ['', $b[0], $b[1]], $block), $heading);
            }
            $block = [];
            $kind = '';
        };
        foreach ($lines as $k => $text) {
            $line = $k + 1;
            if (preg_match('/^\s*```/', $text)) { $flush(); $fence = !$fence; continue; }
            if ($fence) continue;
            if ($comment || str_contains($text, '<!--')) {
                $flush();
                $comment = !str_contains($text, '-->');
                continue;
            }
            if (preg_match('/^#+\s/', $text)) {
                $flush();
                $header = null;
                preg_match_all('/`([^`]+)`/', $text, $m);
                $heading = [];
                foreach ($m[1] as $s) {
                    if (self::is_path($s)) foreach ($this->resolve($s, []) as $f) $heading[] = is_dir("$this->root/$f") ? $f : dirname($f);
                }
                // And the folders of the paths from the top that the section names, to its next heading.
                for ($j = $k + 1; isset($lines[$j]) && !preg_match('/^#+\s/', $lines[$j]); $j++) {
                    preg_match_all('/`([^`]+)`/', $lines[$j], $m);
                    foreach ($m[1] as $s) {
                        if (self::is_path($s) && in_array(explode('/', $s)[0], TOP, true) && str_contains($s, '/')) {
                            foreach ($this->resolve($s, []) as $f) $heading[] = is_dir("$this->root/$f") ? $f : dirname($f);
                        }
                    }
                }
                $heading = array_values(array_unique($heading));
                continue;
            }
            if (str_starts_with(ltrim($text), '|')) {
                $flush();
                $cells = self::cells($text);
                if (preg_match('/^\s*\|[\s:|-]+\|\s*$/', $text)) continue;
                $next = $lines[$k + 1] ?? '';
                if ($header === null && preg_match('/^\s*\|[\s:|-]+\|\s*$/', $next)) {
                    $header = array_map(fn($c) => strtolower(trim($c)), $cells);
                    continue;
                }
                $strict = $header !== null && in_array('file', $header, true) && in_array('function', $header, true);
                $row = [];
                foreach ($cells as $i => $c) {
                    $col = $header[$i] ?? '?';
                    $row[] = [$strict && in_array($col, ['file', 'function'], true) ? $col : 'table', $c, $line];
                }
                if ($strict) {
                    foreach ($row as [$col, $c]) {
                        if ($col === 'function' && trim($c) !== '' && !str_contains($c, '`')) {
                            $this->fail($line, trim($c), 'a function cell holds backticked names');
                        }
                    }
                }
                $this->inList = false;
                $this->row($row, $heading);
                continue;
            }
            $header = null;
            if (trim($text) === '') { $flush(); continue; }
            if (preg_match('/^\s*([-*]|\d+\.)\s/', $text)) {
                $flush();
                $kind = 'list';
            } elseif (!$block) {
                $kind = 'paragraph';
            }
            $block[] = [$text, $line];
        }
        $flush();
    }

    /** A table line's cells, split at the bars outside backticks. */
    public static function cells(string $text): array
    {
        $cells = [];
        $cur = '';
        $tick = false;
        $text = trim($text);
        for ($i = 1, $n = strlen($text); $i < $n; $i++) {
            $c = $text[$i];
            if ($c === '`') $tick = !$tick;
            if ($c === '|' && !$tick) {
                $cells[] = $cur;
                $cur = '';
                continue;
            }
            $cur .= $c;
        }
        return $cells;
    }
}

function main(array $argv): int
{
    $args = array_slice($argv, 1);
    // --list: every span checked as well (to see what the check reads).
    $list = array_search('--list', $args, true);
    if ($list !== false) array_splice($args, $list, 1);
    $root = dirname(__DIR__);
    if (($args[0] ?? '') === '--root') {
        $root = rtrim($args[1] ?? '', '/');
        $args = array_slice($args, 2);
    }
    $doc = $args[0] ?? 'docs/ARCHITECTURE.md';
    if (!is_dir($root) || !is_file("$root/$doc")) {
        fwrite(STDERR, "usage: php scripts/check-architecture.php [--root DIR] [DOC] (no $root/$doc)\n");
        return 2;
    }
    $d = new Doc($root, $doc);
    $d->read();
    if ($list !== false) foreach ($d->seen as $s) echo "$s\n";
    foreach ($d->failures as $f) echo "$f\n";
    printf("check-architecture: %s: %d paths and %d names, %s\n", $doc, $d->paths, $d->names,
        $d->failures ? count($d->failures) . ' missing' : 'all there');
    return $d->failures ? 1 : 0;
}

exit(main($argv));
