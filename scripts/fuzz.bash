#!/usr/bin/env bash
# `make fuzz`: every coverage-guided fuzz target (fuzz/fuzz_targets/, cargo
# fuzz with libFuzzer and AddressSanitizer) for FUZZ_SECONDS each, starting
# from its corpus kept in the repository (fuzz/corpus/<target>). What a run
# learns goes to a work corpus outside the repository; a finding (a panic, a
# failed check, a sanitizer report, a timeout, running out of memory) fails
# the run, is kept in fuzz/artifacts/<target>/ and its reproducer is printed.
#
#   scripts/fuzz.bash [target...]         (default: every target)
# Environment: FUZZ_SECONDS (default 60), FUZZ_MERGE=1: afterwards, merge
# what the runs found into fuzz/corpus (minimised: only inputs that add
# coverage), to commit.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
work=${CARGO_TARGET_DIR:-target}/fuzz-corpus
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls fuzz/fuzz_targets | sed -n 's/\.rs$//p' | sort)

# The nightly toolchain (cargo fuzz builds with -Zsanitizer) and cargo-fuzz.
rustup run nightly rustc --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

# Each target's input size: the core's sequences get long enough at 4 kB;
# the rest read short inputs.
max_len() {
  case $1 in
    core_arithmetic | module_commands | connection_arrays) echo 2048 ;;
    *) echo 1024 ;;
  esac
}

cd fuzz
echo "-- building ${#targets[@]} fuzz targets"
nice -n 10 cargo +nightly fuzz build 2>&1 | grep -E '^(error|warning)|Finished' || true
failed=()
for t in "${targets[@]}"; do
  mkdir -p "../$work/$t" "corpus/$t"
  echo "-- $t: ${seconds}s"
  log=$(mktemp)
  # -timeout: one input taking 10 s is a finding (a hang); -rss_limit_mb: so is 2 GB.
  if nice -n 10 cargo +nightly fuzz run "$t" "../$work/$t" "corpus/$t" -- \
      -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^Done' "$log" | tail -1
  else
    failed+=("$t")
    grep -vE '^"|Uses:|^#[0-9]+' "$log" | grep -A40 -E 'panicked|ERROR|Test unit written' | head -80
  fi
  rm -f "$log"
  if [ "${FUZZ_MERGE:-0}" = 1 ]; then
    merged=$(mktemp -d)
    nice -n 10 cargo +nightly fuzz run "$t" "$merged" "corpus/$t" "../$work/$t" -- -merge=1 -max_len="$(max_len "$t")" >/dev/null 2>&1
    rm -rf "corpus/$t" && mv "$merged" "corpus/$t"
    echo "   corpus/$t: $(ls "corpus/$t" | wc -l) inputs, $(du -sh "corpus/$t" | cut -f1)"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in fuzz/artifacts/; cd fuzz && cargo +nightly fuzz run <target> <input> replays one, RATELIMIT_FUZZ_SHOW=1 says what it does)"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, no findings"
