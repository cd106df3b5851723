#!/usr/bin/env bash
# The online-softmax recurrence (d' = d * exp(m - m') + exp(x - m')) proved
# for every row length n in [1, 2^20] at once, against the unrolled proofs
# of the same recurrence at a fixed n.
#   symbolic: test/Inputs/cuda/loop_online.cu, one thread per row of
#     x [64, n] (grid 2 x block 32), sm_80 -O3 and sm_90 -G; its twin that
#     forgets the rescale (REFUTED by the bounded checks at small n).
#   decode attention: one query against n keys, d = 64 and 128 (sm_80 -O3,
#     sm_90 -G), and the d = 64 twin that does not rescale the accumulator.
#   unrolled: test/Inputs/cuda/softmax_online.cu at N = 4, 32, 128 (one
#     thread, sm_80 -O3).
# Wall time, peak memory and verdict of one --verify-equiv run each, under
# a time limit (default 150 s); RUNS=k runs each k times.
# Usage:
#   bench/loop-online.sh [BUILD_DIR]     (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-150}
runs=${RUNS:-1}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source bench/measure.sh

printf '%-38s %-9s %-9s %9s %10s\n' kernel build verdict seconds "peak MiB"
for kernel in softmax_online_rows softmax_online_rows_norescale; do
  cat > "$tmp/$kernel.mlir" <<EOC
kproof.contract @online {
  kernel = "$kernel", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64, "n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
EOC
  for b in sm80.O3 sm90.G; do
    for ((r = 0; r < runs; ++r)); do
      measure test/Inputs/cuda/ptx/loop_online.$b.ptx "$tmp/$kernel.mlir"
      printf '%-38s %-9s %-9s %9s %10s\n' "$kernel (any n)" "$b" "$VERDICT" "$SECS" "$MIB"
    done
  done
done
# Decode attention: one query, n keys, d = 64 (one thread per output
# column), against the built-in attention spec over a symbolic key count;
# the twin that does not rescale the V accumulator.
for kd in decode_attn_online:64 decode_attn_online_stale_acc:64 \
          decode_attn_online_128:128; do
  IFS=: read -r kernel d <<< "$kd"
  cat > "$tmp/$kernel.mlir" <<EOC
kproof.contract @decode {
  kernel = "$kernel", grid = array<i64: 1, 1, 1>, block = array<i64: $d, 1, 1>,
  params = [
    {name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 1, $d>},
    {name = "k", buffer = "in", space = "global", type = f32, shape = ["n", $d]},
    {name = "v", buffer = "in", space = "global", type = f32, shape = ["n", $d]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 1, $d>},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "attention", q = "q", k = "k", v = "v", output = "out", scale = 0.125 : f32}
}
EOC
  for b in sm80.O3 sm90.G; do
    for ((r = 0; r < runs; ++r)); do
      measure test/Inputs/cuda/ptx/loop_online.$b.ptx "$tmp/$kernel.mlir"
      printf '%-38s %-9s %-9s %9s %10s\n' "$kernel (any n, d = $d)" $b "$VERDICT" "$SECS" "$MIB"
    done
  done
done
for n in 4 32 128; do
  cat > "$tmp/n$n.mlir" <<EOC
kproof.contract @online {
  kernel = "softmax_online_$n", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: $n>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: $n>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
EOC
  for ((r = 0; r < runs; ++r)); do
    measure test/Inputs/cuda/ptx/softmax_online.sm80.O3.ptx "$tmp/n$n.mlir"
    printf '%-38s %-9s %-9s %9s %10s\n' "softmax_online_$n (n = $n)" sm80.O3 "$VERDICT" "$SECS" "$MIB"
  done
done
