//===- Constants.h - float constants read as transcendental values -*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Kernels carry transcendental values as rounded float constants: nvcc and
// Triton write log2(e) as 0f3FB8AA3B (x * log2(e), then ex2), ln(2) as
// 0f3F317218 (lg2, then * ln(2)), 1/sqrt(2) in GELU, pi in rotary
// embeddings. Read as the rationals they are, two such constants are not
// exact inverses (0f3FB8AA3B * 0f3F317218 = 1 - 2.6e-8), and a correct
// kernel that converts from base e to base 2 and back differs from its
// spec by about 1e-8: a false REFUTED in the exact reals model. Here a
// finite f32 or f64 constant that is +-2^k v or +-2^k v sqrt(2) rounded to
// nearest (|k| <= 16), v one of the values below, is read as that value
// exactly, as a term over positive constant atoms the normalizer knows
// (`log(2)`, `log(10)`, `sqrt(2)`, `pi()`):
//
//   log2(e) = 1 / log(2)     ln(2)    = log(2)       ln(10)   = log(10)
//   log2(10) = log(10)/log(2) log10(2) = log(2)/log(10) log10(e) = 1/log(10)
//   pi = pi()   sqrt(2) = sqrt(2)   1/sqrt(2) = 1 / sqrt(2)
//
// Every reading is an assumption of the verdict (an idiom line naming the
// constant, the value and its relative error). The interpreter's exact
// mode reads the same constants as the same values (transcendentalValue).
// The values are irrational, so no float constant equals one; the other
// float neighbour of a value (one ulp away) is not read.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_CONSTANTS_H
#define KPROOF_VERIFIER_TERMS_CONSTANTS_H

#include "KProof/Verifier/Terms/Term.h"

#include "llvm/ADT/APFloat.h"

#include <mpfr.h>

#include <optional>
#include <string>

namespace kproof::engine {

/// A float constant read as the transcendental value it rounds.
struct TranscendentalConstant {
  /// The value's name with its sign: "log2(e)", "-ln(2)".
  std::string name;
  /// The constant as PTX writes it: "0f3FB8AA3B" (f32), "0d3FF71547652B82FE"
  /// (f64).
  std::string spelling;
  /// |constant - value| / |value| (below 2^-23 for f32, 2^-52 for f64).
  double relativeError = 0;

  /// The verdict's idiom line: "f32 constant 0f3FB8AA3B read as log2(e)
  /// (relative error 1.9e-08)".
  std::string describe() const;
};

/// The transcendental reading of `c` (f32 or f64, finite, normal), if `c` is
/// a value of the table above rounded to nearest in c's format; otherwise
/// std::nullopt (also for every other float type).
std::optional<TranscendentalConstant>
matchTranscendental(const llvm::APFloat &c);

/// The exact value of `c`'s reading as a term over the constant atoms (null
/// when matchTranscendental(c) is std::nullopt).
Term transcendentalTerm(TermContext &T, const llvm::APFloat &c);

/// Sets `out` (at its own precision, rounded to nearest) to the exact value
/// of `c`'s reading and returns true; false, `out` untouched, when `c` has
/// none. Used by the interpreter's exact mode.
bool transcendentalValue(const llvm::APFloat &c, mpfr_t out);

/// A float constant as a term: +-inf, the transcendental reading, or the
/// exact rational. Null for NaN. `reading`, when given, receives the
/// transcendental reading (std::nullopt if none was made).
Term floatConstant(TermContext &T, const llvm::APFloat &c,
                   std::optional<TranscendentalConstant> *reading = nullptr);

/// A constant written in a contract: a product and quotient of positive
/// integers, `sqrt(n)` (n a positive integer; canonical a * sqrt(r), r
/// square-free, so sqrt(128) is 8 * sqrt(2) as kernels' constants read),
/// `pi`, `ln(2)`, `ln(10)`, `log2(e)`, `log2(10)`, `log10(2)`, `log10(e)`;
/// e.g. "1/sqrt(128)". Null with `error` set when the text is not one.
Term parseConstantExpression(TermContext &T, llvm::StringRef text,
                             std::string &error);

/// True for the positive constant atoms the readings are built from:
/// log(c) with a rational c > 1, sqrt(c) with c > 0, and pi(). The
/// normalizer treats them like exponentials (positive, so invertible).
bool isPositiveConstantAtom(Term t);

/// The atom log(2) (natural logarithm of 2).
Term ln2Atom(TermContext &T);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_TERMS_CONSTANTS_H
