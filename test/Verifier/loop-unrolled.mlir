// Loops written without `#pragma unroll 1` (loops_unrolled.cu): at -O3
// nvcc unrolls each by 4 (four elements per iteration, (n - n % 4) / 4
// iterations, skipped when n - 1 < 3) and adds a remainder loop of n % 4
// iterations. Both loops are summarized; the kernel's sum (max) of the two
// reductions is proved to tile the spec's range [0, n) for every n in
// [1, 2^20] (the element indices read under the path's n >= 4, products
// of the size and the thread ids multiplied out). At -G the loop stays one
// loop. Twins that drop the last or the first element are REFUTED, their
// counterexamples replayed.
//
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/loops_unrolled.sm80.O3.ptx --verify-equiv --contract=%t/sum.mlir | FileCheck %s --check-prefix=SUM
// RUN: kproof-opt %inputs/cuda/ptx/loops_unrolled.sm90.G.ptx --verify-equiv --contract=%t/sum.mlir | FileCheck %s --check-prefix=SUM
// SUM-NOT: UNKNOWN
// SUM-NOT: REFUTED
// SUM: PROVED
// RUN: kproof-opt %inputs/cuda/ptx/loops_unrolled.sm80.O3.ptx --verify-equiv --contract=%t/max.mlir | FileCheck %s --check-prefix=MAX
// RUN: kproof-opt %inputs/cuda/ptx/loops_unrolled.sm90.G.ptx --verify-equiv --contract=%t/max.mlir | FileCheck %s --check-prefix=MAX
// MAX-NOT: UNKNOWN
// MAX-NOT: REFUTED
// MAX: PROVED
//
// RUN: sed 's/"row_sum_plain"/"row_sum_plain_short"/' %t/sum.mlir > %t/short.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loops_unrolled.sm80.O3.ptx --verify-equiv --contract=%t/short.mlir 2>/dev/null | FileCheck %s --check-prefix=SHORT
// SHORT: Replay: confirmed by replay (IEEE f32): kernel y[63] = 0, spec = -1
// SHORT: REFUTED
// RUN: sed 's/"row_sum_plain"/"row_sum_plain_skip1"/' %t/sum.mlir > %t/skip.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loops_unrolled.sm80.O3.ptx --verify-equiv --contract=%t/skip.mlir 2>/dev/null | FileCheck %s --check-prefix=SKIP --check-prefix=SKIP-O3
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loops_unrolled.sm90.G.ptx --verify-equiv --contract=%t/skip.mlir 2>/dev/null | FileCheck %s --check-prefix=SKIP --check-prefix=SKIP-G
// SKIP-O3: Replay: confirmed by replay (IEEE f32): kernel y[63] = 4, spec = 6
// SKIP-G: Replay: confirmed by replay (IEEE f32): kernel y[1] = -3, spec = -4
// A row scale with its stores in the loop: PROVED at -G (one loop) and at
// -O3 (four store families in the unrolled loop, one in the remainder):
// the stores of one thread write distinct elements (their common row
// offset n * row cancels), and coverage is decided row by row (each index
// n * R + W: the thread with R = r writes element j of row r at W = j).
// The twin that stops one element early is REFUTED by coverage, replayed
// (at -O3 its loop bound n - 1 makes the trip count
// (n - ((n - 1) & 3) - 5) / 4, read as (n - 1) / 4 - 1 for n >= 5).
// RUN: kproof-opt %inputs/cuda/ptx/loops_unrolled.sm80.O3.ptx --verify-equiv --contract=%t/scale.mlir | FileCheck %s --check-prefix=SCALE --check-prefix=SCALE-O3
// RUN: kproof-opt %inputs/cuda/ptx/loops_unrolled.sm90.G.ptx --verify-equiv --contract=%t/scale.mlir | FileCheck %s --check-prefix=SCALE
// SCALE-O3: paths: 3
// SCALE-NOT: UNKNOWN
// SCALE-NOT: REFUTED
// SCALE: PROVED
// RUN: sed 's/"row_scale_plain"/"row_scale_plain_short"/' %t/scale.mlir > %t/scale-short.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loops_unrolled.sm80.O3.ptx --verify-equiv --contract=%t/scale-short.mlir 2>/dev/null | FileCheck %s --check-prefix=SCALE-SHORT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loops_unrolled.sm90.G.ptx --verify-equiv --contract=%t/scale-short.mlir 2>/dev/null | FileCheck %s --check-prefix=SCALE-SHORT
// SCALE-SHORT: REFUTED: coverage: every element of 'y' is written -- no thread writes y[{{[0-9]+}}] on any path
// The sizes of a counterexample are the smallest the solver finds under a
// cap of 4 (then 64), so that the replay runs a small launch.
// SCALE-SHORT: n = {{[1-4]$}}
// SCALE-SHORT: Replay: confirmed by replay (IEEE f32): the kernel never writes y[{{[0-9]+}}] (spec = 0)
// SCALE-SHORT: {{^}}REFUTED
// SKIP: REFUTED

//--- sum.mlir
func.func @rs(%x: tensor<64x?xf32>) -> tensor<64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x?xf32>) outs(%i : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @sum {
  kernel = "row_sum_plain", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {func = @rs, inputs = ["x"], output = "y"}
}
//--- max.mlir
func.func @rs(%x: tensor<64x?xf32>) -> tensor<64xf32> {
  %z = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x?xf32>) outs(%i : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @max {
  kernel = "row_max_plain", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {func = @rs, inputs = ["x"], output = "y"}
}
//--- scale.mlir
func.func @scale(%x: tensor<64x?xf32>) -> tensor<64x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<64x?xf32>
  %e = tensor.empty(%n) : tensor<64x?xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x?xf32>) outs(%e : tensor<64x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %two, %a : f32
    linalg.yield %m : f32
  } -> tensor<64x?xf32>
  return %r : tensor<64x?xf32>
}
kproof.contract @sc {
  kernel = "row_scale_plain", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64, "n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {func = @scale, inputs = ["x"], output = "y"}
}
