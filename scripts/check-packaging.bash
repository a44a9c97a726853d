#!/usr/bin/env bash
# `make check-packaging` (and CI): the three ways to install the extension,
# each checked for real on this machine and then removed again, so that the
# `make test` after it still tests the fresh build alone.
#
#   1. make deb → apt install ./dist/php<v>-ratelimit_….deb: php -m and
#      php-fpm -m list ratelimit, the ini is a conffile, a limiter decides
#      against a redis-server through the installed copy; phpt tests pass
#      with it installed (the harness runs php -n, so the fresh build loads
#      alone; so do the tests' child PHPs); an edited ini survives a reinstall; apt purge leaves no file
#      and no php-common record behind.
#      The server module's package: apt install, a redis-server loads it from
#      /usr/lib/redis/modules and its commands decide for the fresh build; purge
#      leaves nothing.
#   2. make install: the same smoke test, then make uninstall leaves nothing.
#   3. phpize path (what PIE runs): cd phpize && phpize && ./configure && make
#      && make install INSTALL_ROOT=<temp dir>; the installed .so decides too;
#      phpize's make test runs phpt tests against phpize/modules/ratelimit.so.
#      cargo reuses the target dir, so nothing is compiled twice.
#
# Needs root or sudo; refuses to start when ratelimit is already installed
# (it would be removed). On a shared machine, run it through
# scripts/isolated.bash so that the installs are seen by this run only.
# Ends with "packaging: OK" or the count of failed checks (exit 1).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
# PATH stays as it is: cargo reruns ext-php-rs's build script (and so
# recompiles) when PATH differs from the one make build ran with.
sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
php_config=${PHP_CONFIG:-php-config}
php_version=$("$php_config" --version | cut -d. -f1,2)
ext_dir=$("$php_config" --extension-dir)
php_bin=$("$php_config" --php-binary)
fpm_bin=$(PATH="$PATH:/usr/sbin:/sbin" command -v "php-fpm$php_version" || true) # not on every user's PATH
package=php$php_version-ratelimit

