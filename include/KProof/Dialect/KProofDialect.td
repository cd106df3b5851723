//===- KProofDialect.td - the kproof dialect ---------------*- tablegen -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_DIALECT_KPROOFDIALECT_TD
#define KPROOF_DIALECT_KPROOFDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def KProof_Dialect : Dialect {
  let name = "kproof";
  let summary = "GPU kernels with PTX's exact semantics, for proof and interpretation";
  let description = [{
    The `kproof` dialect is kproof's shared IR: PTX text (from nvcc, Triton or
    hand-written) and MLIR's NVVM/ROCDL/AMDGPU forms are imported into it, the
    proof engine executes it symbolically and the CPU interpreter executes it
    concretely.

    Every op models one PTX operation class with PTX's exact semantics,
    including rounding, flush-to-zero and approximation modifiers (PTX ISA 9.0,
    §9.7). Upstream `arith`/`math` are not used for PTX arithmetic because
    their semantics differ (a shift by the bit width or more is poison in
    `arith` and clamps in PTX; `fptosi` out of range is poison where
    `cvt.rzi` saturates) and their folders evaluate floats in IEEE arithmetic,
    which would corrupt the exact-reals model.

    Values are typed by the PTX opcode that produced them, never by register
    names: `iN` is a PTX `.bN`/`.uN`/`.sN` register of N bits (signedness lives
    on the op), `f16`/`bf16`/`f32`/`f64` are float registers and `i1` is a
    `.pred`. Addresses are integers (`i32` or `i64`), exactly as in PTX, with
    the state space carried by the memory op. Control flow uses `cf`.
  }];
  let cppNamespace = "::kproof";
}

class KProof_Op<string mnemonic, list<Trait> traits = []>
    : Op<KProof_Dialect, mnemonic, traits>;

#endif // KPROOF_DIALECT_KPROOFDIALECT_TD
