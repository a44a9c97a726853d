#!/usr/bin/env bash
# `make plots`: docs/plots/<algorithm>.png from real runs (scripts/plots.php)
# of every algorithm against a redis-server of its own, then the memory table
# the algorithm pages quote. About 40 s; the PNGs are committed, so run it
# again only when an algorithm's behaviour changes.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
. scripts/php.bash # PHP_ARGS: php -n, phpredis (MEMORY USAGE), the fresh build
command -v gnuplot >/dev/null || { echo "plots: gnuplot not found (make deps installs gnuplot-nox)"; exit 2; }
trap redis_stop EXIT INT TERM
redis_start
data=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-plots.XXXXXX")
trap 'redis_stop; rm -rf "$data"' EXIT INT TERM
php "${PHP_ARGS[@]}" -d ratelimit.redis_url="redis://127.0.0.1:$REDIS_PORT" scripts/plots.php "$data"
mkdir -p docs/plots
for run in fixed_window:'Fixed window' sliding_window_log:'Sliding window (exact log)' \
           sliding_window_blocks:'Sliding window (10 blocks)' token_bucket:'Token bucket' \
           leaky_bucket:'Leaky bucket' gcra:'GCRA'; do
  name=${run%%:*} title=${run#*:} queue=0
  [ "$name" = leaky_bucket ] && queue=1
  gnuplot -e "data='$data/$name.dat'; bins='$data/$name.bins'; out='docs/plots/$name.png'; name='$title'; queue=$queue" scripts/plot-accepted.gp
  echo "wrote docs/plots/$name.png"
done
echo "redis-server $(redis-server --version | grep -o 'v=[^ ]*')"
