#!/usr/bin/env bash
# `make bench`: bench/bench.php against a redis-server of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
. scripts/php.bash # PHP_ARGS: php -n, phpredis for the userland limiters, the fresh build
trap redis_stop EXIT INT TERM
redis_start
php "${PHP_ARGS[@]}" -d ratelimit.redis_url="redis://127.0.0.1:$REDIS_PORT" \
  bench/bench.php "${BENCH_ATTEMPTS:-50000}" "${BENCH_ROUNDS:-5}"
