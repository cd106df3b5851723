//===- FuncSpec.cpp - specs written as func.func over tensors -------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "FuncSpec.h"

#include "mlir/IR/Operation.h"

namespace kproof::engine {

std::unique_ptr<Spec> buildFuncSpec(mlir::Operation *contract,
                                    mlir::DictionaryAttr,
                                    const SpecEnvironment &) {
  contract->emitError("func.func specs are not supported yet; use a builtin "
                      "spec");
  return nullptr;
}

} // namespace kproof::engine
