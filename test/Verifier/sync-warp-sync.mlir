// bar.warp.sync (__syncwarp, PTX ISA 9.7.13.3) orders memory between the
// lanes of its mask: a lane's k-th bar.warp.sync of a mask pairs with the
// k-th of every lane the mask names (an obligation: every lane named
// executes it, with the same mask, in the same phase), so an access before
// it comes before another lane's access after it. Warp-synchronous shared
// memory (test/Inputs/cuda/warp_sync.cu) is race-free without
// __syncthreads; without the __syncwarp calls it races. The value proof
// does not model values passed through memory that only bar.warp.sync
// orders: UNKNOWN, never PROVED or REFUTED on them.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/warp_sync.sm80.O3.ptx --verify-sync --contract=%t/tail.mlir | FileCheck %s --check-prefix=TAIL
// RUN: kproof-opt %inputs/cuda/ptx/warp_sync.sm90.G.ptx --verify-sync --contract=%t/tail.mlir | FileCheck %s --check-prefix=TAIL
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_sync.sm80.O3.ptx --verify-sync --contract=%t/nosync.mlir 2>&1 | FileCheck %s --check-prefix=NOSYNC
// RUN: kproof-opt %inputs/cuda/ptx/warp_sync.sm80.O3.ptx --verify-sync --contract=%t/half.mlir | FileCheck %s --check-prefix=HALF
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_sync.sm80.O3.ptx --verify-sync --contract=%t/bad-mask.mlir 2>&1 | FileCheck %s --check-prefix=BADMASK
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_sync.sm80.O3.ptx --verify-sync --contract=%t/diverged.mlir 2>&1 | FileCheck %s --check-prefix=DIVERGED
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/warp_sync.sm80.O3.ptx --verify-sync --contract=%t/exited.mlir 2>&1 | FileCheck %s --check-prefix=EXITED
// RUN: %expect_exit 3 kproof-opt %t/hand.ptx --verify-sync --contract=%t/cross.mlir 2>&1 | FileCheck %s --check-prefix=CROSS
// RUN: %expect_exit 3 kproof-opt %t/hand.ptx --verify-sync --contract=%t/chain.mlir 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/warp_sync.sm80.O3.ptx --verify-equiv --contract=%t/sum.mlir 2>&1 | FileCheck %s --check-prefix=SUM
// RUN: %expect_exit 3 kproof-opt %t/hand.ptx --verify-sync --contract=%t/counted-cycle.mlir 2>&1 | FileCheck %s --check-prefix=COUNTED
// RUN: %expect_exit 3 kproof-opt %t/hand.ptx --verify-sync --contract=%t/shfl-masks.mlir 2>&1 | FileCheck %s --check-prefix=SHFLMASKS
// RUN: %expect_exit 3 kproof-opt %t/hand.ptx --verify-sync --contract=%t/sync-exit.mlir 2>&1 | FileCheck %s --check-prefix=SYNCEXIT
// RUN: kproof-opt %t/hand.ptx --verify-sync --contract=%t/split.mlir | FileCheck %s --check-prefix=SPLIT
// RUN: %expect_exit 1 kproof-opt %t/hand.ptx --verify-sync --contract=%t/split-bug.mlir 2>&1 | FileCheck %s --check-prefix=SPLITBUG

// The first warp folds 64 shared values with __syncwarp() between the
// steps (nvcc -O3 and -G).
// TAIL: kproof: warp_tail_sum against synchronization
// TAIL-NOT: UNKNOWN
// TAIL-NOT: REFUTED
// TAIL: PROVED

// The same steps without __syncwarp: lane 16 writes s[16] while lane 0
// reads it.
// NOSYNC: REFUTED: data race on shared 'warp_tail_sum_nosync::s' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[01]}}) writes at {{.+}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[01]}}) reads at {{.+}} in the same barrier phase
// NOSYNC: Replay: confirmed by replay (IEEE f32): race
// NOSYNC: REFUTED

// Lanes 0-15 with __syncwarp(0xffff).
// HALF: kproof: half_warp_sum against synchronization
// HALF-NOT: UNKNOWN
// HALF: PROVED

