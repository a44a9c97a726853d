<?php
/*
 * `make check-imports`: no import circle in a crate, between its files nor
 * between its folders. A circle means no file (or folder) of it can be read,
 * changed or tested without all the others; the layout is only worth its
 * folders while each of them leans on the others one way.
 *
 *   php scripts/check-imports.php [--edges] [CRATE_SRC ...]
 *
 * CRATE_SRC is a crate's source folder (the one with lib.rs or main.rs);
 * without any: src (the extension), core/src and module/src. Exit 0: no
 * circle; 1: circles, each named with the `use` lines or paths that tie it;
 * 2: a folder that is not a crate's sources. It reads the tree as it is, so
 * any layout of folders works. --edges lists every import between files
 * first (what the check read: the self-test compares it too).
 *
 * What counts as an import of file A on file B:
 * - a `use` of an item (fn, type, const, …) that B defines: `use crate::a::b::{c, d}`,
 *   `use super::x`, `use self::m::x`, nested braces, `as`, globs (`use m::*`:
 *   an import of m's file);
 * - a path in code that starts at `crate`, `self`, `super`, a child module
 *   or a module a `use` named: `crate::a::f()`, `super::x::Y`, `pool::run()`.
 *   A `use` that names a module (`use crate::redis;`) is only a name: what
 *   the code reaches through it counts (`redis::pool::run()` imports pool's
 *   file);
 * - a re-export is a door, not an import: `pub use x::Y` in a mod.rs lets
 *   others say `crate::folder::Y`, and such a path counts as an import of
 *   the file that defines Y, followed through every door (any `use`, public
 *   or not, since a child may name its parent's imports). The `pub use`
 *   line itself counts as its own file's import only when that file's code
 *   names Y too; a `pub use m::*` never does;
 * - `mod child;` in a parent is not an import (it is the tree itself).
 * Paths into other crates (std, redis-rs, ratelimit_core) are not followed:
 * cargo forbids circles between crates.
 *
 * Tests are left out: any item under a `#[cfg(test)]` attribute written just
 * so (a `mod tests { … }`, a `use`, a fn), a file that a `#[cfg(test)] mod x;`
 * declares, and a file whose first item is `#![cfg(test)]`. Other cfg's
 * (`cfg(any(test, …))`) count as code. `#[path]` attributes are not read.
 *
 * Nodes: between files, every file; between folders, every folder at every
 * level (src/redis and src/redis/pool are two), and each file directly in
 * the crate's folder as its own node (src/settings.rs, src/lib.rs). A file
 * belongs to the folder it lies in, a folder's mod.rs too.
 *
 * A circle is reported as its strongly connected group of nodes, then as
 * the shortest circle through each of its imports, every import once with
 * the lines that make it. Self-test: tests/fixtures/imports (make check-imports).
 */

declare(strict_types=1);

const KEYWORDS_BEFORE_ITEM = ['unsafe', 'async', 'extern', 'default'];
const BRACE_ITEMS = ['fn', 'mod', 'impl', 'trait', 'struct', 'enum', 'union', 'macro_rules'];
const DEFINING = ['fn', 'struct', 'enum', 'trait', 'type', 'const', 'static', 'union'];
/** Places shown per import in a report; the rest are counted. */
const SHOWN = 6;

/** A character of an identifier or a number (php -n: no ctype). */
function is_word(string $c): bool
{
    return ($c >= 'a' && $c <= 'z') || ($c >= 'A' && $c <= 'Z') || ($c >= '0' && $c <= '9') || $c === '_';
}

