// tolerate_equal_writes accepts a write-write race only when the two values
// are proved equal, and REFUTES it only with a model where they differ
// (test/Inputs/cuda/warp_slot_writes.cu): every lane of a warp writes one
// shared slot. In warp_max_slot each lane writes its warp max; the
// butterfly steps are read as the reduction over the warp's lanes in lane
// order (Executor::combineButterfly), so two lanes of one warp write the
// same term up to index terms, and the equality is a bit-vector question
// (bitVectorDifference): tolerated, even at a small --solver-rlimit. (It
// was UNKNOWN, each lane's max combined in another order; before that,
// REFUTED with a counterexample the replay did not confirm, as Triton's
// reductions were.) In warp_x_slot each lane writes its own x[i]: REFUTED,
// the replay shows the race. Against a copy spec (wrong: the kernel stores
// the warp max) the value is REFUTED, confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/warp_slot_writes.sm80.O3.ptx --verify-sync --contract=%t/max.mlir --solver-rlimit=1000000 2>/dev/null | FileCheck %s --check-prefix=MAX
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_slot_writes.sm80.O3.ptx --verify-equiv --contract=%t/max.mlir --solver-rlimit=1000000 2>/dev/null | FileCheck %s --check-prefix=EQUIV
// RUN: sed 's/"warp_max_slot"/"warp_x_slot"/' %t/max.mlir > %t/x.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_slot_writes.sm80.O3.ptx --verify-sync --contract=%t/x.mlir 2>/dev/null | FileCheck %s --check-prefix=X
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_slot_writes.sm90.G.ptx --verify-sync --contract=%t/x.mlir 2>/dev/null | FileCheck %s --check-prefix=X

// MAX: assuming: write-write races that store equal values are tolerated (tolerate_equal_writes)
// MAX: warning: tolerated race (both threads write the same value): shared 'warp_max_slot::slot'
// MAX-NOT: REFUTED
// MAX-NOT: UNKNOWN
// MAX: {{^}}PROVED

// EQUIV: warning: tolerated race (both threads write the same value): shared 'warp_max_slot::slot'
// EQUIV: REFUTED: value y[i] written by the representative thread -- counterexample confirmed (random input 1 of 16)
// EQUIV: Replay: confirmed by replay (IEEE f32): kernel y[6] = 1, spec = 0
// EQUIV: {{^}}REFUTED

// X: ERROR: data race on shared 'warp_x_slot::slot' (byte {{[0-9]+}})
// X: Replay: confirmed by replay (IEEE f32): race: write of {{.*}} in the same barrier phase
// X: {{^}}REFUTED

//--- max.mlir
kproof.contract @warp_max_slot {
  kernel = "warp_max_slot", grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  tolerate_equal_writes = true,
  spec = {builtin = "copy", input = "x", output = "y"}
}
