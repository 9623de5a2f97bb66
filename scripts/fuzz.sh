#!/usr/bin/env bash
# Runs the stream crate's fuzz targets (cargo-fuzz, libFuzzer) for SECONDS each (default 600) and prints
# how many inputs each executed. The stable toolchain is enough: RUSTC_BOOTSTRAP lets it take the flags
# cargo-fuzz passes, and no sanitizer is needed for safe Rust.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${1:-600}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cd "$ROOT/crates/stream"
for target in reader roundtrip; do
  echo "==> fuzzing $target for ${SECONDS_EACH}s"
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" --sanitizer none --release -- \
    -max_total_time="$SECONDS_EACH" -max_len=4096 -print_final_stats=1 2>&1 \
    | tee "$ROOT/target/fuzz-$target.log" | grep -E "stat::number_of_executed_units|Done|ERROR|panicked" || true
  if grep -q "panicked\|ERROR" "$ROOT/target/fuzz-$target.log"; then
    echo "fuzzing $target found a failure: see target/fuzz-$target.log and crates/stream/fuzz/artifacts/" >&2
    exit 1
  fi
done
