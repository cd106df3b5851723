#!/usr/bin/env bash
# Proof time of kproof-opt --verify-equiv on the single-row online softmax
# (N = 4, 32, 128; one thread; nvcc -O3 -lineinfo sm_80 fixtures), the
# no-rescale bug (REFUTED) and the 1024-thread elementwise kernel.
# Reports the median and minimum wall time of REPS runs (default 11), so the
# figure does not depend on one noisy run. Usage:
#   bench/proof-time.sh [BUILD_DIR]        (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
reps=${REPS:-11}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
contract() { # name kernel N
  cat > "$tmp/$1.mlir" <<EOC
kproof.contract @c {kernel = "$2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: $3>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: $3>}],
  spec = {builtin = "softmax", input = "x", output = "y"}}
EOC
}
contract n4 softmax_online_4 4
contract n32 softmax_online_32 32
contract n128 softmax_online_128 128
contract bug softmax_online_bug_4 4
"${LLVM_TOOLS:-/usr/lib/llvm-22/bin}/split-file" test/Verifier/elementwise-scaled-exp.mlir "$tmp/ew"

P=test/Inputs/cuda/ptx
run() { # label verdict-exit ptx contract
  local times=()
  for _ in $(seq "$reps"); do
    local t0 t1 rc=0
    t0=$(date +%s%N)
    "$opt" "$3" --verify-equiv --contract="$4" > /dev/null || rc=$?
    t1=$(date +%s%N)
    if [ "$rc" != "$2" ]; then echo "$1: unexpected exit $rc" >&2; exit 1; fi
    times+=($(( (t1 - t0) / 1000 )))
  done
  IFS=$'\n' sorted=($(sort -n <<<"${times[*]}")); unset IFS
  awk -v l="$1" -v med="${sorted[$((reps / 2))]}" -v min="${sorted[0]}" \
    'BEGIN { printf "| %-40s | %9.1f | %9.1f |\n", l, med / 1000, min / 1000 }' 
}
echo "| kernel (verdict) | median ms | min ms |"
echo "|---|---|---|"
run "softmax_online N=4 (PROVED)" 0 "$P/softmax_online.sm80.O3.ptx" "$tmp/n4.mlir"
run "softmax_online N=32 (PROVED)" 0 "$P/softmax_online.sm80.O3.ptx" "$tmp/n32.mlir"
run "softmax_online N=128 (PROVED)" 0 "$P/softmax_online.sm80.O3.ptx" "$tmp/n128.mlir"
run "softmax_online_bug N=4 (REFUTED)" 1 "$P/softmax_online_bug.sm80.O3.ptx" "$tmp/bug.mlir"
run "elementwise_scaled_exp 1024 thr (PROVED)" 0 "$P/elementwise_scaled_exp.sm80.O3.ptx" "$tmp/ew/ok.mlir"
