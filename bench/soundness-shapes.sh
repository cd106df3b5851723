#!/usr/bin/env bash
# The small shapes of the soundness work (test/Inputs/cuda/soundness.cu,
# sm_80, -O3 and -G): wall time and peak memory of one kproof-opt run each,
# under a time limit (default 150 s; a run past it prints "timeout").
# Goal: every shape under 1 s. Contracts: bench/contracts/soundness-*.mlir.
# Usage:
#   bench/soundness-shapes.sh [BUILD_DIR]        (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
printf '%-28s %-5s %-7s %-9s %9s %10s\n' shape build mode verdict seconds "peak MiB"
for spec in \
    "attn_tile_4thr equiv" "attn_tile_4thr sync" \
    "softmax_2warp_scratch sync" "softmax_2warp_scratch equiv" \
    "decode_skip_ok sync" "decode_skip_race sync"; do
  set -- $spec
  for b in O3 G; do
    ptx=test/Inputs/cuda/ptx/soundness.sm80.$b.ptx
    tf=$(mktemp)
    out=$(/usr/bin/time -o "$tf" -f '%e %M' timeout "$limit" "$opt" "$ptx" \
            --verify-$2 --contract=bench/contracts/soundness-$1.$2.mlir \
            2>/dev/null)
    rc=$?
    verdict=$(printf '%s\n' "$out" | grep -E '^(PROVED|REFUTED|UNKNOWN)' | tail -1 | cut -d: -f1)
    read -r secs kb < <(grep -E '^[0-9.]+ [0-9]+$' "$tf" | tail -1)
    rm -f "$tf"
    [ "$rc" = 124 ] && verdict=timeout
    printf '%-28s %-5s %-7s %-9s %9s %10s\n' "$1" "$b" "$2" "${verdict:-?}" "$secs" "$(( ${kb:-0} / 1024 ))"
  done
done
