#!/usr/bin/env bash
# Kernels written as people write them: CUDA's precise expf and logf
# (test/Inputs/cuda/softmax_expf.cu, logsumexp.cu), a logsumexp merge in
# base 2 with the constants log2(e) and ln(2) (lse_merge.cu), and loops without
# `#pragma unroll 1`, which nvcc -O3 unrolls by 4 with a remainder loop
# (loops_unrolled.cu); sm_80, -O3 and -G. Wall time, peak memory and
# verdict of one --verify-equiv run each, under a time limit (default 150 s).
# Contracts: bench/contracts/idiom-*.mlir (named after the kernel).
# Usage:
#   bench/math-idioms.sh [BUILD_DIR]        (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
source bench/measure.sh
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
printf '%-30s %-5s %-9s %9s %10s\n' contract build verdict seconds "peak MiB"
for c in bench/contracts/idiom-*.mlir; do
  name=$(basename "$c" .mlir); name=${name#idiom-}
  case $name in
    logsumexp*) src=logsumexp ;;
    lse_merge*) src=lse_merge ;;
    row_*) src=loops_unrolled ;;
    *) src=softmax_expf ;;
  esac
  for b in O3 G; do
    measure test/Inputs/cuda/ptx/$src.sm80.$b.ptx "$c"
    printf '%-30s %-5s %-9s %9s %10s\n' "$name" "$b" "$VERDICT" "$SECS" "$MIB"
  done
done
