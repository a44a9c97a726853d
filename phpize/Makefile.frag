# Appended to the Makefile phpize's configure writes (see config.m4). cargo
# decides what is out of date, so it runs on every make; the library is then
# copied into modules/, from where `make install` copies it to the extension dir.
.PHONY: ratelimit-cargo
ratelimit-cargo:

$(phplibdir)/ratelimit.so: ratelimit-cargo
	cd "$(RATELIMIT_ROOT)" && $(RATELIMIT_CARGO_ENV) "$(CARGO)" build --release --locked && \
	  mkdir -p "$(phplibdir)" && cp "$${CARGO_TARGET_DIR:-target}/release/libratelimit.so" "$@"
