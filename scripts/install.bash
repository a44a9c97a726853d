#!/usr/bin/env bash
# `make install` / `make uninstall`: the extension into the PHP that php-config
# describes (PHP_CONFIG=php-config8.3 make install for another installed PHP).
#
#   scripts/install.bash install|uninstall <the .so> [php-config]
#
# install:   the .so → `php-config --extension-dir`/ratelimit.so; ratelimit.ini →
#            for Debian's PHP (its scan dir is /etc/php/<version>/<sapi>/conf.d)
#            /etc/php/<version>/mods-available, enabled with phpenmod (a conf.d
#            link per SAPI, named after the ini's "; priority=" line); for any
#            other PHP (built from source under /usr/local, as the official
#            Docker images: scan dir /usr/local/etc/php/conf.d) its own
#            `php-config --ini-dir`/20-ratelimit.ini, and nothing of Debian's
#            PHP is touched even when one is installed beside it.
#            An ini already there that differs from ours was edited by someone:
#            it stays, and ours is written beside it as ratelimit.ini.dist.
# uninstall: phpdismod (links and phpenmod's state), the .so, the .dist, and
#            the ini unless it differs from ours (an edited ini is kept, said so).
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PATH:/usr/sbin:/sbin" # phpenmod lives there; not in every user's PATH

action=${1:?install or uninstall} so=${2:?the .so} php_config=${3:-php-config}
version=$("$php_config" --version | cut -d. -f1,2)
ext_dir=$("$php_config" --extension-dir)
php_bin=$("$php_config" --php-binary)
ours=ratelimit.ini
# Which layout is the PHP's own, not which one the machine happens to have.
scan_dir=$("$php_config" --ini-dir)
if [[ $scan_dir == /etc/php/$version/*/conf.d ]] && [ -d "/etc/php/$version/mods-available" ] && command -v phpenmod >/dev/null; then
  debian=1 ini=/etc/php/$version/mods-available/ratelimit.ini
else
  [ -n "$scan_dir" ] || { echo "$php_bin scans no conf.d directory: add extension=ratelimit to its php.ini by hand" >&2; exit 1; }
  debian=0 ini=$scan_dir/20-ratelimit.ini
fi

case "$action" in
install)
  install -d "$ext_dir"
  [ "$debian" = 1 ] || install -d "$scan_dir"
  install -m 0755 "$so" "$ext_dir/ratelimit.so"
  echo "installed $ext_dir/ratelimit.so"
  if [ -f "$ini" ] && ! cmp -s "$ours" "$ini"; then
    install -m 0644 "$ours" "$ini.dist"
    echo "kept $ini (it differs from ours: edited?); ours is $ini.dist"
  else
    install -m 0644 "$ours" "$ini"
    rm -f "$ini.dist"
    echo "installed $ini"
  fi
  if [ "$debian" = 1 ]; then
    phpenmod -v "$version" ratelimit
    echo "enabled with phpenmod -v $version ratelimit: $(ls /etc/php/"$version"/*/conf.d/*-ratelimit.ini | tr '\n' ' ')"
  fi
  info=$("$php_bin" --ri ratelimit) # (not piped into head: php would fail on the closed pipe)
  echo "${info}" | sed -n 1,4p
  ;;
uninstall)
  if [ "$debian" = 1 ] && [ -f "$ini" ]; then
    # -p: also forget phpenmod's record of who enabled it. One SAPI per call:
    # with several, phpdismod -p forgets the record of the last one only.
    for sapi in $(phpquery -S -v "$version"); do
      phpdismod -v "$version" -s "$sapi" -p ratelimit
    done
    echo "disabled with phpdismod -v $version -s <each SAPI> -p ratelimit"
  fi
  if [ -f "$ini" ] && ! cmp -s "$ours" "$ini"; then
    echo "kept $ini: it differs from ours (edited?); remove it by hand if you no longer want it"
  elif [ -f "$ini" ]; then
    rm -f "$ini"; echo "removed $ini"
  fi
  for f in "$ini.dist" "$ext_dir/ratelimit.so"; do
    if [ -e "$f" ]; then rm -f "$f"; echo "removed $f"; fi
  done
  # What is left must not load anything: no .so, no conf.d line naming it.
  # Read whole before grep: under pipefail, grep -q exiting at its match can
  # fail the pipe (SIGPIPE) and hide exactly the line looked for.
  if grep -q ratelimit <<<"$("$php_bin" -m 2>&1)"; then
    echo "ratelimit is still mentioned when $php_bin starts: another ini loads it (php --ini lists them)" >&2
    exit 1
  fi
  ;;
*) echo "usage: $0 install|uninstall <the .so> [php-config]" >&2; exit 2 ;;
esac
