//===- Values.cpp - value obligations -------------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Value obligations (docs/design-notes.md "Lane cases", "Obligations asked
// together"): `checkValue` proves `pc => lhs == rhs` for one output element or
// refutes it: the kernel's reductions matched with the spec's (Reductions.cpp),
// the normalizer, testing before proving
// (`probeValue`, Probe.h), a value of merged states case by case
// (`splitOnConditions`, `foldUnder`; `certifyCases` writes their
// certificates), then Z3 on the residue (`solveValue`), whose model counts
// only once `confirmValue` confirms it with the true functions. Also the
// other obligations of that shape, `checkSpecDefined` (the spec's divisors
// are non-zero where it is compared) and `checkNever` (a violation that must
// not happen), and the questions asked on the way: `splitDivisions`
// (quotients by a row length), `shortcutUnsat` (a bounded unsat query) and
// `positiveUnderGuards` (a divisor positive under guards).
//
//===----------------------------------------------------------------------===//

#include "CheckerImpl.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::check {

/// The w-bit sum of `terms` (0 when empty).
static Term sumOf(TermContext &T, ArrayRef<Term> terms, unsigned w) {
  if (terms.empty())
    return T.bv(0, w);
  Term sum = terms.front();
  for (Term t : terms.drop_front())
    sum = T.bvBin(Kind::BVAdd, sum, t);
  return sum;
}

Term Checker::splitDivisions(Term pc, Term value) {
  llvm::DenseMap<Term, Term> map;
  llvm::DenseSet<Term> seen;
  for (Term u : subterms({value})) {
    if ((u->getKind() != Kind::BVUDiv && u->getKind() != Kind::BVURem) ||
        u->getWidth() > 64)
      continue;
    if (u->getOperand(1)->getKind() == Kind::BVConst) {
      // x / d for a constant d: one quotient k on every execution the path
      // condition allows (a spec's row index / 1000 of a masked store in
      // row 0), when x's interval spans at most two quotients.
      Term x = u->getOperand(0), d = u->getOperand(1);
      if (!seen.insert(u).second || d->getAPInt().isZero() ||
          d->getAPInt().getActiveBits() > 62)
        continue;
      Term xc = T.canonicalIndex(x);
      std::optional<std::pair<uint64_t, uint64_t>> iv = T.indexInterval(xc);
      uint64_t dv = d->getAPInt().getZExtValue();
      unsigned w = u->getWidth();
      // x = d * (sum of its addends c * a with d | c) + r: x / d is that
      // sum where r < d on every execution the path allows (the row of
      // ctaid * 200 + col). Exact only when no addend is negative (a
      // coefficient or constant of 2^(w-1) or more is one, as 2^w - c) and
      // the addends' upper bounds sum below 2^w: the form's interval alone
      // does not say so (a review found 256 a + (2^32 - 256) b, read with
      // quotient a + 16777215 b: a false PROVED).
      auto upper = [&](Term a) -> std::optional<unsigned __int128> {
        auto small = [&](Term c) {
          return c->getKind() == Kind::BVConst &&
                 c->getAPInt().getActiveBits() < w &&
                 c->getAPInt().getActiveBits() <= 62;
        };
        if (a->getKind() == Kind::BVConst)
          return small(a) ? std::optional<unsigned __int128>(
                                a->getAPInt().getZExtValue())
                          : std::nullopt;
        if (a->getKind() == Kind::BVMul &&
            a->getOperand(1)->getKind() == Kind::BVConst) {
          auto ia = T.indexInterval(a->getOperand(0));
          if (!small(a->getOperand(1)) || !ia)
            return std::nullopt;
          return (unsigned __int128)ia->second *
                 a->getOperand(1)->getAPInt().getZExtValue();
        }
        auto ia = T.indexInterval(a);
        return ia ? std::optional<unsigned __int128>(ia->second)
                  : std::nullopt;
      };
      if (iv) {
        SmallVector<Term> work{xc}, quotient, rest;
        unsigned __int128 total = 0;
        bool exactSum = true;
        while (!work.empty()) {
          Term a = work.pop_back_val();
          if (a->getKind() == Kind::BVAdd) {
            work.push_back(a->getOperand(0));
            work.push_back(a->getOperand(1));
            continue;
          }
          std::optional<unsigned __int128> hi = upper(a);
          if (!hi)
            exactSum = false;
          else
            total += *hi;
          if (a->getKind() == Kind::BVMul &&
              a->getOperand(1)->getKind() == Kind::BVConst &&
              a->getOperand(1)->getAPInt().getActiveBits() <= 62 &&
              a->getOperand(1)->getAPInt().getZExtValue() % dv == 0) {
            uint64_t c = a->getOperand(1)->getAPInt().getZExtValue() / dv;
            quotient.push_back(c == 1 ? a->getOperand(0)
                                      : T.bvBin(Kind::BVMul, a->getOperand(0),
                                                T.bv(c, w)));
            continue;
          }
          rest.push_back(a);
        }
        if (exactSum && total < ((unsigned __int128)1 << w) &&
            !quotient.empty()) {
          Term q = sumOf(T, quotient, w), r = sumOf(T, rest, w);
          if (T.indexInterval(r) &&
              shortcutUnsat(T.andOf(pc, T.notOf(T.bvUlt(r, d))), 3'000'000)) {
            map[u] = u->getKind() == Kind::BVUDiv ? q : r;
            continue;
          }
        }
      }
      if (!iv || iv->first / dv == iv->second / dv ||
          iv->second / dv - iv->first / dv > 1 ||
          (unsigned __int128)(iv->second / dv + 1) * dv >=
              ((unsigned __int128)1 << u->getWidth()))
        continue;
      for (uint64_t k = iv->first / dv; k <= iv->second / dv; ++k) {
        Term lo = T.bv(k * dv, w), hi = T.bv((k + 1) * dv, w);
        Term inside = T.andOf(T.bvUle(lo, x), T.bvUlt(x, hi));
        if (!shortcutUnsat(T.andOf(pc, T.notOf(inside)), 3'000'000))
          continue;
        map[u] = u->getKind() == Kind::BVUDiv ? T.bv(k, w)
                                              : T.bvBin(Kind::BVSub, x, lo);
        break;
      }
      continue;
    }
    Term x = u->getOperand(0), d = u->getOperand(1);
    if (!seen.insert(u).second)
      continue;
    unsigned w = u->getWidth();
    // The canonical linear form of x, its addends c * atom (+ constant).
    Term xc = T.canonicalIndex(x);
    if (!T.indexInterval(xc))
      continue;
    SmallVector<Term> work{xc}, quotient, rest;
    bool ok = true;
    while (!work.empty() && ok) {
      Term a = work.pop_back_val();
      if (a->getKind() == Kind::BVAdd) {
        work.push_back(a->getOperand(0));
        work.push_back(a->getOperand(1));
        continue;
      }
      // c * P with P = d * y (or y * d): contributes c * y to the quotient.
      Term p = a, c = nullptr;
      if (a->getKind() == Kind::BVMul &&
          a->getOperand(1)->getKind() == Kind::BVConst &&
          a->getOperand(0)->getKind() == Kind::BVMul)
        p = a->getOperand(0), c = a->getOperand(1);
      Term y = nullptr;
      if (p->getKind() == Kind::BVMul) {
        if (p->getOperand(0) == d)
          y = p->getOperand(1);
        else if (p->getOperand(1) == d)
          y = p->getOperand(0);
      } else if (p->getKind() == Kind::BVZExt &&
                 p->getOperand(0)->getKind() == Kind::BVMul &&
                 (d->getKind() == Kind::BVZExt ||
                  d->getKind() == Kind::BVSExt)) {
        // zext(n * y) with d = ext(n) (Triton's row offset n_cols * pid,
        // widened after the multiply): zext(n) * zext(y) when n * y does
        // not wrap (its interval is exact) and n is non-negative, so that
        // ext(n) is n's value either way.
        Term inner = p->getOperand(0), n = d->getOperand(0);
        Term other = inner->getOperand(0) == n   ? inner->getOperand(1)
                     : inner->getOperand(1) == n ? inner->getOperand(0)
                                                 : nullptr;
        auto in = T.indexInterval(n);
        if (other && T.indexInterval(inner) && in &&
            in->second < (uint64_t(1) << (n->getWidth() - 1)))
          y = T.bvZExt(other, w);
      }
      if (!y) {
        rest.push_back(a);
        continue;
      }
      // The product must not wrap (then P = d * y as integers), and c
      // must be a positive coefficient.
      auto id = T.indexInterval(d), iy = T.indexInterval(y);
      if (!id || !iy ||
          (unsigned __int128)id->second * iy->second >=
              ((unsigned __int128)1 << w) ||
          (c && c->getAPInt().isNegative()))
        ok = false;
      quotient.push_back(c ? T.bvBin(Kind::BVMul, y, c) : y);
    }
    if (!ok || quotient.empty())
      continue;
    Term q = sumOf(T, quotient, w), r = sumOf(T, rest, w);
    // x = q * d + r exactly (x's form does not wrap, nor does any product
    // d * y, and r, as part of that form, is its value); it is the
    // division when r < d on every execution the path condition allows.
    if (!T.indexInterval(r))
      continue;
    if (!shortcutUnsat(T.andOf(pc, T.notOf(T.bvUlt(r, d))), 3'000'000))
      continue;
    // As written (not re-canonicalized): q * d then spells the kernel's
    // own product atom.
    map[u] = u->getKind() == Kind::BVUDiv ? q : r;
  }
  return map.empty() ? value : T.substitute(value, map);
}

