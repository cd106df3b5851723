//===- Normalizer.cpp - normal forms of real terms ------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Normalizer.h"

#include "llvm/ADT/STLExtras.h"

using namespace kproof;
using namespace kproof::engine;

//===----------------------------------------------------------------------===//
// Monomials and polynomials
//===----------------------------------------------------------------------===//

bool MonomialLess::operator()(const Monomial &a, const Monomial &b) const {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i].first->getId() != b[i].first->getId())
      return a[i].first->getId() < b[i].first->getId();
    if (a[i].second != b[i].second)
      return a[i].second < b[i].second;
  }
  return a.size() < b.size();
}

/// Largest exponent a monomial may carry. Beyond it (exp2(2^30 x) squared
/// ...) the normalizer gives up on the term (it becomes an atom), so
/// exponents never overflow and terms never blow up.
static constexpr int kMaxExponent = 64;
/// Set when a product exceeded kMaxExponent; checked by Normalizer.
static thread_local bool exponentOverflow = false;

/// The product of two monomials: exponents add; zero exponents vanish.
static Monomial multiply(const Monomial &a, const Monomial &b) {
  Monomial out;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() ||
        (i < a.size() && a[i].first->getId() < b[j].first->getId())) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].first->getId() < a[i].first->getId()) {
      out.push_back(b[j++]);
    } else {
      long e = long(a[i].second) + long(b[j].second);
      if (e > kMaxExponent || e < -kMaxExponent) {
        exponentOverflow = true;
        e = 0; // the result is discarded (see Normalizer::normalize)
      }
      if (e != 0)
        out.push_back({a[i].first, int(e)});
      ++i;
      ++j;
    }
  }
  return out;
}

Polynomial Polynomial::constant(const Rational &c) {
  Polynomial p;
  p.addTerm({}, c);
  return p;
}

Polynomial Polynomial::atom(Term t) {
  Polynomial p;
  p.addTerm({{t, 1}}, Rational(1));
  return p;
}

void Polynomial::addTerm(const Monomial &m, const Rational &c) {
  if (c.isZero())
    return;
  auto it = terms.find(m);
  if (it == terms.end()) {
    terms.emplace(m, c);
    return;
  }
  it->second = it->second + c;
  if (it->second.isZero())
    terms.erase(it);
}

