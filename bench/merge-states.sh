#!/usr/bin/env bash
# State merging at control-flow joins (--merge-states): proof time of
# kproof-opt --verify-equiv on kernels whose data-dependent branches nvcc -O3
# keeps (test/Inputs/cuda/branchy.cu, sm_80), with merging (the default) and
# without (--merge-states=false, every path followed to its end: UNKNOWN past
# 256 paths). Columns: the verdict, the paths checked, and the median and
# minimum wall time of REPS runs (default 11) of the whole process.
# Usage:
#   bench/merge-states.sh [BUILD_DIR]        (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
reps=${REPS:-11}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"${LLVM_TOOLS:-/usr/lib/llvm-22/bin}/split-file" test/Verifier/merge-states.mlir "$tmp"

ptx=test/Inputs/cuda/ptx/branchy.sm80.O3.ptx
run() { # label contract [flags...]
  local label=$1 contract=$2
  shift 2
  local times=() out rc
  for _ in $(seq "$reps"); do
    local t0 t1
    t0=$(date +%s%N)
    rc=0
    out=$("$opt" "$ptx" --verify-equiv --contract="$tmp/$contract" "$@" 2>/dev/null) || rc=$?
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  local verdict paths
  verdict=$(tail -1 <<<"$out" | cut -d: -f1)
  paths=$(sed -n 's/^  paths: \([0-9]*\).*/\1/p' <<<"$out")
  IFS=$'\n' sorted=($(sort -n <<<"${times[*]}")); unset IFS
  awk -v l="$label" -v v="$verdict" -v p="${paths:--}" \
    -v med="${sorted[$((reps / 2))]}" -v min="${sorted[0]}" \
    'BEGIN { printf "| %-44s | %-8s | %5s | %9.1f | %9.1f |\n", l, v, p, med / 1000, min / 1000 }'
}
echo "| kernel, mode | verdict | paths | median ms | min ms |"
echo "|---|---|---|---|---|"
for m in "merged:" "split:--merge-states=false"; do
  name=${m%%:*}
  flag=${m#*:}
  run "softmax_online_branchy N=4, $name" softmax4.mlir $flag
  run "softmax_online_branchy N=32, $name" softmax32.mlir $flag
  run "softmax_online_branchy_bug N=4, $name" softmax-bug.mlir $flag
  run "clamp01 64 elements, $name" clamp.mlir $flag
  run "clamp01_bug 64 elements, $name" clamp-bug.mlir $flag
done
