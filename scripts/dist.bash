#!/usr/bin/env bash
# `make dist`: the prebuilt binaries, for users without a Rust toolchain.
# In a Debian 12 root (built once with mmdebstrap and kept with make
# matrix's roots under /var/cache/ratelimit-matrix, scripts/matrix-lib.bash),
# with the host's Rust toolchain bound into it, the extension is built once
# per PHP (scripts/dist-root.bash) and packed (scripts/dist-pack.bash) into
# dist/: an archive per PHP named and laid out as PIE downloads pre-packaged
# binaries, each with a manifest.json; the server module's archive; the
# Debian packages of Debian 12's php8.2 and Debian 13's php8.4 and of the
# server module; SHA256SUMS. Built on Debian 12, so they need no newer glibc
# (each .so's GLIBC_ symbol versions are checked). make check-dist installs
# them where no toolchain is.
#
#   scripts/dist.bash [variant ...]   default: 8.2-nts 8.2-zts 8.4-nts 8.4-zts 8.5-nts 8.6-nts;
#                                      the archives of variants built by an earlier run and
#                                      not named now are packed again as they were
# 8.2 NTS is Debian 12's php8.2-dev; 8.5 and 8.6 NTS are Debian
# experimental's php8.5-dev and php8.6-dev, in a sid root of their own
# (dist-headers-sid) bound into the build root, their php run chrooted
# there; 8.4 and the ZTS PHPs are built from their Debian source package's
# upstream tarball, once (kept in the root; 10 to 23 minutes each on this
# project's 2-core machine under load, the extension then 1 to 3 minutes).
# Not built: 8.5 and 8.6 ZTS (the mirror serves no source of them: its
# pool answers 404 for experimental's php8.5 and php8.6 .dsc and tarballs,
# whose binary packages it serves), 8.3 (no Debian suite has a php8.3).
# Log: /var/cache/ratelimit-matrix/logs/dist.log. Needs root.
set -uo pipefail
{
cd "$(dirname "$0")/.."
. scripts/matrix-lib.bash # dir, root_of, prepare_root, in_root, stop_processes_in, fetch_crates
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(8.2-nts 8.2-zts 8.4-nts 8.4-zts 8.5-nts 8.6-nts)
log=$dir/logs/dist.log
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +)

fetch_crates || exit 1
root=$(root_of bookworm dist-build-bookworm) || { echo "the Debian 12 build root was not built: see $dir/logs/root-dist-build-bookworm.log"; exit 1; }
prepare_root "$root"
# The variants named are built again; those of an earlier run stay and are
# packed too (each manifest names the commit it was built from).
for variant in "${variants[@]}"; do rm -rf "$root/build/out/$variant"; done
# Debian experimental's PHP 8.5 and 8.6 (NTS) in a sid root, for the variants that build against them.
if grep -qE '^8\.[56]-nts$' <(printf '%s\n' "${variants[@]}"); then
  headers=$(root_of "sid+php8.5" dist-headers-sid) || { echo "the sid root of PHP 8.5 and 8.6 was not built: see $dir/logs/root-dist-headers-sid.log"; exit 1; }
  pin_experimental_php "$headers" 8.6
  prepare_root "$headers"
  in_root "$headers" bash -c 'apt-get update -qq -o Acquire::Check-Valid-Until=false && apt-get install -y -qq --no-install-recommends php8.5-dev php8.5-cli php8.6-dev php8.6-cli >/dev/null' \
    || { echo "Debian experimental's php8.5-dev and php8.6-dev did not install in $headers"; exit 1; }
  export RATELIMIT_ROOT_BIND=$headers:/opt/sid
fi
echo "== make dist: ${variants[*]} in $root (log: $log)"
in_root "$root" RATELIMIT_COMMIT="$commit" nice -n 10 bash /build/ratelimit/scripts/dist-root.bash "${variants[@]}" 2>&1 | tee "$log"
built=${PIPESTATUS[0]}
unset RATELIMIT_ROOT_BIND
in_root "$root" bash /build/ratelimit/scripts/dist-pack.bash 2>&1 | tee -a "$log"
packed=${PIPESTATUS[0]}
stop_processes_in "$root"

# dist/: this run's files replace the last run's (make deb's packages of the same names included).
mkdir -p dist
rm -f dist/php_ratelimit-*.tgz dist/ratelimit-redis-*.tgz dist/SHA256SUMS
cp "$root"/build/dist/* dist/
echo "dist/ (commit $commit):"
(cd dist && sha256sum -c --quiet SHA256SUMS && ls -1 $(awk '{print $2}' SHA256SUMS))
[ "$built" -eq 0 ] && [ "$packed" -eq 0 ] || { echo "make dist: some PHP was not built or packed (see above)"; exit 1; }
}