std::optional<Rational> Polynomial::asConstant() const {
  if (terms.empty())
    return Rational(0);
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

Polynomial Polynomial::operator+(const Polynomial &o) const {
  Polynomial r = *this;
  for (auto &[m, c] : o.terms)
    r.addTerm(m, c);
  return r;
}

Polynomial Polynomial::operator-(const Polynomial &o) const {
  Polynomial r = *this;
  for (auto &[m, c] : o.terms)
    r.addTerm(m, -c);
  return r;
}

Polynomial Polynomial::operator*(const Polynomial &o) const {
  Polynomial r;
  for (auto &[m1, c1] : terms)
    for (auto &[m2, c2] : o.terms)
      r.addTerm(multiply(m1, m2), c1 * c2);
  return r;
}

Polynomial Polynomial::scaled(const Rational &c) const {
  Polynomial r;
  if (c.isZero())
    return r;
  for (auto &[m, k] : terms)
    r.terms.emplace(m, k * c);
  return r;
}

Polynomial Polynomial::timesMonomial(const Monomial &mono) const {
  Polynomial r;
  for (auto &[m, c] : terms)
    r.addTerm(multiply(m, mono), c);
  return r;
}

bool Polynomial::operator==(const Polynomial &o) const {
  if (terms.size() != o.terms.size())
    return false;
  auto a = terms.begin(), b = o.terms.begin();
  for (; a != terms.end(); ++a, ++b) {
    if (MonomialLess()(a->first, b->first) ||
        MonomialLess()(b->first, a->first))
      return false;
    if (a->second != b->second)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

const RationalFunction &Normalizer::normalize(Term t) {
  auto it = memo.find(t->getId());
  if (it != memo.end())
    return it->second;
  bool outer = exponentOverflow;
  exponentOverflow = false;
  RationalFunction f = compute(t);
  if (exponentOverflow) {
    // An exponent grew past kMaxExponent: keep the term opaque.
    f = RationalFunction();
    f.num = Polynomial::atom(t);
  }
  exponentOverflow = outer;
  return memo.emplace(t->getId(), std::move(f)).first->second;
}

static RationalFunction constantFn(const Rational &c) {
  RationalFunction f;
  f.num = Polynomial::constant(c);
  return f;
}

RationalFunction Normalizer::compute(Term t) {
  switch (t->getKind()) {
  case Kind::RealConst:
    return constantFn(t->getRational());
  case Kind::Add: {
    RationalFunction acc = normalize(t->getOperand(0));
    for (Term op : t->getOperands().drop_front()) {
      const RationalFunction &f = normalize(op);
      if (acc.den == f.den) {
        acc.num = acc.num + f.num;
      } else {
        acc.num = acc.num * f.den + f.num * acc.den;
        acc.den = acc.den * f.den;
      }
      cancel(acc);
    }
    return acc;
  }
  case Kind::Mul: {
    RationalFunction acc = normalize(t->getOperand(0));
    for (Term op : t->getOperands().drop_front()) {
      const RationalFunction &f = normalize(op);
      acc.num = acc.num * f.num;
      acc.den = acc.den * f.den;
      cancel(acc);
    }
    return acc;
  }
  case Kind::Div: {
    const RationalFunction &a = normalize(t->getOperand(0));
    const RationalFunction &b = normalize(t->getOperand(1));
    if (b.num.isZero()) {
      // Division by zero: the obligation fails; keep the term opaque.
      RationalFunction f;
      f.num = Polynomial::atom(t);
      return f;
    }
    RationalFunction f;
    f.num = a.num * b.den;
    f.den = a.den * b.num;
    cancel(f);
    return f;
  }
  case Kind::Exp:
  case Kind::Exp2:
    return expOf(t->getKind(), normalize(t->getOperand(0)), t);
  case Kind::RealFn:
    // lg2(y) = log(y) / log(2) (exact; log(2) is the atom the constants
    // ln(2) and log2(e) are read as, Constants.h), so lg2(s) * ln(2) is
    // log(s).
    if (t->getName() == "lg2" && t->getNumOperands() == 1) {
      if (Term l = ctx.realFn("log", {t->getOperand(0)})) {
        RationalFunction f = normalize(l);
        f.den = f.den.timesMonomial({{ln2Atom(ctx), 1}});
        cancel(f);
        return f;
      }
    }
    if (t->getName() == "log" && t->getNumOperands() == 1)
      if (std::optional<RationalFunction> f = logOfPositive(t))
        return *f;
    break;
  case Kind::Max:
  case Kind::Min:
    if (std::optional<RationalFunction> f = commonConstantFactor(t))
      return *f;
    break;
  case Kind::SumOver:
  case Kind::MaxOver:
  case Kind::MinOver: {
    // An atom, with its body and bounds in normal form: sum_j f(j) from a
    // kernel loop and from a spec meet as one term when their bodies are
    // equal as rational functions.
    Term body = toTerm(normalize(t->getOperand(2)));
    // (nonEmpty: the node's emptiness is handled where it was built.)
    Term r = ctx.reduce(t->getKind(), ctx.boundVar(t),
                        ctx.canonicalIndex(t->getOperand(0)),
                        ctx.canonicalIndex(t->getOperand(1)), body,
                        /*nonEmpty=*/true);
    if (!r)
      r = t;
    if (r->isRealConst())
      return constantFn(r->getRational());
    // A constant factor pulled out of a sum (TermContext::reduce): c times
    // the reduction atom of the rest.
    if (!r->isReduction())
      return normalize(r);
    RationalFunction f;
    f.num = Polynomial::atom(r);
    return f;
  }
  default:
    break;
  }
  RationalFunction f;
  f.num = Polynomial::atom(t);
  return f;
}

std::optional<RationalFunction> Normalizer::logOfPositive(Term t) {
  const RationalFunction x = normalize(t->getOperand(0));
  if (x.num.isZero() || polynomialSign(x.num) != kPositive ||
      polynomialSign(x.den) != kPositive)
    return std::nullopt;
  // The least exponent of each exponential atom over the monomials of p
  // (absent: 0).
  auto leastExponents = [](const Polynomial &p) {
    std::map<unsigned, std::pair<Term, int>> least;
    bool first = true;
    for (auto &[m, c] : p.getTerms()) {
      std::map<unsigned, std::pair<Term, int>> here;
      for (auto &[a, e] : m)
        if (a->getKind() == Kind::Exp || a->getKind() == Kind::Exp2)
          here[a->getId()] = {a, e};
      if (first) {
        least = std::move(here);
        first = false;
        continue;
      }
      for (auto &[id, ae] : least) {
        auto it = here.find(id);
        ae.second =
            std::min(ae.second, it == here.end() ? 0 : it->second.second);
      }
      for (auto &[id, ae] : here)
        if (!least.count(id))
          least[id] = {ae.first, std::min(ae.second, 0)};
    }
    return least;
  };
  RationalFunction rest = x, shift;
  shift.num = Polynomial();
  for (auto [p, sign] :
       {std::make_pair(&rest.num, 1), std::make_pair(&rest.den, -1)}) {
    Monomial strip;
    for (auto &[id, ae] : leastExponents(*p)) {
      auto [atom, e] = ae;
      if (e == 0)
        continue;
      strip.push_back({atom, -e});
      // log(exp(a)^e) = e a; log(exp2(a)^e) = e a log(2).
      RationalFunction arg = normalize(atom->getOperand(0));
      Polynomial scale = Polynomial::constant(Rational(sign * e));
      if (atom->getKind() == Kind::Exp2)
        scale = scale.timesMonomial({{ln2Atom(ctx), 1}});
      RationalFunction add;
      add.num = arg.num * scale;
      add.den = arg.den;
      shift.num = shift.num * add.den + add.num * shift.den;
      shift.den = shift.den * add.den;
      cancel(shift);
    }
    // Monomials are sorted by atom id.
    llvm::sort(strip, [](const auto &a, const auto &b) {
      return a.first->getId() < b.first->getId();
    });
    *p = p->timesMonomial(strip);
  }
  cancel(rest);
  // log(1) = 0: the argument was an exponential monomial.
  if (std::optional<Rational> c = rest.num.asConstant();
      c && c->isOne() && rest.den.asConstant() &&
      rest.den.asConstant()->isOne())
    return shift;
  // log(E r) = log(E) + log(r) for the exponential monomial E > 0 and
  // r > 0 (its coefficients and atoms positive, shown above): the log
  // of the rest is one atom over its normal form, so two arguments that
  // differ by an exponential factor (a sum of exp(s_j - m) in two frames
  // m) meet in it.
  Term inner = toTerm(rest);
  Term l = ctx.realFn("log", {inner});
  if (!l)
    return std::nullopt;
  RationalFunction f = shift;
  f.num = f.num + Polynomial::atom(l) * f.den;
  cancel(f);
  return f;
}

std::optional<RationalFunction> Normalizer::commonConstantFactor(Term t) {
  // max(A^e a, A^e b) = A^e max(a, b) for a positive constant atom A (the
  // max of two values scaled by log2(e), Constants.h): polynomial operands
  // whose every monomial carries A with one exponent e (a zero operand is
  // A^e * 0).
  const RationalFunction &a = normalize(t->getOperand(0));
  const RationalFunction &b = normalize(t->getOperand(1));
  if (!a.den.asConstant() || !a.den.asConstant()->isOne() ||
      !b.den.asConstant() || !b.den.asConstant()->isOne())
    return std::nullopt;
  std::optional<std::pair<Term, int>> common;
  bool first = true;
  for (const Polynomial *p : {&a.num, &b.num}) {
    for (auto &[m, c] : p->getTerms()) {
      std::optional<std::pair<Term, int>> here;
      for (auto &[atom, e] : m)
        if (isPositiveConstantAtom(atom) &&
            (first || (common && common->first == atom)))
          here = std::make_pair(atom, e);
      if (first) {
        common = here;
        first = false;
      } else if (!here || !common || *here != *common) {
        return std::nullopt;
      }
      if (!common)
        return std::nullopt;
    }
  }
  if (!common)
    return std::nullopt;
  Monomial strip = {{common->first, -common->second}};
  Polynomial pa = a.num.timesMonomial(strip), pb = b.num.timesMonomial(strip);
  Term sa = toTerm(pa), sb = toTerm(pb);
  // Their normal forms are known (toTerm of a polynomial is that
  // polynomial): a nest of maxima is not normalized again level by level.
  // (Sums and products only: an atom keeps the normal form it has.)
  for (auto [s, p] : {std::pair{sa, &pa}, std::pair{sb, &pb}}) {
    if (s->getKind() != Kind::Add && s->getKind() != Kind::Mul)
      continue;
    RationalFunction known;
    known.num = *p;
    memo.emplace(s->getId(), std::move(known));
  }
  Term inner = t->getKind() == Kind::Max ? ctx.max(sa, sb) : ctx.min(sa, sb);
  if (!inner)
    return std::nullopt;
  RationalFunction f = normalize(inner);
  f.num = f.num.timesMonomial({*common});
  cancel(f);
  return f;
}

RationalFunction Normalizer::expOf(Kind kind, const RationalFunction &arg,
                                   Term orig) {
  auto mkExp = [&](Term x) {
    return kind == Kind::Exp ? ctx.exp(x) : ctx.exp2(x);
  };
  std::optional<Rational> denConst = arg.den.asConstant();
  if (!denConst || denConst->isZero()) {
    RationalFunction f;
    f.num = Polynomial::atom(mkExp(toTerm(arg)));
    return f;
  }
  // exp(sum c_k m_k) = prod exp(m_k)^c_k for integer c_k; a non-integer
  // coefficient keeps exp(c_k m_k) as one atom.
  Polynomial result = Polynomial::constant(Rational(1));
  Rational inv = Rational(1) / *denConst;
  for (auto &[mono, coeff] : arg.num.getTerms()) {
    Rational c = coeff * inv;
    Term factor;
    int power = 1;
    if (mono.empty()) {
      factor = mkExp(ctx.real(c));
    } else {
      Polynomial single;
      single.addTerm(mono, Rational(1));
      Term m = toTerm(single);
      if (c.isInteger() && mpz_fits_sint_p(mpq_numref(c.get())) &&
          std::abs(mpz_get_si(mpq_numref(c.get()))) <= kMaxExponent) {
        factor = mkExp(m);
        power = static_cast<int>(mpz_get_si(mpq_numref(c.get())));
      } else {
        factor = mkExp(ctx.mul(ctx.real(c), m));
      }
    }
    if (factor->isRealConst()) {
      result = result.scaled(factor->getRational());
      continue;
    }
    result = result.timesMonomial({{factor, power}});
  }
  RationalFunction f;
  f.num = result;
  return f;
}

/// sqrt(c)^e = c^q * sqrt(c)^r, e = 2q + r, r in {0, 1}, for the constant
/// atoms sqrt(c) (Constants.h): one canonical form, so 1 / sqrt(2) and
/// sqrt(2) / 2 are one polynomial. False when nothing changed.
static bool reduceSquareRoots(Polynomial &p) {
  auto isRoot = [](Term a) {
    return a->getKind() == Kind::RealFn && a->getName() == "sqrt" &&
           isPositiveConstantAtom(a);
  };
  bool any = false;
  for (auto &[m, c] : p.getTerms())
    for (auto &[a, e] : m)
      any |= isRoot(a) && (e < 0 || e > 1);
  if (!any)
    return false;
  Polynomial out;
  for (auto &[m, c] : p.getTerms()) {
    Monomial reduced;
    Rational coeff = c;
    for (auto &[a, e] : m) {
      if (!isRoot(a) || (e >= 0 && e <= 1)) {
        reduced.push_back({a, e});
        continue;
      }
      int r = ((e % 2) + 2) % 2, q = (e - r) / 2;
      const Rational &radicand = a->getOperand(0)->getRational();
      for (int i = 0; i < (q > 0 ? q : -q); ++i)
        coeff = q > 0 ? coeff * radicand : coeff / radicand;
      if (r)
        reduced.push_back({a, 1});
    }
    out.addTerm(reduced, coeff);
  }
  p = out;
  return true;
}

void Normalizer::cancel(RationalFunction &f) {
  cancelOnce(f);
  for (int round = 0; round < 3; ++round) {
    bool num = reduceSquareRoots(f.num);
    bool den = reduceSquareRoots(f.den);
    if (!num && !den)
      return;
    cancelOnce(f);
  }
}

void Normalizer::cancelOnce(RationalFunction &f) {
  if (f.num.isZero()) {
    f.den = Polynomial::constant(Rational(1));
    return;
  }
  if (std::optional<Rational> c = f.den.asConstant()) {
    if (!c->isZero() && !c->isOne()) {
      f.num = f.num.scaled(Rational(1) / *c);
      f.den = Polynomial::constant(Rational(1));
    }
    if (c->isOne())
      return;
  }
  // Common monomial factor: the minimum exponent of each atom over every
  // monomial of P and Q (absent = 0).
  std::map<unsigned, std::pair<Term, int>> minExp;
  bool first = true;
  auto visit = [&](const Polynomial &p) {
    for (auto &[m, c] : p.getTerms()) {
      std::map<unsigned, int> here;
      for (auto &[a, e] : m)
        here[a->getId()] = e;
      if (first) {
        for (auto &[a, e] : m)
          minExp[a->getId()] = {a, e};
        first = false;
        // Atoms absent from this monomial have exponent 0: handled below.
        continue;
      }
      for (auto &[id, ae] : minExp) {
        auto h = here.find(id);
        int e = h == here.end() ? 0 : h->second;
        ae.second = std::min(ae.second, e);
      }
      for (auto &[a, e] : m)
        if (!minExp.count(a->getId()))
          minExp[a->getId()] = {a, std::min(0, e)};
    }
  };
  visit(f.num);
  visit(f.den);
  // The first monomial's atoms were taken at face value; an atom missing
  // from any later monomial was lowered to 0 above. Atoms absent from the
  // first monomial but present later were inserted with min(0, e).
  Monomial divisor;
  for (auto &[id, ae] : minExp)
    if (ae.second != 0)
      divisor.push_back({ae.first, -ae.second});
  if (!divisor.empty()) {
    f.num = f.num.timesMonomial(divisor);
    f.den = f.den.timesMonomial(divisor);
  }
  // A denominator that is one monomial of positive atoms moves up.
  if (f.den.size() == 1) {
    auto &[m, c] = *f.den.getTerms().begin();
    bool allPositive = llvm::all_of(
        m, [](const std::pair<Term, int> &a) { return isPositiveAtom(a.first); });
    if (allPositive) {
      Monomial inv;
      for (auto &[a, e] : m)
        inv.push_back({a, -e});
      f.num = f.num.timesMonomial(inv).scaled(Rational(1) / c);
      f.den = Polynomial::constant(Rational(1));
      return;
    }
  }
  // Canonical scale: the denominator's first coefficient is 1.
  Rational lead = f.den.getTerms().begin()->second;
  if (!lead.isOne()) {
    Rational inv = Rational(1) / lead;
    f.num = f.num.scaled(inv);
    f.den = f.den.scaled(inv);
  }
  // P == k * Q: a constant.
  if (f.num.size() == f.den.size()) {
    std::optional<Rational> k;
    bool proportional = true;
    auto a = f.num.getTerms().begin();
    auto b = f.den.getTerms().begin();
    for (; a != f.num.getTerms().end(); ++a, ++b) {
      if (MonomialLess()(a->first, b->first) ||
          MonomialLess()(b->first, a->first)) {
        proportional = false;
        break;
      }
      Rational r = a->second / b->second;
      if (k && *k != r) {
        proportional = false;
        break;
      }
      k = r;
    }
    if (proportional && k) {
      f.num = Polynomial::constant(*k);
      f.den = Polynomial::constant(Rational(1));
    }
  }
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool Normalizer::provesEqual(Term a, Term b) {
  if (a == b)
    return true;
  const RationalFunction &fa = normalize(a);
  const RationalFunction &fb = normalize(b);
  if (fa.den == fb.den)
    return fa.num == fb.num;
  exponentOverflow = false;
  bool equal = (fa.num * fb.den) == (fb.num * fa.den);
  // A product whose exponents overflowed proves nothing.
  bool overflowed = exponentOverflow;
  exponentOverflow = false;
  return equal && !overflowed;
}

bool Normalizer::isPositive(Term atom) { return atomSign(atom) == kPositive; }

int Normalizer::atomSign(Term atom) {
  if (isPositiveAtom(atom))
    return kPositive;
  if (atom->getKind() != Kind::Ite || atom->getSort() != Sort::Real)
    return kUnknownSign;
  // The value of merged states (or of a masked element, ite(c, e, 0)) is
  // one of the ite's arms.
  auto it = iteSign.find(atom->getId());
  if (it != iteSign.end())
    return it->second;
  int sign = std::min(termSign(atom->getOperand(1)),
                      termSign(atom->getOperand(2)));
  iteSign[atom->getId()] = sign;
  return sign;
}

/// kPositive when every coefficient is positive, every atom positive or
/// non-negative (the latter with positive exponents only) and some
/// monomial has only positive atoms; kNonNegative for zero or when no
/// monomial is all positive; kUnknownSign otherwise.
int Normalizer::polynomialSign(const Polynomial &p) {
  if (p.isZero())
    return kNonNegative;
  bool somePositive = false;
  for (auto &[m, c] : p.getTerms()) {
    if (c.sign() <= 0)
      return kUnknownSign;
    bool allPositive = true;
    for (auto &[a, e] : m) {
      int s = atomSign(a);
      if (s == kUnknownSign || (s == kNonNegative && e < 0))
        return kUnknownSign;
      allPositive = allPositive && s == kPositive;
    }
    somePositive = somePositive || allPositive;
  }
  return somePositive ? kPositive : kNonNegative;
}

int Normalizer::termSign(Term t) {
  const RationalFunction &f = normalize(t);
  if (f.num.isZero())
    return kNonNegative;
  if (polynomialSign(f.den) != kPositive)
    return kUnknownSign;
  return polynomialSign(f.num);
}

bool Normalizer::provesPositive(Term t) { return termSign(t) == kPositive; }

bool Normalizer::provesNonZero(Term t) {
  // The value of merged states is one of the ite's arms.
  if (t->getKind() == Kind::Ite)
    return provesNonZero(t->getOperand(1)) && provesNonZero(t->getOperand(2));
  const RationalFunction &f = normalize(t);
  if (std::optional<Rational> c = f.num.asConstant())
    return !c->isZero();
  if (polynomialSign(f.den) != kPositive &&
      polynomialSign(f.den.scaled(Rational(-1))) != kPositive)
    return false;
  return polynomialSign(f.num) == kPositive ||
         polynomialSign(f.num.scaled(Rational(-1))) == kPositive;
}

Term Normalizer::matchScaledLinear(Term arg, const Rational &scale) {
  const RationalFunction &f = normalize(arg);
  std::optional<Rational> den = f.den.asConstant();
  if ((den && !den->isOne()) || f.num.isZero())
    return nullptr;
  auto dyadic = [](const Rational &q) {
    mpz_srcptr d = mpq_denref(q.get());
    return mpz_scan1(d, 0) == mpz_sizeinbase(d, 2) - 1;
  };
  // A quotient (L g) / h: h's coefficients must not carry the scale (the
  // interpreter reads (L g) / h as L (g / h), and x / (L h) as no idiom).
  if (!den)
    for (auto &[m, c] : f.den.getTerms())
      if (!dyadic(c) || dyadic(c / scale))
        return nullptr;
  // arg = scale * f where every coefficient of f is a dyadic rational (a
  // power-of-two denominator, as every float constant is): the scale is
  // then an explicit factor of each term. A coefficient that is not a
  // multiple of the scale (exp2f(x) alone: 1 / 0f3FB8AA3B) has the scale's
  // odd numerator in its denominator and does not match.
  Polynomial g;
  for (auto &[m, c] : f.num.getTerms()) {
    Rational q = c / scale;
    if (!dyadic(q))
      return nullptr; // the denominator is not a power of two
    g.addTerm(m, q);
  }
  if (!den)
    return ctx.div(toTerm(g), toTerm(f.den));
  return toTerm(g);
}

Term Normalizer::matchInverseAtomScaled(Term arg, Term atom) {
  const RationalFunction &f = normalize(arg);
  if (f.num.isZero())
    return nullptr;
  auto power = [&](const Monomial &m) {
    for (auto &[a, e] : m)
      if (a == atom)
        return e;
    return 0;
  };
  if (!f.den.asConstant())
    for (auto &[m, c] : f.den.getTerms())
      if (power(m) != 0)
        return nullptr;
  Polynomial g;
  for (auto &[m, c] : f.num.getTerms()) {
    if (power(m) != -1)
      return nullptr;
    Monomial rest;
    for (auto &ae : m)
      if (ae.first != atom)
        rest.push_back(ae);
    g.addTerm(rest, c);
  }
  RationalFunction r;
  r.num = g;
  r.den = f.den;
  return toTerm(r);
}

//===----------------------------------------------------------------------===//
// Back to terms
//===----------------------------------------------------------------------===//

Term Normalizer::toTerm(const Polynomial &p) {
  llvm::SmallVector<Term, 8> summands;
  for (auto &[m, c] : p.getTerms()) {
    llvm::SmallVector<Term, 4> factors;
    llvm::SmallVector<Term, 4> inverse;
    factors.push_back(ctx.real(c));
    for (auto &[a, e] : m) {
      for (int i = 0; i < (e > 0 ? e : -e); ++i)
        (e > 0 ? factors : inverse).push_back(a);
    }
    Term prod = ctx.mul(factors);
    if (!inverse.empty())
      prod = ctx.div(prod, ctx.mul(inverse));
    summands.push_back(prod);
  }
  if (summands.empty())
    return ctx.real(0);
  return ctx.add(summands);
}

Term Normalizer::toTerm(const RationalFunction &f) {
  Term n = toTerm(f.num);
  std::optional<Rational> d = f.den.asConstant();
  if (d && d->isOne())
    return n;
  return ctx.div(n, toTerm(f.den));
}
