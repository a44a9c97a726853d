--TEST--
composer.json for PIE: type php-ext and a php-ext section of only the directives PIE documents (extension-name, priority, support-zts, support-nts, configure-options, build-path, download-url-method, os-families or os-families-exclude), each of its documented form; the prebuilt binaries first, the source build as fallback; the extension name is the loaded extension's, the priority ratelimit.ini's, build-path holds the phpize build and this PHP's thread safety is supported
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
// PIE's documented directives (its docs/extension-maintainers.md), each with
// a check of its documented form.
$directives = [
    'extension-name' => fn ($v) => is_string($v) && preg_match('/^[A-Za-z][A-Za-z0-9_]*$/', $v) === 1 && !str_starts_with($v, 'ext-'),
    'priority' => fn ($v) => is_int($v) && $v >= 0 && $v <= 99,
    'support-zts' => 'is_bool',
    'support-nts' => 'is_bool',
    'configure-options' => fn ($v) => is_array($v) && array_is_list($v) && array_reduce($v, fn ($ok, $o) => $ok && is_array($o)
        && is_string($o['name'] ?? null) && is_string($o['description'] ?? null) && is_bool($o['needs-value'] ?? false)
        && array_diff(array_keys($o), ['name', 'description', 'needs-value']) === [], true),
    'build-path' => fn ($v) => is_string($v) && $v !== '' && !str_starts_with($v, '/'),
    // One method or a list tried in order (a pre-packaged binary first, the source build when no asset fits).
    'download-url-method' => fn ($v) => ($m = is_array($v) && array_is_list($v) ? $v : [$v]) !== []
        && array_diff($m, ['composer-default', 'pre-packaged-source', 'pre-packaged-binary']) === [],
    'os-families' => fn ($v) => is_array($v) && $v !== [] && array_diff($v, ['windows', 'bsd', 'darwin', 'solaris', 'linux', 'unknown']) === [],
    'os-families-exclude' => fn ($v) => is_array($v) && $v !== [] && array_diff($v, ['windows', 'bsd', 'darwin', 'solaris', 'linux', 'unknown']) === [],
];
$root = dirname(__DIR__);
$composer = json_decode(file_get_contents("$root/composer.json"), true, flags: JSON_THROW_ON_ERROR);
$ext = $composer['php-ext'];
echo "type: ", $composer['type'], "\n";
echo "name is vendor/package: ", var_export(preg_match('#^[a-z0-9]([_.-]?[a-z0-9]+)*/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$#', $composer['name']) === 1, true), "\n";
echo "directives PIE does not document: ", implode(', ', array_diff(array_keys($ext), array_keys($directives))) ?: 'none', "\n";
foreach ($ext as $k => $v) {
    if (isset($directives[$k])) echo "$k: ", json_encode($v), ($directives[$k])($v) ? '' : '  <- not of the documented form', "\n";
}
// PIE tries the methods in order: the last must build from source, for a PHP no prebuilt archive fits.
$methods = (array) ($ext['download-url-method'] ?? 'composer-default');
echo "the last download method builds from source: ", var_export(in_array(end($methods), ['composer-default', 'pre-packaged-source'], true), true), "\n";
echo "os-families and os-families-exclude both: ", var_export(isset($ext['os-families'], $ext['os-families-exclude']), true), "\n";
echo "the loaded extension's name: ", var_export(extension_loaded($ext['extension-name']), true), "\n";
preg_match('/^; priority=(\d+)$/m', file_get_contents("$root/ratelimit.ini"), $m);
echo "ratelimit.ini's priority: ", var_export((int) $m[1] === $ext['priority'], true), "\n";
echo "build-path holds config.m4: ", var_export(is_file("$root/{$ext['build-path']}/config.m4"), true), "\n";
echo "this PHP (", PHP_ZTS ? 'ZTS' : 'NTS', ") supported: ", var_export($ext[PHP_ZTS ? 'support-zts' : 'support-nts'] ?? true, true), "\n";
echo "require php: ", $composer['require']['php'], ", this PHP ", version_compare(PHP_VERSION, ltrim($composer['require']['php'], '>='), '>=') ? 'meets it' : 'does not meet it', "\n";
?>
--EXPECTF--
type: php-ext
name is vendor/package: true
directives PIE does not document: none
extension-name: "ratelimit"
priority: 20
support-zts: true
support-nts: true
build-path: "phpize"
download-url-method: ["pre-packaged-binary","composer-default"]
os-families: ["linux"]
the last download method builds from source: true
os-families and os-families-exclude both: false
the loaded extension's name: true
ratelimit.ini's priority: true
build-path holds config.m4: true
this PHP (%s) supported: true
require php: >=8.2, this PHP meets it