/** The tokens of Rust source: identifiers, punctuation (`::` as one), literals as 'lit'; no comments. */
function lex(string $s): array
{
    $toks = [];
    $n = strlen($s);
    $line = 1;
    $i = 0;
    while ($i < $n) {
        $c = $s[$i];
        if ($c === "\n") { $line++; $i++; continue; }
        if (strpos(" \t\r\f\v", $c) !== false) { $i++; continue; }
        if ($c === '/' && ($s[$i + 1] ?? '') === '/') {
            $e = strpos($s, "\n", $i);
            $i = $e === false ? $n : $e;
            continue;
        }
        if ($c === '/' && ($s[$i + 1] ?? '') === '*') {
            $depth = 1;
            $i += 2;
            while ($i < $n && $depth > 0) {
                if ($s[$i] === '/' && ($s[$i + 1] ?? '') === '*') { $depth++; $i += 2; continue; }
                if ($s[$i] === '*' && ($s[$i + 1] ?? '') === '/') { $depth--; $i += 2; continue; }
                if ($s[$i] === "\n") $line++;
                $i++;
            }
            continue;
        }
        // Raw strings (r"…", r#"…"#, br, cr) and prefixed strings and byte chars.
        if (preg_match('/\G(?:b|c)?r(#*)"/A', $s, $m, 0, $i)) {
            $close = '"' . $m[1];
            $e = strpos($s, $close, $i + strlen($m[0]));
            $e = $e === false ? $n : $e + strlen($close);
            $line += substr_count($s, "\n", $i, $e - $i);
            $toks[] = ['lit', 'lit', $line];
            $i = $e;
            continue;
        }
        if (($c === 'b' || $c === 'c') && ($s[$i + 1] ?? '') === '"') { $i++; $c = '"'; }
        if ($c === 'b' && ($s[$i + 1] ?? '') === "'") { $i++; $c = "'"; }
        if ($c === '"') {
            $j = $i + 1;
            while ($j < $n && $s[$j] !== '"') {
                if ($s[$j] === '\\') $j++;
                $j++;
            }
            $line += substr_count($s, "\n", $i, min($j, $n) - $i);
            $toks[] = ['lit', 'lit', $line];
            $i = $j + 1;
            continue;
        }
        if ($c === "'") {
            // A char literal ('a', '\n', 'µ') or a lifetime / label ('a).
            if (($s[$i + 1] ?? '') === '\\') {
                $j = $i + 3;
                while ($j < $n && $s[$j] !== "'") $j++;
                $toks[] = ['lit', 'lit', $line];
                $i = $j + 1;
                continue;
            }
            $b = ord($s[$i + 1] ?? "\0");
            $len = $b < 0x80 ? 1 : ($b < 0xE0 ? 2 : ($b < 0xF0 ? 3 : 4));
            if (($s[$i + 1 + $len] ?? '') === "'") {
                $toks[] = ['lit', 'lit', $line];
                $i += 2 + $len;
                continue;
            }
            $i++;
            while ($i < $n && is_word($s[$i])) $i++;
            continue;
        }
        if (is_word($c) && !($c >= "0" && $c <= "9")) {
            if (preg_match('/\G(?:r#)?[A-Za-z_][A-Za-z0-9_]*/A', $s, $m, 0, $i)) {
                $toks[] = ['id', str_starts_with($m[0], 'r#') ? substr($m[0], 2) : $m[0], $line];
                $i += strlen($m[0]);
                continue;
            }
        }
        if ($c >= "0" && $c <= "9") {
            while ($i < $n && is_word($s[$i])) $i++;
            $toks[] = ['lit', 'lit', $line];
            continue;
        }
        if ($c === ':' && ($s[$i + 1] ?? '') === ':') {
            $toks[] = ['p', '::', $line];
            $i += 2;
            continue;
        }
        $toks[] = ['p', $c, $line];
        $i++;
    }
    return $toks;
}

/** The index of the bracket that closes the one at $i. */
function closing(array $t, int $i): int
{
    $depth = 0;
    for ($n = count($t); $i < $n; $i++) {
        $v = $t[$i][0] === 'p' ? $t[$i][1] : '';
        if ($v === '(' || $v === '[' || $v === '{') $depth++;
        if ($v === ')' || $v === ']' || $v === '}') {
            if (--$depth === 0) return $i;
        }
    }
    return $n - 1;
}

