// Loops that store one element per iteration (loop_stores.cu) over a
// symbolic length n in [1, 2^20]: each store of the loop body becomes a
// store family (iteration k stores at index(k) under k < trip count), so
// one proof covers every n. The row copy and the three-pass softmax (two
// reduction loops, then a storing loop) are PROVED at -O3 and -G; the
// softmax twin that sums one element fewer is REFUTED with a replayed
// counterexample. A grid-stride loop (step blockDim.x * gridDim.x, a
// constant under a concrete launch) is PROVED over any n; its twin that
// strides by blockDim.x only is REFUTED with the race it makes across CTAs.
// A row copy whose row length the contract bounds to n < 3: coverage of
// y [64, n] needs the row witness (row = e / n), and holds only when the
// launch has a thread per row.
//
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/copy.mlir | FileCheck %s --check-prefix=COPY
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/copy.mlir | FileCheck %s --check-prefix=COPY
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/softmax.mlir | FileCheck %s --check-prefix=SOFTMAX
// At -O3 the spec's row of the stored element, (row * n + k) / n, is read
// as row (k < n, proved): the row max and the kernel's running max are one
// reduction.
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/softmax.mlir | FileCheck %s --check-prefix=SOFTMAX
// RUN: sed 's/"softmax_rows_3pass"/"softmax_rows_3pass_short"/' %t/softmax.mlir > %t/short.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/short.mlir 2>/dev/null | FileCheck %s --check-prefix=SHORT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/short.mlir 2>/dev/null | FileCheck %s --check-prefix=SHORT
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/gs.mlir | FileCheck %s --check-prefix=GS
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/gs.mlir | FileCheck %s --check-prefix=GS
// RUN: sed 's/"grid_stride_copy"/"grid_stride_copy_block"/' %t/gs.mlir > %t/block.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/block.mlir 2>/dev/null | FileCheck %s --check-prefix=BLOCK
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/block.mlir 2>/dev/null | FileCheck %s --check-prefix=BLOCK
// A grid-stride scaled exp, y[i] = exp(s * x[i]) for any n and any s,
// against a func spec over tensor<?xf32> (concrete launch: the step is a
// constant). Under a symbolic launch (grid_max/block_max) the step
// ntid.x * nctaid.x is symbolic and the loop is not summarized (UNKNOWN).
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/gse.mlir | FileCheck %s --check-prefix=GSE
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/gse.mlir | FileCheck %s --check-prefix=GSE
// RUN: sed 's/grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,/grid_max = array<i64: 64, 1, 1>, block_max = array<i64: 256, 1, 1>,/' %t/gse.mlir > %t/gse-sym.mlir
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/gse-sym.mlir | FileCheck %s --check-prefix=GSESYM
// The scaled exp's twin stops at n - 1: the last element is never
// written, coverage REFUTED at a small n, confirmed by replay.
// RUN: sed 's/"grid_stride_scaled_exp"/"grid_stride_scaled_exp_short"/' %t/gse.mlir > %t/gse-short.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/gse-short.mlir 2>/dev/null | FileCheck %s --check-prefix=GSESHORT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/gse-short.mlir 2>/dev/null | FileCheck %s --check-prefix=GSESHORT
// RUN: sed 's/1048577/3/' %t/copy.mlir > %t/copy3.mlir
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/copy3.mlir | FileCheck %s --check-prefix=COPY3
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/copy3.mlir --format=json | FileCheck %s --check-prefix=COPY3-JSON
// RUN: sed 's/grid = array<i64: 2, 1, 1>/grid = array<i64: 1, 1, 1>/' %t/copy3.mlir > %t/half.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/half.mlir 2>/dev/null | FileCheck %s --check-prefix=HALF

// GSE: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// GSE: obligations: [[N:[0-9]+]] ([[N]] proved)
// GSE: {{^}}PROVED{{$}}
// GSESHORT: REFUTED: coverage: every element of 'y' is written -- no thread writes y[{{[0-9]+}}] on any path
// GSESHORT: n = {{[1-4]}}
// GSESHORT: Replay: confirmed by replay (IEEE f32): the kernel never writes y[{{[0-9]+}}]
// GSESHORT: {{^}}REFUTED{{$}}
// GSESYM: UNKNOWN: more than 256 paths {{.*}}not summarized: loop at {{.*}}is not of a supported form
// COPY3: obligations: [[N:[0-9]+]] ([[N]] proved)
// COPY3: PROVED
// COPY3-JSON: "how": "z3 (unsat): each store index is n * R + W; row r is written by the thread with R = r (ctaid.x = r / ntid.x, tid.x = r % ntid.x), element j of it at W = j",
// COPY3-JSON-NEXT: "name": "coverage: every element of 'y' is written",
// COPY3-JSON-NEXT: "verdict": "PROVED"
// One CTA of 32 threads for 64 rows: rows 32..63 are written by no thread.
// HALF-NOT: PROVED
// HALF: REFUTED: coverage: every element of 'y' is written -- no thread writes y[[[E:[0-9]+]]] on any path
// HALF: ERROR: coverage: no thread writes y[{{[0-9]+}}, {{[0-9]+}}] (row-major [[E]])
// HALF: Example:
// HALF-NEXT: n = {{[12]}}
// HALF-NEXT: Replay: confirmed by replay (IEEE f32): the kernel never writes y[[[E]]]
// HALF: REFUTED
// COPY: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// COPY: obligations: [[N:[0-9]+]] ([[N]] proved)
// COPY: PROVED
// SOFTMAX: obligations: [[N:[0-9]+]] ([[N]] proved)
// SOFTMAX: PROVED
// SHORT-NOT: PROVED
// SHORT: REFUTED: value y[i] written by the representative thread
// SHORT: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] =
// SHORT: REFUTED
// GS: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// GS: obligations: [[N:[0-9]+]] ([[N]] proved)
// GS: PROVED
// BLOCK: Example:
// BLOCK: Replay: confirmed by replay (IEEE f32): race: write of y[{{[0-9]+}}] by thread {{.*}} of CTA {{.*}} and write by thread {{.*}} of CTA
// BLOCK: REFUTED

//--- copy.mlir
kproof.contract @rows {
  kernel = "row_copy", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64, "n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- softmax.mlir
kproof.contract @rows {
  kernel = "softmax_rows_3pass", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64, "n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
//--- gs.mlir
kproof.contract @gs {
  kernel = "grid_stride_copy", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- gse.mlir
func.func @scaled_exp(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %s, %a : f32
    %v = math.exp %m : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
kproof.contract @gse {
  kernel = "grid_stride_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["n"]},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {func = @scaled_exp, inputs = ["x", "s"], output = "y"}
}
