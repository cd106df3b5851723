// Two-pass softmax with exp2f and a log2(e) pre-scale: PROVED, and the
// verdict names the reading of 0f3FB8AA3B as log2(e) (then ex2(f * log2(e))
// is exp(f)).
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_twopass_exp2.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// CHECK: kproof: softmax_twopass_exp2_4
// CHECK: idiom: f32 constant 0f3FB8AA3B read as log2(e) (relative error 1.3e-08) at {{.*}}softmax_twopass_exp2.sm80.O3.ptx:{{[0-9]+}}:{{[0-9]+}}
// CHECK: PROVED
kproof.contract @softmaxexp2 {
  kernel = "softmax_twopass_exp2_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
