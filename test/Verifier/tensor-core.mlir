// Tensor cores at warp level: ldmatrix (.x4, .x2.trans) and mma.sync
// m16n8k16 / m16n8k8 (.row.col.f32.f16.f16.f32), modeled by their fragment
// layouts (PTX ISA 9.7.14.5), in own CUDA kernels with inline PTX
// (test/Inputs/cuda/warp_mma.cu): one warp per CTA multiplies a 16x16 by a
// 16x8 f16 tile staged through shared memory; the reference computes each
// element of C as a dot product.
// RUN: split-file %s %t
// RUN: sed -i 's|@INPUTS@|%inputs|' %t/mma.mlir %t/mma90.mlir %t/k8.mlir %t/notrans.mlir %t/nosync.mlir %t/partial.mlir
// RUN: kproof-opt %inputs/cuda/ptx/warp_mma.sm80.O3.ptx --verify-equiv --contract=%t/mma.mlir | FileCheck %s --check-prefix=MMA
// RUN: kproof-opt %inputs/cuda/ptx/warp_mma.sm90.O3.ptx --verify-equiv --contract=%t/mma90.mlir | FileCheck %s --check-prefix=MMA
// RUN: kproof-opt %inputs/cuda/ptx/warp_mma.sm80.O3.ptx --verify-equiv --contract=%t/k8.mlir | FileCheck %s --check-prefix=K8
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_mma.sm80.O3.ptx --verify-equiv --contract=%t/notrans.mlir 2>&1 | FileCheck %s --check-prefix=NOTRANS
// RUN: sed 's/{%%r1, %%r2, %%r3, %%r4}, {%%r6, %%r7}/{%%r1, %%r3, %%r2, %%r4}, {%%r6, %%r7}/' %inputs/cuda/ptx/warp_mma.sm80.O3.ptx > %t/swapped.ptx
// RUN: %expect_exit 1 kproof-opt %t/swapped.ptx --verify-equiv --contract=%t/mma.mlir 2>&1 | FileCheck %s --check-prefix=SWAP
// RUN: sed 's/mov.f32 \t%%f8, 0f00000000;/mov.b32 \t%%r0, 0;/; s/{%%f8, %%f8, %%f8, %%f8}/{%%r0, %%r0, %%r0, %%r0}/' %inputs/cuda/ptx/warp_mma.sm80.O3.ptx > %t/b32acc.ptx
// RUN: kproof-opt %t/b32acc.ptx --verify-equiv --contract=%t/mma.mlir | FileCheck %s --check-prefix=B32ACC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_mma.sm80.O3.ptx --verify-equiv --contract=%t/nosync.mlir 2>&1 | FileCheck %s --check-prefix=NOSYNC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_mma.sm80.O3.ptx --verify-equiv --contract=%t/partial.mlir 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: sed 's/add.s32 \t%%r5, %%r20, %%r41;/add.s32 \t%%r5, %%r20, %%r41;\n\tadd.s32 \t%%r5, %%r5, 4;/' %inputs/cuda/ptx/warp_mma.sm80.O3.ptx > %t/misaligned.ptx
// RUN: %expect_exit 1 kproof-opt %t/misaligned.ptx --verify-equiv --contract=%t/mma.mlir 2>&1 | FileCheck %s --check-prefix=MISALIGNED

// D = A x B for every input and all 4096 CTAs: 32 shuffles per ldmatrix
// register pair and 16 products per accumulator element.
// MMA: kproof: mma_tile against reference ref_mma_tile
// MMA-NOT: UNKNOWN
// MMA: PROVED

// The same product as two m16n8k8 steps accumulating into one fragment.
// Accumulators in .b32 registers zeroed by mov.b32 %r, 0 (as Triton
// writes them): the constant bits are 0.0.
// B32ACC-NOT: UNKNOWN
// B32ACC: PROVED

// K8: kproof: mma_tile_k8 against reference ref_mma_tile
// K8-NOT: UNKNOWN
// K8: PROVED

