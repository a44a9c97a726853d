--TEST--
PIE's pre-packaged binary names (scripts/pie-asset-names.php, our statement of PIE's rule): the names PIE's own tests expect for an NTS, a ZTS and a debug PHP; every archive docs/install.md lists is among the names PIE tries for its PHP, with composer.json's extension name and Cargo.toml's version; for the PHP running this, the archive PIE would pick is the one docs/install.md's "Which archive" line prints
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
$root = dirname(__DIR__);
function pie_names(string ...$args): array {
    $cmd = escapeshellarg(PHP_BINARY) . ' -n ' . escapeshellarg(dirname(__DIR__) . '/scripts/pie-asset-names.php');
    foreach ($args as $a) $cmd .= ' ' . escapeshellarg($a);
    return preg_split('/\n/', trim((string) shell_exec($cmd)), -1, PREG_SPLIT_NO_EMPTY);
}

// What PIE's tests (php/pie test/unit/Platform/PrePackagedBinaryAssetNameTest.php) expect, in its order.
$nts = ['x86_64-linux-glibc.zip', 'x86_64-linux-glibc.tgz', 'x86_64-linux-glibc-nts.zip', 'x86_64-linux-glibc-nts.tgz',
    'x64-linux-glibc.zip', 'x64-linux-glibc.tgz', 'x64-linux-glibc-nts.zip', 'x64-linux-glibc-nts.tgz'];
var_dump(pie_names('foobar', '1.2.3', '--php=8.2', '--ts=nts', '--debug=0', '--arch=x86_64', '--os=linux', '--libc=glibc')
    === array_map(fn ($t) => "php_foobar-1.2.3_php8.2-$t", $nts));
var_dump(pie_names('foobar', '1.2.3', '--php=8.3', '--ts=zts', '--debug=0', '--arch=x86_64', '--os=linux', '--libc=glibc')
    === array_map(fn ($t) => "php_foobar-1.2.3_php8.3-$t", ['x86_64-linux-glibc-zts.zip', 'x86_64-linux-glibc-zts.tgz', 'x64-linux-glibc-zts.zip', 'x64-linux-glibc-zts.tgz']));
var_dump(pie_names('foobar', '1.2.3', '--php=8.4', '--ts=nts', '--debug=1', '--arch=arm64', '--os=darwin', '--libc=bsdlibc')
    === array_map(fn ($t) => "php_foobar-1.2.3_php8.4-$t", ['arm64-darwin-bsdlibc-debug.zip', 'arm64-darwin-bsdlibc-debug.tgz',
        'arm64-darwin-bsdlibc-debug-nts.zip', 'arm64-darwin-bsdlibc-debug-nts.tgz', 'aarch64-darwin-bsdlibc-debug.zip',
        'aarch64-darwin-bsdlibc-debug.tgz', 'aarch64-darwin-bsdlibc-debug-nts.zip', 'aarch64-darwin-bsdlibc-debug-nts.tgz']));

// Every archive docs/install.md lists: a name PIE tries for the PHP it is for.
$ext = json_decode(file_get_contents("$root/composer.json"), true)['php-ext']['extension-name'];
preg_match('/^version = "(.*)"$/m', file_get_contents("$root/Cargo.toml"), $m);
$version = $m[1];
$install = file_get_contents("$root/docs/install.md");
preg_match_all('/^\| `(php_[^`]+\.tgz)` \|/m', $install, $listed);
echo count($listed[1]), " archives listed\n";
foreach ($listed[1] as $name) {
    if (!preg_match('/_php(\d+\.\d+)-x86_64-linux-glibc(-debug)?-(nts|zts)\.tgz$/', $name, $p)) {
        echo "$name: not of the form make dist writes\n";
        continue;
    }
    $tries = pie_names($ext, $version, "--php=$p[1]", "--ts=$p[3]", '--debug=' . ($p[2] ? 1 : 0), '--arch=x86_64', '--os=linux', '--libc=glibc');
    echo $name, in_array($name, $tries, true) ? '' : '  <- PIE does not try this name', "\n";
}

// This PHP: what PIE tries here, and the one docs/install.md's line prints.
preg_match('/^php -r \'(printf\(.*\);)\'$/m', $install, $line);
$printed = trim((string) shell_exec(escapeshellarg(PHP_BINARY) . ' -n -r ' . escapeshellarg($line[1])));
var_dump(in_array($printed, pie_names($ext, $version), true));
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
%d archives listed
%r(php_ratelimit-[0-9.]+_php8\.\d-x86_64-linux-glibc-[nz]ts\.tgz
)+%rbool(true)
