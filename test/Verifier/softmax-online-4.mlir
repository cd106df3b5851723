// Online softmax over one row of 4 floats (one thread, nvcc -O3, __expf)
// against the softmax spec: PROVED, with the reading of the constant
// log2(e) reported (ex2((x - m) * log2(e)) is exp(x - m)).
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.G.ptx --verify-equiv --contract=%s | FileCheck %s

// CHECK: kproof: softmax_online_4 against softmax(x) -> y (mode reals)
// CHECK: assuming: one thread computes the whole row
// CHECK: assuming: floats are exact reals
// CHECK: idiom: f32 constant 0f3FB8AA3B read as log2(e) (relative error 1.3e-08) at {{.*}}softmax_online.sm80.{{O3|G}}.ptx:
// Four values and four divisors, all closed by the normalizer.
// CHECK: obligations: 8 (8 proved)
// CHECK-NOT: REFUTED
// CHECK: PROVED
kproof.contract @softmax4 {
  kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
