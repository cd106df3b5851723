// The shipped softmax4 kernel against func.func specs over tensors: the
// upstream linalg.softmax, the same computation spelled as linalg.reduce +
// linalg.generic, and a wrong spec (a plain copy), which is refuted.
// RUN: split-file %s %t
// RUN: kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/linalg-softmax.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/generic.mlir | FileCheck %s --check-prefix=PROVED
// RUN: %expect_exit 1 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/copy.mlir | FileCheck %s --check-prefix=REFUTED

// PROVED: kproof: softmax4 against @softmax(x) -> y (mode reals)
// PROVED: obligations: 8 (8 proved)
// PROVED: PROVED

// REFUTED: kproof: softmax4 against @copy(x) -> y (mode reals)
// REFUTED: Replay: confirmed by replay (IEEE f32): kernel y[0] = 0.25, spec = 0
// REFUTED: REFUTED

//--- linalg-softmax.mlir
func.func @softmax(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<4xf32>)
                                   outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}

//--- generic.mlir
#id = affine_map<(i) -> (i)>
#scalar = affine_map<(i) -> ()>
func.func @softmax(%x: tensor<4xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %m = linalg.reduce ins(%x : tensor<4xf32>) outs(%m0 : tensor<f32>)
      dimensions = [0]
      (%in: f32, %acc: f32) {
        %v = arith.maximumf %acc, %in : f32
        linalg.yield %v : f32
      }
  %e = tensor.empty() : tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [#id, #scalar, #id],
                        iterator_types = ["parallel"]}
      ins(%x, %m : tensor<4xf32>, tensor<f32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #scalar],
                       iterator_types = ["reduction"]}
      ins(%ex : tensor<4xf32>) outs(%s0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  } -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#id, #scalar, #id],
                       iterator_types = ["parallel"]}
      ins(%ex, %s : tensor<4xf32>, tensor<f32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %sum: f32, %o: f32):
    %v = arith.divf %a, %sum : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}

//--- copy.mlir
func.func @copy(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @copy, inputs = ["x"], output = "y"}, mode = "reals"}
