//===- StoreChain.h - a thread's own stores and loads from them -*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The symbolic memory of one thread's own stores to one region (a contract
// buffer, a per-thread .local array, PTX ISA 5.1.5): the ordered chain of its
// earlier stores, newest first, over the region's initial contents, and the
// value a load reads from it. The executor builds a chain per load
// (Executor's bufferChain and scratchChain) and resolves the load against it
// with `StoreChain::load`; the chain only needs terms, so it is tested on
// terms directly (unittests/StoreChainTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_EXEC_STORECHAIN_H
#define KPROOF_VERIFIER_EXEC_STORECHAIN_H

#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Term.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace kproof::engine {

/// The float value of the constant bit pattern `v`, read as an IEEE 754
/// binary16, binary32 or binary64 by its width in bits (nvcc stores 0.0f as
/// `st.u32 0`; Triton's masked loads default to `mov.b32 %r, -8388608`,
/// -inf): a real, an infinity or NaN (extended values, Term.h); null when
/// `v` is not a constant of those widths. `type`, when given, is the float
/// type read: a 16-bit pattern read as bf16 is a bfloat16.
Term floatOfBits(TermContext &T, Term v, mlir::Type type = {});

/// A thread's own earlier stores to one region, newest first, and loads
/// against them. A store's `key` is a 64-bit bit-vector term: the element
/// index for a contract buffer (then every access is 1 element: `bytes` 1),
/// or the byte offset for a .local array (then `bytes` is the access width
/// in bytes). A load of `bytes` at `key` reads, walking from the newest
/// store: a store whose key provably equals the load's (the index normal
/// form of the difference, TermContext::canonicalIndex, is the constant 0)
/// and of the same width supplies the value and ends the walk; one provably
/// disjoint (the difference is a constant, exact modulo 2^64, and the byte
/// ranges do not overlap) is skipped; one whose difference is not a
/// constant (undecided) wraps the value of the older stores in
/// ite(key == store key, stored, older), and, when `bytes` > 1, raises the
/// obligation that the two accesses are equal or disjoint. The value under
/// all stores is the region's initial contents (`base`). A partial
/// overlap, an undecided store of another width, a store of another type
/// than read (other than constant float bits), or more than kMaxUndecided
/// undecided stores make the load UNKNOWN. (The difference is a constant
/// for two constant keys, for instance; canonicalIndex does not cancel a
/// symbolic key against itself, so a store at the same symbolic key is
/// undecided, its condition key == key folding to true.)
class StoreChain {
public:
  /// One store of the chain.
  struct Store {
    Term key; ///< element index or byte offset (64-bit BV)
    unsigned bytes;
    Term value;
    mlir::Location loc;
  };

  /// What a load reads.
  struct Load {
    /// The value read; null when the load is UNKNOWN (`unknownReason`).
    Term value = nullptr;
    std::string unknownReason;
    /// The obligations of the undecided stores wider than one byte (each
    /// under the path condition `pc` given to `load`), in the order they
    /// were raised; also those raised before the walk stopped on UNKNOWN.
    std::vector<PathObligation> obligations;
  };

  /// Undecided stores a load may see before it is UNKNOWN ("store chain
  /// limit").
  static constexpr unsigned kMaxUndecided = 32;

  explicit StoreChain(TermContext &terms) : T(terms) {}

  /// Appends a store older than every store already in the chain.
  void appendOlder(Term key, unsigned bytes, Term value, mlir::Location loc) {
    stores.push_back({key, bytes, value, loc});
  }

  /// The stores, newest first.
  llvm::ArrayRef<Store> getStores() const { return stores; }
  bool empty() const { return stores.empty(); }

  /// The value a load of `bytes` at `key` reads over the initial contents
  /// `base` (see the class comment). `what` names the memory in messages
  /// ("'buf'"); `loc` is the load's location and `pc` its path condition,
  /// for the obligations.
  Load load(Term key, unsigned bytes, Term base, llvm::StringRef what,
            mlir::Location loc, Term pc) const;

private:
  TermContext &T;
  llvm::SmallVector<Store, 8> stores;
};

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_EXEC_STORECHAIN_H
