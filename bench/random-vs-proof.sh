#!/usr/bin/env bash
# Time to counterexample, proof versus random testing, on the planted-bug
# kernels of the test suite (and two correct kernels) (docs/benchmarks.md, "Proof versus random
# testing").
#
#   proof:  kproof-opt --verify-equiv (or --verify-sync) until REFUTED, wall
#           time, median of REPS runs (default 3);
#   random: kproof-run --random=N --seed=S (inputs uniform in [-4, 4], IEEE
#           mode, default tolerance atol 1e-5, rtol 1e-4), samples until the
#           first failing input (outside the tolerance, or a dynamic finding),
#           or "not found in N samples", and its wall time.
#
# Usage: bench/random-vs-proof.sh [BUILD_DIR]   (default: build)
#        N=1000 SEED=1 REPS=3 bench/random-vs-proof.sh build-interp
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
run=$build/bin/kproof-run
N=${N:-1000}
SEED=${SEED:-1}
REPS=${REPS:-3}
for t in "$opt" "$run"; do
  [ -x "$t" ] || { echo "build $t first: cmake --build $build --target kproof-opt kproof-run" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
split="${LLVM_TOOLS:-/usr/lib/llvm-22/bin}/split-file"
"$split" test/Verifier/attention-1thread.mlir "$tmp/att"
"$split" test/Verifier/elementwise-scaled-exp.mlir "$tmp/ew"
"$split" test/Verifier/grid2d.mlir "$tmp/g2"
"$split" test/Verifier/sync-races.mlir "$tmp/sr"
"$split" test/Interpreter/softmax.mlir "$tmp/sm"
sed -e 's/st.global.f32 	\[%rd2\], %f1;/add.f32 %f1, %f1, 0f3F800000;\n	st.global.f32 [%rd2], %f1;/' \
  test/Verifier/copy1.ptx > "$tmp/copy1-plus1.ptx"
P=test/Inputs/cuda/ptx
V=test/Verifier

ms() { echo $(( ($2 - $1) / 1000000 )); }

bench() { # label ptx contract mode(equiv|sync)
  local label=$1 ptx=$2 contract=$3 mode=$4 times=() rc
  for _ in $(seq "$REPS"); do
    local t0 t1
    t0=$(date +%s%N)
    rc=0
    "$opt" "$ptx" --verify-$mode --contract="$contract" > /dev/null 2>&1 || rc=$?
    t1=$(date +%s%N)
    times+=($(ms "$t0" "$t1"))
  done
  IFS=$'\n' sorted=($(sort -n <<<"${times[*]}")); unset IFS
  local verdict
  case $rc in 0) verdict=PROVED ;; 1) verdict=REFUTED ;; 3) verdict=UNKNOWN ;; *) verdict="exit $rc" ;; esac
  local out
  out=$("$run" "$ptx" --contract="$contract" --random="$N" --seed="$SEED" 2>&1 || true)
  local summary seconds result
  summary=$(grep -o '"summary": "[^"]*"' <<<"$out" | cut -d'"' -f4)
  seconds=$(grep -o '"seconds": [0-9.e+-]*' <<<"$out" | awk '{print $2}')
  result=$(grep -o '"result": "[^"]*"' <<<"$out" | tail -1 | cut -d'"' -f4)
  if [ -z "$summary" ]; then  # kproof-run stopped with an error: show it
    summary="error: $(head -1 <<<"$out")"
    seconds=0
  fi
  awk -v l="$label" -v v="$verdict" -v p="${sorted[$((REPS / 2))]}" \
      -v s="$summary" -v r="$result" -v t="$seconds" \
      'BEGIN { printf "| %-44s | %-7s | %8d | %-26s | %-8s | %9.1f |\n", l, v, p, s, r, t * 1000 }'
}

echo "| planted bug (kernel, contract) | proof | proof ms | random testing | found as | random ms |"
echo "|---|---|---|---|---|---|"
bench "softmax_online_bug_4: no rescale"  "$P/softmax_online_bug.sm80.O3.ptx" "$V/softmax-online-norescale.mlir" equiv
bench "copy1 + 1.0"                       "$tmp/copy1-plus1.ptx" "$V/Inputs/copy1.contract.mlir" equiv
bench "elementwise_scaled_exp_bug: n+1 threads store" "$P/elementwise_scaled_exp.sm80.O3.ptx" "$tmp/ew/bug.mlir" equiv
bench "grid2d_transpose vs copy spec"     "$P/grid2d_copy_transpose.sm80.O3.ptx" "$tmp/g2/wrong.mlir" equiv
bench "attention_1thread: k/v swapped"    "$P/attention_1thread.sm80.O3.ptx" "$tmp/att/swapped.mlir" equiv
bench "soundness c_expovf (ex2 overflow)" "$V/soundness/c_expovf.ptx" "$V/Inputs/copy-k.contract.mlir" equiv
bench "soundness d1_lg2neg (lg2 of x < 0)" "$V/soundness/d1_lg2neg.ptx" "$V/Inputs/copy-k.contract.mlir" equiv
bench "soundness d2_sqrtneg (sqrt of x < 0)" "$V/soundness/d2_sqrtneg.ptx" "$V/Inputs/copy-k.contract.mlir" equiv
bench "soundness t5 (load past x)"        "$V/soundness/t5.ptx" "$V/Inputs/copy-k-8threads.contract.mlir" equiv
bench "dot32_nobarrier (missing barrier)" "$P/sync_bugs.sm80.O3.ptx" "$tmp/sr/dot-nobarrier.mlir" equiv
bench "tree_reduce_warp_tail (no syncwarp)" "$P/sync_bugs.sm80.O3.ptx" "$tmp/sr/warp-tail.mlir" sync
# Correct kernels: what N passing samples say, next to a proof.
bench "softmax_online_4 (correct)"        "$P/softmax_online.sm80.O3.ptx" "$tmp/sm/ok.mlir" equiv
bench "dot32_smem_lane0 (correct)"        "$P/reduce_block_smem.sm80.O3.ptx" "$tmp/sr/dot.mlir" equiv
