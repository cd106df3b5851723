//===- Constants.cpp - float constants read as transcendental values ------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Constants.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>

using namespace kproof;
using namespace kproof::engine;

namespace {

/// The atoms: log(n), sqrt(n) of small integers, and pi().
Term logOf(TermContext &T, int n) { return T.realFn("log", {T.real(n)}); }
Term inverse(TermContext &T, Term t) { return T.div(T.real(1), t); }

/// A base value of the table: its name, its exact value in MPFR (at `out`'s
/// precision) and as a term.
struct Base {
  const char *name;
  void (*value)(mpfr_t out);
  Term (*term)(TermContext &T);
};

void logOfUi(mpfr_t out, unsigned long n) {
  mpfr_set_ui(out, n, MPFR_RNDN);
  mpfr_log(out, out, MPFR_RNDN);
}

/// out = log(a) / log(b) (a = 1: 1 / log(b)), at a higher precision first.
void logRatio(mpfr_t out, unsigned long a, unsigned long b) {
  mpfr_t x, y;
  mpfr_inits2(mpfr_get_prec(out) + 32, x, y, (mpfr_ptr) nullptr);
  if (a == 1)
    mpfr_set_ui(x, 1, MPFR_RNDN);
  else
    logOfUi(x, a);
  logOfUi(y, b);
  mpfr_div(out, x, y, MPFR_RNDN);
  mpfr_clears(x, y, (mpfr_ptr) nullptr);
}

const Base kBases[] = {
    {"1", [](mpfr_t o) { mpfr_set_ui(o, 1, MPFR_RNDN); },
     [](TermContext &T) { return T.real(1); }},
    {"log2(e)", [](mpfr_t o) { logRatio(o, 1, 2); },
     [](TermContext &T) { return inverse(T, logOf(T, 2)); }},
    {"ln(2)", [](mpfr_t o) { mpfr_const_log2(o, MPFR_RNDN); },
     [](TermContext &T) { return logOf(T, 2); }},
    {"ln(10)", [](mpfr_t o) { logOfUi(o, 10); },
     [](TermContext &T) { return logOf(T, 10); }},
    {"log2(10)", [](mpfr_t o) { logRatio(o, 10, 2); },
     [](TermContext &T) { return T.div(logOf(T, 10), logOf(T, 2)); }},
    {"log10(2)", [](mpfr_t o) { logRatio(o, 2, 10); },
     [](TermContext &T) { return T.div(logOf(T, 2), logOf(T, 10)); }},
    {"log10(e)", [](mpfr_t o) { logRatio(o, 1, 10); },
     [](TermContext &T) { return inverse(T, logOf(T, 10)); }},
    {"pi", [](mpfr_t o) { mpfr_const_pi(o, MPFR_RNDN); },
     [](TermContext &T) { return T.realFn("pi", {}); }},
};

/// The square-root factors a base is multiplied by: softmax scales
/// 1/sqrt(d) for d = 2^odd (128, 32, 512) are 2^k * sqrt(2) (1/sqrt(2) is
/// sqrt(2) / 2: one canonical form, the normalizer's), and nvcc folds such
/// a scale into log2(e).
struct Root {
  const char *name; // "" for 1
  int radicand;     // 1: none
};
const Root kRoots[] = {{"", 1}, {" * sqrt(2)", 2}};

constexpr mpfr_prec_t kPrecision = 256;
/// Power-of-two multiples 2^k * v, |k| <= kMaxShift, read alike (a float
/// times 2^k is exact, so rounding to nearest commutes with it).
constexpr int kMaxShift = 16;

/// A match: base, root, shift and sign.
struct Match {
  const Base *base = nullptr;
  const Root *root = nullptr;
  int shift = 0;
  bool negative = false;
  double relativeError = 0;
};

void valueOf(const Base &b, const Root &r, mpfr_t out) {
  b.value(out);
  if (r.radicand != 1) {
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(out) + 32);
    mpfr_sqrt_ui(s, r.radicand, MPFR_RNDN);
    mpfr_mul(out, out, s, MPFR_RNDN);
    mpfr_clear(s);
  }
}

