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

def KProofSymbolizeLanes : Pass<"kproof-symbolize-lanes", "::kproof::KernelOp"> {
  let summary = "Express %laneid through the thread ids and mark per-read "
                "special registers";
  let description = [{
    Lane symbolization (PTX ISA 10.4: `%laneid`): the verifier runs one
    arbitrary thread whose `tid.x/y/z` and `ctaid.x/y/z` are free variables
    with range facts. This pass rewrites every read of `%laneid` into the
    linear thread id `tid.x + ntid.x * (tid.y + ntid.y * tid.z)` masked to
    its low 5 bits (lane = linear id mod 32), so lanes are functions of the
    same variables the races and shuffles are stated over; `%warpid`,
    `%smid`, `%gridid`, `%clock`, `%clock_hi`, `%clock64` and `%globaltimer` reads are
    tagged `kproof.fresh_per_read` (a physical slot or a time: an arbitrary
    value at each read, never the same variable twice).

    The proof engine runs this rewrite on every kernel before executing it
    (`kproof::symbolizeLanes`, called by `engine::execute`) and reads its
    output: `%laneid` is never interpreted by the executor, and a special
    register is a fresh value per read exactly when it carries
    `kproof.fresh_per_read`. The pass exposes the same rewrite to pipelines
    and tests.

    ```mlir
    // kproof-opt --kproof-symbolize-lanes kernel.mlir
    %lane = kproof.sreg laneid : i32
    // becomes
    %lin = ... tid.x + ntid.x * (tid.y + ntid.y * tid.z) ...
    %lane = kproof.ibin and %lin, %c31 : i32
    %w = kproof.sreg warpid {kproof.fresh_per_read} : i32
    ```
  }];
}

#endif // KPROOF_TRANSFORMS_PASSES_TD
