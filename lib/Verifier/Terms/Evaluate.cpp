//===- Evaluate.cpp - interval evaluation of terms with MPFR --------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Evaluate.h"
#include "KProof/Verifier/Terms/Constants.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace kproof;
using namespace kproof::engine;

//===----------------------------------------------------------------------===//
// Interval
//===----------------------------------------------------------------------===//

Interval::Interval(unsigned precisionBits) {
  mpfr_prec_t p = std::max<mpfr_prec_t>(precisionBits, MPFR_PREC_MIN);
  mpfr_init2(l, p);
  mpfr_init2(h, p);
  mpfr_set_zero(l, 1);
  mpfr_set_zero(h, 1);
}

Interval Interval::fromRational(const Rational &q, unsigned precisionBits) {
  Interval r(precisionBits);
  mpfr_set_q(r.l, q.get(), MPFR_RNDD);
  mpfr_set_q(r.h, q.get(), MPFR_RNDU);
  return r;
}

Interval Interval::fromDouble(double v, unsigned precisionBits) {
  Interval r(precisionBits);
  mpfr_set_d(r.l, v, MPFR_RNDD);
  mpfr_set_d(r.h, v, MPFR_RNDU);
  return r;
}

Interval::Interval(const Interval &o) {
  mpfr_init2(l, mpfr_get_prec(o.l));
  mpfr_init2(h, mpfr_get_prec(o.h));
  mpfr_set(l, o.l, MPFR_RNDD);
  mpfr_set(h, o.h, MPFR_RNDU);
}

Interval::Interval(Interval &&o) noexcept {
  mpfr_init2(l, MPFR_PREC_MIN);
  mpfr_init2(h, MPFR_PREC_MIN);
  mpfr_swap(l, o.l);
  mpfr_swap(h, o.h);
}

Interval &Interval::operator=(const Interval &o) {
  if (this == &o)
    return *this;
  mpfr_set_prec(l, mpfr_get_prec(o.l));
  mpfr_set_prec(h, mpfr_get_prec(o.h));
  mpfr_set(l, o.l, MPFR_RNDD);
  mpfr_set(h, o.h, MPFR_RNDU);
  return *this;
}

Interval &Interval::operator=(Interval &&o) noexcept {
  mpfr_swap(l, o.l);
  mpfr_swap(h, o.h);
  return *this;
}

Interval::~Interval() {
  mpfr_clear(l);
  mpfr_clear(h);
}

unsigned Interval::precision() const {
  return static_cast<unsigned>(mpfr_get_prec(l));
}

bool Interval::contains(long v) const {
  return mpfr_cmp_si(l, v) <= 0 && mpfr_cmp_si(h, v) >= 0;
}

bool Interval::contains(const Rational &q) const {
  return mpfr_cmp_q(l, q.get()) <= 0 && mpfr_cmp_q(h, q.get()) >= 0;
}

int Interval::sign() const {
  if (!isValid())
    return 0;
  if (mpfr_sgn(l) > 0)
    return 1;
  if (mpfr_sgn(h) < 0)
    return -1;
  return 0;
}

bool Interval::isPoint() const { return isValid() && mpfr_equal_p(l, h); }

bool Interval::isValid() const {
  return mpfr_number_p(l) && mpfr_number_p(h) && mpfr_lessequal_p(l, h);
}

std::optional<int> Interval::extendedPoint() const {
  if (mpfr_nan_p(l) && mpfr_nan_p(h))
    return 0;
  if (mpfr_inf_p(l) && mpfr_inf_p(h) && mpfr_sgn(l) == mpfr_sgn(h))
    return mpfr_sgn(l) < 0 ? -1 : 1;
  return std::nullopt;
}

Interval Interval::extended(int which, unsigned precisionBits) {
  Interval r(precisionBits);
  if (which == 0) {
    mpfr_set_nan(r.lo());
    mpfr_set_nan(r.hi());
  } else {
    mpfr_set_inf(r.lo(), which);
    mpfr_set_inf(r.hi(), which);
  }
  return r;
}

double Interval::width() const {
  mpfr_t w;
  mpfr_init2(w, mpfr_get_prec(l) + 1);
  mpfr_sub(w, h, l, MPFR_RNDU);
  double d = mpfr_get_d(w, MPFR_RNDU);
  mpfr_clear(w);
  return d;
}

double Interval::midpoint() const {
  mpfr_t m;
  mpfr_init2(m, mpfr_get_prec(l) + 1);
  mpfr_add(m, l, h, MPFR_RNDN);
  mpfr_div_2ui(m, m, 1, MPFR_RNDN);
  double d = mpfr_get_d(m, MPFR_RNDN);
  mpfr_clear(m);
  return d;
}

double Interval::loDouble() const { return mpfr_get_d(l, MPFR_RNDD); }
double Interval::hiDouble() const { return mpfr_get_d(h, MPFR_RNDU); }

std::string Interval::toString(unsigned digits) const {
  char *s = nullptr;
  int d = static_cast<int>(digits);
  if (mpfr_asprintf(&s, "[%.*RDe, %.*RUe]", d, l, d, h) < 0 || !s)
    return "[?, ?]";
  std::string out(s);
  mpfr_free_str(s);
  return out;
}

Interval Interval::hull(const Interval &a, const Interval &b) {
  Interval r(std::max(a.precision(), b.precision()));
  mpfr_min(r.l, a.l, b.l, MPFR_RNDD);
  mpfr_max(r.h, a.h, b.h, MPFR_RNDU);
  return r;
}

