// A block reduction whose threads exchange partial sums through shared
// memory: cross-thread data flow is not modeled yet, so the verdict is
// UNKNOWN (exit 3) with the reason -- never PROVED.
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/reduce_block_smem.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// CHECK: kproof: reduce_block_smem_256 against sum(x) -> y
// CHECK-NOT: PROVED
// CHECK: UNKNOWN: cross-thread data flow: not yet modeled (shared memory in a multi-thread launch) (at {{.*}}reduce_block_smem.sm80.O3.ptx:{{[0-9]+}}:{{[0-9]+}} (test/Inputs/cuda/reduce_block_smem.cu:{{[0-9]+}}:{{[0-9]+}}))
kproof.contract @sum256 {
  kernel = "reduce_block_smem_256",
  grid = array<i64: 1, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>},
    {name = "n", scalar = i32, value = 256 : i32}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}
