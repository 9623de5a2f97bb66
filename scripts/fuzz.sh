#!/usr/bin/env bash
# Runs the fuzz targets (cargo-fuzz, libFuzzer) for SECONDS each (default 600) and prints how many inputs
# each executed: the stream reader's `reader` and `roundtrip`, and the patch crate's `stabilizer` (any bytes
# as the patch model's output against the sample resume, under a 1 GB memory limit). `scripts/fuzz.sh 60
# stabilizer` runs one target. The stable toolchain is enough: RUSTC_BOOTSTRAP lets it take the flags
# cargo-fuzz passes, and no sanitizer is needed for safe Rust.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${1:-600}"
ONLY="${2:-}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
mkdir -p "$ROOT/target"
for spec in stream:reader:4096 stream:roundtrip:4096 patch:stabilizer:16384; do
  IFS=: read -r crate target max_len <<<"$spec"
  [ -n "$ONLY" ] && [ "$ONLY" != "$target" ] && continue
  cd "$ROOT/crates/$crate"
  seeds=()
  [ -d fuzz/seeds ] && seeds=(fuzz/seeds) && mkdir -p "fuzz/corpus/$target"
  corpus=()
  [ "${#seeds[@]}" -gt 0 ] && corpus=("fuzz/corpus/$target" "${seeds[@]}")
  echo "==> fuzzing $target for ${SECONDS_EACH}s"
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" --sanitizer none --release "${corpus[@]}" -- \
    -max_total_time="$SECONDS_EACH" -max_len="$max_len" -rss_limit_mb=1024 -print_final_stats=1 2>&1 \
    | tee "$ROOT/target/fuzz-$target.log" | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done|ERROR|panicked" || true
  if grep -q "panicked\|ERROR" "$ROOT/target/fuzz-$target.log"; then
    echo "fuzzing $target found a failure: see target/fuzz-$target.log and crates/$crate/fuzz/artifacts/" >&2
    exit 1
  fi
done
