// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// CHECK: kproof: softmax_online_128 against softmax(x) -> y
// CHECK: obligations: 256 (256 proved)
// CHECK: PROVED
kproof.contract @softmax128 {
  kernel = "softmax_online_128", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
