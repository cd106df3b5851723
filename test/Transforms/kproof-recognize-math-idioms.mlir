// RUN: kproof-opt %s --kproof-recognize-math-idioms | FileCheck %s

// nvcc's expf (no fast math): the range reduction ending in a mul is tagged
// at its root, each op only the sequence reads is tagged interior. The
// proof engine runs the same recognition before executing a kernel
// (test/Verifier/math-idioms.mlir shows it reads the tags).

// CHECK-LABEL: kproof.kernel entry @expf_mul
kproof.kernel entry @expf_mul(%xp: i64, %yp: i64) {
  // CHECK: %[[X:.+]] = ld global
  %x = kproof.ld global %xp : i64 -> f32
  %half = kproof.constant 5.000000e-01 : f32
  %c = kproof.constant 5.724980e-03 : f32
  // CHECK: fma %[[X]], {{.*}} mode rn {kproof.idiom_interior} : f32
  %t = kproof.fma %x, %c, %half mode rn : f32
  // CHECK: cvt {{.*}} {kproof.idiom_interior, sat} : f32 -> f32
  %s = kproof.cvt %t {sat} : f32 -> f32
  %magic = kproof.constant 0x4B400001 : f32
  %c252 = kproof.constant 2.520000e+02 : f32
  // CHECK: fma {{.*}} mode rm {kproof.idiom_interior} : f32
  %j = kproof.fma %s, %c252, %magic mode rm : f32
  %bias = kproof.constant 0xCB40007F : f32
  // CHECK: fbin add {{.*}} {kproof.idiom_interior} : f32
  %k = kproof.fbin add %j, %bias : f32
  // CHECK: funary neg {{.*}} {kproof.idiom_interior} : f32
  %nk = kproof.funary neg %k : f32
  %hi = kproof.constant 1.44269502 : f32
  %h = kproof.fma %x, %hi, %nk mode rn : f32
  %lo = kproof.constant 1.92596303E-8 : f32
  %l = kproof.fma %x, %lo, %h mode rn : f32
  // CHECK: bitcast {{.*}} {kproof.idiom_interior} : f32 to i32
  %jb = kproof.bitcast %j : f32 to i32
  %c23 = kproof.constant 23 : i32
  // CHECK: shift shl {{.*}} {kproof.idiom_interior} : i32
  %sh = kproof.shift shl %jb, %c23 : i32
  // CHECK: bitcast {{.*}} {kproof.idiom_interior} : i32 to f32
  %scale = kproof.bitcast %sh : i32 to f32
  // CHECK: funary ex2 {{.*}} mode approx {ftz, kproof.idiom_interior} : f32
  %e = kproof.funary ex2 %l mode approx {ftz} : f32
  // CHECK: fbin mul {{.*}} {kproof.math_idiom = "expf"} : f32
  %y = kproof.fbin mul %e, %scale : f32
  kproof.st global %yp, %y : i64, f32
  kproof.return
}

// -G spells the bias as a sub; at -O3 a following `+ acc` fuses into the
// root fma.
// CHECK-LABEL: kproof.kernel entry @expf_fma_sub
kproof.kernel entry @expf_fma_sub(%xp: i64, %yp: i64) {
  %x = kproof.ld global %xp : i64 -> f32
  %acc = kproof.ld global %yp : i64 -> f32
  %half = kproof.constant 5.000000e-01 : f32
  %c = kproof.constant 5.724980e-03 : f32
  %t = kproof.fma %c, %x, %half mode rn : f32
  %s = kproof.cvt %t {sat} : f32 -> f32
  %magic = kproof.constant 0x4B400001 : f32
  %c252 = kproof.constant 2.520000e+02 : f32
  %j = kproof.fma %s, %c252, %magic mode rm : f32
  %bias = kproof.constant 0x4B40007F : f32
  // CHECK: fbin sub {{.*}} {kproof.idiom_interior} : f32
  %k = kproof.fbin sub %j, %bias : f32
  %nk = kproof.funary neg %k : f32
  %hi = kproof.constant 1.44269502 : f32
  %h = kproof.fma %x, %hi, %nk mode rn : f32
  %lo = kproof.constant 1.92596303E-8 : f32
  %l = kproof.fma %x, %lo, %h mode rn : f32
  %jb = kproof.bitcast %j : f32 to i32
  %c23 = kproof.constant 23 : i32
  %sh = kproof.shift shl %jb, %c23 : i32
  %scale = kproof.bitcast %sh : i32 to f32
  %e = kproof.funary ex2 %l mode approx {ftz} : f32
  // CHECK: fma {{.*}} mode rn {kproof.math_idiom = "expf"} : f32
  %y = kproof.fma %scale, %e, %acc mode rn : f32
  kproof.st global %yp, %y : i64, f32
  kproof.return
}

