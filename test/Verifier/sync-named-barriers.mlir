// Counted named barriers (bar.sync id, n; bar.arrive id, n; PTX ISA
// 9.7.13.4) in kernels of test/Inputs/cuda/named_barriers.cu: threads
// synchronize in generations of n arrivals per barrier id, so an access is
// ordered before another thread's when a barrier both take part in
// separates them (DESIGN.md §4). Obligations per id: one thread count;
// every participant arrives equally often; the participants are whole warps
// and exactly n threads.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/pc.mlir --format=json | FileCheck %s --check-prefix=PC
// RUN: kproof-opt %inputs/cuda/ptx/named_barriers.sm90.G.ptx --verify-sync --contract=%t/pc.mlir --format=json | FileCheck %s --check-prefix=PC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/pc-early.mlir 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/pc-count.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/too-few.mlir 2>&1 | FileCheck %s --check-prefix=FEW
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/cross-deadlock.mlir 2>&1 | FileCheck %s --check-prefix=CYCLE
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/cta-deadlock.mlir 2>&1 | FileCheck %s --check-prefix=CTACYCLE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/split-warp.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/third.mlir 2>&1 | FileCheck %s --check-prefix=THIRD
// RUN: kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/groups.mlir --format=json | FileCheck %s --check-prefix=GROUPS
// RUN: kproof-opt %inputs/cuda/ptx/named_barriers.sm90.G.ptx --verify-sync --contract=%t/groups.mlir --format=json | FileCheck %s --check-prefix=GROUPS
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/groups-cross.mlir 2>&1 | FileCheck %s --check-prefix=CROSS
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-sync --contract=%t/groups-half.mlir 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-equiv --contract=%t/pc.mlir 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: kproof-opt %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --verify-equiv --contract=%t/full.mlir | FileCheck %s --check-prefix=FULL
// RUN: %expect_exit 1 kproof-opt %t/bad.ptx --verify-sync --contract=%t/two-counts.mlir 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %expect_exit 1 kproof-opt %t/bad.ptx --verify-sync --contract=%t/unequal.mlir 2>&1 | FileCheck %s --check-prefix=UNEQUAL
// RUN: %expect_exit 3 kproof-opt %t/bad.ptx --verify-sync --contract=%t/arrive-twice.mlir 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: %expect_exit 3 kproof-opt %t/bad.ptx --verify-sync --contract=%t/id-register.mlir 2>&1 | FileCheck %s --check-prefix=REGID
// RUN: %expect_exit 2 kproof-opt %t/bad-count.ptx --verify-sync --contract=%t/two-counts.mlir 2>&1 | FileCheck %s --check-prefix=MULT

// Producers (warps 0-3) fill the tile and bar.arrive; consumers (warps 4-7)
// bar.sync and read it: every producer write is ordered before every
// consumer read.
// PC: "name": "barrier 1: one thread count, a multiple of 32",
// PC-NEXT: "verdict": "PROVED"
// PC: "name": "barrier 1: every participant arrives equally often",
// PC-NEXT: "verdict": "PROVED"
// PC: "name": "barrier 1: 256 threads take part, whole warps",
// PC-NEXT: "verdict": "PROVED"
// PC-NOT: UNKNOWN
// PC-NOT: REFUTED
// PC: "spec": "synchronization
// PC: "verdict": "PROVED",

// The producers arrive before writing: a producer's write and a consumer's
// read are not ordered.
// EARLY: ERROR: data race on shared 'producer_consumer_early::tile' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) {{writes|reads}} at {{.*}}named_barriers.cu:{{66|70}}:5), thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) {{writes|reads}} at {{.*}}named_barriers.cu:{{66|70}}:5) in the same barrier phase, not ordered by a counted barrier
// EARLY: Replay: confirmed by replay (IEEE f32): race:
// EARLY: REFUTED

