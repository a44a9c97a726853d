#!/usr/bin/env bash
# Reads valgrind's reports in a directory (scripts/valgrind/server.bash's):
# prints each report that has an error (a memory error, or a definite or
# indirect leak, counted as errors there) with its stacks, and ends with one
# line: "valgrind: N reports, M with errors". Exit status 1 when any has one.
#   scripts/valgrind/check-logs.bash DIR
set -uo pipefail
dir=${1:?a directory of valgrind reports}
total=0 bad=0
for log in "$dir"/*.log; do
  [ -e "$log" ] || continue
  total=$((total + 1))
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
  # A report without a summary: the server was killed (SIGKILL) before it
  # could write one; the errors it met are still in the log, as "==pid== Invalid …".
  if [ -z "$errors" ]; then
    errors=$(grep -cE '^==[0-9]+== (Invalid|Conditional|Syscall param|Mismatched|Source and destination|Argument .* of function)' "$log")
  fi
  if [ "$errors" -gt 0 ]; then
    bad=$((bad + 1))
    echo "---- $log: $errors error(s)"
    grep -vE '^==[0-9]+== (Memcheck|Copyright|Using Valgrind|Command:|Parent PID|$)' "$log" | head -120
  fi
done
echo "valgrind: $total reports, $bad with errors"
[ "$bad" -eq 0 ]
