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

def KProofRecognizeMathIdioms : Pass<"kproof-recognize-math-idioms"> {
  let summary = "Tag the instruction sequences of math library functions";
  let description = [{
    CUDA's precise `expf` (without `--use_fast_math`) compiles to a range
    reduction on the float's bits: `cvt.sat`, `fma.rm` against the magic
    constant 1.5 * 2^23, a shift of the result's bits into the exponent
    field, and `ex2.approx` of the reduced argument. Bit operations on reals
    are outside the reals model, so the proof engine reads the sequence as
    the function it computes. This pass finds each sequence by structure
    and by the exact bits of its constants, and tags its last op (a `mul`,
    or an `fma` when nvcc fused an addition) with `kproof.math_idiom =
    "expf"` and each op only the sequence reads with
    `kproof.idiom_interior`. The proof engine runs it on the module of every
    kernel (`kproof::recognizeMathIdioms`, called by `engine::execute`),
    skips the interior ops and reads the root as `exp(x)` (plus the fused
    addend), reporting the idiom with its location in the verdict. The
    interpreter ignores the tags and runs the instructions in IEEE
    arithmetic.

    ```mlir
    // kproof-opt --kproof-recognize-math-idioms kernel.mlir
    %e = kproof.funary ex2 %l mode approx {ftz, kproof.idiom_interior} : f32
    %y = kproof.fbin mul %e, %scale {kproof.math_idiom = "expf"} : f32
    ```
  }];
}

#endif // KPROOF_TRANSFORMS_PASSES_TD
