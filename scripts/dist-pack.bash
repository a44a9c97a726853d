#!/usr/bin/env bash
# Inside make dist's Debian 12 root, after scripts/dist-root.bash: what it
# built, packed as PIE downloads pre-packaged binaries, into /build/dist.
#
#   php_ratelimit-<version>_php<X.Y>-x86_64-linux-glibc[-debug]-<nts|zts>.tgz
#     ratelimit.so     (stripped) at the top, where PIE looks for <extension-name>.so
#     manifest.json    the PHP it was built against (version, PHP API, module API,
#                      build id, ZTS, debug), the glibc it needs and the one it was
#                      linked against, the commit, checksums (php --ri ratelimit says
#                      the same of the .so: make check-dist compares them)
#     ratelimit.ini    the commented ini (extension=ratelimit and every setting)
#     LICENSE
#   ratelimit-redis-<version>-x86_64-linux-glibc.tgz   the server module, the same way
#   php<X.Y>-ratelimit_<version>-1_amd64.deb            Debian 12's php8.2 and Debian 13's php8.4
#   ratelimit-redis-module_<version>-1_amd64.deb
#   SHA256SUMS
# PIE's asset name (scripts/pie-asset-names.php states the rule; each name is
# checked against it): php_{extension}-{version}_php{X.Y}-{arch}-{os}-{libc}{-debug}{-zts|-nts}.tgz,
# where version is the release's tag as written: tag releases <version>, no "v".
# Every .so is refused when it needs a glibc symbol version newer than
# Debian 12's (2.36): that is the oldest system the archives promise to run on.
set -euo pipefail
cd /build/ratelimit
out=/build/out dist=/build/dist
glibc_ceiling=2.36 # Debian 12's
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
rm -rf "$dist" && mkdir -p "$dist"