//===----------------------------------------------------------------------===//
// Interval operations (all outward rounded)
//===----------------------------------------------------------------------===//

namespace {

/// A scratch MPFR number (RAII).
struct Scratch {
  mpfr_t v;
  explicit Scratch(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Scratch() { mpfr_clear(v); }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  operator mpfr_ptr() { return v; }
};

using Fn2 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

/// The hull of op(x, y) over the four endpoint combinations: exact for
/// multiplication and for division by an interval without 0.
Interval cornerOp(const Interval &a, const Interval &b, Fn2 op,
                  unsigned prec) {
  Interval r(prec);
  Scratch t(prec);
  mpfr_srcptr as[2] = {a.lo(), a.hi()};
  mpfr_srcptr bs[2] = {b.lo(), b.hi()};
  bool first = true;
  for (mpfr_srcptr x : as)
    for (mpfr_srcptr y : bs) {
      op(t, x, y, MPFR_RNDD);
      if (first || mpfr_less_p(t, r.lo()))
        mpfr_set(r.lo(), t, MPFR_RNDD);
      op(t, x, y, MPFR_RNDU);
      if (first || mpfr_greater_p(t, r.hi()))
        mpfr_set(r.hi(), t, MPFR_RNDU);
      first = false;
    }
  return r;
}

Interval mulI(const Interval &a, const Interval &b, unsigned prec) {
  return cornerOp(a, b, mpfr_mul, prec);
}

Interval subI(const Interval &a, const Interval &b, unsigned prec) {
  Interval r(prec);
  mpfr_sub(r.lo(), a.lo(), b.hi(), MPFR_RNDD);
  mpfr_sub(r.hi(), a.hi(), b.lo(), MPFR_RNDU);
  return r;
}

/// x^n for n >= 1 (tighter than n multiplications when x contains 0).
Interval powI(const Interval &x, unsigned long n, unsigned prec) {
  Interval r(prec);
  if (n % 2 == 1 || mpfr_sgn(x.lo()) >= 0) {
    mpfr_pow_ui(r.lo(), x.lo(), n, MPFR_RNDD);
    mpfr_pow_ui(r.hi(), x.hi(), n, MPFR_RNDU);
  } else if (mpfr_sgn(x.hi()) <= 0) {
    mpfr_pow_ui(r.lo(), x.hi(), n, MPFR_RNDD);
    mpfr_pow_ui(r.hi(), x.lo(), n, MPFR_RNDU);
  } else {
    Scratch t(prec);
    mpfr_set_zero(r.lo(), 1);
    mpfr_pow_ui(r.hi(), x.lo(), n, MPFR_RNDU);
    mpfr_pow_ui(t, x.hi(), n, MPFR_RNDU);
    mpfr_max(r.hi(), r.hi(), t, MPFR_RNDU);
  }
  return r;
}

using Fn1 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

/// f(x) for a nondecreasing f.
Interval increasing(const Interval &x, Fn1 f, unsigned prec) {
  Interval r(prec);
  f(r.lo(), x.lo(), MPFR_RNDD);
  f(r.hi(), x.hi(), MPFR_RNDU);
  return r;
}

/// f(x) for a nonincreasing f.
Interval decreasing(const Interval &x, Fn1 f, unsigned prec) {
  Interval r(prec);
  f(r.lo(), x.hi(), MPFR_RNDD);
  f(r.hi(), x.lo(), MPFR_RNDU);
  return r;
}

int recip(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) {
  return mpfr_ui_div(r, 1, x, rnd);
}

/// sin(x) or cos(x). The extrema of sin lie at pi/2 + k*pi (value (-1)^k),
/// those of cos at k*pi (value (-1)^k). An enclosure of the k whose extremum
/// may lie in x is computed with an enclosure of pi: with none, the function
/// is monotonic on x and its endpoint values bound it; with one, its value
/// joins the hull; with two or more, the answer is [-1, 1].
Interval trig(const Interval &x, bool isCos, unsigned prec) {
  Fn1 f = isCos ? mpfr_cos : mpfr_sin;
  mpfr_prec_t wp = prec + 32;
  Scratch piLo(wp), piHi(wp), tLo(wp), tHi(wp), kLo(wp), kHi(wp);
  mpfr_const_pi(piLo, MPFR_RNDD);
  mpfr_const_pi(piHi, MPFR_RNDU);
  // t = x / pi (- 1/2 for sin), enclosed: dividing by the positive interval
  // [piLo, piHi], the lower bound uses piHi when x.lo >= 0, else piLo.
  mpfr_div(tLo, x.lo(), mpfr_sgn(x.lo()) >= 0 ? piHi : piLo, MPFR_RNDD);
  mpfr_div(tHi, x.hi(), mpfr_sgn(x.hi()) >= 0 ? piLo : piHi, MPFR_RNDU);
  if (!isCos) {
    mpfr_sub_d(tLo, tLo, 0.5, MPFR_RNDD);
    mpfr_sub_d(tHi, tHi, 0.5, MPFR_RNDU);
  }
  mpfr_ceil(kLo, tLo);
  mpfr_floor(kHi, tHi);
  Interval r(prec);
  if (!mpfr_number_p(kLo) || !mpfr_number_p(kHi)) {
    mpfr_set_si(r.lo(), -1, MPFR_RNDD);
    mpfr_set_si(r.hi(), 1, MPFR_RNDU);
    return r;
  }
  int count = mpfr_greater_p(kLo, kHi) ? 0 : 1;
  if (count) {
    Scratch next(wp);
    mpfr_add_ui(next, kLo, 1, MPFR_RNDN);
    if (mpfr_lessequal_p(next, kHi))
      count = 2;
  }
  if (count >= 2) {
    mpfr_set_si(r.lo(), -1, MPFR_RNDD);
    mpfr_set_si(r.hi(), 1, MPFR_RNDU);
    return r;
  }
  // Hull of the endpoint values.
  Scratch t(prec);
  f(r.lo(), x.lo(), MPFR_RNDD);
  f(t, x.hi(), MPFR_RNDD);
  mpfr_min(r.lo(), r.lo(), t, MPFR_RNDD);
  f(r.hi(), x.lo(), MPFR_RNDU);
  f(t, x.hi(), MPFR_RNDU);
  mpfr_max(r.hi(), r.hi(), t, MPFR_RNDU);
  if (count == 1) {
    mpz_t k;
    mpz_init(k);
    mpfr_get_z(k, kLo, MPFR_RNDN); // kLo is an integer: exact
    bool odd = mpz_odd_p(k);
    mpz_clear(k);
    if (odd)
      mpfr_set_si(r.lo(), -1, MPFR_RNDD);
    else
      mpfr_set_si(r.hi(), 1, MPFR_RNDU);
  }
  return r;
}

/// A short rendering of a term for messages.
std::string brief(Term t) { return t->toBriefString(160); }

} // namespace

//===----------------------------------------------------------------------===//
// Evaluator: the driver
//===----------------------------------------------------------------------===//

Evaluator::Evaluator(const Assignment &input, unsigned precisionBits)
    : input(input),
      precision(std::max<unsigned>(precisionBits, MPFR_PREC_MIN)) {}

bool Evaluator::isDone(Term t) const {
  switch (t->getSort()) {
  case Sort::Real:
    return reals.count(t);
  case Sort::BV:
    return bvs.count(t);
  case Sort::Bool:
    return truths.count(t);
  }
  return true;
}

const Interval *Evaluator::realOf(Term t) const {
  auto it = reals.find(t);
  if (it == reals.end() || !it->second)
    return nullptr;
  return &*it->second;
}

const llvm::APInt *Evaluator::bvOf(Term t) const {
  auto it = bvs.find(t);
  if (it == bvs.end() || !it->second)
    return nullptr;
  return &*it->second;
}

Truth Evaluator::truthOf(Term t) const {
  auto it = truths.find(t);
  return it == truths.end() ? Truth::Unknown : it->second;
}

void Evaluator::collectDeps(Term t, llvm::SmallVectorImpl<Term> &deps) const {
  if (t->getKind() == Kind::Ite) {
    Term c = t->getOperand(0);
    if (!isDone(c)) {
      deps.push_back(c);
      return;
    }
    switch (truthOf(c)) {
    case Truth::True:
      deps.push_back(t->getOperand(1));
      return;
    case Truth::False:
      deps.push_back(t->getOperand(2));
      return;
    case Truth::Unknown:
      if (failures.count(c))
        return; // the Ite fails with its condition
      deps.push_back(t->getOperand(1));
      deps.push_back(t->getOperand(2));
      return;
    }
  }
  if (t->isReduction()) {
    // The body is evaluated by computeReal, once per element of the range.
    deps.push_back(t->getOperand(0));
    deps.push_back(t->getOperand(1));
    return;
  }
  deps.append(t->getOperands().begin(), t->getOperands().end());
}

void Evaluator::run(Term root) {
  if (isDone(root))
    return;
  llvm::SmallVector<Term, 64> stack{root};
  llvm::SmallVector<Term, 4> deps;
  while (!stack.empty()) {
    Term t = stack.back();
    if (isDone(t)) {
      stack.pop_back();
      continue;
    }
    deps.clear();
    collectDeps(t, deps);
    bool pushed = false;
    for (Term d : deps)
      if (!isDone(d)) {
        stack.push_back(d);
        pushed = true;
      }
    if (pushed)
      continue;
    stack.pop_back();
    compute(t);
  }
}

void Evaluator::compute(Term t) {
  switch (t->getSort()) {
  case Sort::Real:
    computeReal(t);
    if (widening && isPositiveConstantAtom(t)) {
      // The atom stands for any float within 2^-widening of it.
      auto it = reals.find(t);
      if (it != reals.end() && it->second) {
        Interval &r = *it->second;
        mpfr_t d;
        mpfr_init2(d, precision);
        mpfr_mul_2si(d, r.lo(), -int(widening), MPFR_RNDU);
        mpfr_sub(r.lo(), r.lo(), d, MPFR_RNDD);
        mpfr_mul_2si(d, r.hi(), -int(widening), MPFR_RNDU);
        mpfr_add(r.hi(), r.hi(), d, MPFR_RNDU);
        mpfr_clear(d);
      }
    }
    return;
  case Sort::BV:
    computeBV(t);
    return;
  case Sort::Bool:
    computeBool(t);
    return;
  }
}

void Evaluator::fail(Term t, std::string message) {
  failures[t] = messages.size();
  messages.push_back(std::move(message));
  switch (t->getSort()) {
  case Sort::Real:
    reals[t] = std::nullopt;
    return;
  case Sort::BV:
    bvs[t] = std::nullopt;
    return;
  case Sort::Bool:
    truths[t] = Truth::Unknown;
    return;
  }
}

void Evaluator::failFrom(Term t, Term child) {
  auto it = failures.find(child);
  if (it == failures.end()) {
    fail(t, "evaluation of " + brief(child) + " failed");
    return;
  }
  unsigned index = it->second;
  failures[t] = index;
  switch (t->getSort()) {
  case Sort::Real:
    reals[t] = std::nullopt;
    return;
  case Sort::BV:
    bvs[t] = std::nullopt;
    return;
  case Sort::Bool:
    truths[t] = Truth::Unknown;
    return;
  }
}

std::string Evaluator::errorOf(Term t) const {
  auto it = failures.find(t);
  return it == failures.end() ? std::string() : messages[it->second];
}

void Evaluator::report(Term t) { error = errorOf(t); }

std::optional<Rational> Evaluator::realVarValue(llvm::StringRef name) const {
  auto it = input.reals.find(name.str());
  if (it != input.reals.end())
    return it->second;
  // "buffer[i]" may also be given through Assignment::elements.
  if (name.ends_with("]")) {
    size_t open = name.rfind('[');
    if (open != llvm::StringRef::npos && open > 0) {
      uint64_t index;
      if (!name.slice(open + 1, name.size() - 1).getAsInteger(10, index))
        return input.element(name.take_front(open).str(), index);
    }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

void Evaluator::computeReduction(Term t) {
  Term lo = t->getOperand(0), hi = t->getOperand(1), body = t->getOperand(2);
  const llvm::APInt *l = bvOf(lo), *h = bvOf(hi);
  if (!l || !h) {
    failFrom(t, !l ? lo : hi);
    return;
  }
  Kind kind = t->getKind();
  if (h->sle(*l)) {
    if (kind == Kind::SumOver)
      reals[t] = Interval::fromRational(Rational(0), precision);
    else // -inf (max), +inf (min): an extended point
      reals[t] = Interval::extended(kind == Kind::MaxOver ? -1 : 1, precision);
    return;
  }
  llvm::APInt count = *h - *l;
  if (count.getActiveBits() > 20 || count.getZExtValue() > kMaxReduction) {
    fail(t, "a reduction over more than " + std::to_string(kMaxReduction) +
                " elements is not evaluated: " + brief(t));
    return;
  }
  // The subterms of the body that depend on the bound variable: their
  // values change from one element to the next and are forgotten after
  // each (the rest stay memoized).
  std::string var = t->getName().str();
  llvm::SmallVector<Term> dependent;
  {
    llvm::DenseMap<Term, bool> dep;
    llvm::SmallVector<std::pair<Term, bool>, 32> stack{{body, false}};
    while (!stack.empty()) {
      auto [u, expanded] = stack.pop_back_val();
      if (dep.count(u))
        continue;
      if (!expanded) {
        stack.push_back({u, true});
        for (Term o : u->getOperands())
          if (!dep.count(o))
            stack.push_back({o, false});
        continue;
      }
      bool d = u->getKind() == Kind::BVVar && u->getName() == var;
      for (Term o : u->getOperands())
        d |= dep.lookup(o);
      dep[u] = d;
      if (d)
        dependent.push_back(u);
    }
  }
  auto forget = [&] {
    for (Term u : dependent) {
      reals.erase(u);
      bvs.erase(u);
      truths.erase(u);
      failures.erase(u);
    }
  };
  std::optional<Interval> acc;
  llvm::APInt j = *l;
  unsigned width = l->getBitWidth();
  auto saved = bound.find(var);
  std::optional<llvm::APInt> outer;
  if (saved != bound.end())
    outer = saved->second;
  for (uint64_t k = 0, e = count.getZExtValue(); k < e; ++k, ++j) {
    forget();
    bound[var] = j;
    run(body);
    const Interval *v = realOf(body);
    if (!v) {
      std::string why = errorOf(body);
      forget();
      bound.erase(var);
      fail(t, "element " + std::to_string(j.getSExtValue()) + " of " +
                  brief(t) + ": " + why);
      return;
    }
    if (!acc) {
      acc = *v;
    } else if (kind == Kind::SumOver) {
      mpfr_add(acc->lo(), acc->lo(), v->lo(), MPFR_RNDD);
      mpfr_add(acc->hi(), acc->hi(), v->hi(), MPFR_RNDU);
    } else if (kind == Kind::MaxOver) {
      mpfr_max(acc->lo(), acc->lo(), v->lo(), MPFR_RNDD);
      mpfr_max(acc->hi(), acc->hi(), v->hi(), MPFR_RNDU);
    } else {
      mpfr_min(acc->lo(), acc->lo(), v->lo(), MPFR_RNDD);
      mpfr_min(acc->hi(), acc->hi(), v->hi(), MPFR_RNDU);
    }
  }
  (void)width;
  forget();
  if (outer)
    bound[var] = *outer;
  else
    bound.erase(var);
  if (!acc->isValid()) {
    fail(t, "overflow or undefined value evaluating " + brief(t));
    return;
  }
  reals[t] = std::move(*acc);
}

//===----------------------------------------------------------------------===//
// Real terms
//===----------------------------------------------------------------------===//

void Evaluator::computeReal(Term t) {
  unsigned prec = precision;
  // Every operand that must be real-valued, checked for failure first.
  auto operandsOk = [&](llvm::ArrayRef<Term> ops) {
    for (Term o : ops)
      if (o->getSort() == Sort::Real ? !realOf(o) : failures.count(o)) {
        failFrom(t, o);
        return false;
      }
    return true;
  };
  auto set = [&](Interval r) {
    if (!r.isValid()) {
      fail(t, "overflow or undefined value evaluating " + brief(t));
      return;
    }
    reals[t] = std::move(r);
  };

  switch (t->getKind()) {
  case Kind::RealConst:
    set(Interval::fromRational(t->getRational(), prec));
    return;
  case Kind::NegInf:
  case Kind::PosInf:
  case Kind::NaN:
    reals[t] = Interval::extended(t->getKind() == Kind::NegInf   ? -1
                                  : t->getKind() == Kind::PosInf ? 1
                                                                 : 0,
                                  prec);
    return;
  case Kind::RealVar: {
    std::optional<Rational> v = realVarValue(t->getName());
    if (!v) {
      fail(t, "no value for real variable '" + t->getName().str() + "'");
      return;
    }
    set(Interval::fromRational(*v, prec));
    return;
  }
  case Kind::Select: {
    Term idx = t->getOperand(0);
    const llvm::APInt *i = bvOf(idx);
    if (!i) {
      failFrom(t, idx);
      return;
    }
    if (i->getActiveBits() > 64) {
      fail(t, "index of " + t->getName().str() + " does not fit in 64 bits");
      return;
    }
    uint64_t index = i->getZExtValue();
    std::optional<Rational> v = input.element(t->getName().str(), index);
    if (!v) {
      fail(t, "no value for element " + t->getName().str() + "[" +
                  std::to_string(index) + "]");
      return;
    }
    set(Interval::fromRational(*v, prec));
    return;
  }
  case Kind::BVToReal: {
    const llvm::APInt *v = bvOf(t->getOperand(0));
    if (!v) {
      failFrom(t, t->getOperand(0));
      return;
    }
    set(Interval::fromRational(Rational::fromAPInt(*v, t->isSigned()), prec));
    return;
  }
  case Kind::SumOver:
  case Kind::MaxOver:
  case Kind::MinOver:
    computeReduction(t);
    return;
  case Kind::Ite: {
    Term c = t->getOperand(0);
    if (failures.count(c)) {
      failFrom(t, c);
      return;
    }
    Truth truth = truthOf(c);
    if (truth != Truth::Unknown) {
      Term arm = t->getOperand(truth == Truth::True ? 1 : 2);
      if (!operandsOk({arm}))
        return;
      if (realOf(arm)->extendedPoint()) {
        reals[t] = *realOf(arm); // the extended value the case selects
        return;
      }
      set(*realOf(arm));
      return;
    }
    if (!operandsOk({t->getOperand(1), t->getOperand(2)}))
      return;
    set(Interval::hull(*realOf(t->getOperand(1)), *realOf(t->getOperand(2))));
    return;
  }
  default:
    break;
  }

  if (!operandsOk(t->getOperands()))
    return;
  auto arg = [&](unsigned i) -> const Interval & {
    return *realOf(t->getOperand(i));
  };

  switch (t->getKind()) {
  case Kind::Add: {
    Interval r = arg(0);
    for (unsigned i = 1, e = t->getNumOperands(); i < e; ++i) {
      mpfr_add(r.lo(), r.lo(), arg(i).lo(), MPFR_RNDD);
      mpfr_add(r.hi(), r.hi(), arg(i).hi(), MPFR_RNDU);
    }
    set(std::move(r));
    return;
  }
  case Kind::Mul: {
    // Equal operands are adjacent (sorted by id): multiply runs as powers.
    std::optional<Interval> r;
    auto ops = t->getOperands();
    for (size_t i = 0; i < ops.size();) {
      size_t j = i + 1;
      while (j < ops.size() && ops[j] == ops[i])
        ++j;
      const Interval &x = *realOf(ops[i]);
      Interval factor = j - i == 1 ? x : powI(x, j - i, prec);
      r = r ? mulI(*r, factor, prec) : std::move(factor);
      i = j;
    }
    set(std::move(*r));
    return;
  }
  case Kind::Div: {
    if (arg(1).contains(0)) {
      fail(t, "division by an interval that contains 0: " + brief(t) +
                  " with divisor in " + arg(1).toString(6));
      return;
    }
    set(cornerOp(arg(0), arg(1), mpfr_div, prec));
    return;
  }
  case Kind::Exp:
    set(increasing(arg(0), mpfr_exp, prec));
    return;
  case Kind::Exp2:
    set(increasing(arg(0), mpfr_exp2, prec));
    return;
  case Kind::Max: {
    Interval r(prec);
    mpfr_max(r.lo(), arg(0).lo(), arg(1).lo(), MPFR_RNDD);
    mpfr_max(r.hi(), arg(0).hi(), arg(1).hi(), MPFR_RNDU);
    set(std::move(r));
    return;
  }
  case Kind::Min: {
    Interval r(prec);
    mpfr_min(r.lo(), arg(0).lo(), arg(1).lo(), MPFR_RNDD);
    mpfr_min(r.hi(), arg(0).hi(), arg(1).hi(), MPFR_RNDU);
    set(std::move(r));
    return;
  }
  case Kind::RealFn: {
    llvm::StringRef fn = t->getName();
    if (fn == "pi" && t->getNumOperands() == 0) {
      Interval r(prec);
      mpfr_const_pi(r.lo(), MPFR_RNDD);
      mpfr_const_pi(r.hi(), MPFR_RNDU);
      set(std::move(r));
      return;
    }
    if (t->getNumOperands() != 1) {
      fail(t, "function '" + fn.str() + "' expects one argument, got " +
                  std::to_string(t->getNumOperands()));
      return;
    }
    const Interval &x = arg(0);
    auto domain = [&](bool strict, const char *what) {
      bool ok = strict ? mpfr_sgn(x.lo()) > 0 : mpfr_sgn(x.lo()) >= 0;
      if (!ok)
        fail(t, std::string(what) + " of an argument that may be " +
                    (strict ? "<= 0" : "negative") + ": " + brief(t) +
                    " with argument in " + x.toString(6));
      return ok;
    };
    if (fn == "sqrt") {
      if (domain(false, "sqrt"))
        set(increasing(x, mpfr_sqrt, prec));
    } else if (fn == "rsqrt") {
      if (domain(true, "rsqrt"))
        set(decreasing(x, mpfr_rec_sqrt, prec));
    } else if (fn == "lg2" || fn == "log2") {
      if (domain(true, "log2"))
        set(increasing(x, mpfr_log2, prec));
    } else if (fn == "log" || fn == "ln") {
      if (domain(true, "log"))
        set(increasing(x, mpfr_log, prec));
    } else if (fn == "rcp") {
      if (x.contains(0))
        fail(t, "reciprocal of an interval that contains 0: " + brief(t) +
                    " with argument in " + x.toString(6));
      else
        set(decreasing(x, recip, prec));
    } else if (fn == "tanh") {
      set(increasing(x, mpfr_tanh, prec));
    } else if (fn == "exp") {
      set(increasing(x, mpfr_exp, prec));
    } else if (fn == "exp2" || fn == "ex2") {
      set(increasing(x, mpfr_exp2, prec));
    } else if (fn == "sin" || fn == "cos") {
      set(trig(x, fn == "cos", prec));
    } else {
      fail(t, "no true function known for '" + fn.str() + "'");
    }
    return;
  }
  default:
    fail(t, "not a real term: " + brief(t));
    return;
  }
}

//===----------------------------------------------------------------------===//
// Bit-vector terms
//===----------------------------------------------------------------------===//

void Evaluator::computeBV(Term t) {
  unsigned w = t->getWidth();
  auto set = [&](llvm::APInt v) {
    if (v.getBitWidth() != w) {
      fail(t, "width mismatch evaluating " + brief(t));
      return;
    }
    bvs[t] = std::move(v);
  };
  switch (t->getKind()) {
  case Kind::BVConst:
    set(t->getAPInt());
    return;
  case Kind::Select: {
    // An integer element at a symbolic index: "buffer[i]" of the input.
    const llvm::APInt *i = bvOf(t->getOperand(0));
    if (!i) {
      failFrom(t, t->getOperand(0));
      return;
    }
    if (i->getActiveBits() > 64) {
      fail(t, "index of " + t->getName().str() + " does not fit in 64 bits");
      return;
    }
    std::optional<llvm::APInt> v =
        input.intElement(t->getName().str(), i->getZExtValue());
    if (!v || v->getBitWidth() != w) {
      fail(t, "no value for element " + t->getName().str() + "[" +
                  std::to_string(i->getZExtValue()) + "]");
      return;
    }
    set(*v);
    return;
  }
  case Kind::BVVar: {
    auto b = bound.find(t->getName());
    if (b != bound.end()) {
      bvs[t] = b->second;
      return;
    }
    auto it = input.bitvectors.find(t->getName().str());
    if (it == input.bitvectors.end()) {
      fail(t, "no value for bit-vector variable '" + t->getName().str() +
                  "'");
      return;
    }
    if (it->second.getBitWidth() != w) {
      fail(t, "value of bit-vector variable '" + t->getName().str() +
                  "' has width " + std::to_string(it->second.getBitWidth()) +
                  ", expected " + std::to_string(w));
      return;
    }
    set(it->second);
    return;
  }
  case Kind::Ite: {
    Term c = t->getOperand(0);
    if (failures.count(c)) {
      failFrom(t, c);
      return;
    }
    Truth truth = truthOf(c);
    llvm::SmallVector<Term, 2> arms;
    if (truth == Truth::True || truth == Truth::Unknown)
      arms.push_back(t->getOperand(1));
    if (truth == Truth::False || truth == Truth::Unknown)
      arms.push_back(t->getOperand(2));
    for (Term a : arms)
      if (!bvOf(a)) {
        failFrom(t, a);
        return;
      }
    if (arms.size() == 2 && *bvOf(arms[0]) != *bvOf(arms[1])) {
      fail(t, "undecided condition selects between different bit-vectors: " +
                  brief(t));
      return;
    }
    set(*bvOf(arms[0]));
    return;
  }
  case Kind::FloatBits:
    // The encoding of a rounded real is not evaluated: a value that
    // depends on it is not confirmed.
    fail(t, "the float bits of a real value are not evaluated: " + brief(t));
    return;
  default:
    break;
  }

  for (Term o : t->getOperands())
    if (!bvOf(o)) {
      failFrom(t, o);
      return;
    }
  auto arg = [&](unsigned i) -> const llvm::APInt & {
    return *bvOf(t->getOperand(i));
  };
  if (t->getNumOperands() == 2 && t->getKind() != Kind::BVConcat &&
      arg(0).getBitWidth() != arg(1).getBitWidth()) {
    fail(t, "operand widths differ in " + brief(t));
    return;
  }

  switch (t->getKind()) {
  case Kind::BVAdd:
    set(arg(0) + arg(1));
    return;
  case Kind::BVSub:
    set(arg(0) - arg(1));
    return;
  case Kind::BVMul:
    set(arg(0) * arg(1));
    return;
  case Kind::BVAnd:
    set(arg(0) & arg(1));
    return;
  case Kind::BVOr:
    set(arg(0) | arg(1));
    return;
  case Kind::BVXor:
    set(arg(0) ^ arg(1));
    return;
  case Kind::BVNot:
    set(~arg(0));
    return;
  case Kind::BVUDiv: {
    const llvm::APInt &a = arg(0), &b = arg(1);
    set(b.isZero() ? llvm::APInt::getAllOnes(a.getBitWidth()) : a.udiv(b));
    return;
  }
  case Kind::BVURem: {
    const llvm::APInt &a = arg(0), &b = arg(1);
    set(b.isZero() ? a : a.urem(b));
    return;
  }
  case Kind::BVSDiv: {
    // SMT-LIB: by 0, all ones for a >= 0 and 1 for a < 0 (the sign-adjusted
    // bvudiv); otherwise truncating division (INT_MIN / -1 wraps).
    const llvm::APInt &a = arg(0), &b = arg(1);
    if (b.isZero())
      set(a.isNegative() ? llvm::APInt(a.getBitWidth(), 1)
                         : llvm::APInt::getAllOnes(a.getBitWidth()));
    else
      set(a.sdiv(b));
    return;
  }
  case Kind::BVSRem: {
    const llvm::APInt &a = arg(0), &b = arg(1);
    set(b.isZero() ? a : a.srem(b));
    return;
  }
  case Kind::BVShl: {
    const llvm::APInt &a = arg(0), &b = arg(1);
    set(b.uge(a.getBitWidth()) ? llvm::APInt(a.getBitWidth(), 0) : a.shl(b));
    return;
  }
  case Kind::BVLShr: {
    const llvm::APInt &a = arg(0), &b = arg(1);
    set(b.uge(a.getBitWidth()) ? llvm::APInt(a.getBitWidth(), 0) : a.lshr(b));
    return;
  }
  case Kind::BVAShr: {
    const llvm::APInt &a = arg(0), &b = arg(1);
    set(b.uge(a.getBitWidth()) ? a.ashr(a.getBitWidth() - 1) : a.ashr(b));
    return;
  }
  case Kind::BVZExt:
    if (w < arg(0).getBitWidth()) {
      fail(t, "zext to a narrower width in " + brief(t));
      return;
    }
    set(arg(0).zext(w));
    return;
  case Kind::BVSExt:
    if (w < arg(0).getBitWidth()) {
      fail(t, "sext to a narrower width in " + brief(t));
      return;
    }
    set(arg(0).sext(w));
    return;
  case Kind::BVExtract:
    if (t->getExtractLow() + w > arg(0).getBitWidth()) {
      fail(t, "extract past the width in " + brief(t));
      return;
    }
    set(arg(0).extractBits(w, t->getExtractLow()));
    return;
  case Kind::BVConcat:
    set(arg(0).concat(arg(1)));
    return;
  default:
    fail(t, "not a bit-vector term: " + brief(t));
    return;
  }
}

//===----------------------------------------------------------------------===//
// Bool terms
//===----------------------------------------------------------------------===//

void Evaluator::computeBool(Term t) {
  auto set = [&](Truth v) { truths[t] = v; };
  auto fromBool = [](bool b) { return b ? Truth::True : Truth::False; };
  switch (t->getKind()) {
  case Kind::BoolConst:
    set(fromBool(t->getBoolValue()));
    return;
  case Kind::BoolVar: {
    auto it = input.bools.find(t->getName().str());
    if (it == input.bools.end()) {
      fail(t, "no value for boolean variable '" + t->getName().str() + "'");
      return;
    }
    set(fromBool(it->second));
    return;
  }
  case Kind::Not: {
    Term a = t->getOperand(0);
    if (failures.count(a)) {
      failFrom(t, a);
      return;
    }
    Truth v = truthOf(a);
    set(v == Truth::Unknown ? v : fromBool(v == Truth::False));
    return;
  }
  case Kind::And:
  case Kind::Or: {
    // Kleene logic: an absorbing operand decides even if another failed.
    Truth absorbing = t->getKind() == Kind::And ? Truth::False : Truth::True;
    Term failed = nullptr;
    bool unknown = false;
    for (Term o : t->getOperands()) {
      Truth v = truthOf(o);
      if (v == absorbing) {
        set(absorbing);
        return;
      }
      if (v == Truth::Unknown) {
        unknown = true;
        if (!failed && failures.count(o))
          failed = o;
      }
    }
    if (failed) {
      failFrom(t, failed);
      return;
    }
    set(unknown ? Truth::Unknown
                : (absorbing == Truth::False ? Truth::True : Truth::False));
    return;
  }
  case Kind::Ite: {
    Term c = t->getOperand(0);
    if (failures.count(c)) {
      failFrom(t, c);
      return;
    }
    Truth cv = truthOf(c);
    if (cv != Truth::Unknown) {
      Term arm = t->getOperand(cv == Truth::True ? 1 : 2);
      if (failures.count(arm)) {
        failFrom(t, arm);
        return;
      }
      set(truthOf(arm));
      return;
    }
    Term a = t->getOperand(1), b = t->getOperand(2);
    for (Term o : {a, b})
      if (failures.count(o)) {
        failFrom(t, o);
        return;
      }
    Truth va = truthOf(a), vb = truthOf(b);
    set(va == vb ? va : Truth::Unknown);
    return;
  }
  default:
    break;
  }

  for (Term o : t->getOperands())
    if (failures.count(o)) {
      failFrom(t, o);
      return;
    }
  Term a = t->getOperand(0), b = t->getOperand(1);

  switch (t->getKind()) {
  case Kind::RealLt:
  case Kind::RealLe: {
    const Interval &x = *realOf(a), &y = *realOf(b);
    bool strict = t->getKind() == Kind::RealLt;
    if (strict ? mpfr_less_p(x.hi(), y.lo()) : mpfr_lessequal_p(x.hi(), y.lo()))
      set(Truth::True);
    else if (strict ? mpfr_greaterequal_p(x.lo(), y.hi())
                    : mpfr_greater_p(x.lo(), y.hi()))
      set(Truth::False);
    else
      set(Truth::Unknown);
    return;
  }
  case Kind::Eq: {
    if (a == b) {
      set(Truth::True);
      return;
    }
    switch (a->getSort()) {
    case Sort::Real: {
      const Interval &x = *realOf(a), &y = *realOf(b);
      if (mpfr_less_p(x.hi(), y.lo()) || mpfr_less_p(y.hi(), x.lo()))
        set(Truth::False);
      else if (x.isPoint() && y.isPoint() && mpfr_equal_p(x.lo(), y.lo()))
        set(Truth::True);
      else
        set(Truth::Unknown);
      return;
    }
    case Sort::BV: {
      const llvm::APInt &x = *bvOf(a), &y = *bvOf(b);
      if (x.getBitWidth() != y.getBitWidth()) {
        fail(t, "operand widths differ in " + brief(t));
        return;
      }
      set(fromBool(x == y));
      return;
    }
    case Sort::Bool: {
      Truth x = truthOf(a), y = truthOf(b);
      set(x == Truth::Unknown || y == Truth::Unknown ? Truth::Unknown
                                                     : fromBool(x == y));
      return;
    }
    }
    return;
  }
  case Kind::BVUlt:
  case Kind::BVUle:
  case Kind::BVSlt:
  case Kind::BVSle: {
    const llvm::APInt &x = *bvOf(a), &y = *bvOf(b);
    if (x.getBitWidth() != y.getBitWidth()) {
      fail(t, "operand widths differ in " + brief(t));
      return;
    }
    bool r = false;
    switch (t->getKind()) {
    case Kind::BVUlt: r = x.ult(y); break;
    case Kind::BVUle: r = x.ule(y); break;
    case Kind::BVSlt: r = x.slt(y); break;
    default: r = x.sle(y); break;
    }
    set(fromBool(r));
    return;
  }
  default:
    fail(t, "not a boolean term: " + brief(t));
    return;
  }
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

std::optional<Interval> Evaluator::real(Term t) {
  if (!t) {
    error = "null term";
    return std::nullopt;
  }
  if (t->getSort() != Sort::Real) {
    error = "not a real term: " + brief(t);
    return std::nullopt;
  }
  run(t);
  report(t);
  if (const Interval *r = realOf(t))
    return *r;
  if (error.empty())
    error = "evaluation of " + brief(t) + " failed";
  return std::nullopt;
}

std::optional<llvm::APInt> Evaluator::bv(Term t) {
  if (!t) {
    error = "null term";
    return std::nullopt;
  }
  if (t->getSort() != Sort::BV) {
    error = "not a bit-vector term: " + brief(t);
    return std::nullopt;
  }
  run(t);
  report(t);
  if (const llvm::APInt *v = bvOf(t))
    return *v;
  if (error.empty())
    error = "evaluation of " + brief(t) + " failed";
  return std::nullopt;
}

Truth Evaluator::boolean(Term t) {
  if (!t) {
    error = "null term";
    return Truth::Unknown;
  }
  if (t->getSort() != Sort::Bool) {
    error = "not a boolean term: " + brief(t);
    return Truth::Unknown;
  }
  run(t);
  report(t);
  return truthOf(t);
}

std::optional<Interval> Evaluator::difference(Term a, Term b) {
  std::optional<Interval> x = real(a);
  if (!x)
    return std::nullopt;
  std::optional<Interval> y = real(b);
  if (!y)
    return std::nullopt;
  Interval d = subI(*x, *y, precision);
  if (!d.isValid()) {
    error = "overflow subtracting " + brief(b) + " from " + brief(a);
    return std::nullopt;
  }
  return d;
}

std::optional<bool> kproof::engine::definitelyDiffer(Term a, Term b,
                                                     const Assignment &input,
                                                     unsigned precisionBits,
                                                     std::string *error) {
  unsigned prec = precisionBits;
  if (a->getSort() == Sort::BV && b->getSort() == Sort::BV) {
    // Integer values (bit-vectors) are exact.
    Evaluator ev(input, prec);
    std::optional<llvm::APInt> x = ev.bv(a), y = ev.bv(b);
    if (!x || !y) {
      if (error)
        *error = ev.getError();
      return std::nullopt;
    }
    return *x != *y;
  }
  for (int attempt = 0; attempt < 2; ++attempt, prec *= 4) {
    Evaluator ev(input, prec);
    if (a->mayBeNonFinite() || b->mayBeNonFinite()) {
      // An extended value on either side: -inf and +inf equal themselves
      // only, NaN equals nothing (IEEE 754 equality).
      std::optional<Interval> x = ev.real(a), y = ev.real(b);
      if (x && y) {
        std::optional<int> ex = x->extendedPoint(), ey = y->extendedPoint();
        if (ex || ey) {
          if ((ex && *ex == 0) || (ey && *ey == 0))
            return true;
          if (ex && ey)
            return *ex != *ey;
          return true; // an infinity and a finite value
        }
      }
    }
    std::optional<Interval> d = ev.difference(a, b);
    if (!d) {
      // Undefinedness at this precision (a divisor's interval touching 0)
      // may resolve at the higher one.
      if (attempt == 1) {
        if (error)
          *error = ev.getError();
        return std::nullopt;
      }
      continue;
    }
    if (d->excludesZero())
      return true;
  }
  return false;
}
