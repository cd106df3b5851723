// mbarrier objects (PTX ISA 9.7.13.15) in kernels of
// test/Inputs/cuda/mbarrier.cu: init by one thread before a CTA barrier,
// arrivals counted per phase, spin-loop waits on a phase parity
// (try_wait on sm_90, test_wait on sm_80) or on an arrival's state. An
// arrival orders the thread's earlier accesses before those of a thread
// whose wait sees the phase complete; the checks: one initializer, before
// every use; the init count of threads arrive; every wait completes and
// names the phase it is modeled to; arrivals join the next phase. Races
// and misuse are REFUTED and replayed (kproof-run's mbarrier model).
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/handoff.mlir --format=json | FileCheck %s --check-prefix=HANDOFF
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/handoff.mlir | FileCheck %s --check-prefix=OK
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm90.G.ptx --verify-sync --contract=%t/handoff.mlir | FileCheck %s --check-prefix=OK
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm80.G.ptx --verify-sync --contract=%t/handoff.mlir | FileCheck %s --check-prefix=OK
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm80.G.ptx --verify-sync --contract=%t/ring4.mlir | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 3 kproof-opt %t/nonspin.ptx --verify-sync --contract=%t/nonspin.mlir 2>&1 | FileCheck %s --check-prefix=NONSPIN
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/wrong-parity.mlir 2>&1 | FileCheck %s --check-prefix=PARITY
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/wrong-parity.mlir 2>&1 | FileCheck %s --check-prefix=PARITY
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/elected.mlir 2>&1 | FileCheck %s --check-prefix=ELECTED
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/elected-syncwarp.mlir 2>&1 | FileCheck %s --check-prefix=SYNCWARP
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/count-short.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/init-unpublished.mlir 2>&1 | FileCheck %s --check-prefix=UNPUBLISHED
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/init-each-warp.mlir 2>&1 | FileCheck %s --check-prefix=EACHWARP
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/pingpong.mlir --format=json | FileCheck %s --check-prefix=PINGPONG
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/pingpong.mlir | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/pingpong-noempty.mlir 2>&1 | FileCheck %s --check-prefix=NOEMPTY
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/token.mlir | FileCheck %s --check-prefix=OK
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/token.mlir | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-equiv --contract=%t/handoff.mlir 2>&1 | FileCheck %s --check-prefix=VALUES
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/no-arrivals.mlir 2>&1 | FileCheck %s --check-prefix=NOARRIVALS
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/early-release.mlir 2>&1 | FileCheck %s --check-prefix=EARLYRELEASE
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/ring4.mlir | FileCheck %s --check-prefix=OK
// RUN: kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/ring4.mlir | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/ring4-parity.mlir 2>&1 | FileCheck %s --check-prefix=RING4PARITY
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --verify-sync --contract=%t/clobber.mlir 2>&1 | FileCheck %s --check-prefix=CLOBBER
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --verify-sync --contract=%t/second-life.mlir 2>&1 | FileCheck %s --check-prefix=SECONDLIFE

// Producers arrive after storing, consumers wait for phase 0: race-free,
// each obligation named.
// HANDOFF: "name": "mbarrier shared 'mb_handoff::full': initialized once, before every use",
// HANDOFF-NEXT: "verdict": "PROVED"
// HANDOFF: "name": "mbarrier shared 'mb_handoff::full': 64 threads arrive per phase",
// HANDOFF-NEXT: "verdict": "PROVED"
// HANDOFF: "name": "mbarrier shared 'mb_handoff::full': every wait completes on its phase",
// HANDOFF-NEXT: "verdict": "PROVED"
// HANDOFF-NOT: "UNKNOWN"
// HANDOFF-NOT: "REFUTED"
// HANDOFF: "verdict": "PROVED",
// OK: obligations: {{[0-9]+}} ({{[0-9]+}} proved)
// OK-NOT: UNKNOWN
// OK: PROVED