// Not the idiom: a constant off by one ulp (0x3BBB989E), and a sequence
// whose reduced argument is also stored (an interior value read outside).
// CHECK-LABEL: kproof.kernel entry @not_expf
// CHECK-NOT: kproof.math_idiom
// CHECK-NOT: kproof.idiom_interior
// CHECK: {{^ *}}return
kproof.kernel entry @not_expf(%xp: i64, %yp: i64) {
  %x = kproof.ld global %xp : i64 -> f32
  %half = kproof.constant 5.000000e-01 : f32
  %c = kproof.constant 0x3BBB989E : f32
  %t = kproof.fma %x, %c, %half mode rn : f32
  %s = kproof.cvt %t {sat} : f32 -> f32
  %magic = kproof.constant 0x4B400001 : f32
  %c252 = kproof.constant 2.520000e+02 : f32
  %j = kproof.fma %s, %c252, %magic mode rm : f32
  %bias = kproof.constant 0xCB40007F : f32
  %k = kproof.fbin add %j, %bias : f32
  %nk = kproof.funary neg %k : f32
  %hi = kproof.constant 1.44269502 : f32
  %h = kproof.fma %x, %hi, %nk mode rn : f32
  %lo = kproof.constant 1.92596303E-8 : f32
  %l = kproof.fma %x, %lo, %h mode rn : f32
  %jb = kproof.bitcast %j : f32 to i32
  %c23 = kproof.constant 23 : i32
  %sh = kproof.shift shl %jb, %c23 : i32
  %scale = kproof.bitcast %sh : i32 to f32
  %e = kproof.funary ex2 %l mode approx {ftz} : f32
  %y = kproof.fbin mul %e, %scale : f32
  kproof.st global %yp, %y : i64, f32
  kproof.return
}
// CHECK-LABEL: kproof.kernel entry @expf_escapes
// CHECK-NOT: kproof.math_idiom
// CHECK-NOT: kproof.idiom_interior
// CHECK: {{^ *}}return
kproof.kernel entry @expf_escapes(%xp: i64, %yp: i64) {
  %x = kproof.ld global %xp : i64 -> f32
  %half = kproof.constant 5.000000e-01 : f32
  %c = kproof.constant 5.724980e-03 : f32
  %t = kproof.fma %x, %c, %half mode rn : f32
  %s = kproof.cvt %t {sat} : f32 -> f32
  %magic = kproof.constant 0x4B400001 : f32
  %c252 = kproof.constant 2.520000e+02 : f32
  %j = kproof.fma %s, %c252, %magic mode rm : f32
  %bias = kproof.constant 0xCB40007F : f32
  %k = kproof.fbin add %j, %bias : f32
  %nk = kproof.funary neg %k : f32
  %hi = kproof.constant 1.44269502 : f32
  %h = kproof.fma %x, %hi, %nk mode rn : f32
  %lo = kproof.constant 1.92596303E-8 : f32
  %l = kproof.fma %x, %lo, %h mode rn : f32
  %jb = kproof.bitcast %j : f32 to i32
  %c23 = kproof.constant 23 : i32
  %sh = kproof.shift shl %jb, %c23 : i32
  %scale = kproof.bitcast %sh : i32 to f32
  %e = kproof.funary ex2 %l mode approx {ftz} : f32
  %y = kproof.fbin mul %e, %scale : f32
  kproof.st global %yp, %y : i64, f32
  kproof.st global %yp, %l {offset = 4 : i64} : i64, f32
  kproof.return
}

