#!/usr/bin/env bash
# The kernels of the symbolic-memory work (test/Inputs/cuda/memory_layouts.cu
# attention_rows_stats.cu, block_reduce_cub.cu, transpose_tiled.cu,
# memory_rmw.cu, attention_tiled.cu and varlen.cu, sm_80, -O3 and -G): several stores per
# thread, float4 accesses, RMSnorm with shuffles, gathers through index
# tables, a paged KV cache, a grid-stride loop, several outputs, each with
# its planted bug. Wall time, peak memory and verdict of one --verify-equiv
# run each, under a time limit (default 150 s).
# Contracts: bench/contracts/memory-*.mlir (named after the kernel).
# Usage:
#   bench/memory-kernels.sh [BUILD_DIR]        (default: build)
#   ONLY=attention_tiled bench/memory-kernels.sh   (contracts whose kernel
#                                               name starts with ONLY)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
source bench/measure.sh
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
printf '%-28s %-5s %-9s %9s %10s\n' contract build verdict seconds "peak MiB"
for c in bench/contracts/memory-${ONLY:-}*.mlir; do
  name=$(basename "$c" .mlir); name=${name#memory-}
  src=memory_layouts
  case $name in
    attention_rows_stats*) src=attention_rows_stats ;;
    block_sum_cub*) src=block_reduce_cub ;;
    transpose_smem*) src=transpose_tiled ;;
    axpy_inplace*|accum4_inplace*|select_local8*|scatter_local4*) src=memory_rmw ;;
    attention_tiled*) src=attention_tiled ;;
    varlen*) src=varlen ;;
    causal_softmax*) src=causal_softmax ;;
    warp_softmax_masked*) src=warp_softmax_masked ;;
  esac
  for b in O3 G; do
    measure test/Inputs/cuda/ptx/$src.sm80.$b.ptx "$c"
    printf '%-28s %-5s %-9s %9s %10s\n' "$name" "$b" "$VERDICT" "$SECS" "$MIB"
  done
done