// nvcc -G at sm_80 puts a call of __cvta_generic_to_shared (a function
// without effects) inside the do/while around test_wait, over several
// blocks: still a spin loop (OK above). A test_wait whose result decides
// something else than retrying is not modeled.
// NONSPIN: UNKNOWN: an mbarrier test_wait/try_wait whose result is not the exit test of a spin loop (retrying until the phase completes) is not modeled (at {{.*}}nonspin.ptx:17:2)

// Parity 1 names the phase before phase 0: the wait passes at once.
// PARITY: ERROR: data race on shared 'mb_wrong_parity::tile' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) {{writes|reads}} at {{.*}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) {{writes|reads}} at {{.*}} in the same barrier phase, not ordered by a counted barrier or an mbarrier phase
// PARITY: Replay: confirmed by replay (IEEE f32, the last thread first): race:
// PARITY: REFUTED

// Only thread 0 arrives: the other producers' stores are not published.
// ELECTED: ERROR: data race on shared 'mb_elected::tile' (byte {{[0-9]+}}): thread (tid.x={{[1-9][0-9]*}}, ctaid.x={{[0-9]+}}) writes at
// ELECTED: Replay: confirmed by replay (IEEE f32): race:
// ELECTED: REFUTED

// With __syncwarp before lane 0 arrives the stores are ordered through
// lane 0: an order through bar.warp.sync and an mbarrier is not followed.
// SYNCWARP: UNKNOWN: race-free: shared 'mb_elected_syncwarp::tile'{{.*}}an order through a third thread's barriers of two ids is not modeled
// SYNCWARP-NOT: REFUTED

// 64 arrivals for a count of 128: phase 0 never completes.
// COUNT: ERROR: wrong arrival count: 64 threads of each CTA arrive at the mbarrier shared 'mb_count_short::full', initialized with count 128 at {{.*}} (its phase never completes: a deadlock of the waits)
// COUNT: Replay: confirmed by replay (IEEE f32): deadlock:
// COUNT: REFUTED

// No __syncthreads between the init and the arrivals.
// UNPUBLISHED: ERROR: use before init: thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) arrives at the mbarrier shared 'mb_init_unpublished::full' at {{.*}} in barrier phase 0, while thread (tid.x=0, ctaid.x={{[0-9]+}}) initializes it at {{.*}} in phase 0 (no CTA barrier between)
// UNPUBLISHED: Replay: confirmed by replay (IEEE f32, the last thread first): mbarrier misuse:
// UNPUBLISHED: REFUTED

// Lane 0 of every warp initializes the object.
// EACHWARP: ERROR: the mbarrier shared 'mb_init_each_warp::full' is initialized by 4 threads of each CTA (linear ids 0 and 32): initializing an object in use is undefined
// EACHWARP: Replay: confirmed by replay (IEEE f32): mbarrier misuse: thread (32,0,0) of CTA (0,0,0) initializes the mbarrier
// EACHWARP: REFUTED

// Two rounds through `full` and `empty`: the producers' second arrival is
// ordered after phase 0 of `full` through the consumers' arrivals at
// `empty` (generation (full, 1) -> (empty, 1) -> (full, 2)).
// PINGPONG: "name": "mbarrier shared 'void pingpong<true>(float const*, float*)::full': each arrival joins the next phase",
// PINGPONG-NEXT: "verdict": "PROVED"
// PINGPONG-NOT: "UNKNOWN"
// PINGPONG-NOT: "REFUTED"
// PINGPONG: "verdict": "PROVED",

// Without the wait on `empty` the producers overwrite the tile the
// consumers read (replayed with the lanes in lockstep).
// NOEMPTY: ERROR: data race on shared 'void pingpong<false>(float const*, float*)::tile'
// NOEMPTY: Replay: confirmed by replay (IEEE f32, one instruction per lane in turn): race:
// NOEMPTY: REFUTED

