//===- Probe.cpp - random concrete inputs for an obligation ---------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Check/Probe.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Evaluate.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

using namespace kproof::engine;
using kproof::Rational;
using llvm::APInt;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

InputSampler::InputSampler(const TermContext &T, uint64_t seed)
    : T(T), state(seed) {}

void InputSampler::setIntRange(StringRef buffer, int64_t lo, int64_t hi) {
  intRanges[buffer.str()] = {lo, hi};
}

// splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
// generators", OOPSLA 2014): the same sequence on every platform.
uint64_t InputSampler::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t InputSampler::below(uint64_t n) { return n <= 1 ? 0 : next() % n; }

Rational InputSampler::drawReal(bool small) {
  if (small)
    return Rational(int64_t(below(5)) - 2);
  // Half the draws small integers in [-3, 3], half multiples of 1/4 in
  // [-4, 4]: exact in binary, readable, and distinct enough that a swapped
  // operand or a wrong coefficient shows.
  if (below(2))
    return Rational(int64_t(below(7)) - 3);
  return Rational(int64_t(below(33)) - 16, 4);
}

namespace {

/// Bounds on one BV variable, unsigned and inclusive.
struct Range {
  uint64_t lo = 0, hi = UINT64_MAX;
  std::optional<uint64_t> fixed;
  bool bounded = false;
};

} // namespace

