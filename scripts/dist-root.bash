#!/usr/bin/env bash
# Inside make dist's Debian 12 root (scripts/dist.bash: chrooted, the host's
# Rust toolchain bound at /root/.cargo and /root/.rustup, a copy of the
# checkout in /build/ratelimit): the extension built once per PHP named on
# the command line, and the server module once, so that what they link
# needs no C library newer than Debian 12's.
#
#   scripts/dist-root.bash 8.2-nts 8.4-nts 8.4-zts ...
#
# X.Y-nts of Debian 12's own PHP (8.2) builds against php8.2-dev; 8.5-nts and
# 8.6-nts against Debian experimental's php8.5-dev and php8.6-dev in a sid
# root bound at /opt/sid (the mirror serves no source of them); every
# other X.Y-nts and X.Y-zts builds against PHP X.Y built from the upstream
# tarball of Debian's phpX.Y source package (bookworm, trixie or
# experimental) as the official images build theirs (scripts/php-source-lib.bash),
# installed into /build/php/X.Y-ts/usr/local: a private mount namespace binds
# that tree at /usr/local for its build and the extension's, so each PHP is
# where its php-config says it is. Built once (the tree is kept; delete it
# to build again); make check-dist copies the tree into its test roots as
# the official images' /usr/local.
# Out: /build/out/<variant>/ratelimit.so and info (the PHP it was built
# against, as NAME=value lines), /build/out/<variant>/run-tests.php (that
# PHP's test runner, for roots without php-dev), /build/out/ratelimit-redis.so.
# Environment: RATELIMIT_COMMIT (the commit built, from the host's checkout).
set -euo pipefail
cd /build/ratelimit
# What build.rs writes into every .so built here, for php --ri ratelimit
# (with RATELIMIT_COMMIT): make check-dist compares it with the manifest.
export RATELIMIT_BUILD_ORIGIN="prebuilt by make dist"
# The copy of the checkout keeps its files' times, and /build/target is
# shared by every checkout that builds here: a file edited before this
# root's last build (in another worktree) would look unchanged to cargo,
# which compares times. Every file is new to this build.
find . -type f -exec touch {} +
out=/build/out
mkdir -p "$out"

# The sources of the PHPs not built here by Debian: bookworm's (8.2),
# trixie's (8.4) and experimental's (8.5, 8.6). deb-src lines only: no
# binary package of another suite can be installed from them. The mirror
# is a frozen snapshot, so a Release file past its date is still its own.
mirror=$(awk '$1 == "deb" && $2 ~ /^https?:/ {print $2; exit}' /etc/apt/sources.list)
printf 'deb-src %s %s main\n' "$mirror" bookworm "$mirror" trixie "$mirror" experimental >/etc/apt/sources.list.d/dist-src.list
apt-get update -qq -o Acquire::Check-Valid-Until=false
apt-get install -y -qq --no-install-recommends build-essential pkg-config autoconf bison re2c dpkg-dev xz-utils curl ca-certificates \
  libssl-dev zlib1g-dev clang libclang-dev php8.2-dev php8.2-cli mount >/dev/null
. scripts/php-source-lib.bash

# The .so cargo built for the PHP that $1 (php) and $2 (php-config) are,
# copied to $3, with that PHP's run-tests.php (found under $4, default its prefix's lib/php).
build_extension() {
  local php=$1 php_config=$2 to=$3 started=$SECONDS
  # (set -e does not reach a function called where its status is tested)
  PHP=$php PHP_CONFIG=$php_config cargo build --release --locked --quiet || return 1
  mkdir -p "$to"
  cp "$CARGO_TARGET_DIR/release/libratelimit.so" "$to/ratelimit.so"
  # What the archive's manifest says of the PHP it was built against.
  {
    echo "commit=${RATELIMIT_COMMIT:-unknown}"
    echo "php_version=$("$php" -n -r 'echo PHP_VERSION;')"
    echo "php_api=$("$php" -n -i | sed -n 's/^PHP API => //p')" # upstream php-config has no --phpapi
    echo "zend_module_api=$("$php" -n -i | sed -n 's/^PHP Extension => //p')"
    echo "build_id=$("$php" -n -i | sed -n 's/^PHP Extension Build => //p')"
    echo "zts=$("$php" -n -r 'echo PHP_ZTS ? "true" : "false";')"
    echo "debug=$("$php" -n -r 'echo PHP_DEBUG ? "true" : "false";')"
    echo "extension_dir=$("$php_config" --extension-dir)"
    echo "glibc_built_against=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')"
  } >"$to/info"
  local runner
  runner=$(find "${4:-$("$php_config" --prefix)/lib/php}" -path '*/build/run-tests.php' | head -1)
  cp "$runner" "$to/run-tests.php"
  echo "$(basename "$to"): built against PHP $(sed -n 's/^php_version=//p' "$to/info") ($(sed -n 's/^build_id=//p' "$to/info")) in $((SECONDS - started)) s"
}