/** The last token of the item that starts at $j (for an item under #[cfg(test)]), and its `mod name;` if it is one. */
function item_end(array $t, int $j): array
{
    $n = count($t);
    $k = $j;
    if (($t[$k][1] ?? '') === 'pub') {
        $k++;
        if (($t[$k][1] ?? '') === '(') $k = closing($t, $k) + 1;
    }
    while ($k < $n && (in_array($t[$k][1], KEYWORDS_BEFORE_ITEM, true) || $t[$k][0] === 'lit'
        || ($t[$k][1] === 'const' && in_array($t[$k + 1][1] ?? '', ['fn', 'unsafe', 'async', 'extern'], true)))) {
        $k++;
    }
    $kind = $t[$k][1] ?? '';
    $braced = in_array($kind, BRACE_ITEMS, true);
    $mod = ($kind === 'mod' && ($t[$k + 2][1] ?? '') === ';') ? $t[$k + 1][1] : null;
    $depth = 0;
    for ($m = $j; $m < $n; $m++) {
        $v = $t[$m][0] === 'p' ? $t[$m][1] : '';
        if ($v === '(' || $v === '[' || $v === '{') $depth++;
        elseif ($v === ')' || $v === ']' || $v === '}') {
            $depth--;
            if ($depth < 0) return [$m - 1, null];
            if ($depth === 0 && $v === '}' && $braced) return [$m, null];
        } elseif ($depth === 0 && ($v === ';' || ($v === ',' && !$braced))) {
            return [$m, $mod];
        }
    }
    return [$n - 1, null];
}

/** The tokens without attributes and without what #[cfg(test)] marks; the `mod x;` it marks; whether the whole file is a test. */
function strip_tests(array $t): array
{
    $out = [];
    $testMods = [];
    $n = count($t);
    for ($i = 0; $i < $n; $i++) {
        if ($t[$i][1] === '#' && (($t[$i + 1][1] ?? '') === '[' || (($t[$i + 1][1] ?? '') === '!' && ($t[$i + 2][1] ?? '') === '['))) {
            $inner = $t[$i + 1][1] === '!';
            $open = $inner ? $i + 2 : $i + 1;
            $end = closing($t, $open);
            $words = implode(' ', array_map(fn($x) => $x[1], array_slice($t, $open + 1, $end - $open - 1)));
            if ($words === 'cfg ( test )') {
                if ($inner && !$out) return [[], [], true];
                if (!$inner) {
                    $j = $end + 1;
                    while (($t[$j][1] ?? '') === '#' && ($t[$j + 1][1] ?? '') === '[') $j = closing($t, $j + 1) + 1;
                    [$last, $mod] = item_end($t, $j);
                    if ($mod !== null) $testMods[] = $mod;
                    $i = $last;
                    continue;
                }
            }
            $i = $end;
            continue;
        }
        $out[] = $t[$i];
    }
    return [$out, $testMods, false];
}

/** The leaves of a use tree from $i: [segments, name, glob, line]; $i ends on the token after the tree. */
function use_tree(array $t, int &$i, array $prefix, array &$leaves): void
{
    if (($t[$i][1] ?? '') === '::') $i++;
    $segs = $prefix;
    while (true) {
        $v = $t[$i][1] ?? '';
        if ($v === '{') {
            $i++;
            while (($t[$i][1] ?? '}') !== '}') {
                use_tree($t, $i, $segs, $leaves);
                if (($t[$i][1] ?? '') === ',') $i++;
            }
            $i++;
            return;
        }
        if ($v === '*') {
            $leaves[] = [$segs, null, true, $t[$i][2]];
            $i++;
            return;
        }
        if ($t[$i][0] !== 'id') return;
        $segs[] = $v;
        $line = $t[$i][2];
        $i++;
        if (($t[$i][1] ?? '') !== '::') break;
        $i++;
    }
    $name = end($segs);
    if ($name === 'self') {
        array_pop($segs);
        $name = end($segs);
    }
    if (($t[$i][1] ?? '') === 'as') {
        $name = $t[$i + 1][1];
        $i += 2;
    }
    $leaves[] = [$segs, $name, false, $line];
}