/// The table value `c` reads as (c is 2^k v rounded to nearest in its
/// format); std::nullopt if none.
std::optional<Match> lookup(const llvm::APFloat &c) {
  const llvm::fltSemantics &sem = c.getSemantics();
  if ((&sem != &llvm::APFloat::IEEEsingle() &&
       &sem != &llvm::APFloat::IEEEdouble()) ||
      !c.isFiniteNonZero() || c.isDenormal())
    return std::nullopt;
  llvm::APFloat mag = llvm::abs(c);
  llvm::APFloat below = mag, above = mag;
  below.next(/*nextDown=*/true);
  above.next(/*nextDown=*/false);
  // Every f32 and f64 value is exactly a double.
  auto toDouble = [](llvm::APFloat f) {
    bool lost = false;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  };
  double lo = toDouble(below), hi = toDouble(above), mid = toDouble(mag);
  int exponent = llvm::ilogb(mag);
  mpfr_t v, rounded;
  mpfr_init2(v, kPrecision);
  // The format's precision: 24 bits (f32) or 53 (f64).
  mpfr_init2(rounded, llvm::APFloat::semanticsPrecision(sem));
  std::optional<Match> found;
  for (const Root &r : kRoots) {
    for (const Base &b : kBases) {
      if (r.radicand == 1 && llvm::StringRef(b.name) == "1")
        continue; // 2^k: exact, not a transcendental
      valueOf(b, r, v);
      // Bring v into c's binade: 2^k v with the exponent of c.
      int k = exponent - int(mpfr_get_exp(v) - 1);
      if (k < -kMaxShift || k > kMaxShift)
        continue;
      mpfr_mul_2si(v, v, k, MPFR_RNDN);
      // The constant must be v rounded to nearest in its format (its
      // other neighbour, one ulp away on the far side, is a different
      // number: two neighbours read as one value would cancel to 0).
      mpfr_set(rounded, v, MPFR_RNDN);
      if (mpfr_cmp_d(v, lo) > 0 && mpfr_cmp_d(v, hi) < 0 &&
          mpfr_cmp_d(rounded, mid) == 0) {
        Match m;
        m.base = &b;
        m.root = &r;
        m.shift = k;
        m.negative = c.isNegative();
        mpfr_t d;
        mpfr_init2(d, kPrecision);
        mpfr_sub_d(d, v, mid, MPFR_RNDN);
        mpfr_div(d, d, v, MPFR_RNDN);
        m.relativeError = std::fabs(mpfr_get_d(d, MPFR_RNDN));
        mpfr_clear(d);
        found = m;
        break;
      }
    }
    if (found)
      break;
  }
  mpfr_clear(v);
  mpfr_clear(rounded);
  return found;
}

/// "log2(e)", "-2 * pi", "log2(e) / sqrt(2) / 8", "1 / sqrt(2)".
std::string nameOf(const Match &m) {
  std::string core = m.base->name;
  if (m.root->radicand != 1)
    core = core == "1" ? "sqrt(" + std::to_string(m.root->radicand) + ")"
                       : core + m.root->name;
  if (m.shift > 0)
    core = std::to_string(1ll << m.shift) + " * " + core;
  else if (m.shift < 0)
    core += " / " + std::to_string(1ll << -m.shift);
  return (m.negative ? "-" : "") + core;
}

Term termOf(TermContext &T, const Match &m) {
  Term v = m.base->term(T);
  if (m.root->radicand != 1) {
    v = T.mul(v, T.realFn("sqrt", {T.real(m.root->radicand)}));
  }
  Rational scale = m.shift >= 0 ? Rational(int64_t(1) << m.shift)
                                : Rational(1, int64_t(1) << -m.shift);
  if (m.negative)
    scale = Rational(0) - scale;
  if (!scale.isOne())
    v = T.mul(T.real(scale), v);
  return v;
}

} // namespace

static TranscendentalConstant readingOf(const llvm::APFloat &c,
                                        const Match &m);

std::optional<TranscendentalConstant>
kproof::engine::matchTranscendental(const llvm::APFloat &c) {
  std::optional<Match> m = lookup(c);
  if (!m)
    return std::nullopt;
  return readingOf(c, *m);
}

/// The reading of `c` for its table match `m`.
static TranscendentalConstant readingOf(const llvm::APFloat &c,
                                        const Match &m) {
  TranscendentalConstant r;
  r.name = nameOf(m);
  llvm::APInt bits = c.bitcastToAPInt();
  bool single = &c.getSemantics() == &llvm::APFloat::IEEEsingle();
  std::string hex = llvm::utohexstr(bits.getZExtValue(), /*LowerCase=*/false,
                                    single ? 8 : 16);
  r.spelling = (single ? "0f" : "0d") + hex;
  r.relativeError = m.relativeError;
  return r;
}

std::string TranscendentalConstant::describe() const {
  char err[32];
  std::snprintf(err, sizeof(err), "%.1e", relativeError);
  return std::string(spelling.rfind("0f", 0) == 0 ? "f32" : "f64") +
         " constant " + spelling + " read as " + name + " (relative error " +
         err + ")";
}