// More arrivals than the count: which of them form a generation is not
// modeled (a wrong count, or one id reused by groups one after the other).
// (kproof-run shows this kernel's race: test/Interpreter/named-barriers.mlir.)
// COUNT: UNKNOWN: barrier 1: 128 threads take part, whole warps: 256 threads of each CTA arrive at barrier 1 (the first is (tid.x=0)), whose thread count is 128: which arrivals form a generation

// Fewer arrivals than the count: the generation never completes.
// FEW: ERROR: wrong participant count: 64 threads of each CTA arrive at barrier 1 (the first is (tid.x=0)), whose thread count is 96 (a generation never completes)
// FEW: Replay: confirmed by replay (IEEE f32): deadlock
// FEW: REFUTED

// Two groups pass barriers 1 and 2 in opposite orders; a counted barrier
// one warp reaches before __syncthreads and another after it.
// CYCLE: UNKNOWN: barriers complete (no two barriers wait on each other): barriers may wait on each other in a cycle (a deadlock, or one barrier id used by different groups one after the other, which is not modeled): on some paths arrival 1 at barrier {{1|2}} ({{.*}}), then arrival 1 at barrier {{1|2}} ({{.*}}) each wait for the other to complete first
// CTACYCLE: UNKNOWN: barriers complete (no two barriers wait on each other): barriers may wait on each other in a cycle {{.*}}the CTA barrier ending phase 0

// Two lanes of one warp at two instructions of an .aligned barrier.
// SPLIT: ERROR: barrier divergence: thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) arrives at the .aligned barrier 1 at {{.*}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) of the same warp at {{.*}} (a warp must execute an .aligned barrier at one instruction)
// SPLIT: Replay: confirmed by replay (IEEE f32): barrier divergence
// SPLIT: REFUTED

// Warp 0 -> barrier 1 -> warp 1 -> barrier 2 -> warp 2: ordered through
// the third warp, which every CTA runs (generation (1, 1) completes before
// (2, 1)): PROVED.
// THIRD: obligations: {{[0-9]+}} ({{[0-9]+}} proved)
// THIRD-NOT: UNKNOWN
// THIRD: PROVED

// Two groups, each with its own barrier: the rotate inside a group is
// ordered by the group's barrier.
// GROUPS: "name": "barrier 1: 64 threads take part, whole warps",
// GROUPS-NEXT: "verdict": "PROVED"
// GROUPS: "name": "barrier 2: 64 threads take part, whole warps",
// GROUPS-NEXT: "verdict": "PROVED"
// GROUPS-NOT: UNKNOWN
// GROUPS-NOT: REFUTED
// GROUPS: "spec": "synchronization
// GROUPS: "verdict": "PROVED",

// Reading the other group's slot: no barrier both groups take part in.
// CROSS: ERROR: data race on shared 'two_groups_cross::s' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) writes at {{.*}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) reads at {{.*}} in the same barrier phase, not ordered by a counted barrier
// CROSS: REFUTED

// Groups of 48 threads: part of warp 1 takes part in barrier 1.
// HALF: ERROR: barrier divergence: thread (tid.x={{3[2-9]|4[0-7]}}) arrives at the .aligned barrier 1 and thread (tid.x={{4[89]|5[0-9]|6[0-3]}}) of the same warp never does
// HALF: REFUTED

// The value proof does not resolve shared reads across counted barriers.
// VALUE: UNKNOWN: values of the outputs: values passed between threads through counted barriers (bar.sync id, n; bar.arrive) are not yet modeled by the value proof

// `bar.sync 1;` without a count is a CTA-wide barrier: the rotate-by-one
// is proved equal to its spec for every launch within the bounds.
// FULL: assuming: symbolic launch: ntid.x in [1, 1024], nctaid.x in [1, 65536]; at most 1024 threads per CTA; at most 1048576 threads in all
// FULL-NOT: UNKNOWN
// FULL: PROVED

