//===- Rational.h - exact rationals over GMP --------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An exact rational number (GMP's mpq_t, always canonical: lowest terms,
// positive denominator). The engine's reals model uses it for constants,
// polynomial coefficients and counterexample values. gmpxx is not used: it
// throws, and kproof builds with -fno-exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_RATIONAL_H
#define KPROOF_VERIFIER_TERMS_RATIONAL_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <gmp.h>
#include <optional>
#include <string>

namespace kproof {

class Rational {
public:
  Rational() { mpq_init(q); }
  Rational(int64_t num, int64_t den = 1);
  Rational(const Rational &o) {
    mpq_init(q);
    mpq_set(q, o.q);
  }
  Rational(Rational &&o) noexcept {
    mpq_init(q);
    mpq_swap(q, o.q);
  }
  Rational &operator=(const Rational &o) {
    mpq_set(q, o.q);
    return *this;
  }
  Rational &operator=(Rational &&o) noexcept {
    mpq_swap(q, o.q);
    return *this;
  }
  ~Rational() { mpq_clear(q); }

  /// Parses "p", "-p/q" or a decimal "1.25" exactly; nullopt if malformed or
  /// with a zero denominator.
  static std::optional<Rational> parse(llvm::StringRef text);
  /// The exact value of a finite IEEE float; nullopt for inf/NaN.
  static std::optional<Rational> fromAPFloat(const llvm::APFloat &f);
  /// The value of a bit-vector read as signed or unsigned.
  static Rational fromAPInt(const llvm::APInt &v, bool isSigned);

  bool isZero() const { return mpq_sgn(q) == 0; }
  bool isOne() const { return mpq_cmp_si(q, 1, 1) == 0; }
  int sign() const { return mpq_sgn(q); }
  bool isInteger() const { return mpz_cmp_ui(mpq_denref(q), 1) == 0; }

  Rational operator+(const Rational &o) const;
  Rational operator-(const Rational &o) const;
  Rational operator*(const Rational &o) const;
  /// Exact quotient; the caller guarantees o != 0.
  Rational operator/(const Rational &o) const;
  Rational operator-() const;
  bool operator==(const Rational &o) const { return mpq_equal(q, o.q) != 0; }
  bool operator!=(const Rational &o) const { return !(*this == o); }
  bool operator<(const Rational &o) const { return mpq_cmp(q, o.q) < 0; }
  bool operator<=(const Rational &o) const { return mpq_cmp(q, o.q) <= 0; }

  /// "p" or "p/q" in lowest terms.
  std::string toString() const;
  /// The numerator and denominator as decimal strings.
  std::string numerator() const;
  std::string denominator() const;
  /// A double close to the value (for display only).
  double toDouble() const { return mpq_get_d(q); }
  size_t hash() const;

  const mpq_t &get() const { return q; }
  mpq_t &get() { return q; }

private:
  mpq_t q;
};

} // namespace kproof

#endif // KPROOF_VERIFIER_TERMS_RATIONAL_H
