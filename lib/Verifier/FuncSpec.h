//===- FuncSpec.h - specs written as func.func over tensors -----*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_VERIFIER_FUNCSPEC_H
#define KPROOF_LIB_VERIFIER_FUNCSPEC_H

#include "KProof/Verifier/Spec.h"

namespace kproof::engine {

/// A spec given as `{func = @f, inputs = ["x", "s"], output = "y"}`: the
/// func.func @f (found from the contract's symbol table) takes one tensor
/// per input buffer and one scalar per input scalar, in `inputs` order, and
/// returns the output tensor. Lowered element-wise (FuncSpec.cpp).
std::unique_ptr<Spec> buildFuncSpec(mlir::Operation *contract,
                                    mlir::DictionaryAttr spec,
                                    const SpecEnvironment &env);

} // namespace kproof::engine

#endif // KPROOF_LIB_VERIFIER_FUNCSPEC_H
