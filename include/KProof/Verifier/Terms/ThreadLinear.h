//===- ThreadLinear.h - offsets as linear forms of thread ids --*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Most addresses a kernel computes are affine in the thread ids: a tile
// element `(tid.x + 16 k) * 4`, a row `(16 ctaid.x + tid.x) * D * 4 + 4 c`.
// Here such a BV term is read as its exact integer value c0 + sum c_v v over
// variables with known ranges [0, extent) (thread and CTA ids), each
// operation checked not to wrap at its width over those ranges; and two
// accesses [o1, o1 + b1), [o2, o2 + b2) of two threads are decided
// disjoint on integers (the range and the gcd of the difference's
// coefficients; the mixed-radix injectivity of one address layout for two
// distinct threads). The executor inverts shared-memory writes with the
// first; the race checks dismiss the pairs of a thread's many unrolled
// store sites with the second, which is quadratic in the stores otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_THREADLINEAR_H
#define KPROOF_VERIFIER_TERMS_THREADLINEAR_H

#include "KProof/Verifier/Terms/Term.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

namespace kproof::engine {

/// c0 + sum coeffs[v] * v, integers.
struct LinearForm {
  __int128 c0 = 0;
  std::map<Term, __int128, TermIdLess> coeffs;
};

/// Variables with their ranges: each v lies in [0, extent) (extent >= 1).
using VarExtents = llvm::DenseMap<Term, int64_t>;

/// Adds `scale` times the exact value of BV term `t` to `out`, when `t` is
/// built from constants, variables of `extents`, +, -, multiplication and
/// left shift by a constant, zero extension and the low extract, and no
/// operation wraps at its width for any values of the variables in their
/// ranges (so the BV value of `t` equals the integer form). The top-level
/// addition may wrap: the form is then t's value modulo 2^width(t).
/// False (with `out` partly updated) when `t` is not of that shape.
bool linearizeOver(Term t, const VarExtents &extents, __int128 scale,
                   LinearForm &out);

/// The least and greatest value of `f` over the ranges of `extents`
/// (a variable not in `extents` counts as 0; callers only pass forms
/// linearizeOver built over the same extents).
std::pair<__int128, __int128> rangeOver(const LinearForm &f,
                                        const VarExtents &extents);

/// Whether the byte ranges [x, x + xBytes) of one thread t1 and
/// [y, y + yBytes) of another thread t2 are disjoint for every t1 and t2
/// in the ranges of `extents`, where `x` and `y` are exact integer
/// offsets (linearizeOver forms over the representative thread's
/// variables, renamed apart per thread), except that the variables in
/// `shared` take one value in both threads (the CTA ids of two threads of
/// one CTA), and the threads differ in at least one variable of
/// `mustDiffer` (variables of extent 1 cannot differ). Decided on the
/// integers: the difference x - y must fall in (-xBytes, yBytes); false
/// (not decided) when its range and the gcd of its coefficients allow
/// that, unless x and y share their variable part L, L is a mixed-radix
/// layout over its variables (each |coefficient| at least the next
/// smaller one times that variable's extent) that names every variable of
/// `mustDiffer` with an extent above 1, and then L(t1) - L(t2) is 0 or at
/// least the smallest |coefficient| in magnitude, which rules the overlap
/// out. Sound for any forms; complete for neither.
bool disjointForDistinctThreads(const LinearForm &x, uint64_t xBytes,
                                const LinearForm &y, uint64_t yBytes,
                                const VarExtents &extents,
                                llvm::ArrayRef<Term> shared,
                                llvm::ArrayRef<Term> mustDiffer);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_TERMS_THREADLINEAR_H
