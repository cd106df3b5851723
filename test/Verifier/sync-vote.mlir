// Warp votes (vote.sync all/any/uni/ballot, PTX ISA 9.7.13.10) over the
// lanes of the membermask, for one representative thread: the vote is the
// conjunction / disjunction over the 32 lanes of the predicate term at each
// lane (test/Inputs/cuda/warp_vote.cu). __any_sync is PROVED against a
// reference kernel that scans its warp's 32 inputs; membermask obligations
// (the executing lane is in the mask; every lane the mask names exists and
// executes the vote) as for shfl.sync.
// RUN: split-file %s %t
// RUN: sed 's|@INPUTS@|%inputs|' %t/any.mlir > %t/any-abs.mlir
// RUN: kproof-opt %inputs/cuda/ptx/warp_vote.sm80.O3.ptx --verify-equiv --contract=%t/any-abs.mlir | FileCheck %s --check-prefix=ANY
// RUN: kproof-opt %inputs/cuda/ptx/warp_vote.sm80.O3.ptx --verify-sync --contract=%t/ballot.mlir | FileCheck %s --check-prefix=BALLOT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_vote.sm80.O3.ptx --verify-sync --contract=%t/half.mlir 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_vote.sm80.O3.ptx --verify-sync --contract=%t/partial.mlir 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: %expect_exit 1 kproof-opt %t/masks.ptx --verify-sync --contract=%t/mismatch.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: %expect_exit 3 kproof-opt %t/masks.ptx --verify-sync --contract=%t/two-sites.mlir 2>&1 | FileCheck %s --check-prefix=SITES

// ANY: kproof: vote_any_mask against reference ref_vote_any
// ANY-NOT: UNKNOWN
// ANY: PROVED

// BALLOT: kproof: vote_ballot_count against synchronization
// BALLOT-NOT: UNKNOWN
// BALLOT: PROVED

// __any_sync(0x0000ffff, ...) executed by all 32 lanes: lane 16 is not in
// the mask.
// HALF: ERROR: violated: the executing lane is in the membermask of vote.sync
// HALF: Replay: confirmed by replay (IEEE f32): membermask violation: thread (16,0,0) of CTA (0,0,0) executes 'kproof.vote' with a membermask 0xFFFF that does not include its own lane 16
// HALF: REFUTED

// A full mask in a block of 48 threads names lanes 16-31 of warp 1, which
// do not exist.
// PARTIAL: ERROR: violated: every lane named in the membermask of vote.sync exists (a partial warp has fewer lanes)
// PARTIAL: Replay: confirmed by replay (IEEE f32): membermask violation
// PARTIAL: REFUTED

// Lanes 0-15 vote with the full mask, lanes 16-31 with 0xffff0000: lane 0
// names lane 16, which waits with another mask (PTX ISA 9.7.13.10: the
// same membermask value).
// MISMATCH: ERROR: violated: every lane named in the membermask executes a vote.sync with the same membermask
// MISMATCH: REFUTED

// Two vote.sync instructions, one per half of the warp, same kind and mask:
// valid on sm_70 and later (not a membermask violation); the value needs
// both paths (UNKNOWN).
// SITES: UNKNOWN: every lane of the membermask of vote.sync runs the same path
// SITES-NOT: REFUTED

//--- masks.ptx
.version 8.0
.target sm_80
.address_size 64

.visible .entry mask_mismatch(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  selp.b32 %r2, -1, -65536, %p1;
  setp.eq.u32 %p2, %r1, 0;
  vote.sync.any.pred %p3, %p2, %r2;
  ret;
}

.visible .entry two_sites(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  setp.eq.u32 %p2, %r1, 3;
  @%p1 bra $low;
  vote.sync.any.pred %p3, %p2, -1;
  bra $done;
$low:
  vote.sync.any.pred %p3, %p2, -1;
$done:
  ret;
}

//--- mismatch.mlir
kproof.contract @mismatch {
  kernel = "mask_mismatch", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 32>}
  ]
}

//--- two-sites.mlir
kproof.contract @sites {
  kernel = "two_sites", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 32>}
  ]
}

//--- any.mlir
kproof.contract @any {
  kernel = "vote_any_mask", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_vote_any", file = "@INPUTS@/cuda/ptx/warp_vote.sm80.O3.ptx",
          output = "y", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>}
}

//--- ballot.mlir
kproof.contract @ballot {
  kernel = "vote_ballot_count", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- half.mlir
kproof.contract @half {
  kernel = "vote_any_half", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- partial.mlir
kproof.contract @partial {
  kernel = "vote_ballot_count", grid = array<i64: 2, 1, 1>, block = array<i64: 48, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 96>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 96>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
