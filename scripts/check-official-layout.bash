#!/usr/bin/env bash
# `make check-official-layout`: the ways into a PHP laid out as the official
# Docker images lay theirs out (built from source under /usr/local, every ini
# in the scan dir /usr/local/etc/php/conf.d, no phpenmod), each done for
# real, checked and undone. Run by scripts/php-from-source-root.bash in its
# root (make zts), where that PHP is the php on PATH.
#   1. make deps put no second PHP beside it (no Debian php binary, no phpX.Y-cli/-fpm).
#   2. make install: the .so in that PHP's extension dir and 20-ratelimit.ini in
#      its scan dir, loaded by its php and php-fpm; nothing written to /etc/php;
#      make uninstall: exactly that removed.
#   3. The project's Dockerfile (docs/install.md shows it): its build step (the
#      RUN after the "PIE's steps" comment: phpize in composer.json's
#      build-path, configure, make, make install, the .so and ini into /out)
#      run verbatim in a copy of the checkout at /usr/src/ratelimit, as its
#      COPY puts it; then its runtime stage's RUN (after COPY --from=build, which
#      is done here by copying /out) puts only those two files in place; loaded
#      by php and php-fpm, ratelimit.redis_url from RATELIMIT_REDIS_URL; then
#      removed again. (Its first RUN, installing a Rust toolchain, is the host's
#      toolchain here.)
# Ends "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/php.bash # php_fpm_path

passed=0 failed=0
ok() { echo "  ok: $*"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
# Whether $1 -m lists ratelimit (read whole: no pipe for grep -q to cut short).
lists_ratelimit() { grep -qx ratelimit <<<"$("$1" -m 2>&1)"; }

php_bin=$(command -v php)
php_config=$(command -v php-config)
prefix=$(php-config --prefix)
ext_dir=$(php-config --extension-dir)
scan_dir=$(php-config --ini-dir)
fpm=$(php_fpm_path) || fpm=
echo "check-official-layout: $php_bin (prefix $prefix, scan dir $scan_dir), php-fpm ${fpm:-none}"
[ "$scan_dir" = "$prefix/etc/php/conf.d" ] || { fail "the scan dir is $scan_dir, not $prefix/etc/php/conf.d"; echo "$passed passed, $failed failed"; exit 1; }
[ -n "$fpm" ] || fail "no php-fpm of $php_bin"

echo "-- 1. no second PHP"
debian_php=$(ls /usr/bin/php[0-9]* /usr/sbin/php-fpm[0-9]* 2>/dev/null | tr '\n' ' ')
check "no Debian php binary beside $php_bin${debian_php:+ (found: $debian_php)}" test -z "$debian_php"
debian_packages=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 2>/dev/null | awk '$1 == "ii" && $2 ~ /^(php[0-9.]+-(cli|fpm|cgi|common)|libphp|libapache2-mod-php)/ {print $2}' | tr '\n' ' ')
check "no Debian PHP package installed${debian_packages:+ (found: $debian_packages)}" test -z "$debian_packages"

echo "-- 2. make install / make uninstall"
etc_before=$(find /etc/php -name '*ratelimit*' 2>/dev/null | sort)
make install >/tmp/check-official-install.log 2>&1 || { cat /tmp/check-official-install.log; fail "make install"; }
check "the .so in $ext_dir" test -f "$ext_dir/ratelimit.so"
check "20-ratelimit.ini in $scan_dir, as shipped" cmp -s ratelimit.ini "$scan_dir/20-ratelimit.ini"
check "nothing written to /etc/php" test "$(find /etc/php -name '*ratelimit*' 2>/dev/null | sort)" = "$etc_before"
check "php -m lists ratelimit" lists_ratelimit "$php_bin"
[ -z "$fpm" ] || check "php-fpm -m lists ratelimit" lists_ratelimit "$fpm"
make uninstall >/tmp/check-official-install.log 2>&1 || { cat /tmp/check-official-install.log; fail "make uninstall"; }
check "make uninstall removed the .so" test ! -e "$ext_dir/ratelimit.so"
check "make uninstall removed the ini" test ! -e "$scan_dir/20-ratelimit.ini"
check "php -m no longer lists ratelimit" eval '! lists_ratelimit "$php_bin"'
rm -f /tmp/check-official-install.log

echo "-- 3. the Dockerfile: PIE's steps in the build stage, the .so and its ini in the runtime stage"
# A RUN instruction of the Dockerfile, its continuation lines joined: the one
# after the line matching $1. Exactly what an image build runs.
run_after() {
  awk -v mark="$1" '$0 ~ mark {take = 1; next}
    take && /^RUN / || take == 2 { take = 2; line = $0; cont = sub(/\\$/, "", line); sub(/^RUN /, "", line); printf "%s ", line; if (!cont) exit }' Dockerfile
}
build_step=$(run_after "^# PIE.s steps")
runtime_step=$(run_after "^COPY --from=build /out/ /usr/src/ratelimit-build/")
if [ -z "$build_step" ] || [ -z "$runtime_step" ]; then
  fail "the Dockerfile has no RUN after \"# PIE's steps\" or after its COPY --from=build"
else
  echo "  build stage: RUN $build_step"
  echo "  runtime stage: RUN $runtime_step"
  rm -rf /usr/src/ratelimit /out /usr/src/ratelimit-build && cp -a . /usr/src/ratelimit
  rm -rf /usr/src/ratelimit/modules /usr/src/ratelimit/target
  export PHP_INI_DIR=$prefix/etc/php
  if bash -ec "$build_step" >/tmp/check-official-pie.log 2>&1; then ok "the build step ran"; else tail -30 /tmp/check-official-pie.log; fail "the build step"; fi
  check "the build stage left only the .so and its ini in /out" test "$(ls /out 2>/dev/null | tr '\n' ' ')" = "ratelimit.ini ratelimit.so "
  # The runtime stage starts from a PHP without the extension: what make install put there goes.
  rm -f "$ext_dir/ratelimit.so"
  cp -a /out /usr/src/ratelimit-build
  if bash -ec "$runtime_step" >/tmp/check-official-pie.log 2>&1; then ok "the runtime step ran"; else tail -30 /tmp/check-official-pie.log; fail "the runtime step"; fi
  check "the .so in $ext_dir" test -f "$ext_dir/ratelimit.so"
  check "php -m lists ratelimit" lists_ratelimit "$php_bin"
  [ -z "$fpm" ] || check "php-fpm -m lists ratelimit" lists_ratelimit "$fpm"
  check "a limiter decides (memory://)" test "$("$php_bin" -r '$l = new TokenBucketRateLimiter("memory://", "k", 2, 1); echo (int) $l->isAllowed(), (int) $l->isAllowed(), (int) $l->isAllowed();')" = 110
  check "ratelimit.redis_url is the container's RATELIMIT_REDIS_URL" \
    test "$(RATELIMIT_REDIS_URL=redis://cache.internal:6380/2 "$php_bin" -r 'echo ini_get("ratelimit.redis_url");')" = redis://cache.internal:6380/2
  rm -f "$scan_dir/docker-php-ext-ratelimit.ini" "$ext_dir/ratelimit.so" /tmp/check-official-pie.log
  rm -rf /usr/src/ratelimit /out /usr/src/ratelimit-build
  check "removed again" eval '! lists_ratelimit "$php_bin"'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