Term kproof::engine::transcendentalTerm(TermContext &T,
                                        const llvm::APFloat &c) {
  std::optional<Match> m = lookup(c);
  return m ? termOf(T, *m) : nullptr;
}

bool kproof::engine::transcendentalValue(const llvm::APFloat &c, mpfr_t out) {
  std::optional<Match> m = lookup(c);
  if (!m)
    return false;
  mpfr_t v;
  mpfr_init2(v, std::max<mpfr_prec_t>(kPrecision, mpfr_get_prec(out) + 32));
  valueOf(*m->base, *m->root, v);
  mpfr_mul_2si(v, v, m->shift, MPFR_RNDN);
  if (m->negative)
    mpfr_neg(v, v, MPFR_RNDN);
  mpfr_set(out, v, MPFR_RNDN);
  mpfr_clear(v);
  return true;
}

Term kproof::engine::floatConstant(
    TermContext &T, const llvm::APFloat &c,
    std::optional<TranscendentalConstant> *reading) {
  if (reading)
    reading->reset();
  if (c.isNaN())
    return nullptr;
  if (c.isInfinity())
    return c.isNegative() ? T.negInf() : T.posInf();
  if (std::optional<Match> m = lookup(c)) {
    if (reading)
      *reading = readingOf(c, *m);
    return termOf(T, *m);
  }
  std::optional<Rational> q = Rational::fromAPFloat(c);
  return q ? T.real(*q) : nullptr;
}

bool kproof::engine::isPositiveConstantAtom(Term t) {
  if (t->getKind() != Kind::RealFn)
    return false;
  llvm::StringRef fn = t->getName();
  if (fn == "pi")
    return t->getNumOperands() == 0;
  if (t->getNumOperands() != 1 || !t->getOperand(0)->isRealConst())
    return false;
  const Rational &x = t->getOperand(0)->getRational();
  if (fn == "log")
    return Rational(1) < x;
  if (fn == "sqrt")
    return x.sign() > 0;
  return false;
}

Term kproof::engine::ln2Atom(TermContext &T) { return logOf(T, 2); }

/// sqrt(n) = a * sqrt(r), r square-free.
static Term canonicalSqrt(TermContext &T, uint64_t n) {
  uint64_t a = 1, r = n;
  for (uint64_t f = 2; f * f <= r; ++f)
    while (r % (f * f) == 0) {
      r /= f * f;
      a *= f;
    }
  Term root = r == 1 ? T.real(1) : T.realFn("sqrt", {T.real(int64_t(r))});
  return a == 1 ? root : T.mul(T.real(int64_t(a)), root);
}

Term kproof::engine::parseConstantExpression(TermContext &T,
                                             llvm::StringRef text,
                                             std::string &error) {
  llvm::StringRef rest = text.trim();
  auto fail = [&](const std::string &why) -> Term {
    error = "'" + text.str() + "' is not a constant expression (" + why +
            "): write products and quotients of positive integers, "
            "sqrt(n), pi, ln(2), ln(10), log2(e), log2(10), log10(2), "
            "log10(e)";
    return nullptr;
  };
  auto integer = [&](uint64_t &v) {
    size_t n = 0;
    while (n < rest.size() && llvm::isDigit(rest[n]))
      ++n;
    if (n == 0 || n > 12 || rest.take_front(n).getAsInteger(10, v) || v == 0)
      return false;
    rest = rest.drop_front(n).ltrim();
    return true;
  };
  auto factor = [&]() -> Term {
    uint64_t v = 0;
    llvm::StringRef save = rest;
    if (rest.consume_front("sqrt") &&
        (rest = rest.ltrim()).consume_front("(")) {
      rest = rest.ltrim();
      if (!integer(v) || !rest.consume_front(")"))
        return nullptr;
      rest = rest.ltrim();
      return canonicalSqrt(T, v);
    }
    rest = save;
    for (const Base &b : kBases) {
      llvm::StringRef name = b.name;
      if (name != "1" && rest.consume_front(name)) {
        rest = rest.ltrim();
        return b.term(T);
      }
    }
    if (integer(v))
      return T.real(int64_t(v));
    return nullptr;
  };
  Term acc = factor();
  if (!acc)
    return fail("expected a factor at '" + rest.str() + "'");
  while (!rest.empty()) {
    char op = rest.front();
    if (op != '*' && op != '/')
      return fail("expected '*' or '/' at '" + rest.str() + "'");
    rest = rest.drop_front().ltrim();
    Term f = factor();
    if (!f)
      return fail("expected a factor at '" + rest.str() + "'");
    acc = op == '*' ? T.mul(acc, f) : T.div(acc, f);
  }
  return acc;
}