// A 4-stage ring over 8 tiles with full[4] and empty[4] barriers: PROVED
// (OK above). Waiting on empty[s] with the current round's parity passes
// at once: the producer overwrites a stage being read (replayed under a
// random schedule).
// RING4PARITY: ERROR: data race on shared 'void ring4<false>(float const*, float*)::tile'
// RING4PARITY: Replay: confirmed by replay (IEEE f32, random schedule {{[0-9]+}}): race:
// RING4PARITY: REFUTED

// The consumers release the tile before reading it: a chain full ->
// empty exists on some path, but it starts at `full`, which the consumers
// never arrive at, so nothing orders their read before the producers'
// second write (REFUTED, replayed).
// EARLYRELEASE: ERROR: data race on shared 'mb_pingpong_early_release::tile'
// EARLYRELEASE: Replay: confirmed by replay (IEEE f32): race:
// EARLYRELEASE: REFUTED

// Nothing arrives at the barrier the consumers wait on (deadlock).
// NOARRIVALS: ERROR: wrong arrival count: 0 threads of each CTA arrive at the mbarrier shared 'mb_no_arrivals::full', initialized with count 64
// NOARRIVALS: Replay: confirmed by replay (IEEE f32): deadlock:
// NOARRIVALS: REFUTED

// An ordinary store to the live barrier word.
// CLOBBER: ERROR: thread (tid.x=64, ctaid.x={{[0-9]+}}) writes the bytes of the mbarrier shared 'mb_clobber::full' at {{.*}} with an ordinary access, in barrier phase 1 (only mbarrier instructions may access a live object)
// CLOBBER: Replay: confirmed by replay (IEEE f32): mbarrier misuse:
// CLOBBER: REFUTED

// inval and init again: a second lifetime is not modeled.
// SECONDLIFE: UNKNOWN: an mbarrier initialized again after it was used or invalidated (a second lifetime) is not modeled

// The value proof does not follow values through mbarriers yet.
// VALUES: UNKNOWN: {{.*}}values passed between threads through mbarriers are not yet modeled by the value proof

//--- handoff.mlir
kproof.contract @c {
  kernel = "mb_handoff", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- wrong-parity.mlir
kproof.contract @c {
  kernel = "mb_wrong_parity", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- elected.mlir
kproof.contract @c {
  kernel = "mb_elected", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- elected-syncwarp.mlir
kproof.contract @c {
  kernel = "mb_elected_syncwarp", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- count-short.mlir
kproof.contract @c {
  kernel = "mb_count_short", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- init-unpublished.mlir
kproof.contract @c {
  kernel = "mb_init_unpublished", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- init-each-warp.mlir
kproof.contract @c {
  kernel = "mb_init_each_warp", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- pingpong.mlir
kproof.contract @c {
  kernel = "mb_pingpong", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- pingpong-noempty.mlir
kproof.contract @c {
  kernel = "mb_pingpong_noempty", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- token.mlir
kproof.contract @c {
  kernel = "mb_token", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- no-arrivals.mlir
kproof.contract @c {
  kernel = "mb_no_arrivals", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- clobber.mlir
kproof.contract @c {
  kernel = "mb_clobber", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- second-life.mlir
kproof.contract @c {
  kernel = "mb_second_life", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- ring4.mlir
kproof.contract @c {
  kernel = "mb_ring4", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- ring4-parity.mlir
kproof.contract @c {
  kernel = "mb_ring4_parity", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- nonspin.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry nonspin(.param .u64 x, .param .u64 y)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<4>;
	.shared .align 8 .b64 bar;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, bar;
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L_sync;
	mbarrier.init.shared.b64 	[%r2], 32;
$L_sync:
	bar.sync 	0;
	mbarrier.test_wait.parity.shared.b64 	%p2, [%r2], 0;
	@%p2 bra 	$L_done;
	mbarrier.arrive.shared.b64 	%rd1, [%r2];
$L_done:
	ret;
}

//--- nonspin.mlir
kproof.contract @c {
  kernel = "nonspin", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ]
}

//--- early-release.mlir
kproof.contract @c {
  kernel = "mb_pingpong_early_release", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
