#!/usr/bin/env bash
# Inside a trixie root of scripts/php-from-source.bash (chrooted, at nice 19,
# a copy of the checkout in /build/ratelimit): PHP 8.4 built from source as
# the official Docker images build theirs, the flavour's options added, and
# phpredis for it; then make deps, the official images' install paths
# (scripts/check-official-layout.bash), make test and the flavour's targets
# (or make test-php TESTS=… when TESTS is set, or make $RATELIMIT_PHP_TARGET).
#
#   scripts/php-from-source-root.bash FLAVOUR
#   scripts/php-from-source-root.bash --check-flavour FLAVOUR   (exit 0 when known)
#
# The layout is the official images': prefix /usr/local, php.ini in
# $PHP_INI_DIR=/usr/local/etc/php, every ini in /usr/local/etc/php/conf.d
# (--with-config-file-scan-dir), php-fpm in /usr/local/sbin. PHP is built
# once per root: /usr/local/etc/php/.ratelimit-php names what was built
# (RATELIMIT_PHP_REBUILD=1 builds again). Its extensions are those the
# suite and the frameworks it drives need; json, pcre, hash, random,
# reflection and spl are always built in. redis.so (phpredis) is the one
# shared extension, loaded by the suite with -d extension=redis, never
# enabled in conf.d: the extension needs no phpredis.
set -euo pipefail

# flavour → configure options beyond the common ones | make targets after make test | what it is
#   | the environment of the runs (a debug build reports leaks and fails its
#   assertions by itself; under the sanitizers the Zend allocator is off, so
#   each allocation is one they see, and every report goes to a file that is
#   counted after the runs: sanitizer_reports below). The asan environment is
#   the one PHP's own run-tests.php --asan sets (PHP's ASAN CI): the Zend
#   allocator off but tracking (USE_TRACKED_ALLOC=1: what a request
#   allocated through it is freed at its end, as the Zend allocator frees its
#   pages, so a fatal error's bailout is no leak; a Zend allocation the
#   extension leaks is the debug rows' [Memory leaked]) and LeakSanitizer
#   with php-src's own suppressions (.github/lsan-suppressions.txt of the
#   source, copied beside PHP: leaks of third-party libraries PHP links)
#   followed by the project's (scripts/asan/lsan.supp: PHP-FPM's own), in
#   /build/lsan-suppressions.txt. SANITIZE=address builds the extension
#   instrumented too (the Makefile says how), on this PHP's ASan runtime.
FLAVOURS='
zts|--enable-zts --enable-embed|test-threads|thread-safe with the embed SAPI, as the php:8.x-zts images (the thread tests run on it)|
debug-nts|--enable-debug||a debug build (--enable-debug): a leaked Zend allocation is reported ([Memory leaked]) and an engine assertion aborts|RATELIMIT_NOT_COUNTED=/build/ratelimit/scripts/debug/slowed.txt
debug-zts|--enable-debug --enable-zts --enable-embed|test-threads|a debug build, thread-safe with the embed SAPI (the thread tests run on it)|RATELIMIT_NOT_COUNTED=/build/ratelimit/scripts/debug/slowed.txt
asan|--enable-debug --enable-address-sanitizer --enable-undefined-sanitizer||AddressSanitizer and UndefinedBehaviorSanitizer (and the debug checks), the Zend allocator off, as run-tests.php --asan of php-src runs|SANITIZE=address RATELIMIT_NOT_COUNTED=/build/ratelimit/scripts/asan/not-counted.txt USE_ZEND_ALLOC=0 USE_TRACKED_ALLOC=1 ZEND_DONT_UNLOAD_MODULES=1 ASAN_OPTIONS=log_path=/build/sanitizer/asan:detect_leaks=1:detect_odr_violation=0 LSAN_OPTIONS=suppressions=/build/lsan-suppressions.txt:print_suppressions=0 UBSAN_OPTIONS=log_path=/build/sanitizer/ubsan:print_stacktrace=1
'
flavour_field() { awk -F'|' -v f="$1" -v n="$2" '$1 == f {print $n}' <<<"$FLAVOURS"; }
if [ "${1:-}" = --check-flavour ]; then
  [ -n "$(flavour_field "${2:-}" 4)" ] && exit 0
  echo "unknown flavour ${2:-}; flavours: $(awk -F'|' 'NF {printf "%s ", $1}' <<<"$FLAVOURS")" >&2
  exit 1
