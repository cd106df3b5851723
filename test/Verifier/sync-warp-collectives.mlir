// Warp collectives beyond shfl/vote, for one representative thread: the
// result is the operation over the 32 lanes of the warp, each lane's
// operand being the path's term at that lane (test/Inputs/cuda/
// warp_collectives.cu). redux.sync (PTX ISA 9.7.13.12) and match.sync
// (9.7.13.10) are PROVED against reference kernels that scan their warp's
// 32 inputs; elect.sync (9.7.13.14) elects one unspecified lane of the mask
// (the same for every warp), named in counterexamples and replayed. The
// membermask obligations are those of shfl.sync and vote.sync.
// RUN: split-file %s %t
// RUN: sed -i 's|@INPUTS@|%inputs|; s|@OUT@|%t|' %t/sum.mlir %t/min.mlir %t/min-bug.mlir %t/match.mlir %t/total.mlir %t/total-bug.mlir %t/pick.mlir
// RUN: kproof-opt %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --verify-equiv --contract=%t/sum.mlir | FileCheck %s --check-prefix=SUM
// RUN: kproof-opt %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --verify-equiv --contract=%t/min.mlir | FileCheck %s --check-prefix=MIN
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --verify-equiv --contract=%t/min-bug.mlir 2>&1 | FileCheck %s --check-prefix=MINBUG
// RUN: kproof-opt %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --verify-equiv --contract=%t/match.mlir | FileCheck %s --check-prefix=MATCH
// RUN: kproof-opt %inputs/cuda/ptx/warp_collectives.sm80.O3.ptx --verify-equiv --contract=%t/total.mlir | FileCheck %s --check-prefix=TOTAL80
// RUN: kproof-opt %inputs/cuda/ptx/warp_collectives.sm90.O3.ptx --verify-equiv --contract=%t/total.mlir | FileCheck %s --check-prefix=TOTAL90
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_collectives.sm90.O3.ptx --verify-equiv --contract=%t/total-bug.mlir 2>&1 | FileCheck %s --check-prefix=TOTALBUG
// RUN: %expect_exit 1 kproof-opt %t/hand.ptx --verify-equiv --contract=%t/pick.mlir 2>&1 | FileCheck %s --check-prefix=PICK
// RUN: %expect_exit 1 kproof-opt %t/hand.ptx --verify-sync --contract=%t/half.mlir 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: %expect_exit 1 kproof-opt %t/hand.ptx --verify-sync --contract=%t/mismatch.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH

// __reduce_add_sync over the full warp, every lane stores the sum.
// SUM: kproof: redux_sum against reference ref_warp_sum
// SUM-NOT: UNKNOWN
// SUM: PROVED

// __reduce_min_sync on int: redux.sync.min.s32.
// MIN: kproof: redux_min against reference ref_warp_min
// MIN-NOT: UNKNOWN
// MIN: PROVED

// The minimum taken on the unsigned bits (redux.sync.min.u32): a negative
// input is the largest.
// MINBUG: REFUTED: value y[i]
// MINBUG: Kernel value: {{[0-9]+}}
// MINBUG-NEXT: Spec value: -{{[0-9]+}}
// MINBUG: Replay: confirmed by replay (IEEE i32): kernel y[{{[0-9]+}}] = {{[0-9]+}}, spec = -
// MINBUG: REFUTED

// __popc(__match_any_sync(...)): the lanes holding the same key.
// MATCH: kproof: match_count against reference ref_match_count
// MATCH-NOT: UNKNOWN
// MATCH: PROVED

// One store per warp, y[i / 32]: by lane 0 (sm_80) or by the lane
// elect.sync elects (sm_90); the coverage witness of y[e] is the writing
// lane of warp e.
// TOTAL80: kproof: warp_total against reference ref_warp_total
// TOTAL80-NOT: UNKNOWN
// TOTAL80: PROVED
// TOTAL90: kproof: warp_total against reference ref_warp_total
// TOTAL90-NOT: UNKNOWN
// TOTAL90: PROVED

