--TEST--
The Dockerfile: a build stage with the toolchain and PIE's steps, a runtime stage with only the .so and its ini (no compiler, no Rust); .dockerignore keeps target/ out of the context; docs/install.md shows the Dockerfile as it is; the image's ini takes ratelimit.redis_url from the container's RATELIMIT_REDIS_URL (unset: empty, which means the default, silently; not valid: PHP's startup warning). make check-official-layout runs its RUN steps in a root laid out as the image
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$root = dirname(__DIR__);
$dockerfile = file_get_contents("$root/Dockerfile");
$stages = preg_split('/^FROM /m', $dockerfile, -1, PREG_SPLIT_NO_EMPTY);
echo count($stages) - 1, " stages: ", implode(', ', array_map(fn ($s) => strtok($s, "\n"), array_slice($stages, 1))), "\n";
[$build, $runtime] = array_slice($stages, 1);
$code = fn (string $stage) => preg_replace('/^#.*\n/m', '', $stage);
echo "build stage has the toolchain: ", var_export(str_contains($build, 'clang') && str_contains($build, 'rustup') && str_contains($build, 'phpize'), true), "\n";
foreach (['apt-get', 'clang', 'rustup', 'cargo', 'COPY . '] as $tool) {
    echo "runtime stage ", str_contains($code($runtime), $tool) ? 'HAS' : 'has no', " $tool\n";
}
preg_match_all('/^COPY (.*)$/m', $runtime, $copies);
echo "runtime stage copies: ", implode('; ', $copies[1]), "\n";
preg_match('/cp (.*) \/out\//', $build, $out);
echo "what the build stage leaves in /out: ", $out[1], "\n";
echo "runtime stage sets RATELIMIT_REDIS_URL: ", var_export((bool) preg_match('/^ENV RATELIMIT_REDIS_URL=/m', $runtime), true), "\n";

$ignored = array_filter(array_map('trim', file("$root/.dockerignore")), fn ($l) => $l !== '' && $l[0] !== '#');
echo ".dockerignore leaves out: ", implode(' ', array_intersect(['target/', 'modules/', '.git/'], $ignored)), "\n";

// One of its dockerfile blocks (the prebuilt section's two lines come first).
preg_match_all('/^```dockerfile\n(.*?)^```/ms', file_get_contents("$root/docs/install.md"), $shown);
echo "docs/install.md shows the Dockerfile as it is: ", var_export(in_array($dockerfile, $shown[1], true), true), "\n";

// The image's ini, with this build in place of extension=ratelimit, as PHP reads it at startup.
$ini = sys_get_temp_dir() . '/rl-docker-' . getmypid() . '.ini';
file_put_contents($ini, str_replace("extension=ratelimit\n", 'extension=' . rl_so() . "\n", file_get_contents("$root/docker/ratelimit.ini")));
foreach (['redis://redis:6379', 'rediss://:pw@cache.internal:6380/2?cafile=/etc/ssl/certs/ca-certificates.crt', null, 'redis//typo:6379'] as $url) {
    $env = $url === null ? 'env -u RATELIMIT_REDIS_URL' : 'env RATELIMIT_REDIS_URL=' . escapeshellarg($url);
    $out = shell_exec("$env PHP_INI_SCAN_DIR= " . escapeshellarg(PHP_BINARY) . ' -c ' . escapeshellarg($ini)
        . ' -d display_startup_errors=1 -d log_errors=0 -r ' . escapeshellarg('var_export(ini_get("ratelimit.redis_url"));') . ' 2>&1');
    echo 'RATELIMIT_REDIS_URL ', $url === null ? 'unset' : $url, ': ', preg_replace('/\s*\n\s*/', ' | ', trim($out)), "\n";
}
unlink($ini);
?>
--EXPECT--
2 stages: php:8.4-fpm AS build, php:8.4-fpm
build stage has the toolchain: true
runtime stage has no apt-get
runtime stage has no clang
runtime stage has no rustup
runtime stage has no cargo
runtime stage has no COPY . 
runtime stage copies: --from=build /out/ /usr/src/ratelimit-build/
what the build stage leaves in /out: "$(php-config --extension-dir)/ratelimit.so" /usr/src/ratelimit/docker/ratelimit.ini
runtime stage sets RATELIMIT_REDIS_URL: true
.dockerignore leaves out: target/ modules/ .git/
docs/install.md shows the Dockerfile as it is: true
RATELIMIT_REDIS_URL redis://redis:6379: 'redis://redis:6379'
RATELIMIT_REDIS_URL rediss://:pw@cache.internal:6380/2?cafile=/etc/ssl/certs/ca-certificates.crt: 'rediss://:pw@cache.internal:6380/2?cafile=/etc/ssl/certs/ca-certificates.crt'
RATELIMIT_REDIS_URL unset: ''
RATELIMIT_REDIS_URL redis//typo:6379: Warning: PHP Startup: ratelimit.redis_url is not a valid Redis DSN (expected redis://host[:port][/db], rediss://… or unix:///path): "redis//typo:6379"; keeping "redis://127.0.0.1:6379" in Unknown on line 0 | 'redis://127.0.0.1:6379'
