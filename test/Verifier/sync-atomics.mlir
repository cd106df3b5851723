// Atomics in the race checks (PTX ISA memory consistency model): two atomics
// whose scope includes both threads are morally strong and do not race; a
// .cta atomic does not order two CTAs; an atomic and a plain access to the
// same element in one phase race. The value proof does not model what
// atomics accumulate: --verify-equiv answers UNKNOWN with that reason.
// RUN: split-file %s %t
// RUN: kproof-opt %t/gpu.mlir --verify-sync | FileCheck %s --check-prefix=GPU
// RUN: %expect_exit 3 kproof-opt %t/gpu.mlir --verify-equiv | FileCheck %s --check-prefix=VALUE
// RUN: %expect_exit 1 kproof-opt %t/cta.mlir --verify-sync 2>&1 | FileCheck %s --check-prefix=CTA
// RUN: %expect_exit 1 kproof-opt %t/mixed.mlir --verify-sync 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: kproof-opt %inputs/cuda/ptx/histogram_atomics.sm80.O3.ptx --verify-sync --contract=%t/histogram.mlir | FileCheck %s --check-prefix=HIST

// GPU-NOT: ERROR
// GPU: PROVED
// VALUE: UNKNOWN: values of the outputs: atomic updates of 'y' are not modeled by the value proof
// CTA: error: REFUTED: data race on global 'y' (byte 0): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) updates atomically (scope .cta) at {{.*}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) updates atomically (scope .cta) at {{.*}} (two CTAs: no barrier orders them)
// CTA: Replay: confirmed by replay (IEEE f32): race: {{.*}} of CTA (1,0,0) and {{.*}} of CTA (0,0,0)
// CTA: REFUTED
// MIXED: error: REFUTED: data race on global 'y' (byte 0): thread {{.*}} {{writes|updates atomically \(scope .gpu\)}} at {{.*}}, thread {{.*}} {{writes|updates atomically \(scope .gpu\)}} at {{.*}} in the same barrier phase
// HIST-NOT: ERROR
// HIST: PROVED

//--- gpu.mlir
// Every thread of 2 CTAs adds x[tid] to y[0] with a .gpu atomic.
kproof.kernel entry @gpu(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %t64 = kproof.cvt %t : i32 -> i64
  %c2 = kproof.constant 2 : i32
  %o = kproof.shift shl %t64, %c2 : i64
  %xa = kproof.ibin add %x, %o : i64
  %v = kproof.ld global %xa : i64 -> f32
  %old = kproof.atom add global %y, %v scope gpu : i64, f32 -> f32
  kproof.return
}
kproof.contract @c {kernel = "gpu", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1, 32>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "sum", input = "x", output = "y"}}

//--- cta.mlir
// The same with .cta atomics: CTAs 0 and 1 race on y[0].
kproof.kernel entry @cta(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %t64 = kproof.cvt %t : i32 -> i64
  %c2 = kproof.constant 2 : i32
  %o = kproof.shift shl %t64, %c2 : i64
  %xa = kproof.ibin add %x, %o : i64
  %v = kproof.ld global %xa : i64 -> f32
  %old = kproof.atom add global %y, %v scope cta : i64, f32 -> f32
  kproof.return
}
kproof.contract @c {kernel = "cta", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1, 32>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "sum", input = "x", output = "y"}}

//--- mixed.mlir
// Thread 0 stores y[0] while the others add to it atomically: a race.
kproof.kernel entry @mixed(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c0 = kproof.constant 0 : i32
  %zero = kproof.constant 0.0 : f32
  %one = kproof.constant 1.0 : f32
  %is0 = kproof.cmp eq %t, %c0 : i32
  cf.cond_br %is0, ^store, ^add
^store:
  kproof.st global %y, %zero : i64, f32
  kproof.return
^add:
  %old = kproof.atom add global %y, %one scope gpu : i64, f32 -> f32
  kproof.return
}
kproof.contract @c {kernel = "mixed", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1, 32>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "sum", input = "x", output = "y"}}

//--- histogram.mlir
kproof.contract @atomic_sum {
  kernel = "sum_atomic_f32", grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 8>},
    {name = "total", buffer = "inout", space = "global", type = f32, shape = array<i64: 1>},
    {name = "n", scalar = i32, value = 8 : i32}
  ],
  spec = {builtin = "sum", input = "in", output = "total"}}
