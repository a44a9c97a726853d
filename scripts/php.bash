# The PHP command line of the project's own scripts (tests, demo, bench, plots).
# Sourced; run from the repository root.
#
# `php -n` reads no php.ini and no conf.d: a ratelimit installed system-wide
# (make install, the .deb, phpize/PIE) can then never load instead of the fresh
# build, nor besides it ("Module already loaded"). What the scripts and the
# phpt tests need is loaded explicitly instead, each extension only when this
# PHP has it as a shared module (pcntl, for one, is built into Debian's CLI).
#
#   PHP_ARGS     array: -n, the extensions below, then -d extension=<the .so>
#   PHP_EXT_ARGS array: the same without the .so (for run-tests.php, which
#                adds the .so itself)
#   php_fpm_path the php-fpm of the PHP on PATH (prints its path, or fails)
# Environment: RATELIMIT_SO (the .so, default modules/ratelimit.so).

# Order matters: Debian builds phpredis against igbinary, which must load first.
# mbstring, tokenizer, iconv: what framework code (Laravel, Symfony, Yii) in
# examples and tests expects. A test needing another one: add it here.
PHP_NEEDED_EXTENSIONS=(igbinary redis posix pcntl ctype mbstring tokenizer iconv)

RATELIMIT_SO=$(realpath "${RATELIMIT_SO:-modules/ratelimit.so}")
PHP_EXT_ARGS=()
php_builtin_modules=$(php -n -m)
php_extension_dir=$(php -n -r 'echo ini_get("extension_dir");')
for php_ext in "${PHP_NEEDED_EXTENSIONS[@]}"; do
  grep -qix "$php_ext" <<<"$php_builtin_modules" && continue
  [ -f "$php_extension_dir/$php_ext.so" ] && PHP_EXT_ARGS+=(-d "extension=$php_ext")
done
unset php_ext php_builtin_modules php_extension_dir
PHP_ARGS=(-n "${PHP_EXT_ARGS[@]}" -d "extension=$RATELIMIT_SO")

# The php-fpm of the PHP on PATH: Debian's is php-fpmX.Y in /usr/sbin; a PHP
# built from source (the official images, make zts) has <prefix>/sbin/php-fpm.
php_fpm_path() {
  local debian prefix
  debian=php-fpm$(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
  PATH="$PATH:/usr/sbin:/sbin" command -v "$debian" && return 0
  prefix=$(php-config --prefix 2>/dev/null) || return 1
  [ -x "$prefix/sbin/php-fpm" ] && echo "$prefix/sbin/php-fpm"
}
