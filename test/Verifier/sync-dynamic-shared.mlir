// Dynamic shared memory (`extern __shared__ float buf[]`): its size comes from
// the contract's `dynamic_shared` (bytes per CTA). With it, the per-CTA
// reversal through shared memory is PROVED; without it, UNKNOWN with the
// reason; a size too small for the kernel's accesses is REFUTED.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --verify-equiv --contract=%t/sized.mlir | FileCheck %s --check-prefix=PROVED
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --verify-equiv --contract=%t/unsized.mlir | FileCheck %s --check-prefix=UNSIZED
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --verify-sync --contract=%t/small.mlir 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --verify-sync --contract=%t/negative.mlir 2>&1 | FileCheck %s --check-prefix=NEG

// PROVED: kproof: dynamic_smem_reverse against @rev(in) -> out
// PROVED: PROVED
// UNSIZED: UNKNOWN: dynamic shared memory 'buf': its size is not in the contract (dynamic_shared)
// SMALL: REFUTED: violated: shared {{load from|store to}} buf inside its 16 bytes
// NEG: error: 'kproof.contract' op 'dynamic_shared' (bytes of dynamic shared memory) must be >= 0

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

//--- unsized.mlir
kproof.contract @reverse {
  kernel = "dynamic_smem_reverse", grid = array<i64: 2, 1, 1>, block = array<i64: 8, 1, 1>,
  params = [{name = "in", buffer = "in", type = f32, shape = array<i64: 16>},
            {name = "out", buffer = "out", type = f32, shape = array<i64: 16>},
            {name = "n", scalar = i32, value = 16 : i32}],
  spec = {builtin = "copy", input = "in", output = "out"}}

//--- small.mlir
kproof.contract @reverse {
  kernel = "dynamic_smem_reverse", grid = array<i64: 2, 1, 1>, block = array<i64: 8, 1, 1>,
  dynamic_shared = 16,
  params = [{name = "in", buffer = "in", type = f32, shape = array<i64: 16>},
            {name = "out", buffer = "out", type = f32, shape = array<i64: 16>},
            {name = "n", scalar = i32, value = 16 : i32}],
  spec = {builtin = "copy", input = "in", output = "out"}}

//--- negative.mlir
kproof.contract @reverse {
  kernel = "dynamic_smem_reverse", grid = array<i64: 2, 1, 1>, block = array<i64: 8, 1, 1>,
  dynamic_shared = -4,
  params = [{name = "in", buffer = "in", type = f32, shape = array<i64: 16>},
            {name = "out", buffer = "out", type = f32, shape = array<i64: 16>},
            {name = "n", scalar = i32, value = 16 : i32}],
  spec = {builtin = "copy", input = "in", output = "out"}}
