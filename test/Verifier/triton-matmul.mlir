// A Triton tl.dot tile product compiled for sm_80 (test/Inputs/triton/
// kernels.py matmul_tile_kernel, BM = BN = 16, BK = 32, one warp; Triton
// 3.9): the tiles are loaded as packed f16 words, staged in shared memory
// with an XOR swizzle, read back by ldmatrix (.x4 and .x4.trans) and
// multiplied by four mma.sync.m16n8k16 with .b32 accumulators. PROVED
// against a reference computing each element as a dot product
// (test/Inputs/cuda/warp_mma.cu ref_matmul_16x16x32); the same PTX with
// one mma's B registers exchanged is REFUTED and replayed; race-free.
// RUN: split-file %s %t
// RUN: sed -i 's|@INPUTS@|%inputs|' %t/mm.mlir
// RUN: kproof-opt %inputs/triton/ptx/matmul_tile.sm80.ptx --verify-equiv --contract=%t/mm.mlir | FileCheck %s --check-prefix=MM
// RUN: sed 's/{ %%r21, %%r22 }/{ %%r22, %%r21 }/' %inputs/triton/ptx/matmul_tile.sm80.ptx > %t/bug.ptx
// RUN: %expect_exit 1 kproof-opt %t/bug.ptx --verify-equiv --contract=%t/mm.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: kproof-opt %inputs/triton/ptx/matmul_tile.sm80.ptx --verify-sync --contract=%t/mm.mlir | FileCheck %s --check-prefix=SYNC

// MM: kproof: matmul_tile_kernel against reference ref_matmul_16x16x32
// MM-NOT: UNKNOWN
// MM: {{^}}PROVED
// BUG: error: REFUTED: value mismatch at c[
// BUG: Replay: confirmed by replay (IEEE f32): kernel c[{{[0-9]+}}] =
// BUG: {{^}}REFUTED
// SYNC-NOT: UNKNOWN
// SYNC: {{^}}PROVED

//--- mm.mlir
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
          file = "@INPUTS@/cuda/ptx/warp_mma.sm80.O3.ptx",
          grid = array<i64: 1, 1, 1>, block = array<i64: 256, 1, 1>}
}
