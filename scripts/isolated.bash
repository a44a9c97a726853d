#!/usr/bin/env bash
# Runs a command with /etc, /usr and /var as throwaway copies: overlays in a
# private mount namespace, so what the command installs (make install,
# apt install ./php<X.Y>-ratelimit_….deb) is seen by it and its children only,
# and gone when it ends. Installs can then be checked on a machine shared with
# others without changing what their PHP loads. Needs root (CAP_SYS_ADMIN).
#
#   scripts/isolated.bash command [args...]     e.g. scripts/isolated.bash make install test uninstall
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 command [args...]" >&2; exit 2; }

if [ -z "${RATELIMIT_ISOLATED_DIR:-}" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/ratelimit-isolated.XXXXXX")
  rc=0
  RATELIMIT_ISOLATED_DIR=$dir unshare --mount --propagation private "$0" "$@" || rc=$?
  rm -rf "$dir" # the namespace and its mounts died with the command
  exit "$rc"
fi

# Inside the new namespace: the overlays, then the command.
for d in etc usr var; do
  mkdir -p "$RATELIMIT_ISOLATED_DIR/$d/upper" "$RATELIMIT_ISOLATED_DIR/$d/work"
  mount -t overlay "isolated-$d" \
    -o "lowerdir=/$d,upperdir=$RATELIMIT_ISOLATED_DIR/$d/upper,workdir=$RATELIMIT_ISOLATED_DIR/$d/work" "/$d"
done
unset RATELIMIT_ISOLATED_DIR
export RATELIMIT_ISOLATED=1
exec "$@"