fi
flavour=${1:?flavour}
options=$(flavour_field "$flavour" 2)
targets=$(flavour_field "$flavour" 3)
environment=$(flavour_field "$flavour" 5)
[ -n "$(flavour_field "$flavour" 4)" ] || { echo "unknown flavour $flavour"; exit 2; }
prefix=/usr/local
export PHP_INI_DIR=$prefix/etc/php
built=$PHP_INI_DIR/.ratelimit-php
jobs=-j2

# unpack_source, build_php: PHP from a Debian source package's upstream tarball.
. /build/ratelimit/scripts/php-source-lib.bash

apt-get update -qq
apt-get install -y -qq --no-install-recommends build-essential pkg-config autoconf bison re2c dpkg-dev xz-utils curl ca-certificates \
  libssl-dev zlib1g-dev >/dev/null

want="$flavour $options"
if [ "${RATELIMIT_PHP_REBUILD:-0}" = 1 ] || [ "$(cat "$built" 2>/dev/null | head -1)" != "$want" ]; then
  started=$SECONDS
  # shellcheck disable=SC2086 # the flavour's options are words
  build_php php8.4 "${RATELIMIT_PHP_SRC:-}" /build/php-src $options || exit 1
  # PHP's own LeakSanitizer suppressions, which the asan environment names.
  [ ! -f "$php_src_dir/.github/lsan-suppressions.txt" ] || cp "$php_src_dir/.github/lsan-suppressions.txt" "$prefix/lib/php/lsan-suppressions.txt"

  # phpredis, built with this PHP's phpize, installed but not enabled.
  mkdir -p /build/phpredis-src && cd /build/phpredis-src && rm -rf ./*
  unpack_source php-redis "${RATELIMIT_PHPREDIS_SRC:-}" >/dev/null
  cd "$(dirname "$(find . -name config.m4 -path '*redis*' | head -1)")"
  { "$prefix/bin/phpize" && ./configure --with-php-config="$prefix/bin/php-config" && make "$jobs" && make install; } \
    >/build/phpredis-src/build.log 2>&1 || { tail -30 /build/phpredis-src/build.log; exit 1; }
  printf '%s\n%s\n' "$want" "$php_src_dir" >"$built"
  echo "PHP ($flavour) and phpredis built in $((SECONDS - started)) s"
fi

# The flavour's environment, for every run from here on: PHP's own, the
# builds that run it, and the PHPs the tests start.
# shellcheck disable=SC2086 # VAR=value words
[ -z "$environment" ] || export $environment
rm -rf /build/sanitizer && mkdir -p /build/sanitizer
cat "$prefix/lib/php/lsan-suppressions.txt" /build/ratelimit/scripts/asan/lsan.supp >/build/lsan-suppressions.txt 2>/dev/null \
  || cp /build/ratelimit/scripts/asan/lsan.supp /build/lsan-suppressions.txt

cd /build/ratelimit
[ "$(command -v php)" = "$prefix/bin/php" ] || { echo "php on PATH is $(command -v php), not $prefix/bin/php"; exit 1; }
php -v
php -n -d extension=redis -r 'echo "phpredis ", phpversion("redis"), " (built, not enabled)\n";'
make deps
# The row's versions for make matrix's table (its row is named after the flavour).
scripts/matrix-versions.bash "$flavour" redis-server
# The official images' paths, then the whole suite and the flavour's own
# targets (or what TESTS or RATELIMIT_PHP_TARGET names); one count for all.
total_passed=0 total_failed=0
runs=(check-official-layout test $targets)
[ -z "${RATELIMIT_PHP_TARGET:-}" ] || runs=("$RATELIMIT_PHP_TARGET")
[ -z "${TESTS:-}" ] || runs=(test-php)
for target in "${runs[@]}"; do
  log=/tmp/php-from-source-$target.log
  rc=0
  make "$target" 2>&1 | tee "$log" || rc=$?
  p='' f=''
  read -r p f < <(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 | awk '{print $1, $3}') || true
  if [ -z "$p" ]; then
    # A target that runs no tests (make bench-threads) is judged by its
    # exit status; a test target always ends with a count.
    p=0 f=0
    case $target in
      test | test-* | check-*) f=1; echo "make $target ended without a count (exit $rc)" ;;
      *) [ "$rc" -eq 0 ] || { f=1; echo "make $target failed (exit $rc)"; } ;;
    esac
  fi
  total_passed=$((total_passed + p)) total_failed=$((total_failed + f))
done
# A sanitizer's report is a failure, whichever process wrote it (a test's
# child whose output no test reads too): each file in /build/sanitizer is one.
reports=$(find /build/sanitizer -type f | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "sanitizer reports: $reports"
  for f in /build/sanitizer/*; do echo "---- $f"; head -60 "$f"; done
  total_failed=$((total_failed + reports))
fi
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
