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
debug-nts|--enable-debug||a debug build (--enable-debug): a leaked Zend allocation is reported ([Memory leaked]) and an engine assertion aborts|
debug-zts|--enable-debug --enable-zts --enable-embed|test-threads|a debug build, thread-safe with the embed SAPI (the thread tests run on it)|
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

# A Debian source package known to be complete on the mirror, for when the
# suite's own is not served: some mirrors (this project's build machines')
# answer 404 for trixie's current php8.4 source while still serving this
# upload (Debian's 8.4.16-1). Pinned by the SHA-256 of its .dsc, whose own
# SHA-256 lines pin the tarballs.
declare -A PINNED_DSC=(
  [php8.4]="pool/main/p/php8.4/php8.4_8.4.16-1.dsc 9f2172c07beb78b91fe6388c88343c82d38552f3955def7e0706eb09f6311840"
)

# Downloads the pinned source package of $1 from the root's Debian mirror
# into the current directory; fails when there is none or a checksum differs.
download_pinned() {
  local pkg=$1 entry path sum mirror dsc
  entry=${PINNED_DSC[$pkg]:-}
  [ -n "$entry" ] || return 1
  read -r path sum <<<"$entry"
  dsc=$(basename "$path")
  mirror=$(awk '$1 == "deb" && $2 ~ /^https?:/ && $3 == "trixie" {print $2; exit}' /etc/apt/sources.list)
  curl -fsS -o "$dsc" "$mirror/$path" && echo "$sum  $dsc" | sha256sum -c --quiet - >&2 || return 1
  awk '/^Checksums-Sha256:/ {on = 1; next} /^[^ ]/ {on = 0} on {print $1 "  " $3}' "$dsc" >SHA256SUMS
  while read -r _ file; do
    curl -fsS -o "$file" "$mirror/$(dirname "$path")/$file" || return 1
  done <SHA256SUMS
  sha256sum -c --quiet SHA256SUMS >&2
}

# Unpacks the upstream source of Debian source package $1 into the current
# directory and prints the directory made: $2 when given (a tarball or a
# directory), else the upstream tarball of apt-get source (checked against
# the mirror's source index; apt keeps what it fetched when another file of
# the package is missing), else of the pinned package above. Only the
# upstream tarball: Debian's patches re-lay the install for Debian's own
# packages (versioned include and build directories, phpize's aclocal),
# which breaks a PHP of a prefix of its own.
unpack_source() {
  local pkg=$1 given=${2:-} orig
  if [ -n "$given" ]; then
    echo "$pkg: from $given (RATELIMIT_*_SRC)" >&2
    if [ -d "$given" ]; then cp -a "$given" .; else tar -xf "$given"; fi
    find . -mindepth 1 -maxdepth 1 -type d | head -1
    return 0
  fi
  apt-get source -qq --download-only "$pkg" >&2 && echo "$pkg: apt-get source $pkg" >&2
  if ! ls "$pkg"_*.orig.tar.* >/dev/null 2>&1; then
    download_pinned "$pkg" && echo "$pkg: the mirror does not serve the suite's source package; the pinned ${PINNED_DSC[$pkg]%% *}" >&2
  fi
  orig=$(ls "$pkg"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1)
  [ -n "$orig" ] || { echo "$pkg: no source (RATELIMIT_PHP_SRC / RATELIMIT_PHPREDIS_SRC can name a tarball)" >&2; return 1; }
  echo "$pkg: its upstream tarball $orig" >&2
  tar -xf "$orig"
  find . -mindepth 1 -maxdepth 1 -type d | head -1
}

apt-get update -qq
apt-get install -y -qq --no-install-recommends build-essential pkg-config autoconf bison re2c dpkg-dev xz-utils curl ca-certificates \
  libssl-dev zlib1g-dev >/dev/null

want="$flavour $options"
if [ "${RATELIMIT_PHP_REBUILD:-0}" = 1 ] || [ "$(cat "$built" 2>/dev/null | head -1)" != "$want" ]; then
  started=$SECONDS
  rm -rf /build/php-src && mkdir -p /build/php-src && cd /build/php-src
  src=$(unpack_source php8.4 "${RATELIMIT_PHP_SRC:-}")
  cd "$src"
  # A release tarball has configure; a tree without one needs it made.
  [ -x configure ] || ./buildconf --force
  # shellcheck disable=SC2086 # the flavour's options are words
  ./configure --prefix="$prefix" --with-config-file-path="$PHP_INI_DIR" --with-config-file-scan-dir="$PHP_INI_DIR/conf.d" \
    --enable-fpm --disable-cgi --disable-phpdbg $options \
    --disable-all --enable-ctype --enable-filter --with-iconv --enable-mbstring --disable-mbregex --with-openssl \
    --enable-pcntl --enable-posix --enable-session --enable-sockets --enable-tokenizer --with-zlib \
    >/build/php-src/configure.log 2>&1 || { tail -30 /build/php-src/configure.log; exit 1; }
  make "$jobs" >/build/php-src/make.log 2>&1 || { tail -40 /build/php-src/make.log; exit 1; }
  make install >/build/php-src/install.log 2>&1 || { tail -20 /build/php-src/install.log; exit 1; }
  # PHP's own LeakSanitizer suppressions, which the asan environment names.
  [ ! -f .github/lsan-suppressions.txt ] || cp .github/lsan-suppressions.txt "$prefix/lib/php/lsan-suppressions.txt"
  mkdir -p "$PHP_INI_DIR/conf.d"

  # phpredis, built with this PHP's phpize, installed but not enabled.
  mkdir -p /build/phpredis-src && cd /build/phpredis-src && rm -rf ./*
  unpack_source php-redis "${RATELIMIT_PHPREDIS_SRC:-}" >/dev/null
  cd "$(dirname "$(find . -name config.m4 -path '*redis*' | head -1)")"
  { "$prefix/bin/phpize" && ./configure --with-php-config="$prefix/bin/php-config" && make "$jobs" && make install; } \
    >/build/phpredis-src/build.log 2>&1 || { tail -30 /build/phpredis-src/build.log; exit 1; }
  printf '%s\n%s\n' "$want" "$src" >"$built"
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
  make "$target" 2>&1 | tee "$log" || true
  read -r p f < <(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 | awk '{print $1, $3}')
  [ -n "${p:-}" ] || { p=0; f=1; echo "make $target ended without a count"; }
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