bool Checker::shortcutUnsat(Term bad, uint64_t rlimit, bool bitVectorsFirst) {
  Query q{T, options, &tableRanges, {bad}};
  // The contract's table preconditions restrict the inputs here too.
  SmallVector<Term> facts;
  q.addRangeFacts(facts, {bad});
  llvm::append_range(q.assertions, facts);
  q.addBranchFacts();
  // The integer encoding first (products of sizes and thread ids), under a
  // short wall-clock guard, as nlsat does not always heed the resource
  // limit; then bit-vectors.
  q.guardSeconds = 20;
  auto o = q.checkIn(/*bvAsInt=*/!bitVectorsFirst, {}, rlimit);
  if (bitVectorsFirst && o.result == smt::CheckResult::Sat)
    return false;
  if (o.result == smt::CheckResult::Error ||
      o.result == smt::CheckResult::Unknown)
    o = q.checkIn(/*bvAsInt=*/bitVectorsFirst, {}, rlimit);
  if (o.result == smt::CheckResult::Unknown)
    if (std::optional<Query::Outcome> u = q.slicedUnsat({}))
      o = *u;
  return o.result == smt::CheckResult::Unsat;
}

Term Checker::positiveUnderGuards(Term t) {
  SmallVector<Term> addends;
  if (t->getKind() == Kind::Add)
    llvm::append_range(addends, t->getOperands());
  else
    addends.push_back(t);
  SmallVector<Term> guards;
  for (Term a : addends) {
    if (N.provesPositive(a))
      return T.boolConst(true);
    if (a->getKind() == Kind::Ite) {
      Term c = a->getOperand(0), x = a->getOperand(1), y = a->getOperand(2);
      auto isZero = [](Term u) {
        return u->isRealConst() && u->getRational().isZero();
      };
      if (isZero(y) && N.provesPositive(x)) {
        guards.push_back(c);
        continue;
      }
      if (isZero(x) && N.provesPositive(y)) {
        guards.push_back(T.notOf(c));
        continue;
      }
    }
    if (!N.provesNonNegative(a))
      return nullptr;
  }
  if (guards.empty())
    return nullptr;
  // Guards over real values are left to the case split.
  for (Term g : guards)
    for (Term u : subterms({g}))
      if (u->getSort() == Sort::Real)
        return nullptr;
  return T.orOf(guards);
}

