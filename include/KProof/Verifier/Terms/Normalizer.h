//===- Normalizer.h - normal forms of real terms ----------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Closes most obligations without the solver (docs/design-notes.md). A real
// term is brought to a rational function P / Q of polynomials over *atoms*
// (input variables, max/min/ite terms, uninterpreted function values, and
// exponential atoms). Exponentials obey the rules of exponents, applied as
// rewrites, never as quantified axioms:
//
//   exp(c0 + sum c_k t_k) = exp(c0) * prod exp(t_k)^c_k   (integer c_k)
//
// so exp(x - m) / (exp(a - m) + exp(b - m)) cancels m exactly. Exponential
// atoms are positive, hence invertible: a monomial may carry negative powers
// of them (Laurent polynomials). Common monomial factors of P and Q cancel;
// this is sound because every division carries its own obligation Q != 0.
//
// Everything here is exact over the reals (GMP rationals); a normal form is
// a proof step, not a heuristic.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_NORMALIZER_H
#define KPROOF_VERIFIER_TERMS_NORMALIZER_H

#include "KProof/Verifier/Terms/Constants.h"
#include "KProof/Verifier/Terms/Term.h"

#include <map>
#include <optional>
#include <vector>

namespace kproof::engine {

/// A product of atoms with integer exponents, sorted by atom id. Negative
/// exponents appear only on positive atoms (exponentials).
using Monomial = std::vector<std::pair<Term, int>>;

struct MonomialLess {
  bool operator()(const Monomial &a, const Monomial &b) const;
};

/// A polynomial: monomial -> non-zero rational coefficient.
class Polynomial {
public:
  Polynomial() = default;
  static Polynomial constant(const Rational &c);
  static Polynomial atom(Term t);

  bool isZero() const { return terms.empty(); }
  /// The constant value if the polynomial has no atoms.
  std::optional<Rational> asConstant() const;
  const std::map<Monomial, Rational, MonomialLess> &getTerms() const {
    return terms;
  }
  size_t size() const { return terms.size(); }

  Polynomial operator+(const Polynomial &o) const;
  Polynomial operator-(const Polynomial &o) const;
  Polynomial operator*(const Polynomial &o) const;
  Polynomial scaled(const Rational &c) const;
  Polynomial timesMonomial(const Monomial &m) const;
  bool operator==(const Polynomial &o) const;

  void addTerm(const Monomial &m, const Rational &c);

private:
  std::map<Monomial, Rational, MonomialLess> terms;
};

/// P / Q with Q != 0 (an obligation of the division that produced it).
struct RationalFunction {
  Polynomial num;
  Polynomial den = Polynomial::constant(Rational(1));
};

class Normalizer {
public:
  explicit Normalizer(TermContext &ctx) : ctx(ctx) {}

  /// The normal form of a real term (memoized). Terms the normalizer does not
  /// decompose become atoms.
  const RationalFunction &normalize(Term t);

  /// True when `a == b` follows from normalization alone (given that every
  /// denominator involved is non-zero, which its own obligation checks).
  bool provesEqual(Term a, Term b);
  /// True when `t > 0` follows syntactically: numerator and denominator have
  /// only positive coefficients over positive atoms (exponentials, and ites
  /// whose arms are both provably positive: the values of merged states)
  /// and non-negative ones (ites with a positive or non-negative arm and a
  /// zero arm: masked terms of a sum, ite(c, exp(s - m), 0)), with some
  /// monomial of positive atoms only.
  bool provesPositive(Term t);
  /// True when `t != 0` follows (provesPositive of t or of -t, or a nonzero
  /// constant).
  bool provesNonZero(Term t);
  /// True when `t >= 0` follows as provesPositive's analysis reads it
  /// (positive coefficients over positive and non-negative atoms, or 0).
  bool provesNonNegative(Term t) { return termSign(t) >= kNonNegative; }

  /// The ex2 idiom (docs/design-notes.md "Transcendental constants, and the ex2
  /// idiom"): if `arg` normalizes to a polynomial L * f, L = `scale` (the f32
  /// constant log2(e) = 0f3FB8AA3B), where every coefficient of f is a dyadic
  /// rational (as float constants are: 1, -1, a softmax scale 1/sqrt(d) in
  /// f32), returns f, so that ex2(arg) can be read as exp(f); also of a
  /// quotient (L f) / h whose denominator's coefficients are dyadic and free of
  /// L (then f / h). Otherwise (exp2f(x) without L) null. The interpreter's
  /// exact mode tracks the same reading along the dataflow (Interpreter.cpp,
  /// Real::scaled). Known differences of the two readings: a scale that cancels
  /// ((L x + y) - y is read here, not there) and L in a denominator.
  Term matchScaledLinear(Term arg, const Rational &scale);

  /// A term for a polynomial / rational function (for solver residues).
  Term toTerm(const Polynomial &p);
  Term toTerm(const RationalFunction &f);

  /// `arg` = f / A for the positive constant atom `atom` = A (log(2): the
  /// exact log2(e) of a transcendental constant is 1 / log(2), Constants.h):
  /// every monomial of the numerator carries A^-1 exactly once and the
  /// denominator (if any) is free of A; returns f, else null. The ex2 idiom
  /// reads ex2(f * log2(e)) as exp(f) through it.
  Term matchInverseAtomScaled(Term arg, Term atom);

  /// True for atoms known to be positive: exp, exp2, and the constant atoms
  /// of transcendental constants (log(2), sqrt(2), pi(): Constants.h).
  static bool isPositiveAtom(Term t) {
    return t->getKind() == Kind::Exp || t->getKind() == Kind::Exp2 ||
           isPositiveConstantAtom(t);
  }

private:
  RationalFunction compute(Term t);
  RationalFunction expOf(Kind kind, const RationalFunction &arg, Term orig);
  /// max/min(A^e a, A^e b) as A^e max/min(a, b), for a positive constant
  /// atom A every monomial of both (polynomial) operands carries as A^e.
  std::optional<RationalFunction> commonConstantFactor(Term t);
  /// log(x) for an argument whose normal form is provably positive (as
  /// provesPositive reads it): the exponential atoms every monomial of
  /// the numerator (denominator) carries, at their least exponent, leave
  /// the log as the sum of their arguments (log(exp(a)) = a,
  /// log(exp2(a)) = a log(2)), beside one log atom of the rest's normal
  /// form. Null when the sign is not shown (log stays an atom).
  std::optional<RationalFunction> logOfPositive(Term t);
  /// Cancels common factors (cancelOnce) and reduces powers of square
  /// roots of constants (sqrt(2)^2 = 2, sqrt(2)^-1 = sqrt(2) / 2).
  void cancel(RationalFunction &f);
  void cancelOnce(RationalFunction &f);

  /// isPositiveAtom, or an ite (atom of the normal form) whose arms
  /// provesPositive proves positive.
  bool isPositive(Term atom);
  /// Signs the normal forms prove: kPositive (> 0), kNonNegative (>= 0).
  static constexpr int kUnknownSign = 0, kNonNegative = 1, kPositive = 2;
  int atomSign(Term atom);
  int termSign(Term t);
  int polynomialSign(const Polynomial &p);

  TermContext &ctx;
  std::map<unsigned, RationalFunction> memo; // by term id
  std::map<unsigned, int> iteSign;           // atomSign of ites, by id
};

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_TERMS_NORMALIZER_H
