#!/usr/bin/env bash
# `make test-threads`: the extension under real threads. Builds
# threads-tests/embed_threads.c (a threaded PHP server in small: one
# process, N threads running requests through the embed SAPI) against the
# PHP on PATH, which must be thread-safe with the embed SAPI (make zts has
# one), then runs the phpt tests in threads-tests/ with it, in both passes
# of scripts/run-tests.bash (the Lua library, then the server module).
# Ends "N passed, N failed".
#   scripts/threads.bash [phpt files or dirs]   (default: threads-tests/)
#   scripts/threads.bash --build-only           only build the harness; print its path
set -uo pipefail
cd "$(dirname "$0")/.."
build_only=0; [ "${1:-}" = --build-only ] && build_only=1
fail() {
  if [ "$build_only" = 1 ]; then echo "$1" >&2; exit 1; fi
  echo "$1"; echo "0 passed, 1 failed"; exit 1
}
php -n -r 'exit(PHP_ZTS ? 0 : 1);' || fail "$(command -v php) is not thread-safe: the thread tests need a ZTS PHP with the embed SAPI (make zts)"
prefix=$(php-config --prefix)
[ -f "$prefix/lib/libphp.so" ] || fail "no $prefix/lib/libphp.so: the thread tests need PHP's embed SAPI (--enable-embed)"
mkdir -p target
harness=$(realpath target)/embed_threads
# shellcheck disable=SC2046 # php-config prints several -I words
cc -O2 -Wall -Wextra -Wno-unused-parameter -o "$harness" threads-tests/embed_threads.c \
  $(php-config --includes) -L"$prefix/lib" -lphp -Wl,-rpath,"$prefix/lib" -lpthread >&2 \
  || fail "threads-tests/embed_threads.c did not build"
[ "$build_only" = 1 ] && { echo "$harness"; exit 0; }
export RATELIMIT_EMBED_THREADS=$harness
RATELIMIT_SKIP_CARGO=1 exec scripts/run-tests.bash "${@:-threads-tests}"
