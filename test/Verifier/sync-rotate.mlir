// Shared-memory rotate-by-one (test/Inputs/cuda/sync_bugs.cu): each thread
// writes its slot, a barrier, then reads its neighbour's. The read resolves
// to the neighbour's write (a witness thread), so the kernel is PROVED
// race-free and equal to its spec; without the barrier the same read is a
// race (two threads of one CTA in one phase) and a value counterexample.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/rotate.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm90.G.ptx --verify-equiv --contract=%t/rotate.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/rotate96.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/rotate1.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/rotate.mlir | FileCheck %s --check-prefix=SYNC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=RACE

// PROVED: kproof: rotate_smem against @rotate(x) -> y (mode reals)
// PROVED-NOT: UNKNOWN
// PROVED-NOT: REFUTED
// PROVED: PROVED

// SYNC: kproof: rotate_smem against synchronization (races, barrier divergence, shared-memory reads, bounds)
// SYNC: PROVED

// RACE: sync_bugs.sm80.O3.ptx:{{[0-9]+}}:{{[0-9]+}}: error: REFUTED: data race on shared 'rotate_smem_nobarrier::s' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x=[[CTA:[0-9]+]]) writes at {{.*}}sync_bugs.cu:44:3), thread (tid.x={{[0-9]+}}, ctaid.x=[[CTA]]) reads at {{.*}}sync_bugs.cu:45:3) in the same barrier phase
// RACE: ERROR: data race on shared 'rotate_smem_nobarrier::s'
// RACE: REFUTED

//--- rotate.mlir
func.func @rotate(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x256xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c256 : index
    %v = tensor.extract %x[%b, %j] : tensor<4x256xf32>
    linalg.yield %v : f32
  } -> tensor<4x256xf32>
  return %r : tensor<4x256xf32>
}
kproof.contract @rotate_by_one {
  kernel = "rotate_smem",
  grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 256>}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}

//--- rotate96.mlir
// A block size that is not a multiple of 32 (a partial last warp).
func.func @rotate(%x: tensor<3x96xf32>) -> tensor<3x96xf32> {
  %e = tensor.empty() : tensor<3x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<3x96xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c96 = arith.constant 96 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c96 : index
    %v = tensor.extract %x[%b, %j] : tensor<3x96xf32>
    linalg.yield %v : f32
  } -> tensor<3x96xf32>
  return %r : tensor<3x96xf32>
}
kproof.contract @rotate_by_one {
  kernel = "rotate_smem",
  grid = array<i64: 3, 1, 1>, block = array<i64: 96, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 96>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 3, 96>}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}

//--- nobarrier.mlir
func.func @rotate(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x256xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c256 : index
    %v = tensor.extract %x[%b, %j] : tensor<4x256xf32>
    linalg.yield %v : f32
  } -> tensor<4x256xf32>
  return %r : tensor<4x256xf32>
}
kproof.contract @rotate_by_one {
  kernel = "rotate_smem_nobarrier",
  grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 256>}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}

//--- rotate1.mlir
// One CTA: the spec's unit outer dimension. A regression test: the func.func
// lowering once read x[(i + 1) % 8] as x[i + 1] for a [1, 8] tensor (a
// REFUTED that the interpreter's replay did not confirm).
func.func @rotate(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %e = tensor.empty() : tensor<1x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<1x8xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c8 : index
    %v = tensor.extract %x[%b, %j] : tensor<1x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
kproof.contract @rotate_by_one {
  kernel = "rotate_smem",
  grid = array<i64: 1, 1, 1>, block = array<i64: 8, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 8>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1, 8>}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}
