// Loads after stores to the same buffer: read-modify-write of an inout
// buffer. A load of a buffer the thread has written resolves against its
// own earlier stores (newest first), down to the initial contents; in a
// multi-thread launch it sees those only if no other thread writes what it
// reads, an obligation over a second thread (any CTA, any phase). The
// in-place shift reads what its neighbour writes in the same phase: a race,
// REFUTED with both threads. Reading a neighbour's store after a barrier is
// cross-thread data flow kproof does not model: UNKNOWN with that reason
// (and never PROVED against a spec that takes the initial contents).
// Distinct buffers do not overlap: printed with the verdict. The
// counterexamples vary from run to run (docs/benchmarks.md, determinism),
// so the replay's mode (IEEE f32, or exact for values f32 cannot hold) is
// not checked.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/axpy.mlir | FileCheck %s --check-prefix=AXPY
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/axpy.mlir | FileCheck %s --check-prefix=AXPY
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/axpy.mlir --format=json | FileCheck %s --check-prefix=JSON
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/axpy-bug.mlir 2>&1 | FileCheck %s --check-prefix=AXPY-BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/axpy-bug.mlir 2>&1 | FileCheck %s --check-prefix=AXPY-BUG
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/accum.mlir | FileCheck %s --check-prefix=ACCUM
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/accum.mlir | FileCheck %s --check-prefix=ACCUM
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/accum-bug.mlir 2>&1 | FileCheck %s --check-prefix=ACCUM-BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/accum-bug.mlir 2>&1 | FileCheck %s --check-prefix=ACCUM-BUG
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/scale-add.mlir | FileCheck %s --check-prefix=TWICE
// RUN: kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-equiv --contract=%t/scale-add.mlir | FileCheck %s --check-prefix=TWICE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/shift.mlir 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_rmw.sm90.G.ptx --verify-sync --contract=%t/shift.mlir 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/memory_rmw.sm80.O3.ptx --verify-equiv --contract=%t/neighbor.mlir 2>&1 | FileCheck %s --check-prefix=NEIGHBOR

// AXPY: assuming: the buffers x, y do not overlap in memory
// AXPY-NOT: UNKNOWN
// JSON: "name": "no other thread writes the element of 'y' this thread reads
// AXPY: {{^}}PROVED
// AXPY-BUG: REFUTED: value y[i] written by the representative thread -- counterexample confirmed
// AXPY-BUG: Replay: confirmed by replay ({{[^)]*}}): kernel y[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// AXPY-BUG: {{^}}REFUTED

// ACCUM-NOT: UNKNOWN
// ACCUM: {{^}}PROVED
// ACCUM-BUG: REFUTED: value y[i] written by the representative thread (store 4 of 4
// ACCUM-BUG: Replay: confirmed by replay ({{[^)]*}}): kernel y[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// ACCUM-BUG: {{^}}REFUTED

// TWICE-NOT: UNKNOWN
// TWICE: {{^}}PROVED

// SHIFT: data race on global 'y'
// SHIFT: Replay: confirmed by replay (IEEE f32): race
// SHIFT: {{^}}REFUTED

// NEIGHBOR-NOT: PROVED
// NEIGHBOR: UNKNOWN: no other thread writes the element of 'y' this thread reads {{.*}} cross-thread data flow through global memory is not yet modeled
// NEIGHBOR-NOT: PROVED

//--- axpy.mlir
func.func @axpy(%x: tensor<256xf32>, %y: tensor<256xf32>, %a: f32) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%xv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %a, %xv : f32
    %s = arith.addf %m, %yv : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
kproof.contract @axpy_c {kernel = "axpy_inplace",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 256>},
            {name = "a", scalar = f32},
            {name = "n", scalar = i32, value = 256 : i32}],
  spec = {func = @axpy, inputs = ["x", "y", "a"], output = "y"}, mode = "reals"}

//--- axpy-bug.mlir
func.func @axpy(%x: tensor<256xf32>, %y: tensor<256xf32>, %a: f32) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%xv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %a, %xv : f32
    %s = arith.addf %m, %yv : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
kproof.contract @axpy_c {kernel = "axpy_inplace_bug",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 256>},
            {name = "a", scalar = f32},
            {name = "n", scalar = i32, value = 256 : i32}],
  spec = {func = @axpy, inputs = ["x", "y", "a"], output = "y"}, mode = "reals"}

//--- accum.mlir
func.func @accum(%x: tensor<4x64xf32>, %w: tensor<4xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(k, i) -> (k, i)>, affine_map<(k, i) -> (k)>,
                                        affine_map<(k, i) -> (k, i)>, affine_map<(k, i) -> (k, i)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %w, %y : tensor<4x64xf32>, tensor<4xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%xv: f32, %wv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %xv, %wv : f32
    %s = arith.addf %yv, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
kproof.contract @accum_c {kernel = "accum4_inplace",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 64>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 4, 64>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @accum, inputs = ["x", "w", "y"], output = "y"}, mode = "reals"}

//--- accum-bug.mlir
func.func @accum(%x: tensor<4x64xf32>, %w: tensor<4xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(k, i) -> (k, i)>, affine_map<(k, i) -> (k)>,
                                        affine_map<(k, i) -> (k, i)>, affine_map<(k, i) -> (k, i)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %w, %y : tensor<4x64xf32>, tensor<4xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%xv: f32, %wv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %xv, %wv : f32
    %s = arith.addf %yv, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
kproof.contract @accum_c {kernel = "accum4_inplace_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 64>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 4, 64>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @accum, inputs = ["x", "w", "y"], output = "y"}, mode = "reals"}

//--- scale-add.mlir
func.func @axpy(%x: tensor<256xf32>, %y: tensor<256xf32>, %a: f32) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%xv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %yv, %a : f32
    %s = arith.addf %m, %xv : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
kproof.contract @axpy_c {kernel = "scale_add_inplace",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 256>},
            {name = "a", scalar = f32},
            {name = "n", scalar = i32, value = 256 : i32}],
  spec = {func = @axpy, inputs = ["x", "y", "a"], output = "y"}, mode = "reals"}

//--- shift.mlir
func.func @shift(%y: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<256xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c1 = arith.constant 1 : index
    %c255 = arith.constant 255 : index
    %j = arith.addi %i, %c1 : index
    %jj = arith.minui %j, %c255 : index
    %v = tensor.extract %y[%jj] : tensor<256xf32>
    linalg.yield %v : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
kproof.contract @shift_c {kernel = "shift_inplace_bug",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 256>},
            {name = "n", scalar = i32, value = 256 : i32}],
  spec = {func = @shift, inputs = ["y"], output = "y"}, mode = "reals"}

//--- neighbor.mlir
func.func @nb(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<64xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c1 = arith.constant 1 : index
    %j = arith.xori %i, %c1 : index
    %v = tensor.extract %y[%j] : tensor<64xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %x, %z : tensor<64xf32>, tensor<64xf32>
}
kproof.contract @nb_c {kernel = "neighbor_after_barrier",
  grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 64>},
            {name = "z", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}],
  spec = {func = @nb, inputs = ["x", "y"], outputs = ["y", "z"]}, mode = "reals"}
