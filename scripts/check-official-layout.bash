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
#   3. The Dockerfile of docs/install.md: its build step (the RUN after the
#      "PIE's steps" comment: phpize in composer.json's build-path, configure,
#      make, make install, then enabling) run verbatim in a copy of the
#      checkout at /usr/src/ratelimit, as its COPY puts it; loaded by php and
#      php-fpm; then removed again. (Its first RUN, installing a Rust
#      toolchain, is the host's toolchain here.)
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

echo "-- 3. docs/install.md's Dockerfile: PIE's steps, then enabled"
# The RUN instruction after "# PIE's steps" in the dockerfile block, its
# continuation lines joined: exactly what a user's image build runs.
build_step=$(awk '/^```dockerfile/ {in_block = 1; next} /^```/ {in_block = 0}
  in_block && /^# PIE.s steps/ {take = 1; next}
  in_block && take { line = $0; cont = sub(/\\$/, "", line); sub(/^RUN /, "", line); printf "%s ", line; if (!cont) exit }' docs/install.md)
if [ -z "$build_step" ]; then
  fail "docs/install.md has no dockerfile block with a RUN after \"# PIE's steps\""
else
  echo "  RUN $build_step"
  rm -rf /usr/src/ratelimit && cp -a . /usr/src/ratelimit
  rm -rf /usr/src/ratelimit/modules /usr/src/ratelimit/target
  export PHP_INI_DIR=$prefix/etc/php
  if bash -ec "$build_step" >/tmp/check-official-pie.log 2>&1; then ok "the build step ran"; else tail -30 /tmp/check-official-pie.log; fail "the build step"; fi
  check "the .so in $ext_dir" test -f "$ext_dir/ratelimit.so"
  check "php -m lists ratelimit" lists_ratelimit "$php_bin"
  [ -z "$fpm" ] || check "php-fpm -m lists ratelimit" lists_ratelimit "$fpm"
  check "a limiter decides (memory://)" test "$("$php_bin" -r '$l = new TokenBucketRateLimiter("memory://", "k", 2, 1); echo (int) $l->isAllowed(), (int) $l->isAllowed(), (int) $l->isAllowed();')" = 110
  rm -f "$scan_dir/docker-php-ext-ratelimit.ini" "$ext_dir/ratelimit.so" /tmp/check-official-pie.log
  rm -rf /usr/src/ratelimit
  check "removed again" eval '! lists_ratelimit "$php_bin"'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
