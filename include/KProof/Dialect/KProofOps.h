//===- KProofOps.h - kproof operations --------------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_DIALECT_KPROOFOPS_H
#define KPROOF_DIALECT_KPROOFOPS_H

#include "KProof/Dialect/KProofDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <array>

#include "KProof/Dialect/KProofEnums.h.inc"

#define GET_OP_CLASSES
#include "KProof/Dialect/KProofOps.h.inc"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace kproof {
/// Finds the kernel or device function named `name` in `module`, by its PTX
/// (mangled) name or its demangled name (llvm::demangle; with or without the
/// parameter list, e.g. `softmax` for `_Z7softmaxPfi`). Null if none or more
/// than one match.
KernelOp lookupKernel(mlir::ModuleOp module, llvm::StringRef name);

/// The byte table of a `prmt` mode (PTX ISA 9.7.8.9): for each value of
/// the selector's low two bits, the source byte (0-3 of a, 4-7 of b) of
/// result bytes 0..3. Null for an unknown mode. One table for the symbolic
/// executor and the interpreter.
const std::array<std::array<int, 4>, 4> *prmtModeTable(llvm::StringRef mode);
} // namespace kproof

#endif // KPROOF_DIALECT_KPROOFOPS_H
