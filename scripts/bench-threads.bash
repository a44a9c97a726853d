#!/usr/bin/env bash
# `make bench`'s threads table (run by `make bench-threads` inside make zts's
# root, where PHP is thread-safe with the embed and FPM SAPIs): a redis-server
# of its own with the server module loaded, 16 static php-fpm workers of the
# same PHP behind nginx (FastCGI kept alive), and the embed harness
# (threads-tests/embed_threads.c) for the threads; bench/threads.php then runs
# the cases (1, 8, 16 callers; php-fpm workers, threads sharing a connection,
# threads on connections of their own; Lua and module) in interleaved rounds
# and prints a Markdown section for BENCHMARKS.md and the plot's data. Free
# loopback ports, temp dir, all stopped by PID.
#   BENCH_QUICK=1                a tiny run that only checks the harness
#   BENCH_THREADS_ROUNDS (5)     interleaved rounds
#   BENCH_THREADS_DECISIONS      decisions per run (64000)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
. scripts/php.bash # PHP_EXT_ARGS, RATELIMIT_SO
PATH="$PATH:/usr/sbin:/sbin"
WORKERS=16
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
RATELIMIT_SERVER_MODULE=$(realpath modules/ratelimit-redis.so) redis_start >/dev/null
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
pm.max_children = $WORKERS
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

# The threads table's own start load: after make bench's tables and the build
# of the extension in this root, wait for the machine to be idle again.
. scripts/load.bash
settle_load
BENCH_HARNESS=$harness BENCH_PHP_INI=$dir/php.ini BENCH_WORKER=$worker BENCH_NGINX_PORT=$nginx_port BENCH_REDIS_PORT=$REDIS_PORT \
  php -n bench/threads.php
