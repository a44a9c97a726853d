#!/usr/bin/env bash
# `make test`: the Rust tests, then the .phpt suite twice against the built
# extension, each pass with a redis-server of its own started here (free
# loopback port, temp dir, stopped by PID, also on failure): once as most
# servers run (the Lua library decides), once with the project's server
# module loaded into every server the tests start (its native commands
# decide; the extension finds them by itself). The two passes run at the
# same time, each with run-tests.php's parallel workers (-j2): most tests
# wait on servers, clocks and timeouts, not on the CPU. Tests keep apart by
# keys of their own (rl_prefix) and by servers of their own on free ports.
# The tests that take 5 s or more (run-tests.php's slow list: clusters and
# sentinels started, failed over or stalled, the soak, 8-process races, the
# apps under php-fpm and nginx), whose assertions have time bounds or which
# load the machine, name the conflict key "heavy"
# (--CONFLICTS--): run-tests.php runs one of them at a time per pass, the
# other worker meanwhile the rest, so at most two run at once, as when the
# passes ran one after the other with -j2 (two of them at once, each
# starting six servers, missed their bounds at load 15).
# run-tests.php writes each test's files (.php, .out, .diff) beside the
# .phpt, so the module's pass runs in a copy of php-tests/ whose directory
# links to everything else in the checkout. The Rust tests build meanwhile
# (at nice 10) and run after the suite. Prints how long it all took, with
# the load average, then ends with one line: "N passed, N failed".
#
#   scripts/run-tests.bash [phpt files or dirs...]   (default: php-tests/)
# Environment: RATELIMIT_SO (the .so, default modules/ratelimit.so),
#              RATELIMIT_MODULE (the server module, default modules/ratelimit-redis.so),
#              RATELIMIT_MODULE_PASS=no|only: without / only the pass with the module,
#              RATELIMIT_ALLOW_SKIP=1 to let skipped tests pass (never in CI;
#              the skips allowed without it, counted and listed apart: a test
#              whose subject is phpredis, on a PHP without the redis extension,
#              "skipped: N (phpredis ...)"; a Yii test where that Yii is not
#              laid out (php-tests/frameworks/yii.inc: make yii-vendor, or
#              Composer), "skipped: N (Yii not laid out ...)"),
#              RATELIMIT_SKIP_CARGO=1 to run only the phpt suite,
#              RATELIMIT_TEST_JOBS: run-tests.php's workers per pass (default 2),
#              RATELIMIT_TEST_SERIAL=1: one pass after the other (the default
#              under valgrind, whose processes are many times the size),
#              RATELIMIT_RUN_TESTS: PHP's run-tests.php (default: php-dev's or the PHP prefix's),
#              RATELIMIT_VALGRIND=1: every test's PHP under valgrind memcheck (make test-valgrind),
#              RATELIMIT_VALGRIND_SERVER=1: every redis-server under valgrind memcheck, the
#              server module in it (make test-valgrind-server); each server's report is read
#              after the run, and one with an error counts as a failed test.
set -uo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
if [ "${RATELIMIT_VALGRIND_SERVER:-0}" = 1 ]; then
  # Set before redis.bash reads it: every server this run starts, and every
  # one the tests start (config.inc, tests/support), is the wrapper's.
  export RATELIMIT_VALGRIND_SERVER_BIN=${RATELIMIT_TEST_SERVER:-redis-server}
  export RATELIMIT_TEST_SERVER=$PWD/scripts/valgrind/server.bash
  export RATELIMIT_NOT_COUNTED=${RATELIMIT_NOT_COUNTED:-$PWD/scripts/valgrind/server-slowed.txt}
  export RATELIMIT_VALGRIND_LOGS=${RATELIMIT_VALGRIND_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-valgrind.XXXXXX")}
  # A server under valgrind starts and answers several times slower.
  export RATELIMIT_TEST_SLOW=${RATELIMIT_TEST_SLOW:-6}
fi
. scripts/redis.bash
. scripts/php.bash # PHP_ARGS: php -n, the extensions the tests need, the .so

so=$RATELIMIT_SO
module=$(realpath "${RATELIMIT_MODULE:-modules/ratelimit-redis.so}")
[ -f "$module" ] || { echo "no server module at $module (make module)"; echo "0 passed, 1 failed"; exit 1; }
passed=0; failed=0; skipped_phpredis=0; skipped_yii=0
work=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-phpt.XXXXXX")
# What runs in the background (the Rust tests' build, the phpt passes), by PID.
bg_pids=()
trap 'stop_background; redis_stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The processes below $1, by PID (read from /proc: ps may not be installed).
children_of() {
  local f line rest
  for f in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$f" || continue
    rest=${line##*) }; rest=${rest#* }
    [ "${rest%% *}" = "$1" ] && { f=${f#/proc/}; echo "${f%/stat}"; }
  done
}
# Stops a process and everything below it, by PID (a pass cut short: its
# run-tests.php, their tests, the servers they started).
stop_tree() {
  local child
  kill -STOP "$1" 2>/dev/null || return 0
  for child in $(children_of "$1"); do stop_tree "$child"; done
  kill -KILL "$1" 2>/dev/null
}
# What still runs in the background when this script ends early
# (interrupted): what each started is stopped, then it is told to end (a
# pass then stops its redis-server and removes its dir: its EXIT trap).
stop_background() {
  local pid child
  for pid in "${bg_pids[@]}"; do
    kill -STOP "$pid" 2>/dev/null || continue
    for child in $(children_of "$pid"); do stop_tree "$child"; done
    kill -TERM "$pid" 2>/dev/null; kill -CONT "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  bg_pids=()
}

# 1. The Rust tests' build, most of their time (the tests themselves take
# seconds): in the background at nice 10 while the phpt suite runs, which
# mostly waits on servers and clocks and comes first for the CPU (nice 19
# starved the build behind other builds on a shared machine). The tests run
# after the suite (4.).
cargo_tests=0
if [ "${RATELIMIT_SKIP_CARGO:-0}" != 1 ]; then
  cargo_tests=1 cargo_started=$SECONDS
  nice -n 10 cargo test --release --quiet --no-run >"$work/cargo-build.log" 2>&1 &
  cargo_build_pid=$!
  bg_pids+=("$cargo_build_pid")
fi

# 4. The Rust tests, once built; their servers load the module (the tables
# and the differential test run on the Lua library, the module and the core).
cargo_run() {
  wait "$cargo_build_pid"
  cargo_out=$(RATELIMIT_SERVER_MODULE=$module cargo test --release --quiet 2>&1); cargo_rc=$?
  cargo_took=$((SECONDS - cargo_started))
  echo "$cargo_out" | grep -E "^test result|FAILED|panicked" || true
  read -r cp cf < <(echo "$cargo_out" | awk '/^test result/ {p += $4; f += $6} END {print p+0, f+0}')
  passed=$((passed + cp)); failed=$((failed + cf))
  # A failing test's own words (its assertion, the seed and step it names),
  # so a run that fails once can be read after the fact.
  [ "$cf" -gt 0 ] && echo "$cargo_out" | awk '/^---- .* stdout ----$/ {show = 1} /^failures:$/ && show {exit} show' | head -80
  if [ "$cargo_rc" -ne 0 ] && [ "$cf" -eq 0 ]; then
    echo "$cargo_out" | tail -30; echo "cargo test failed to build or run"; failed=$((failed + 1))
  fi
}

# 2. The extension must load, or run-tests.php would skip everything and exit 0.
if ! php "${PHP_ARGS[@]}" -r 'exit(extension_loaded("ratelimit") ? 0 : 1);'; then
  echo "the extension did not load: $so"
  echo "$passed passed, $((failed + 1)) failed"; exit 1
fi

# Whether this PHP has phpredis: without it, the tests whose subject is
# phpredis (php-tests/skipif.inc: $phpredis) skip with one reason, and only
# those skips are allowed. Everything else needs no phpredis.
has_phpredis=1
php "${PHP_ARGS[@]}" -r 'exit(extension_loaded("redis") ? 0 : 1);' || has_phpredis=0
phpredis_skip='^SKIP .* reason: phpredis is the subject '
# A Yii test without its framework (no registry to install it from: make
# yii-vendor lays it out from git repositories when they are here).
yii_skip='^SKIP .* reason: Yii [0-9.]+ \(.*\) is not laid out: '

# 3. The phpt suite, against a redis-server of our own: a pass per server
# kind. RATELIMIT_SERVER_MODULE tells the tests' own servers (config.inc) to
# load the module too.
# Debian's php-dev keeps it under the extension dir; a PHP built from source
# (make zts: /usr/local) under <prefix>/lib/php/build; RATELIMIT_RUN_TESTS
# names it where there is no php-dev (make check-dist's roots).
run_tests=${RATELIMIT_RUN_TESTS:-$(php-config --extension-dir)/build/run-tests.php}
[ -f "$run_tests" ] || run_tests=$(php-config --prefix)/lib/php/build/run-tests.php
[ -f "$run_tests" ] || run_tests=$(find /usr/lib/php -name run-tests.php | head -1)
export RATELIMIT_TEST_SO=$so RATELIMIT_MODULE_SO=$module NO_INTERACTION=1 TEST_PHP_EXECUTABLE=$(command -v php)
log=$work/pass.log
# RATELIMIT_VALGRIND=1: every test under valgrind memcheck (run-tests.php -m,
# Zend allocator off so valgrind sees each allocation); LEAK counts as failure.
# PCRE's JIT is off there: valgrind reports its generated code's reads as errors.
# VALGRIND_OPTS adds to run-tests.php's own options: a definite or indirect
# leak is an error, reported with its allocation's stack, each suppression
# explained in php.supp; the servers, nginx and the tools the tests start
# are not traced (their own pass: RATELIMIT_VALGRIND_SERVER). Every process
# writes a report of its own, TEST.mem.PID (scripts/valgrind/bin/valgrind,
# first on PATH), all of which scripts/valgrind/php-report.php judges after
# the pass: run-tests.php's LEAK, which looks at TEST.mem, is not used.
extra=()
if [ "${RATELIMIT_VALGRIND:-0}" = 1 ]; then
  extra+=(-m -d pcre.jit=0)
  export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1 PATH=$PWD/scripts/valgrind/bin:$PATH
  export RATELIMIT_NOT_COUNTED=${RATELIMIT_NOT_COUNTED:-$PWD/scripts/valgrind/slowed.txt}
  export VALGRIND_OPTS="--leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --num-callers=30 \
--suppressions=$PWD/scripts/valgrind/php.supp \
--trace-children-skip=*redis-server,*valkey-server,*redis-sentinel,*valkey-sentinel,*server.bash,*redis-cli,*valkey-cli,*nginx,*openssl,*/ab,*/true"
fi
# The tests run-tests.php's log marks $1 (PASS, FAIL), by their file names.
tests_marked() { grep -aoE "^$1 .* \[[^]]+\.phpt\]" "$log" | sed -E 's/.* \[([^]]+)\]$/\1/' | sort -u; }
count() { awk -v k="$1" -F: '$1 ~ "^Tests " k {gsub(/ /, "", $2); split($2, a, "("); print a[1]+0; exit}' "$log"; }

# One pass: $1 names it, $2 is the module to load ('' for none); the rest are the tests.
phpt_pass() {
  local label=$1 with=$2; shift 2
  echo "-- the phpt suite, $label"
  if [ -n "$with" ]; then export RATELIMIT_SERVER_MODULE=$with; else unset RATELIMIT_SERVER_MODULE; fi
  redis_start || { failed=$((failed + 1)); return; }
  [ "${RATELIMIT_VALGRIND:-0}" != 1 ] || find php-tests -name '*.mem.*' -delete
  export RATELIMIT_TEST_PORT=$REDIS_PORT RATELIMIT_TEST_SOCKET=$REDIS_SOCKET
  # Shown: failures with their diffs and the summary; passes are only counted.
  # -n and the -d options pass on to every test's php: no php.ini, no conf.d, so
  # an installed copy of the extension never loads instead of this build.
  php -n "$run_tests" "${extra[@]}" -q --show-diff --no-color --no-progress --set-timeout 600 --show-slow 5000 -j"${RATELIMIT_TEST_JOBS:-2}" \
    -n "${PHP_EXT_ARGS[@]}" -d extension="$so" -d ratelimit.redis_url="redis://127.0.0.1:$REDIS_PORT" \
    "${@:-php-tests}" 2>&1 | tee "$log" | sed -n '/^Running selected tests/,$p' | grep -a -vE '^(PASS|SKIP) |^Running|^Spawning|^=+$'
  redis_stop
  local p f b w l s
  p=$(count passed); f=$(count failed); b=$(count borked); w=$(count warned); l=$(count leaked); s=$(count skipped)
  p=${p:-0}; f=${f:-0}; b=${b:-0}; w=${w:-0}; l=${l:-0}; s=${s:-0}
  if [ "$((p + f + b + w + l + s))" -eq 0 ]; then
    echo "run-tests.php ran no test"; failed=$((failed + 1))
  fi
  if [ "${RATELIMIT_VALGRIND:-0}" = 1 ]; then
    # What counts is a memory error in any process, or a leak of the
    # extension in a process that shut down (scripts/valgrind/php-report.php
    # says why); each test with one counts as leaked.
    local mems report
    mapfile -t mems < <(find php-tests -name '*.mem.*' | sort)
    report=$(php -n scripts/valgrind/php-report.php "${mems[@]}")
    tail -200 <<<"$report"
    l=$(sed -n 's/^valgrind: [0-9]* processes of [0-9]* tests, \([0-9]*\) tests count$/\1/p' <<<"$report")
    l=${l:-1}
    # A test whose reports count is a failure, whatever its output: one that
    # also matched its expected output is taken out of the passed count.
    local counted_passing
    counted_passing=$(sed -n 's/^---- \(.*\)\.mem: [0-9]* record(s) that count.*/\1.phpt/p' <<<"$report" \
      | grep -xFf <(tests_marked PASS) || true)
    [ -z "$counted_passing" ] || p=$((p - $(wc -l <<<"$counted_passing")))
  fi
  # RATELIMIT_NOT_COUNTED names a file of tests whose own assertions an
  # instrument's pace or memory use breaks, each with why (valgrind:
  # scripts/valgrind/slowed.txt and server-slowed.txt; the asan row:
  # scripts/asan/not-counted.txt; the debug rows: scripts/debug/slowed.txt).
  # Their FAIL is shown and not counted; the instrument's reports of them
  # count as every test's do.
  if [ -n "${RATELIMIT_NOT_COUNTED:-}" ]; then
    local excused
    excused=$(tests_marked FAIL \
      | grep -xFf <(sed -E 's/[[:space:]]*#.*//; /^$/d' "$RATELIMIT_NOT_COUNTED") || true)
    # What the instrument is there for still counts: a debug PHP's leak
    # report or a failed engine assertion in such a test's output.
    local t instrument=""
    for t in $excused; do
      grep -qaE 'memory leaks detected|\[Memory leaked\]|Assertion .* failed' "${t%.phpt}.out" 2>/dev/null && instrument="$instrument$t"$'\n'
    done
    [ -z "$instrument" ] || excused=$(grep -vxF -f <(printf '%s' "$instrument") <<<"$excused" || true)
    if [ -n "$excused" ]; then
      echo "failed, not counted ($RATELIMIT_NOT_COUNTED says why): $(wc -l <<<"$excused")"
      sed 's/^/  /' <<<"$excused"
      f=$((f - $(wc -l <<<"$excused")))
    fi
  fi
  local np=0
  if [ "$has_phpredis" = 0 ]; then
    np=$(grep -caE "$phpredis_skip" "$log")
    skipped_phpredis=$((skipped_phpredis + np))
    grep -aE "$phpredis_skip" "$log" | sed 's/^/  /'
  fi
  local ny
  ny=$(grep -caE "$yii_skip" "$log")
  skipped_yii=$((skipped_yii + ny))
  grep -aE "$yii_skip" "$log" | sed 's/^/  /'
  np=$((np + ny))
  if [ "$((s - np))" -gt 0 ] && [ "${RATELIMIT_ALLOW_SKIP:-0}" != 1 ]; then
    echo "$((s - np)) test(s) skipped: a skipped test tests nothing (RATELIMIT_ALLOW_SKIP=1 to allow)"
    grep -aE '^SKIP ' "$log" | grep -avE "$phpredis_skip|$yii_skip"
    f=$((f + s - np))
  fi
  passed=$((passed + p)); failed=$((failed + f + b + w + l))
}

lua_label="the Lua library deciding"
module_label="the server module loaded (its commands decide)"
serial=${RATELIMIT_TEST_SERIAL:-0}
[ "${RATELIMIT_VALGRIND:-0}" = 1 ] || [ "${RATELIMIT_VALGRIND_SERVER:-0}" = 1 ] && serial=${RATELIMIT_TEST_SERIAL:-1}
phpt_started=$SECONDS

if [ "${RATELIMIT_MODULE_PASS:-}" = only ] || [ "${RATELIMIT_MODULE_PASS:-}" = no ] || [ "$serial" = 1 ]; then
  [ "${RATELIMIT_MODULE_PASS:-}" = only ] || phpt_pass "$lua_label" "" "$@"
  [ "${RATELIMIT_MODULE_PASS:-}" = no ] || phpt_pass "$module_label" "$module" "$@"
else
  # Both passes at once. The module's runs in $work/tree: a copy of
  # php-tests/ (run-tests.php writes each test's files beside it) and links
  # to the rest of the checkout, so that the tests' own paths (__DIR__,
  # dirname(__DIR__): bench/, examples/, docs, modules/) are the same.
  tree=$work/tree
  mkdir -p "$tree"
  for entry in * .[!.]*; do
    [ "$entry" = php-tests ] || [ ! -e "$entry" ] || ln -s "$PWD/$entry" "$tree/$entry"
  done
  cp -a php-tests "$tree/php-tests"
  # Tests named by an absolute path in the checkout are named in the copy.
  tests=()
  for t in "$@"; do tests+=("${t#"$PWD"/}"); done
  echo "-- the phpt suite, both passes at once, -j${RATELIMIT_TEST_JOBS:-2} each: $lua_label; $module_label"
  run_pass() {
    local name=$1 at=$2 label=$3 with=$4; shift 4
    (
      cd "$at" || exit 1
      log=$work/$name.log passed=0 failed=0 skipped_phpredis=0 skipped_yii=0
      trap redis_stop EXIT
      trap 'exit 143' TERM
      phpt_pass "$label" "$with" "$@"
      echo "$passed $failed $skipped_phpredis $skipped_yii" >"$work/$name.result"
    ) >"$work/$name.out" 2>&1 &
    bg_pids+=($!)
  }
  run_pass lua . "$lua_label" "" "${tests[@]}"
  run_pass module "$tree" "$module_label" "$module" "${tests[@]}"
  wait "${bg_pids[@]: -2}"
  for name in lua module; do
    cat "$work/$name.out"
    if read -r p f sp sy <"$work/$name.result" 2>/dev/null; then
      passed=$((passed + p)) failed=$((failed + f)) skipped_phpredis=$((skipped_phpredis + sp)) skipped_yii=$((skipped_yii + sy))
    else
      echo "the $name pass ended without a count"; failed=$((failed + 1))
    fi
  done
fi
phpt_took=$((SECONDS - phpt_started))
[ "$cargo_tests" = 0 ] || cargo_run
bg_pids=()
[ "$has_phpredis" = 1 ] || echo "skipped: $skipped_phpredis (phpredis is their subject and this PHP has no redis extension)"
[ "$skipped_yii" = 0 ] || echo "skipped: $skipped_yii (Yii not laid out: make yii-vendor, see docs/frameworks.md)"
if [ "${RATELIMIT_VALGRIND_SERVER:-0}" = 1 ]; then
  # Every server's report; one with an error is a failure.
  echo "-- valgrind's reports of the servers ($RATELIMIT_VALGRIND_LOGS)"
  scripts/valgrind/check-logs.bash "$RATELIMIT_VALGRIND_LOGS" | tail -200
  bad=$(scripts/valgrind/check-logs.bash "$RATELIMIT_VALGRIND_LOGS" | sed -n 's/^valgrind: [0-9]* reports, \([0-9]*\) with errors$/\1/p')
  failed=$((failed + ${bad:-1}))
fi
took=$((SECONDS - started))
parts="the phpt suite $phpt_took s"
[ -z "${cargo_took:-}" ] || parts="$parts; cargo test, built alongside it, $cargo_took s in all"
echo "took $((took / 60)) min $((took % 60)) s ($parts); load average now $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
