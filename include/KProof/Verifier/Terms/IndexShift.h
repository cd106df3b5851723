//===- IndexShift.h - terms that differ by shifted indices -----*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A thread that writes a row of D outputs (`O[row * D + c]` for c < D,
// unrolled) stores D values that are one term up to the column: each
// reads `V[j * D + c]` where the next reads `V[j * D + c + 1]`. Proving
// them one by one costs D times one proof. Here two such terms are
// anti-unified into a template over a fresh index variable k (each
// differing integer subterm a, b with b - a a constant e becomes a + k e),
// and a term is compared with an instance of the template up to index
// normal forms (TermContext::canonicalIndex), so that the checker may
// prove the template once for every k in [0, D) after checking that each
// store is the template at its own k.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_INDEXSHIFT_H
#define KPROOF_VERIFIER_TERMS_INDEXSHIFT_H

#include "KProof/Verifier/Terms/Term.h"

#include "llvm/ADT/DenseMap.h"

namespace kproof::engine {

/// A template t(k) with t(0) = a and t(1) = b: `a` where a and b agree;
/// where they differ, the operands anti-unified under one head (rebuilt
/// with TermContext::rebuild), and a differing pair of BV terms of one
/// width whose difference has the constant index normal form e becomes
/// a + k' e (k' the variable `k` extended or truncated to that width).
/// Null when some differing pair is neither (a real leaf, or a BV
/// difference that is not constant). `k` is a BV variable of at most 64
/// bits. The template is only a candidate: callers check each instance
/// with equalUpToIndexForms before relying on it.
Term antiUnifyByIndexShift(TermContext &T, Term a, Term b, Term k);

/// Whether terms `a` and `b` are equal because they are built alike: the
/// same term; BV terms with the same index normal form
/// (TermContext::canonicalIndex: equal within the declared bounds); or
/// pairwise equal operands under one head (`a` rebuilt from b's operands
/// is `b`). Sound (true only for terms equal on every execution within
/// the declared bounds), incomplete. `memo` caches pairs across calls.
bool equalUpToIndexForms(TermContext &T, Term a, Term b,
                         llvm::DenseMap<std::pair<Term, Term>, bool> &memo);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_TERMS_INDEXSHIFT_H