final class Crate
{
    /** module key ('a::b', '' for the root) => [file, segs, defs[], uses[], paths[], children[]] */
    public array $mods = [];
    /** file => [module keys, text lines, identifier counts outside `use`] */
    public array $files = [];
    /** module key => alias => absolute segments (after resolve_aliases) */
    public array $aliases = [];
    /** module key => list of absolute segments of glob uses */
    public array $globs = [];

    public function __construct(public string $dir) {}

    public static function key(array $segs): string
    {
        return implode('::', $segs);
    }

    public function load(): void
    {
        $root = is_file("$this->dir/lib.rs") ? "$this->dir/lib.rs" : "$this->dir/main.rs";
        $this->file($root, [], $this->dir);
        $this->resolve_aliases();
    }

    /** Reads a file as module $segs, whose child module files lie in $childDir; and the files it declares. */
    private function file(string $path, array $segs, string $childDir): void
    {
        $src = file_get_contents($path);
        [$t, $testMods, $isTest] = strip_tests(lex($src));
        if ($isTest) return;
        $this->files[$path] = ['mods' => [], 'lines' => explode("\n", $src), 'ids' => []];
        $stack = [[$segs, 0, $childDir]];
        $this->module($segs, $path);
        $depth = 0;
        $decls = [];
        $n = count($t);
        for ($i = 0; $i < $n; $i++) {
            [$kind, $v, $line] = $t[$i];
            [$cur, $curDepth, $curDir] = end($stack);
            $key = self::key($cur);
            if ($kind === 'p') {
                if ($v === '{') $depth++;
                if ($v === '}') {
                    $depth--;
                    if (count($stack) > 1 && $depth < $curDepth) array_pop($stack);
                }
                continue;
            }
            if ($kind !== 'id') continue;
            $next = $t[$i + 1][1] ?? '';
            if ($v === 'mod' && ($t[$i + 1][0] ?? '') === 'id') {
                $name = $next;
                $after = $t[$i + 2][1] ?? '';
                if ($after === ';' && !in_array($name, $testMods, true)) {
                    $decls[] = [array_merge($cur, [$name]), "$curDir/$name"];
                } elseif ($after === '{') {
                    $this->mods[$key]['defs'][$name] = true;
                    $inner = array_merge($cur, [$name]);
                    $this->module($inner, $path);
                    $stack[] = [$inner, $depth + 1, "$curDir/$name"];
                }
                $i += 1;
                continue;
            }
            if ($depth === $curDepth) {
                $name = null;
                if (in_array($v, DEFINING, true) && ($t[$i + 1][0] ?? '') === 'id') $name = $next === 'mut' ? ($t[$i + 2][1] ?? null) : $next;
                if ($v === 'macro_rules' && $next === '!') $name = $t[$i + 2][1] ?? null;
                // `const fn f`: the name comes with `fn`.
                if ($name !== null && $name !== 'fn') $this->mods[$key]['defs'][$name] = true;
            }
            if ($v === 'use') {
                $pub = ($t[$i - 1][1] ?? '') === 'pub';
                if (($t[$i - 1][1] ?? '') === ')') {
                    $o = $i - 1;
                    while ($o > 0 && $t[$o][1] !== '(') $o--;
                    $pub = ($t[$o - 1][1] ?? '') === 'pub';
                }
                $j = $i + 1;
                $leaves = [];
                use_tree($t, $j, [], $leaves);
                $first = $line;
                while ($j < $n && $t[$j][1] !== ';') $j++;
                $last = $t[$j][2] ?? $line;
                $text = implode(' ', array_map('trim', array_slice($this->files[$path]['lines'], $first - 1, $last - $first + 1)));
                $text = preg_replace(['/\s+/', '/\{ /', '/ \}/'], [' ', '{', '}'], $text);
                foreach ($leaves as [$lsegs, $lname, $glob, $lline]) {
                    $this->mods[$key]['uses'][] = ['segs' => $lsegs, 'name' => $lname, 'glob' => $glob, 'pub' => $pub, 'line' => $lline, 'text' => $text];
                }
                $i = $j;
                continue;
            }
            $this->files[$path]['ids'][$v] = ($this->files[$path]['ids'][$v] ?? 0) + 1;
            // A path in code: `a::b::c` not itself the tail of a longer one.
            if ($next === '::' && ($t[$i + 2][0] ?? '') === 'id' && ($t[$i - 1][1] ?? '') !== '::' && ($t[$i - 1][1] ?? '') !== 'in') {
                $psegs = [$v];
                $j = $i + 1;
                while (($t[$j][1] ?? '') === '::' && ($t[$j + 1][0] ?? '') === 'id') {
                    $psegs[] = $t[$j + 1][1];
                    $j += 2;
                }
                $this->mods[$key]['paths'][] = ['segs' => $psegs, 'line' => $line];
                foreach (array_slice($psegs, 1) as $s) $this->files[$path]['ids'][$s] = ($this->files[$path]['ids'][$s] ?? 0) + 1;
                $i = $j - 1;
            }
        }
        foreach ($decls as [$childSegs, $base]) {
            if (is_file("$base.rs")) {
                $this->file("$base.rs", $childSegs, $base);
            } elseif (is_file("$base/mod.rs")) {
                $this->file("$base/mod.rs", $childSegs, $base);
            }
        }
    }

