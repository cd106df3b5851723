// A block tree reduction whose threads exchange partial sums through shared
// memory between barriers: every shared read resolves to its writer thread's
// value (a witness thread, DESIGN.md §4), so the kernel is PROVED equal to
// the sum of its 256 inputs, race-free and with convergent barriers.
// RUN: kproof-opt %inputs/cuda/ptx/reduce_block_smem.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// CHECK: kproof: reduce_block_smem_256 against sum(x) -> y
// CHECK-NOT: REFUTED
// CHECK-NOT: UNKNOWN
// CHECK: PROVED

// The same contract with 32 threads: the kernel then reads buf[tid + 128],
// which no thread wrote.
// RUN: sed -e 's/256, 1, 1>/32, 1, 1>/' -e 's/1, 256>/1, 32>/' %s > %t.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/reduce_block_smem.sm80.O3.ptx --verify-sync --contract=%t.mlir 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: error: REFUTED: violated: initialized: the shared read of 'reduce_block_smem_256::buf' sees a value some thread wrote
// SMALL: REFUTED
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
