#!/usr/bin/env bash
# The client's user-space instructions per decision (valgrind callgrind's
# Ir): a run of N decisions minus a run of none, for each extension .so given
# and each limiter, on a redis-server of its own (Lua library) and on
# memory://. Unlike time on a shared machine, the count does not depend on
# the load, so two builds compare exactly (system calls are not in it: see
# `strace -c`). Not part of make bench (valgrind runs PHP ~50 times slower).
#   bench/instructions.bash N SO [SO...]      e.g. 2000 modules/ratelimit.so /tmp/old.so
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: $0 N SO [SO...]}; shift
. scripts/redis.bash
trap redis_stop EXIT
redis_start >/dev/null
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null php -n -d "extension=$1" bench/instructions.php "$2" "$3" "$4" 2>&1 | awk '/Collected :/{print $4}'; }
echo "| .so | target | limiter | instructions per decision |"
echo "|---|---|---|---:|"
for so in "$@"; do
  so=$(realpath "$so")
  for target in "redis://127.0.0.1:$REDIS_PORT" memory://bench; do
    for kind in fixed token gcra sliding; do
      none=$(ir "$so" "$target" 0 "$kind") some=$(ir "$so" "$target" "$n" "$kind")
      echo "| $(basename "$so") | ${target%%:*} | $kind | $(( (some - none) / n )) |"
    done
  done
done
