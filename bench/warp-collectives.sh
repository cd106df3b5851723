#!/usr/bin/env bash
# Warp collectives and __syncwarp (test/Inputs/cuda/warp_collectives.cu,
# warp_sync.cu; nvcc -O3 -lineinfo): redux.sync, match.sync and elect.sync
# kernels against reference kernels that scan their warp (--verify-equiv),
# and warp-synchronous shared memory (--verify-sync), at 2 CTAs of 64
# threads and at 2^20 threads (4096 CTAs of 256). One representative
# thread stands for every lane, so the time should not grow with the
# launch. Wall time, peak memory and verdict of one run each, under a time
# limit (default 150 s). Usage:
#   bench/warp-collectives.sh [BUILD_DIR]        (default: build)
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
# contract FILE KERNEL TYPE CTAS THREADS YLEN [REF REFCTAS REFTHREADS ARCH]
contract() {
  local n=$(( $4 * $5 )) spec=""
  [ -n "${7:-}" ] && spec=",
  spec = {reference = \"$7\", file = \"$PWD/$ptx/warp_collectives.${10}.O3.ptx\",
          output = \"y\", grid = array<i64: $8, 1, 1>, block = array<i64: $9, 1, 1>}"
  cat > "$1" <<EOC
kproof.contract @c {
  kernel = "$2", grid = array<i64: $4, 1, 1>, block = array<i64: $5, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = $3, shape = array<i64: $n>},
    {name = "y", buffer = "out", space = "global", type = $3, shape = array<i64: $6>}
  ]$spec
}
EOC
}
printf '%-22s %-8s %-14s %-9s %9s %10s\n' kernel lanes mode verdict seconds "peak MiB"
for size in "2 64" "4096 256"; do
  set -- $size
  ctas=$1 threads=$2 n=$(( $1 * $2 ))
  for k in "redux_sum ref_warp_sum" "redux_min ref_warp_min" \
           "redux_min_bug ref_warp_min" "match_count ref_match_count"; do
    set -- $k
    contract "$tmp/c.mlir" "$1" i32 "$ctas" "$threads" "$n" "$2" "$ctas" "$threads" sm80
    measure "$ptx/warp_collectives.sm80.O3.ptx" "$tmp/c.mlir"
    printf '%-22s %-8s %-14s %-9s %9s %10s\n' "$1" "$n" equiv "$VERDICT" "$SECS" "$MIB"
  done
  for k in warp_total warp_total_bug; do
    contract "$tmp/c.mlir" "$k" i32 "$ctas" "$threads" $(( n / 32 )) ref_warp_total \
      $(( n / 32 / 32 > 0 ? n / 32 / 32 : 1 )) $(( n / 32 < 32 ? n / 32 : 32 )) sm90
    measure "$ptx/warp_collectives.sm90.O3.ptx" "$tmp/c.mlir"
    printf '%-22s %-8s %-14s %-9s %9s %10s\n' "$k (sm90)" "$n" equiv "$VERDICT" "$SECS" "$MIB"
  done
  for k in warp_tail_sum warp_tail_sum_nosync; do
    [ "$threads" = 64 ] || continue # written for 64 threads per CTA
    contract "$tmp/c.mlir" "$k" f32 "$ctas" "$threads" "$ctas"
    measure "$ptx/warp_sync.sm80.O3.ptx" "$tmp/c.mlir" --verify-sync
    printf '%-22s %-8s %-14s %-9s %9s %10s\n' "$k" "$n" sync "$VERDICT" "$SECS" "$MIB"
  done
done
