#!/usr/bin/env bash
# `make test-fpm`: the extension in a real PHP-FPM pool behind nginx, under load.
#
# Starts, on loopback ports the kernel says are free and in a temp dir, a
# redis-server, the php-fpm of the PHP on PATH (php-fpmX.Y; 4 static workers, the extension loaded, no system
# php.ini) and nginx passing every request to examples/fpm/limit.php over
# FastCGI; all are stopped by PID on exit, also on failure. Then, with ab:
#   1. 6 client ids x 700 requests at once: exactly 100 accepted (HTTP 200) per
#      id, the rest 429, in nginx's access log, ab's counts and Redis' counters;
#      Redis sees at most one connection per worker, opened once and reused.
#   2. Redis killed (SIGKILL) and restarted on the same port while ab runs:
#      503 while it is down, 200/429 again after, exact counts on the new
#      server, the same 4 worker PIDs before and after, no worker crashed.
# Prints the figures; exits non-zero when an assertion failed.
# Environment: RATELIMIT_SO (the .so, default modules/ratelimit.so),
#              RATELIMIT_FPM_KEEP=1 to keep the temp dir (logs) afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
PATH="$PATH:/usr/sbin:/sbin" # php-fpmX.Y and nginx live there; not in every user's PATH
# The FPM of the same PHP as the CLI that runs the tests.
. scripts/php.bash # php_fpm_path
php_fpm=$(php_fpm_path) || { echo "fpm-load: no php-fpm for $(command -v php) (make deps installs Debian's)"; exit 2; }

WORKERS=4 IDS=6 EACH=700 CONC=8 LIMIT=100 # LIMIT must match examples/fpm/limit.php
so=$(realpath "${RATELIMIT_SO:-modules/ratelimit.so}")
app=$(realpath examples/fpm/limit.php)
failures=0
fail() { echo "  FAIL: $*"; failures=$((failures + 1)); }
now() { date +%s.%N; }
calc() { awk "BEGIN {printf \"%.2f\", $*}"; }
t0=$(now)

for tool in "$php_fpm" nginx ab "$REDIS_SERVER_BIN" "$REDIS_CLI_BIN"; do
  command -v "$tool" >/dev/null || { echo "fpm-load: $tool not found (make deps installs it)"; exit 2; }
