# PHP built from source the way the official Docker images build theirs
# (prefix /usr/local, php.ini in /usr/local/etc/php, every ini in the scan
# dir /usr/local/etc/php/conf.d, php-fpm in /usr/local/sbin), from the
# upstream tarball of a Debian source package. Sourced, inside a Debian root,
# by scripts/php-from-source-root.bash (make zts and its flavours) and
# scripts/dist-root.bash (make dist's PHPs).
#
#   unpack_source PKG [GIVEN]   the upstream source of Debian source package PKG in the
#                               current directory; prints the directory made
#   build_php PKG GIVEN WORKDIR [configure options...]
#                               PKG's PHP built in WORKDIR and installed into /usr/local,
#                               the official images' options plus the ones given;
#                               sets php_src_dir (the unpacked tree); logs in WORKDIR
# Needs the build tools (build-essential pkg-config autoconf bison re2c
# dpkg-dev xz-utils curl libssl-dev zlib1g-dev) and, for apt-get source, a
# deb-src line of a suite that has PKG.

# A Debian source package known to be complete on the mirror, for when the
# suite's own is not served: some mirrors (this project's build machines')
# answer 404 for trixie's current php8.4 source while still serving this
# upload (Debian's 8.4.16-1). Pinned by the SHA-256 of its .dsc, whose own
# SHA-256 lines pin the tarballs.
declare -A PINNED_DSC=(
  [php8.4]="pool/main/p/php8.4/php8.4_8.4.16-1.dsc 9f2172c07beb78b91fe6388c88343c82d38552f3955def7e0706eb09f6311840"
)

# Downloads the pinned source package of $1 from the root's Debian mirror
# (its first deb line) into the current directory; fails when there is none
# or a checksum differs.
download_pinned() {
  local pkg=$1 entry path sum mirror dsc
  entry=${PINNED_DSC[$pkg]:-}
  [ -n "$entry" ] || return 1
  read -r path sum <<<"$entry"
  dsc=$(basename "$path")
  mirror=$(awk '$1 == "deb" && $2 ~ /^https?:/ {print $2; exit}' /etc/apt/sources.list)
  curl -fsS -o "$dsc" "$mirror/$path" && echo "$sum  $dsc" | sha256sum -c --quiet - >&2 || return 1
  awk '/^Checksums-Sha256:/ {on = 1; next} /^[^ ]/ {on = 0} on {print $1 "  " $3}' "$dsc" >SHA256SUMS
  while read -r _ file; do
    curl -fsS -o "$file" "$mirror/$(dirname "$path")/$file" || return 1
  done <SHA256SUMS
  sha256sum -c --quiet SHA256SUMS >&2
}

# Unpacks the upstream source of Debian source package $1 into the current
# directory and prints the directory made: $2 when given (a tarball or a
# directory), else the upstream tarball of apt-get source (checked against
# the mirror's source index; apt keeps what it fetched when another file of
# the package is missing), else of the pinned package above. Only the
# upstream tarball: Debian's patches re-lay the install for Debian's own
# packages (versioned include and build directories, phpize's aclocal),
# which breaks a PHP of a prefix of its own.
unpack_source() {
  local pkg=$1 given=${2:-} orig
  if [ -n "$given" ]; then
    echo "$pkg: from $given (RATELIMIT_*_SRC)" >&2
    if [ -d "$given" ]; then cp -a "$given" .; else tar -xf "$given"; fi
    find . -mindepth 1 -maxdepth 1 -type d | head -1
    return 0
  fi
  apt-get source -qq --download-only "$pkg" >&2 && echo "$pkg: apt-get source $pkg" >&2
  if ! ls "$pkg"_*.orig.tar.* >/dev/null 2>&1; then
    download_pinned "$pkg" && echo "$pkg: the mirror does not serve the suite's source package; the pinned ${PINNED_DSC[$pkg]%% *}" >&2
  fi
  orig=$(ls "$pkg"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1)
  [ -n "$orig" ] || { echo "$pkg: no source (RATELIMIT_PHP_SRC / RATELIMIT_PHPREDIS_SRC can name a tarball)" >&2; return 1; }
  echo "$pkg: its upstream tarball $orig" >&2
  tar -xf "$orig"
  find . -mindepth 1 -maxdepth 1 -type d | head -1
}

# PHP from Debian source package $1 (or the tarball or tree $2) built in $3
# and installed into /usr/local with the official images' layout, the
# options after $3 added (--enable-zts, --enable-debug...). Its extensions
# are those the suite and the frameworks it drives need; json, pcre, hash,
# random, reflection and spl are always built in.
build_php() {
  local pkg=$1 given=$2 work=$3 prefix=/usr/local
  shift 3
  rm -rf "$work" && mkdir -p "$work" && cd "$work" || return 1
  php_src_dir=$work/$(unpack_source "$pkg" "$given") || return 1
  cd "$php_src_dir" || return 1
  # A release tarball has configure; a tree without one needs it made.
  [ -x configure ] || ./buildconf --force
  ./configure --prefix="$prefix" --with-config-file-path="$prefix/etc/php" --with-config-file-scan-dir="$prefix/etc/php/conf.d" \
    --enable-fpm --disable-cgi --disable-phpdbg "$@" \
    --disable-all --enable-ctype --enable-filter --with-iconv --enable-mbstring --disable-mbregex --with-openssl \
    --enable-pcntl --enable-posix --enable-session --enable-sockets --enable-tokenizer --with-zlib \
    >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; return 1; }
  make -j2 >"$work/make.log" 2>&1 || { tail -40 "$work/make.log"; return 1; }
  make install >"$work/install.log" 2>&1 || { tail -20 "$work/install.log"; return 1; }
  mkdir -p "$prefix/etc/php/conf.d"
  # The official images have it (their shared extensions are there); a PHP
  # of only built-in extensions gets none from make install.
  mkdir -p "$("$prefix/bin/php-config" --extension-dir)"
}
