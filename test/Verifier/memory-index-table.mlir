// Integer index tables: y[i] = x[idx[i]]. An int32 element read at a
// thread-dependent index is an uninterpreted read idx[i] (any value of its
// type). Unconstrained, the gather reads outside x: REFUTED with the
// element of idx that does it, confirmed by replay. Under the contract's
// precondition `range = array<i64: 0, 1000>` on idx (printed with the
// verdict), every read is in bounds and the gather PROVES against a
// func.func spec that reads x at idx[i]. A range that no value satisfies
// is a contract error, as is a range on a float or an output buffer.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/free.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/free.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/ranged.mlir | FileCheck %s --check-prefix=RANGED
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/ranged.mlir | FileCheck %s --check-prefix=RANGED
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-sync --contract=%t/ranged.mlir | FileCheck %s --check-prefix=RANGED
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/too-wide.mlir 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/float.mlir 2>&1 | FileCheck %s --check-prefix=FLOAT

// FREE: error: REFUTED: violated: load from x inside its extent of 1000 elements
// FREE: idx[0] =
// FREE: Replay: confirmed by replay (IEEE f32): out-of-bounds access
// FREE-NOT: value mismatch
// FREE: {{^}}REFUTED

// RANGED: assuming: precondition: every element of 'idx' is in [0, 1000) (contract: range)
// RANGED-NOT: UNKNOWN
// RANGED: {{^}}PROVED

// One element too many: idx[i] = 1000 reads past x.
// WIDE: assuming: precondition: every element of 'idx' is in [0, 1001) (contract: range)
// WIDE: idx[0] = 1000
// WIDE: {{^}}REFUTED

// EMPTY: error: 'kproof.contract' op param 'idx': 'range' [5, 5) is empty: no input satisfies it
// FLOAT: error: 'kproof.contract' op param 'x': 'range' applies to an in or inout buffer of integers

//--- free.mlir
func.func @gather(%x: tensor<1000xf32>, %idx: tensor<128xi32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<128xi32>) outs(%e : tensor<128xf32>) {
  ^bb0(%j: i32, %o: f32):
    %ji = arith.index_cast %j : i32 to index
    %v = tensor.extract %x[%ji] : tensor<1000xf32>
    linalg.yield %v : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @gather_c {kernel = "gather_idx",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "idx", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>},
            {name = "n", scalar = i32, value = 128 : i32}],
  spec = {func = @gather, inputs = ["x", "idx"], output = "y"}, mode = "reals"}
//--- ranged.mlir
func.func @gather(%x: tensor<1000xf32>, %idx: tensor<128xi32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<128xi32>) outs(%e : tensor<128xf32>) {
  ^bb0(%j: i32, %o: f32):
    %ji = arith.index_cast %j : i32 to index
    %v = tensor.extract %x[%ji] : tensor<1000xf32>
    linalg.yield %v : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @gather_c {kernel = "gather_idx",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "idx", buffer = "in", space = "global", type = i32, shape = array<i64: 128>, range = array<i64: 0, 1000>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>},
            {name = "n", scalar = i32, value = 128 : i32}],
  spec = {func = @gather, inputs = ["x", "idx"], output = "y"}, mode = "reals"}
//--- too-wide.mlir
func.func @gather(%x: tensor<1000xf32>, %idx: tensor<128xi32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<128xi32>) outs(%e : tensor<128xf32>) {
  ^bb0(%j: i32, %o: f32):
    %ji = arith.index_cast %j : i32 to index
    %v = tensor.extract %x[%ji] : tensor<1000xf32>
    linalg.yield %v : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @gather_c {kernel = "gather_idx",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "idx", buffer = "in", space = "global", type = i32, shape = array<i64: 128>, range = array<i64: 0, 1001>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>},
            {name = "n", scalar = i32, value = 128 : i32}],
  spec = {func = @gather, inputs = ["x", "idx"], output = "y"}, mode = "reals"}
//--- empty.mlir
func.func @gather(%x: tensor<1000xf32>, %idx: tensor<128xi32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<128xi32>) outs(%e : tensor<128xf32>) {
  ^bb0(%j: i32, %o: f32):
    %ji = arith.index_cast %j : i32 to index
    %v = tensor.extract %x[%ji] : tensor<1000xf32>
    linalg.yield %v : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @gather_c {kernel = "gather_idx",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "idx", buffer = "in", space = "global", type = i32, shape = array<i64: 128>, range = array<i64: 5, 5>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>},
            {name = "n", scalar = i32, value = 128 : i32}],
  spec = {func = @gather, inputs = ["x", "idx"], output = "y"}, mode = "reals"}
//--- float.mlir
func.func @gather(%x: tensor<1000xf32>, %idx: tensor<128xi32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<128xi32>) outs(%e : tensor<128xf32>) {
  ^bb0(%j: i32, %o: f32):
    %ji = arith.index_cast %j : i32 to index
    %v = tensor.extract %x[%ji] : tensor<1000xf32>
    linalg.yield %v : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @gather_c {kernel = "gather_idx",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>, range = array<i64: 0, 5>},
            {name = "idx", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>},
            {name = "n", scalar = i32, value = 128 : i32}],
  spec = {func = @gather, inputs = ["x", "idx"], output = "y"}, mode = "reals"}