// __syncwarp(0xffff0000) executed by lanes 0-15: the run stops at the
// membermask violation, which confirms that obligation.
// BADMASK: ERROR: violated: the executing lane is in the membermask of bar.warp.sync
// BADMASK: Replay: confirmed by replay: membermask violation at
// BADMASK: REFUTED

// __syncwarp() under `lane < 16`, then __syncthreads(): lanes 16-31 wait
// at the barrier, lanes 0-15 at the __syncwarp.
// DIVERGED: ERROR: violated: every lane named in the membermask executes a bar.warp.sync with the same membermask
// DIVERGED: Replay: confirmed by replay (IEEE f32): deadlock
// DIVERGED: REFUTED

// __syncwarp() after lanes 16-31 returned: the PTX ISA waits only for the
// lanes that have not exited, which is not modeled (UNKNOWN, not REFUTED).
// EXITED: UNKNOWN: no lane named in the membermask of bar.warp.sync exits without executing it
// EXITED-NOT: REFUTED

// Lane 0 syncs with mask 0x3 then 0x7, lane 1 with 0x7 then 0x3: each
// waits for the other (a deadlock the pairing alone does not see).
// CROSS: UNKNOWN: the warp collectives run in one order on every path
// CROSS-NOT: PROVED

// Lanes 0-15 sync the warp, then arrive at the counted barrier 1 (64
// threads, not .aligned); lanes 16-31 arrive at it first, then sync the
// warp; only 48 threads ever arrive: a deadlock, through a counted
// barrier and a bar.warp.sync (UNKNOWN, never PROVED).
// COUNTED: UNKNOWN: the warp collectives run in one order on every path
// COUNTED-SAME: barrier 1 arrival #1
// COUNTED-NOT: PROVED

// Lane 0 shuffles alone (mask 0x1), then with lane 1 (mask 0x3); lane 1
// only with mask 0x3: the collectives of a kind pair per mask, so the two
// 0x3 shuffles pair (no membermask violation; the value is UNKNOWN).
// SHFLMASKS-NOT: membermask executes a shfl.sync
// SHFLMASKS: UNKNOWN

// Every lane syncs once; lanes 0-15 exit, lanes 16-31 sync again with the
// full mask: not a membermask violation (UNKNOWN: exited lanes).
// SYNCEXIT: UNKNOWN: no lane named in the membermask of bar.warp.sync exits without executing it
// SYNCEXIT-NOT: REFUTED

// Lane 0 stores, syncs with lane 2 (mask 0x5); lane 2 then syncs with
// lane 1 (mask 0x6), which loads: ordered through lane 2, which the
// direct pairing does not follow (UNKNOWN, not a race).
// CHAIN: UNKNOWN: race-free: shared 'chain.s'
// CHAIN-SAME: an order through a third lane's bar.warp.sync of two masks is not modeled
// CHAIN-NOT: REFUTED

// The value passed through shared memory between __syncwarp() calls is not
// modeled: UNKNOWN, with the synchronization proved.
// SUM: UNKNOWN: values of the outputs -- a shared read after a bar.warp.sync of its phase
// SUM: UNKNOWN: values through bar.warp.sync -- values passed between lanes through memory that only bar.warp.sync (__syncwarp) orders are not yet modeled by the value proof ('warp_tail_sum::s'
// SUM-NOT: REFUTED
// SUM: UNKNOWN

// Lanes 0-15 run an extra bar.warp.sync 0xffff before the full-mask one:
// the k-th bar.warp.sync of each mask pairs (not the k-th of any mask), so
// the full-mask one orders every lane's store before the others' loads.
// SPLIT: kproof: split_masks against synchronization
// SPLIT-NOT: UNKNOWN
// SPLIT: PROVED

// Without the full-mask one, lanes 16-31 are not ordered.
// SPLITBUG: REFUTED: data race on shared 'split_masks_bug.s'
// SPLITBUG: Replay: confirmed by replay (IEEE f32): race
// SPLITBUG: REFUTED

