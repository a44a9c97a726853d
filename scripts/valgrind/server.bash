#!/usr/bin/env bash
# A redis-server (or valkey-server: RATELIMIT_VALGRIND_SERVER_BIN) under
# valgrind memcheck, as the test harness starts servers: it takes the
# server's arguments and becomes that server (exec: same pid, so the harness
# stops it by pid as it stops any server). `make test-valgrind-server` puts
# it in RATELIMIT_TEST_SERVER, so every server of the module pass and of the
# Rust tests runs the server module under valgrind. Each server writes its
# report to RATELIMIT_VALGRIND_LOGS/server-<pid>.log; the run reads them all
# afterwards (scripts/valgrind/check-logs.bash).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=${RATELIMIT_VALGRIND_LOGS:?RATELIMIT_VALGRIND_LOGS names the directory for the reports}
# --leak-check=full with definite and indirect leaks counted as errors: a
# leak of the module shows as an error with its allocation's stack.
# --child-silent-after-fork: a server forks for BGSAVE/replication; its
# children are not what is checked.
exec valgrind --tool=memcheck --error-exitcode=0 --leak-check=full --show-leak-kinds=definite,indirect \
  --errors-for-leak-kinds=definite,indirect --child-silent-after-fork=yes --num-callers=30 \
  --suppressions="$here/server.supp" --log-file="$logs/server-%p.log" \
  "${RATELIMIT_VALGRIND_SERVER_BIN:-redis-server}" "$@"
