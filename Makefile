# ratelimit: a PHP extension in Rust. `make help` lists the targets.
SHELL := /bin/bash
# The PHP to build for: the php and php-config on PATH, or PHP_VERSION=8.5 for
# Debian's php8.5 and php-config8.5 (make deps installs that version's
# packages), or PHP=/path/to/php PHP_CONFIG=/path/to/php-config.
PHP_VERSION ?=
PHP ?= php$(PHP_VERSION)
PHP_CONFIG ?= php-config$(PHP_VERSION)
# Another PHP than php and php-config on PATH goes to cargo as absolute paths
# (ext-php-rs's build script refuses a bare name that is not a file); the
# PHP on PATH goes as nothing, since a changed environment makes cargo build
# ext-php-rs again (phpize/config.m4 does the same). Expanded when the recipe
# runs, after make deps has installed PHP.
CARGO_PHP_ENV = $(if $(filter-out php,$(PHP))$(filter-out php-config,$(PHP_CONFIG)),PHP="$(shell command -v $(PHP) || echo $(PHP))" PHP_CONFIG="$(shell command -v $(PHP_CONFIG) || echo $(PHP_CONFIG))")
CARGO_TARGET_DIR ?= target
# SANITIZE=address: the extension instrumented for AddressSanitizer (nightly
# rustc's -Zsanitizer=address), for a PHP built with --enable-address-sanitizer
# (the asan row of make matrix). A Rust cdylib does not carry a sanitizer
# runtime: it uses the one that PHP links (GCC's libasan, the same
# instrumentation ABI), so there is one runtime in the process. --target keeps
# the flag off build scripts and proc macros, which run in cargo, not in PHP.
# Only for that PHP: any other lacks the runtime and cannot load this .so.
SANITIZE ?=
HOST_TRIPLE = $(shell rustc -vV | sed -n 's/^host: //p')
SO := modules/ratelimit.so
MODULE_SO := modules/ratelimit-redis.so
SOURCES := Cargo.toml Cargo.lock build.rs $(shell find src lua core/src core/Cargo.toml -type f 2>/dev/null)
MODULE_SOURCES := Cargo.toml Cargo.lock $(shell find core/src core/Cargo.toml module/src module/Cargo.toml -type f 2>/dev/null)


.PHONY: help deps build module yii-vendor test test-faults test-valgrind test-valgrind-server fuzz check-unsafe check-imports check-architecture test-php test-threads bench-threads test-fpm matrix zts php-from-source check-official-layout demo install uninstall deb dist check-dist check-packaging stubs check-stubs bench plots clean

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

deps: ## install the Debian packages the project needs (idempotent; sudo when not root; for the php on PATH, PHP_VERSION=X.Y's, none beside a PHP built from source)
	@PHP_VERSION="$(PHP_VERSION)" scripts/deps.bash

build: $(SO) ## build the release extension into modules/ratelimit.so

$(SO): $(SOURCES) | deps
ifeq ($(SANITIZE),)
	$(CARGO_PHP_ENV) cargo build --release
	@mkdir -p modules
	cp $(CARGO_TARGET_DIR)/release/libratelimit.so $(SO)
else
	rustup run nightly rustc --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
	$(CARGO_PHP_ENV) RUSTFLAGS="-Zsanitizer=$(SANITIZE)" cargo +nightly build --release --target $(HOST_TRIPLE)
	@mkdir -p modules
	cp $(CARGO_TARGET_DIR)/$(HOST_TRIPLE)/release/libratelimit.so $(SO)
	@# Instrumented code calls the runtime's report functions; without them the flag did nothing.
	nm -D --undefined-only $(SO) | grep -q ' __asan_report_load' || { echo "$(SO) is not instrumented for $(SANITIZE)"; rm -f $(SO); exit 1; }
endif

module: $(MODULE_SO) ## build the Redis/Valkey module into modules/ratelimit-redis.so (loadmodule it; the extension uses it where a server has it)

$(MODULE_SO): $(MODULE_SOURCES) | deps
	cargo build --release -p ratelimit-redis
	@mkdir -p modules
	cp $(CARGO_TARGET_DIR)/release/libratelimit_redis.so $(MODULE_SO)

