//===- StoreChain.cpp - a thread's own stores, and loads from them --------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The symbolic memory of one thread's own stores (StoreChain.h): a load
// walks the chain newest first; a store at a provably equal key supplies the
// value, one provably disjoint is skipped, an undecided one wraps the older
// value in an ite. Everything here is a function of terms: it creates terms
// in a fixed order (the order the executor relies on for deterministic
// queries) and reports UNKNOWN through its result, not through the executor.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Exec/StoreChain.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace ::kproof::engine;

Term kproof::engine::floatOfBits(TermContext &T, Term v, Type type) {
  if (v->getKind() != Kind::BVConst)
    return nullptr;
  bool bf16 = type && type.isBF16();
  const llvm::fltSemantics *sem =
      v->getWidth() == 32   ? &APFloat::IEEEsingle()
      : v->getWidth() == 64 ? &APFloat::IEEEdouble()
      : v->getWidth() == 16 ? (bf16 ? &APFloat::BFloat() : &APFloat::IEEEhalf())
                            : nullptr;
  if (!sem)
    return nullptr;
  APFloat f(*sem, v->getAPInt());
  if (f.isNaN())
    return T.nan();
  if (f.isInfinity())
    return f.isNegative() ? T.negInf() : T.posInf();
  if (std::optional<Rational> q = Rational::fromAPFloat(f))
    return T.real(*q);
  return nullptr;
}

StoreChain::Load StoreChain::load(Term key, unsigned bytes, Term base,
                                  llvm::StringRef what, Location loc,
                                  Term pc) const {
  Load result;
  auto fail = [&](const llvm::Twine &why) {
    result.value = nullptr;
    result.unknownReason = why.str();
    return result;
  };
  // Newest first: the first store that certainly hits ends the walk; the
  // undecided ones above it are wrapped around it, innermost last.
  SmallVector<std::pair<Term, const Store *>> undecided;
  Term value = base;
  for (const Store &e : stores) {
    Term d = T.canonicalIndex(T.bvBin(Kind::BVSub, key, e.key));
    if (d->getKind() == Kind::BVConst) {
      // Exact modulo 2^64: [key, key + bytes) and [e.key, e.key + e.bytes)
      // overlap iff key - e.key < e.bytes or e.key - key < bytes.
      APInt dv = d->getAPInt(), nd = -dv;
      if (dv.isZero() && bytes == e.bytes) {
        value = e.value;
        break;
      }
      if (dv.uge(e.bytes) && nd.uge(bytes))
        continue;
      return fail("a load of " + what + " partially overlaps the store at " +
                  locationString(e.loc) + " (not modeled)");
    }
    if (e.bytes != bytes)
      return fail("a load of " + what + " may partially overlap the store "
                  "at " + locationString(e.loc) + " of another width (not "
                  "modeled)");
    if (undecided.size() >= kMaxUndecided)
      return fail("the load of " + what + " may read any of more than " +
                  llvm::Twine(kMaxUndecided) +
                  " earlier stores of this thread (store chain limit)");
    Term hit = T.eq(key, e.key);
    if (bytes > 1) {
      Term w = T.bv(bytes, 64);
      result.obligations.push_back(
          {pc,
           T.orOf({hit, T.andOf(T.bvUle(w, T.bvBin(Kind::BVSub, key, e.key)),
                                T.bvUle(w, T.bvBin(Kind::BVSub, e.key, key)))}),
           loc, ("the load of " + what + " and the store at " +
                 locationString(e.loc) +
                 " access the same bytes or disjoint ones")
                    .str()});
    }
    undecided.push_back({hit, &e});
  }
  // One sort for the ite: a float's constant bits (st.u32 0 of 0.0f, as
  // -G code initializes a float array) are that float's value.
  bool real = value->getSort() == Sort::Real ||
              llvm::any_of(undecided, [](auto &u) {
                return u.second->value->getSort() == Sort::Real;
              });
  auto asSort = [&](Term v) -> Term {
    if (!real || v->getSort() == Sort::Real)
      return v;
    return floatOfBits(T, v);
  };
  const char *otherType = " may read a store of another type (bit "
                          "reinterpretation is not modeled)";
  if (!(value = asSort(value)))
    return fail("a load of " + what + otherType);
  for (auto &[hit, e] : llvm::reverse(undecided)) {
    Term v = asSort(e->value);
    if (!v)
      return fail("a load of " + what + otherType);
    value = T.ite(hit, v, value);
  }
  result.value = value;
  return result;
}