/// Bit-vector variables that `cond` pins to one value by a signed lower
/// and upper bound (`1 <=s n` from the contract, `n <=s 1` from a merged
/// state's case): v -> that constant. Substituting them is an equivalence
/// under `cond`, and folds reductions over [0, n) to their elements.
static llvm::DenseMap<Term, Term> pinnedByBounds(TermContext &T, Term cond) {
  llvm::DenseMap<Term, std::pair<APInt, APInt>> bounds; // signed [lo, hi]
  auto note = [&](Term v, Term c, bool upper, int adjust) {
    if (v->getKind() != Kind::BVVar || c->getKind() != Kind::BVConst ||
        v->getWidth() > 64)
      return;
    unsigned w = v->getWidth();
    APInt x = c->getAPInt();
    // c - 1 or c + 1 past the signed range: leave it.
    if ((adjust < 0 && x.isMinSignedValue()) ||
        (adjust > 0 && x.isMaxSignedValue()))
      return;
    if (adjust)
      x = adjust < 0 ? x - 1 : x + 1;
    auto [it, fresh] = bounds.try_emplace(
        v, APInt::getSignedMinValue(w), APInt::getSignedMaxValue(w));
    (void)fresh;
    if (upper && x.slt(it->second.second))
      it->second.second = x;
    if (!upper && x.sgt(it->second.first))
      it->second.first = x;
  };
  for (Term c : conjunctsOf(cond)) {
    bool neg = c->getKind() == Kind::Not;
    Term e = neg ? c->getOperand(0) : c;
    if (e->getKind() != Kind::BVSle && e->getKind() != Kind::BVSlt)
      continue;
    bool strict = e->getKind() == Kind::BVSlt;
    Term a = e->getOperand(0), b = e->getOperand(1);
    if (!neg) {
      // a <= b (a < b): an upper bound of a, a lower bound of b.
      note(a, b, /*upper=*/true, strict ? -1 : 0);
      note(b, a, /*upper=*/false, strict ? 1 : 0);
    } else {
      // not (a <= b): b < a; not (a < b): b <= a.
      note(a, b, /*upper=*/false, strict ? 0 : 1);
      note(b, a, /*upper=*/true, strict ? 0 : -1);
    }
  }
  llvm::DenseMap<Term, Term> pins;
  for (auto &[v, lh] : bounds)
    if (lh.first == lh.second)
      pins[v] = T.bv(lh.first);
  return pins;
}

