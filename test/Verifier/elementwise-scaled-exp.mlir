// Many threads, each computing its own element: out[i] = __expf(s * in[i])
// with i = ctaid.x * ntid.x + tid.x guarded by i < n, against a func.func
// spec. The launch is never unrolled: one symbolic thread stands for all
// 1024, and coverage uses the witness thread of each element.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/ok.mlir | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/bug.mlir | FileCheck %s --check-prefix=BUG

// CHECK: kproof: elementwise_scaled_exp against
// CHECK: idiom: f32 constant 0f3FB8AA3B read as log2(e) (relative error 1.3e-08)
// CHECK-NOT: REFUTED
// CHECK-NOT: UNKNOWN
// CHECK: PROVED

// The bug writes out[i + 1]: the last thread (ctaid.x = 3, tid.x = 255)
// stores past the end of y, and every thread stores exp(s * in[i]) where
// the spec wants exp(s * in[i + 1]): both REFUTED with confirmed
// counterexamples. (Element 0 is never written either: coverage is UNKNOWN,
// since a failed witness alone is not a counterexample.)
// BUG: REFUTED: stores to y stay inside its extent of 1024 elements at {{.*}}elementwise_scaled_exp.sm80.O3.ptx:103:2 (test/Inputs/cuda/elementwise_scaled_exp.cu:31:5) -- counterexample confirmed
// BUG: REFUTED: value y[i] written by the representative thread -- counterexample confirmed
// BUG: REFUTED: coverage: every element of 'y' is written -- no thread writes y[0] on any path (z3: unsat)
// BUG: ERROR: violated: stores to y stay inside its extent of 1024 elements
// BUG: Example:
// BUG-NEXT: ctaid.x = 3
// BUG-NEXT: tid.x = 255
// BUG-NOT: Kernel value
// BUG: Replay: confirmed by replay (IEEE f32): out-of-bounds access: thread (255,0,0) of CTA (3,0,0) accesses 4 bytes at .global address 0x{{[0-9a-f]+}}, outside every allocation
// BUG: REFUTED

//--- ok.mlir
func.func @scaled_exp(%x: tensor<1024xf32>, %s: f32) -> tensor<1024xf32> {
  %init = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<1024xf32>) outs(%init : tensor<1024xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %m = arith.mulf %s, %a : f32
    %e = math.exp %m : f32
    linalg.yield %e : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
kproof.contract @ok {
  kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {func = @scaled_exp, inputs = ["x", "s"], output = "y"}
}
//--- bug.mlir
func.func @scaled_exp(%x: tensor<1024xf32>, %s: f32) -> tensor<1024xf32> {
  %init = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<1024xf32>) outs(%init : tensor<1024xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %m = arith.mulf %s, %a : f32
    %e = math.exp %m : f32
    linalg.yield %e : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
kproof.contract @bug {
  kernel = "elementwise_scaled_exp_bug", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {func = @scaled_exp, inputs = ["x", "s"], output = "y"}
}
