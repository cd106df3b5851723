#!/usr/bin/env bash
# The QK stress proof (test/Inputs/cuda/qk_pairs.cu, nvcc sm_80 -O3 and
# sm_90 -G): 4,096 (query, key) pairs at D = 128, one CTA per pair, one
# lane per partial product published through shared memory and summed by
# lane 0 (1,048,576 scalar Q and K values), against S = Q K^T; then the
# planted bugs (the last partial dropped; no barrier, under --verify-sync).
# Wall time, peak memory and verdict of one run each.
# Usage:
#   bench/qk-pairs.sh [BUILD_DIR]        (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-300}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source bench/measure.sh
# The contract of test/Verifier/qk-pairs.mlir, for kernel $2.
contract() {
  sed -n '/^\/\/--- qk.mlir/,$p' test/Verifier/qk-pairs.mlir | tail -n +2 |
    sed "s/kernel = \"qk_pairs\"/kernel = \"$2\"/" > "$1"
}
printf '%-22s %-10s %-13s %-9s %9s %10s\n' kernel ptx mode verdict seconds "peak MiB"
for spec in "qk_pairs sm80.O3 --verify-equiv" "qk_pairs sm90.G --verify-equiv" \
            "qk_pairs_drop_last sm80.O3 --verify-equiv" \
            "qk_pairs_no_sync sm80.O3 --verify-sync"; do
  set -- $spec
  contract "$tmp/c.mlir" "$1"
  measure "test/Inputs/cuda/ptx/qk_pairs.$2.ptx" "$tmp/c.mlir" "$3"
  printf '%-22s %-10s %-13s %-9s %9s %10s\n' "$1" "$2" "$3" "$VERDICT" "$SECS" "$MIB"
done
