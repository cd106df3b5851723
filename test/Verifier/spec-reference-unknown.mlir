// Whatever leaves a reference kernel's meaning open makes the verdict
// UNKNOWN ("spec: ..."), never PROVED and never a guess: a path that does
// not write the element, an unmodeled instruction, a read of memory the
// reference never wrote, a division it does not prove defined, threads of
// a multi-thread reference that communicate.
// RUN: split-file %s %t
// RUN: %expect_exit 3 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/partial.mlir | FileCheck %s --check-prefix=PARTIAL
// RUN: %expect_exit 3 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/opaque.mlir | FileCheck %s --check-prefix=OPAQUE
// RUN: %expect_exit 3 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/uninit.mlir | FileCheck %s --check-prefix=UNINIT
// RUN: %expect_exit 3 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/div.mlir | FileCheck %s --check-prefix=DIV
// RUN: %expect_exit 3 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/barrier.mlir | FileCheck %s --check-prefix=BARRIER

// PARTIAL: UNKNOWN: value y[0]: spec: reference kernel 'ref_partial' does not write y[0] on the path where (not (< x[1] x[0]))
// OPAQUE: UNKNOWN: value y[0]: spec: reference kernel 'ref_opaque': unmodeled PTX instruction 'nanosleep.u32 100' (at {{.*}}opaque.mlir:3:8)
// UNINIT: UNKNOWN: value y[0]: spec: reference kernel 'ref_uninit': y[0] depends on a value it does not define (y[0]@uninit#0)
// DIV: UNKNOWN: value y[0]: spec: reference kernel 'ref_div': non-zero divisor of div at {{.*}}div.mlir:4:8 is not proven
// BARRIER: UNKNOWN: value y[0]: spec: reference kernel 'ref_barrier': its threads communicate ('kproof.barrier' at {{.*}}barrier.mlir:3:3); a multi-thread reference must compute each element in its writer thread

//--- kernel.mlir
kproof.kernel entry @max2(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %m = kproof.fbin max %a, %b : f32
  kproof.st global %y, %m : i64, f32
  kproof.return
}

//--- partial.mlir
kproof.kernel entry @ref_partial(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %p = kproof.cmp gt %a, %b : f32
  cf.cond_br %p, ^bigger, ^done
^bigger:
  kproof.st global %y, %a : i64, f32
  kproof.return
^done:
  kproof.return
}
kproof.contract @c {kernel = "max2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {reference = "ref_partial", output = "y"}}

//--- opaque.mlir
kproof.kernel entry @ref_opaque(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.opaque "nanosleep.u32 100"() {opcode = "nanosleep"} : () -> f32
  kproof.st global %y, %b : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "max2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {reference = "ref_opaque", output = "y"}}

//--- uninit.mlir
kproof.kernel entry @ref_uninit(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %u = kproof.ld global %y : i64 -> f32
  %s = kproof.fbin add %a, %u : f32
  kproof.st global %y, %s : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "max2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {reference = "ref_uninit", output = "y"}}

//--- div.mlir
kproof.kernel entry @ref_div(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %q = kproof.fbin div %a, %b mode rn : f32
  kproof.st global %y, %q : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "max2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {reference = "ref_div", output = "y"}}

//--- barrier.mlir
kproof.kernel entry @ref_barrier(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  kproof.barrier sync {aligned}
  %tid = kproof.sreg tid.x : i32
  kproof.st global %y, %a : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "max2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {reference = "ref_barrier", output = "y", block = array<i64: 2, 1, 1>}}
