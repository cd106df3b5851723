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

def KProofBarrierPhasing : Pass<"kproof-barrier-phasing", "mlir::kproof::KernelOp"> {
  let summary = "Number the CTA barriers and annotate each memory access "
                "and warp collective with the phases it may run in";
  let description = [{
    Barrier phasing (DESIGN.md §4): between two CTA barriers, the threads of
    a CTA are unordered. This pass numbers every `kproof.barrier` of a
    kernel in program order (`kproof.barrier_index`) and runs a forward
    dataflow analysis over the CFG whose state is the set of barriers that
    may be the last one passed (-1: the kernel entry). Every `ld`, `st`,
    `atom` and `shfl` gets `kproof.phase`, that set: two accesses whose sets
    share an element may run in one phase and must be checked for races.
    A barrier inside a loop reaches its own loop header, so loop-carried
    pairs share the barrier that closes the iteration. Named barriers (an
    `id` other than the constant 0), barriers with a thread count,
    `bar.arrive` and `bar.red` are tagged `kproof.barrier_unmodeled` with a
    warning: the verifier answers UNKNOWN for kernels that use them.

    ```mlir
    // kproof-opt --kproof-barrier-phasing kernel.mlir
    kproof.barrier sync id %c0 {aligned, kproof.barrier_index = 0 : i64}
    %v = kproof.ld shared %a {kproof.phase = array<i64: 0>} : i32 -> f32
    ```
  }];
}

def KProofSymbolizeLanes : Pass<"kproof-symbolize-lanes", "mlir::kproof::KernelOp"> {
  let summary = "Express %laneid through the thread ids and mark per-read "
                "special registers";
  let description = [{
    Lane symbolization (DESIGN.md §4): the verifier runs one arbitrary
    thread whose `tid.x/y/z` and `ctaid.x/y/z` are free variables with
    range facts. This pass rewrites every read of `%laneid` into the
    linear thread id `tid.x + tid.y * ntid.x + tid.z * ntid.x * ntid.y`
    masked to its low 5 bits (lane = linear id mod 32), so lanes are
    functions of the same variables the races and shuffles are stated over;
    `%warpid`, `%smid`, `%clock*` and `%globaltimer` reads are tagged
    `kproof.fresh_per_read` (a physical slot or a time: an arbitrary value at
    each read, never the same variable twice). The kernel gets
    `kproof.thread_ids`, the symbolic thread variables with their range
    facts (`0 <= tid.x < ntid.x`, `0 <= ctaid.x < nctaid.x`, ...; the
    concrete or symbolic bounds come from the contract at verification).

    ```mlir
    // kproof-opt --kproof-symbolize-lanes kernel.mlir
    ```
  }];
}

#endif // KPROOF_TRANSFORMS_PASSES_TD
