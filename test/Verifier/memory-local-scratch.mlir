// Per-thread scratch arrays in .local memory (PTX ISA 5.1.5): a register
// array indexed by data, which nvcc places in the local depot at -O3 and
// -G alike. Stores at symbolic byte offsets are kept in program order (the
// array's store chain); a load resolves against them newest first: a store
// at the same offset supplies the value, one at a provably different
// offset is passed, one that may alias becomes ite(offset == store offset,
// stored, older). The scatter's later store wins where two indices collide;
// its bug twin stores in reverse order, REFUTED with the colliding
// permutation, confirmed by replay. The vector store of zeros (st.local.v4)
// and -G's st.u32 0 of 0.0f are the array's initial contents.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/select.mlir | FileCheck %s --check-prefix=SELECT
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/select.mlir | FileCheck %s --check-prefix=SELECT
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/select.mlir --format=json | FileCheck %s --check-prefix=SELECT-JSON
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/select-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/select-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/scatter.mlir | FileCheck %s --check-prefix=SCATTER
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/scatter.mlir | FileCheck %s --check-prefix=SCATTER
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/scatter-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/scatter-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-sync --contract=%t/scatter.mlir | FileCheck %s --check-prefix=SYNC

// SELECT-NOT: UNKNOWN
// SELECT-JSON: "name": "alignment of the load from select_local8.__local_depot
// SELECT-JSON: "name": "load from select_local8.__local_depot{{[0-9]+}} inside its 32 bytes
// SELECT-JSON: "name": "the load of 'select_local8.__local_depot{{[0-9]+}}' and the store at {{.*}} access the same bytes or disjoint ones
// SELECT: {{^}}PROVED

// SCATTER-NOT: UNKNOWN
// SCATTER: {{^}}PROVED