failures=0
fail() { echo "  FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "  ok: $*"; }
t0=$(date +%s)

# Every file or record an install may leave, wherever it comes from.
leftovers() {
  find /etc/php/"$php_version" "$ext_dir" /var/lib/php/modules/"$php_version" -name '*ratelimit*' 2>/dev/null
}
# A limiter of 2 per minute asked 3 times, through "$@" (a php command line).
smoke() {
  "$@" -d ratelimit.redis_url="redis://127.0.0.1:$REDIS_PORT" -r '
    $l = new FixedWindowRateLimiter("smoke:" . getmypid() . ":" . mt_rand(), 60, 2);
    echo json_encode([$l->isAllowed(), $l->isAllowed(), $l->isAllowed()]), " ", phpversion("ratelimit");' 2>&1
}
expect_smoke() { # label, php command line...
  local label=$1 got; shift
  got=$(smoke "$@")
  if [[ "$got" == "[true,true,false] "* ]]; then ok "$label: a limiter of 2 allowed, allowed, denied (version ${got#* })"
  else fail "$label: expected [true,true,false], got: $got"; fi
}
# Whether a PHP binary's -m lists ratelimit. The output is read whole before
# grep (here and in expect_clean): under pipefail, `php -m | grep -q` fails
# when grep exits at its match before PHP has written its last lines (SIGPIPE;
# php-fpm writes line by line, and lost that race in CI on a loaded machine).
lists_ratelimit() { # php binary
  local modules; modules=$("$1" -m 2>&1)
  grep -qx ratelimit <<<"$modules"
}
expect_clean() { # label
  local left; left=$(leftovers)
  if [ -z "$left" ] && ! grep -q ratelimit <<<"$("$php_bin" -m 2>&1)"; then ok "$1: nothing left, php does not load ratelimit"
  else fail "$1: left behind: $left $("$php_bin" -m 2>&1 | grep ratelimit)"; fi
}

if [ -n "$(leftovers)" ] || dpkg -s "$package" >/dev/null 2>&1; then
  echo "check-packaging: ratelimit is already installed here ($(leftovers | tr '\n' ' ')); it would be removed: stopping"
  exit 2
fi
trap 'redis_stop' EXIT
trap 'exit 130' INT TERM
redis_start || exit 1

echo "1. make deb, apt install, smoke test, phpt tests with it installed, apt purge"
debs=$(make -s deb)
deb=$(grep -- '-ratelimit_' <<<"$debs" | tail -1)
module_deb=$(grep -- 'ratelimit-redis-module_' <<<"$debs" | tail -1)
if [ -f "$deb" ]; then ok "built $deb ($(du -k "$deb" | cut -f1) KiB)"; else fail "make deb made no package: $deb"; fi
if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "./$deb" >/tmp/ratelimit-apt.log 2>&1; then
  ok "apt-get install ./$deb"
else
  fail "apt-get install ./$deb: $(tail -5 /tmp/ratelimit-apt.log)"
fi
lists_ratelimit "$php_bin" && ok "php -m lists ratelimit" || fail "php -m does not list ratelimit"
if [ -n "$fpm_bin" ]; then
  lists_ratelimit "$fpm_bin" && ok "$fpm_bin -m lists ratelimit" || fail "$fpm_bin -m does not list ratelimit"
fi
grep -qx "/etc/php/$php_version/mods-available/ratelimit.ini" "/var/lib/dpkg/info/$package.conffiles" 2>/dev/null \
  && ok "ratelimit.ini is a conffile" || fail "ratelimit.ini is not a conffile"
expect_smoke "installed package" "$php_bin"
# The harness must test the fresh build, not the installed copy: the tests
# that look at what is loaded, and every test that starts a child PHP (which
# must run it with -n too, or the installed copy loads beside the build).
installed_tests=(php-tests/loading.phpt php-tests/fresh_build_only.phpt $(grep -rlE 'PHP_BINARY|rl_php_command|rl_php_shell' php-tests --include='*.phpt' | sort))
# One pass (the Lua library): the question is which extension copy loads, not which server path decides.
# Every test passes, but those whose subject is phpredis on a PHP without it (skipped, counted apart).
out=$(RATELIMIT_MODULE_PASS=no RATELIMIT_SKIP_CARGO=1 scripts/run-tests.bash "${installed_tests[@]}" 2>&1)
tests=$(tail -1 <<<"$out")
skipped=$(grep -oE '^skipped: [0-9]+' <<<"$out" | grep -oE '[0-9]+' || echo 0)
note=; [ "$skipped" = 0 ] || note=" (and $skipped skipped: phpredis is their subject)"
if [ "$tests" = "$((${#installed_tests[@]} - skipped)) passed, 0 failed" ]; then
  ok "phpt tests with the package installed: $tests$note"
else
  # Which tests failed and what they printed, so a row that fails once can be read after the fact.
  fail "phpt tests with the package installed: $tests$note"
  grep -E '^(FAIL|BORK|LEAK)' <<<"$out" | sed 's/^/    /'
  grep -A40 -E '^=+ (DIFF|OUT) ' <<<"$out" | head -80 | sed 's/^/    /'
fi
# An edited ini survives a reinstall (prerm upgrade + postinst run again), and
# the module stays enabled.
ini=/etc/php/$php_version/mods-available/ratelimit.ini
printf '; edited by check-packaging\nratelimit.timeout = 2.5\n' | $sudo tee -a "$ini" >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --reinstall -o Dpkg::Options::=--force-confold "./$deb" >>/tmp/ratelimit-apt.log 2>&1 \
  || fail "apt-get install --reinstall: $(tail -5 /tmp/ratelimit-apt.log)"
timeout=$("$php_bin" -r 'echo ini_get("ratelimit.timeout");' 2>&1)
[ "$timeout" = 2.5 ] && ok "reinstalled: the edited ini kept (ratelimit.timeout = $timeout), module enabled" \
  || fail "after a reinstall ratelimit.timeout is '$timeout', expected the edited 2.5"
$sudo apt-get purge -y -qq "$package" >>/tmp/ratelimit-apt.log 2>&1 || fail "apt-get purge $package: $(tail -5 /tmp/ratelimit-apt.log)"
dpkg -s "$package" >/dev/null 2>&1 && fail "$package still known to dpkg after purge"
expect_clean "apt purge"

echo "1b. the server module's package: apt install, a server loads it, apt purge"
module_path=/usr/lib/redis/modules/ratelimit-redis.so
if [ -f "$module_deb" ] && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "./$module_deb" >>/tmp/ratelimit-apt.log 2>&1; then
  ok "apt-get install ./$module_deb"
  redis_stop
  if RATELIMIT_SERVER_MODULE=$module_path redis_start; then
    expect_smoke "a server with the packaged module" "$php_bin" -n -d extension="$PWD/modules/ratelimit.so"
    # (that smoke test is a fixed window's cost-1 counter: plain commands; a token bucket goes to the module)
    "$php_bin" -n -d extension="$PWD/modules/ratelimit.so" -r '(new TokenBucketRateLimiter("redis://127.0.0.1:'"$REDIS_PORT"'", "pkg", 5, 1.0))->isAllowed();'
    calls=$("$REDIS_CLI_BIN" -p "$REDIS_PORT" INFO commandstats | grep -o 'cmdstat_ratelimit.take:calls=[0-9]*' | cut -d= -f2)
    [ "${calls:-0}" -gt 0 ] && ok "the module decided a token bucket ($calls RATELIMIT.TAKE call)" || fail "the module's commands were not called"
  else
    fail "a redis-server with --loadmodule $module_path did not start"
  fi
  redis_stop; redis_start || exit 1
  $sudo apt-get purge -y -qq ratelimit-redis-module >>/tmp/ratelimit-apt.log 2>&1 || fail "apt-get purge ratelimit-redis-module"
  [ ! -e "$module_path" ] && ok "apt purge: the module is gone" || fail "apt purge left $module_path"
else
  fail "apt-get install ./$module_deb: $(tail -5 /tmp/ratelimit-apt.log)"
fi

echo "2. make install, smoke test, make uninstall"
if $sudo make -s install >/tmp/ratelimit-install.log 2>&1; then ok "make install"; else fail "make install: $(tail -5 /tmp/ratelimit-install.log)"; fi
expect_smoke "make install" "$php_bin"
if $sudo make -s uninstall >>/tmp/ratelimit-install.log 2>&1; then ok "make uninstall"; else fail "make uninstall: $(tail -5 /tmp/ratelimit-install.log)"; fi
expect_clean "make uninstall"

echo "3. phpize && ./configure && make && make install (what PIE runs)"
root=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-phpize.XXXXXX")
(
  set -e
  cd phpize
  phpize >"$root/phpize.log" 2>&1
  ./configure --with-php-config="$(command -v "$php_config")" >>"$root/phpize.log" 2>&1
  make >>"$root/phpize.log" 2>&1
  make install INSTALL_ROOT="$root" >>"$root/phpize.log" 2>&1
) && ok "phpize, configure, make, make install INSTALL_ROOT=$root" || fail "phpize path: $(tail -15 "$root/phpize.log")"
# make deb made sure the build is fresh: cargo must have compiled nothing again
# (it does when configure hands it an environment that differs from make build's).
if grep -q '^ *Compiling' "$root/phpize.log"; then
  fail "the phpize build recompiled: $(grep -c '^ *Compiling' "$root/phpize.log") crates ($(grep '^ *Compiling' "$root/phpize.log" | head -3 | tr -s ' ' | tr '\n' ';'))"
else
  ok "cargo compiled nothing again: $(grep -o 'Finished.*' "$root/phpize.log" | head -1)"
fi
so=$root$ext_dir/ratelimit.so
if [ -f "$so" ]; then
  expect_smoke "phpize build" "$php_bin" -n -d extension="$so"
  if cmp -s "$so" modules/ratelimit.so; then ok "the phpize build is byte for byte modules/ratelimit.so (cargo reused the build)"
  else echo "  note: the phpize build differs from modules/ratelimit.so (sources changed since make build?)"; fi
else
  fail "make install put no $so"
fi
# phpize's own `make test` (which phpize's make says to run next): the phpt
# suite against the module this build made (phpize/modules/ratelimit.so, the
# only ratelimit.so in the tests' processes: fresh_build_only.phpt), both
# passes; a few tests, about 3 s.
phpize_tests="php-tests/loading.phpt php-tests/fresh_build_only.phpt php-tests/null_scalars.phpt"
phpize_test_out=$(cd phpize && make test TESTS="$phpize_tests" 2>&1)
if grep -qx '6 passed, 0 failed' <<<"$phpize_test_out" && grep -qF 'RATELIMIT_SO="'"$PWD"'/phpize/modules/ratelimit.so"' <<<"$phpize_test_out"; then
  ok "phpize's make test: $(wc -w <<<"$phpize_tests") phpt tests x 2 passes against phpize/modules/ratelimit.so"
else
  fail "phpize's make test: $(tail -15 <<<"$phpize_test_out")"
fi
# What phpize, configure and make left in phpize/ (all git-ignored there).
(cd phpize && make distclean >/dev/null 2>&1; phpize --clean >/dev/null 2>&1; rm -rf include configure~ config.h.in~)
rm -rf "$root"
expect_clean "phpize path (installed under INSTALL_ROOT only)"

echo "packaging: $(( $(date +%s) - t0 )) s"
if [ "$failures" -eq 0 ]; then echo "packaging: OK"; else echo "packaging: $failures check(s) failed"; exit 1; fi
