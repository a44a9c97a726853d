#!/usr/bin/env bash
# `make deps`: the Debian packages the project needs to build, test and demo,
# installed when apt says some are missing (idempotent: a machine that has
# them all is left alone, without an apt-get update); apt-get via sudo when
# not root.
#
# Which PHP's packages:
#   PHP_VERSION=X.Y given          phpX.Y-dev, -cli, -fpm (Debian's, or a suite
#                                  pinned to another, as make matrix's php85/php86 rows)
#   a Debian php on PATH           the packages of that PHP's version
#   a php on PATH that no Debian   none: that PHP is the one to build for and
#     package owns (built from     test with (the official Docker images' layout,
#     source under /usr/local,     make zts's), and a second PHP beside it would
#     as the official images)      only confuse php-config, phpize and run-tests
#   no php at all                  the distribution's default (php-dev, php-cli, …)
# phpredis (phpX.Y-redis) is installed where Debian builds it for that PHP
# and skipped where it does not (PHP 8.5 and 8.6 have none): the extension
# never needs it, and the tests whose subject it is skip without it. predis
# (php-predis) stands in for it in the framework tests.
#
# The framework packages (php-laravel-framework, the Symfony components) are
# plain PHP code in /usr/share/php, but Debian makes them depend on PHP
# runtime packages (php-mbstring, php-intl, php-uuid, …). Beside a foreign
# PHP those would bring Debian's PHP in, so there this script first installs
# a local package, ratelimit-php-on-path, that Provides those names on
# behalf of the PHP on PATH (what equivs does for software installed by
# hand), and then refuses to go on if apt would still install a Debian PHP.
set -euo pipefail

sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive

