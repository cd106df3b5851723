#!/usr/bin/env bash
# mbarrier pipelines (test/Inputs/cuda/mbarrier.cu; nvcc -O3 -lineinfo,
# sm_80 test_wait and sm_90 try_wait spin loops): the --verify-sync time of
# a producer/consumer hand-off, a two-round full/empty ping-pong, and a
# 4-stage ring over 8 tiles (one producer warp, one consumer warp, full[4]
# and empty[4] barriers) with its wrong-parity twin, at 2 and at 1024 CTAs.
# Wall time, peak memory and verdict of one run each, under a time limit
# (default 150 s).
# Usage:
#   bench/mbarrier.sh [BUILD_DIR]        (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptx=test/Inputs/cuda/ptx
source bench/measure.sh
# contract FILE KERNEL CTAS BLOCK INPUTS_PER_CTA OUTPUTS_PER_CTA
contract() {
  cat > "$1" <<EOC
kproof.contract @c {
  kernel = "$2", grid = array<i64: $3, 1, 1>, block = array<i64: $4, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: $(( $3 * $5 ))>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: $(( $3 * $5 ))>}
  ]
}
EOC
}
printf '%-20s %-5s %-6s %-9s %9s %10s\n' kernel arch CTAs verdict seconds "peak MiB"
for ctas in 2 1024; do
  for arch in sm80 sm90; do
    for spec in "mb_handoff 128 64" "mb_pingpong 128 128" "mb_ring4 64 256" \
                "mb_ring4_parity 64 256"; do
      set -- $spec
      contract "$tmp/c.mlir" "$1" "$ctas" "$2" "$3"
      measure "$ptx/mbarrier.$arch.O3.ptx" "$tmp/c.mlir" --verify-sync
      printf '%-20s %-5s %-6s %-9s %9s %10s\n' "$1" "$arch" "$ctas" "$VERDICT" "$SECS" "$MIB"
    done
  done
done
