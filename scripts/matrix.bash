#!/usr/bin/env bash
# `make matrix`: the whole suite (build, cargo test, the phpt suite) on other
# Debian releases, each in a root of its own, with the host's Rust toolchain.
#
#   scripts/matrix.bash [row ...]        default: every row below
#   TESTS=php-tests/frameworks scripts/matrix.bash sid-valkey
#                                        only those phpt tests (no cargo test)
#
# A root per Debian suite is built once with mmdebstrap and kept under
# RATELIMIT_MATRIX_DIR (default /var/cache/ratelimit-matrix, outside the work
# tree; scripts/matrix-lib.bash, shared with `make zts`); `make deps` then
# runs inside it as on a fresh machine of that release.
# Each row runs in a private mount namespace (unshare), so the binds it makes
# (/proc, /dev, ~/.cargo, ~/.rustup, the checkout) vanish with it whatever
# happens; the processes it leaves in its root are stopped by PID afterwards.
# The checkout is copied (tracked and untracked files, not target/ or
# modules/) into the root's /build/ratelimit and built there with the root's
# own target dir, so no row touches the host's build.
#
# Prints a table (row × versions × passed/failed/skipped, when and which
# commit) and writes it to RATELIMIT_MATRIX_DIR/matrix.md; a run of the whole
# suite also puts its rows into docs/install.md's support table (between its
# matrix markers), each replacing its own line. Exit status: 0 only when every
# row was built and passed; a row that cannot be built says why and fails.
set -uo pipefail
# One compound command, read whole before it runs: an edit of this file
# during a run (rows take minutes) cannot change what the run does next.
{
cd "$(dirname "$0")/.."
. scripts/matrix-lib.bash # dir, root_name, root_of, prepare_root, in_root, stop_processes_in, fetch_crates

# row  suite  server binary  what it is for
ROWS='
bookworm       bookworm  redis-server   Debian 12: PHP 8.2, phpredis 5.3, Redis 7.0, Laravel 8, Symfony 5.4
trixie-redis   trixie    redis-server   Debian 13: PHP 8.4, phpredis 6.2, Redis 8.0, openssl 3.5, Laravel 10, Symfony 6.4
trixie-valkey  trixie    valkey-server  the same against Valkey 8.1
sid-valkey     sid       valkey-server  the sid snapshot: Laravel 13, Symfony 7.4, Valkey 9.1
redis6         bookworm  redis6-server  Debian 12 against a real Redis 6.0 (bullseye'"'"'s redis-server): no Functions, EVALSHA; the server module built in bullseye
php85          sid+php8.5  redis-server   PHP 8.5 from Debian experimental on the sid snapshot, no phpredis (Debian builds none for 8.5; Laravel on predis): Redis 8.0
php85-valkey   sid+php8.5  valkey-server  the same against Valkey 9.1
php86          sid+php8.6  valkey-server  PHP 8.6 (its release candidate until Debian has the release) from experimental on the sid snapshot, no phpredis: Valkey 9.1
php86-redis    sid+php8.6  redis-server   the same against Redis 8.0
zts            source:zts  redis-server   PHP 8.4 ZTS built from source as the php:8.x-zts image (/usr/local, its conf.d): the suite, the thread tests, make install and PIE in that layout (make zts)
debug-nts      source:debug-nts  redis-server   PHP 8.4 built from source with --enable-debug: the suite with every leaked Zend allocation reported and the engine assertions on
debug-zts      source:debug-zts  redis-server   the same, thread-safe with the embed SAPI: the suite and the thread tests
asan           source:asan  redis-server   PHP 8.4 built with AddressSanitizer and UBSan (and --enable-debug), the Zend allocator off: the suite, every sanitizer report a failure
'
all_rows=$(awk 'NF {print $1}' <<<"$ROWS")
rows=("$@")
[ ${#rows[@]} -gt 0 ] || mapfile -t rows <<<"$all_rows"
for row in "${rows[@]}"; do
  grep -qx "$row" <<<"$all_rows" || { echo "unknown row: $row (rows: $(echo $all_rows))" >&2; exit 2; }
done
field() { awk -v r="$1" -v f="$2" '$1 == r {print $f}' <<<"$ROWS"; }
about() { awk -v r="$1" '$1 == r {$1 = $2 = $3 = ""; sub(/^ +/, ""); print}' <<<"$ROWS"; }

fetch_crates || exit 1

# Builds the server module inside root $1 (its C library, its libclang for
# the bindings) with the host's toolchain, into $1/build/ratelimit-redis.so;
# installs the build tools the root lacks first. Log in $2.
build_module_in() {
  local root=$1
  prepare_root "$root"
  in_root "$root" bash -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends gcc libc6-dev clang libclang-dev \
        && cd /build/ratelimit && cargo build --release --locked -p ratelimit-redis \
        && cp /build/target/release/libratelimit_redis.so /build/ratelimit-redis.so" >"$2" 2>&1
  local rc=$?
  stop_processes_in "$root"
  return $rc
}

# Runs one row; its log in $dir/logs/<row>.log, its result line in $dir/logs/<row>.result.
# One run at a time in the roots (rows that share a suite share its root):
# scripts/matrix-lib.bash took the roots' lock, which make zts, dist and
# check-dist take too.
run_row() {
  local row=$1 suite server root log=$dir/logs/$1.log result=$dir/logs/$1.result redis6= php_version=
  suite=$(field "$row" 2) server=$(field "$row" 3)
  # sid+php8.5: experimental's PHP 8.5, which make deps installs by its version.
  [ "${suite#*+php}" = "$suite" ] || php_version=${suite#*+php}
  rm -f "$result"
  if [ "${suite#source:}" != "$suite" ]; then
    # A PHP built from source: make zts's run, in its own root (it stops what it started there).
    echo "== $row: $(about "$row") (log: $log)"
    scripts/php-from-source.bash "${suite#source:}" >"$log" 2>&1
    row_result "$row" "$?"
    return
  fi
  if ! root=$(root_of "$suite"); then
    echo "$row|root not built: see $dir/logs/root-$suite.log" >"$result"; return 1
  fi
  if [ "$row" = redis6 ]; then
    redis6=$(root_of bullseye) || { echo "$row|bullseye root not built: see $dir/logs/root-bullseye.log" >"$result"; return 1; }
    # The server module, built in the bullseye root from this checkout: a
    # module linked on Debian 12 needs a newer C library than bullseye's.
    build_module_in "$redis6" "$dir/logs/redis6-module.log" \
      || { echo "$row|the server module did not build in the bullseye root: see $dir/logs/redis6-module.log" >"$result"; return 1; }
    # exec: the harness stops the server by the PID it started. The project's
    # server module (--loadmodule …/ratelimit-redis.so, from a test or the
    # package check) is that bullseye build; any other path the server could
    # not see from its root is copied into /tmp, which both roots share.
    cat >"$root/usr/local/bin/redis6-server" <<'WRAPPER'
#!/bin/sh
n=0 prev=
for a do
  shift
  if [ "$prev" = --loadmodule ]; then
    case $a in
      */ratelimit-redis.so) a=/build/ratelimit-redis.so ;;
      *) copy=/tmp/redis6-module-$$-$n.so n=$((n + 1)); cp "$a" "$copy" && a=$copy ;;
    esac
  fi
  set -- "$@" "$a"
  prev=$a
done
exec chroot /opt/redis6 /usr/bin/redis-server "$@"
WRAPPER
    chmod 755 "$root/usr/local/bin/redis6-server"
  fi
  mkdir -p "$root/opt/redis6"
  prepare_root "$root" # apt inside it (make deps), localhost, the checkout
  echo "== $row: $(about "$row") (log: $log)"
  unshare --mount --propagation private bash -c '
    set -e
    root=$1 redis6=$2
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --bind "$HOME/.cargo" "$root/root/.cargo"
    mount --bind "$HOME/.rustup" "$root/root/.rustup"
    # Redis 6 runs from the bullseye root, chrooted there; /tmp is shared so
    # the paths the harness gives it (--dir, sockets, configs, certificates) are the same.
    if [ -n "$redis6" ]; then
      mount --bind "$redis6" "$root/opt/redis6"
      mount --bind "$root/tmp" "$root/opt/redis6/tmp"
      mount -t proc proc "$root/opt/redis6/proc"
      mount --rbind /dev "$root/opt/redis6/dev"
    fi
    exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 CI="${CI:-}" \
      PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      CARGO_TARGET_DIR=/build/target CARGO_NET_OFFLINE=true TESTS="${TESTS:-}" RATELIMIT_TEST_SERVER="$3" RATELIMIT_MATRIX_ROW="$4" \
      RATELIMIT_PHP_VERSION="$5" bash /build/ratelimit/scripts/matrix-row.bash
  ' _ "$root" "$redis6" "$server" "$row" "$php_version" >"$log" 2>&1
  local rc=$?
  stop_processes_in "$root"
  [ -n "$redis6" ] && stop_processes_in "$redis6"
  row_result "$row" "$rc"
}

# Row $1's result line from its log (unless one was written already); returns $2, its exit status.
row_result() {
  local row=$1 rc=$2 log=$dir/logs/$1.log result=$dir/logs/$1.result summary
  if [ ! -s "$result" ]; then
    summary=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    echo "$row|${summary:-no summary (exit $rc): see $log}" >"$result"
  fi
  return "$rc"
}

# A failed row's reasons, so that a CI log without the row's log file says
# why: phpt diffs and FAIL lines, a cargo test's panic block (its seed and step).
failures_in() {
  awk '/^========DIFF========/ { on = 1 } /^---- .* stdout ----/ { on = 1 }
       on || /^FAIL / { print }
       /^========DONE========/ || /^failures:$/ { on = 0 }' "$1" | head -120 | sed 's/^/   | /'
}

status=0
for row in "${rows[@]}"; do
  if ! run_row "$row"; then
    status=1
    failures_in "$dir/logs/$row.log"
  fi
  tail -1 "$dir/logs/$row.log" | sed 's/^/   /'
done

# The table: what each row saw (matrix-row.bash writes /build/versions.<row>
# in its root) and how its suite ended.
table=$dir/matrix.md
# When and what: the commit measured, '+' when the checkout had changes beside it.
measured="$(date -u '+%Y-%m-%d %H:%M') $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo +)"
{
  echo "Measured by \`make matrix\` on $(date -u '+%Y-%m-%d %H:%M UTC'):"
  echo
  echo "| row | Debian | PHP | phpredis | server | openssl | Laravel | Symfony | passed | failed | skipped | measured |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for row in "${rows[@]}"; do
    root=$dir/roots/$(root_name "$(field "$row" 2)")
    versions=$(cat "$root/build/versions.$row" 2>/dev/null || echo " | | | | | | ")
    line=$(cut -d'|' -f2- "$dir/logs/$row.result" 2>/dev/null)
    if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
      # The skips allowed (tests whose subject is phpredis, on a PHP without it:
      # scripts/run-tests.bash); any other skip is counted as a failure there.
      skipped=$(grep -aoE '^skipped: [0-9]+' "$dir/logs/$row.log" | tail -1 | grep -oE '[0-9]+' || echo 0)
      echo "| $row | $versions | ${BASH_REMATCH[1]} | ${BASH_REMATCH[2]} | $skipped | $measured |"
    else
      echo "| $row | $versions | – | $line | – | $measured |"
    fi
  done
} >"$table"
cat "$table"

# A run of the whole suite speaks for the rows it ran: each replaces its own
# line of the support table, with its date and commit.
if [ -z "${TESTS:-}" ]; then
  # shellcheck disable=SC2086 # the rows, in the table's order
  php -n scripts/matrix-docs.php "$table" docs/install.md $all_rows && echo "docs/install.md: the support table's rows ${rows[*]} updated"
fi
# Every row's tests together; a row with no summary counts as one failure.
read -r total_passed total_failed < <(for row in "${rows[@]}"; do
  cut -d'|' -f2- "$dir/logs/$row.result" 2>/dev/null | grep -oE '^[0-9]+ passed, [0-9]+ failed' || echo "0 passed, 1 failed"
done | awk '{p += $1; f += $3} END {print p + 0, f + 0}')
[ "$status" -eq 0 ] && echo "every row passed" || echo "some row failed"
echo "matrix: $total_passed passed, $total_failed failed"
exit $status
}