void Checker::checkValue(const std::string &name, Term pc, Term lhs, Term rhs,
                         Location loc, Term index, StringRef buffer) {
  auto outer = explaining;
  explaining = {name, pc, lhs, rhs};
  llvm::scope_exit restore([&] { explaining = outer; });
  // Debugging aid: the two sides as the checker receives them.
  if (getenv("KPROOF_DUMP_TERMS"))
    llvm::errs() << "; value " << name << "\n;   pc:     "
                 << pc->toBriefString(dumpLimit()) << "\n;   kernel: "
                 << lhs->toBriefString(dumpLimit()) << "\n;   spec:   "
                 << rhs->toBriefString(dumpLimit()) << "\n";
  Term negatedGoal = T.andOf(pc, T.notOf(T.eq(lhs, rhs)));
  if (N.provesEqual(lhs, rhs)) {
    proved(name, negatedGoal, "normalizer");
    return;
  }
  // A reduction of the kernel's (a summarized loop) equal to one of the
  // spec's, element by element: the same term from here on.
  if (Term unified = unifyReductions(name, pc, lhs, rhs, 0);
      unified && unified != lhs) {
    lhs = unified;
    negatedGoal = T.andOf(pc, T.notOf(T.eq(lhs, rhs)));
    if (N.provesEqual(lhs, rhs)) {
      proved(name, negatedGoal, "normalizer, after equal reductions");
      return;
    }
  }
  if (Term t = tileReductions(name, pc, lhs, rhs);
      t != lhs && N.provesEqual(t, rhs)) {
    proved(name, T.andOf(pc, T.notOf(T.eq(t, rhs))),
           "normalizer, after reductions that tile the spec's");
    return;
  }
  // Testing before proving: a few concrete inputs find most wrong values
  // at once (Probe.h); only a value none of them refutes goes on.
  if (probeValue(name, pc, lhs, rhs, loc, index, buffer))
    return;
  // A value of merged states (an ite over branch conditions): prove it case
  // by case, each case the value one path computed, so the normalizer sees
  // the straight-line terms it closes; a case it does not close goes to Z3
  // under its conditions.
  SmallVector<std::pair<Term, Term>> cases;
  bool tooMany = false;
  unsigned agreed = 0;
  // Cases whose bounds pin a size variable (pinnedByBounds).
  unsigned pinnedCases = 0;
  // Whether the spec of some case was folded by the bounds (foldUnder).
  bool boundsFolds = false;
  // The comparisons of integers in pc: all the bounds decisions of the
  // cases read (a conjunction without the rest is implied by pc, so a
  // case it contradicts is contradicted by pc too), without the value
  // facts that would be read again for every case.
  Term indexPc = integerComparisons(pc);
  bool split = splitOnConditions(lhs, cases, options.maxCases, tooMany, &agreed,
                                 indexPc);
  // The cases the normalizer does not close.
  SmallVector<std::pair<Term, Term>> open;
  auto findOpen = [&] {
    open.clear();
    pinnedCases = 0;
    for (auto &[lits, caseValue] : cases) {
      Term value = caseValue;
      Term expected = foldUnder(rhs, lits, indexPc);
      boundsFolds |= foldedByBounds;
      // A case that pins a size (n <= 1 under 1 <= n): its reductions
      // over [0, n) fold to their one element.
      if (llvm::DenseMap<Term, Term> pins =
              pinnedByBounds(T, T.andOf(pc, lits));
          !pins.empty()) {
        Term pinnedValue = T.substitute(value, pins),
             pinnedExpected = T.substitute(expected, pins);
        // (Null: the pinned size rebuilt an operation of infinities that
        // has no value here; the case stays as it was.)
        if (pinnedValue && pinnedExpected) {
          value = pinnedValue;
          expected = pinnedExpected;
          ++pinnedCases;
        }
      }
      if (N.provesEqual(value, expected))
        continue;
      // A case whose reductions tile the spec's (a loop unrolled by 4 and
      // its remainder loop).
      if (Term t = tileReductions(name, T.andOf(pc, lits), value, expected);
          t != value && N.provesEqual(t, expected))
        continue;
      open.push_back({lits, value});
    }
  };
  findOpen();
  if (split && agreed && !open.empty()) {
    // Arms that agree are interchangeable only in a chain of formal
    // identities: a case left to Z3 must be the value of its own path.
    cases.clear();
    agreed = 0;
    split = splitOnConditions(lhs, cases, options.maxCases, tooMany, nullptr,
                              indexPc);
    findOpen();
  }
  if (split && getenv("KPROOF_DUMP_TERMS")) {
    llvm::errs() << "; " << name << ": " << cases.size() << " cases, "
                 << open.size() << " open, " << prunedByBounds << " pruned\n";
    for (auto &[lits, v] : open)
      llvm::errs() << ";   open: " << lits->toBriefString(600) << "\n";
  }
  if (split) {
    std::string how =
        (Twine(cases.size()) + " case" + (cases.size() == 1 ? "" : "s") +
         " over the branch conditions of merged states" +
         (agreed ? " (" + Twine(agreed) + " conditions under which both " +
                       "values agree)"
                 : Twine()))
            .str();
    if (prunedByBounds)
      how += "; " + std::to_string(prunedByBounds) +
             " more the thread-id and size bounds exclude";
    bool solver = false;
    for (auto &[lits, value] : open) {
      // The spec folded under the case's literals, as the case's value is
      // (the same reductions meet as the same atoms).
      Term caseRhs = foldUnder(rhs, lits, indexPc);
      boundsFolds |= foldedByBounds;
      if (llvm::DenseMap<Term, Term> pins =
              pinnedByBounds(T, T.andOf(pc, lits));
          !pins.empty())
        if (Term pinned = T.substitute(rhs, pins))
          caseRhs = pinned;
      // Testing the case before proving it: a wrong value on a thin slice
      // (rows 12..15 of the first CTA of a causal kernel) is rarely drawn
      // by the probes of the whole value, but every draw here lies in it.
      if (probeValue(name, T.andOf(pc, lits), value, caseRhs, loc, index,
                     buffer))
        return;
      ValueOutcome o = solveValue(name, T.andOf(pc, lits), value, caseRhs, lhs,
                                  loc, index, buffer);
      if (o.kind == VerdictKind::Proved) {
        solver = true;
        continue;
      }
      // --explain: the case left open is what was left to show.
      explaining = {name, T.andOf(pc, lits), value, caseRhs};
      if (getenv("KPROOF_DUMP_TERMS"))
        llvm::errs() << "; open case " << lits->toBriefString(1500)
                     << "\n;   kernel: " << value->toBriefString(1500)
                     << "\n;   spec:   " << caseRhs->toBriefString(1500)
                     << "\n";
      record(name, o.kind, o.how + " (in one of " + how + ")");
      return;
    }
    how = (solver ? "normalizer and z3 (unsat), " : "normalizer, ") + how;
    record(name, VerdictKind::Proved, how);
    if (certificates && pinnedCases)
      verdict.warnings.push_back(
          "certificate of '" + name + "' not written: " +
          Twine(pinnedCases).str() +
          " of its cases pin a size by its bounds and fold reductions "
          "over it, which a certificate cannot state yet");
    else if (certificates && (prunedByBounds || boundsFolds))
      verdict.warnings.push_back(
          "certificate of '" + name +
          "' not written: its cases were chosen by the thread-id and size "
          "bounds (cases they exclude, or spec conditions they decide), "
          "which a certificate cannot state yet");
    else if (certificates)
      certifyCases(name, pc, negatedGoal, lhs, rhs, cases, open);
    return;
  }
  if (tooMany && containsExp(lhs)) {
    // Z3 does not prove these within any useful time (exp is
    // uninterpreted; its rules are instantiated per case).
    record(name, VerdictKind::Unknown,
           "the value depends on more than " + Twine(options.maxCases).str() +
               " cases of merged branch conditions, and on exp");
    return;
  }
  ValueOutcome o = solveValue(name, pc, lhs, rhs, lhs, loc, index, buffer);
  if (o.kind == VerdictKind::Proved)
    proved(name, negatedGoal, o.how);
  else
    record(name, o.kind, o.how);
}

