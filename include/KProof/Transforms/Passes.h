//===- Passes.h - kproof passes ---------------------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_TRANSFORMS_PASSES_H
#define KPROOF_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace kproof {

class KernelOp;

/// The unit attribute that marks a special-register read whose value is
/// arbitrary at each read (`%warpid`, `%smid`, `%gridid`, `%clock*`,
/// `%globaltimer`):
/// the executor gives each such read a fresh variable.
inline constexpr llvm::StringLiteral kFreshPerReadAttr = "kproof.fresh_per_read";

/// Lane symbolization, the rewrite of `--kproof-symbolize-lanes`, in place:
/// every `%laneid` read (PTX ISA 10.4) becomes
/// `(tid.x + ntid.x * (tid.y + ntid.y * tid.z)) & 31`, and reads of the
/// physical-slot and timer registers get `kFreshPerReadAttr`. Idempotent.
/// The proof engine runs it on every kernel it executes
/// (`engine::execute`) and relies on its output.
void symbolizeLanes(KernelOp kernel);

#define GEN_PASS_DECL
#include "KProof/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "KProof/Transforms/Passes.h.inc"

} // namespace kproof

#endif // KPROOF_TRANSFORMS_PASSES_H
