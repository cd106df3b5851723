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

def KProofBarrierPhasing : Pass<"kproof-barrier-phasing", "::kproof::KernelOp"> {
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
    pairs share the barrier that closes the iteration.

    Named barriers get a phase model per barrier id: a barrier id used with
    `bar.arrive` or a thread count anywhere in the kernel is `counted`
    (`kproof.barrier_kind = "counted"`; it orders only its participants,
    in generations of `count` arrivals, PTX ISA 9.7.13.4), every other one
    (`bar.sync 0`, `bar.sync 3`, `bar.red` without a count) is `cta`. Only
    `cta` barriers end the phase of `kproof.phase`; accesses after counted
    barriers also get `kproof.counted_phase`, per counted id the set of its
    barrier ops that may be the last passed. A barrier whose id or count is
    in a register is tagged `kproof.barrier_unmodeled` with a warning: the
    verifier answers UNKNOWN for kernels that reach it.

    ```mlir
    // kproof-opt --kproof-barrier-phasing kernel.mlir
    kproof.barrier sync id %c0 {aligned, kproof.barrier_index = 0 : i64,
                                kproof.barrier_kind = "cta"}
    %v = kproof.ld shared %a {kproof.phase = array<i64: 0>} : i32 -> f32
    kproof.barrier sync id %c1 count %c64 {aligned,
        kproof.barrier_index = 1 : i64, kproof.barrier_kind = "counted"}
    %w = kproof.ld shared %a {kproof.counted_phase = {"1" = array<i64: 1>},
                              kproof.phase = array<i64: 0>} : i32 -> f32
    ```
  }];
}

def KProofSymbolizeLanes : Pass<"kproof-symbolize-lanes", "::kproof::KernelOp"> {
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
    facts (`0 <= tid.x < ntid.x`, `0 <= ctaid.x < nctaid.x`, ...), CUDA's
    1024 threads per CTA, and the launch of every `kproof.contract` in the
    module for this kernel: concrete extents (`ntid.x = 256`) or the bounds
    of a symbolic launch (`1 <= ntid.x <= 1024`, `1 <= nctaid.x <= 4096`,
    and `max_threads` on the product of all six extents), each prefixed
    with the contract's name.

    ```mlir
    // kproof-opt --kproof-symbolize-lanes kernel.mlir
    ```
  }];
}

#endif // KPROOF_TRANSFORMS_PASSES_TD