// BUG: REFUTED: value y[i] written by the representative thread
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel y[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED

// SYNC-NOT: UNKNOWN
// SYNC: {{^}}PROVED

//--- select.mlir
func.func @sel(%x: tensor<512xf32>, %sel: tensor<64xi32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%sel : tensor<64xi32>) outs(%e : tensor<64xf32>) {
  ^bb0(%s: i32, %o: f32):
    %i = linalg.index 0 : index
    %c7 = arith.constant 7 : i32
    %k = arith.andi %s, %c7 : i32
    %ki = arith.index_cast %k : i32 to index
    %c8 = arith.constant 8 : index
    %b = arith.muli %i, %c8 : index
    %j = arith.addi %b, %ki : index
    %v = tensor.extract %x[%j] : tensor<512xf32>
    %two = arith.constant 2.0 : f32
    %r2 = arith.mulf %two, %v : f32
    linalg.yield %r2 : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @sel_c {kernel = "select_local8",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
            {name = "sel", buffer = "in", space = "global", type = i32, shape = array<i64: 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @sel, inputs = ["x", "sel"], output = "y"}, mode = "reals"}

//--- select-bug.mlir
func.func @sel(%x: tensor<512xf32>, %sel: tensor<64xi32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%sel : tensor<64xi32>) outs(%e : tensor<64xf32>) {
  ^bb0(%s: i32, %o: f32):
    %i = linalg.index 0 : index
    %c7 = arith.constant 7 : i32
    %k = arith.andi %s, %c7 : i32
    %ki = arith.index_cast %k : i32 to index
    %c8 = arith.constant 8 : index
    %b = arith.muli %i, %c8 : index
    %j = arith.addi %b, %ki : index
    %v = tensor.extract %x[%j] : tensor<512xf32>
    %two = arith.constant 2.0 : f32
    %r2 = arith.mulf %two, %v : f32
    linalg.yield %r2 : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @sel_c {kernel = "select_local8_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
            {name = "sel", buffer = "in", space = "global", type = i32, shape = array<i64: 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @sel, inputs = ["x", "sel"], output = "y"}, mode = "reals"}

//--- scatter.mlir
func.func @scatter(%x: tensor<64x4xf32>, %perm: tensor<64x4xi32>) -> tensor<64x4xf32> {
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %k32 = arith.index_cast %k : index to i32
    %c3 = arith.constant 3 : i32
    %v0 = arith.constant 0.0 : f32
    %j0 = arith.constant 0 : index
    %p0 = tensor.extract %perm[%i, %j0] : tensor<64x4xi32>
    %m0 = arith.andi %p0, %c3 : i32
    %h0 = arith.cmpi eq, %m0, %k32 : i32
    %x0 = tensor.extract %x[%i, %j0] : tensor<64x4xf32>
    %v1 = arith.select %h0, %x0, %v0 : f32
    %j1 = arith.constant 1 : index
    %p1 = tensor.extract %perm[%i, %j1] : tensor<64x4xi32>
    %m1 = arith.andi %p1, %c3 : i32
    %h1 = arith.cmpi eq, %m1, %k32 : i32
    %x1 = tensor.extract %x[%i, %j1] : tensor<64x4xf32>
    %v2 = arith.select %h1, %x1, %v1 : f32
    %j2 = arith.constant 2 : index
    %p2 = tensor.extract %perm[%i, %j2] : tensor<64x4xi32>
    %m2 = arith.andi %p2, %c3 : i32
    %h2 = arith.cmpi eq, %m2, %k32 : i32
    %x2 = tensor.extract %x[%i, %j2] : tensor<64x4xf32>
    %v3 = arith.select %h2, %x2, %v2 : f32
    %j3 = arith.constant 3 : index
    %p3 = tensor.extract %perm[%i, %j3] : tensor<64x4xi32>
    %m3 = arith.andi %p3, %c3 : i32
    %h3 = arith.cmpi eq, %m3, %k32 : i32
    %x3 = tensor.extract %x[%i, %j3] : tensor<64x4xf32>
    %v4 = arith.select %h3, %x3, %v3 : f32
    linalg.yield %v4 : f32
  } -> tensor<64x4xf32>
  return %r : tensor<64x4xf32>
}
kproof.contract @scatter_c {kernel = "scatter_local4",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 4>},
            {name = "perm", buffer = "in", space = "global", type = i32, shape = array<i64: 64, 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 4>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @scatter, inputs = ["x", "perm"], output = "y"}, mode = "reals"}

//--- scatter-bug.mlir
func.func @scatter(%x: tensor<64x4xf32>, %perm: tensor<64x4xi32>) -> tensor<64x4xf32> {
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %k32 = arith.index_cast %k : index to i32
    %c3 = arith.constant 3 : i32
    %v0 = arith.constant 0.0 : f32
    %j0 = arith.constant 0 : index
    %p0 = tensor.extract %perm[%i, %j0] : tensor<64x4xi32>
    %m0 = arith.andi %p0, %c3 : i32
    %h0 = arith.cmpi eq, %m0, %k32 : i32
    %x0 = tensor.extract %x[%i, %j0] : tensor<64x4xf32>
    %v1 = arith.select %h0, %x0, %v0 : f32
    %j1 = arith.constant 1 : index
    %p1 = tensor.extract %perm[%i, %j1] : tensor<64x4xi32>
    %m1 = arith.andi %p1, %c3 : i32
    %h1 = arith.cmpi eq, %m1, %k32 : i32
    %x1 = tensor.extract %x[%i, %j1] : tensor<64x4xf32>
    %v2 = arith.select %h1, %x1, %v1 : f32
    %j2 = arith.constant 2 : index
    %p2 = tensor.extract %perm[%i, %j2] : tensor<64x4xi32>
    %m2 = arith.andi %p2, %c3 : i32
    %h2 = arith.cmpi eq, %m2, %k32 : i32
    %x2 = tensor.extract %x[%i, %j2] : tensor<64x4xf32>
    %v3 = arith.select %h2, %x2, %v2 : f32
    %j3 = arith.constant 3 : index
    %p3 = tensor.extract %perm[%i, %j3] : tensor<64x4xi32>
    %m3 = arith.andi %p3, %c3 : i32
    %h3 = arith.cmpi eq, %m3, %k32 : i32
    %x3 = tensor.extract %x[%i, %j3] : tensor<64x4xf32>
    %v4 = arith.select %h3, %x3, %v3 : f32
    linalg.yield %v4 : f32
  } -> tensor<64x4xf32>
  return %r : tensor<64x4xf32>
}
kproof.contract @scatter_c {kernel = "scatter_local4_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 4>},
            {name = "perm", buffer = "in", space = "global", type = i32, shape = array<i64: 64, 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 4>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @scatter, inputs = ["x", "perm"], output = "y"}, mode = "reals"}
