// The running max starts at 0 instead of -inf: still PROVED, because
// softmax is shift-invariant over the reals (the max cancels).
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online_m0.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// CHECK: kproof: softmax_online_m0_4
// CHECK: obligations: 8 (8 proved)
// CHECK: PROVED
kproof.contract @softmaxm0 {
  kernel = "softmax_online_m0_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