// TWO: ERROR: barrier 1 is used with thread counts 64 (at {{.*}}bad.ptx:{{[0-9]+}}:3) and 128 (at {{.*}}bad.ptx:{{[0-9]+}}:3)
// TWO: REFUTED

// Threads 0-31 arrive twice at barrier 1, threads 32-63 once.
// UNEQUAL: ERROR: unequal arrival counts: thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) arrives at barrier 1 {{once|twice}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) of the same CTA {{once|twice}}
// UNEQUAL: REFUTED

// TWICE: UNKNOWN: a second arrival at barrier 1 after this thread's bar.arrive: its generations are not modeled
// REGID: UNKNOWN: a barrier id or thread count that is not a constant is not modeled
// MULT: error: 'kproof.barrier' op thread count must be a positive multiple of the warp size (32), got 48

//--- pc.mlir
kproof.contract @c {
  kernel = "producer_consumer", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- pc-early.mlir
kproof.contract @c {
  kernel = "producer_consumer_early", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- too-few.mlir
kproof.contract @c {
  kernel = "too_few", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- cross-deadlock.mlir
kproof.contract @c {
  kernel = "cross_deadlock", grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- cta-deadlock.mlir
kproof.contract @c {
  kernel = "cta_order_deadlock", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- split-warp.mlir
kproof.contract @c {
  kernel = "split_warp", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 256>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- third.mlir
kproof.contract @c {
  kernel = "via_third_warp", grid = array<i64: 2, 1, 1>, block = array<i64: 96, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 192>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 192>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- pc-count.mlir
kproof.contract @c {
  kernel = "producer_consumer_count", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- groups.mlir
kproof.contract @c {
  kernel = "two_groups", grid = array<i64: 4, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- groups-cross.mlir
kproof.contract @c {
  kernel = "two_groups_cross", grid = array<i64: 4, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- groups-half.mlir
kproof.contract @c {
  kernel = "two_groups_half_warp", grid = array<i64: 4, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- two-counts.mlir
kproof.contract @c {
  kernel = "two_counts", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 256>}
  ]
}

//--- unequal.mlir
kproof.contract @c {
  kernel = "unequal", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 256>}
  ]
}

//--- arrive-twice.mlir
kproof.contract @c {
  kernel = "arrive_twice", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 256>}
  ]
}

//--- id-register.mlir
kproof.contract @c {
  kernel = "id_in_register", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "in", space = "global", type = f32, shape = array<i64: 256>}
  ]
}

//--- full.mlir
func.func @rotate(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %n = tensor.dim %x, %c1 : tensor<?x?xf32>
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %n : index
    %v = tensor.extract %x[%b, %j] : tensor<?x?xf32>
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
kproof.contract @named_full {
  kernel = "named_full",
  grid_max = array<i64: 65536, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 1048576,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}

//--- bad.ptx
.version 8.0
.target sm_80
.address_size 64

.visible .entry two_counts(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bar.sync 1, 64;
  @!%p1 bar.sync 1, 128;
  ret;
}

.visible .entry unequal(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 64;
  @%p1 bra $done;
  bar.sync 1, 64;
  setp.ge.u32 %p2, %r1, 32;
  @%p2 bra $done;
  bar.sync 1, 64;
$done:
  ret;
}

.visible .entry arrive_twice(.param .u64 x, .param .u64 y)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra $consumer;
  bar.arrive 1, 128;
  bar.arrive 1, 128;
  ret;
$consumer:
  bar.sync 1, 128;
  bar.sync 1, 128;
  ret;
}

.visible .entry id_in_register(.param .u64 x, .param .u64 y)
{
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  and.b32 %r1, %r1, 1;
  bar.sync %r1, 64;
  ret;
}

//--- bad-count.ptx
.version 8.0
.target sm_80
.address_size 64

.visible .entry two_counts(.param .u64 x, .param .u64 y)
{
  bar.sync 1, 48;
  ret;
}