Term Checker::integerComparisons(Term pc) {
  ArrayRef<Term> conjuncts(pc);
  if (pc->getKind() == Kind::And)
    conjuncts = pc->getOperands();
  SmallVector<Term> kept;
  for (Term c : conjuncts) {
    Term cmp = c->getKind() == Kind::Not ? c->getOperand(0) : c;
    if (cmp->getNumOperands() == 2 && cmp->getOperand(0)->getSort() == Sort::BV)
      kept.push_back(c);
  }
  return T.andOf(kept);
}

bool Checker::splitOnConditions(Term value,
                                SmallVectorImpl<std::pair<Term, Term>> &cases,
                                unsigned limit, bool &tooMany, unsigned *agreed,
                                Term pc) {
  tooMany = false;
  prunedByBounds = 0;
  agreements.clear();
  splitSteps.clear();
  // The condition of an ite nearest the root (breadth first).
  // A condition inside a reduction's body that mentions its bound
  // variable ("$r<level>", TermContext::reduce) differs per element: it is
  // not one boolean of the whole value, so it is never split on.
  auto mentionsBoundVariable = [](Term c) {
    for (Term s : subterms({c}))
      if (s->getKind() == Kind::BVVar && s->getName().starts_with("$r"))
        return true;
    return false;
  };
  auto firstCondition = [&](Term t) -> Term {
    llvm::DenseSet<Term> seen{t};
    std::deque<Term> queue{t};
    while (!queue.empty()) {
      Term u = queue.front();
      queue.pop_front();
      if (u->getKind() == Kind::Ite && !mentionsBoundVariable(u->getOperand(0)))
        return u->getOperand(0);
      for (Term o : u->getOperands())
        if (seen.insert(o).second)
          queue.push_back(o);
    }
    return nullptr;
  };
  if (!firstCondition(value))
    return false;
  // Whether the bounds leave the case `lits` possible under `pc`.
  auto possible = [&](Term lits) {
    return !pc || !refutedByBounds(T.andOf(pc, lits), "case");
  };

  SmallVector<std::pair<Term, Term>> work{{T.boolConst(true), value}};
  while (!work.empty()) {
    auto [lits, t] = work.pop_back_val();
    Term c = firstCondition(t);
    if (!c) {
      cases.push_back({lits, t});
    } else {
      Term arm[2] = {assuming(t, c, false), assuming(t, c, true)};
      if (!arm[0] || !arm[1]) {
        // An arm without a term (fixing c rebuilt an operation of
        // infinities, such as -inf - -inf, that has no value here): no
        // split; the caller compares the whole value instead.
        cases.clear();
        return false;
      }
      splitSteps.push_back({t, c});
      Term litsIf[2] = {T.andOf(lits, T.notOf(c)), T.andOf(lits, c)};
      bool can[2] = {possible(litsIf[0]), possible(litsIf[1])};
      if (can[0] != can[1]) {
        // Only one arm is possible: no split (the literal stays, for the
        // spec's folds).
        ++prunedByBounds;
        work.push_back({litsIf[can[1] ? 1 : 0], arm[can[1] ? 1 : 0]});
      } else if (!can[0]) {
        // Neither: the case itself is impossible (its literals were
        // possible one by one only).
        ++prunedByBounds;
      } else if (agreed && N.provesEqual(arm[0], arm[1])) {
        ++*agreed;
        agreements.push_back({arm[0], arm[1]});
        // The condition does not matter: both arms are one rational
        // function (the online softmax's d * exp(m) whether or not the
        // running max moved), so either stands for `t`.
        work.push_back({lits, arm[1]});
      } else {
        work.push_back({litsIf[1], arm[1]});
        work.push_back({litsIf[0], arm[0]});
      }
    }
    if (cases.size() + work.size() > limit) {
      tooMany = true;
      cases.clear();
      return false;
    }
  }
  return true;
}

Term Checker::foldUnder(Term t, Term lits, Term pc) {
  foldedByBounds = false;
  llvm::DenseMap<Term, bool> known;
  SmallVector<Term> conj;
  if (lits->getKind() == Kind::And)
    conj.append(lits->getOperands().begin(), lits->getOperands().end());
  else
    conj.push_back(lits);
  for (Term l : conj) {
    if (l->getKind() == Kind::Not)
      known[l->getOperand(0)] = false;
    else
      known[l] = true;
  }
  auto truth = [&](Term c) -> std::optional<bool> {
    auto it = known.find(c);
    if (it == known.end())
      return std::nullopt;
    return it->second;
  };
  // An ite's condition: a literal, or (with `pc`) a comparison of
  // integers the bounds decide under pc and the literals.
  llvm::DenseMap<Term, std::optional<bool>> decided;
  auto iteTruth = [&](Term c) -> std::optional<bool> {
    if (std::optional<bool> b = truth(c))
      return b;
    if (!pc || c->getNumOperands() != 2 ||
        c->getOperand(0)->getSort() != Sort::BV)
      return std::nullopt;
    auto [it, fresh] = decided.try_emplace(c);
    if (!fresh)
      return it->second;
    std::optional<bool> r;
    for (bool b : {true, false}) {
      Term other = T.andOf(pc, T.andOf(lits, b ? T.notOf(c) : c));
      if (!refutedByBounds(other, "fold"))
        continue;
      r = b;
      foldedByBounds = true;
      break;
    }
    decided[c] = r;
    return r;
  };
  // Whether a <= b follows from one literal.
  auto atMost = [&](Term a, Term b) {
    return truth(T.realLt(a, b)) == std::optional<bool>(true) ||
           truth(T.realLe(a, b)) == std::optional<bool>(true) ||
           truth(T.realLt(b, a)) == std::optional<bool>(false) ||
           truth(T.realLe(b, a)) == std::optional<bool>(false);
  };
  llvm::DenseMap<Term, Term> memo;
  std::function<Term(Term)> fold = [&](Term u) -> Term {
    auto it = memo.find(u);
    if (it != memo.end())
      return it->second;
    SmallVector<Term, 4> ops;
    bool changed = false;
    for (Term o : u->getOperands()) {
      ops.push_back(fold(o));
      changed |= ops.back() != o;
    }
    Term r = changed ? T.rebuild(u, ops) : u;
    if (r && (r->getKind() == Kind::Max || r->getKind() == Kind::Min)) {
      Term a = r->getOperand(0), b = r->getOperand(1);
      bool isMax = r->getKind() == Kind::Max;
      if (atMost(a, b))
        r = isMax ? b : a;
      else if (atMost(b, a))
        r = isMax ? a : b;
    } else if (r && r->getKind() == Kind::Ite) {
      if (std::optional<bool> c = iteTruth(r->getOperand(0)))
        r = *c ? r->getOperand(1) : r->getOperand(2);
    }
    memo[u] = r ? r : u;
    return memo[u];
  };
  return fold(t);
}

