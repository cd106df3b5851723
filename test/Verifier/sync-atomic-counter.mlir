// An atomic counter hands out slots: `slot = atomicAdd(counter, 1);
// out[slot] = ...` (test/Inputs/cuda/soundness.cu, atomic_counter). The
// atomics of one location are totally ordered, so two threads' adds of a
// positive constant return distinct old values while the counter's sum
// over the launch (64 adds of 1) cannot wrap: the stores to out[slot] do
// not race (they used to be REFUTED as a race). The old values lie in
// [counter, counter + 64) at launch: nothing in the contract says the
// counter starts at 0, so the store past out's 64 elements is REFUTED with
// counter[0] as the input that matters, and the replay confirms it.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/counter.mlir 2>/dev/null | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-sync --contract=%t/counter.mlir 2>/dev/null | FileCheck %s
// CHECK: kproof: atomic_counter against synchronization
// CHECK-NOT: data race
// CHECK: REFUTED: stores to out stay inside its extent of 64 elements at {{.*}}soundness.cu:218:3) -- counterexample confirmed
// CHECK-NOT: data race
// CHECK: Example:
// CHECK-NEXT: counter[0] = {{[1-9][0-9]*}}
// CHECK: Replay: confirmed by replay (IEEE f32): out-of-bounds access
// CHECK: REFUTED
//
// An exchange is no counter: two threads may read the same old value, so
// the two stores to out[slot] race (REFUTED with both threads).
// RUN: sed 's/atom.global.add.u32 \t%r1, \[%rd6\], 1;/atom.global.exch.b32 \t%r1, [%rd6], 1;/' %inputs/cuda/ptx/soundness.sm80.O3.ptx > %t/exch.ptx
// RUN: grep -c 'atom.global.exch.b32' %t/exch.ptx | FileCheck %s --check-prefix=SED
// RUN: %expect_exit 1 kproof-opt %t/exch.ptx --verify-sync --contract=%t/counter.mlir 2>/dev/null | FileCheck %s --check-prefix=EXCH
// SED: 1
// EXCH: ERROR: data race on global 'out' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) writes at {{.*}}soundness.cu:218:3), thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) writes at {{.*}}soundness.cu:218:3)
// EXCH: REFUTED

//--- counter.mlir
kproof.contract @atomic_counter_c {
  kernel = "atomic_counter",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 64>},
    {name = "counter", buffer = "inout", space = "global", type = i32, shape = array<i64: 1>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}
  ],
  spec = {builtin = "copy", input = "in", output = "out"}
}
