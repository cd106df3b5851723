//===- Contract.h - a kproof.contract bound to its kernel -------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Resolves a `kproof.contract` (docs/contracts.md) against the
// module: the entry kernel, the launch geometry, the parameter bindings by
// position and the spec. One implementation, shared by the proof engine
// (EquivalenceChecker) and the CPU interpreter (kproof-run), so both read a
// contract the same way.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_SPECS_CONTRACT_H
#define KPROOF_VERIFIER_SPECS_CONTRACT_H

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Specs/Spec.h"
#include "KProof/Verifier/Terms/Term.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kproof::engine {

/// A contract resolved against its module.
struct BoundContract {
  kproof::KernelOp kernel;
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
  /// The specs (element-wise lowering; Spec.h), one per output buffer, in
  /// the contract's order: one for `spec = {..., output = "y"}`, one per
  /// name of a func spec's `outputs`.
  std::vector<std::unique_ptr<Spec>> specs;
  /// The spec that defines buffer `name`, or null.
  Spec *specOf(llvm::StringRef name) const {
    for (const std::unique_ptr<Spec> &s : specs)
      if (s->output().name == name)
        return s.get();
    return nullptr;
  }
  /// The contract's assumptions, as written (printed with every verdict).
  std::vector<std::string> assumptions;
  /// `tolerate_equal_writes = true`: a write-write race whose two values
  /// are proved equal is a warning, not REFUTED (the default: PTX ISA's
  /// memory model makes it a data race). Printed as an assumption.
  bool tolerateEqualWrites = false;
  /// `finite_inputs = true`: --verify-sync, too, covers finite float
  /// inputs only (ExecutorOptions::nonFiniteInputs off). Printed.
  bool finiteInputs = false;
  /// When the kernel stores through an `in` buffer and never through an
  /// `out` one (checkBufferRoles): the suggestion that the contract has
  /// them swapped, for the message of the refuted store.
  std::string swapHint;
};

/// How a kernel uses one pointer parameter (paramAccesses).
struct ParamAccess {
  bool loaded = false; ///< some load (or atomic) reads through it
  bool stored = false; ///< some store (or atomic) writes through it
};

/// Per parameter of `kernel` (by position), whether some load reads and
/// some store writes through an address derived from it (def-use through
/// integer arithmetic, cvta, cvt, selp and block arguments; an
/// over-approximation of derivation, so `stored` false means no store
/// instruction can write through it). Only the parameters `tracked` marks
/// (all when it is shorter) are followed: the contract's buffers.
/// std::nullopt when the analysis cannot tell: a store's address reads a
/// value loaded from memory, a tracked parameter's value is stored to
/// memory (a store's or an atomic's data) or passed to a call or an
/// unmodeled instruction, or the kernel has 63 parameters or more.
std::optional<std::vector<ParamAccess>>
paramAccesses(kproof::KernelOp kernel, llvm::ArrayRef<bool> tracked = {});

/// Binds `contract` to its kernel in `module`. Errors (unknown entry,
/// parameter count or type mismatch, spec shape mismatch) are emitted at
/// the contract's location; the result is then nullopt.
///
/// `launchValues` instantiates a symbolic launch (grid_max/block_max) for
/// a concrete run (the interpreter, the replay of a counterexample): each
/// symbolic extent ("ntid.x", "nctaid.x", ...) takes its value from the map
/// (1 when absent), launch-dependent buffer shapes become those values'
/// products (BufferBinding::symbolicDims stays, for the spec's binding).
/// A value outside the contract's bounds is an error.
/// `mergeStates` is ExecutorOptions::mergeStates for a reference kernel
/// spec (which runs while the spec is built).
std::optional<BoundContract>
bindContract(mlir::ModuleOp module, kproof::ContractOp contract,
             TermContext &terms,
             const std::map<std::string, int64_t> *launchValues = nullptr,
             bool mergeStates = true);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_SPECS_CONTRACT_H
