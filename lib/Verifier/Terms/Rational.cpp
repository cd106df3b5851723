//===- Rational.cpp - exact rationals over GMP ----------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Rational.h"

#include "llvm/ADT/SmallString.h"

#include <cstring>
#include <functional>

using namespace kproof;

Rational::Rational(int64_t num, int64_t den) {
  mpq_init(q);
  // mpq_set_si takes a long numerator and an unsigned long denominator.
  if (den < 0) {
    num = -num;
    den = -den;
  }
  mpq_set_si(q, num, static_cast<unsigned long>(den ? den : 1));
  mpq_canonicalize(q);
}

std::optional<Rational> Rational::parse(llvm::StringRef text) {
  text = text.trim();
  if (text.empty())
    return std::nullopt;
  Rational r;
  auto [intPart, frac] = text.split('.');
  if (!frac.empty() || text.contains('.')) {
    // Decimal: digits.digits -> (intPart * 10^k + frac) / 10^k
    bool negative = intPart.consume_front("-");
    if (intPart.empty())
      intPart = "0";
    for (char c : intPart)
      if (c < '0' || c > '9')
        return std::nullopt;
    for (char c : frac)
      if (c < '0' || c > '9')
        return std::nullopt;
    std::string digits = intPart.str() + frac.str();
    std::string den = "1" + std::string(frac.size(), '0');
    std::string s = (negative ? "-" : "") + digits + "/" + den;
    if (mpq_set_str(r.q, s.c_str(), 10) != 0)
      return std::nullopt;
  } else {
    std::string s = text.str();
    if (mpq_set_str(r.q, s.c_str(), 10) != 0)
      return std::nullopt;
    if (mpz_sgn(mpq_denref(r.q)) == 0)
      return std::nullopt;
  }
  mpq_canonicalize(r.q);
  return r;
}

std::optional<Rational> Rational::fromAPFloat(const llvm::APFloat &f) {
  if (!f.isFinite())
    return std::nullopt;
  // Exact: convert to double-double is lossy for f64? An f32/f16/bf16/f64
  // value is m * 2^e exactly; read it through its decimal-free form.
  llvm::APFloat d = f;
  bool loses = false;
  d.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &loses);
  if (loses)
    return std::nullopt; // wider than f64: not produced by PTX types
  Rational r;
  mpq_set_d(r.q, d.convertToDouble());
  return r;
}

Rational Rational::fromAPInt(const llvm::APInt &v, bool isSigned) {
  llvm::SmallString<40> s;
  v.toString(s, 10, isSigned);
  Rational r;
  std::string str(s.str());
  mpq_set_str(r.q, str.c_str(), 10);
  mpq_canonicalize(r.q);
  return r;
}

Rational Rational::operator+(const Rational &o) const {
  Rational r;
  mpq_add(r.q, q, o.q);
  return r;
}
Rational Rational::operator-(const Rational &o) const {
  Rational r;
  mpq_sub(r.q, q, o.q);
  return r;
}
Rational Rational::operator*(const Rational &o) const {
  Rational r;
  mpq_mul(r.q, q, o.q);
  return r;
}
Rational Rational::operator/(const Rational &o) const {
  Rational r;
  mpq_div(r.q, q, o.q);
  return r;
}
Rational Rational::operator-() const {
  Rational r;
  mpq_neg(r.q, q);
  return r;
}

std::string Rational::toString() const {
  char *s = mpq_get_str(nullptr, 10, q);
  std::string out(s);
  void (*freefunc)(void *, size_t);
  mp_get_memory_functions(nullptr, nullptr, &freefunc);
  freefunc(s, std::strlen(s) + 1);
  return out;
}

static std::string mpzToString(const mpz_t z) {
  char *s = mpz_get_str(nullptr, 10, z);
  std::string out(s);
  void (*freefunc)(void *, size_t);
  mp_get_memory_functions(nullptr, nullptr, &freefunc);
  freefunc(s, std::strlen(s) + 1);
  return out;
}

std::string Rational::numerator() const { return mpzToString(mpq_numref(q)); }
std::string Rational::denominator() const {
  return mpzToString(mpq_denref(q));
}

size_t Rational::hash() const { return std::hash<std::string>()(toString()); }
