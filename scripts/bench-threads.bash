#!/usr/bin/env bash
# `make bench`'s threads row (run by `make bench-threads` inside make zts's
# root, where PHP is thread-safe with the embed and FPM SAPIs): decisions per
# second from 16 threads of one process (threads-tests/embed_threads.c, what
# FrankenPHP's worker threads do) against 16 php-fpm workers of the same PHP
# behind nginx (ab -c 16), each request making the same 100 token bucket
# decisions (bench/threads_worker.php) on one redis-server of its own
# (the Lua library; free loopback ports, temp dir, all stopped by PID).
# 3 runs of 80,000 decisions per side, alternating; the median is reported.
# Prints a Markdown section for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
. scripts/php.bash # PHP_EXT_ARGS, RATELIMIT_SO
PATH="$PATH:/usr/sbin:/sbin"
THREADS=16 REQUESTS=800 DECISIONS=100 RUNS=3
harness=$(scripts/threads.bash --build-only)
php_fpm=$(php_fpm_path)
dir=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-bench-threads.XXXXXX")
FPM_PID= NGINX_PID=
stop_pid() { [ -n "$1" ] || return 0; kill -TERM "$1" 2>/dev/null || return 0; wait "$1" 2>/dev/null || true; }
cleanup() { stop_pid "$NGINX_PID"; stop_pid "$FPM_PID"; redis_stop; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
wait_port() {
  local i
  for i in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done
  return 1
}
redis_start >/dev/null
url="redis://127.0.0.1:$REDIS_PORT"
worker=$(realpath bench/threads_worker.php)

# The threaded process's php.ini: what the FPM workers get on their command line.
{
  echo "extension_dir=$(php -n -r 'echo ini_get("extension_dir");')"
  for arg in "${PHP_EXT_ARGS[@]}"; do [ "$arg" = -d ] || echo "$arg"; done
  echo "extension=$RATELIMIT_SO"
  echo "ratelimit.redis_url=\"$url\""
} >"$dir/php.ini"

fpm_port=$(free_port) nginx_port=$(free_port)
as_root=(); [ "$(id -u)" = 0 ] && as_root=(-R)
cat >"$dir/fpm.conf" <<CONF
[global]
error_log = $dir/fpm.log
[bench]
user = $(id -un)
group = $(id -gn)
listen = 127.0.0.1:$fpm_port
listen.backlog = 1024
pm = static
pm.max_children = $THREADS
pm.max_requests = 0
CONF
"$php_fpm" -c "$dir/php.ini" "${as_root[@]}" -y "$dir/fpm.conf" -F >"$dir/fpm.out" 2>&1 &
FPM_PID=$!
mkdir -p "$dir/tmp"
user_line=; [ "$(id -u)" = 0 ] && user_line='user root;'
cat >"$dir/nginx.conf" <<CONF
$user_line
worker_processes 1;
error_log $dir/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/tmp/body; fastcgi_temp_path $dir/tmp/fastcgi; proxy_temp_path $dir/tmp/proxy;
  uwsgi_temp_path $dir/tmp/uwsgi; scgi_temp_path $dir/tmp/scgi;
  upstream fpm { server 127.0.0.1:$fpm_port; keepalive 32; }
  server {
    listen 127.0.0.1:$nginx_port;
    location / {
      fastcgi_pass fpm;
      fastcgi_keep_conn on;
      fastcgi_param SCRIPT_FILENAME $worker;
      fastcgi_param REQUEST_METHOD \$request_method;
      fastcgi_param QUERY_STRING \$query_string;
    }
  }
}
CONF
nginx -e "$dir/nginx-error.log" -p "$dir" -c "$dir/nginx.conf" -g "daemon off; pid $dir/nginx.pid;" >"$dir/nginx.out" 2>&1 &
NGINX_PID=$!
wait_port "$fpm_port" || { cat "$dir/fpm.out" "$dir/fpm.log" >&2; exit 1; }
wait_port "$nginx_port" || { cat "$dir/nginx.out" >&2; exit 1; }

per_thread=$((REQUESTS / THREADS))
total=$((REQUESTS * DECISIONS))
# Decisions per second of one run of each side.
run_threads() {
  local t0 t1 ok
  t0=$(date +%s.%N)
  ok=$("$harness" -c "$dir/php.ini" -t "$THREADS" -r "$per_thread" -q "decisions=$DECISIONS" "$worker" | grep -c '^ok$')
  t1=$(date +%s.%N)
  [ "$ok" -eq "$REQUESTS" ] || { echo "threads: $ok of $REQUESTS requests answered" >&2; exit 1; }
  awk -v n="$total" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", n / (b - a)}'
}
run_fpm() {
  local out
  out=$(ab -q -k -n "$REQUESTS" -c "$THREADS" "http://127.0.0.1:$nginx_port/?decisions=$DECISIONS")
  grep -q "^Failed requests: *0" <<<"$out" && ! grep -q "^Non-2xx" <<<"$out" || { echo "fpm: $out" >&2; exit 1; }
  awk -v n="$total" '/^Time taken for tests/ {printf "%.0f", n / $5}' <<<"$out"
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
# Warm-up (connections, the library loaded), then alternating runs.
run_threads >/dev/null; run_fpm >/dev/null
threads=() fpm=()
for _ in $(seq 1 "$RUNS"); do threads+=("$(run_threads)"); fpm+=("$(run_fpm)"); done
redis_conns=$("$REDIS_CLI_BIN" -p "$REDIS_PORT" INFO stats | tr -d '\r' | awk -F: '$1 == "total_connections_received" {print $2}')
t=$(median "${threads[@]}") f=$(median "${fpm[@]}")
cat <<MD
## Threads: one process against PHP-FPM (issue 22)

$(php -n -r 'echo "PHP ", PHP_VERSION, PHP_ZTS ? " ZTS" : "", ", ";')$("$REDIS_SERVER_BIN" --version | awk '{print $1, $3}' | tr -d 'v='), the Lua library; $REQUESTS requests of $DECISIONS token bucket decisions each (\`bench/threads_worker.php\`), $RUNS alternating runs of $total decisions per side, median (all runs in brackets). Threads: $THREADS threads of one process (\`threads-tests/embed_threads.c\`: what FrankenPHP's worker threads do), whose pool holds at most 8 connections per target. PHP-FPM: $THREADS static workers of the same PHP behind nginx (FastCGI kept alive), driven by \`ab -k -c $THREADS\`, one connection per worker. Both share this machine's cores with Redis and each other's clients.

| server | decisions/s | runs |
|---|---:|---|
| $THREADS threads, one process | $t | ${threads[*]} |
| $THREADS php-fpm workers | $f | ${fpm[*]} |
| threads ÷ php-fpm | $(awk -v a="$t" -v b="$f" 'BEGIN {printf "%.2f", a / b}') | |

Redis accepted $redis_conns connections over the whole run (warm-up included; the threads reuse theirs within each run's process, the workers theirs across all runs).
MD
