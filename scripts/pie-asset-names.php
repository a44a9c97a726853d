<?php
// The file names PIE looks for among a release's assets when an extension's
// composer.json lists "pre-packaged-binary" in php-ext.download-url-method,
// in the order it tries them, for one PHP on a non-Windows system: our
// statement of PIE's rule (php/pie: src/Platform/PrePackagedBinaryAssetName.php,
// src/Platform/LibcFlavour.php, src/Building/UnixBuild.php; the rule arrived
// with php/pie pull request #489, January 2026). Used by make dist
// (scripts/dist-pack.bash refuses a name outside it), make check-dist (the
// archive picked for a root's PHP is the one of dist/ among these) and
// php-tests/pie_asset_names.phpt.
//
// The rule: php_{extension}-{version}_php{X.Y}-{arch}-{os}-{libc}{-debug}{ts}.{zip|tgz},
// all lower case, where
//   extension  composer.json's php-ext.extension-name
//   version    the package version as Composer writes it (the release's tag as
//              written: a tag v1.0.0 gives v1.0.0, 1.0.0 gives 1.0.0)
//   X.Y        the target PHP's major.minor
//   arch       each name of the machine's architecture in turn: x86_64 then x64,
//              arm64 then aarch64 (x86 alone)
//   os         the PHP's OS family (PHP_OS_FAMILY): linux, darwin, bsd, ...
//   libc       glibc, or musl when the system's `ls` links musl, or bsdlibc where
//              `otool` exists (macOS)
//   -debug     for a debug PHP only
//   ts         -zts for a thread-safe PHP; for NTS both nothing and -nts
// and for each arch the names without a thread-safety suffix come before
// those with one, .zip before .tgz. PIE unpacks the asset and takes
// {extension}.so from the top of what it unpacked, which it copies into the
// PHP's extension directory.
//
//   php scripts/pie-asset-names.php EXTENSION VERSION [--php=X.Y --ts=nts|zts
//       --debug=0|1 --arch=… --os=… --libc=…]
// Each option defaults to the PHP running this script and its machine.
declare(strict_types=1);

$opts = $positional = [];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--(php|ts|debug|arch|os|libc)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    } else {
        $positional[] = $arg;
    }
}
[$extension, $version] = $positional + [null, null];
if ($extension === null || $version === null || count($positional) > 2) {
    fwrite(STDERR, "usage: php scripts/pie-asset-names.php EXTENSION VERSION [--php=X.Y --ts=nts|zts --debug=0|1 --arch=… --os=… --libc=…]\n");
    exit(2);
}

function machine_libc(): string {
    if (trim((string) shell_exec('command -v otool 2>/dev/null')) !== '') {
        return 'bsdlibc';
    }
    $ls = trim((string) shell_exec('command -v ls 2>/dev/null'));
    $linked = $ls === '' ? '' : (string) shell_exec('ldd ' . escapeshellarg($ls) . ' 2>&1');
    return str_contains($linked, 'musl') ? 'musl' : 'glibc';
}

// Every name of one architecture, the canonical first.
function arch_names(string $machine): array {
    return match (strtolower($machine)) {
        'x86_64', 'x64', 'amd64' => ['x86_64', 'x64'],
        'arm64', 'aarch64' => ['arm64', 'aarch64'],
        default => ['x86'],
    };
}

$php = $opts['php'] ?? PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
$zts = ($opts['ts'] ?? (PHP_ZTS ? 'zts' : 'nts')) === 'zts';
$debug = (bool) (int) ($opts['debug'] ?? (PHP_DEBUG ? 1 : 0));
$os = strtolower($opts['os'] ?? PHP_OS_FAMILY);
$libc = $opts['libc'] ?? machine_libc();
$names = [];
foreach (arch_names($opts['arch'] ?? php_uname('m')) as $arch) {
    foreach ($zts ? ['-zts'] : ['', '-nts'] as $ts) {
        foreach (['zip', 'tgz'] as $type) {
            $names[] = strtolower("php_{$extension}-{$version}_php{$php}-{$arch}-{$os}-{$libc}" . ($debug ? '-debug' : '') . "{$ts}.{$type}");
        }
    }
}
echo implode("\n", array_values(array_unique($names))), "\n";
