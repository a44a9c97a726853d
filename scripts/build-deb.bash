#!/usr/bin/env bash
# `make deb`: a Debian package of the built extension for the PHP that
# php-config describes, with dpkg-deb (no debian/ directory to keep in step):
#
#   dist/php<version>-ratelimit_<crate version>-1_<arch>.deb
#     <extension dir>/ratelimit.so                      (stripped)
#     /etc/php/<version>/mods-available/ratelimit.ini   (a conffile: dpkg keeps an edited one)
#     /usr/share/doc/php<version>-ratelimit/            (copyright, README.md, docs/)
#   postinst enables it for every SAPI with php-common's helper (as phpenmod
#   does), prerm disables it, postrm purge forgets php-common's records.
#
#   scripts/build-deb.bash [the .so] [php-config]      prints the path of the .deb
#   RATELIMIT_DEB_PHP="8.4 20240924" scripts/build-deb.bash the.so
#       for Debian's php8.4 (PHP API 20240924) without it installed here (make
#       dist packs its Debian 12 build of 8.4 NTS for Debian 13 this way): its
#       extension dir is Debian's /usr/lib/php/<API>
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deb-lib.bash
so=${1:-modules/ratelimit.so} php_config=${2:-php-config}

if [ -n "${RATELIMIT_DEB_PHP:-}" ]; then
  read -r php_version php_api <<<"$RATELIMIT_DEB_PHP"
  ext_dir=/usr/lib/php/$php_api
else
  php_version=$("$php_config" --version | cut -d. -f1,2)
  php_api=$("$php_config" --phpapi)
  ext_dir=$("$php_config" --extension-dir)
fi
deb_start "php$php_version-ratelimit" Cargo.toml
install -D -m 0644 "$so" "$root$ext_dir/ratelimit.so"
strip --strip-unneeded "$root$ext_dir/ratelimit.so"
install -D -m 0644 ratelimit.ini "$root/etc/php/$php_version/mods-available/ratelimit.ini"
doc=$root/usr/share/doc/$name
install -D -m 0644 LICENSE "$doc/copyright"
install -m 0644 README.md "$doc/README.md"
if [ -d docs ]; then cp -r docs "$doc/docs"; chmod -R u=rwX,go=rX "$doc/docs"; fi

# The shared libraries the .so needs, as package versions (dpkg-shlibdeps
# wants a debian/control to read; a minimal one in the work dir will do).
shlibs=$(deb_shlibs "$work" "$name" "root$ext_dir/ratelimit.so")

cat >"$root/DEBIAN/control" <<EOF
Package: $name
Version: $version
Architecture: $arch
Maintainer: the ratelimit developers <ratelimit@localhost>
Section: php
Priority: optional
Depends: php$php_version-common, phpapi-$php_api, php-common, $shlibs
Suggests: redis-server
Provides: php-ratelimit
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Description: exact, atomic, distributed rate limiting on Redis for PHP $php_version
 A native PHP extension (written in Rust) with five rate limiting algorithms:
 fixed window, sliding window (exact log or blocks), token bucket, leaky
 bucket and GCRA. Every decision is one Lua script, atomic in Redis and on the
 Redis server's clock, over connections pooled per process.
EOF
echo "/etc/php/$php_version/mods-available/ratelimit.ini" >"$root/DEBIAN/conffiles"

# Maintainer scripts. php-maintscript-helper (php-common) reads the script's
# own arguments, and records that the package, not the admin, enabled the
# module: an admin's phpdismod then survives upgrades.
helper='. /usr/lib/php/php-maintscript-helper'
cat >"$root/DEBIAN/postinst" <<EOF
#!/bin/sh
# Enable ratelimit for every installed PHP $php_version SAPI (cli, fpm, apache2...).
set -e
$helper
php_invoke enmod $php_version ALL ratelimit
EOF
cat >"$root/DEBIAN/prerm" <<EOF
#!/bin/sh
# Disable it before its files go; also on upgrade, so a changed priority is
# picked up when postinst enables it again.
set -e
if [ "\$1" = remove ] || [ "\$1" = upgrade ]; then
    $helper
    php_invoke dismod $php_version ALL ratelimit
fi
EOF
cat >"$root/DEBIAN/postrm" <<EOF
#!/bin/sh
# purge: forget php-common's records of the module (prerm's "disabled by the
# package" included: by now dpkg has deleted the ini, so phpdismod no longer
# knows the module and cannot purge them itself) and conf.d links left dangling.
set -e
if [ "\$1" = purge ]; then
    rm -f /var/lib/php/modules/$php_version/*/*_by_*/ratelimit /var/lib/php/modules/$php_version/registry/ratelimit
    for link in /etc/php/$php_version/*/conf.d/*-ratelimit.ini; do
        if [ -L "\$link" ] && [ ! -e "\$link" ]; then rm -f "\$link"; fi
    done
fi
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
deb_build "$root" "$deb"
