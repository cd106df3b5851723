// kproof-run on redux.sync, match.sync and elect.sync
// (test/Inputs/cuda/warp_collectives.cu): concrete results per lane.
// RUN: split-file %s %t
// RUN: sed -i 's|@INPUTS@|%inputs|' %t/sum.mlir %t/min.mlir %t/min-bug.mlir %t/match.mlir %t/total.mlir
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/sum.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=SUM
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/min.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=MIN
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/min-bug.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=MINBUG
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/match.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=MATCH
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm90.G.ptx --contract=%t/total.mlir --inputs=%t/mixed32.json --schedule=reversed | FileCheck %s --check-prefix=TOTAL

// x = 5 at even lanes, -3 at odd lanes: sum 16 * 2 = 32.
// SUM: "y": [
// SUM-NEXT: 32,
// SUM-COUNT-30: 32,
// SUM-NEXT: 32
// SUM: "result": "ok"
// Signed minimum: -3.
// MIN: "y": [
// MIN-NEXT: -3,
// MIN: "result": "ok"
// Unsigned minimum of the bits: 5 (0xfffffffd is the largest), where the
// reference's signed minimum is -3.
// MINBUG: "y": [
// MINBUG-NEXT: 5,
// MINBUG: "first_mismatch": 0
// MINBUG: "result": "mismatch"
// Every lane has 16 peers with its value.
// MATCH: "y": [
// MATCH-NEXT: 16,
// MATCH-COUNT-30: 16,
// MATCH-NEXT: 16
// MATCH: "result": "ok"
// elect.sync (lowest lane) writes the warp's sum (-G build).
// TOTAL: "y": [
// TOTAL-NEXT: 32
// TOTAL: "result": "ok"

//--- mixed32.json
{"x": [5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3, 5, -3]}
//--- sum.mlir
kproof.contract @sum {
  kernel = "redux_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 32>}
  ],
  spec = {reference = "ref_warp_sum", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>}
}
//--- min.mlir
kproof.contract @min {
  kernel = "redux_min", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 32>}
  ],
  spec = {reference = "ref_warp_min", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>}
}
//--- min-bug.mlir
kproof.contract @minbug {
  kernel = "redux_min_bug", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 32>}
  ],
  spec = {reference = "ref_warp_min", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>}
}
//--- match.mlir
kproof.contract @match {
  kernel = "match_count", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 32>}
  ],
  spec = {reference = "ref_match_count", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>}
}
//--- total.mlir
kproof.contract @total {
  kernel = "warp_total", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 1>}
  ],
  spec = {reference = "ref_warp_total", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>}
}
