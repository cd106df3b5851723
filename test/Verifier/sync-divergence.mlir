// Barrier divergence: every 64th thread skips __syncthreads() and exits
// while the rest of its warp waits at the .aligned barrier (bar.sync): an
// error naming such a thread, in both builds. Barriers every thread reaches
// (the block tree reduction's barriers in a loop) are convergent.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/skip.mlir 2>&1 | FileCheck %s --check-prefix=DIVERGE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm90.G.ptx --verify-sync --contract=%t/skip.mlir 2>&1 | FileCheck %s --check-prefix=DIVERGE
// RUN: kproof-opt %inputs/cuda/ptx/reduce_block_smem.sm80.G.ptx --verify-sync --contract=%t/reduce.mlir | FileCheck %s --check-prefix=CONVERGE
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/rotate.mlir | FileCheck %s --check-prefix=CONVERGE

// DIVERGE: error: REFUTED: barrier divergence: thread (tid.x={{[0-9]*}}63) skips the .aligned barrier at {{.*}}sync_bugs.cu:68:5) (it exits at {{.*}}) while thread (tid.x={{[0-9]+}}) of the same warp waits at it
// DIVERGE: REFUTED

// CONVERGE-NOT: ERROR:
// CONVERGE-NOT: warning:
// CONVERGE: PROVED

//--- skip.mlir
kproof.contract @skip {
  kernel = "barrier_skip64",
  grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- reduce.mlir
kproof.contract @sum256 {
  kernel = "reduce_block_smem_256",
  grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>},
    {name = "n", scalar = i32, value = 512 : i32}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}

//--- rotate.mlir
kproof.contract @rotate {
  kernel = "rotate_smem",
  grid = array<i64: 2, 1, 1>, block = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2048>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2048>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