# The newest GLIBC_ symbol version $1 needs; fails when it is newer than Debian 12's.
glibc_floor() {
  local needed
  needed=$(objdump -T "$1" | grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/^GLIBC_//' | sort -uV | tail -1)
  [ -n "$needed" ] || { echo "$1: no GLIBC_ symbol version found" >&2; return 1; }
  if [ "$(printf '%s\n%s\n' "$needed" "$glibc_ceiling" | sort -V | tail -1)" != "$glibc_ceiling" ]; then
    echo "$1 needs GLIBC_$needed, newer than Debian 12's $glibc_ceiling" >&2
    return 1
  fi
  echo "$needed"
}

# manifest.json from NAME=value lines on stdin (values of true/false and
# digits-only are written as JSON booleans and numbers).
manifest() {
  php8.2 -n -r '
    $m = [];
    foreach (file("php://stdin", FILE_IGNORE_NEW_LINES) as $line) {
        [$k, $v] = explode("=", $line, 2);
        $m[$k] = match (true) { $v === "true" => true, $v === "false" => false, preg_match("/^[0-9]+$/", $v) === 1 => (int) $v, default => $v };
    }
    echo json_encode($m, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";'
}

# A reproducible tar.gz of directory $1's files (no leading ./), at $2.
pack() {
  (cd "$1" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - -- * | gzip -9n >"$2")
}

status=0
stage=$(mktemp -d)
for dir in "$out"/*/; do
  variant=$(basename "$dir")
  [ -f "$dir/ratelimit.so" ] || continue
  rm -rf "${stage:?}"/* && install -m 0644 "$dir/ratelimit.so" "$stage/ratelimit.so"
  strip --strip-unneeded "$stage/ratelimit.so"
  floor=$(glibc_floor "$stage/ratelimit.so") || { status=1; continue; }
  # shellcheck disable=SC1090 # NAME=value lines of scripts/dist-root.bash
  . "$dir/info"
  # The module entry's build id (PHP refuses a module whose differs): the
  # .so must be the build for the PHP its manifest names.
  if ! grep -qaF "$build_id" "$stage/ratelimit.so"; then
    echo "$variant: ratelimit.so was not built for $build_id (it says $(grep -aoE 'API[0-9]+,N?TS' "$stage/ratelimit.so" | head -1))" >&2
    status=1; continue
  fi
  debug_suffix=; if [ "$debug" = true ]; then debug_suffix=-debug; fi
  name=php_ratelimit-${version}_php${variant%-*}-x86_64-linux-glibc$debug_suffix-${variant#*-}
  # (whole, then searched: grep -q ending the pipe early is a failure under pipefail)
  pie_names=$(php8.2 -n scripts/pie-asset-names.php ratelimit "$version" --php="${variant%-*}" --ts="${variant#*-}" \
    --debug="$([ "$debug" = true ] && echo 1 || echo 0)" --arch=x86_64 --os=linux --libc=glibc)
  if ! grep -qxF "$name.tgz" <<<"$pie_names"; then
    echo "$variant: $name.tgz is not a name PIE tries for PHP ${variant%-*} ${variant#*-} (scripts/pie-asset-names.php)" >&2
    status=1; continue
  fi
  install -m 0644 ratelimit.ini LICENSE "$stage/"
  {
    echo "extension=ratelimit"
    echo "version=$version"
    echo "commit=$commit" # of the build (scripts/dist-root.bash's info)
    echo "php=${variant%-*}"
    echo "php_version_built_against=$php_version"
    echo "php_api=$php_api"
    echo "zend_module_api=$zend_module_api"
    echo "build_id=$build_id"
    echo "zts=$zts"
    echo "debug=$debug"
    echo "arch=x86_64"
    echo "os=linux"
    echo "libc=glibc"
    echo "glibc_floor=$floor"
    echo "glibc_built_against=${glibc_built_against:-unknown}" # unknown: built before the info had it
    echo "built_on=Debian $(cat /etc/debian_version) (glibc $(ldd --version | head -1 | grep -oE '[0-9.]+$'))"
    echo "rustc=$(rustc --version)"
    echo "sha256_ratelimit.so=$(sha256sum "$stage/ratelimit.so" | cut -d' ' -f1)"
  } | manifest >"$stage/manifest.json"
  pack "$stage" "$dist/$name.tgz"
  echo "$name.tgz: PHP $php_version ($build_id), needs glibc $floor"
done

# The server module, the same way.
rm -rf "${stage:?}"/* && install -m 0755 "$out/ratelimit-redis.so" "$stage/ratelimit-redis.so"
strip --strip-unneeded "$stage/ratelimit-redis.so"
if floor=$(glibc_floor "$stage/ratelimit-redis.so"); then
  install -m 0644 LICENSE "$stage/"
  printf '%s\n' "module=ratelimit-redis" "version=$version" "commit=$(cat "$out/ratelimit-redis.commit")" "servers=Redis >= 6.0, Valkey >= 8.0 (loadmodule)" \
    "arch=x86_64" "os=linux" "libc=glibc" "glibc_floor=$floor" "built_on=Debian $(cat /etc/debian_version)" \
    "sha256_ratelimit-redis.so=$(sha256sum "$stage/ratelimit-redis.so" | cut -d' ' -f1)" | manifest >"$stage/manifest.json"
  pack "$stage" "$dist/ratelimit-redis-$version-x86_64-linux-glibc.tgz"
  echo "ratelimit-redis-$version-x86_64-linux-glibc.tgz: needs glibc $floor"
else
  status=1
fi
rm -rf "$stage"

# The Debian packages: Debian 12's php8.2 (built against php8.2-dev), Debian
# 13's php8.4 (the 8.4 NTS build: the same PHP API and build id as Debian's
# php8.4), the server module.
rm -rf dist && mkdir -p dist
[ ! -f "$out/8.2-nts/ratelimit.so" ] || scripts/build-deb.bash "$out/8.2-nts/ratelimit.so" /usr/bin/php-config8.2 >/dev/null || status=1
if [ -f "$out/8.4-nts/ratelimit.so" ]; then
  RATELIMIT_DEB_PHP="8.4 $(sed -n 's/^php_api=//p' "$out/8.4-nts/info")" scripts/build-deb.bash "$out/8.4-nts/ratelimit.so" >/dev/null || status=1
fi
scripts/build-module-deb.bash "$out/ratelimit-redis.so" >/dev/null || status=1
mv dist/*.deb "$dist/"
(cd "$dist" && sha256sum -- *.tgz *.deb >SHA256SUMS)
ls -l "$dist"
exit $status