done
[ -f "$so" ] || { echo "fpm-load: no $so (make build)"; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-fpm.XXXXXX")
FPM_PID= NGINX_PID= SAMPLER_PID= AB_PIDS=()
# Stops what this script started, by PID; TERM first, KILL for what lingers.
stop_pid() {
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || return 0
  local i
  for i in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}
cleanup() {
  local p
  for p in "${AB_PIDS[@]}" "$SAMPLER_PID"; do stop_pid "$p"; done
  stop_pid "$NGINX_PID"; stop_pid "$FPM_PID"
  if [ "$failures" -gt 0 ] || [ "${RATELIMIT_FPM_KEEP:-0}" = 1 ]; then
    echo "--- fpm log (tail)"; tail -n 20 "$dir/fpm.log" 2>/dev/null
    echo "--- nginx error log (tail)"; tail -n 20 "$dir/nginx-error.log" 2>/dev/null
  fi
  if [ "${RATELIMIT_FPM_KEEP:-0}" = 1 ]; then echo "kept $dir"; else rm -rf "$dir"; fi
  redis_stop
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Every redis-cli connection this script makes is counted (a line in a file:
# most calls run in subshells), so that Redis' total_connections_received
# minus ours is what the FPM workers opened.
rcli() { echo >>"$dir/checker"; "$REDIS_CLI_BIN" -p "$REDIS_PORT" "$@"; }
checker_conns() { wc -l <"$dir/checker"; }
# CLIENT LIST without the asking connection: "id=... addr=..." lines.
others() { printf 'CLIENT ID\nCLIENT LIST\n' | rcli | awk 'NR == 1 {me = "id=" $1 " "; next} index($0, me) != 1'; }
redis_stat() { rcli INFO stats | tr -d '\r' | awk -F: -v k="$1" '$1 == k {print $2}'; }

# --- servers ------------------------------------------------------------------
redis_start || exit 1
echo >"$dir/checker" # redis_start's PING
user=$(id -un) group=$(id -gn)
as_root=(); [ "$(id -u)" = 0 ] && as_root=(-R) # FPM refuses root workers without -R

# php-fpm listening on $1 (FastCGI); sets FPM_PID.
launch_fpm() {
  cat > "$dir/fpm.conf" <<EOF
[global]
error_log = $dir/fpm.log
log_level = notice
[load]
user = $user
group = $group
listen = 127.0.0.1:$1
; A fixed set of workers, never recycled (max_requests 0), so a worker PID that
; changes can only mean a worker died.
pm = static
pm.max_children = $WORKERS
pm.max_requests = 0
catch_workers_output = yes
EOF
  "$php_fpm" -n -d extension="$so" -d ratelimit.redis_url="redis://127.0.0.1:$REDIS_PORT" \
    -d ratelimit.connect_timeout=0.5 -d ratelimit.timeout=1 -d ratelimit.retry_interval=0.3 \
    "${as_root[@]}" -y "$dir/fpm.conf" -F >"$dir/fpm.out" 2>&1 &
  FPM_PID=$!
}

mkdir -p "$dir/tmp"
# Root's nginx would hand requests to "nobody" workers that cannot write to the
# 0700 temp dir; as any other user the directive is ignored with a warning.
user_line=; [ "$(id -u)" = 0 ] && user_line='user root;'
# nginx listening on $1, passing to php-fpm on $fpm_port; sets NGINX_PID.
launch_nginx() {
  cat > "$dir/nginx.conf" <<EOF
$user_line
worker_processes 1;
error_log $dir/nginx-error.log warn;
events { worker_connections 1024; }
http {
  # One line per answer: when it was logged, the client id, the status.
  log_format load '\$msec \$http_x_client_id \$status';
  access_log $dir/access.log load;
  client_body_temp_path $dir/tmp/body;
  fastcgi_temp_path $dir/tmp/fastcgi;
  proxy_temp_path $dir/tmp/proxy;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  server {
    listen 127.0.0.1:$1;
    location / {
      fastcgi_pass 127.0.0.1:$fpm_port;
      fastcgi_param SCRIPT_FILENAME $app;
      fastcgi_param REQUEST_METHOD \$request_method;
      fastcgi_param QUERY_STRING \$query_string;
      fastcgi_param REMOTE_ADDR \$remote_addr;
      fastcgi_param SERVER_PROTOCOL \$server_protocol;
    }
  }
}
EOF
  nginx -e "$dir/nginx-error.log" -p "$dir" -c "$dir/nginx.conf" -g "daemon off; pid $dir/nginx.pid;" \
    >"$dir/nginx.out" 2>&1 &
  NGINX_PID=$!
}

# Whether process $2 holds the socket listening on 127.0.0.1:$1 (the kernel's
# table of TCP sockets, and the process's open files).
listens_on() {
  local inode
  inode=$(awk -v port=":$(printf '%04X' "$1")" '$4 == "0A" && substr($2, length($2) - 4) == port {print $10; exit}' /proc/net/tcp)
  # (ls is read whole: under pipefail, grep -q leaving at its match can fail the pipe)
  [ -n "$inode" ] && grep -qF "socket:[$inode]" <<<"$(ls -l "/proc/$2/fd" 2>/dev/null)"
}

# Runs launch_$1 on a free port until its own process listens there (the port
# in START_PORT; $2 names its PID's variable). Tests run many at a time (make
# test: both passes at once, several workers each), so a free port can be
# taken by another test's server before ours binds it: then ours exits, and
# the port answers for the other. A lost port is chosen again (5 tries).
start_on_free_port() {
  local try port i
  for try in 1 2 3 4 5; do
    port=$(free_port) || return 1
    "launch_$1" "$port"
    for i in $(seq 1 100); do
      if listens_on "$port" "${!2}"; then
        START_PORT=$port
        return 0
      fi
      kill -0 "${!2}" 2>/dev/null || break
      sleep 0.05
    done
    stop_pid "${!2}"
  done
  return 1
}

if ! start_on_free_port fpm FPM_PID; then
  failures=1; echo "php-fpm did not start:"; cat "$dir/fpm.out" "$dir/fpm.log" 2>/dev/null; exit 1
fi
fpm_port=$START_PORT
if ! start_on_free_port nginx NGINX_PID; then
  failures=1; echo "nginx did not start:"; cat "$dir/nginx.out"; exit 1
fi
nginx_port=$START_PORT
url="http://127.0.0.1:$nginx_port/"
# The master's children, from /proc (no procps in a minimal root).
workers() { tr ' ' '\n' <"/proc/$FPM_PID/task/$FPM_PID/children" | grep . | sort -n | tr '\n' ' ' | sed 's/ $//'; }
pids_before=$(workers)
echo "fpm-load: php-fpm (master $FPM_PID, workers $pids_before) on :$fpm_port, nginx on :$nginx_port, redis on :$REDIS_PORT"
[ "$(wc -w <<<"$pids_before")" -eq "$WORKERS" ] || fail "expected $WORKERS workers, got: $pids_before"

# One request by hand: the limiter's headers must reach the client.
smoke=$(php -n -r '
  $ctx = stream_context_create(["http" => ["header" => "X-Client-Id: smoke", "ignore_errors" => true]]);
  // The response headers from the stream (PHP 8.5 deprecates $http_response_header, even unread).
  $stream = fopen($argv[1], "r", false, $ctx);
  $headers = stream_get_meta_data($stream)["wrapper_data"];
  $body = stream_get_contents($stream);
  echo implode("|", array_filter($headers, fn ($h) => preg_match("/^(HTTP|X-RateLimit)/", $h))), "|", trim($body);
' "$url")
echo "smoke: $smoke"
[[ "$smoke" == "HTTP/1.1 200 OK|X-RateLimit-Limit: $LIMIT|X-RateLimit-Remaining: $((LIMIT - 1))|X-RateLimit-Reset: 3600|hello smoke, $((LIMIT - 1)) requests left this hour" ]] \
  || fail "smoke request: $smoke"

# ab's figures: complete, failed (socket errors, timeouts), non-2xx.
ab_figures() {
  awk -F: '/^Complete requests/ {c = $2 + 0} /^Failed requests/ {f = $2 + 0} /^Non-2xx responses/ {n = $2 + 0}
           END {print c + 0, f + 0, n + 0}' "$1"
}
# Statuses of one client id in the access log: "200 429 503 499 other"
# counts, only for lines logged in [from, to) (epoch seconds). 499 is nginx's
# "the client closed the connection": ab -t drops its requests in flight.
statuses() {
  awk -v id="$1" -v from="${2:-0}" -v to="${3:-1e12}" '
    $2 == id && $1 >= from && $1 < to { if ($3 ~ /^(200|429|503|499)$/) n[$3]++; else n["other"]++ }
    END { print n[200] + 0, n[429] + 0, n[503] + 0, n[499] + 0, n["other"] + 0 }' "$dir/access.log"
}

# --- 1. exact counts, reused connections ----------------------------------------
echo "phase 1: $IDS ids x $EACH requests at once (ab -c $CONC each), $LIMIT per id per hour"
# Live connections sampled every 0.1 s: one block per sample, "---" between.
(
  while [ ! -e "$dir/stop-sampler" ]; do
    others
    echo ---
    sleep 0.1
  done
) >"$dir/samples" 2>/dev/null &
SAMPLER_PID=$!
t1=$(now)
AB_PIDS=()
for i in $(seq 1 "$IDS"); do
  ab -q -r -l -s 10 -n "$EACH" -c "$CONC" -H "X-Client-Id: id$i" "$url" >"$dir/ab-id$i.txt" 2>&1 &
  AB_PIDS+=($!)
done
for p in "${AB_PIDS[@]}"; do wait "$p" || fail "ab exited with $?"; done
AB_PIDS=()
t2=$(now)
touch "$dir/stop-sampler"; wait "$SAMPLER_PID"; SAMPLER_PID=
samples=$(grep -c '^---$' "$dir/samples")
printf '  requests %d in %.2f s (%.0f/s)\n' "$((IDS * EACH))" "$(calc "$t2 - $t1")" "$(calc "$IDS * $EACH / ($t2 - $t1)")"
for i in $(seq 1 "$IDS"); do
  read -r ok denied down cut other < <(statuses "id$i")
  read -r complete failed non2xx < <(ab_figures "$dir/ab-id$i.txt")
  counter=$(rcli GET "fpm:id$i")
  ttl=$(rcli TTL "fpm:id$i")
  echo "  id$i: 200 x $ok, 429 x $denied, other x $((down + cut + other)); ab: $((complete - non2xx)) accepted of $complete, $failed failed; redis counter $counter"
  [ "$ok" -eq "$LIMIT" ] && [ "$denied" -eq $((EACH - LIMIT)) ] && [ $((down + cut + other)) -eq 0 ] \
    || fail "id$i: expected 200 x $LIMIT and 429 x $((EACH - LIMIT))"
  [ "$complete" -eq "$EACH" ] && [ "$failed" -eq 0 ] && [ $((complete - non2xx)) -eq "$LIMIT" ] \
    || fail "id$i: ab saw $complete complete, $failed failed, $non2xx non-2xx"
  # A denied request writes nothing: the counter is the accepted requests.
  [ "$counter" = "$LIMIT" ] || fail "id$i: redis counter $counter, expected $LIMIT (the accepted requests)"
  [ "$ttl" -gt 3500 ] && [ "$ttl" -le 3600 ] || fail "id$i: TTL $ttl, expected the hour's window"
done
# Live connections per sample (at most one per worker), distinct connection ids
# seen, and every connection Redis accepted since it started that was not ours
# (the smoke request included): connections are opened once and reused.
read -r most distinct < <(awk '/^---$/ {if (n > m) m = n; n = 0; next} {n++; split($1, a, "="); ids[a[2]] = 1}
  END {print m + 0, length(ids)}' "$dir/samples")
live=$(others | wc -l)
opened=$(( $(redis_stat total_connections_received) - $(checker_conns) ))
echo "  redis connections: at most $most at once in $samples samples, $distinct distinct; $live now; $opened opened by the workers in all"
[ "$most" -le "$WORKERS" ] && [ "$most" -ge 1 ] || fail "at most $WORKERS connections at once expected, saw $most"
[ "$distinct" -le "$WORKERS" ] || fail "$distinct distinct worker connections, expected at most $WORKERS"
[ "$live" -le "$WORKERS" ] || fail "$live live connections after the load, expected at most $WORKERS"
[ "$opened" -ge 1 ] && [ "$opened" -le "$WORKERS" ] || fail "the workers opened $opened connections, expected 1..$WORKERS"

# --- 2. Redis killed and restarted under load ------------------------------------
echo "phase 2: redis killed and restarted on port $REDIS_PORT while ab runs (one id, ab -c $CONC for 5 s)"
ab -q -r -l -s 10 -t 5 -n 1000000 -c "$CONC" -H "X-Client-Id: restart" "$url" >"$dir/ab-restart.txt" 2>&1 &
AB_PIDS=($!)
sleep 1.5
t_kill=$(now)
redis_crash
sleep 1
redis_restart || fail "redis did not come back"
echo >"$dir/checker" # a new server, new counters: its PING
t_up=$(now)
wait "${AB_PIDS[0]}" || fail "ab exited with $?"
AB_PIDS=()
read -r complete failed non2xx < <(ab_figures "$dir/ab-restart.txt")
read -r b_ok b_denied b_down b_cut b_other < <(statuses restart 0 "$t_kill")
read -r d_ok d_denied d_down d_cut d_other < <(statuses restart "$t_kill" "$t_up")
read -r a_ok a_denied a_down a_cut a_other < <(statuses restart "$t_up")
# 503s of requests that failed just before the server was back may be logged a
# moment later; after a second none may remain.
read -r _ _ late_down _ _ < <(statuses restart "$(calc "$t_up + 1")")
printf '  requests %d (ab: %d failed, %d non-2xx); down for %.2f s\n' "$complete" "$failed" "$non2xx" "$(calc "$t_up - $t_kill")"
echo "  before the kill:   200 x $b_ok, 429 x $b_denied, 503 x $b_down, other x $b_other, cut by ab x $b_cut"
echo "  down/restarting:   200 x $d_ok, 429 x $d_denied, 503 x $d_down, other x $d_other, cut by ab x $d_cut"
echo "  once back up:      200 x $a_ok, 429 x $a_denied, 503 x $a_down ($late_down more than 1 s after), other x $a_other, cut by ab x $a_cut"
counter=$(rcli GET fpm:restart)
echo "  redis counter after the restart $counter (the old server's counts died with it)"
[ "$failed" -eq 0 ] || fail "ab: $failed failed requests"
[ $((b_other + d_other + a_other)) -eq 0 ] \
  || fail "answers other than 200/429/503 (502: a worker died?): $(awk '$3 !~ /^(200|429|503|499)$/ {print $3}' "$dir/access.log" | sort | uniq -c | tr -s ' \n' ' ')"
[ $((b_cut + d_cut + a_cut)) -le "$CONC" ] || fail "$((b_cut + d_cut + a_cut)) requests closed by ab (499), more than the $CONC in flight when it stops"
[ "$b_ok" -ge 1 ] && [ "$b_denied" -ge 1 ] || fail "before the kill: expected 200s and 429s"
[ "$d_down" -ge 1 ] || fail "no 503 while redis was down"
[ "$late_down" -eq 0 ] || fail "$late_down 503s more than 1 s after redis was back"
# The new server answers before our PING sees it, and its 100 go in the first
# milliseconds: what comes after is 429, but served by Redis again.
[ "$a_denied" -ge 1 ] || fail "once back up: no 429"
# Exact across the restart: 100 on the old server, 100 on the new one.
[ $((b_ok + d_ok + a_ok)) -eq $((2 * LIMIT)) ] || fail "$((b_ok + d_ok + a_ok)) accepted in all, expected $((2 * LIMIT))"
# The new server counted every cost-1 hit it decided, denied ones too: at least
# its 100 accepted, at most every 200/429 answered after the kill plus the
# requests ab cut (decided by Redis, their answer never read).
served_new=$((d_ok + d_denied + a_ok + a_denied + d_cut + a_cut))
[ "$counter" -ge "$LIMIT" ] && [ "$counter" -le "$served_new" ] \
  || fail "the new server's counter is $counter, expected $LIMIT..$served_new (the hits it decided)"
live=$(others | wc -l)
opened=$(( $(redis_stat total_connections_received) - $(checker_conns) ))
echo "  redis connections after the restart: $live now, $opened opened by the workers"
[ "$live" -le "$WORKERS" ] || fail "$live live connections, expected at most $WORKERS"
[ "$opened" -ge 1 ] && [ "$opened" -le "$WORKERS" ] || fail "the workers opened $opened connections, expected 1..$WORKERS"

# --- workers ---------------------------------------------------------------------
pids_after=$(workers)
crashed=$(grep -cE 'exited on signal|exited with code' "$dir/fpm.log")
echo "workers before: $pids_before"
echo "workers after:  $pids_after"
echo "fpm log: $crashed worker exits"
[ "$pids_after" = "$pids_before" ] || fail "the worker PIDs changed"
[ "$crashed" -eq 0 ] || fail "$(grep -E 'exited on signal|exited with code' "$dir/fpm.log" | head -3)"

printf 'time: %.1f s\n' "$(calc "$(now) - $t0")"
if [ "$failures" -eq 0 ]; then echo "fpm-load: OK"; else echo "fpm-load: $failures assertion(s) failed"; exit 1; fi