void Checker::certifyCases(const std::string &name, Term pc, Term negatedGoal,
                           Term lhs, Term rhs,
                           ArrayRef<std::pair<Term, Term>> cases,
                           ArrayRef<std::pair<Term, Term>> solved) {
  // One certificate per case (the value of one path, as without merging),
  // one per pair of arms that agreed, and one that they imply the goal:
  // under a case's literals the merged value is the case's value (ite
  // evaluation), the spec its folded form, and arms that agree are equal.
  SmallVector<Term> hypotheses{negatedGoal};
  auto write = [&](const std::string &what, Term goal, StringRef how) {
    if (!certificates->write(name + " " + what, goal, how))
      verdict.warnings.push_back("certificate of '" + name + " " + what +
                                 "' not written: " + certificates->getError());
  };
  for (auto [k, c] : llvm::enumerate(cases)) {
    auto &[lits, value] = c;
    Term spec = foldUnder(rhs, lits);
    Term casePc = T.andOf(pc, lits);
    bool bySolver = llvm::is_contained(solved, c);
    write("case " + std::to_string(k + 1),
          T.andOf(casePc, T.notOf(T.eq(value, spec))),
          bySolver ? "z3 (unsat)" : "normalizer");
    hypotheses.push_back(T.orOf(T.notOf(casePc), T.eq(value, spec)));
  }
  // Each split, as the checker applied it: where c holds, t is t with c
  // true, else t with c false (ground instances of ite evaluation; the
  // exponentials are uninterpreted constants in a certificate, so the
  // solver could not see through exp(f(ite(c, a, b))) itself).
  for (auto &[t, c] : splitSteps)
    for (bool b : {true, false})
      hypotheses.push_back(
          T.orOf(b ? T.notOf(c) : c, T.eq(t, assuming(t, c, b))));
  for (auto [k, a] : llvm::enumerate(agreements)) {
    write("arms agree " + std::to_string(k + 1),
          T.notOf(T.eq(a.first, a.second)), "normalizer");
    hypotheses.push_back(T.eq(a.first, a.second));
  }
  write("by cases", T.andOf(hypotheses), "cases");
}

bool Checker::containsExp(Term t) {
  llvm::DenseSet<Term> seen{t};
  SmallVector<Term> work{t};
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (u->getKind() == Kind::Exp || u->getKind() == Kind::Exp2)
      return true;
    for (Term o : u->getOperands())
      if (seen.insert(o).second)
        work.push_back(o);
  }
  return false;
}

