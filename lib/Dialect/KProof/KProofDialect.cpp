//===- KProofDialect.cpp - the kproof dialect -----------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/KProofOps.h"

using namespace mlir;
using namespace ::kproof;

#include "KProof/Dialect/KProofDialect.cpp.inc"

void KProofDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "KProof/Dialect/KProofOps.cpp.inc"
      >();
}
