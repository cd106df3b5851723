// The grid-stride fixture of the symbolic-memory work (memory_layouts.cu,
// scale_grid_stride: y[i] = 2 x[i] through a templated __device__ loop,
// written for a fixed n = 1000) over a symbolic n in [1, 2^20] with a
// func spec over tensor<?xf32>: its storing loop is a store family, PROVED
// at -O3 and -G; the twin that starts one element late is REFUTED, y[0]
// unwritten, confirmed by replay.
//
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.G.ptx --verify-equiv --contract=%s | FileCheck %s
// RUN: sed 's/"scale_grid_stride"/"scale_grid_stride_bug"/' %s > %t.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t.mlir 2>/dev/null | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.G.ptx --verify-equiv --contract=%t.mlir 2>/dev/null | FileCheck %s --check-prefix=BUG
// CHECK: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// CHECK: obligations: [[N:[0-9]+]] ([[N]] proved)
// CHECK: PROVED
// BUG-NOT: PROVED
// BUG: REFUTED: coverage: every element of 'y' is written -- no thread writes y[0]
// BUG: Replay: confirmed by replay (IEEE f32): the kernel never writes y[0] (spec = 0)
// BUG: REFUTED

func.func @scale(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %two, %a : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
kproof.contract @gs {kernel = "scale_grid_stride",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["n"]},
            {name = "y", buffer = "out", space = "global", type = f32, shape = ["n"]},
            {name = "n", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @scale, inputs = ["x"], output = "y"}}
