#!/usr/bin/env bash
# Loops that store one element per iteration over a symbolic length
# (test/Inputs/cuda/loop_stores.cu, sm_80 -O3 and sm_90 -G): the stores are
# store families of the summarized loop, so each proof covers every n in
# [1, 2^20]. Row copy and three-pass softmax (one thread per row of
# [64, n], grid 2 x block 32), the softmax twin that sums one element
# fewer, a grid-stride copy over n (grid 4 x block 32) and its twin that
# strides by blockDim.x only. Wall time, peak memory and verdict of one
# --verify-equiv run each, under a time limit (default 150 s); RUNS=k runs
# each k times (the verdicts of the -O3 softmax vary between runs: see
# docs/benchmarks.md).
# Usage:
#   bench/loop-stores.sh [BUILD_DIR]     (default: build)
#   LIMIT=60 RUNS=3 bench/loop-stores.sh
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
runs=${RUNS:-1}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

contract() { # kernel spec grid shape
  cat <<EOC
kproof.contract @loops {
  kernel = "$1", grid = array<i64: $3, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = $4},
    {name = "y", buffer = "out", space = "global", type = f32, shape = $4},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "$2", input = "x", output = "y"}
}
EOC
}

source bench/measure.sh
run() { # label ptx contract-file build
  measure "$2" "$3"
  printf '%-28s %-9s %-9s %9s %10s\n' "$1" "$4" "$VERDICT" "$SECS" "$MIB"
}

printf '%-28s %-9s %-9s %9s %10s\n' kernel build verdict seconds "peak MiB"
for k in row_copy:copy:2:rows softmax_rows_3pass:softmax:2:rows \
         softmax_rows_3pass_short:softmax:2:rows grid_stride_copy:copy:4:flat \
         grid_stride_copy_block:copy:4:flat; do
  IFS=: read -r kernel spec grid layout <<< "$k"
  shape='[64, "n"]'
  [ "$layout" = flat ] && shape='["n"]'
  contract "$kernel" "$spec" "$grid" "$shape" > "$tmp/$kernel.mlir"
  for b in sm80.O3 sm90.G; do
    for ((r = 0; r < runs; ++r)); do
      run "$kernel" test/Inputs/cuda/ptx/loop_stores.$b.ptx "$tmp/$kernel.mlir" "$b"
    done
  done
done