started=$SECONDS
cargo build --release --locked --quiet -p ratelimit-redis
cp "$CARGO_TARGET_DIR/release/libratelimit_redis.so" "$out/ratelimit-redis.so"
echo "${RATELIMIT_COMMIT:-unknown}" >"$out/ratelimit-redis.commit"
echo "the server module built in $((SECONDS - started)) s"

status=0
for variant in "$@"; do
  version=${variant%-*} ts=${variant#*-}
  case $variant in
    8.2-nts)
      build_extension /usr/bin/php8.2 /usr/bin/php-config8.2 "$out/$variant" || status=1
      continue ;;
    8.5-nts | 8.6-nts)
      # Debian experimental's PHP in the sid root bound at /opt/sid (its
      # sources are not on the mirror): its php and php-config run chrooted
      # there, its headers bound where its php-config says they are; the
      # extension is still compiled and linked here, against Debian 12's C library.
      [ -x "/opt/sid/usr/bin/php$version" ] || { echo "$variant: no /opt/sid/usr/bin/php$version (scripts/dist.bash binds the sid root)"; status=1; continue; }
      wrappers=/build/sid-php/$version
      mkdir -p "$wrappers"
      for tool in php php-config; do
        printf '#!/bin/sh\nexec chroot /opt/sid /usr/bin/%s%s "$@"\n' "$tool" "$version" >"$wrappers/$tool"
        chmod 755 "$wrappers/$tool"
      done
      includes=$("$wrappers/php-config" --include-dir)
      if ! unshare --mount --propagation unchanged bash -euo pipefail -c '
          variant=$1 wrappers=$2 includes=$3 out=$4
          mount -t proc proc /opt/sid/proc
          mount --rbind /dev /opt/sid/dev
          mkdir -p "$includes" && mount --bind "/opt/sid$includes" "$includes"
          '"$(declare -f build_extension)"'
          build_extension "$wrappers/php" "$wrappers/php-config" "$out/$variant" /opt/sid/usr/lib/php
        ' _ "$variant" "$wrappers" "$includes" "$out"; then
        echo "$variant: not built"; rm -rf "${out:?}/$variant"; status=1
      fi
      continue ;;
    *-nts) options= ;;
    *-zts) options=--enable-zts ;;
    *) echo "unknown variant $variant (X.Y-nts or X.Y-zts)"; status=1; continue ;;
  esac
  tree=/build/php/$variant
  mkdir -p "$tree/usr/local"
  # The PHP and the extension's build in a namespace where /usr/local is this PHP's tree.
  # (in_root's namespace is private already; the chroot's / is no mount point to make private again)
  if ! unshare --mount --propagation unchanged bash -euo pipefail -c '
      variant=$1 version=$2 tree=$3 options=$4 out=$5
      mount --bind "$tree/usr/local" /usr/local
      . scripts/php-source-lib.bash
      if [ ! -x /usr/local/bin/php ]; then
        started=$SECONDS
        # shellcheck disable=SC2086 # no option or one
        (build_php "php$version" "" "/build/php-src/$variant" $options) || exit 1
        echo "$variant: PHP $(/usr/local/bin/php -n -r "echo PHP_VERSION;") built in $((SECONDS - started)) s"
      fi
      cd /build/ratelimit
      '"$(declare -f build_extension)"'
      # Named by the tree, not /usr/local: cargo builds again only when the
      # paths of PHP and PHP_CONFIG change (ext-php-rs watches those), and
      # /usr/local is every variant'"'"'s.
      build_extension "$tree/usr/local/bin/php" "$tree/usr/local/bin/php-config" "$out/$variant"
    ' _ "$variant" "$version" "$tree" "$options" "$out"; then
    echo "$variant: not built"
    rm -rf "$out/$variant"
    status=1
  fi
done
exit $status
