//===- KProofDialect.h - the kproof dialect ---------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_DIALECT_KPROOFDIALECT_H
#define KPROOF_DIALECT_KPROOFDIALECT_H

#include "mlir/IR/Dialect.h"

#include "KProof/Dialect/KProofDialect.h.inc"

#endif // KPROOF_DIALECT_KPROOFDIALECT_H
