#!/usr/bin/env bash
# Loop summaries over a symbolic length (test/Inputs/cuda/loop_rows.cu,
# sm_80, -O3 and -G): row sum and row max of x [64, n] for every n in
# [1, 2^20] at once (contract: n a size parameter), their planted-bug twins,
# nvcc's default 4x unrolling, a row summed by two loops over its halves,
# and, for comparison, the same row sum with n
# fixed in the contract (the loop then unrolls: n = 4, 32, 128, 1024).
# Wall time, peak memory and verdict of one --verify-equiv run each, under
# a time limit (default 150 s).
# Usage:
#   bench/loop-rows.sh [BUILD_DIR]     (default: build)
#   LIMIT=60 bench/loop-rows.sh
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

contract() { # kernel spec shape-of-x n-param
  cat <<EOC
kproof.contract @rows {
  kernel = "$1", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = $3},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>},
    $4
  ],
  spec = {builtin = "$2", input = "x", output = "y"}
}
EOC
}
symbolic='{name = "n", scalar = i32, range = array<i64: 1, 1048577>}'

source bench/measure.sh
run() { # label build contract-file
  measure test/Inputs/cuda/ptx/loop_rows.sm80.$2.ptx "$3"
  printf '%-34s %-5s %-9s %9s %10s\n' "$1" "$2" "$VERDICT" "$SECS" "$MIB"
}

printf '%-34s %-5s %-9s %9s %10s\n' contract build verdict seconds "peak MiB"
for k in row_sum:sum row_sum_skip_last:sum row_max:max row_max_from_zero:max \
         row_sum_unrolled:sum row_sum_halves:sum; do
  kernel=${k%%:*} spec=${k#*:}
  contract "$kernel" "$spec" '[64, "n"]' "$symbolic" > "$tmp/$kernel.mlir"
  for b in O3 G; do
    run "$kernel (n in [1, 2^20])" "$b" "$tmp/$kernel.mlir"
  done
done
# A row sum staged through shared memory between two barriers, a row sum
# over padded tiles of 4 and its twin adding 3 per tile
# (test/Inputs/cuda/flash_keys.cu; sm_80 and sm_90 -O3).
for kernel in staged_rowsum tiled_rowsum tiled_rowsum_skip; do
  contract $kernel sum '[64, "n"]' "$symbolic" > "$tmp/$kernel.mlir"
  for a in 80 90; do
    measure test/Inputs/cuda/ptx/flash_keys.sm$a.O3.ptx "$tmp/$kernel.mlir"
    printf '%-34s %-5s %-9s %9s %10s\n' "$kernel (n in [1, 2^20])" \
      "sm$a" "$VERDICT" "$SECS" "$MIB"
  done
done
for n in 4 32 128 1024; do
  contract row_sum sum "array<i64: 64, $n>" \
    "{name = \"n\", scalar = i32, value = $n : i32}" > "$tmp/fixed$n.mlir"
  run "row_sum (n = $n, unrolled)" O3 "$tmp/fixed$n.mlir"
done