    private function module(array $segs, string $path): void
    {
        $this->mods[self::key($segs)] = ['file' => $path, 'segs' => $segs, 'defs' => [], 'uses' => [], 'paths' => []];
        $this->files[$path]['mods'][] = self::key($segs);
    }

    /** Absolute segments of a path written in module $cur, or null for another crate's. */
    public function absolute(array $segs, array $cur, bool $viaAliases = true): ?array
    {
        $first = $segs[0];
        if ($first === 'crate') return array_slice($segs, 1);
        if ($first === 'self' || $first === 'super') {
            $base = $cur;
            $k = 0;
            if ($first === 'self') $k = 1;
            while (($segs[$k] ?? '') === 'super') {
                array_pop($base);
                $k++;
            }
            return array_merge($base, array_slice($segs, $k));
        }
        if (isset($this->mods[self::key(array_merge($cur, [$first]))])) return array_merge($cur, $segs);
        $alias = $viaAliases ? ($this->aliases[self::key($cur)][$first] ?? null) : null;
        return $alias === null ? null : array_merge($alias, array_slice($segs, 1));
    }

    private function resolve_aliases(): void
    {
        // Twice: a `use` may start at a name another `use` of the module brought in.
        for ($round = 0; $round < 2; $round++) {
            foreach ($this->mods as $key => $m) {
                foreach ($m['uses'] as $u) {
                    if (!$u['segs']) continue;
                    $abs = $this->absolute($u['segs'], $m['segs']);
                    if ($abs === null) continue;
                    if ($u['glob']) {
                        $this->globs[$key][self::key($abs)] = $abs;
                    } elseif ($u['name'] !== '_') {
                        $this->aliases[$key][$u['name']] = $abs;
                    }
                }
            }
        }
    }

    /** Where absolute segments lead: [file, 'module' | 'item' | 'unknown']. */
    public function resolve(array $abs, int $guard = 0): array
    {
        $mod = [];
        foreach ($abs as $idx => $s) {
            $cand = array_merge($mod, [$s]);
            if (isset($this->mods[self::key($cand)])) {
                $mod = $cand;
                continue;
            }
            $key = self::key($mod);
            $m = $this->mods[$key];
            if (isset($m['defs'][$s])) return [$m['file'], 'item'];
            $rest = array_slice($abs, $idx + 1);
            if ($guard < 16) {
                $alias = $this->aliases[$key][$s] ?? null;
                if ($alias !== null) return $this->resolve(array_merge($alias, $rest), $guard + 1);
                foreach ($this->globs[$key] ?? [] as $g) {
                    $r = $this->resolve(array_merge($g, [$s], $rest), $guard + 1);
                    if ($r[1] !== 'unknown') return $r;
                }
            }
            return [$m['file'], 'unknown'];
        }
        return [$this->mods[self::key($mod)]['file'], 'module'];
    }

