// A func.func spec that does not fit the contract is an error (exit 2) that
// names the problem and, for an op the lowering does not model, its place.
// RUN: split-file %s %t
// RUN: %expect_exit 2 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %expect_exit 2 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/shape.mlir 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: %expect_exit 2 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/result.mlir 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: %expect_exit 2 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/arity.mlir 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: %expect_exit 2 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/unsupported.mlir 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: %expect_exit 2 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%t/dynamic.mlir 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// MISSING: error: spec function @softmax not found
// SHAPE: error: spec @softmax argument #0 has shape [8] but buffer 'x' has shape [4]
// RESULT: error: spec @softmax returns shape [2x2] but output buffer 'y' has shape [4]
// ARITY: error: spec @softmax takes 2 argument(s) but the spec lists 1 input(s)
// UNSUP: error: spec @softmax: unsupported op 'math.log1p' at {{.*}}unsupported.mlir:3:8
// DYNAMIC: error: spec @softmax argument #0 has shape [?] but buffer 'x' has shape [4] (a launch-dependent extent is bound by '?', a concrete one by itself)

//--- missing.mlir
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}

//--- shape.mlir
func.func @softmax(%x: tensor<8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}

//--- result.mlir
func.func @softmax(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %r = tensor.expand_shape %x [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}

//--- arity.mlir
func.func @softmax(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}

//--- unsupported.mlir
func.func @softmax(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = math.log1p %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}

//--- dynamic.mlir
func.func @softmax(%x: tensor<?xf32>) -> tensor<4xf32> {
  %r = tensor.cast %x : tensor<?xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
kproof.contract @softmax4 {kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {func = @softmax, inputs = ["x"], output = "y"}, mode = "reals"}