// The elected lane stores its own input instead of the warp's sum.
// TOTALBUG: REFUTED: value
// TOTALBUG: Kernel value: [[K:-?[0-9]+]]
// TOTALBUG-NEXT: Spec value: [[S:-?[0-9]+]]
// TOTALBUG: Replay: confirmed by replay (IEEE i32): kernel y[{{[0-9]+}}] = [[K]], spec = [[S]]
// TOTALBUG: REFUTED

// Lanes 4-7 elect one of them (mask 0xf0); the leader reads x[leader - 4],
// which equals x[0] only if lane 4 is elected. The PTX ISA does not say
// which lane is: REFUTED with another leader, which the replay elects.
// PICK: REFUTED: value y[0]
// PICK: elect.leader(0x000000f0) = {{[567]}}
// PICK: Replay: confirmed by replay (IEEE f32): kernel y[0] = {{[^,]+}}, spec = {{.+}}
// PICK: REFUTED

// elect.sync with mask 0xffff executed by all 32 lanes.
// HALF: ERROR: violated: the executing lane is in the membermask of elect.sync
// HALF: Replay: confirmed by replay (IEEE f32): membermask violation: {{.+}} executes 'kproof.elect' with a membermask 0xFFFF that does not include its own lane 16
// HALF: REFUTED

// Lanes 0-15 run redux.sync.add, lanes 16-31 redux.sync.min, one full
// mask: not the same qualifiers (the hardware waits forever).
// MISMATCH: ERROR: violated: every lane named in the membermask executes a redux.sync with the same membermask
// MISMATCH: Replay: confirmed by replay (IEEE f32): deadlock
// MISMATCH: REFUTED

//--- sum.mlir
kproof.contract @sum {
  kernel = "redux_sum", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_warp_sum", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>}
}
//--- min.mlir
kproof.contract @min {
  kernel = "redux_min", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_warp_min", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>}
}
//--- min-bug.mlir
kproof.contract @min_bug {
  kernel = "redux_min_bug", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_warp_min", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>}
}
//--- match.mlir
kproof.contract @match {
  kernel = "match_count", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_match_count", file = "@INPUTS@/cuda/ptx/warp_collectives.sm80.O3.ptx",
          output = "y", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>}
}
//--- total.mlir
kproof.contract @total {
  kernel = "warp_total", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 4>}
  ],
  spec = {reference = "ref_warp_total", file = "@INPUTS@/cuda/ptx/warp_collectives.sm90.O3.ptx",
          output = "y", grid = array<i64: 1, 1, 1>, block = array<i64: 4, 1, 1>}
}
//--- total-bug.mlir
kproof.contract @total_bug {
  kernel = "warp_total_bug", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 4>}
  ],
  spec = {reference = "ref_warp_total", file = "@INPUTS@/cuda/ptx/warp_collectives.sm90.O3.ptx",
          output = "y", grid = array<i64: 1, 1, 1>, block = array<i64: 4, 1, 1>}
}
//--- pick.mlir
kproof.contract @pick {
  kernel = "elect_pick", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {reference = "ref_pick", file = "@OUT@/hand.ptx", output = "y",
          grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>}
}
//--- half.mlir
kproof.contract @half {
  kernel = "elect_half", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 32>}
  ]
}
//--- mismatch.mlir
kproof.contract @mismatch {
  kernel = "redux_mismatch", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 32>}
  ]
}
//--- hand.ptx
.version 8.0
.target sm_90
.address_size 64

.visible .entry elect_pick(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  and.b32 %r5, %r1, 28;
  setp.ne.u32 %p1, %r5, 4;
  @%p1 bra $done;
  elect.sync %r2|%p2, 0xf0;
  @!%p2 bra $done;
  sub.u32 %r3, %r2, 4;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  st.global.f32 [%rd2], %f1;
$done:
  ret;
}

.visible .entry ref_pick(.param .u64 x, .param .u64 y)
{
  .reg .f32 %f<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.global.f32 %f1, [%rd1];
  st.global.f32 [%rd2], %f1;
  ret;
}

.visible .entry elect_half(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  elect.sync _|%p1, 0xffff;
  ret;
}

.visible .entry redux_mismatch(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra $low;
  redux.sync.min.u32 %r2, %r1, -1;
  bra $done;
$low:
  redux.sync.add.u32 %r2, %r1, -1;
$done:
  ret;
}
