// Planted synchronization bugs of test/Inputs/cuda/sync_bugs.cu, and their
// correct counterparts. Every report names the two threads (or CTAs), the
// byte, and both PTX (and CUDA) locations.
// RUN: split-file %s %t
//
// One warp, lane 0 sums what the other lanes published: PROVED against a
// plain dot product with the barrier, a race without it.
// RUN: kproof-opt %inputs/cuda/ptx/reduce_block_smem.sm80.O3.ptx --verify-equiv --contract=%t/dot.mlir | FileCheck %s --check-prefix=DOT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/dot-nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=DOTRACE
// DOT: kproof: dot32_smem_lane0 against @dot(a, b) -> y
// DOT-NOT: UNKNOWN
// DOT: PROVED
// DOTRACE: error: REFUTED: data race on shared 'dot32_nobarrier::p' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}) writes at {{.*}}sync_bugs.cu:53:3), thread (tid.x=0) reads at {{.*}}sync_bugs.cu:57:7) in the same barrier phase
// DOTRACE: REFUTED
//
// Global footprints of CTA b and b+1 overlap by one element: a write-write
// race across CTAs (the alpha-renamed second CTA).
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/overlap.mlir 2>&1 | FileCheck %s --check-prefix=OVERLAP
// The last thread of one CTA and the first of another, in either order.
// OVERLAP: error: REFUTED: data race on global 'y' (byte {{[0-9]+}}): thread {{\(tid.x=63, ctaid.x=[0-9]+\) writes at .*, thread \(tid.x=0, |\(tid.x=0, ctaid.x=[0-9]+\) writes at .*, thread \(tid.x=63, }}ctaid.x={{[0-9]+}}) writes at {{.*}}sync_bugs.cu:76:3) (two CTAs: no barrier orders them)
// OVERLAP: REFUTED
//
// A block reduction whose last six steps run warp-synchronously without
// barriers, volatile or __syncwarp: a race, in both builds.
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/warp-tail.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.G.ptx --verify-sync --contract=%t/warp-tail.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// TAIL: ERROR: data race on shared 'tree_reduce_warp_tail::s' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}) {{reads|writes}} at {{.*}}, thread (tid.x={{[0-9]+}}) {{reads|writes}} at {{.*}} in the same barrier phase
// TAIL: REFUTED
//
// A loop refilling one shared tile without a trailing barrier: iteration
// k+1's fill races with iteration k's reads. -G keeps the loop (reported as
// loop-carried); -O3 unrolls it (the same race in straight-line code).
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.G.ptx --verify-sync --contract=%t/tile-no-trailing.mlir 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/tile-no-trailing.mlir 2>&1 | FileCheck %s --check-prefix=UNROLLED
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.G.ptx --verify-equiv --contract=%t/tile.mlir | FileCheck %s --check-prefix=TILE
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/tile.mlir | FileCheck %s --check-prefix=TILE
// LOOP: ERROR: loop-carried data race on shared 'tile_loop_no_trailing::tile' (byte {{[0-9]+}}): {{.*}} (iterations {{[0-9]+}} and {{[0-9]+}} of a loop without a barrier between)
// LOOP: REFUTED
// UNROLLED: ERROR: data race on shared 'tile_loop_no_trailing::tile'
// UNROLLED: REFUTED
// TILE: kproof: tile_loop against @tiles(x) -> y
// TILE-NOT: UNKNOWN
// TILE: PROVED

//--- dot.mlir
func.func @dot(%a: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.dot ins(%a, %b : tensor<32xf32>, tensor<32xf32>) outs(%i : tensor<f32>) -> tensor<f32>
  %r1 = tensor.expand_shape %r [] output_shape [1] : tensor<f32> into tensor<1xf32>
  return %r1 : tensor<1xf32>
}
kproof.contract @dot32 {
  kernel = "dot32_smem_lane0",
  grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {func = @dot, inputs = ["a", "b"], output = "y"}
}

//--- dot-nobarrier.mlir
func.func @dot(%a: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.dot ins(%a, %b : tensor<32xf32>, tensor<32xf32>) outs(%i : tensor<f32>) -> tensor<f32>
  %r1 = tensor.expand_shape %r [] output_shape [1] : tensor<f32> into tensor<1xf32>
  return %r1 : tensor<1xf32>
}
kproof.contract @dot32 {
  kernel = "dot32_nobarrier",
  grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {func = @dot, inputs = ["a", "b"], output = "y"}
}

//--- overlap.mlir
kproof.contract @overlap {
  kernel = "overlap_footprints",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- warp-tail.mlir
kproof.contract @tail {
  kernel = "tree_reduce_warp_tail",
  grid = array<i64: 1, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}

//--- tile-no-trailing.mlir
// y[t] = sum over the four tiles k of x[k, (t + 1) % 128].
func.func @tiles(%x: tensor<4x128xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<128xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v0 = tensor.extract %x[%c0, %j] : tensor<4x128xf32>
    %v1 = tensor.extract %x[%c1, %j] : tensor<4x128xf32>
    %v2 = tensor.extract %x[%c2, %j] : tensor<4x128xf32>
    %v3 = tensor.extract %x[%c3, %j] : tensor<4x128xf32>
    %z = arith.constant 0.0 : f32
    %s0 = arith.addf %v0, %z : f32
    %s1 = arith.addf %s0, %v1 : f32
    %s2 = arith.addf %s1, %v2 : f32
    %s3 = arith.addf %s2, %v3 : f32
    linalg.yield %s3 : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @tile {
  kernel = "tile_loop_no_trailing",
  grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {func = @tiles, inputs = ["x"], output = "y"}
}

//--- tile.mlir
// y[t] = sum over the four tiles k of x[k, (t + 1) % 128].
func.func @tiles(%x: tensor<4x128xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<128xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v0 = tensor.extract %x[%c0, %j] : tensor<4x128xf32>
    %v1 = tensor.extract %x[%c1, %j] : tensor<4x128xf32>
    %v2 = tensor.extract %x[%c2, %j] : tensor<4x128xf32>
    %v3 = tensor.extract %x[%c3, %j] : tensor<4x128xf32>
    %z = arith.constant 0.0 : f32
    %s0 = arith.addf %v0, %z : f32
    %s1 = arith.addf %s0, %v1 : f32
    %s2 = arith.addf %s1, %v2 : f32
    %s3 = arith.addf %s2, %v3 : f32
    linalg.yield %s3 : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @tile {
  kernel = "tile_loop",
  grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {func = @tiles, inputs = ["x"], output = "y"}
}