    /** The imports between files: from => to => [evidence lines]. */
    public function edges(): array
    {
        $edges = [];
        // One entry per place (file and line), with every path it names there.
        $add = function (string $from, string $to, string $file, int $line, string $text, string $path) use (&$edges) {
            if ($from === $to) return;
            $place = sprintf('%s:%06d', $file, $line);
            $edges[$from][$to][$place]['text'] = "$file:$line: $text";
            $edges[$from][$to][$place]['paths'][$path] = true;
        };
        foreach ($this->mods as $m) {
            $file = $m['file'];
            foreach ($m['uses'] as $u) {
                if (!$u['segs']) continue;
                $abs = $this->absolute($u['segs'], $m['segs']);
                if ($abs === null) continue;
                [$to, $kind] = $this->resolve($abs);
                $shown = 'crate::' . self::key($abs) . ($u['glob'] ? '::*' : '');
                if ($u['glob']) {
                    if (!$u['pub']) $add($file, $to, $file, $u['line'], $u['text'], $shown);
                    continue;
                }
                if ($kind === 'module') continue;
                if ($u['pub'] && !isset($this->files[$file]['ids'][$u['name']])) continue;
                $add($file, $to, $file, $u['line'], $u['text'], $shown);
            }
            foreach ($m['paths'] as $p) {
                $first = $p['segs'][0];
                $alias = $this->aliases[self::key($m['segs'])][$first] ?? null;
                $local = in_array($first, ['crate', 'self', 'super'], true)
                    || isset($this->mods[self::key(array_merge($m['segs'], [$first]))])
                    || ($alias !== null && $this->resolve($alias)[1] === 'module');
                if (!$local) continue;
                $abs = $this->absolute($p['segs'], $m['segs']);
                if ($abs === null) continue;
                [$to] = $this->resolve($abs);
                $text = trim($this->files[$file]['lines'][$p['line'] - 1]);
                $add($file, $to, $file, $p['line'], $text, implode('::', $p['segs']));
            }
        }
        return $edges;
    }

    /** A file's node between folders: its folder, or itself when it lies in the crate's own folder. */
    public function folder(string $file): string
    {
        return dirname($file) === $this->dir ? $file : dirname($file);
    }
}

/** Strongly connected groups of more than one node, each sorted, in order. */
function tangles(array $nodes, array $edges): array
{
    $index = [];
    $low = [];
    $on = [];
    $stack = [];
    $groups = [];
    $next = 0;
    $visit = function (string $v) use (&$visit, &$index, &$low, &$on, &$stack, &$groups, &$next, $edges) {
        $index[$v] = $low[$v] = $next++;
        $stack[] = $v;
        $on[$v] = true;
        foreach (array_keys($edges[$v] ?? []) as $w) {
            if (!isset($index[$w])) {
                $visit($w);
                $low[$v] = min($low[$v], $low[$w]);
            } elseif (isset($on[$w])) {
                $low[$v] = min($low[$v], $index[$w]);
            }
        }
        if ($low[$v] === $index[$v]) {
            $group = [];
            do {
                $w = array_pop($stack);
                unset($on[$w]);
                $group[] = $w;
            } while ($w !== $v);
            if (count($group) > 1) {
                sort($group);
                $groups[] = $group;
            }
        }
    };
    foreach ($nodes as $v) if (!isset($index[$v])) $visit($v);
    usort($groups, fn($a, $b) => strcmp($a[0], $b[0]));
    return $groups;
}

