#!/usr/bin/env bash
# `make check-unsafe`: every `unsafe` block of the extension (src/) and the
# server module (module/) says why it is sound, and docs/safety.md states how
# many there are.
# - clippy's undocumented_unsafe_blocks lint (and missing_safety_doc for an
#   `unsafe fn`) over both crates, as errors: a block without a `// SAFETY:`
#   comment fails;
# - the blocks are counted per file (`unsafe {` outside comments; core/ has
#   none and must keep none) and each count must be the one in docs/safety.md's
#   table, as must their total, so the document cannot go stale.
set -euo pipefail
cd "$(dirname "$0")/.."

# `unsafe {` outside comments (a comment that mentions one is not one), per file.
blocks() { sed -e 's://.*$::' "$1" | { grep -o 'unsafe {' || true; } | wc -l; }
failed=0
total=0
for f in $(find src module/src core/src -name '*.rs' | sort); do
  n=$(blocks "$f")
  [ "$n" -eq 0 ] && continue
  total=$((total + n))
  if [ "${f#core/}" != "$f" ]; then
    echo "$f: $n unsafe block(s); core/ must have none (it runs inside Redis and in every PHP process: #![forbid(unsafe_code)])"
    failed=1
  elif ! grep -qE "^\| \`$f\` \| $n \|" docs/safety.md; then
    echo "docs/safety.md has no row \"| \`$f\` | $n | …\": update its table"
    failed=1
  fi
done
# And no row for a file that has none (or a different count) any more.
while read -r f n; do
  [ -f "$f" ] && [ "$(blocks "$f")" -eq "$n" ] || { echo "docs/safety.md counts $n in $f, which has $( [ -f "$f" ] && blocks "$f" || echo no file)"; failed=1; }
done < <(sed -nE 's/^\| `([^`]+\.rs)` \| ([0-9]+) \|.*/\1 \2/p' docs/safety.md)
grep -qE "^\*\*$total\*\* unsafe blocks" docs/safety.md || { echo "docs/safety.md does not say **$total** unsafe blocks in all"; failed=1; }
echo "unsafe blocks: $total (src/ and module/; core/ none)"

echo "-- clippy: undocumented_unsafe_blocks, missing_safety_doc"
nice -n 10 cargo clippy --release --quiet -p ratelimit -p ratelimit-redis --lib -- \
  -A clippy::all -D clippy::undocumented_unsafe_blocks -D clippy::missing_safety_doc || failed=1
[ "$failed" -eq 0 ] && echo "every unsafe block says why it is sound; docs/safety.md counts them"
exit "$failed"
