//===- Evaluate.h - interval evaluation of terms with MPFR ------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Confirms counterexamples (docs/design-notes.md "Certificates restate the
// goal"): a term is evaluated at a concrete input (Assignment.h) with every
// function as its TRUE function (exp is e^x, ex2 is 2^x, a lifted idiom the
// function it stands for), in interval arithmetic over MPFR. Every interval
// encloses the exact value: lower bounds are rounded toward -inf, upper bounds
// toward +inf, and MPFR's functions are correctly rounded, so a bound computed
// in a direction is a true bound. A mismatch is confirmed only when the
// interval of kernel - spec excludes 0.
//
// Bit-vectors are evaluated exactly (SMT-LIB semantics), booleans in three
// values: a comparison of overlapping intervals is Unknown.
//
// Evaluation is iterative (no recursion on the DAG's depth) and memoized per
// term, so it is linear in the size of the DAG. An if-then-else evaluates
// only the arm its condition selects (both, hulled, when the condition is
// Unknown), so a guarded division by zero in the other arm is not an error.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_EVALUATE_H
#define KPROOF_VERIFIER_TERMS_EVALUATE_H

#include "KProof/Verifier/Terms/Assignment.h"
#include "KProof/Verifier/Terms/Rational.h"
#include "KProof/Verifier/Terms/Term.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <gmp.h>
#include <mpfr.h>
#include <optional>
#include <string>
#include <vector>

namespace kproof::engine {

/// A closed real interval [lo, hi] with MPFR endpoints of one precision,
/// which encloses an exact value. Owns its endpoints (RAII).
class Interval {
public:
  /// The point interval [0, 0].
  explicit Interval(unsigned precisionBits = 256);
  /// The tightest interval of the precision around `q` (a point if `q` is
  /// representable).
  static Interval fromRational(const Rational &q, unsigned precisionBits);
  /// The point interval [v, v] (every double is exact at precision >= 53).
  static Interval fromDouble(double v, unsigned precisionBits);

  Interval(const Interval &o);
  Interval(Interval &&o) noexcept;
  Interval &operator=(const Interval &o);
  Interval &operator=(Interval &&o) noexcept;
  ~Interval();

  mpfr_srcptr lo() const { return l; }
  mpfr_srcptr hi() const { return h; }
  /// Mutable endpoints, for code that builds an interval.
  mpfr_ptr lo() { return l; }
  mpfr_ptr hi() { return h; }
  unsigned precision() const;

  bool contains(long v) const;
  bool contains(const Rational &q) const;
  /// Both endpoints of the same sign and neither zero.
  bool excludesZero() const { return sign() != 0; }
  /// +1 if every value is > 0, -1 if every value is < 0, 0 otherwise.
  int sign() const;
  bool isPoint() const;
  /// Both endpoints finite (neither inf nor NaN) and lo <= hi.
  bool isValid() const;
  /// The point of an extended value: [-inf, -inf] (-1), [+inf, +inf] (+1),
  /// NaN (0); nullopt for any other interval. Only the value of an
  /// extended term (an infinity constant, NaN, an ite selecting one) is
  /// such a point; arithmetic never takes one (Term.h: lifted before).
  std::optional<int> extendedPoint() const;
  static Interval extended(int which, unsigned precisionBits);

  /// hi - lo, rounded up to a double.
  double width() const;
  /// (lo + hi) / 2 as the nearest double (for display).
  double midpoint() const;
  double loDouble() const; ///< lo rounded down to a double
  double hiDouble() const; ///< hi rounded up to a double

  /// "[lo, hi]" in scientific notation with `digits` digits after the point,
  /// printed outward (lo rounded down, hi rounded up).
  std::string toString(unsigned digits = 20) const;

  /// The smallest interval containing both.
  static Interval hull(const Interval &a, const Interval &b);

private:
  mpfr_t l, h;
};

/// The three-valued truth of a Bool term under interval evaluation.
enum class Truth { False, True, Unknown };

/// Evaluates terms at one input. Keep one Evaluator per input: results are
/// memoized per term (terms are hash-consed, so shared subterms are
/// evaluated once). Not thread-safe.
class Evaluator {
public:
  explicit Evaluator(const Assignment &input, unsigned precisionBits = 256);
  Evaluator(const Evaluator &) = delete;
  Evaluator &operator=(const Evaluator &) = delete;

