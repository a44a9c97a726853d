#!/usr/bin/env bash
# `make deb` (its second package): the server module as a Debian package,
# with dpkg-deb as scripts/build-deb.bash does the extension's:
#
#   dist/ratelimit-redis-module_<crate version>-1_<arch>.deb
#     /usr/lib/redis/modules/ratelimit-redis.so   (stripped; where Debian's
#                                                  Redis module packages go)
#     /usr/share/doc/ratelimit-redis-module/       (copyright, README.md)
#   Nothing is enabled: a server loads it with
#   `loadmodule /usr/lib/redis/modules/ratelimit-redis.so` (Redis or Valkey).
#
#   scripts/build-module-deb.bash [the module .so]     prints the path of the .deb
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deb-lib.bash
so=${1:-modules/ratelimit-redis.so}

deb_start "ratelimit-redis-module" module/Cargo.toml
# 0755: Redis refuses to load a module file without execute permission.
install -D -m 0755 "$so" "$root/usr/lib/redis/modules/ratelimit-redis.so"
strip --strip-unneeded "$root/usr/lib/redis/modules/ratelimit-redis.so"
doc=$root/usr/share/doc/$name
install -D -m 0644 LICENSE "$doc/copyright"
install -m 0644 README.md "$doc/README.md"

shlibs=$(deb_shlibs "$work" "$name" "root/usr/lib/redis/modules/ratelimit-redis.so")

cat >"$root/DEBIAN/control" <<CONTROL
Package: $name
Version: $version
Architecture: $arch
Maintainer: the ratelimit developers <ratelimit@localhost>
Section: database
Priority: optional
Depends: $shlibs
Enhances: redis-server, valkey-server
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Description: native rate limiting commands for Redis and Valkey (the ratelimit module)
 The algorithms of the ratelimit PHP extension (fixed window, sliding window,
 token bucket, leaky bucket, GCRA) as native commands of a Redis (>= 6.0) or
 Valkey server. The extension uses them where a server has loaded the module,
 with the same keys, state and answers as its Lua library. Load it with
 loadmodule /usr/lib/redis/modules/ratelimit-redis.so
CONTROL
deb_build "$root" "$deb"
