# Appended to the Makefile phpize's configure writes (see config.m4). cargo
# decides what is out of date, so it runs on every make; the library is then
# copied into modules/, from where `make install` copies it to the extension dir.
.PHONY: ratelimit-cargo
ratelimit-cargo:

$(phplibdir)/ratelimit.so: ratelimit-cargo
	cd "$(RATELIMIT_ROOT)" && $(RATELIMIT_CARGO_ENV) "$(CARGO)" build --release --locked && \
	  mkdir -p "$(phplibdir)" && cp "$${CARGO_TARGET_DIR:-target}/release/libratelimit.so" "$@"

# `make test`: the project's phpt suite (../php-tests, both passes: the Lua
# library deciding, then the server module) against the module this build
# made, with the redis-server scripts/run-tests.bash starts; TESTS=… picks
# tests (paths from the repository root). Not cargo's tests: they are the
# sources', not this build's. The PHP configure was given comes first on PATH.
test: all
	cd "$(RATELIMIT_ROOT)" && PATH="$$(dirname "$(PHP_EXECUTABLE)"):$$PATH" RATELIMIT_SO="$(phplibdir)/ratelimit.so" RATELIMIT_SKIP_CARGO=1 \
	  scripts/run-tests.bash $(TESTS)
