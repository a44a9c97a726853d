# Sourced by the benches (scripts/bench.bash, scripts/bench-threads.bash).
# The 1-minute load average is part of the report, and it remembers the last
# minute: after a build or the test suite (or, before the threads table, this
# bench's own tables) it stays high for a while on an idle machine. Wait up to
# 2 minutes for it to fall below 0.5; a machine still busy then is reported so.
settle_load() {
  local i
  [ "${BENCH_QUICK:-}" != 1 ] || return 0 # a check of the harness measures nothing
  for i in $(seq 1 24); do
    awk '{ exit !($1 < 0.5) }' /proc/loadavg && return 0
    sleep 5
  done
  echo "bench: the load average is still $(cut -d' ' -f1-3 /proc/loadavg) after 2 minutes: other processes share the CPUs" >&2
}
