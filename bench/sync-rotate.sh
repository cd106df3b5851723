#!/usr/bin/env bash
# Proof time of the shared-memory rotate-by-one (test/Inputs/cuda/sync_bugs.cu,
# nvcc -O3 -lineinfo sm_80) with kproof-opt --verify-equiv (race freedom,
# barrier convergence, shared reads resolved to their writers, value and
# coverage against a func.func spec) and --verify-sync, at 32 and 1024
# threads per CTA and 2^10 ... 2^20 lanes in all. One representative thread
# stands for every lane, so the time should stay flat in the lane count.
# Reports the median and minimum wall time of REPS runs (default 11) of the
# whole process, and the median of the proof alone (kproof-opt --mlir-timing:
# the contract's check, without start-up, import and printing). Usage:
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
# The same proof over a symbolic grid: nctaid.x is a variable bounded by
# lanes / threads (grid_max), the total by max_threads = lanes; the spec is
# a func.func over tensor<?xTHREADSxf32>. With threads = "any", the block is
# symbolic too (ntid.x <= 1024) and the grid anything CUDA allows.
symbolic() { # file max_ctas threads|any lanes
  local dims="?x$3" blk="block = array<i64: $3, 1, 1>" n="arith.constant $3 : index"
  local shape="[\"nctaid.x\", $3]"
  if [ "$3" = any ]; then
    dims="?x?"; blk="block_max = array<i64: 1024, 1, 1>"
    n="tensor.dim %x, %c1 : tensor<$dims""xf32>"; shape='["nctaid.x", "ntid.x"]'
  fi
  cat > "$1" <<EOC
func.func @rotate(%x: tensor<${dims}xf32>) -> tensor<${dims}xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<${dims}xf32>
EOC
  if [ "$3" = any ]; then
    cat >> "$1" <<EOC
  %d1 = tensor.dim %x, %c1 : tensor<${dims}xf32>
  %e = tensor.empty(%d0, %d1) : tensor<${dims}xf32>
EOC
  else
    echo "  %e = tensor.empty(%d0) : tensor<${dims}xf32>" >> "$1"
  fi
  cat >> "$1" <<EOC
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<${dims}xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %n = $n
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %n : index
    %v = tensor.extract %x[%b, %j] : tensor<${dims}xf32>
    linalg.yield %v : f32
  } -> tensor<${dims}xf32>
  return %r : tensor<${dims}xf32>
}
kproof.contract @rotate_by_one {kernel = "rotate_smem",
  grid_max = array<i64: $2, 1, 1>, $blk, max_threads = $4,
  params = [{name = "x", buffer = "in", type = f32, shape = $shape},
            {name = "y", buffer = "out", type = f32, shape = $shape}],
  spec = {func = @rotate, inputs = ["x"], output = "y"}}
EOC
}
ptx=test/Inputs/cuda/ptx/sync_bugs.sm80.O3.ptx
measure() { # label flags contract
  local times=() proofs=() sorted med pmed=""
  for _ in $(seq "$reps"); do
    t0=$(date +%s%N)
    "$opt" "$ptx" $2 --contract="$3" ${2:+--mlir-timing} > "$tmp/out" 2> "$tmp/err" || { echo "$1: not PROVED" >&2; cat "$tmp/out" "$tmp/err" >&2; exit 1; }
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
    [ -n "$2" ] && proofs+=($(awk '/proof of/ {print $1}' "$tmp/err"))
  done
  sorted=($(printf "%s\n" "${times[@]}" | sort -n))
  med=${sorted[$(( reps / 2 ))]}
  if [ -n "$2" ]; then
    sorted_p=($(printf "%s\n" "${proofs[@]}" | sort -g))
    pmed=${sorted_p[$(( reps / 2 ))]}
  fi
  printf "%-60s %10.3f %10.3f %10s\n" "$1" \
    "$(echo "$med / 1000000" | bc -l)" "$(echo "${sorted[0]} / 1000000" | bc -l)" \
    "${pmed:--}"
}
printf "%-60s %10s %10s %10s\n" "case" "median (s)" "min (s)" "proof (s)"
# Start-up alone: import the PTX and bind the contract, no proof.
f="$tmp/r-32-1024.mlir"
contract "$f" 32 32
measure "start-up (PTX import, printing the module)" "" "$f"
for mode in verify-sync verify-equiv; do
  for threads in 32 1024; do
    for lanes in 1024 32768 1048576; do
      ctas=$((lanes / threads))
      f="$tmp/r-$threads-$lanes.mlir"
      contract "$f" "$ctas" "$threads"
      measure "--$mode $threads thr/CTA, $lanes lanes" "--$mode" "$f"
      f="$tmp/s-$threads-$lanes.mlir"
      symbolic "$f" "$ctas" "$threads" "$lanes"
      measure "--$mode $threads thr/CTA, <= $lanes lanes (symbolic grid)" "--$mode" "$f"
    done
  done
  f="$tmp/any.mlir"
  symbolic "$f" 2147483647 any 2147483648
  measure "--$mode any launch, <= 2^31 threads (symbolic)" "--$mode" "$f"
done
