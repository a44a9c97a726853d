#!/usr/bin/env bash
# `make demo`: a redis-server of its own (unless RATELIMIT_REDIS_URL is set),
# then examples/demo.php against the freshly built extension.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/redis.bash
. scripts/php.bash # PHP_ARGS: php -n and the fresh build, never an installed copy
url=${RATELIMIT_REDIS_URL:-}
if [ -z "$url" ]; then
  trap redis_stop EXIT INT TERM
  redis_start
  url="redis://127.0.0.1:$REDIS_PORT"
  echo "started $REDIS_SERVER_BIN $("$REDIS_SERVER_BIN" --version | grep -o 'v=[^ ]*') on $url (pid $REDIS_PID)"
fi
php "${PHP_ARGS[@]}" -d ratelimit.redis_url="$url" examples/demo.php
