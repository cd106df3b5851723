#!/usr/bin/env bash
# Tensor cores and packed halves (test/Inputs/cuda/warp_mma.cu,
# half_vectors.cu; nvcc -O3 -lineinfo, sm_80): one warp's 16x16 x 16x8 f16
# tile product through ldmatrix and mma.sync (m16n8k16, and two m16n8k8
# steps) against a dot-product reference, its planted bugs, and vectorized
# f16/bf16 elementwise kernels, at 2 CTAs and at 4096 CTAs; then Triton's
# tl.dot on sm_80 (test/Inputs/triton, 16x16x32, one warp) and the
# transpose through an XOR-swizzled tile (transpose_swizzle.cu). Wall time,
# peak memory and verdict of one run each, under a time limit (default
# 150 s).
# Usage:
#   bench/tensor-core.sh [BUILD_DIR]        (default: build)
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
# mma_contract FILE KERNEL CTAS
mma_contract() {
  cat > "$1" <<EOC
kproof.contract @c {
  kernel = "$2", grid = array<i64: $3, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: $3, 16, 16>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: $3, 16, 8>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: $3, 16, 8>}
  ],
  spec = {reference = "ref_mma_tile", file = "$PWD/$ptx/warp_mma.sm80.O3.ptx", output = "c",
          grid = array<i64: $3, 1, 1>, block = array<i64: 128, 1, 1>}
}
EOC
}
# half_contract FILE KERNEL REF TYPE PER_THREAD CTAS
half_contract() {
  local n=$(( $5 * 32 * $6 ))
  cat > "$1" <<EOC
kproof.contract @c {
  kernel = "$2", grid = array<i64: $6, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = $4, shape = array<i64: $n>},
    {name = "y", buffer = "out", space = "global", type = $4, shape = array<i64: $n>},
    {name = "s", scalar = f32}
  ],
  spec = {reference = "$3", file = "$PWD/$ptx/half_vectors.sm80.O3.ptx", output = "y",
          grid = array<i64: $6, 1, 1>, block = array<i64: $(( $5 * 32 )), 1, 1>}
}
EOC
}
printf '%-22s %-6s %-9s %9s %10s\n' kernel CTAs verdict seconds "peak MiB"
for ctas in 2 4096; do
  for k in mma_tile mma_tile_k8 mma_tile_notrans mma_tile_nosync; do
    mma_contract "$tmp/c.mlir" "$k" "$ctas"
    measure "$ptx/warp_mma.sm80.O3.ptx" "$tmp/c.mlir"
    printf '%-22s %-6s %-9s %9s %10s\n' "$k" "$ctas" "$VERDICT" "$SECS" "$MIB"
  done
  for k in "scale_half4 ref_scale_half f16 4" "scale_half4_swap ref_scale_half f16 4" \
           "scale_bf16x8 ref_scale_bf16 bf16 8"; do
    set -- $k
    half_contract "$tmp/c.mlir" "$1" "$2" "$3" "$4" "$ctas"
    measure "$ptx/half_vectors.sm80.O3.ptx" "$tmp/c.mlir"
    printf '%-22s %-6s %-9s %9s %10s\n' "$1" "$ctas" "$VERDICT" "$SECS" "$MIB"
  done
done
cat > "$tmp/mm.mlir" <<EOC
kproof.contract @matmul {
  kernel = "matmul_tile_kernel", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  dynamic_shared = 2048,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 16, 32>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 32, 16>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: 16, 16>},
    {name = "global_scratch", scalar = i64, value = 0 : i64},
    {name = "profile_scratch", scalar = i64, value = 0 : i64}
  ],
  spec = {reference = "ref_matmul_16x16x32", output = "c", params = ["a", "b", "c"],
          file = "$PWD/$ptx/warp_mma.sm80.O3.ptx",
          grid = array<i64: 1, 1, 1>, block = array<i64: 256, 1, 1>}
}
EOC
measure test/Inputs/triton/ptx/matmul_tile.sm80.ptx "$tmp/mm.mlir"
printf '%-22s %-6s %-9s %9s %10s\n' "triton matmul_tile" 1 "$VERDICT" "$SECS" "$MIB"
for k in transpose_xor transpose_xor_bug; do
  cat > "$tmp/tr.mlir" <<EOC
kproof.contract @tr {kernel = "$k",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
EOC
  measure "$ptx/transpose_swizzle.sm80.O3.ptx" "$tmp/tr.mlir"
  printf '%-22s %-6s %-9s %9s %10s\n' "$k" 4 "$VERDICT" "$SECS" "$MIB"
done