  /// An interval enclosing the exact value of real term `t` under the input,
  /// every function its TRUE function: Exp = e^x, Exp2 = 2^x, RealFn "sqrt",
  /// "rsqrt", "lg2" (log2), "tanh", "sin", "cos" (also "rcp" = 1/x, "exp",
  /// "exp2"/"ex2", "log2", "log"/"ln" = natural log), Div (an error if the
  /// divisor's interval contains 0), Max/Min, Ite (the hull of both arms if
  /// the condition is Unknown), Select (the element from the assignment),
  /// BVToReal (exact), RealConst (the tightest enclosing interval),
  /// SumOver/MaxOver/MinOver element by element over their range (at most
  /// 65536 elements). The extended constants (-inf, +inf, NaN), a max
  /// (min) over an empty range, and an ite whose condition selects one
  /// evaluate to that point (Interval::extendedPoint).
  /// std::nullopt, with getError() set, when a value is missing, an operation
  /// is undefined or not provably defined at this precision (division by an
  /// interval containing 0, sqrt/log of a possibly negative argument), an
  /// arithmetic overflow, or `t` is not a real term.
  std::optional<Interval> real(Term t);
  /// The exact value of a BV term (SMT-LIB semantics: bvudiv by 0 is all
  /// ones, bvurem by 0 is the dividend, shifts >= width give 0 / sign fill).
  /// std::nullopt with getError() set if a variable is missing.
  std::optional<llvm::APInt> bv(Term t);
  /// The truth of a Bool term; a comparison of overlapping intervals is
  /// Unknown. Unknown is also the answer when evaluation fails, with
  /// getError() set (it is empty for a plain overlap).
  Truth boolean(Term t);
  /// An interval enclosing a - b for real terms a and b.
  std::optional<Interval> difference(Term a, Term b);

  /// Widens the value of each positive constant atom (log(2), sqrt(2),
  /// pi(): Constants.h) by a relative 2^-bits on both sides, so that an
  /// interval encloses the term for every float reading near the atoms
  /// (the conditioning check of closed arithmetic on read constants). Set
  /// before the first evaluation.
  void widenConstantAtoms(unsigned bits) { widening = bits; }

  /// Why the last call failed; empty after a call that succeeded.
  const std::string &getError() const { return error; }
  unsigned getPrecision() const { return precision; }

private:
  bool isDone(Term t) const;
  void collectDeps(Term t, llvm::SmallVectorImpl<Term> &deps) const;
  void run(Term root);
  void compute(Term t);
  void computeReal(Term t);
  void computeBV(Term t);
  void computeBool(Term t);
  /// Records that `t` failed with `message`.
  void fail(Term t, std::string message);
  /// Records that `t` failed because `child` failed (same message).
  void failFrom(Term t, Term child);
  /// The failure message of `t`, or "" if it did not fail.
  std::string errorOf(Term t) const;
  /// Sets `error` for the answer of a public call about `t`.
  void report(Term t);
  const Interval *realOf(Term t) const;
  const llvm::APInt *bvOf(Term t) const;
  Truth truthOf(Term t) const;
  std::optional<Rational> realVarValue(llvm::StringRef name) const;
  /// SumOver/MaxOver/MinOver: the body once per element of the range (at
  /// most kMaxReduction elements), the bound variable set in `bound`.
  void computeReduction(Term t);
  static constexpr uint64_t kMaxReduction = 1u << 16;
  /// Values of the bound variables of the reductions being evaluated.
  llvm::StringMap<llvm::APInt> bound;

  const Assignment &input;
  unsigned precision;
  unsigned widening = 0; ///< widenConstantAtoms; 0: exact

  llvm::DenseMap<Term, std::optional<Interval>> reals;
  llvm::DenseMap<Term, std::optional<llvm::APInt>> bvs;
  llvm::DenseMap<Term, Truth> truths;
  llvm::DenseMap<Term, unsigned> failures; ///< term -> index into messages
  std::vector<std::string> messages;
  std::string error;
};

/// Whether the interval of (a - b) excludes 0 at `precisionBits`, retrying
/// once at 4x the precision if it does not: true iff a and b definitely
/// differ at `input`, false if they may be equal. std::nullopt if evaluation
/// fails (`error`, when given, says why).
std::optional<bool> definitelyDiffer(Term a, Term b, const Assignment &input,
                                     unsigned precisionBits = 256,
                                     std::string *error = nullptr);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_TERMS_EVALUATE_H
