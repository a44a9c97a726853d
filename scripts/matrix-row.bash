#!/usr/bin/env bash
# One row of `make matrix`, run inside its Debian root by scripts/matrix.bash
# (chrooted, the host's Rust toolchain bound at /root/.cargo and /root/.rustup,
# a copy of the checkout in /build/ratelimit): what a new user of that
# release does (make deps, make demo), what CI does (the stubs, the three
# ways to install, each removed again), then the README's test command
# against the row's server.
#
# Environment: RATELIMIT_MATRIX_ROW (the row's name), RATELIMIT_TEST_SERVER
# (the server binary every test starts), RATELIMIT_PHP_VERSION (X.Y: a PHP
# the root pins from Debian experimental, which make deps installs by its
# version; the rest of the row then finds it as php on PATH), CARGO_TARGET_DIR; TESTS (phpt files
# or dirs) runs only those, without cargo test: for working on one row, never
# for the table.
# Writes /build/versions.<row>: the versions seen, as cells of the matrix table.
set -euo pipefail
cd /build/ratelimit
row=${RATELIMIT_MATRIX_ROW:?}
server=${RATELIMIT_TEST_SERVER:-redis-server}

make deps ${RATELIMIT_PHP_VERSION:+PHP_VERSION=$RATELIMIT_PHP_VERSION}
php_on_path=$(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
[ -z "${RATELIMIT_PHP_VERSION:-}" ] || [ "$php_on_path" = "$RATELIMIT_PHP_VERSION" ] \
  || { echo "row $row: php on PATH is $php_on_path, not $RATELIMIT_PHP_VERSION"; exit 1; }
# The versioned package names (PHP_VERSION=X.Y) are what the default ones depend on: both must resolve.
make deps PHP_VERSION="$(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')"
# The server binary the row names must be there: a row never falls back to another server.
command -v "$server" >/dev/null || { echo "row $row: no $server in this root"; exit 1; }

scripts/matrix-versions.bash "$row" "$server"

make build
if [ -n "${TESTS:-}" ]; then
  make test-php TESTS="$TESTS"
  exit
fi
# What CI does on the host, plus the README's first command.
make demo
make check-stubs
make check-packaging
make test