// B loaded without .trans: the fragment holds rows of B where mma reads
// its columns.
// NOTRANS: error: REFUTED: value mismatch at c[
// NOTRANS: Kernel value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// NOTRANS-NEXT: Spec value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// NOTRANS: Replay: confirmed by replay (IEEE f32): kernel c[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// NOTRANS: REFUTED

// A's registers passed to mma in the wrong order (a1 and a2 exchanged).
// SWAP: error: REFUTED: value mismatch at c[
// SWAP: Kernel value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// SWAP-NEXT: Spec value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// SWAP: Replay: confirmed by replay (IEEE f32): kernel c[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// SWAP: REFUTED

// No barrier between the stores that stage A and the ldmatrix that reads
// them: a race, with both threads.
// NOSYNC: error: REFUTED: data race on shared '{{.*}}::as' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) writes at {{.*}}warp_mma.cu:33:7), thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) reads at {{.*}}warp_mma.cu:4{{[56]}}:{{[0-9]+}}) in the same barrier phase
// NOSYNC: Replay: confirmed by replay (IEEE f32): race
// NOSYNC: REFUTED

// A 16-thread block is half a warp: the lanes ldmatrix and mma name do not
// exist (the shuffle obligations are REFUTED), and lane 8 reads a row no
// thread staged (the headline, replayed).
// PARTIAL: REFUTED: the source lane of shfl.sync exists (a partial warp has fewer lanes) at {{.*}}warp_mma.cu:4{{[56]}}:{{[0-9]+}}) -- counterexample confirmed
// PARTIAL: Replay: confirmed by replay (IEEE f32): uninitialized read
// PARTIAL: REFUTED

// Rows of A staged 4 bytes past a 16-byte boundary: ldmatrix needs 16-byte
// aligned rows (the tile product itself would be right).
// MISALIGNED: error: REFUTED: violated: alignment of the shared vector load from {{.*}} to 16 bytes
// MISALIGNED: Replay: confirmed by replay: misaligned access
// MISALIGNED: REFUTED

//--- mma.mlir
kproof.contract @mma {
  kernel = "mma_tile", grid = array<i64: 4096, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 4096, 16, 16>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 4096, 16, 8>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: 4096, 16, 8>}
  ],
  spec = {reference = "ref_mma_tile", output = "c", file = "@INPUTS@/cuda/ptx/warp_mma.sm80.O3.ptx", grid = array<i64: 4096, 1, 1>, block = array<i64: 128, 1, 1>}
}
//--- mma90.mlir
kproof.contract @mma {
  kernel = "mma_tile", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 16>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 8>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 16, 8>}
  ],
  spec = {reference = "ref_mma_tile", output = "c", file = "@INPUTS@/cuda/ptx/warp_mma.sm90.O3.ptx", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>}
}
//--- k8.mlir
kproof.contract @k8 {
  kernel = "mma_tile_k8", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 16>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 8>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 16, 8>}
  ],
  spec = {reference = "ref_mma_tile", output = "c", file = "@INPUTS@/cuda/ptx/warp_mma.sm80.O3.ptx", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>}
}
//--- notrans.mlir
kproof.contract @notrans {
  kernel = "mma_tile_notrans", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 16>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 8>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 16, 8>}
  ],
  spec = {reference = "ref_mma_tile", output = "c", file = "@INPUTS@/cuda/ptx/warp_mma.sm80.O3.ptx", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>}
}
//--- nosync.mlir
kproof.contract @nosync {
  kernel = "mma_tile_nosync", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 16>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 8>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 16, 8>}
  ],
  spec = {reference = "ref_mma_tile", output = "c", file = "@INPUTS@/cuda/ptx/warp_mma.sm80.O3.ptx", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>}
}
//--- partial.mlir
kproof.contract @partial {
  kernel = "mma_tile", grid = array<i64: 2, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 16>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 2, 16, 8>},
    {name = "c", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 16, 8>}
  ],
  spec = {reference = "ref_mma_tile", output = "c", file = "@INPUTS@/cuda/ptx/warp_mma.sm80.O3.ptx", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>}
}