Checker::ValueOutcome Checker::solveValue(const std::string &name, Term pc,
                                          Term lhs, Term rhs, Term kernelValue,
                                          Location loc, Term index,
                                          StringRef buffer) {
  // Residue to Z3: normalized forms (exp of sums split into products).
  Term nl = N.toTerm(N.normalize(lhs)), nr = N.toTerm(N.normalize(rhs));
  Query q{T, options, &tableRanges, {pc, T.notOf(T.eq(nl, nr))}};
  q.addBranchFacts();
  SmallVector<Term> vars = q.inputVars();
  SmallVector<Term> blocked;
  // Distinct exp atoms of the goal: with many of them, nonlinear real
  // arithmetic over small-integer models can take Z3 far longer than the
  // unrestricted goal (a 16-atom attention tile: minutes against 0.4 s),
  // so the small model is sought only after the goal is shown sat.
  unsigned expAtoms = 0;
  for (Term u : subterms({nl, nr}))
    expAtoms += u->getKind() == Kind::Exp || u->getKind() == Kind::Exp2;
  bool smallFirst = expAtoms <= 12;
  // Every input variable in {-2, ..., 2}: a model that reads well.
  auto addSmallInputs = [&](SmallVector<Term> &constraints) {
    for (Term v : vars) {
      SmallVector<Term> choices;
      for (int k = -2; k <= 2; ++k)
        choices.push_back(T.eq(v, T.real(k)));
      constraints.push_back(T.orOf(choices));
    }
  };
  // A model was blocked that is not shown to be no counterexample.
  bool setAside = false;
  for (unsigned attempt = 0; attempt < options.maxModels; ++attempt) {
    // Shrinking: first look for a model over small integers.
    SmallVector<Term> extra(blocked.begin(), blocked.end());
    bool shrinking = smallFirst && attempt == 0 && vars.size() <= 16;
    if (shrinking)
      addSmallInputs(extra);
    Query::Outcome out = q.check(extra);
    if (out.result == smt::CheckResult::Unsat && shrinking)
      continue; // no small model; search the whole space
    if (out.result == smt::CheckResult::Unsat && setAside)
      return {VerdictKind::Unknown,
              "no counterexample confirmed with the true functions (a model was set "
              "aside whose kernel and spec values the true functions did not "
              "show equal; the rest of the space is unsat)"};
    if (out.result == smt::CheckResult::Unsat)
      return {VerdictKind::Proved, "z3 (unsat)"};
    if (out.result != smt::CheckResult::Sat || !out.model) {
      if (shrinking)
        continue;
      return {VerdictKind::Unknown, "solver: " + out.reason};
    }
    // Many exp atoms: the goal is sat; now a small model, if there is one.
    if (!smallFirst && attempt == 0 && vars.size() <= 16) {
      SmallVector<Term> small(extra.begin(), extra.end());
      addSmallInputs(small);
      Query::Outcome smallOut = q.check(small);
      if (smallOut.result == smt::CheckResult::Sat && smallOut.model)
        out = std::move(smallOut);
    }
    // Confirm with the true functions before calling it a counterexample:
    // the kernel's value itself (all its branches), at the model.
    if (confirmValue(name, pc, kernelValue, rhs, *out.model, loc, index,
                     buffer))
      return {VerdictKind::Refuted, "counterexample confirmed"};
    // Not confirmed: block this model and search again. Blocking is sound
    // for a later unsat only when the model is no counterexample: the
    // kernel and the spec are equal at its inputs (the normalizer proves
    // it with the inputs substituted), or its path condition is false.
    // Otherwise (the true values only "may be equal" at MPFR's precision,
    // or the model names elements at symbolic indices) a later unsat is
    // UNKNOWN, not PROVED.
    {
      llvm::DenseMap<Term, Term> at;
      for (Term v : vars)
        if (auto it = out.model->reals.find(v->getName().str());
            it != out.model->reals.end())
          at[v] = T.real(it->second);
      Term k = T.substitute(kernelValue, at), r = T.substitute(rhs, at);
      Term p = T.substitute(pc, at);
      bool closed = (p->getKind() == Kind::BoolConst && !p->getBoolValue()) ||
                    (k && r && N.provesEqual(k, r));
      if (!closed)
        setAside = true;
    }
    SmallVector<Term> diff;
    for (Term v : vars) {
      auto it = out.model->reals.find(v->getName().str());
      if (it != out.model->reals.end())
        diff.push_back(T.notOf(T.eq(v, T.real(it->second))));
    }
    if (diff.empty())
      break;
    blocked.push_back(T.orOf(diff));
  }
  return {VerdictKind::Unknown,
          "no counterexample confirmed with the true functions"};
}

bool Checker::confirmValue(const std::string &name, Term pc, Term kernelValue,
                           Term rhs, const Assignment &model, Location loc,
                           Term index, StringRef buffer) {
  // A shared read that no modeled write matches is an arbitrary value
  // ("@uninit", SharedMemoryModel::resolveSharedRead; its own obligation says
  // whether that can happen). A difference that depends on that value is
  // the modeling gap, not a counterexample: the kernel's value must be the
  // same with every such value moved.
  llvm::DenseMap<Term, Term> moved;
  for (Term t : subterms({kernelValue})) {
    if ((t->getKind() != Kind::RealVar && t->getKind() != Kind::BVVar) ||
        !t->getName().contains("@uninit#"))
      continue;
    moved[t] = t->getSort() == Sort::Real
                   ? T.add(t, T.real(1))
                   : T.bvBin(Kind::BVXor, t, T.bv(1, t->getWidth()));
  }
  Term kernelMoved = moved.empty() ? nullptr : T.substitute(kernelValue, moved);
  auto refutes = [&](const Assignment &a) {
    std::string err;
    std::optional<bool> differ =
        definitelyDiffer(kernelValue, rhs, a, options.mpfrBits, &err);
    if (!differ || !*differ ||
        Evaluator(a, options.mpfrBits).boolean(pc) != Truth::True)
      return false;
    if (!kernelMoved)
      return true;
    std::optional<bool> depends =
        definitelyDiffer(kernelValue, kernelMoved, a, options.mpfrBits);
    return depends && !*depends;
  };
  if (!refutes(model))
    return false;
  // Shrinking: every real input that can be 0 (else +-1) while the
  // difference stays confirmed is set so, one at a time, in name order: the
  // counterexample shows the inputs that matter. Bounded (inputs times
  // terms), since each try evaluates the kernel's value once.
  Assignment m = model;
  size_t termCount = subterms({kernelValue, rhs, pc}).size();
  {
    SmallVector<Rational *> values;
    for (auto &[name, v] : m.reals)
      if (name.find('#') == std::string::npos)
        values.push_back(&v);
    for (auto &[buffer, elements] : m.elements)
      for (auto &[i, v] : elements)
        values.push_back(&v);
    if (values.size() * termCount <= 2'000'000)
      for (Rational *v : values) {
        Rational old = *v;
        if (old == Rational(0))
          continue;
        int unit = old < Rational(0) ? -1 : 1;
        for (int target : {0, unit}) {
          if (old == Rational(target))
            continue;
          *v = Rational(target);
          if (refutes(m))
            break;
          *v = old;
        }
      }
  }
  // Elements equal to their buffer's default are the default ("x[others]").
  for (auto &[buffer, elements] : m.elements) {
    auto d = m.elementDefaults.find(buffer);
    if (d != m.elementDefaults.end())
      for (auto it = elements.begin(); it != elements.end();)
        it = it->second == d->second ? elements.erase(it) : std::next(it);
  }
  Evaluator ev(m, options.mpfrBits);
  Counterexample c;
  c.property = "value mismatch at " + name.substr(name.find(' ') + 1);
  if (index)
    if (std::optional<APInt> i = ev.bv(index)) {
      c.property = "value mismatch at " + buffer.str() + "[" +
                   std::to_string(i->getZExtValue()) + "]";
      c.outputBuffer = buffer.str();
      c.outputIndex = i->getZExtValue();
    }
  c.inputs = m;
  if (kernelValue->getSort() == Sort::BV) {
    // Integer outputs: the exact values, signed decimal.
    auto text = [&](Term t) -> std::string {
      std::optional<APInt> v = ev.bv(t);
      return v ? llvm::toString(*v, 10, /*Signed=*/true) : "?";
    };
    c.kernelValue = text(kernelValue);
    c.specValue = text(rhs);
  } else {
    std::optional<Interval> kv = ev.real(kernelValue);
    std::optional<Interval> sv = ev.real(rhs);
    c.kernelValue = kv ? kv->toString(12) : "?";
    c.specValue = sv ? sv->toString(12) : "?";
  }
  // A store of merged states: the side the counterexample takes.
  Location at = resolveMerged(loc, ev);
  c.location = locString(at);
  refutedAt(at, c);
  return true;
}

