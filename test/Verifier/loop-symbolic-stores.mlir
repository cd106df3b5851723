// Loops that store one element per iteration (loop_stores.cu). A loop that
// stores is not summarized yet: over a symbolic length the fork per
// iteration ends at the path limit, UNKNOWN naming the storing loop, never
// PROVED (the three-pass softmax's max and sum loops are summarized; the
// store loop is the one named). A grid-stride loop whose trip count the
// contract bounds (n < 513 over 128 threads: at most 4 iterations) is
// executed per iteration and PROVED; its twin that strides by blockDim.x
// only is REFUTED with the race it makes across CTAs. A row copy whose row
// length the contract bounds to n < 3 is executed per iteration: coverage
// of y [64, n] needs the row witness (row = e / n), and holds only when
// the launch has a thread per row.
//
// RUN: split-file %s %t
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/copy.mlir 2>/dev/null | FileCheck %s --check-prefix=COPY
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/softmax.mlir 2>/dev/null | FileCheck %s --check-prefix=SOFTMAX
// RUN: sed 's/"softmax_rows_3pass"/"softmax_rows_3pass_short"/' %t/softmax.mlir > %t/short.mlir
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/short.mlir 2>/dev/null | FileCheck %s --check-prefix=SHORT
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/gs.mlir | FileCheck %s --check-prefix=GS
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm90.G.ptx --verify-equiv --contract=%t/gs.mlir | FileCheck %s --check-prefix=GS
// RUN: sed 's/"grid_stride_copy"/"grid_stride_copy_block"/' %t/gs.mlir > %t/block.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/block.mlir 2>/dev/null | FileCheck %s --check-prefix=BLOCK
// RUN: sed 's/1048577/3/' %t/copy.mlir > %t/copy3.mlir
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/copy3.mlir | FileCheck %s --check-prefix=COPY3
// RUN: kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/copy3.mlir --format=json | FileCheck %s --check-prefix=COPY3-JSON
// RUN: sed 's/grid = array<i64: 2, 1, 1>/grid = array<i64: 1, 1, 1>/' %t/copy3.mlir > %t/half.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_stores.sm80.O3.ptx --verify-equiv --contract=%t/half.mlir 2>/dev/null | FileCheck %s --check-prefix=HALF

// COPY3: obligations: [[N:[0-9]+]] ([[N]] proved)
// COPY3: PROVED
// COPY3-JSON: "how": "z3 (unsat) with witness row = e / n, ctaid.x = row / ntid.x, tid.x = row % ntid.x",
// COPY3-JSON-NEXT: "name": "coverage: every element of 'y' is written",
// COPY3-JSON-NEXT: "verdict": "PROVED"
// One CTA of 32 threads for 64 rows: rows 32..63 are written by no thread.
// HALF-NOT: PROVED
// HALF: REFUTED: coverage: every element of 'y' is written -- no thread writes y[[[E:[0-9]+]]] on any path
// HALF: ERROR: coverage: no thread writes y[[[E]]]
// HALF: Example:
// HALF-NEXT: n = {{[12]}}
// HALF-NEXT: Replay: confirmed by replay (IEEE f32): the kernel never writes y[[[E]]]
// HALF: REFUTED
// COPY-NOT: PROVED
// COPY: UNKNOWN: more than 256 paths{{.*}}not summarized: loop at {{.*}}loop_stores.sm80.O3.ptx:{{[0-9]+}}:{{[0-9]+}} (test/Inputs/cuda/loop_stores.cu:26:5): the loop body has a 'kproof.st'
// SOFTMAX-NOT: PROVED
// SOFTMAX: UNKNOWN: more than 256 paths{{.*}}not summarized: loop at {{.*}} (test/Inputs/cuda/loop_stores.cu:43:5): the loop body has a 'kproof.st'
// SHORT-NOT: PROVED
// SHORT: UNKNOWN: {{.*}}(test/Inputs/cuda/loop_stores.cu:60:5): the loop body has a 'kproof.st'
// GS: assuming: precondition: 'n' is in [1, 513) (contract: range)
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
    {name = "n", scalar = i32, range = array<i64: 1, 513>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
