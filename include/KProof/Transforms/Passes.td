//===- Passes.td - kproof passes ---------------------------*- tablegen -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_TRANSFORMS_PASSES_TD
#define KPROOF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // KPROOF_TRANSFORMS_PASSES_TD
