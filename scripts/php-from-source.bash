#!/usr/bin/env bash
# A PHP built from source, the way the official Docker images build theirs
# (prefix /usr/local, php.ini in /usr/local/etc/php, a conf.d scan dir at
# /usr/local/etc/php/conf.d, no phpenmod), in a Debian trixie root of its
# own per flavour, then the suite under it: `make zts` (flavour zts, as the
# php:8.x-zts images: thread-safe, with the embed SAPI for the thread tests);
# debug-nts and debug-zts (--enable-debug: leaks reported, assertions on) and
# asan (AddressSanitizer and UBSan) are PHP's own memory checks, run by
# `make php-from-source FLAVOUR=…` and the matrix rows of the same names
# (scripts/php-from-source-root.bash lists the flavours).
#
#   scripts/php-from-source.bash FLAVOUR
#   TESTS=php-tests/gcra_basic.phpt scripts/php-from-source.bash zts   only those phpt tests
#   RATELIMIT_SKIP_CARGO=1 …   the suite without cargo test (which no PHP runs: CI's debug-nts row)
#   RATELIMIT_MODULE_PASS=no …  the phpt suite's Lua pass only (CI's debug-nts and zts rows)
#
# Inside the root (scripts/matrix-lib.bash: the roots of `make matrix`,
# kept under /var/cache/ratelimit-matrix), scripts/php-from-source-root.bash
# builds PHP from the upstream tarball of trixie's php8.4 source package
# (apt-get source, or a pinned one the mirror serves) into /usr/local, once
# per flavour, and phpredis with that PHP's phpize; then make deps (which
# installs no second PHP beside it), the official images' install paths
# (scripts/check-official-layout.bash: make install/uninstall, PIE's steps,
# php-fpm), make test, and the flavour's own targets. Every compile runs at nice 19.
#
# Environment:
#   RATELIMIT_PHP_SRC      a PHP 8.4 source tarball (or directory) on this machine, used
#                          instead of apt-get source php8.4 (a mirror without that source)
#   RATELIMIT_PHPREDIS_SRC the same for phpredis instead of apt-get source php-redis
#   RATELIMIT_PHP_REBUILD=1 build PHP and phpredis again even when the root has them
#   RATELIMIT_PHP_TARGET=x run make x there instead of the tests (make bench: bench-threads,
#                          with BENCH_QUICK, BENCH_THREADS_ROUNDS, BENCH_THREADS_DECISIONS passed on)
# Log: /var/cache/ratelimit-matrix/logs/php-FLAVOUR.log. Ends "N passed, N failed".
set -uo pipefail
# One compound command, read whole before it runs (as scripts/matrix.bash).
{
cd "$(dirname "$0")/.."
. scripts/matrix-lib.bash # dir, root_of, prepare_root, in_root, stop_processes_in, fetch_crates
flavour=${1:?usage: $0 FLAVOUR (zts, debug-nts, debug-zts, asan)}
bash scripts/php-from-source-root.bash --check-flavour "$flavour" || exit 2
log=$dir/logs/php-$flavour.log
name=trixie-$flavour

fetch_crates || { echo "0 passed, 1 failed"; exit 1; }
root=$(root_of trixie "$name") || { echo "the $name root was not built: see $dir/logs/root-$name.log"; echo "0 passed, 1 failed"; exit 1; }
prepare_root "$root"
# apt-get source needs the source index of the mirror the root already uses.
awk '$1 == "deb" && $3 == "trixie" {print "deb-src", $2, $3, $4; exit}' "$root/etc/apt/sources.list" \
  >"$root/etc/apt/sources.list.d/deb-src.list"

# A source given on this machine is copied into the root, where the build sees it.
given=()
for var in RATELIMIT_PHP_SRC RATELIMIT_PHPREDIS_SRC; do
  src=${!var:-}
  [ -n "$src" ] || continue
  [ -e "$src" ] || { echo "$var: no $src"; echo "0 passed, 1 failed"; exit 1; }
  rm -rf "$root/build/given/$var" && mkdir -p "$root/build/given/$var"
  cp -a "$src" "$root/build/given/$var/"
  given+=("$var=/build/given/$var/$(basename "$src")")
done

echo "== PHP 8.4 from source, flavour $flavour, in $root/usr/local (log: $log)"
in_root "$root" TESTS="${TESTS:-}" RATELIMIT_PHP_TARGET="${RATELIMIT_PHP_TARGET:-}" RATELIMIT_PHP_REBUILD="${RATELIMIT_PHP_REBUILD:-0}" CI="${CI:-}" \
  RATELIMIT_SKIP_CARGO="${RATELIMIT_SKIP_CARGO:-0}" RATELIMIT_MODULE_PASS="${RATELIMIT_MODULE_PASS:-}" "${given[@]}" \
  BENCH_QUICK="${BENCH_QUICK:-}" BENCH_THREADS_ROUNDS="${BENCH_THREADS_ROUNDS:-}" BENCH_THREADS_DECISIONS="${BENCH_THREADS_DECISIONS:-}" \
  nice -n 19 bash /build/ratelimit/scripts/php-from-source-root.bash "$flavour" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
stop_processes_in "$root"
[ -n "${RATELIMIT_PHP_TARGET:-}" ] || grep -aqE '^[0-9]+ passed, [0-9]+ failed' "$log" || echo "0 passed, 1 failed (exit $rc: see $log)"
exit "$rc"
}
