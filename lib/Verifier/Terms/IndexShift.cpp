//===- IndexShift.cpp - terms that differ by shifted indices --------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/IndexShift.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>

using namespace kproof;
using namespace kproof::engine;
using llvm::StringRef;

namespace {

/// `k` at `width` bits.
Term atWidth(TermContext &T, Term k, unsigned width) {
  unsigned w = k->getWidth();
  if (w == width)
    return k;
  return w < width ? T.bvZExt(k, width) : T.bvExtract(k, 0, width);
}

bool isCommutative(Kind k) {
  return k == Kind::Add || k == Kind::Mul || k == Kind::And || k == Kind::Or;
}

/// The anti-unifier. Each differing BV leaf is shifted by a constant e
/// per unit of k; one e per buffer (the Select the leaf indexes, "" for
/// a leaf outside any), so that the operands of a sum, which construction
/// orders by term id, pair up as the same element in the next column.
struct AntiUnifier {
  TermContext &T;
  Term k;
  using Shifts = std::map<std::string, __int128>;
  struct Entry {
    Term result;
    Shifts needs; ///< the shifts the result was built with
  };
  std::map<std::tuple<Term, Term, std::string>, Entry, std::less<>> memo;

  static bool consistent(const Shifts &have, const Shifts &needs) {
    for (auto &[b, e] : needs) {
      auto it = have.find(b);
      if (it != have.end() && it->second != e)
        return false;
    }
    return true;
  }

  /// Template of (x, y) in context `ctx`, consistent with `shifts` and
  /// adding the shifts it needs; null when none.
  Term au(Term x, Term y, const std::string &ctx, Shifts &shifts) {
    if (x == y)
      return x;
    auto key = std::make_tuple(x, y, ctx);
    auto it = memo.find(key);
    if (it == memo.end()) {
      Entry e = compute(x, y, ctx);
      it = memo.emplace(key, std::move(e)).first;
    }
    const Entry &e = it->second;
    if (!e.result || !consistent(shifts, e.needs))
      return nullptr;
    shifts.insert(e.needs.begin(), e.needs.end());
    return e.result;
  }

