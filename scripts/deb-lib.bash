# What both Debian packages (scripts/build-deb.bash, scripts/build-module-deb.bash)
# do alike, sourced by them. Each builds its tree in $work/root first.

# deb_start NAME CARGO_TOML: sets version (the crate's, Debian revision -1),
# arch, deb (its path in dist/), work (a temp dir removed on exit) and root
# (the package tree, with its DEBIAN/).
deb_start() {
  name=$1
  version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$2" | head -1)-1
  arch=$(dpkg --print-architecture)
  deb=dist/${name}_${version}_$arch.deb
  work=$(mktemp -d "${TMPDIR:-/tmp}/$name-deb.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  root=$work/root
  install -d "$root/DEBIAN"
}

# deb_shlibs WORK NAME FILE: the Depends of the shared libraries FILE (a path
# under WORK) needs, as package versions. dpkg-shlibdeps wants a
# debian/control to read; a minimal one in the work dir will do.
deb_shlibs() {
  local work=$1 name=$2 file=$3
  mkdir -p "$work/debian"
  printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$name" "$name" >"$work/debian/control"
  (cd "$work" && dpkg-shlibdeps -O "$file" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
}

# deb_build ROOT DEB: the md5sums of ROOT's files, then the package DEB
# (in dist/); prints its path.
deb_build() {
  local root=$1 deb=$2
  (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
  mkdir -p dist
  dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
  echo "$deb"
}
