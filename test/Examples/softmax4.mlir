// The README's quick-start command: import the shipped nvcc PTX and print it.
// RUN: kproof-opt %S/../../examples/softmax4.ptx | FileCheck %s

// CHECK-LABEL: kproof.kernel entry @softmax4
// CHECK-COUNT-4: ld global %{{.+}} : i64 -> f32
// CHECK: funary ex2 %{{.+}} mode approx : f32
// CHECK-COUNT-4: st global
// CHECK: return
