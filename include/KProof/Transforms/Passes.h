//===- Passes.h - kproof passes ---------------------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_TRANSFORMS_PASSES_H
#define KPROOF_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace kproof {

#define GEN_PASS_DECL
#include "KProof/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "KProof/Transforms/Passes.h.inc"

} // namespace kproof

#endif // KPROOF_TRANSFORMS_PASSES_H
