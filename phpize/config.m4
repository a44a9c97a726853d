dnl The phpize/PIE build: `cd phpize && phpize && ./configure && make && make install`
dnl (PIE runs the same steps here, composer.json's build-path points at this directory).
dnl The extension is Rust, so there is no C to compile: configure finds cargo,
dnl and Makefile.frag has make call `cargo build --release` in the repository root
dnl and put the library where phpize's install-modules takes modules from.
dnl It lives in its own directory because configure writes a Makefile, which in the
dnl root would overwrite the project's own.

PHP_ARG_ENABLE([ratelimit],
  [whether to enable ratelimit],
  [AS_HELP_STRING([--enable-ratelimit],
    [Enable ratelimit: exact, atomic rate limiting on Redis (built with cargo)])],
  [yes])

if test "$PHP_RATELIMIT" != "no"; then
  dnl rustup installs cargo in ~/.cargo/bin, which a sudo or PIE environment may not have on PATH.
  AC_ARG_VAR([CARGO], [the cargo to build with])
  AC_PATH_PROG([CARGO], [cargo], [no], [$PATH:$HOME/.cargo/bin])
  if test "$CARGO" = "no"; then
    AC_MSG_ERROR([cargo not found: ratelimit is written in Rust; install a Rust toolchain (https://rustup.rs) or set CARGO=/path/to/cargo])
  fi

  AC_MSG_CHECKING([for the ratelimit sources])
  RATELIMIT_ROOT=`cd "$abs_srcdir/.." && pwd`
  if test ! -f "$RATELIMIT_ROOT/Cargo.toml"; then
    AC_MSG_ERROR([no Cargo.toml in $RATELIMIT_ROOT: run phpize in the phpize/ directory of the ratelimit sources])
  fi
  AC_MSG_RESULT([$RATELIMIT_ROOT])

  dnl cargo builds against the PHP whose php-config configure was given. When
  dnl that is the php-config on PATH (by any name or link), cargo finds it by
  dnl itself: passing it anyway would change the build scripts' environment and
  dnl make cargo rebuild everything `make build` in the root already built
  dnl (and make build rebuild it all again afterwards).
  AC_MSG_CHECKING([whether cargo needs PHP_CONFIG and PHP set])
  ratelimit_given=`command -v "$PHP_CONFIG" 2>/dev/null`
  ratelimit_default=`command -v php-config 2>/dev/null`
  RATELIMIT_CARGO_ENV=
  if test -z "$ratelimit_default" || test "`readlink -f "$ratelimit_given"`" != "`readlink -f "$ratelimit_default"`"; then
    RATELIMIT_CARGO_ENV="PHP_CONFIG=$PHP_CONFIG PHP=$PHP_EXECUTABLE"
  fi
  AC_MSG_RESULT([${RATELIMIT_CARGO_ENV:-no, $PHP_CONFIG is the php-config on PATH}])

  dnl No PHP_NEW_EXTENSION (it would compile C sources): the module phpize's
  dnl Makefile builds and installs is the .so the fragment's rule makes.
  PHP_MODULES='$(phplibdir)/ratelimit.so'
  dnl At least one build dir, or configure's "shtool mkdir" complains of none.
  PHP_ADD_BUILD_DIR([modules])
  PHP_SUBST(CARGO)
  PHP_SUBST(RATELIMIT_ROOT)
  PHP_SUBST(RATELIMIT_CARGO_ENV)
  PHP_ADD_MAKEFILE_FRAGMENT([$abs_srcdir/Makefile.frag], [$abs_srcdir], [$abs_builddir])

  dnl `make test`: phpize's own rule runs run-tests.php on tests/ with the
  dnl modules it finds as libtool .la files; this build has neither (the
  dnl suite is ../php-tests and needs the servers scripts/run-tests.bash
  dnl starts), so it ran nothing. Makefile.frag has the rule that runs the
  dnl suite; phpize's is taken out of the copy of Makefile.global phpize put
  dnl here, which configure joins with the fragment after this script (two
  dnl rules for one target would make every make call warn).
  ratelimit_global="$abs_srcdir/build/Makefile.global"
  if grep '^test: all$' "$ratelimit_global" >/dev/null; then
    awk '/^test: all$/ { skip = 1; next } skip && /^\t/ { next } { skip = 0; print }' "$ratelimit_global" >"$ratelimit_global.new" &&
      mv "$ratelimit_global.new" "$ratelimit_global"
  fi
fi
