//===- Contract.h - a kproof.contract bound to its kernel -------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Resolves a `kproof.contract` (DESIGN.md §2, docs/contracts.md) against the
// module: the entry kernel, the launch geometry, the parameter bindings by
// position and the spec. One implementation, shared by the proof engine
// (EquivalenceChecker) and the CPU interpreter (kproof-run), so both read a
// contract the same way.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_CONTRACT_H
#define KPROOF_VERIFIER_CONTRACT_H

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Executor.h"
#include "KProof/Verifier/Spec.h"
#include "KProof/Verifier/Term.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kproof::engine {

/// A contract resolved against its module.
struct BoundContract {
  mlir::kproof::KernelOp kernel;
  LaunchConfig launch;
  /// Per kernel parameter, by position: the buffer binding, or nullopt
  /// for a scalar.
  std::vector<std::optional<BufferBinding>> buffers;
  /// Per kernel parameter: null for a buffer; for a scalar, its value as a
  /// constant term, or a free variable named after the parameter when the
  /// contract gives no value.
  std::vector<Term> scalars;
  /// Parameter names, by position.
  std::vector<std::string> names;
  /// The spec (element-wise lowering; Spec.h).
  std::unique_ptr<Spec> spec;
  /// The contract's assumptions, as written (printed with every verdict).
  std::vector<std::string> assumptions;
};

/// Binds `contract` to its kernel in `module`. Errors (unknown entry,
/// parameter count or type mismatch, spec shape mismatch) are emitted at
/// the contract's location; the result is then nullopt.
std::optional<BoundContract> bindContract(mlir::ModuleOp module,
                                          mlir::kproof::ContractOp contract,
                                          TermContext &terms);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_CONTRACT_H
