# Start and stop a throwaway redis-server: free loopback port, temp dir, stopped by PID.
# Sourced by the scripts that need a test server (run-tests, demo, bench, fpm-load, plots).
#   redis_start [extra redis-server args...]  sets REDIS_PORT, REDIS_PID, REDIS_DIR, REDIS_SOCKET
#   redis_stop                                 stops it (safe to call twice, used in traps)
#   redis_crash                                SIGKILLs it, keeping its port and dir (restart tests)
#   redis_restart [extra redis-server args...]  starts it again on the same port and dir

# The server binary (RATELIMIT_TEST_SERVER: redis-server, valkey-server, or a
# wrapper running another release's) and the CLI that asks it for PONG.
REDIS_SERVER_BIN=${RATELIMIT_TEST_SERVER:-redis-server}
case $(basename "$REDIS_SERVER_BIN") in valkey*) REDIS_CLI_BIN=${RATELIMIT_TEST_CLI:-valkey-cli} ;; *) REDIS_CLI_BIN=${RATELIMIT_TEST_CLI:-redis-cli} ;; esac

# A port the kernel says is free now (bind to port 0, read it back, release it).
free_port() {
  php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0", $e, $m) or exit(1);
             echo explode(":", stream_socket_get_name($s, false))[1], "\n";'
}

redis_start() {
  REDIS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-redis.XXXXXX")
  REDIS_SOCKET="$REDIS_DIR/redis.sock"
  local attempt
  for attempt in 1 2 3 4 5; do
    REDIS_PORT=$(free_port) || return 1
    redis_launch "$@" && return 0
  done
  echo "could not start $REDIS_SERVER_BIN (see $REDIS_DIR/redis.log)" >&2
  return 1
}

# One redis-server on REDIS_PORT in REDIS_DIR; 0 once it answers PING, 1 when
# it died first (the port was taken in between).
# RATELIMIT_SERVER_MODULE: the server module to load (the second pass of make test).
redis_launch() {
  "$REDIS_SERVER_BIN" ${RATELIMIT_SERVER_MODULE:+--loadmodule "$RATELIMIT_SERVER_MODULE"} \
    --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" \
    --unixsocket "$REDIS_SOCKET" --unixsocketperm 700 \
    --save '' --appendonly no --daemonize no --logfile "$REDIS_DIR/redis.log" "$@" &
  REDIS_PID=$!
  local i
  # 5 s, or RATELIMIT_TEST_SLOW times that (a server under valgrind).
  for i in $(seq 1 $((100 * ${RATELIMIT_TEST_SLOW:-1}))); do
    if "$REDIS_CLI_BIN" -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
      export REDIS_PORT REDIS_PID REDIS_DIR REDIS_SOCKET
      return 0
    fi
    kill -0 "$REDIS_PID" 2>/dev/null || break
    sleep 0.05
  done
  kill "$REDIS_PID" 2>/dev/null; wait "$REDIS_PID" 2>/dev/null
  REDIS_PID=
  return 1
}

# A crash, not a shutdown: clients see their connections reset, nothing is saved.
redis_crash() {
  if [ -n "${REDIS_PID:-}" ]; then
    kill -KILL "$REDIS_PID" 2>/dev/null; wait "$REDIS_PID" 2>/dev/null
    REDIS_PID=
  fi
}

# Same port, so clients holding the old address must reconnect by themselves.
# The port was ours a moment ago, but another process may take it meanwhile:
# a few tries, then give up (the caller's test fails rather than moving port).
redis_restart() {
  local attempt
  for attempt in 1 2 3 4 5; do
    redis_launch "$@" && return 0
    sleep 0.2
  done
  echo "could not restart redis-server on port $REDIS_PORT (see $REDIS_DIR/redis.log)" >&2
  return 1
}

redis_stop() {
  if [ -n "${REDIS_PID:-}" ]; then
    kill "$REDIS_PID" 2>/dev/null && wait "$REDIS_PID" 2>/dev/null
    REDIS_PID=
  fi
  if [ -n "${REDIS_DIR:-}" ]; then
    rm -rf "$REDIS_DIR"
    REDIS_DIR=
  fi
}
