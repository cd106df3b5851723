// A loop whose iterations stage data through shared memory between CTA
// barriers, summarized over a symbolic trip count (test/Inputs/cuda/
// flash_keys.cu, staged_rowsum: thread t publishes its mirror row's element
// in slot t, and after the barrier reads slot 31 - t, so each thread sums
// its own row). One symbolic iteration stands for all of them: the threads
// of a CTA share the iteration variable (the trip count and the steps are
// uniform), its shared reads resolve to the same iteration's writes, its
// accesses are race-checked per phase of the iteration. PROVED for every n
// in [1, 2^20] against the row sum.
// The twin without the trailing barrier reads slot 31 - t after the body's
// last barrier, in the phase that the next iteration's write of that slot
// shares: not summarized (the engine says why under KPROOF_DUMP_TERMS), and
// at a concrete n the race is REFUTED with both threads, replayed.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/flash_keys.sm80.O3.ptx --verify-equiv --contract=%t/staged.mlir --small-sizes=0 | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %inputs/cuda/ptx/flash_keys.sm90.O3.ptx --verify-equiv --contract=%t/staged.mlir --small-sizes=0 | FileCheck %s --check-prefix=PROVED
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_keys.sm80.O3.ptx --verify-equiv --contract=%t/nosync.mlir 2>&1 | FileCheck %s --check-prefix=RACE

// PROVED: kproof: staged_rowsum against sum(x) -> y
// PROVED: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// PROVED-NOT: UNKNOWN
// PROVED-NOT: REFUTED
// PROVED: {{^}}PROVED

// RACE: REFUTED: loop-carried data race on shared 'staged_rowsum_no_trailing_sync::s' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[01]}}) {{reads|writes}} at {{.+}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[01]}}) {{reads|writes}} at {{.+}}
// RACE: Replay: confirmed by replay (IEEE f32): race
// RACE: {{^}}REFUTED

//--- staged.mlir
kproof.contract @staged {
  kernel = "staged_rowsum", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 64>},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}
//--- nosync.mlir
kproof.contract @nosync {
  kernel = "staged_rowsum_no_trailing_sync", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = array<i64: 64, 3>},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 64>},
    {name = "n", scalar = i32, value = 3 : i32}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}
