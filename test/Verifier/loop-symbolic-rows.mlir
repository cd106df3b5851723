// Loops with a symbolic trip count: row reductions over x [64, n] for every
// n in [1, 2^20] at once (a size parameter), summarized in closed form
// instead of unrolled; the planted-bug twins are REFUTED at a small n with a
// replayed counterexample.
//
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/sum.mlir | FileCheck %s --check-prefix=SUM
// RUN: kproof-opt %inputs/cuda/ptx/loop_rows.sm90.G.ptx --verify-equiv --contract=%t/sum.mlir | FileCheck %s --check-prefix=SUM
// RUN: kproof-opt %inputs/cuda/ptx/loop_rows.sm90.O3.ptx --verify-equiv --contract=%t/max.mlir | FileCheck %s --check-prefix=MAX
// RUN: sed 's/"row_sum"/"row_sum_skip_last"/' %t/sum.mlir > %t/skip.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/skip.mlir 2>/dev/null | FileCheck %s --check-prefix=SKIP
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_rows.sm90.G.ptx --verify-equiv --contract=%t/skip.mlir 2>/dev/null | FileCheck %s --check-prefix=SKIP
// RUN: sed 's/"row_max"/"row_max_from_zero"/' %t/max.mlir > %t/zero.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/zero.mlir 2>/dev/null | FileCheck %s --check-prefix=ZERO
// RUN: kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/sum.mlir --format=json | FileCheck %s --check-prefix=JSON
// fmaxf at -G is a call of a .func: stepped through.
// RUN: kproof-opt %inputs/cuda/ptx/loop_rows.sm90.G.ptx --verify-equiv --contract=%t/max.mlir | FileCheck %s --check-prefix=MAX
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_rows.sm90.G.ptx --verify-equiv --contract=%t/zero.mlir 2>/dev/null | FileCheck %s --check-prefix=ZERO
// A store in the loop (a running prefix sum, y[row, j] = x[row, 0..j]) is
// a store family of the summarized loop: checked against a copy spec it is
// REFUTED at a small n, the counterexample replayed.
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/prefix.mlir 2>/dev/null | FileCheck %s --check-prefix=STORE

// SUM: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// SUM: obligations: 9 (9 proved)
// SUM: PROVED
// MAX: obligations: 9 (9 proved)
// MAX: PROVED
// SKIP: Example:
// SKIP-NOT: $r
// SKIP: n = {{[1-9]}}
// SKIP: Replay: confirmed by replay (IEEE f32)
// SKIP: REFUTED
// ZERO: n = {{[1-9]}}
// ZERO: x[others] = -1
// ZERO: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] = 0, spec = -1
// ZERO: REFUTED
// JSON: "name": "value y[i] written by the representative thread (sum over equal bounds of equal elements)",
// JSON-NEXT: "verdict": "PROVED"
// JSON: "verdict": "PROVED"
// STORE: REFUTED: value y[i] written by the representative thread
// STORE: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] =
// STORE: REFUTED

//--- sum.mlir
kproof.contract @rows {
  kernel = "row_sum", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}
//--- max.mlir
kproof.contract @rows {
  kernel = "row_max", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "max", input = "x", output = "y"}
}
//--- prefix.mlir
kproof.contract @rows {
  kernel = "row_prefix_sum", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64, "n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