# The PHP packages, by the rules above: sets php_version and php_packages.
php_packages=() php_version=${PHP_VERSION:-} foreign_php=
php_on_path=$(command -v php || true)
if [ -z "$php_version" ] && [ -n "$php_on_path" ]; then
  if dpkg -S "$(readlink -f "$php_on_path")" >/dev/null 2>&1; then
    php_version=$(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
  else
    foreign_php=$php_on_path
  fi
fi
if [ -z "$foreign_php" ]; then
  php_packages=("php$php_version-dev" "php$php_version-cli" "php$php_version-fpm")
  # What the framework packages ask of PHP, named for this version, so that
  # apt takes this PHP's modules and not the distribution default's.
  [ -z "$php_version" ] || php_packages+=("php$php_version-mbstring" "php$php_version-xml" "php$php_version-intl")
fi
# phpredis, where Debian builds it for this PHP (a candidate in apt's lists).
phpredis_package() {
  [ -z "$foreign_php" ] || return 0
  # Read whole first: under pipefail, grep -q leaving early makes apt-cache's
  # write fail (SIGPIPE), and the pipeline with it, as if there were none.
  local policy
  policy=$(apt-cache policy "php$php_version-redis" 2>/dev/null || true)
  grep -q 'Candidate: [0-9]' <<<"$policy" && echo "php$php_version-redis"
  return 0
}

# composer: the framework tests' Symfony kernel takes Composer\InstalledVersions
# (Composer's runtime API, which FrameworkBundle asks) from it.
# php-predis (plain PHP code, for any PHP: the framework tests' predis client,
# beside a PHP built from source too): Debian 12 has it as a virtual package
# of php-nrk-predis (1.1).
packages=(build-essential redis-server redis-tools clang libclang-dev nginx apache2-utils php-predis
  php-laravel-framework php-symfony-rate-limiter php-symfony-cache php-symfony-lock php-symfony-framework-bundle php-symfony-semaphore composer
  dpkg-dev gnuplot-nox openssl
  python3-prometheus-client) # the Prometheus text-format parser of php-tests/metrics_endpoint.phpt

# The names among $@ that dpkg has not installed (a virtual package, such as
# Debian 12's php-predis, is among them even when a provider is installed).
not_installed() {
  local p
  for p in "$@"; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || echo "$p"
  done
}

# What apt would newly install for $@ (a simulation; nothing is upgraded:
# make deps installs what is missing, it does not update the machine). Fails
# when apt cannot say (no package lists yet).
to_install() {
  local sim
  [ $# -gt 0 ] || return 0
  sim=$(apt-get install -s -qq --no-upgrade "${apt_options[@]}" "$@" 2>&1) || return 1
  awk '/^Inst / && $3 !~ /^\[/ {print $2}' <<<"$sim"
}

# ratelimit-php-on-path: tells dpkg that the PHP runtime the framework
# packages ask for is the one on PATH (see above). Rebuilt when that PHP's
# version or the list changes. php-zip: composer recommends it (apt installs
# recommends), and Debian's php-zip would bring php8.x-common in.
provided='php-cli, php-json, php-mbstring, php-xml, php-intl, php-uuid, php-ctype, php-iconv, php-tokenizer, php-curl, php-igbinary, php-zip'
provide_foreign_php() {
  local version dir
  version=$("$foreign_php" -n -r 'echo PHP_VERSION;')
  [ "$(dpkg-query -W -f='${Version} ${Provides}' ratelimit-php-on-path 2>/dev/null || true)" = "$version $provided" ] && return 0
  dir=$(mktemp -d)
  mkdir -p "$dir/pkg/DEBIAN"
  cat >"$dir/pkg/DEBIAN/control" <<EOF
Package: ratelimit-php-on-path
Version: $version
Architecture: all
Maintainer: ratelimit make deps <root@localhost>
Provides: $provided
Description: the PHP at $foreign_php, for packages that depend on a PHP
 Installed by the ratelimit project's make deps beside a PHP that no Debian
 package owns (built from source, as in the official Docker images), so that
 the framework packages its tests use install without a second PHP.
EOF
  dpkg-deb --build "$dir/pkg" "$dir/ratelimit-php-on-path.deb" >/dev/null
  $sudo dpkg -i "$dir/ratelimit-php-on-path.deb" >/dev/null
  rm -rf "$dir"
  echo "make deps: $foreign_php (PHP $version) is no Debian package's: ratelimit-php-on-path provides it to the framework packages"
}

# Beside a PHP no Debian package owns, recommends are left out: composer's
# php-zip is Debian's PHP (php8.4-zip, php8.4-common).
apt_options=()
[ -z "$foreign_php" ] || apt_options=(--no-install-recommends)

# phpredis is asked for up front when apt's lists know it already, so that a
# machine that lacks it is not taken for complete.
want=("${php_packages[@]}" "${packages[@]}" $(phpredis_package))
# The quick answer from dpkg alone; apt is asked only about what dpkg has not
# installed under that name (a virtual package, phpredis where Debian has none).
unsure=$(not_installed "${want[@]}")
if [ -z "$foreign_php" ] || [ "$(dpkg-query -W -f='${Status}' ratelimit-php-on-path 2>/dev/null || true)" = "install ok installed" ]; then
  if [ -z "$unsure" ] || { missing=$(to_install $unsure $(phpredis_package)) && [ -z "$missing" ]; }; then
    echo "all Debian packages present"
    exit 0
  fi
fi
$sudo apt-get update -qq
[ -z "$foreign_php" ] || provide_foreign_php
# After the update apt's lists know what Debian builds for this PHP (a name
# given twice is one to apt).
want+=($(phpredis_package))
missing=$(to_install "${want[@]}")
if [ -n "$foreign_php" ]; then
  # Never a second PHP beside the one on PATH.
  second=$(grep -E '^(php[0-9.]+-(cli|cgi|fpm|common)|libapache2-mod-php|libphp)' <<<"$missing" || true)
  if [ -n "$second" ]; then
    echo "make deps: would install Debian's PHP beside $foreign_php:" $second >&2
    exit 1
  fi
fi
echo "installing:" $missing
$sudo apt-get install -y -qq --no-upgrade "${apt_options[@]}" "${want[@]}" >/dev/null