# Where make yii-vendor finds the Yii repositories (each as <owner>+<name>/repo
# or <owner>/<name>.git): the directory this project's build machine fetches
# public repositories into; elsewhere, name your own.
YII_GIT_ROOT ?= /work/.mirror

yii-vendor: ## lay out integrations/yii{1,2,3}/vendor (Yii 1.1.32, 2.0.55, yiisoft/rate-limiter 3.0 + a Yii 3 app) from git repositories under YII_GIT_ROOT, for the Yii tests (no Composer registry needed; absent: those tests skip, listed apart)
	YII_GIT_ROOT="$(YII_GIT_ROOT)" scripts/yii-vendor.bash

test: $(SO) $(MODULE_SO) ## cargo test (built while the suite runs) + the phpt suite twice at once, each pass against a redis-server of its own, one with the server module loaded; prints its time; ends "N passed, N failed"
	scripts/run-tests.bash

test-faults: $(SO) ## the fault suite only (php-tests/faults: refused, hanging, stalled, restarted, auth, fork, soak, php-fpm+nginx); part of make test
	RATELIMIT_SKIP_CARGO=1 scripts/run-tests.bash php-tests/faults

test-valgrind: $(SO) $(MODULE_SO) ## the phpt suite, both passes, every PHP under valgrind memcheck: an error or a definite/indirect leak fails its test (scripts/valgrind/php.supp; installs valgrind; slow; soak shortened)
	@command -v valgrind >/dev/null || { sudo=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$sudo apt-get install -y -qq valgrind >/dev/null; }
	RATELIMIT_VALGRIND=1 RATELIMIT_SKIP_CARGO=1 RATELIMIT_SOAK_CALLS=60000 scripts/run-tests.bash $(TESTS)

test-valgrind-server: $(SO) $(MODULE_SO) ## cargo test and the phpt suite's module pass with every redis-server (the server module in it) under valgrind memcheck; a report with an error fails (scripts/valgrind/server.supp; slow)
	@command -v valgrind >/dev/null || { sudo=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$sudo apt-get install -y -qq valgrind >/dev/null; }
	RATELIMIT_VALGRIND_SERVER=1 RATELIMIT_MODULE_PASS=only scripts/run-tests.bash $(TESTS)

fuzz: ## every fuzz target (fuzz/: DSNs, connection arrays, ini values, RESP replies, the module's commands, the core's arithmetic) for FUZZ_SECONDS each (default 60) from its corpus in fuzz/corpus; a finding fails (cargo +nightly fuzz, installed if missing; FUZZ_MERGE=1 keeps what the runs found in fuzz/corpus)
	scripts/fuzz.bash $(FUZZ_TARGETS)

test-php: $(SO) $(MODULE_SO) ## only the phpt suite (TESTS=php-tests/some.phpt to pick; RATELIMIT_MODULE_PASS=only|no: only/without the pass with the module)
	RATELIMIT_SKIP_CARGO=1 scripts/run-tests.bash $(TESTS)

test-threads: $(SO) $(MODULE_SO) ## under a thread-safe PHP with the embed SAPI (make zts runs it): 16 threads in one process, exact counts, one pool, per-request ini, block cache, fork, faults (TESTS=… to pick)
	scripts/threads.bash $(TESTS)

bench-threads: $(SO) $(MODULE_SO) ## under a thread-safe PHP with the embed and FPM SAPIs (make bench runs it in make zts's root): 1, 8, 16 threads of one process against as many php-fpm workers, Lua and module, decisions per second and per Redis core-second; 16 of each on one hot key, leased and not (issue 52) (BENCH_QUICK=1: tiny)
	scripts/bench-threads.bash

test-fpm: $(SO) ## php-fpm (4 workers) behind nginx under ab load: exact counts, reused connections, Redis restarted; part of make test
	scripts/fpm-load.bash

matrix: ## build + cargo test + phpt suite in a Debian root per row (bookworm, trixie Redis/Valkey, sid, Redis 6, PHP 8.5 and 8.6 against Redis/Valkey, zts, debug NTS and ZTS, ASAN); ROWS="trixie-redis …" to pick; needs root
	scripts/matrix.bash $(ROWS)

