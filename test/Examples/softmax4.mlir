// The README's quick-start commands: import the shipped nvcc PTX and print
// it, and prove it against its contract.
// RUN: kproof-opt %S/../../examples/softmax4.ptx | FileCheck %s
// RUN: %expect_exit 0 kproof-opt %S/../../examples/softmax4.ptx --verify-equiv --contract=%S/../../examples/softmax4.contract.mlir | FileCheck %s --check-prefix=PROOF

// CHECK-LABEL: kproof.kernel entry @softmax4
// CHECK-COUNT-4: ld global %{{.+}} : i64 -> f32
// CHECK: funary ex2 %{{.+}} mode approx : f32
// CHECK-COUNT-4: st global
// CHECK: return

// PROOF: kproof: softmax4 against softmax(x) -> y (mode reals)
// PROOF: obligations: 8 (8 proved)
// PROOF: PROVED
