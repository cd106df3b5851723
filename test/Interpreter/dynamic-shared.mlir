// The interpreter sizes dynamic shared memory (`extern __shared__`) from
// the contract's `dynamic_shared` bytes, in kproof-run and in replay (it
// ignored them: an empty block, so every access was out of bounds and the
// kernel's values were not its own); an access past the contract's size is
// an out-of-bounds finding; --dynamic-smem overrides the contract.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --contract=%t/sized.mlir --inputs=%t/ramp16.json | FileCheck %s --check-prefix=SIZED
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --contract=%t/small.mlir --inputs=%t/ramp16.json | FileCheck %s --check-prefix=SMALL
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --contract=%t/small.mlir --inputs=%t/ramp16.json --dynamic-smem=32 | FileCheck %s --check-prefix=SIZED
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --verify-equiv --contract=%t/copy.mlir 2>/dev/null | FileCheck %s --check-prefix=REPLAY

// SIZED: "out": [
// SIZED-NEXT: 7,
// SIZED-NEXT: 6,
// SIZED: "findings": [],
// SIZED: "result": "ok"
// SMALL: "kind": "out-of-bounds access",
// SMALL-NEXT: "message": "{{.*}}thread (4,0,0) of CTA (0,0,0) accesses 4 bytes at .shared address 0x{{[0-9a-f]+}}, outside every allocation
// SMALL: "result": "finding"
// The kernel reverses each CTA's 8 elements through its 32 bytes; against
// the copy spec, the replay's kernel value is the kernel's, not an
// uninitialized 0.
// (Z3's model varies: the replay confirms that the kernel value differs
// from the spec's at the model's inputs, which an uninitialized read of 0
// would not do for every model.)
// REPLAY: Kernel value: {{\[}}
// REPLAY: Replay: confirmed by replay (IEEE f32): kernel out[{{[0-9]+}}] = {{[-0-9.e+]+}}, spec =

//--- ramp16.json
{"in": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]}
//--- sized.mlir
func.func @rev(%x: tensor<16xf32>) -> tensor<16xf32> {
  %init = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i - (i mod 8) * 2 + 7)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %unused: f32):
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
kproof.contract @reverse {
  kernel = "dynamic_smem_reverse", grid = array<i64: 2, 1, 1>, block = array<i64: 8, 1, 1>,
  dynamic_shared = 32,
  params = [{name = "in", buffer = "in", type = f32, shape = array<i64: 16>},
            {name = "out", buffer = "out", type = f32, shape = array<i64: 16>},
            {name = "n", scalar = i32, value = 16 : i32}],
  spec = {func = @rev, inputs = ["in"], output = "out"}}
//--- small.mlir
func.func @rev(%x: tensor<16xf32>) -> tensor<16xf32> {
  %init = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i - (i mod 8) * 2 + 7)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %unused: f32):
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
kproof.contract @reverse {
  kernel = "dynamic_smem_reverse", grid = array<i64: 2, 1, 1>, block = array<i64: 8, 1, 1>,
  dynamic_shared = 16,
  params = [{name = "in", buffer = "in", type = f32, shape = array<i64: 16>},
            {name = "out", buffer = "out", type = f32, shape = array<i64: 16>},
            {name = "n", scalar = i32, value = 16 : i32}],
  spec = {func = @rev, inputs = ["in"], output = "out"}}
//--- copy.mlir
kproof.contract @reverse {
  kernel = "dynamic_smem_reverse", grid = array<i64: 2, 1, 1>, block = array<i64: 8, 1, 1>,
  dynamic_shared = 32,
  params = [{name = "in", buffer = "in", type = f32, shape = array<i64: 16>},
            {name = "out", buffer = "out", type = f32, shape = array<i64: 16>},
            {name = "n", scalar = i32, value = 16 : i32}],
  spec = {builtin = "copy", input = "in", output = "out"}}