bool Checker::probeValue(const std::string &name, Term pc, Term lhs, Term rhs,
                         Location loc, Term index, StringRef buffer) {
  if (!options.probes || !probed.insert({pc, lhs, rhs}).second)
    return false;
  // The seed is the obligation's name (FNV-1a): the same draws on every
  // run, different draws for different elements. File names in it count
  // without their directories, so a checkout elsewhere (or a relative
  // path) draws the same inputs.
  std::string key;
  size_t segment = 0;
  for (char ch : name) {
    if (ch == '/') {
      key.resize(segment);
      continue;
    }
    key.push_back(ch);
    if (ch == ' ' || ch == '(')
      segment = key.size();
  }
  uint64_t seed = 0xcbf29ce484222325ull;
  for (char ch : key)
    seed = (seed ^ uint8_t(ch)) * 0x100000001b3ull;
  InputSampler sampler(T, seed);
  for (auto &[table, facts] : tableRanges)
    if (facts.range)
      sampler.setIntRange(table, facts.range->first, facts.range->second);
  Term roots[] = {lhs, rhs};
  // A draw must meet the contract's table preconditions (those the
  // sampler cannot draw by construction: `at_most`), like the path.
  SmallVector<Term> facts{pc};
  Query{T, options, &tableRanges, {}}.addRangeFacts(facts, {pc, lhs, rhs});
  pc = T.andOf(facts);
  for (unsigned k = 0; k < options.probes; ++k) {
    Assignment m = sampler.draw(roots, {pc}, k);
    if (confirmValue(name, pc, lhs, rhs, m, loc, index, buffer)) {
      record(name, VerdictKind::Refuted,
             "counterexample confirmed (random input " + std::to_string(k + 1) +
                 " of " + std::to_string(options.probes) + ")");
      return true;
    }
  }
  return false;
}

void Checker::checkSpecDefined(const std::string &name, Term pc, Term spec) {
  llvm::DenseSet<Term> seen;
  SmallVector<Term> work{spec};
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!seen.insert(t).second)
      continue;
    for (Term o : t->getOperands())
      work.push_back(o);
    if (t->getKind() != Kind::Div)
      continue;
    Term den = t->getOperand(1);
    // Once per divisor and path condition (a divisor proved non-zero on
    // one path is asked again on another).
    if (!checkedSpecDivisors.insert({den, pc}).second || N.provesNonZero(den))
      continue;
    Query q{T, options, &tableRanges, {pc, T.eq(den, T.real(0))}};
    q.addBranchFacts();
    Query::Outcome out = q.check();
    if (out.result == smt::CheckResult::Unsat) {
      proved("spec defined (" + name + ")",
             T.andOf(pc, T.eq(den, T.real(0))), "z3 (unsat)");
      continue;
    }
    record("spec defined (" + name + ")", VerdictKind::Unknown,
           "the spec may divide by zero: " + den->toString());
  }
}

void Checker::checkNever(
    const std::string &name, Term pc, Term bad, Location loc, Term witnessA,
    Term witnessB, std::optional<std::pair<std::string, uint64_t>> element) {
  Term cond = T.andOf(pc, bad);
  if (cond->getKind() == Kind::BoolConst && !cond->getBoolValue()) {
    proved(name, cond, "normalizer");
    return;
  }
  Query q{T, options, &tableRanges, {cond}};
  q.addBranchFacts();
  Query::Outcome out = q.check();
  if (out.result == smt::CheckResult::Unsat) {
    proved(name, cond, "z3 (unsat)");
    return;
  }
  if (out.result == smt::CheckResult::Sat && out.model) {
    Evaluator ev(*out.model, options.mpfrBits);
    if (ev.boolean(cond) == Truth::True) {
      Counterexample c;
      c.property = "violated: " + name;
      if (element) {
        c.outputBuffer = element->first;
        c.outputIndex = element->second;
      }
      c.inputs = *out.model;
      c.location = locString(loc);
      if (witnessA) {
        std::optional<Interval> a = ev.real(witnessA);
        c.kernelValue = a ? a->toString(12) : "?";
      }
      refutedAt(loc, c);
      record(name, VerdictKind::Refuted, "counterexample confirmed");
      return;
    }
    record(name, VerdictKind::Unknown,
           "solver model not confirmed with the true functions" +
               (ev.getError().empty() ? std::string()
                                      : " (" + ev.getError() + ")"));
    return;
  }
  record(name, VerdictKind::Unknown, "solver: " + out.reason);
}

} // namespace kproof::engine::check
