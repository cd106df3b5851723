#!/usr/bin/env bash
# Triton's layer norm forward (test/Inputs/triton/kernels.py,
# layernorm_fwd_kernel, BLOCK = 1024, four warps, sm_90a PTX) writing y and
# the row's mean and rstd, against one func.func spec with three results
# (bench/contracts/triton-layernorm_*.mlir): rows of 8, 64 and 256 columns
# (2 rows), and the twin contract that passes n_cols = 7 for rows of 8.
# Wall time, peak memory and verdict of one --verify-equiv run each, under
# a time limit (default 150 s).
# Usage: bench/triton-layernorm.sh [BUILD_DIR]   (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
source bench/measure.sh
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
printf '%-28s %-9s %9s %10s\n' contract verdict seconds "peak MiB"
for c in 8 64 256 8_ncols7; do
  measure test/Inputs/triton/ptx/layernorm_fwd.sm90.ptx bench/contracts/triton-layernorm_$c.mlir
  printf '%-28s %-9s %9s %10s\n' "layernorm_fwd (rows of $c)" "$VERDICT" "$SECS" "$MIB"
done