//--- tail.mlir
kproof.contract @tail {
  kernel = "warp_tail_sum", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}
  ]
}
//--- nosync.mlir
kproof.contract @nosync {
  kernel = "warp_tail_sum_nosync", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}
  ]
}
//--- half.mlir
kproof.contract @half {
  kernel = "half_warp_sum", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}
  ]
}
//--- bad-mask.mlir
kproof.contract @bad_mask {
  kernel = "half_warp_bad_mask", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}
  ]
}
//--- diverged.mlir
kproof.contract @diverged {
  kernel = "diverged_syncwarp", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}
  ]
}
//--- sum.mlir
kproof.contract @sum {
  kernel = "warp_tail_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}
//--- split.mlir
kproof.contract @split {
  kernel = "split_masks", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ]
}
//--- split-bug.mlir
kproof.contract @split_bug {
  kernel = "split_masks_bug", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ]
}
//--- exited.mlir
kproof.contract @exited {
  kernel = "exited_syncwarp", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}
  ]
}
//--- cross.mlir
kproof.contract @cross {
  kernel = "cross", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ]
}
//--- chain.mlir
kproof.contract @chain {
  kernel = "chain", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ]
}
//--- counted-cycle.mlir
kproof.contract @counted_cycle {
  kernel = "counted_cycle", grid = array<i64: 1, 1, 1>, block = array<i64: 96, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 96>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 96>}
  ]
}
//--- shfl-masks.mlir
kproof.contract @shfl_masks {
  kernel = "shfl_masks", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ]
}
//--- sync-exit.mlir
kproof.contract @sync_exit {
  kernel = "sync_then_exit", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ]
}
//--- hand.ptx
.version 8.0
.target sm_80
.address_size 64

.visible .entry split_masks(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  mov.u32 %r2, s;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  st.shared.f32 [%r4], %f1;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $full;
  bar.warp.sync 0xffff;
$full:
  bar.warp.sync -1;
  xor.b32 %r5, %r1, 1;
  shl.b32 %r6, %r5, 2;
  add.u32 %r7, %r2, %r6;
  ld.shared.f32 %f2, [%r7];
  add.s64 %rd5, %rd2, %rd3;
  st.global.f32 [%rd5], %f2;
  ret;
}

.visible .entry split_masks_bug(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  mov.u32 %r2, s;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  st.shared.f32 [%r4], %f1;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $full;
  bar.warp.sync 0xffff;
$full:
  xor.b32 %r5, %r1, 1;
  shl.b32 %r6, %r5, 2;
  add.u32 %r7, %r2, %r6;
  ld.shared.f32 %f2, [%r7];
  add.s64 %rd5, %rd2, %rd3;
  st.global.f32 [%rd5], %f2;
  ret;
}

.visible .entry cross(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<4>;
  .reg .b32 %r<2>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $lane0;
  setp.eq.u32 %p2, %r1, 1;
  @%p2 bra $lane1;
  setp.eq.u32 %p3, %r1, 2;
  @%p3 bra $lane2;
  bra $copy;
$lane0:
  bar.warp.sync 3;
  bar.warp.sync 7;
  bra $copy;
$lane1:
  bar.warp.sync 7;
  bar.warp.sync 3;
  bra $copy;
$lane2:
  bar.warp.sync 7;
$copy:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.f32 [%rd5], %f1;
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

.visible .entry counted_cycle(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p2, %r1, 32;
  setp.ge.u32 %p0, %r1, 64;
  @%p0 bra $copy;
  @%p2 bra $w1;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra $lo;
  barrier.sync 1, 64;
  bar.warp.sync -1;
  bra $copy;
$lo:
  bar.warp.sync -1;
  barrier.sync 1, 64;
  bra $copy;
$w1:
  barrier.sync 1, 64;
$copy:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.f32 [%rd5], %f1;
  ret;
}

.visible .entry shfl_masks(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %r1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $l0;
  setp.eq.u32 %p2, %r1, 1;
  @%p2 bra $l1;
  bra $copy;
$l0:
  shfl.sync.idx.b32 %r3, %r1, 0, 31, 1;
  shfl.sync.idx.b32 %r2, %r1, 1, 31, 3;
  bra $copy;
$l1:
  shfl.sync.idx.b32 %r2, %r1, 1, 31, 3;
$copy:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.f32 [%rd5], %f1;
  ret;
}

.visible .entry sync_then_exit(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.f32 [%rd5], %f1;
  bar.warp.sync -1;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra $done;
  bar.warp.sync -1;
$done:
  ret;
}
