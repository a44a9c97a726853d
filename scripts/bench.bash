#!/usr/bin/env bash
# `make bench`: every measurement of bench/ in one run against a redis-server of
# its own with the server module loaded (free loopback port + unix socket, temp
# dir, stopped by PID), then
# BENCHMARKS.md and docs/benchmarks.png from the results. The scale-out rows
# start a Redis Cluster and a TLS server of their own (bench/scaleout.php).
#   BENCH_ATTEMPTS (20000)  decisions per case and round
#   BENCH_ROUNDS (5)        interleaved rounds
#   BENCH_QUICK=1           a tiny run (2,000 attempts, 1 round, slow peers skipped) to check the harness
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
trap redis_stop EXIT INT TERM

. scripts/load.bash # settle_load
settle_load

SO=$(realpath modules/ratelimit.so)
EXT_DIR=$(php-config --extension-dir)
# -n: no php.ini and no conf.d, so an installed copy of the extension (or opcache,
# or any other setting) cannot change what is measured. Debian's phpredis needs
# igbinary loaded before it; Laravel (Carbon) needs mbstring, Symfony ctype;
# pcntl is built into Debian's CLI.
PHP=(php -n -d memory_limit=1G
  -d extension="$EXT_DIR/igbinary.so" -d extension="$EXT_DIR/redis.so" -d extension="$EXT_DIR/posix.so" -d extension="$EXT_DIR/mbstring.so" -d extension="$EXT_DIR/ctype.so"
  -d extension="$SO" -d ratelimit.block_cache=0 -d ratelimit.server_module=off)
"${PHP[@]}" -r 'foreach (["redis", "ratelimit", "pcntl", "posix"] as $e) if (!extension_loaded($e)) { fwrite(STDERR, "bench: extension $e not loaded\n"); exit(1); }'

# The server loads the project's module: the "module:" cases turn
# ratelimit.server_module to auto for their calls; every other case keeps
# the Lua library (off, above), as a server without the module would.
RATELIMIT_SERVER_MODULE=$(realpath modules/ratelimit-redis.so) redis_start
OUT=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-bench.XXXXXX")
trap 'redis_stop; rm -rf "$OUT"' EXIT INT TERM

BENCH_REDIS_PORT=$REDIS_PORT BENCH_REDIS_SOCKET=$REDIS_SOCKET \
  "${PHP[@]}" -d ratelimit.redis_url="redis://127.0.0.1:$REDIS_PORT" bench/run.php > "$OUT/results.json"
redis_stop

"${PHP[@]}" bench/report.php "$OUT/results.json" "$OUT/plot.dat" > BENCHMARKS.md
# The threads table needs a thread-safe PHP: make zts's, in its Debian root
# (chroot: root only; RATELIMIT_MATRIX_DIR as for make zts). Measured there
# when make zts has built it; building it (about half an hour) is left to
# make zts. Its plot, docs/threads.png, is drawn here from the data lines it
# prints after its section ("plot<TAB>callers<TAB>…"), and its figures replace
# those of docs/threads.md (between its threads-table markers).
zts_ready=${RATELIMIT_MATRIX_DIR:-/var/cache/ratelimit-matrix}/roots/trixie-zts/usr/local/etc/php/.ratelimit-php
threads_missing() {
  printf '\n## Threads: one process against PHP-FPM (issues 22, 34)\n\n%s\n' "$1" >> BENCHMARKS.md
}
if [ "${BENCH_QUICK:-}" != 1 ] && [ "$(id -u)" = 0 ] && [ -f "$zts_ready" ]; then
  RATELIMIT_PHP_TARGET=bench-threads scripts/php-from-source.bash zts >"$OUT/threads.txt" 2>&1 || true
  # Without its plot lines, make's last words and the root's "0 passed, 0 failed" (a bench counts no tests).
  section=$(sed -n '/^## Threads: one process against PHP-FPM/,$p' "$OUT/threads.txt" | grep -av $'^plot\t' | grep -avE '^[0-9]+ passed, [0-9]+ failed' | sed '/^make: /,$d')
  grep -a $'^plot\t' "$OUT/threads.txt" | cut -f2- > "$OUT/threads.dat" || true
  if [ -n "$section" ] && [ -s "$OUT/threads.dat" ]; then
    printf '\n%s\n' "$section" >> BENCHMARKS.md
    printf '\n![decisions per Redis core-second, threads against php-fpm](docs/threads.png)\n' >> BENCHMARKS.md
    gnuplot -e "dat='$OUT/threads.dat'; png='docs/threads.png'; title='Decisions per Redis core-second, $(date -u +%Y-%m-%d)'" bench/threads.gnuplot
    # docs/threads.md shows the same figures: from the load line to the end of the section.
    sed -n '/^Load average/,$p' <<<"$section" >"$OUT/threads-figures.md"
    php -n -r '$doc = file_get_contents("docs/threads.md"); $figures = rtrim(file_get_contents($argv[1]));
      $new = preg_replace_callback("/(<!-- threads-table:begin -->\n).*?(\n<!-- threads-table:end -->)/s", fn ($m) => $m[1] . $figures . $m[2], $doc, 1, $n);
      $n === 1 ? file_put_contents("docs/threads.md", $new) : fwrite(STDERR, "docs/threads.md: no threads-table markers\n");' "$OUT/threads-figures.md"
  else
    threads_missing "Failed in this run:

\`\`\`
$(tail -20 "$OUT/threads.txt")
\`\`\`"
  fi
else
  threads_missing 'Not measured in this run: it needs the thread-safe PHP that `make zts` builds (as root), then `make bench` again (BENCH_QUICK=1 leaves it out; `BENCH_QUICK=1 RATELIMIT_PHP_TARGET=bench-threads scripts/php-from-source.bash zts` checks it alone).'
fi
rows=$(wc -l < "$OUT/plot.dat")
title="µs per decision, one PHP process, $(date -u +%Y-%m-%d)"
if [ "${BENCH_QUICK:-}" = 1 ]; then title="$title: QUICK RUN, not for comparison"; fi
gnuplot -e "dat='$OUT/plot.dat'; png='docs/benchmarks.png'; rows=$rows; title='$title'" bench/plot.gnuplot
cat BENCHMARKS.md
echo "wrote BENCHMARKS.md and docs/benchmarks.png"
