// N = 32 (fully unrolled by nvcc -O3) and N = 128 (a loop the executor
// unrolls, its trip count fixed by the kernel): PROVED.
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm90.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// CHECK: kproof: softmax_online_32 against softmax(x) -> y
// CHECK: obligations: 64 (64 proved)
// CHECK: PROVED
kproof.contract @softmax32 {
  kernel = "softmax_online_32", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
