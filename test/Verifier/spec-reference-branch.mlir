// A hand-written reference kernel (kproof IR, next to the contract) with a
// data-dependent branch: two paths, so its element is an ite over the path
// conditions, ite(x[1] < x[0], x[0], x[1]). Against a kernel that computes
// max.f32: PROVED; against a reference that takes the smaller value on each
// path: REFUTED, with both values at the counterexample.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/ok.mlir | FileCheck %s
// The reference's two states merge at its join (an ite over the branch
// condition); without merging they are two paths (an ite over the path
// conditions): the same element either way.
// RUN: %expect_exit 0 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/ok.mlir --merge-states=false | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %t/kernel.mlir --verify-equiv --contract=%t/min.mlir 2>/dev/null | FileCheck %s --check-prefix=MIN

// CHECK: kproof: max2 against reference ref_max2(x, y) -> y (mode reals)
// CHECK: obligations: 1 (1 proved)
// CHECK: PROVED

// MIN: kproof: max2 against reference ref_min2(x, y) -> y (mode reals)
// MIN: REFUTED: value y[0] -- counterexample confirmed
// MIN: ERROR: value mismatch at y[0]
// MIN-NEXT: at {{.*}}kernel.mlir:5:3
// MIN: Example:
// MIN-NEXT: x[0] = 0
// MIN-NEXT: x[1] = 1
// MIN: Kernel value: [1.000000000000e+00, 1.000000000000e+00]
// MIN-NEXT: Spec value:   [0.000000000000e+00, 0.000000000000e+00]
// MIN: Replay: confirmed by replay (IEEE f32): kernel y[0] = 1, spec = 0
// MIN: REFUTED

//--- kernel.mlir
kproof.kernel entry @max2(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %m = kproof.fbin max %a, %b : f32
  kproof.st global %y, %m : i64, f32
  kproof.return
}

//--- ok.mlir
kproof.kernel entry @ref_max2(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %p = kproof.cmp gt %a, %b : f32
  cf.cond_br %p, ^bigger, ^smaller
^bigger:
  kproof.st global %y, %a : i64, f32
  kproof.return
^smaller:
  kproof.st global %y, %b : i64, f32
  kproof.return
}
kproof.contract @max2_contract {kernel = "max2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {reference = "ref_max2", output = "y"}}

//--- min.mlir
kproof.kernel entry @ref_min2(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %p = kproof.cmp gt %a, %b : f32
  cf.cond_br %p, ^bigger, ^smaller
^bigger:
  kproof.st global %y, %b : i64, f32
  kproof.return
^smaller:
  kproof.st global %y, %a : i64, f32
  kproof.return
}
kproof.contract @max2_contract {kernel = "max2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {reference = "ref_min2", output = "y"}}
