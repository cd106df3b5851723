// kproof-run on redux.sync, match.sync and elect.sync
// (test/Inputs/cuda/warp_collectives.cu): concrete results per lane.
// RUN: split-file %s %t
// RUN: sed -i 's|@INPUTS@|%inputs|' %t/sum.mlir %t/min.mlir %t/min-bug.mlir %t/match.mlir %t/total.mlir
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/sum.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=SUM
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/min.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=MIN
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/min-bug.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=MINBUG
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --contract=%t/match.mlir --inputs=%t/mixed32.json | FileCheck %s --check-prefix=MATCH
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/warp_collectives.sm90.G.ptx --contract=%t/total.mlir --inputs=%t/mixed32.json --schedule=reversed | FileCheck %s --check-prefix=TOTAL
// RUN: %expect_exit 1 kproof-run %t/hand.ptx --contract=%t/exited.mlir --inputs=%t/ones32.json | FileCheck %s --check-prefix=EXITED
// RUN: %expect_exit 0 kproof-run %t/hand.ptx --contract=%t/chain.mlir --inputs=%t/one.json | FileCheck %s --check-prefix=CHAIN

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

// Lane 31 exits before the redux.sync: the PTX ISA reduces over the lanes
// that have not exited, 31 ones (the spec, a copy, differs).
// EXITED: "y": [
// EXITED-NEXT: 31,
// EXITED: "findings": [],
// EXITED: "result": "mismatch"
// Lane 0 stores and syncs with lane 2 (mask 0x5), which then syncs with
// lane 1 (mask 0x6) before lane 1 loads: ordered through lane 2 (vector
// clocks), no race.
// CHAIN: "y": [
// CHAIN-NEXT: 1.5
// CHAIN: "findings": [],
// CHAIN: "result": "ok"

//--- ones32.json
{"x": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}
//--- one.json
{"x": [1.5]}
//--- exited.mlir
kproof.contract @exited {
  kernel = "redux_exited", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 32>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- chain.mlir
kproof.contract @chain {
  kernel = "chain", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- hand.ptx
.version 8.0
.target sm_80
.address_size 64

.visible .entry redux_exited(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 31;
  @%p1 bra $done;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  redux.sync.add.s32 %r3, %r2, -1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
$done:
  ret;
}

.visible .entry chain(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, s;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $lane0;
  setp.eq.u32 %p2, %r1, 1;
  @%p2 bra $lane1;
  setp.eq.u32 %p3, %r1, 2;
  @%p3 bra $lane2;
  ret;
$lane0:
  ld.global.f32 %f1, [%rd1];
  st.shared.f32 [%r2], %f1;
  bar.warp.sync 5;
  ret;
$lane2:
  bar.warp.sync 5;
  bar.warp.sync 6;
  ret;
$lane1:
  bar.warp.sync 6;
  ld.shared.f32 %f2, [%r2];
  st.global.f32 [%rd2], %f2;
  ret;
}
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