// A fused addend that is one of the sequence's own values (here ex2(l)) is
// not the idiom: the engine skips interior ops, so reading the root as
// exp(x) + addend would add a placeholder (a review found this false
// PROVED).
// CHECK-LABEL: kproof.kernel entry @expf_own_addend
// CHECK-NOT: kproof.math_idiom
// CHECK-NOT: kproof.idiom_interior
// CHECK: {{^ *}}return
kproof.kernel entry @expf_own_addend(%xp: i64, %yp: i64) {
  %x = kproof.ld global %xp : i64 -> f32
  %half = kproof.constant 5.000000e-01 : f32
  %c = kproof.constant 5.724980e-03 : f32
  %t = kproof.fma %x, %c, %half mode rn : f32
  %s = kproof.cvt %t {sat} : f32 -> f32
  %magic = kproof.constant 0x4B400001 : f32
  %c252 = kproof.constant 2.520000e+02 : f32
  %j = kproof.fma %s, %c252, %magic mode rm : f32
  %bias = kproof.constant 0xCB40007F : f32
  %k = kproof.fbin add %j, %bias : f32
  %nk = kproof.funary neg %k : f32
  %hi = kproof.constant 1.44269502 : f32
  %h = kproof.fma %x, %hi, %nk mode rn : f32
  %lo = kproof.constant 1.92596303E-8 : f32
  %l = kproof.fma %x, %lo, %h mode rn : f32
  %jb = kproof.bitcast %j : f32 to i32
  %c23 = kproof.constant 23 : i32
  %sh = kproof.shift shl %jb, %c23 : i32
  %scale = kproof.bitcast %sh : i32 to f32
  %e = kproof.funary ex2 %l mode approx {ftz} : f32
  %y = kproof.fma %e, %scale, %e mode rn : f32
  kproof.st global %yp, %y : i64, f32
  kproof.return
}

// nvcc's logf at -O3 (the exponent and mantissa split, a degree-8
// polynomial, a branch for +inf/NaN/negative x, selp for 0), from the
// logsumexp fixture: its root selp is tagged "logf", and the expf sequences
// of the same kernel "expf".
// RUN: kproof-translate --import-ptx %inputs/cuda/ptx/logsumexp.sm80.O3.ptx | kproof-opt --kproof-recognize-math-idioms | FileCheck %s --check-prefix=LOGF
// LOGF-LABEL: kproof.kernel entry @logsumexp_rows_precise
// LOGF: fma {{.*}} {kproof.math_idiom = "expf"}
// LOGF: cmp lt {{.*}} {kproof.idiom_interior} : i32
// LOGF-NEXT: cf.cond_br
// LOGF: selp {{.*}} {kproof.math_idiom = "logf"} : f32

// nvcc's tanhf at -O3 (1 - 2 / (ex2(2|x| log2 e) + 1) with the sign of x,
// saturated at 9.01, above 0.6; an odd polynomial below), from the
// activations fixture: its root selp is tagged "tanhf". The engine models
// every op of the sequence, so none is tagged interior (each still runs with
// its own semantics for any other use; only the root is read as tanh(x)).
// A changed polynomial coefficient is not tanhf.
// RUN: kproof-translate --import-ptx %inputs/cuda/ptx/activations.sm80.O3.ptx | kproof-opt --kproof-recognize-math-idioms | FileCheck %s --check-prefix=TANH
// RUN: sed 's/0f3E085941/0f3E085942/' %inputs/cuda/ptx/activations.sm80.O3.ptx | kproof-translate --import-ptx | kproof-opt --kproof-recognize-math-idioms | FileCheck %s --check-prefix=TANHMUT
// TANH-LABEL: kproof.kernel entry @tanh_rows
// TANH-NOT: idiom_interior
// TANH: selp {{.*}} {kproof.math_idiom = "tanhf"} : f32
// TANH-LABEL: kproof.kernel entry @gelu_tanh
// TANH: selp {{.*}} {kproof.math_idiom = "tanhf"} : f32
// At -G tanhf is a .func whose selects are branches and joins: the bitcast
// of the returned join is the root; the comparisons that route the branches
// stay ordinary ops, so the engine forks on them as the kernel does.
// RUN: kproof-translate --import-ptx %inputs/cuda/ptx/activations.sm80.G.ptx | kproof-opt --kproof-recognize-math-idioms | FileCheck %s --check-prefix=TANHG
// RUN: sed 's/0f3E085941/0f3E085942/' %inputs/cuda/ptx/activations.sm80.G.ptx | kproof-translate --import-ptx | kproof-opt --kproof-recognize-math-idioms | FileCheck %s --check-prefix=TANHGMUT
// TANHG-LABEL: kproof.kernel func @tanhf
// TANHG-NOT: idiom_interior
// TANHG: bitcast {{.*}} {kproof.math_idiom = "tanhf"} : f32 to i32
// TANHGMUT-NOT: math_idiom = "tanhf"
// TANHMUT-LABEL: kproof.kernel entry @tanh_rows
// TANHMUT-NOT: tanhf
// TANHMUT: kproof.kernel entry @gelu_tanh
