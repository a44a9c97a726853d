# The Debian roots of `make matrix` and `make zts`: built once with mmdebstrap,
# kept under RATELIMIT_MATRIX_DIR (default /var/cache/ratelimit-matrix, outside
# the work tree), entered with chroot in a private mount namespace (unshare),
# so every bind made for a run vanishes with it whatever happens.
# Sourced by scripts/matrix.bash and scripts/php-from-source.bash from the repository root.
#
#   root_name SUITE             the name of SUITE's root
#   root_of SUITE [NAME]        the root NAME (default SUITE) of Debian SUITE, built when missing;
#                               SUITE sid+php8.5 is sid with experimental's PHP 8.5 pinned (root sid-php8.5)
#   prepare_root ROOT           resolv.conf (apt inside), localhost in /etc/hosts, a fresh copy of the checkout
#   in_root ROOT [VAR=value...] command...
#                               the command chrooted in ROOT: /proc, /dev, the host's ~/.cargo and
#                               ~/.rustup bound, a clean environment (the VARs added to it);
#                               RATELIMIT_ROOT_BIND=DIR:PATH also binds DIR at PATH inside
#   stop_processes_in ROOT      stops, by PID, every process still running inside ROOT
#   fetch_crates                cargo fetch on the host, so the roots build offline
#
# Sourcing it takes the roots' lock (lock_roots, below): one run at a time in
# them, whichever target started it.

checkout=$PWD
dir=${RATELIMIT_MATRIX_DIR:-/var/cache/ratelimit-matrix}

[ "$(id -u)" = 0 ] || { echo "$(basename "$0") needs root (mmdebstrap, chroot, mount)" >&2; exit 2; }
command -v mmdebstrap >/dev/null || apt-get install -y -qq mmdebstrap >/dev/null || { echo "cannot install mmdebstrap" >&2; exit 1; }
mkdir -p "$dir/roots" "$dir/logs" "$dir/locks"