zts: ## the suite and make test-threads under a thread-safe PHP 8.4 built from source as the php:8.x-zts images (/usr/local, conf.d scan dir; once, in a trixie root under /var/cache/ratelimit-matrix), with make check-official-layout; TESTS=… for some phpt only; needs root
	scripts/php-from-source.bash zts

php-from-source: ## the suite under a PHP 8.4 of FLAVOUR built from source in a trixie root (make zts's builder): FLAVOUR=zts, debug-nts (--enable-debug: leaks reported, assertions on), debug-zts (and the thread tests), asan (AddressSanitizer + UBSan, the Zend allocator off, the extension instrumented: SANITIZE=address); TESTS=… for some phpt only; needs root
	scripts/php-from-source.bash $(FLAVOUR)

check-official-layout: $(SO) ## under a PHP laid out as the official images (make zts runs it): no second PHP, make install/uninstall into its conf.d, docs/install.md's Dockerfile build step (PIE's), php-fpm loads it
	scripts/check-official-layout.bash

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

dist: ## prebuilt binaries in dist/ for users without a Rust toolchain, built in a Debian 12 root (its glibc the floor): an archive per PHP named and laid out for PIE (8.2 and 8.4 NTS and ZTS, 8.5 and 8.6 NTS; DIST_PHPS="8.4-nts 8.4-zts" to pick) with a manifest.json, the server module's, the .debs of Debian 12's php8.2 and 13's php8.4, SHA256SUMS; needs root
	scripts/dist.bash $(DIST_PHPS)

check-dist: ## install make dist's files where no toolchain is (Debian 12, 13, sid and experimental's 8.5 and 8.6 in roots without cargo, clang, php-dev: the .debs, the archives in Debian's PHP and in the official images' /usr/local PHP: 8.4 NTS and ZTS, 8.2 ZTS), php-fpm, the phpt suite against them, a wrong archive refused; DIST_CHECKS="…" to pick; needs root
	scripts/check-dist.bash $(DIST_CHECKS)

stubs: $(SO) ## regenerate stubs/ratelimit.stub.php from the loaded extension
	$(PHP) -n -d extension=$(SO) scripts/stubs.php > stubs/ratelimit.stub.php

check-unsafe: ## fail when an unsafe block lacks its SAFETY comment (clippy) or docs/safety.md's count of them is stale
	scripts/check-unsafe.bash

check-imports: ## fail when files, or folders, of a crate (src/, core/src, module/src) import each other in a circle, naming the lines; first proves it fails on tests/fixtures/imports
	@diff -u tests/fixtures/imports/expected.txt <(cd tests/fixtures/imports && $(PHP) -n ../../../scripts/check-imports.php --edges src; echo "exit $$?") \
	  || { echo "check-imports: its self-test (tests/fixtures/imports) no longer gives expected.txt"; exit 1; }
	$(PHP) -n scripts/check-imports.php

check-architecture: ## fail when a file, function or type that docs/ARCHITECTURE.md names no longer exists (the convention: scripts/check-architecture.php); first proves it fails on tests/fixtures/architecture/broken.md
	@diff -u tests/fixtures/architecture/expected.txt <(for d in good broken; do $(PHP) -n scripts/check-architecture.php --root tests/fixtures/architecture $$d.md; echo "exit $$?"; done) \
	  || { echo "check-architecture: its self-test (tests/fixtures/architecture) no longer gives expected.txt"; exit 1; }
	$(PHP) -n scripts/check-architecture.php

check-stubs: $(SO) ## fail when stubs/ratelimit.stub.php differs from the extension
	$(PHP) -n -d extension=$(SO) scripts/stubs.php | diff -u stubs/ratelimit.stub.php -

bench: $(SO) $(MODULE_SO) ## one run: PING, every algorithm, userland, Symfony, Laravel (TCP+unix), Redis-side time, client CPU, issue 10 ratios, 8-process throughput, 8 processes on one hot key leased and not, Redis Cluster + TLS rows → BENCHMARKS.md + docs/benchmarks.png (BENCH_QUICK=1: tiny)
	scripts/bench.bash

plots: $(SO) ## docs/plots/*.png and the memory table from real runs of every algorithm against a redis-server (gnuplot)
	scripts/plots.bash

clean: ## remove build output
	cargo clean
	rm -rf modules dist
