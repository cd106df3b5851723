#!/usr/bin/env bash
# Proof time of the shared-memory rotate-by-one (test/Inputs/cuda/sync_bugs.cu,
# nvcc -O3 -lineinfo sm_80) with kproof-opt --verify-equiv (race freedom,
# barrier convergence, shared reads resolved to their writers, value and
# coverage against a func.func spec) and --verify-sync, at 32 and 1024
# threads per CTA and 2^10 ... 2^20 lanes in all. One representative thread
# stands for every lane, so the time should stay flat in the lane count.
# Reports the median and minimum wall time of REPS runs (default 11). Usage:
#   bench/sync-rotate.sh [BUILD_DIR]        (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
reps=${REPS:-11}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
contract() { # file ctas threads
  cat > "$1" <<EOC
func.func @rotate(%x: tensor<$2x$3xf32>) -> tensor<$2x$3xf32> {
  %e = tensor.empty() : tensor<$2x$3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<$2x$3xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant $3 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %n : index
    %v = tensor.extract %x[%b, %j] : tensor<$2x$3xf32>
    linalg.yield %v : f32
  } -> tensor<$2x$3xf32>
  return %r : tensor<$2x$3xf32>
}
kproof.contract @rotate_by_one {kernel = "rotate_smem",
  grid = array<i64: $2, 1, 1>, block = array<i64: $3, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: $2, $3>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: $2, $3>}],
  spec = {func = @rotate, inputs = ["x"], output = "y"}}
EOC
}
ptx=test/Inputs/cuda/ptx/sync_bugs.sm80.O3.ptx
printf "%-34s %12s %12s\n" "case" "median (s)" "min (s)"
for mode in verify-equiv verify-sync; do
  for threads in 32 1024; do
    for lanes in 1024 32768 1048576; do
      ctas=$((lanes / threads))
      f="$tmp/r-$threads-$lanes.mlir"
      contract "$f" "$ctas" "$threads"
      times=()
      for _ in $(seq "$reps"); do
        t0=$(date +%s%N)
        "$opt" "$ptx" --$mode --contract="$f" > "$tmp/out" || { echo "rotate $threads x $ctas: not PROVED" >&2; cat "$tmp/out" >&2; exit 1; }
        t1=$(date +%s%N)
        times+=($(( (t1 - t0) / 1000 )))
      done
      sorted=($(printf "%s\n" "${times[@]}" | sort -n))
      med=${sorted[$(( reps / 2 ))]}
      printf "%-34s %12.3f %12.3f\n" "--$mode $threads thr/CTA, $lanes lanes" \
        "$(echo "$med / 1000000" | bc -l)" "$(echo "${sorted[0]} / 1000000" | bc -l)"
    done
  done
done
