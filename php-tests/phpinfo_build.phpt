--TEST--
php --ri names the build: where it was built (a source build, or make dist's prebuilt archive and .deb) and on which system, its commit (a commit of this checkout when it is a source build in one), the PHP it was built for (the minor, PHP API, thread safety and debug of the PHP that loaded it), the target (arch-os-libc as PIE names archives; this machine's) and the glibc it was linked against
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
// One row of a phpinfo table: "name => value".
function row(string $info, string $name): ?string {
    return preg_match('/^' . preg_quote($name, '/') . ' => (.*)$/m', $info, $m) ? $m[1] : null;
}
ob_start();
(new ReflectionExtension('ratelimit'))->info();
$info = ob_get_clean();
ob_start();
phpinfo(INFO_GENERAL);
$php = ob_get_clean();

$build = row($info, 'build');
echo "build: ", preg_match('/^(source build|prebuilt by make dist), on \S.*$/', (string) $build, $origin) ? $origin[1] : "unexpected: $build", "\n";

$commit = (string) row($info, 'commit');
$root = dirname(__DIR__);
$git = is_dir("$root/.git") || is_file("$root/.git") ? trim((string) shell_exec('git -C ' . escapeshellarg($root) . ' rev-parse --git-dir 2>/dev/null')) : '';
if (!preg_match('/^[0-9a-f]{7,40}\+?$/', $commit) && $commit !== 'unknown') {
    echo "commit: malformed: $commit\n";
} elseif (($origin[1] ?? '') === 'source build' && $git !== '') {
    // Built from this checkout: a commit of it, never "unknown".
    exec('git -C ' . escapeshellarg($root) . ' cat-file -e ' . escapeshellarg(rtrim($commit, '+') . '^{commit}') . ' 2>/dev/null', $_, $status);
    echo "commit: ", $status === 0 ? 'a commit of this checkout' : "not a commit of this checkout: $commit", "\n";
} else {
    echo "commit: a commit id or unknown\n";
}

// The PHP it was built for is the one that loaded it: the same minor (the
// patch release may differ: Debian's 8.4 loads make dist's 8.4 archive), PHP API, thread safety, debug.
$for = (string) row($info, 'built for PHP');
preg_match('/^(\d+)\.(\d+)\.\d+\S*, API (\d+), (NTS|ZTS), (debug|non-debug)$/', $for, $m) or print("built for PHP: malformed: $for\n");
var_dump(
    [(int) ($m[1] ?? 0), (int) ($m[2] ?? 0)] === [PHP_MAJOR_VERSION, PHP_MINOR_VERSION],
    ($m[3] ?? '') === row($php, 'PHP API'),
    ($m[4] ?? '') === (PHP_ZTS ? 'ZTS' : 'NTS'),
    ($m[5] ?? '') === (PHP_DEBUG ? 'debug' : 'non-debug'),
);

// The target: this machine's arch and OS, and glibc when this process maps glibc's libc.so.6.
$libc = preg_match('#/libc\.so\.6$#m', file_get_contents('/proc/self/maps')) ? 'glibc' : 'another libc';
var_dump(row($info, 'target') === php_uname('m') . '-' . strtolower(PHP_OS) . "-$libc");
echo "built against glibc: ", preg_match('/^\d+\.\d+ \(needs none newer\)$/', (string) row($info, 'built against glibc')) ? 'a version' : row($info, 'built against glibc'), "\n";
?>
--EXPECTF--
build: %r(source build|prebuilt by make dist)%r
commit: %r(a commit of this checkout|a commit id or unknown)%r
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
built against glibc: a version
