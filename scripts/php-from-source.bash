#!/usr/bin/env bash
# `make zts`: the extension built against a thread-safe (ZTS) PHP 8.4 and the
# suite (cargo test, the phpt suite) run under it, in a Debian trixie root of
# its own (scripts/matrix-lib.bash: the roots of `make matrix`, kept under
# /var/cache/ratelimit-matrix). Inside it scripts/zts-root.bash builds PHP
# from the upstream tarball of trixie's source package (apt-get source
# php8.4, or a pinned one the mirror serves) with --enable-zts
# --enable-embed --enable-fpm --disable-all and the extensions the suite
# needs, into /opt/php-zts (built once, then reused), phpredis from
# trixie's php-redis source with that PHP's phpize, then runs make deps and
# make test with /opt/php-zts/bin first on PATH. Every compile runs at nice 19.
#
#   scripts/zts.bash
#   TESTS=php-tests/gcra_basic.phpt scripts/zts.bash    only those phpt tests (no cargo test)
# Environment:
#   RATELIMIT_PHP_SRC      a PHP 8.4 source tarball (or directory) on this machine, used
#                          instead of apt-get source php8.4 (a mirror without that source)
#   RATELIMIT_PHPREDIS_SRC the same for phpredis instead of apt-get source php-redis
#   RATELIMIT_ZTS_REBUILD=1 build PHP and phpredis again even when /opt/php-zts is there
#   RATELIMIT_ZTS_TARGET=x  run make x there instead of the tests (make bench: bench-threads)
# Log: /var/cache/ratelimit-matrix/logs/zts.log. Ends "N passed, N failed".
set -uo pipefail
# One compound command, read whole before it runs (as scripts/matrix.bash).
{
cd "$(dirname "$0")/.."
. scripts/matrix-lib.bash # dir, root_of, prepare_root, in_root, stop_processes_in, fetch_crates
log=$dir/logs/zts.log

fetch_crates || { echo "0 passed, 1 failed"; exit 1; }
root=$(root_of trixie trixie-zts) || { echo "the trixie-zts root was not built: see $dir/logs/root-trixie-zts.log"; echo "0 passed, 1 failed"; exit 1; }
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

echo "== zts: PHP 8.4 ZTS in $root/opt/php-zts (log: $log)"
in_root "$root" PATH=/opt/php-zts/bin:/opt/php-zts/sbin:/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TESTS="${TESTS:-}" RATELIMIT_ZTS_TARGET="${RATELIMIT_ZTS_TARGET:-}" RATELIMIT_ZTS_REBUILD="${RATELIMIT_ZTS_REBUILD:-0}" CI="${CI:-}" "${given[@]}" \
  nice -n 19 bash /build/ratelimit/scripts/zts-root.bash 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
stop_processes_in "$root"
[ -n "${RATELIMIT_ZTS_TARGET:-}" ] || grep -aqE '^[0-9]+ passed, [0-9]+ failed' "$log" || echo "0 passed, 1 failed (zts exit $rc: see $log)"
exit "$rc"
}