Assignment InputSampler::draw(ArrayRef<Term> roots, ArrayRef<Term> conditions,
                              unsigned round) {
  bool small = round == 0;
  Assignment a;
  // Free variables and element reads, in creation order (term ids), so the
  // draw does not depend on the order of a hash set.
  SmallVector<Term> bvVars, realVars, boolVars, selects;
  {
    llvm::DenseSet<Term> seen;
    SmallVector<Term> work(roots.begin(), roots.end());
    work.append(conditions.begin(), conditions.end());
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (!seen.insert(t).second)
        continue;
      switch (t->getKind()) {
      case Kind::BVVar:
        // A reduction's bound variable is no input.
        if (!t->getName().starts_with("$r"))
          bvVars.push_back(t);
        break;
      case Kind::RealVar:
        realVars.push_back(t);
        break;
      case Kind::BoolVar:
        boolVars.push_back(t);
        break;
      case Kind::Select:
        selects.push_back(t);
        break;
      default:
        break;
      }
      for (Term o : t->getOperands())
        work.push_back(o);
    }
    auto byId = [](Term x, Term y) { return x->getId() < y->getId(); };
    llvm::sort(bvVars, byId);
    llvm::sort(realVars, byId);
    llvm::sort(boolVars, byId);
    llvm::sort(selects, byId);
  }

  auto intRangeOf = [&](StringRef name) -> const std::pair<int64_t, int64_t> * {
    size_t open = name.rfind('[');
    StringRef buffer = open == StringRef::npos ? name : name.take_front(open);
    auto it = intRanges.find(buffer.str());
    return it == intRanges.end() ? nullptr : &it->second;
  };
  auto drawInRange = [&](const std::pair<int64_t, int64_t> &r, unsigned w) {
    int64_t lo = r.first, hi = r.second; // [lo, hi)
    int64_t v = hi > lo ? lo + int64_t(below(uint64_t(hi - lo))) : lo;
    return APInt(w, uint64_t(v), /*isSigned=*/true);
  };

  // --- bit-vector variables, bounded by the path condition ---
  SmallVector<Term> conjuncts;
  for (Term c : conditions)
    conjuncts.append(conjunctsOf(c));
  // The value of a bound term under the variables drawn so far.
  auto valueOf = [&](Term t) -> std::optional<APInt> {
    if (t->getKind() == Kind::BVConst)
      return t->getAPInt();
    Evaluator ev(a, 64);
    return ev.bv(t);
  };
  SmallVector<Term> pending(bvVars.begin(), bvVars.end());
  for (unsigned pass = 0; pass < 3 && !pending.empty(); ++pass) {
    SmallVector<Term> deferred;
    for (Term v : pending) {
      unsigned w = v->getWidth();
      if (const auto *r = intRangeOf(v->getName())) {
        a.bitvectors[v->getName().str()] = drawInRange(*r, w);
        continue;
      }
      Range range;
      if (w < 64)
        range.hi = (uint64_t(1) << w) - 1;
      if (std::optional<uint64_t> ub = T.upperBound(v->getName())) {
        range.hi = std::min(range.hi, *ub);
        range.bounded = true;
      }
      bool waits = false;
      auto other = [&](Term x) -> std::optional<uint64_t> {
        std::optional<APInt> c = valueOf(x);
        if (!c) {
          waits = true;
          return std::nullopt;
        }
        if (c->getActiveBits() > 64)
          return std::nullopt;
        return c->getZExtValue();
      };
      for (Term c : conjuncts) {
        bool negated = c->getKind() == Kind::Not;
        Term atom = negated ? c->getOperand(0) : c;
        Kind k = atom->getKind();
        if (atom->getNumOperands() != 2)
          continue;
        Term l = atom->getOperand(0), r = atom->getOperand(1);
        if (l != v && r != v)
          continue;
        if (k == Kind::Eq && !negated && l->getSort() == Sort::BV) {
          if (std::optional<uint64_t> x = other(l == v ? r : l))
            range.fixed = *x;
          continue;
        }
        bool strict = k == Kind::BVUlt || k == Kind::BVSlt;
        bool isSigned = k == Kind::BVSlt || k == Kind::BVSle;
        if (k != Kind::BVUlt && k != Kind::BVUle && !isSigned)
          continue;
        // l < r (strict) or l <= r; negated: r <= l (strict) or r < l.
        if (negated) {
          std::swap(l, r);
          strict = !strict;
        }
        if (l == v) { // v < x or v <= x
          std::optional<uint64_t> x = other(r);
          if (!x || (isSigned && int64_t(*x) < 0 && w == 64))
            continue;
          if (isSigned && w < 64 && (*x >> (w - 1)) & 1)
            continue; // a negative signed bound: left to the check
          if (strict && *x == 0)
            continue;
          range.hi = std::min(range.hi, strict ? *x - 1 : *x);
          range.bounded = true;
        } else { // x < v or x <= v
          std::optional<uint64_t> x = other(l);
          if (!x)
            continue;
          if (isSigned && w < 64 && (*x >> (w - 1)) & 1)
            continue;
          range.lo = std::max(range.lo, strict ? *x + 1 : *x);
        }
      }
      if (waits && pass < 2) {
        deferred.push_back(v);
        continue;
      }
      uint64_t value;
      if (range.fixed) {
        value = *range.fixed;
      } else if (range.lo > range.hi) {
        value = range.lo; // contradictory bounds: the check rejects it
      } else {
        uint64_t span = range.hi - range.lo;
        uint64_t cap = small ? 4 : (below(8) == 0 ? 256 : 16);
        // A declared or stated bound: uniform within it when it is narrow
        // (a thread id below its extent); otherwise a small offset.
        if (range.bounded && span < (uint64_t(1) << 16))
          value = range.lo + below(span + 1);
        else
          value = range.lo + below(std::min<uint64_t>(span, cap - 1) + 1);
      }
      a.bitvectors[v->getName().str()] = APInt(w, value);
    }
    pending = std::move(deferred);
  }

  // --- reals and booleans ---
  for (Term v : realVars)
    a.reals[v->getName().str()] = drawReal(small);
  for (Term v : boolVars)
    a.bools[v->getName().str()] =
        v->getName() == nonFiniteFlag() ? false : bool(below(2));

  // --- elements at symbolic indices, in rounds ---
  llvm::DenseSet<Term> resolved;
  for (unsigned pass = 0; pass < 8 && resolved.size() < selects.size();
       ++pass) {
    bool progress = false;
    Evaluator ev(a, 64);
    SmallVector<std::pair<Term, uint64_t>> found;
    for (Term s : selects) {
      if (resolved.contains(s))
        continue;
      std::optional<APInt> i = ev.bv(s->getOperand(0));
      if (!i || i->getActiveBits() > 64)
        continue;
      found.push_back({s, i->getZExtValue()});
    }
    for (auto &[s, index] : found) {
      resolved.insert(s);
      progress = true;
      std::string buffer = s->getName().str();
      if (s->getSort() == Sort::Real) {
        if (!a.element(buffer, index))
          a.elements[buffer][index] = drawReal(small);
        continue;
      }
      unsigned w = s->getWidth();
      std::string name = buffer + "[" + std::to_string(index) + "]";
      if (a.bitvectors.count(name))
        continue;
      if (const auto *r = intRangeOf(buffer))
        a.bitvectors[name] = drawInRange(*r, w);
      else
        a.bitvectors[name] = APInt(w, below(small ? 4 : 16));
    }
    if (!progress)
      break;
  }
  for (Term s : selects) {
    std::string buffer = s->getName().str();
    if (s->getSort() == Sort::Real) {
      // An element read in a reduction's body (its index has the bound
      // variable) is never drawn one by one: the buffer's other elements
      // take one drawn value, so that sums and maxima are not all zero.
      bool inReduction = llvm::any_of(subterms({s->getOperand(0)}), [](Term u) {
        return u->getKind() == Kind::BVVar && u->getName().starts_with("$r");
      });
      a.elementDefaults.try_emplace(buffer,
                                    inReduction ? drawReal(small) : Rational(0));
    } else {
      const auto *r = intRangeOf(buffer);
      a.intElementDefaults.try_emplace(
          buffer, APInt(s->getWidth(), uint64_t(r ? r->first : 0),
                        /*isSigned=*/true));
    }
  }
  return a;
}
