//===- Passes.td - kproof passes ---------------------------*- tablegen -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_TRANSFORMS_PASSES_TD
#define KPROOF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KProofVerifyEquiv : Pass<"kproof-verify-equiv", "mlir::ModuleOp"> {
  let summary = "Prove each kernel equal to its contract's spec, or refute it";
  let description = [{
    For every `kproof.contract` in the module, runs the proof engine
    (lib/Verifier: symbolic execution, normalizer, Z3, MPFR confirmation)
    on the kernel it names and reports the verdict as a diagnostic at the
    contract: a remark for PROVED, a warning with the reason for UNKNOWN, an
    error with the failed property, the counterexample's inputs and both
    values for REFUTED (the pass then fails). `kproof-opt --verify-equiv`
    runs the same engine and prints the full report with exit codes.

    ```mlir
    // kproof-opt --kproof-verify-equiv kernel-and-contract.mlir
    ```
  }];
  let options = [
    Option<"strictPrecision", "strict-precision", "bool", "false",
           "Treat precision downgrades (narrowing float conversions) as "
           "failures">
  ];
}

#endif // KPROOF_TRANSFORMS_PASSES_TD