/** The shortest circle through each import of a group, each circle once, starting at its least node. */
function circles(array $group, array $edges): array
{
    $in = array_flip($group);
    $found = [];
    foreach ($group as $u) {
        foreach (array_keys($edges[$u] ?? []) as $v) {
            if (!isset($in[$v])) continue;
            // Shortest path v → u inside the group.
            $prev = [$v => null];
            $queue = [$v];
            while ($queue && !array_key_exists($u, $prev)) {
                $x = array_shift($queue);
                $succ = array_keys($edges[$x] ?? []);
                sort($succ);
                foreach ($succ as $y) {
                    if (isset($in[$y]) && !array_key_exists($y, $prev)) {
                        $prev[$y] = $x;
                        $queue[] = $y;
                    }
                }
            }
            $path = [];
            for ($x = $u; $x !== null; $x = $prev[$x]) array_unshift($path, $x);
            if ($u === $v) continue;
            $cycle = array_merge([$u], $path);
            array_pop($cycle);
            $least = array_keys($cycle, min($cycle))[0];
            $cycle = array_merge(array_slice($cycle, $least), array_slice($cycle, 0, $least));
            $found[implode("\0", $cycle)] = $cycle;
        }
    }
    $found = array_values($found);
    usort($found, fn($a, $b) => count($a) <=> count($b) ?: strcmp(implode("\0", $a), implode("\0", $b)));
    return $found;
}

function report(string $what, array $group, array $edges): void
{
    echo "circle between $what: " . implode(', ', $group) . "\n";
    $shown = [];
    foreach (circles($group, $edges) as $cycle) {
        echo '  ' . implode(' → ', array_merge($cycle, [$cycle[0]])) . "\n";
        foreach ($cycle as $k => $from) {
            $to = $cycle[($k + 1) % count($cycle)];
            if (isset($shown["$from\0$to"])) continue;
            $shown["$from\0$to"] = true;
            $places = $edges[$from][$to];
            ksort($places);
            echo "    $from → $to:" . (count($places) > SHOWN ? ' (' . count($places) . ' places, the first ' . SHOWN . ')' : '') . "\n";
            foreach (array_slice($places, 0, SHOWN) as $ev) echo "      {$ev['text']} [" . implode(', ', array_keys($ev['paths'])) . "]\n";
        }
    }
}

function main(array $argv): int
{
    $dirs = array_slice($argv, 1);
    // --edges: every import between files as well, one a line (to see what the check reads).
    $list = array_search('--edges', $dirs, true);
    if ($list !== false) array_splice($dirs, $list, 1);
    if (!$dirs) {
        chdir(dirname(__DIR__));
        $dirs = ['src', 'core/src', 'module/src'];
    }
    $failed = false;
    foreach ($dirs as $dir) {
        $dir = rtrim($dir, '/');
        if (!is_file("$dir/lib.rs") && !is_file("$dir/main.rs")) {
            fwrite(STDERR, "check-imports: $dir has no lib.rs or main.rs\n");
            return 2;
        }
        $crate = new Crate($dir);
        $crate->load();
        $edges = $crate->edges();
        if ($list !== false) {
            foreach ($edges as $from => $tos) foreach ($tos as $to => $places) echo "$from → $to (" . count($places) . ")\n";
        }
        $files = array_keys($crate->files);
        sort($files);
        $fileGroups = tangles($files, $edges);
        $folderEdges = [];
        foreach ($edges as $from => $tos) {
            foreach ($tos as $to => $whys) {
                $a = $crate->folder($from);
                $b = $crate->folder($to);
                if ($a === $b) continue;
                foreach ($whys as $place => $ev) $folderEdges[$a][$b][$place] = $ev;
            }
        }
        $folders = array_values(array_unique(array_map([$crate, 'folder'], $files)));
        sort($folders);
        // A circle of files directly in the crate's folder is the same circle between files.
        $folderGroups = array_values(array_filter(tangles($folders, $folderEdges), fn($g) => array_filter($g, fn($n) => !str_ends_with($n, '.rs'))));
        $count = count($fileGroups) + count($folderGroups);
        printf("check-imports: %s (%d files): %s\n", $dir, count($files),
            $count ? count($fileGroups) . ' circle(s) between files, ' . count($folderGroups) . ' between folders' : 'no circle');
        foreach ($fileGroups as $g) report("files of $dir", $g, $edges);
        foreach ($folderGroups as $g) report("folders of $dir", $g, $folderEdges);
        $failed = $failed || $count > 0;
    }
    return $failed ? 1 : 0;
}

exit(main($argv));
