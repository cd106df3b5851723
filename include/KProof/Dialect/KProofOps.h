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

#include "KProof/Dialect/KProofEnums.h.inc"

#define GET_OP_CLASSES
#include "KProof/Dialect/KProofOps.h.inc"

#endif // KPROOF_DIALECT_KPROOFOPS_H
