#!/usr/bin/env bash
# Writes /build/versions.ROW inside a root of make matrix (or make zts): the
# versions a row saw, as the cells of the matrix table (Debian | PHP |
# phpredis | server | openssl | Laravel | Symfony), and prints them.
#   scripts/matrix-versions.bash ROW SERVER-BINARY
set -euo pipefail
row=${1:?row} server=${2:?server binary}
pkg() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | sed 's/^[0-9]*://; s/[-+~].*//' || echo '?'; }
php_ver=$(php -n -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : "";')
# phpredis as the suite loads it: enabled in conf.d (Debian), or built and
# loaded by name (a PHP built from source); none where there is none.
phpredis=$(php -r 'echo phpversion("redis") ?: "";' 2>/dev/null || true)
if [ -z "$phpredis" ] && [ -f "$(php -n -r 'echo ini_get("extension_dir");')/redis.so" ]; then
  phpredis=$(php -n -d extension=redis -r 'echo phpversion("redis");')
fi
server_ver=$("$server" --version | grep -oE 'v=[0-9.]+' | cut -c3-)
case $server in valkey*) server_name=Valkey ;; *) server_name=Redis ;; esac
echo "$(cut -d. -f1 /etc/debian_version 2>/dev/null | sed 's/^[a-z].*/sid/') | $php_ver | ${phpredis:-none} | $server_name $server_ver | $(openssl version | cut -d' ' -f2) | $(pkg php-laravel-framework) | $(pkg php-symfony-rate-limiter)" >"/build/versions.$row"
cat "/build/versions.$row"
