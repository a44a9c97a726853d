#!/usr/bin/env bash
# Inside one of make check-dist's roots (scripts/check-dist.bash: a throwaway
# overlay of a clean Debian root, chrooted, no Rust toolchain bound, a copy of
# the checkout in /build/ratelimit, make dist's files in /build/dist): what a
# user without build tools does with them, each step checked.
#
#   scripts/check-dist-root.bash debian X.Y    Debian's phpX.Y: apt install ./phpX.Y-ratelimit_….deb
#                                              (phpapi-…, phpenmod; where make dist makes no .deb,
#                                              Debian experimental's 8.5 and 8.6: the archive, phpenmod)
#   scripts/check-dist-root.bash official      a PHP in /usr/local as the official images
#                                              (NTS or ZTS): docs/install.md's prebuilt RUN line
#
# Both: no compiler, cargo or phpX.Y-dev here; PIE's asset name for this PHP
# is a file of dist/ and its manifest names this PHP's API and build id;
# php and php-fpm load the extension; `php --ri ratelimit` shows the
# manifest's version and names the build as the manifest does (the PHP
# built for, commit, target, glibc); the phpt suite (DIST_TESTS, default every
# php-tests/*.phpt: not faults/ and frameworks/, which need the framework
# packages and load tools) passes against the installed .so and the
# server module's archive, Lua and module passes; an archive for another
# PHP API or thread safety is refused with PHP's own message.
# Ends "N passed, N failed".
set -uo pipefail
cd /build/ratelimit
mode=${1:?debian X.Y or official}
dist=/build/dist
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
passed=0 failed=0
ok() { echo "  ok: $*"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
# The cells of make check-dist's table (system | PHP | what was installed), then the count.
finish() {
  echo "table: $(. /etc/os-release && echo "${PRETTY_NAME% (*)}") | $(php -n -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS";' 2>/dev/null) | ${installed:-–}"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
installed=
lists_ratelimit() { grep -qx ratelimit <<<"$("$@" -m 2>&1)"; }
# apt-get's progress into /tmp/apt.log, its last lines shown when it fails.
apt_quiet() { apt-get -qq "$@" >/tmp/apt.log 2>&1 || { tail -5 /tmp/apt.log; return 1; }; }

echo "-- packages a user has: PHP, a server, nothing to build with"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq -o Acquire::Check-Valid-Until=false
# nginx and python3-prometheus-client: the suite's php-fpm tests (behind
# nginx) and its metrics parser; openssl: its TLS certificates.
runtime=(redis-server openssl nginx-light python3-prometheus-client)
if [ "$mode" = debian ]; then
  php_version=${2:?X.Y}
  runtime+=("php$php_version-cli" "php$php_version-fpm")
else
  # What a PHP built with the official images' options links: OpenSSL 3 and zlib.
  runtime+=("$(apt-cache show libssl3t64 >/dev/null 2>&1 && echo libssl3t64 || echo libssl3)" zlib1g)
fi
apt_quiet install -y --no-install-recommends "${runtime[@]}" || { fail "apt-get install ${runtime[*]}"; finish; }
tools=$(for t in cargo rustc cc gcc clang; do command -v "$t"; done | tr '\n' ' ')
check "no compiler or Rust toolchain${tools:+ (found: $tools)}" test -z "$tools"
devs=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" && $2 ~ /^(php[0-9.]*-dev|clang(-[0-9]+)?|libclang-.*dev|gcc(-[0-9]+)?|cargo|rustc)$/ {print $2}' | tr '\n' ' ')
check "no php-dev, clang, gcc or Rust package${devs:+ (found: $devs)}" test -z "$devs"
[ "$mode" = official ] && check "no Debian PHP beside /usr/local/bin/php" test -z "$(ls /usr/bin/php* 2>/dev/null)"
missing=$(ldd "$(command -v php)" | grep 'not found' || true)
check "php finds every library it links${missing:+ (missing: $missing)}" test -z "$missing"
php -v | head -1

# This PHP as PIE sees it: of the names PIE tries for it, in its order
# (scripts/pie-asset-names.php), the first that dist/ has is the archive PIE downloads.
read -r series zts < <(php -n -r 'echo PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION, " ", PHP_ZTS ? "zts" : "nts", "\n";')
build_id=$(php -n -i | sed -n 's/^PHP Extension Build => //p')
api=$(php -n -i | sed -n 's/^PHP API => //p')
tries=$(php -n scripts/pie-asset-names.php ratelimit "$version")
asset=
for name in $tries; do [ -f "$dist/$name" ] && { asset=$name; break; }; done
echo "-- the archive PIE picks for PHP $series $zts (build id $build_id): ${asset:-none of $(echo $tries)}"
[ -n "$asset" ] || { fail "dist/ has none of the names PIE tries"; finish; }
ok "dist/ has $asset, a name PIE tries"
check "its checksum matches SHA256SUMS" bash -c "cd $dist && grep -F ' $asset' SHA256SUMS | sha256sum -c --quiet -"
archive=/tmp/archive && rm -rf "$archive" && mkdir -p "$archive" && tar -xzf "$dist/$asset" -C "$archive"
check "ratelimit.so at the archive's top, where PIE takes it" test -f "$archive/ratelimit.so"
manifest() { php -n -r 'echo json_decode(file_get_contents($argv[1]), true)[$argv[2]] ?? "";' "$archive/manifest.json" "$1"; }
check "its manifest's build id is this PHP's ($build_id)" test "$(manifest build_id)" = "$build_id"
check "its manifest's PHP API is this PHP's ($api)" test "$(manifest php_api)" = "$api"
check "its manifest's checksum is the .so's" test "$(manifest sha256_ratelimit.so)" = "$(sha256sum "$archive/ratelimit.so" | cut -d' ' -f1)"
echo "   built against PHP $(manifest php_version_built_against) on $(manifest built_on), needs glibc $(manifest glibc_floor), commit $(manifest commit)"
module=/tmp/module && rm -rf "$module" && mkdir -p "$module" && tar -xzf "$dist/ratelimit-redis-$version-x86_64-linux-glibc.tgz" -C "$module"
check "the server module's archive holds ratelimit-redis.so" test -x "$module/ratelimit-redis.so"

ext_dir=$(php -r 'echo ini_get("extension_dir");')
fpm=$(. scripts/php.bash && php_fpm_path) || fpm=
[ -n "$fpm" ] && ok "php-fpm: $fpm" || fail "no php-fpm of $(command -v php)"
if [ "$mode" = debian ]; then
  echo "-- apt install ./php$php_version-ratelimit_…deb"
  deb=$(ls "$dist"/php"$php_version"-ratelimit_*.deb 2>/dev/null | head -1)
  if [ -n "$deb" ]; then
    check "apt-get install ./$(basename "$deb")" apt_quiet install -y "$deb"
    installed="\`$(basename "$deb")\`, its .so the archive's"
    check "it depends on phpapi-$api" grep -q "phpapi-$api" <<<"$(dpkg-query -W -f='${Depends}' "php$php_version-ratelimit")"
  else
    # Debian 12 and 13 have a package; experimental's PHPs the archive, enabled the Debian way.
    echo "   no .deb for php$php_version: the archive's ratelimit.so and ratelimit.ini, then phpenmod"
    install -m 0644 "$archive/ratelimit.so" "$ext_dir/ratelimit.so"
    install -m 0644 "$archive/ratelimit.ini" "/etc/php/$php_version/mods-available/ratelimit.ini"
    check "phpenmod -v $php_version ratelimit" phpenmod -v "$php_version" ratelimit
    installed="\`$asset\`, phpenmod"
  fi
  check "phpenmod enabled it for the CLI and FPM" test -L "/etc/php/$php_version/cli/conf.d/20-ratelimit.ini" -a -L "/etc/php/$php_version/fpm/conf.d/20-ratelimit.ini"
  check "the package's .so is the archive's" cmp -s "$ext_dir/ratelimit.so" "$archive/ratelimit.so"
else
  echo "-- docs/install.md's prebuilt RUN line, the archive COPY'd to /tmp/ratelimit.tgz"
  # The RUN after "# The prebuilt archive" in install.md's dockerfile blocks, continuation lines joined.
  step=$(awk '/^```dockerfile/ {in_block = 1; next} /^```/ {in_block = 0}
    in_block && /^# The prebuilt archive/ {take = 1; next}
    in_block && take && /^RUN / { line = $0; cont = sub(/\\$/, "", line); sub(/^RUN /, "", line); printf "%s ", line; if (!cont) exit; next }
    in_block && take && /^ / { line = $0; cont = sub(/\\$/, "", line); printf "%s ", line; if (!cont) exit }' docs/install.md)
  [ -n "$step" ] || { fail "docs/install.md has no dockerfile RUN after \"# The prebuilt archive\""; finish; }
  echo "   RUN $step"
  cp "$dist/$asset" /tmp/ratelimit.tgz
  check "the RUN line ran" env PHP_INI_DIR=/usr/local/etc/php bash -ec "$step"
  installed="\`$asset\`, the RUN line"
  check "ratelimit.so in $ext_dir" test -f "$ext_dir/ratelimit.so"
  check "docker-php-ext-ratelimit.ini in conf.d" test -f /usr/local/etc/php/conf.d/docker-php-ext-ratelimit.ini
fi
check "php -m lists ratelimit" lists_ratelimit php
[ -z "$fpm" ] || check "php-fpm -m lists ratelimit" lists_ratelimit "$fpm"
ri=$(php --ri ratelimit 2>&1)
check "php --ri ratelimit names version $version" grep -qx "version => $version" <<<"$ri"
# What the .so says of its build (build.rs, at compile time) against what
# the manifest says (make dist, of the PHP it ran): the two must agree.
ri_row() { sed -n "s/^$1 => //p" <<<"$ri"; }
said_php="$(manifest php_version_built_against), API $(manifest php_api), $([ "$(manifest zts)" = 1 ] && echo ZTS || echo NTS), $([ "$(manifest debug)" = 1 ] && echo debug || echo non-debug)"
check "php --ri ratelimit: built for PHP $(ri_row 'built for PHP'), the manifest's ($said_php)" test "$(ri_row 'built for PHP')" = "$said_php"
check "php --ri ratelimit: commit $(ri_row commit), the manifest's ($(manifest commit))" test "$(ri_row commit)" = "$(manifest commit)"
check "php --ri ratelimit: target $(ri_row target), the manifest's" test "$(ri_row target)" = "$(manifest arch)-$(manifest os)-$(manifest libc)"
check "php --ri ratelimit: built against glibc $(ri_row 'built against glibc'), the manifest's ($(manifest glibc_built_against))" \
  test "$(ri_row 'built against glibc')" = "$(manifest glibc_built_against) (needs none newer)"
check "php --ri ratelimit: $(ri_row build)" grep -q '^prebuilt by make dist, on ' <<<"$(ri_row build)"
check "a limiter decides (memory://)" test "$(php -r '$l = new TokenBucketRateLimiter("memory://", "k", 2, 1); echo (int) $l->isAllowed(), (int) $l->isAllowed(), (int) $l->isAllowed();')" = 110

echo "-- the phpt suite against the installed .so and the server module's archive"
tests=(${DIST_TESTS:-php-tests/*.phpt})
out=$(RATELIMIT_SO="$ext_dir/ratelimit.so" RATELIMIT_MODULE="$module/ratelimit-redis.so" RATELIMIT_SKIP_CARGO=1 \
  RATELIMIT_RUN_TESTS=${RATELIMIT_RUN_TESTS:-} scripts/run-tests.bash "${tests[@]}" 2>&1)
echo "$out" # run-tests.bash shows failures with their diffs, the summaries and the slowest tests
read -r p f < <(grep -aE '^[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -1 | awk '{print $1, $3}')
# Each phpt run counts as one check (the total's passed and failed are tests).
if [ -z "${p:-}" ]; then fail "the phpt suite ended without a count"
else echo "  $([ "$f" = 0 ] && echo ok || echo FAIL): phpt suite: $p passed, $f failed"; passed=$((passed + p)) failed=$((failed + f)); fi

echo "-- an archive for another PHP is refused, in PHP's own words"
# refused ARCHIVE PATTERN: the .so of ARCHIVE does not load here and PHP's message matches PATTERN (grep -E).
refused() {
  local wrong=/tmp/wrong said
  rm -rf "$wrong" && mkdir -p "$wrong" && tar -xzf "$dist/$1" -C "$wrong"
  said=$(php -n -d extension="$wrong/ratelimit.so" -r 'echo extension_loaded("ratelimit") ? "LOADED" : "not loaded";' 2>&1)
  echo "$said" | sed 's/^/   | /'
  ! grep -q LOADED <<<"$said" && grep -qE "$2" <<<"$said"
}
other_ts=$([ "$zts" = zts ] && echo nts || echo zts)
if [ -f "$dist/php_ratelimit-${version}_php$series-x86_64-linux-glibc-$other_ts.tgz" ]; then
  # The other thread safety: the dynamic loader refuses it first when it
  # needs a symbol this PHP does not have (an NTS build in a ZTS PHP:
  # executor_globals), else PHP compares the build ids.
  check "the $other_ts archive of PHP $series: refused (build id, or a symbol of the other thread safety)" \
    refused "php_ratelimit-${version}_php$series-x86_64-linux-glibc-$other_ts.tgz" "These options need to match|Unable to load dynamic library .*undefined symbol"
fi
for other in "$dist"/php_ratelimit-"${version}"_php*-x86_64-linux-glibc-"$zts".tgz; do
  other=$(basename "$other")
  [ "$other" != "$asset" ] || continue
  # PHP compares the module API, unless the loader already missed a function
  # this PHP no longer has (the 8.2 build in 8.6: zend_call_known_function).
  check "the archive of another PHP ($other): refused (module API, or a function this PHP lacks)" \
    refused "$other" "Module compiled with module API=|Unable to load dynamic library .*undefined symbol"
  break
done

if [ "$mode" = debian ]; then
  if [ -n "$deb" ]; then
    echo "-- apt purge"
    check "apt-get purge php$php_version-ratelimit" apt_quiet purge -y "php$php_version-ratelimit"
  else
    echo "-- phpdismod, and the files removed"
    check "phpdismod -v $php_version ratelimit" phpdismod -v "$php_version" ratelimit
    rm -f "$ext_dir/ratelimit.so" "/etc/php/$php_version/mods-available/ratelimit.ini" /var/lib/php/modules/"$php_version"/*/*/ratelimit /var/lib/php/modules/"$php_version"/registry/ratelimit
  fi
  left=$(find /etc/php /usr/lib/php /var/lib/php -name '*ratelimit*' 2>/dev/null | tr '\n' ' ')
  check "nothing left${left:+ (left: $left)}" test -z "$left"
  check "php -m no longer lists ratelimit" eval '! lists_ratelimit php'
fi
finish
