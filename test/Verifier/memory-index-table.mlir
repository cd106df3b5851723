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

// A paged KV cache: k_out[b, j, :] = k_cache[block_table[b, j / 4], j % 4, :]
// through an int32 block table ranged to the cache's 8 pages. The bug
// takes the slot in the page as j / 4: REFUTED, confirmed by replay.
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/paged.mlir | FileCheck %s --check-prefix=PAGED
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/paged.mlir | FileCheck %s --check-prefix=PAGED
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/paged-bug.mlir 2>&1 | FileCheck %s --check-prefix=PAGED-BUG

// PAGED: assuming: precondition: every element of 'block_table' is in [0, 8) (contract: range)
// PAGED-NOT: UNKNOWN
// PAGED: {{^}}PROVED
// PAGED-BUG: REFUTED: value k_out[i] written by the representative thread -- counterexample confirmed
// PAGED-BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// PAGED-BUG: {{^}}REFUTED

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
//--- paged.mlir
func.func @paged(%kc: tensor<8x4x2xf32>, %bt: tensor<2x3xi32>) -> tensor<2x12x2xf32> {
  %e = tensor.empty() : tensor<2x12x2xf32>
  %c4 = arith.constant 4 : index
  %r = linalg.generic {indexing_maps = [affine_map<(b, j, c) -> (b, j, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x12x2xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = linalg.index 2 : index
    %pj = arith.divui %j, %c4 : index
    %slot = arith.remui %j, %c4 : index
    %pg = tensor.extract %bt[%b, %pj] : tensor<2x3xi32>
    %pgi = arith.index_cast %pg : i32 to index
    %v = tensor.extract %kc[%pgi, %slot, %c] : tensor<8x4x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x12x2xf32>
  return %r : tensor<2x12x2xf32>
}
kproof.contract @paged_c {kernel = "paged_kv_gather",
  grid = array<i64: 3, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [{name = "k_cache", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 4, 2>},
            {name = "block_table", buffer = "in", space = "global", type = i32, shape = array<i64: 2, 3>, range = array<i64: 0, 8>},
            {name = "k_out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 12, 2>},
            {name = "max_pages", scalar = i32, value = 3 : i32},
            {name = "n", scalar = i32, value = 12 : i32}],
  spec = {func = @paged, inputs = ["k_cache", "block_table"], output = "k_out"}}
//--- paged-bug.mlir
func.func @paged(%kc: tensor<8x4x2xf32>, %bt: tensor<2x3xi32>) -> tensor<2x12x2xf32> {
  %e = tensor.empty() : tensor<2x12x2xf32>
  %c4 = arith.constant 4 : index
  %r = linalg.generic {indexing_maps = [affine_map<(b, j, c) -> (b, j, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x12x2xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = linalg.index 2 : index
    %pj = arith.divui %j, %c4 : index
    %slot = arith.remui %j, %c4 : index
    %pg = tensor.extract %bt[%b, %pj] : tensor<2x3xi32>
    %pgi = arith.index_cast %pg : i32 to index
    %v = tensor.extract %kc[%pgi, %slot, %c] : tensor<8x4x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x12x2xf32>
  return %r : tensor<2x12x2xf32>
}
kproof.contract @paged_c {kernel = "paged_kv_gather_bug",
  grid = array<i64: 3, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [{name = "k_cache", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 4, 2>},
            {name = "block_table", buffer = "in", space = "global", type = i32, shape = array<i64: 2, 3>, range = array<i64: 0, 8>},
            {name = "k_out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 12, 2>},
            {name = "max_pages", scalar = i32, value = 3 : i32},
            {name = "n", scalar = i32, value = 12 : i32}],
  spec = {func = @paged, inputs = ["k_cache", "block_table"], output = "k_out"}}
