# ratelimit: a PHP extension in Rust. `make help` lists the targets.
SHELL := /bin/bash
PHP ?= php
PHP_CONFIG ?= php-config
# The distribution's default PHP (php-dev, php-cli, … follow it: 8.2 on Debian 12,
# 8.4 on Debian 13), or PHP_VERSION=8.3 for that version's phpX.Y-* packages.
PHP_VERSION ?=
PHP_PACKAGES := $(addprefix php$(PHP_VERSION)-,dev cli redis fpm)
DEB_PACKAGES := $(PHP_PACKAGES) build-essential redis-server redis-tools clang libclang-dev nginx apache2-utils php-laravel-framework php-symfony-rate-limiter php-symfony-cache php-symfony-lock dpkg-dev gnuplot-nox openssl
CARGO_TARGET_DIR ?= target
SO := modules/ratelimit.so
MODULE_SO := modules/ratelimit-redis.so
SOURCES := Cargo.toml Cargo.lock build.rs $(shell find src lua core/src core/Cargo.toml -type f 2>/dev/null)
MODULE_SOURCES := Cargo.toml Cargo.lock $(shell find core/src core/Cargo.toml module/src module/Cargo.toml -type f 2>/dev/null)


.PHONY: help deps build module test test-faults test-valgrind test-php test-threads bench-threads test-fpm matrix zts demo install uninstall deb check-packaging stubs check-stubs bench plots clean

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

deps: ## install the Debian packages the project needs (idempotent; uses sudo when not root)
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  sudo=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing:" $$missing; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	else echo "all Debian packages present"; fi

build: $(SO) ## build the release extension into modules/ratelimit.so

$(SO): $(SOURCES) | deps
	cargo build --release
	@mkdir -p modules
	cp $(CARGO_TARGET_DIR)/release/libratelimit.so $(SO)

module: $(MODULE_SO) ## build the Redis/Valkey module into modules/ratelimit-redis.so (loadmodule it; the extension uses it where a server has it)

$(MODULE_SO): $(MODULE_SOURCES) | deps
	cargo build --release -p ratelimit-redis
	@mkdir -p modules
	cp $(CARGO_TARGET_DIR)/release/libratelimit_redis.so $(MODULE_SO)

test: $(SO) $(MODULE_SO) ## cargo test + the phpt suite against a redis-server of its own, then again with the server module loaded; ends "N passed, N failed"
	scripts/run-tests.bash

test-faults: $(SO) ## the fault suite only (php-tests/faults: refused, hanging, stalled, restarted, auth, fork, soak, php-fpm+nginx); part of make test
	RATELIMIT_SKIP_CARGO=1 scripts/run-tests.bash php-tests/faults

test-valgrind: $(SO) ## the phpt suite under valgrind memcheck (installs valgrind; slow; soak shortened)
	@command -v valgrind >/dev/null || { sudo=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$sudo apt-get install -y -qq valgrind >/dev/null; }
	RATELIMIT_VALGRIND=1 RATELIMIT_SKIP_CARGO=1 RATELIMIT_SOAK_CALLS=60000 scripts/run-tests.bash $(TESTS)

test-php: $(SO) $(MODULE_SO) ## only the phpt suite (TESTS=php-tests/some.phpt to pick; RATELIMIT_MODULE_PASS=only|no: only/without the pass with the module)
	RATELIMIT_SKIP_CARGO=1 scripts/run-tests.bash $(TESTS)

test-threads: $(SO) $(MODULE_SO) ## under a thread-safe PHP with the embed SAPI (make zts runs it): 16 threads in one process, exact counts, one pool, per-request ini, block cache, fork, faults (TESTS=… to pick)
	scripts/threads.bash $(TESTS)

bench-threads: $(SO) ## under a thread-safe PHP with the embed and FPM SAPIs (make bench runs it in make zts's root): 16 threads of one process against 16 php-fpm workers, decisions per second
	scripts/bench-threads.bash

test-fpm: $(SO) ## php-fpm (4 workers) behind nginx under ab load: exact counts, reused connections, Redis restarted; part of make test
	scripts/fpm-load.bash

matrix: ## build + cargo test + phpt suite in a Debian root per row (bookworm, trixie Redis/Valkey, sid, Redis 6); ROWS="trixie-redis …" to pick; needs root
	scripts/matrix.bash $(ROWS)

zts: ## the suite and make test-threads under a thread-safe PHP 8.4 (built once from trixie's php8.4 source into a trixie root under /var/cache/ratelimit-matrix); TESTS=… for some phpt only; needs root
	scripts/zts.bash

demo: $(SO) ## build, start a local redis-server (or use RATELIMIT_REDIS_URL), show limiters allow and deny
	scripts/demo.bash

install: $(SO) ## the .so into php-config's extension dir, ratelimit.ini enabled (Debian: phpenmod); an edited ini is kept
	scripts/install.bash install "$(SO)" "$(PHP_CONFIG)"

uninstall: ## remove what make install put in place (an edited ini is kept, and said so)
	scripts/install.bash uninstall "$(SO)" "$(PHP_CONFIG)"

check-packaging: $(SO) $(MODULE_SO) ## make deb + apt install + smoke test + purge, make install/uninstall, the phpize path; installs for real (shared machine: scripts/isolated.bash make check-packaging)
	scripts/check-packaging.bash

deb: $(SO) $(MODULE_SO) ## Debian packages: dist/php<X.Y>-ratelimit_<version>_<arch>.deb for php-config's PHP, and dist/ratelimit-redis-module_<version>_<arch>.deb (the server module)
	scripts/build-deb.bash "$(SO)" "$(PHP_CONFIG)"
	scripts/build-module-deb.bash "$(MODULE_SO)"

stubs: $(SO) ## regenerate stubs/ratelimit.stub.php from the loaded extension
	$(PHP) -n -d extension=$(SO) scripts/stubs.php > stubs/ratelimit.stub.php

check-stubs: $(SO) ## fail when stubs/ratelimit.stub.php differs from the extension
	$(PHP) -n -d extension=$(SO) scripts/stubs.php | diff -u stubs/ratelimit.stub.php -

bench: $(SO) $(MODULE_SO) ## one run: PING, every algorithm, userland, Symfony, Laravel (TCP+unix), Redis-side time, client CPU, issue 10 ratios, 8-process throughput, Redis Cluster + TLS rows → BENCHMARKS.md + docs/benchmarks.png (BENCH_QUICK=1: tiny)
	scripts/bench.bash

plots: $(SO) ## docs/plots/*.png and the memory table from real runs of every algorithm against a redis-server (gnuplot)
	scripts/plots.bash

clean: ## remove build output
	cargo clean
	rm -rf modules dist
