#!/usr/bin/env bash
# `make check-dist`: make dist's files installed where their users are, on
# roots with no Rust toolchain, no C compiler and no php-dev, each step
# checked by scripts/check-dist-root.bash:
#
#   debian12       Debian 12's php8.2 (cli, fpm): apt install ./php8.2-ratelimit_….deb, the 8.2 archive
#   debian13       Debian 13's php8.4: php8.4-ratelimit, the 8.4 NTS archive (built on Debian 12)
#   sid            the same on the sid snapshot (its php8.4)
#   php85, php86   Debian experimental's php8.5 and php8.6 on sid: the 8.5 and 8.6 NTS archives
#                  (no .deb: enabled with phpenmod)
#   official-nts   PHP 8.4 NTS in /usr/local as the php:8.4-fpm image (built by make dist from
#                  Debian's php8.4 source, the official images' options) on Debian 13: the
#                  archive through docs/install.md's RUN line, enabled in conf.d as docker-php-ext-enable does
#   official-zts   the same, thread-safe (php:8.4-zts)
#   official-zts-82 PHP 8.2 ZTS the same way (php:8.2-zts; built by make dist from Debian 12's
#                  php8.2 source), on Debian 13
#
#   scripts/check-dist.bash [check ...]    default: all eight
#   DIST_TESTS="php-tests/gcra_basic.phpt …"  the phpt tests to run (default every php-tests/*.phpt)
#
# Each check runs in a throwaway overlay of a clean root (mmdebstrap, once,
# kept with make matrix's roots: dist-clean-bookworm, -trixie, -sid, -sid-php8.5, -sid-php8.6) in a
# private mount namespace: what apt installs there, and every mount, goes
# with it. The PHPs of the official checks are make dist's trees in its
# Debian 12 build root, copied to /usr/local. Needs root and make dist's
# output (dist/ and that root). Log: /var/cache/ratelimit-matrix/logs/check-dist-CHECK.log.
# Prints a table (check × system × PHP × passed/failed, when and which
# commit); a run of the whole phpt suite (no DIST_TESTS) puts its rows in
# docs/install.md's table between the dist markers, each replacing its own
# line. Ends "N passed, N failed" (every check's together).
set -uo pipefail
{
cd "$(dirname "$0")/.."
. scripts/matrix-lib.bash # dir, root_of, copy_checkout_into, stop_processes_in
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(debian12 debian13 sid php85 php86 official-nts official-zts official-zts-82)
builder=$dir/roots/dist-build-bookworm
[ -f dist/SHA256SUMS ] && [ -d "$builder/build/out" ] || { echo "no make dist output (dist/SHA256SUMS, $builder/build/out): run make dist first"; echo "0 passed, 1 failed"; exit 1; }
(cd dist && sha256sum -c --quiet SHA256SUMS) || { echo "dist/ does not match its SHA256SUMS"; echo "0 passed, 1 failed"; exit 1; }

total_passed=0 total_failed=0
table=$dir/logs/check-dist-table.$$.md # one per run: runs of different checks may overlap
echo "| row | system | PHP | installed | passed | failed | measured |" >"$table"
measured="$(date -u '+%Y-%m-%d %H:%M') $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +)"
for check in "${checks[@]}"; do
  # check → clean root, the PHP tree for /usr/local (official), the make dist variant whose run-tests.php runs the suite, the arguments inside
  case $check in
    debian12) suite=bookworm variant=8.2-nts args=(debian 8.2) ;;
    debian13) suite=trixie variant=8.4-nts args=(debian 8.4) ;;
    sid) suite=sid variant=8.4-nts args=(debian 8.4) ;;
    php85 | php86) suite=sid+php8.${check#php8} variant=8.${check#php8}-nts args=(debian "8.${check#php8}") ;;
    official-nts | official-zts) suite=trixie variant=8.4-${check#official-} args=(official) ;;
    official-zts-82) suite=trixie variant=8.2-zts args=(official) ;;
    *) echo "unknown check $check (debian12 debian13 sid php85 php86 official-nts official-zts official-zts-82)"; total_failed=$((total_failed + 1)); continue ;;
  esac
  [ -f "$builder/build/out/$variant/ratelimit.so" ] || { echo "$check: make dist built no $variant"; total_failed=$((total_failed + 1)); continue; }
  log=$dir/logs/check-dist-$check.log
  lower=$(root_of "$suite" "dist-clean-$(root_name "$suite")") || { echo "$check: no clean $suite root"; total_failed=$((total_failed + 1)); continue; }
  work=$dir/check-dist/$check
  rm -rf "$work" && mkdir -p "$work/upper" "$work/work" "$work/merged"
  upper=$work/upper
  # What the run needs, written into the overlay's upper layer before it is mounted.
  mkdir -p "$upper/etc" "$upper/build/dist"
  cp /etc/resolv.conf "$upper/etc/resolv.conf"
  { cat "$lower/etc/hosts" 2>/dev/null; printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n'; } >"$upper/etc/hosts"
  copy_checkout_into "$upper" && rmdir "$upper/root/.cargo" "$upper/root/.rustup"
  cp dist/* "$upper/build/dist/"
  env=()
  if [ "${args[0]}" = official ]; then
    tree=$builder/build/php/$variant/usr/local
    [ -x "$tree/bin/php" ] || { echo "$check: make dist built no PHP $variant ($tree)"; total_failed=$((total_failed + 1)); continue; }
    mkdir -p "$upper/usr/local" && cp -a "$tree/." "$upper/usr/local/"
  else
    cp "$builder/build/out/$variant/run-tests.php" "$upper/build/run-tests.php"
    env=(RATELIMIT_RUN_TESTS=/build/run-tests.php)
  fi
  echo "== check-dist $check (log: $log)"
  unshare --mount --propagation private bash -c '
    set -e
    work=$1 lower=$2; shift 2
    root=$work/merged
    mount -t overlay check-dist -o "lowerdir=$lower,upperdir=$work/upper,workdir=$work/work" "$root"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      DIST_TESTS="${DIST_TESTS:-}" "$@"
  ' _ "$work" "$lower" "${env[@]}" bash /build/ratelimit/scripts/check-dist-root.bash "${args[@]}" >"$log" 2>&1
  stop_processes_in "$work/merged"
  grep -aE '^  (ok|FAIL): |^-- |^   ' "$log" | grep -av '^   |' | sed "s/^/[$check] /" | grep -aE 'FAIL|^\[[a-z0-9-]*\] -- ' || true
  read -r p f < <(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 | awk '{print $1, $3}')
  echo "[$check] ${p:-0} passed, ${f:-1} failed"
  cells=$(sed -n 's/^table: //p' "$log" | tail -1)
  echo "| $check | ${cells:-– | – | –} | ${p:-0} | ${f:-1} | $measured |" >>"$table"
  total_passed=$((total_passed + ${p:-0})) total_failed=$((total_failed + ${f:-1}))
  rm -rf "$work"
done
cat "$table"
# A run of the whole suite speaks for its rows in docs/install.md's table (each its own line).
if [ -z "${DIST_TESTS:-}" ]; then
  RATELIMIT_DOCS_MARKER=dist php -n scripts/matrix-docs.php "$table" docs/install.md debian12 debian13 sid php85 php86 official-nts official-zts official-zts-82 \
    && echo "docs/install.md: the rows ${checks[*]} updated"
fi
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
}