# One lock for every target that uses a root under $dir: make matrix, zts,
# php-from-source, dist, check-dist, and bench's threads table (make
# bench-threads in make zts's root). They share roots (the trixie roots of
# zts and the debug rows, dist-build-bookworm of dist and check-dist, the
# clean roots) and the files in them (/build/ratelimit, /build/target, the
# logs): two at once would build one checkout over the other's, or test
# another's .so. A second run waits for the first and says so. The lock is
# an open file: it goes with the last process that holds it, also on a
# crash. A run started by one that holds it (make matrix's zts and debug
# rows run scripts/php-from-source.bash) inherits the open file and goes on.
lock_roots() {
  local lock fd
  lock=$(realpath -m "$dir")/locks/roots.lock
  for fd in /proc/$$/fd/*; do
    [ "$(readlink "$fd" 2>/dev/null)" = "$lock" ] && return 0
  done
  exec {fd}>>"$lock"
  if ! flock -n "$fd"; then
    echo "$(basename "$0"): waiting for the run in $dir's roots that holds $lock: $(head -1 "$lock" 2>/dev/null)" >&2
    flock "$fd"
  fi
  echo "pid $$, $(basename "$0") $*, since $(date -u '+%H:%M:%S UTC')" >"$lock"
}
lock_roots "$@"

# The crates are fetched here, where the machine's own certificates are
# trusted; the roots then build offline from the shared ~/.cargo.
fetch_crates() {
  cargo fetch --locked --quiet || { echo "cargo fetch failed" >&2; return 1; }
}

# Packages a suite's root starts with, before `make deps` runs in it.
suite_packages() {
  case $1 in
    trixie | sid) echo make,ca-certificates,valkey-server,valkey-tools ;;
    bullseye) echo redis-server ;;
    *) echo make,ca-certificates ;;
  esac
}

# The name of the root of suite $1: the suite, sid-phpX.Y for sid+phpX.Y, and
# trixie-FLAVOUR for source:FLAVOUR (a PHP built from source by
# scripts/php-from-source.bash in a trixie root of its own).
root_name() {
  local suite=${1%%+*}
  case $1 in
    source:*) echo "trixie-${1#source:}" ;;
    *+php*) echo "$suite-php${1#*+php}" ;;
    *) echo "$1" ;;
  esac
}

# The root $2 (default: $1) of suite $1, built when missing. Prints its path;
# 1 when it could not be built (mmdebstrap's log says why).
# A suite written sid+phpX.Y is sid with Debian experimental's PHP X.Y pinned
# (pin_experimental_php): its root is named sid-phpX.Y.
root_of() {
  local suite=${1%%+*} php= name root opts=()
  [ "$suite" = "$1" ] || php=${1#*+php}
  name=${2:-$(root_name "$1")}
  root=$dir/roots/$name
  [ -f "$root/.ratelimit-ready" ] && { echo "$root"; return 0; }
  # sid here is a frozen snapshot whose Release file is past its date.
  [ "$suite" = sid ] && opts+=(--aptopt='Acquire::Check-Valid-Until "false"')
  rm -rf "$root" "$root.new"
  echo "building the $name root ($suite, mmdebstrap)..." >&2
  if ! mmdebstrap --variant=apt "${opts[@]}" --include="$(suite_packages "$suite")" "$suite" "$root.new" >"$dir/logs/root-$name.log" 2>&1; then
    rm -rf "$root.new"
    echo "mmdebstrap $suite failed: $(tail -3 "$dir/logs/root-$name.log" | tr '\n' ' ')" >&2
    return 1
  fi
  [ -z "$php" ] || pin_experimental_php "$root.new" "$php"
  mv "$root.new" "$root" && touch "$root/.ratelimit-ready" && echo "$root"
}

# Debian experimental's PHP $2 (8.5, 8.6) in the sid root $1: experimental's
# archive beside sid's, its phpX.Y packages preferred (experimental is
# otherwise never chosen by itself), and sid's php-common, since
# experimental's (2:102~) Breaks every phpX.Y-common. `make deps
# PHP_VERSION=X.Y` then installs that PHP (scripts/deps.bash).
pin_experimental_php() {
  local root=$1 version=$2
  sed -n 's/^deb \([^ ]*\) sid main$/deb \1 experimental main/p' "$root/etc/apt/sources.list" >"$root/etc/apt/sources.list.d/experimental.list"
  cat >"$root/etc/apt/preferences.d/php$version-experimental" <<PIN
Package: php$version* libphp$version* libapache2-mod-php$version
Pin: release a=experimental
Pin-Priority: 990

Package: php-common
Pin: release a=unstable
Pin-Priority: 1001
PIN
}

# Stops every process still running inside $1 (a test that left a server).
stop_processes_in() {
  local root pid pids=()
  root=$(realpath "$1")
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root" ] && pids+=("$pid")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  echo "stopping ${#pids[@]} process(es) left in $root: ${pids[*]}" >&2
  kill "${pids[@]}" 2>/dev/null; sleep 1; kill -KILL "${pids[@]}" 2>/dev/null
  return 0
}

# A fresh copy of the checkout's files (what git tracks or would add) in
# $1/build/ratelimit, and the mount points of the host's Rust toolchain.
# The copies are stamped now (tar -m), not with the checkout's times: the
# root's target dir outlives the copy, and cargo, which compares times, took
# another checkout's older files for unchanged and ran the build it had made
# of different sources (seen: a run of one commit tested another's .so).
copy_checkout_into() {
  mkdir -p "$1/build/ratelimit" "$1/root/.cargo" "$1/root/.rustup"
  find "$1/build/ratelimit" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  git -C "$checkout" ls-files -z --cached --others --exclude-standard \
    | (cd "$checkout" && tar --null -T - -cf - 2>/dev/null) | tar -xmf - -C "$1/build/ratelimit"
}

# What a run in root $1 needs besides the mounts: apt can resolve names, the
# TLS tests can connect to "localhost" (a minimal root may have no
# /etc/hosts), the checkout is copied in.
prepare_root() {
  cp /etc/resolv.conf "$1/etc/resolv.conf"
  grep -qw localhost "$1/etc/hosts" 2>/dev/null || printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >>"$1/etc/hosts"
  copy_checkout_into "$1"
}

# Runs a command chrooted in root $1, in a mount namespace of its own: the
# binds die with it. Arguments of the form VAR=value before the command are
# added to its (otherwise clean) environment; a PATH given there replaces the default.
in_root() {
  local root=$1; shift
  unshare --mount --propagation private bash -c '
    set -e
    root=$1; shift
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --bind "$HOME/.cargo" "$root/root/.cargo"
    mount --bind "$HOME/.rustup" "$root/root/.rustup"
    if [ -n "${RATELIMIT_ROOT_BIND:-}" ]; then
      mkdir -p "$root${RATELIMIT_ROOT_BIND#*:}"
      mount --bind "${RATELIMIT_ROOT_BIND%%:*}" "$root${RATELIMIT_ROOT_BIND#*:}"
    fi
    exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
      PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      CARGO_TARGET_DIR=/build/target CARGO_NET_OFFLINE=true "$@"
  ' _ "$root" "$@"
}