  Entry compute(Term x, Term y, const std::string &ctx) {
    Shifts needs;
    if (x->getSort() == Sort::BV && y->getSort() == Sort::BV &&
        x->getWidth() == y->getWidth() && x->getWidth() <= 64) {
      // The index normal forms c0 + sum c_i a_i of both (constant last or
      // alone): the same but for the constant.
      auto split = [&](Term t) -> std::pair<Term, llvm::APInt> {
        t = T.canonicalIndex(t);
        if (t->getKind() == Kind::BVConst)
          return {nullptr, t->getAPInt()};
        if (t->getKind() == Kind::BVAdd)
          for (int i = 0; i < 2; ++i)
            if (t->getOperand(i)->getKind() == Kind::BVConst)
              return {t->getOperand(1 - i), t->getOperand(i)->getAPInt()};
        return {t, llvm::APInt(t->getWidth(), 0)};
      };
      auto [rx, cx] = split(x);
      auto [ry, cy] = split(y);
      llvm::APInt e = cy - cx;
      if (rx == ry && e.getSignificantBits() <= 64) {
        needs[ctx] = __int128(e.getSExtValue());
        return {T.bvBin(Kind::BVAdd, x,
                        T.bvBin(Kind::BVMul, atWidth(T, k, x->getWidth()),
                                T.bv(e))),
                needs};
      }
    }
    // Elements at constant indices are variables named "B[i]"
    // (TermContext::element): the index i shifts like any other.
    auto constElement =
        [](Term t) -> std::optional<std::pair<StringRef, uint64_t>> {
      if (t->getKind() != Kind::RealVar && t->getKind() != Kind::BVVar)
        return std::nullopt;
      StringRef name = t->getName();
      if (!name.ends_with("]") || !name.contains('['))
        return std::nullopt;
      auto [buffer, rest] = name.rsplit('[');
      uint64_t i;
      if (buffer.empty() || rest.drop_back().getAsInteger(10, i))
        return std::nullopt;
      return std::make_pair(buffer, i);
    };
    if (x->getKind() == y->getKind() && x->getWidth() == y->getWidth()) {
      auto ex = constElement(x), ey = constElement(y);
      if (ex && ey && ex->first == ey->first) {
        __int128 e = __int128(ey->second) - __int128(ex->second);
        needs[ex->first.str()] = e;
        Term index =
            T.bvBin(Kind::BVAdd, T.bv(ex->second, 64),
                    T.bvBin(Kind::BVMul, atWidth(T, k, 64),
                            T.bv(llvm::APInt(64, uint64_t(int64_t(e)), true))));
        return {x->getKind() == Kind::RealVar
                    ? T.element(ex->first, index)
                    : T.intElement(ex->first, index, x->getWidth()),
                needs};
      }
    }
    if (x->getKind() != y->getKind() || x->getSort() != y->getSort() ||
        x->getNumOperands() != y->getNumOperands() ||
        x->getNumOperands() == 0) {
      return {nullptr, {}};
    }
    std::string inner = x->getKind() == Kind::Select ? x->getName().str() : ctx;
    llvm::SmallVector<Term> ops;
    if (!isCommutative(x->getKind())) {
      for (unsigned i = 0; i < x->getNumOperands(); ++i) {
        Term o = au(x->getOperand(i), y->getOperand(i), inner, needs);
        if (!o)
          return {nullptr, {}};
        ops.push_back(o);
      }
      return {T.rebuild(x, ops), needs};
    }
    // Operands in term-id order: equal ones pair up first, then each
    // other operand of x with the operand of y whose template needs the
    // fewest new shifts (none when it agrees with those already chosen;
    // else the smallest |e|).
    llvm::SmallVector<Term> xs(x->getOperands().begin(),
                               x->getOperands().end());
    llvm::SmallVector<Term> ys(y->getOperands().begin(),
                               y->getOperands().end());
    llvm::SmallVector<Term> restX;
    for (Term o : xs) {
      auto same = llvm::find(ys, o);
      if (same != ys.end()) {
        ops.push_back(o);
        ys.erase(same);
      } else {
        restX.push_back(o);
      }
    }
    for (Term o : restX) {
      int best = -1;
      __int128 bestCost = 0;
      Term bestTerm = nullptr;
      Shifts bestShifts;
      for (auto [j, cand] : llvm::enumerate(ys)) {
        Shifts trial = needs;
        Term t = au(o, cand, inner, trial);
        if (!t)
          continue;
        __int128 cost = 0;
        for (auto &[b, e] : trial)
          if (!needs.count(b))
            cost += e < 0 ? -e : e;
        if (best < 0 || cost < bestCost) {
          best = int(j);
          bestCost = cost;
          bestTerm = t;
          bestShifts = std::move(trial);
          if (cost == 0)
            break;
        }
      }
      if (best < 0) {
        if (getenv("KPROOF_DUMP_TERMS"))
          llvm::errs() << "; anti-unify: no partner for "
                       << o->toBriefString(300) << " among " << ys.size()
                       << ": first "
                       << (ys.empty() ? std::string("-")
                                      : ys[0]->toBriefString(300))
                       << "\n";
        return {nullptr, {}};
      }
      needs = std::move(bestShifts);
      ops.push_back(bestTerm);
      ys.erase(ys.begin() + best);
    }
    return {T.rebuild(x, ops), needs};
  }
};

} // namespace

Term engine::antiUnifyByIndexShift(TermContext &T, Term a, Term b, Term k) {
  AntiUnifier u{T, k, {}};
  AntiUnifier::Shifts shifts;
  return u.au(a, b, "", shifts);
}

bool engine::equalUpToIndexForms(
    TermContext &T, Term a, Term b,
    llvm::DenseMap<std::pair<Term, Term>, bool> &memo) {
  if (a == b)
    return true;
  if (a->getSort() != b->getSort() || a->getWidth() != b->getWidth())
    return false;
  auto it = memo.find({a, b});
  if (it != memo.end())
    return it->second;
  bool r = false;
  if (a->getSort() == Sort::BV && a->getWidth() <= 64 &&
      T.canonicalIndex(a) == T.canonicalIndex(b)) {
    r = true;
  } else if (a->getKind() == b->getKind() &&
             a->getNumOperands() == b->getNumOperands() &&
             a->getNumOperands() > 0) {
    // Operands position by position; a commutative node's operands are
    // ordered by term id, which need not agree: then matched as a
    // multiset (each of a's operands to an unused equal one of b's).
    llvm::SmallVector<Term> bs(b->getOperands().begin(),
                               b->getOperands().end());
    r = true;
    for (unsigned i = 0; r && i < a->getNumOperands(); ++i) {
      Term o = a->getOperand(i);
      if (equalUpToIndexForms(T, o, bs[i], memo))
        continue;
      r = false;
      if (!isCommutative(a->getKind()))
        break;
      for (unsigned j = i + 1; j < bs.size() && !r; ++j)
        if (equalUpToIndexForms(T, o, bs[j], memo)) {
          std::swap(bs[i], bs[j]);
          r = true;
        }
    }
    // One head: a's node over (a permutation of) b's operands is b itself
    // (then a, over operands equal to those, equals b).
    if (r)
      r = T.rebuild(a, bs) == b;
  }
  memo[{a, b}] = r;
  return r;
}
