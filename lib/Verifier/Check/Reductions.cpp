//===- Reductions.cpp - reductions matched with the spec's ----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The kernel's reductions (summarized loops) matched with the spec's, so
// that both sides of a value obligation meet as the same atoms:
// `unifyReductions` replaces a reduction of the kernel by one of the spec's
// that Z3 proves equal to it where its value reaches the kernel's value
// (equal bounds, bodies equal at a fresh element, possibly up to the
// indices they read); `tileReductions` replaces a sum (max) of up to 3
// reductions that tile the spec's reduction (a loop unrolled by k and its
// remainder loop) by the spec's. Each match is recorded as a proved
// obligation. Also `pathLowerBounds`, the lower bounds of sizes that a path
// condition states, which the race checks (SyncChecks.cpp) use too.
//
//===----------------------------------------------------------------------===//

#include "CheckerImpl.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::check {

/// Whether `a` and `b` are the same term up to the index terms of the
/// buffer elements they read (same kinds, names and operands elsewhere):
/// the pairs of differing indices go to `indices`. Then a == b wherever
/// every pair is equal, a bit-vector question (the real parts, possibly
/// nonlinear, stay out of the solver).
static bool matchUpToIndices(Term a, Term b,
                             SmallVectorImpl<std::pair<Term, Term>> &indices,
                             llvm::DenseSet<std::pair<Term, Term>> &seen) {
  if (a == b)
    return true;
  if (!seen.insert({a, b}).second)
    return true;
  // Every attribute of the node, not only its kind: BVToReal's
  // signedness, widths, extract positions (a review found unsigned and
  // signed conversions of one integer matched: a false PROVED).
  if (a->getKind() != b->getKind() || a->getSort() != b->getSort() ||
      a->getNumOperands() != b->getNumOperands() ||
      a->getName() != b->getName() || a->isSigned() != b->isSigned() ||
      a->getWidth() != b->getWidth() ||
      a->getExtractLow() != b->getExtractLow() || a->isConstant() ||
      b->isConstant() || a->isReduction() || seen.size() > 4096)
    return false;
  if (a->getKind() == Kind::Select) {
    indices.push_back({a->getOperand(0), b->getOperand(0)});
    return true;
  }
  if (a->getSort() != Sort::Real)
    return false; // conditions and integers: equal terms only
  for (auto [x, y] : llvm::zip(a->getOperands(), b->getOperands()))
    if (!matchUpToIndices(x, y, indices, seen))
      return false;
  return true;
}

static bool matchUpToBitVectors(Term a, Term b,
                                SmallVectorImpl<std::pair<Term, Term>> &pairs,
                                llvm::DenseSet<std::pair<Term, Term>> &seen,
                                size_t limit) {
  if (a == b)
    return true;
  if (!seen.insert({a, b}).second)
    return true;
  if (seen.size() > limit || a->getSort() != b->getSort() ||
      a->getWidth() != b->getWidth())
    return false;
  if (a->getSort() == Sort::BV) {
    pairs.push_back({a, b});
    return true;
  }
  // Every attribute of the node, as in matchUpToIndices.
  if (a->getKind() != b->getKind() ||
      a->getNumOperands() != b->getNumOperands() ||
      a->getName() != b->getName() || a->isSigned() != b->isSigned() ||
      a->getExtractLow() != b->getExtractLow() || a->isConstant() ||
      b->isConstant()) {
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; bit-vector difference: " << a->toBriefString(300)
                   << "\n;   differs from " << b->toBriefString(300) << "\n";
    return false;
  }
  Kind k = a->getKind();
  if (k == Kind::Add || k == Kind::Mul || k == Kind::Max || k == Kind::Min) {
    // Commutative: the operands are ordered by term id, which differs
    // between the two sides where they hold different index terms. The
    // operands (of the whole nest, for max and min chains) are matched as
    // multisets: identical ones with each other, the rest in order.
    auto leaves = [&](Term t) {
      SmallVector<Term> out, work{t};
      while (!work.empty()) {
        Term u = work.pop_back_val();
        if (u->getKind() == k && (k == Kind::Max || k == Kind::Min || u == t)) {
          for (Term o : llvm::reverse(u->getOperands()))
            work.push_back(o);
          continue;
        }
        out.push_back(u);
      }
      return out;
    };
    SmallVector<Term> xs = leaves(a), ys = leaves(b);
    if (xs.size() != ys.size())
      return false;
    // Identical operands pair with each other (as multisets).
    auto unmatched = [](ArrayRef<Term> mine, ArrayRef<Term> theirs) {
      llvm::DenseMap<Term, unsigned> count;
      for (Term t : theirs)
        ++count[t];
      SmallVector<Term> rest;
      for (Term t : mine) {
        auto it = count.find(t);
        if (it != count.end() && it->second > 0)
          --it->second;
        else
          rest.push_back(t);
      }
      return rest;
    };
    SmallVector<Term> restX = unmatched(xs, ys), restY = unmatched(ys, xs);
    if (restX.size() != restY.size())
      return false;
    for (auto [x, y] : llvm::zip(restX, restY))
      if (!matchUpToBitVectors(x, y, pairs, seen, limit))
        return false;
    return true;
  }
  for (auto [x, y] : llvm::zip(a->getOperands(), b->getOperands()))
    if (!matchUpToBitVectors(x, y, pairs, seen, limit))
      return false;
  return true;
}

Term bitVectorDifference(TermContext &T, Term a, Term b, size_t limit) {
  SmallVector<std::pair<Term, Term>> pairs;
  llvm::DenseSet<std::pair<Term, Term>> seen;
  if (!matchUpToBitVectors(a, b, pairs, seen, limit))
    return nullptr;
  SmallVector<Term> differ;
  for (auto &[x, y] : pairs)
    differ.push_back(T.notOf(T.eq(x, y)));
  return T.orOf(differ);
}

/// Whether `t` multiplies (or divides by) non-constant real terms: a
/// nonlinear real question, which Z3's nlsat may not stop on.
static bool nonlinearReal(Term t) {
  for (Term u : subterms({t})) {
    if (u->getKind() == Kind::Div && !u->getOperand(1)->isConstant())
      return true;
    if (u->getKind() == Kind::Mul &&
        llvm::count_if(u->getOperands(),
                       [](Term o) { return !o->isConstant(); }) > 1)
      return true;
  }
  return false;
}

/// The reductions of `t`, outermost only (not those inside a body).
static SmallVector<Term> outerReductions(Term t) {
  SmallVector<Term> out, work{t};
  llvm::DenseSet<Term> seen;
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (u->isReduction()) {
      out.push_back(u);
      work.push_back(u->getOperand(0));
      work.push_back(u->getOperand(1));
      continue;
    }
    work.append(u->getOperands().begin(), u->getOperands().end());
  }
  return out;
}

/// For each subterm of `root` (a DAG of at most `limit` nodes), the
/// condition under which its value reaches root's: the disjunction, over
/// its occurrences, of the ite conditions on the way down (the then-side
/// of ite(c, a, b) under c, the else-side under not c). Empty when the DAG
/// is larger than `limit` (the caller then uses true).
static llvm::DenseMap<Term, Term> reachingConditions(TermContext &T, Term root,
                                                     size_t limit) {
  // Parents before children: reverse post-order of a DFS.
  SmallVector<Term> post;
  llvm::DenseSet<Term> seen;
  SmallVector<std::pair<Term, unsigned>> stack{{root, 0}};
  seen.insert(root);
  while (!stack.empty()) {
    auto &[u, i] = stack.back();
    if (i < u->getOperands().size()) {
      Term c = u->getOperand(i++);
      if (seen.insert(c).second) {
        if (seen.size() > limit)
          return {};
        stack.push_back({c, 0});
      }
      continue;
    }
    post.push_back(u);
    stack.pop_back();
  }
  llvm::DenseMap<Term, SmallVector<Term, 2>> ways;
  llvm::DenseMap<Term, Term> ctx;
  ways[root].push_back(T.boolConst(true));
  for (Term u : llvm::reverse(post)) {
    Term c = T.orOf(ways[u]);
    ctx[u] = c;
    auto add = [&](Term child, Term cond) {
      SmallVector<Term, 2> &w = ways[child];
      if (w.size() < 8)
        w.push_back(cond);
      else
        w.assign(1, T.boolConst(true)); // too many ways: any
    };
    if (u->getKind() == Kind::Ite) {
      add(u->getOperand(0), c);
      add(u->getOperand(1), T.andOf(c, u->getOperand(0)));
      add(u->getOperand(2), T.andOf(c, T.notOf(u->getOperand(0))));
      continue;
    }
    for (Term o : u->getOperands())
      add(o, c);
  }
  return ctx;
}

Term Checker::unifyReductions(const std::string &name, Term pc, Term lhs,
                              Term rhs, unsigned depth) {
  SmallVector<Term> mine = outerReductions(lhs), theirs = outerReductions(rhs);
  if (mine.empty() || theirs.empty() || depth > 3)
    return lhs;
  llvm::DenseSet<Term> specSide(theirs.begin(), theirs.end());
  llvm::DenseMap<Term, Term> map;
  // A reduction of the kernel matters only where its value reaches lhs (a
  // loop summary under the guard that the loop runs at all): a and b must
  // agree there only, as substituting b for a changes nothing elsewhere.
  llvm::DenseMap<Term, Term> reaching = reachingConditions(T, lhs, 20000);
  const Term outerPc = pc;
  for (Term a : mine) {
    if (specSide.count(a))
      continue;
    Term pc = outerPc;
    if (Term r = reaching.lookup(a))
      pc = T.andOf(outerPc, r);
    for (Term b : theirs) {
      if (a->getKind() != b->getKind() ||
          a->getOperand(0)->getWidth() != b->getOperand(0)->getWidth())
        continue;
      unsigned w = a->getOperand(0)->getWidth();
      Term lo = a->getOperand(0), hi = a->getOperand(1);
      // j < hi: bounded by hi's largest value when the index form knows it
      // (a size's upper bound), so that the bodies' index terms fold as
      // linear forms (TermContext::canonicalIndex). A name per bound.
      // The range is signed (lo <=s j <s hi): with lo >= 0 and hi below
      // 2^(w-1), j is that unsigned bound too.
      std::string jName = "reduce.j" + std::to_string(depth);
      std::optional<std::pair<uint64_t, uint64_t>> ivLo = T.indexInterval(lo);
      if (std::optional<std::pair<uint64_t, uint64_t>> iv =
              T.indexInterval(hi);
          iv && ivLo && iv->second >= 1 && w <= 64 &&
          iv->second < (uint64_t(1) << (w - 1)) &&
          ivLo->second < (uint64_t(1) << (w - 1))) {
        jName += "<" + std::to_string(iv->second);
        if (T.upperBound(jName) != iv->second - 1)
          T.setUpperBound(jName, iv->second - 1);
      }
      Term j = T.bvVar(jName, w);
      Term inRange = T.andOf({pc, T.bvSle(lo, j), T.bvSlt(j, hi)});
      Term bodyA = T.substitute(a->getOperand(2), {{T.boundVar(a), j}});
      Term bodyB = T.substitute(b->getOperand(2), {{T.boundVar(b), j}});
      // Reductions inside the bodies first (a softmax's max inside its sum).
      bodyA = unifyReductions(name, inRange, bodyA, bodyB, depth + 1);
      // Bodies that read different numbers of elements of some buffer are
      // not asked (a body of four strided elements against one: the
      // question has no cheap answer, and the answer is no).
      auto reads = [](Term t) {
        std::map<std::string, unsigned> n;
        for (Term u : subterms({t}))
          if (u->getKind() == Kind::Select && u->getSort() == Sort::Real)
            ++n[u->getName().str()];
        return n;
      };
      if (getenv("KPROOF_DUMP_TERMS"))
        llvm::errs() << "; unify " << a->toBriefString(300) << "\n;  with "
                     << b->toBriefString(300) << "\n";
      if (reads(bodyA) != reads(bodyB)) {
        // A loop over tiles: the kernel's element j covers st consecutive
        // elements of the spec's, the last tile padded past the spec's end
        // (`k0 + r < n ? ... : 0` or -inf). st from the elements read: the
        // largest ratio of a buffer's reads.
        auto ra = reads(bodyA), rb = reads(bodyB);
        uint64_t st = 1;
        for (auto &[buf, cnt] : ra)
          if (auto it = rb.find(buf);
              it != rb.end() && it->second && cnt % it->second == 0)
            st = std::max<uint64_t>(st, cnt / it->second);
        if (st > 1 && st <= 1024 &&
            unifyStrided(name, pc, inRange, a, b, j, bodyA, st)) {
          map[a] = b;
          break;
        }
        continue;
      }
      // Two empty ranges give the same value (0, -inf or +inf) whatever
      // their bounds: a top-tested loop's trip count ite(e - s <= 0, 0,
      // e - s) meets a spec's [max(0, s), min(n, e)) when s >= e.
      Term boundsDiffer = T.andOf(
          T.orOf(T.notOf(T.eq(lo, b->getOperand(0))),
                 T.notOf(T.eq(hi, b->getOperand(1)))),
          T.notOf(T.andOf(T.bvSle(hi, lo),
                          T.bvSle(b->getOperand(1), b->getOperand(0)))));
      Term bodiesDiffer = nullptr;
      SmallVector<std::pair<Term, Term>> indexPairs;
      llvm::DenseSet<std::pair<Term, Term>> matched;
      if (N.provesEqual(bodyA, bodyB)) {
        bodiesDiffer = T.boolConst(false);
      } else if ((nonlinearReal(bodyA) || nonlinearReal(bodyB)) &&
                 matchUpToIndices(bodyA, bodyB, indexPairs, matched)) {
        // Nonlinear bodies (x[a]^2 w): equal wherever the elements they
        // read are the same elements, asked over the index terms alone
        // (the real question ran past 13 minutes in nlsat).
        SmallVector<Term> differ;
        for (auto &[ia, ib] : indexPairs)
          differ.push_back(T.notOf(T.eq(ia, ib)));
        bodiesDiffer = T.andOf(inRange, T.orOf(differ));
      } else {
        bodiesDiffer = T.andOf(inRange, T.notOf(T.eq(bodyA, bodyB)));
      }
      Term bad = T.andOf(pc, T.orOf(boundsDiffer, bodiesDiffer));
      // A bounded effort: this is a shortcut, the value query follows.
      constexpr uint64_t kUnifyRlimit = 3'000'000;
      // Bit-vectors only: the integer encoding (nlsat) does not heed the
      // resource limit.
      auto unsat = [&](Term t) {
        return shortcutUnsat(t, kUnifyRlimit, /*bitVectorsFirst=*/true);
      };
      bool boundsOk = unsat(T.andOf(pc, boundsDiffer));
      bool allOk = boundsOk && unsat(bad);
      if (getenv("KPROOF_DUMP_TERMS"))
        llvm::errs() << ";  bounds " << (boundsOk ? "equal" : "not proved equal")
                     << ", bodies " << (allOk ? "equal" : "not proved equal")
                     << "\n";
      if (!allOk)
        continue;
      proved(name + " (" + std::string(a->getKind() == Kind::SumOver ? "sum"
                                       : a->getKind() == Kind::MaxOver
                                           ? "max"
                                           : "min") +
                 " over equal bounds of equal elements)",
             bad, "z3 (unsat)");
      map[a] = b;
      // A max (min) over a range that may be empty stands in an ite
      // ite(lo < hi, R, -inf) (TermContext::reduce). The kernel's such
      // ite is the spec's where its emptiness agrees with the spec's,
      // asked where it reaches.
      if (a->getKind() != Kind::SumOver) {
        Term neutral = a->getKind() == Kind::MaxOver ? T.negInf() : T.posInf();
        Term ca = T.bvSlt(lo, hi);
        Term cb = T.bvSlt(b->getOperand(0), b->getOperand(1));
        Term wa = T.ite(ca, a, neutral), wb = T.ite(cb, b, neutral);
        if (wa != a && reaching.count(wa)) {
          Term pw = T.andOf(outerPc, reaching.lookup(wa));
          Term differ = T.orOf(T.andOf(ca, T.notOf(cb)),
                               T.andOf(cb, T.notOf(ca)));
          if (unsat(T.andOf(pw, differ))) {
            proved(name + " (emptiness of equal reductions)",
                   T.andOf(pw, differ), "z3 (unsat)");
            map[wa] = wb;
          }
        }
      }
      break;
    }
  }
  return map.empty() ? lhs : T.substitute(lhs, map);
}

bool Checker::unifyStrided(const std::string &name, Term pc, Term inRange,
                           Term a, Term b, Term j, Term bodyA, uint64_t st) {
  // a = R_{j in [lo, hi)} A(j) (the kernel's), b = R_{i in [c, hiB)} f(i)
  // (the spec's). With base(j) = c + st (j - lo), when
  //   A(j) = R_{r < st} ite(base(j) + r < hiB, f(base(j) + r), neutral)
  // for every j in [lo, hi), and hiB <= c + st (hi - lo) (no wrap), the
  // indices base(j) + r cover [c, c + st (hi - lo)) once each and those
  // past hiB add the neutral element: a = b exactly.
  Kind kind = a->getKind();
  if (kind == Kind::MinOver)
    return false;
  unsigned w = j->getWidth();
  Term lo = a->getOperand(0), hi = a->getOperand(1);
  Term c = b->getOperand(0), hiB = b->getOperand(1);
  Term neutral = kind == Kind::SumOver ? T.real(0) : T.negInf();
  Term base =
      T.bvBin(Kind::BVAdd, c,
              T.bvBin(Kind::BVMul, T.bv(st, w), T.bvBin(Kind::BVSub, j, lo)));
  Term fvar = T.boundVar(b), f = b->getOperand(2);
  Term expect = nullptr;
  for (uint64_t r = 0; r < st; ++r) {
    Term idx = T.canonicalIndex(T.bvBin(Kind::BVAdd, base, T.bv(r, w)));
    Term fr = T.substitute(f, {{fvar, idx}});
    Term e = T.ite(T.bvSlt(idx, hiB), fr, neutral);
    if (!e)
      return false;
    expect = !expect                 ? e
             : kind == Kind::SumOver ? T.add(expect, e)
                                     : T.max(expect, e);
    if (!expect)
      return false;
  }
  Term count = T.bvBin(Kind::BVSub, hi, lo);
  Term end = T.bvBin(Kind::BVAdd, c, T.bvBin(Kind::BVMul, T.bv(st, w), count));
  Term boundsBad =
      T.andOf(pc, T.notOf(T.andOf({T.bvSle(lo, hi),
                                   T.bvUle(count, T.bv(uint64_t(1) << 32, w)),
                                   T.bvSle(c, end), T.bvSle(hiB, end)})));
  constexpr uint64_t kStridedRlimit = 3'000'000;
  bool boundsOk = shortcutUnsat(boundsBad, kStridedRlimit, true);
  bool bodiesOk = false;
  Term bodiesBad = T.andOf(inRange, T.notOf(T.eq(bodyA, expect)));
  if (boundsOk)
    bodiesOk = N.provesEqual(bodyA, expect) ||
               shortcutUnsat(bodiesBad, kStridedRlimit, true);
  if (getenv("KPROOF_DUMP_TERMS"))
    llvm::errs() << ";  strided by " << st << ": bounds "
                 << (boundsOk ? "cover" : "not proved to cover") << ", bodies "
                 << (bodiesOk ? "equal" : "not proved equal")
                 << "\n;   kernel body: " << bodyA->toBriefString(dumpLimit())
                 << "\n;   expected:    " << expect->toBriefString(dumpLimit())
                 << "\n";
  if (!boundsOk || !bodiesOk)
    return false;
  proved(name + " (" + std::string(kind == Kind::SumOver ? "sum" : "max") +
             " over tiles of " + std::to_string(st) +
             " elements, the last padded, equal to the spec's)",
         T.orOf(boundsBad, bodiesBad), "z3 (unsat)");
  return true;
}

/// The elements of buffers read by real Selects in `t`, per buffer.
static std::map<std::string, unsigned> selectReads(Term t) {
  std::map<std::string, unsigned> n;
  for (Term u : subterms({t}))
    if (u->getKind() == Kind::Select && u->getSort() == Sort::Real)
      ++n[u->getName().str()];
  return n;
}

/// Lower bounds of size variables that `pc` states: `K <=s v`, `K <s v`
/// and their negations, and nvcc's unrolling guard `!(v + K1 <u K2)` with
/// K1 = -m (v - m >= K2 when v >= m is already known, so the subtraction
/// does not wrap). Only variables with a declared upper bound below 2^(w-1)
/// (their signed and unsigned values agree).
llvm::StringMap<uint64_t> pathLowerBounds(TermContext &T, Term pc) {
  llvm::StringMap<uint64_t> lb;
  auto known = [&](Term v) -> std::optional<uint64_t> {
    if (v->getKind() != Kind::BVVar || v->getWidth() > 63)
      return std::nullopt;
    std::optional<uint64_t> hi = T.upperBound(v->getName());
    if (!hi || *hi >= (uint64_t(1) << (v->getWidth() - 1)))
      return std::nullopt;
    uint64_t l = T.lowerBound(v->getName()).value_or(0);
    auto it = lb.find(v->getName());
    return it != lb.end() ? std::max(l, it->second) : l;
  };
  auto note = [&](Term v, int64_t k) {
    std::optional<uint64_t> cur = known(v);
    if (!cur || k <= 0 || uint64_t(k) <= *cur)
      return;
    lb[v->getName()] = uint64_t(k);
  };
  auto sconst = [](Term c) -> std::optional<int64_t> {
    if (c->getKind() != Kind::BVConst || c->getWidth() > 64)
      return std::nullopt;
    return c->getAPInt().getSExtValue();
  };
  for (int round = 0; round < 2; ++round)
    for (Term c : conjunctsOf(pc)) {
      bool neg = c->getKind() == Kind::Not;
      Term e = neg ? c->getOperand(0) : c;
      if (e->getNumOperands() != 2)
        continue;
      Term a = e->getOperand(0), b = e->getOperand(1);
      Kind k = e->getKind();
      if (!neg && (k == Kind::BVSle || k == Kind::BVSlt))
        if (std::optional<int64_t> x = sconst(a))
          note(b, *x + (k == Kind::BVSlt)); // x <= v, x < v
      if (neg && (k == Kind::BVSle || k == Kind::BVSlt))
        if (std::optional<int64_t> x = sconst(b))
          note(a, *x + (k == Kind::BVSle)); // !(v <= x), !(v < x)
      // x < v + c (signed; a loop entry `0 < n - 1`): v >= x - c + 1, when
      // v + c cannot wrap within v's declared bounds.
      auto offset = [&](Term t, Term &v) -> std::optional<int64_t> {
        if (t->getKind() != Kind::BVAdd || t->getWidth() > 63)
          return std::nullopt;
        for (int i = 0; i < 2; ++i)
          if (std::optional<int64_t> c = sconst(t->getOperand(1 - i))) {
            v = t->getOperand(i);
            std::optional<uint64_t> cur = known(v);
            std::optional<uint64_t> hi =
                v->getKind() == Kind::BVVar
                    ? T.upperBound(v->getName())
                    : std::optional<uint64_t>();
            int64_t half = int64_t(1) << (t->getWidth() - 1);
            if (cur && hi && int64_t(*cur) + *c >= -half &&
                int64_t(*hi) + *c < half)
              return c;
          }
        return std::nullopt;
      };
      if (!neg && (k == Kind::BVSle || k == Kind::BVSlt)) {
        Term v = nullptr;
        if (std::optional<int64_t> x = sconst(a))
          if (std::optional<int64_t> c = offset(b, v))
            note(v, *x - *c + (k == Kind::BVSlt));
      }
      if (neg && (k == Kind::BVSle || k == Kind::BVSlt)) {
        Term v = nullptr;
        if (std::optional<int64_t> x = sconst(b))
          if (std::optional<int64_t> c = offset(a, v))
            note(v, *x - *c + (k == Kind::BVSle)); // !(v + c <= x)
      }
      if (neg && k == Kind::BVUlt && a->getKind() == Kind::BVAdd)
        if (std::optional<int64_t> k2 = sconst(b); k2 && *k2 >= 0)
          for (int i = 0; i < 2; ++i) {
            Term v = a->getOperand(i);
            std::optional<int64_t> k1 = sconst(a->getOperand(1 - i));
            std::optional<uint64_t> cur = known(v);
            if (k1 && cur && *k1 < 0 && uint64_t(-*k1) <= *cur)
              note(v, *k2 - *k1); // v - m >= k2
          }
    }
  return lb;
}

Term Checker::tileReductions(const std::string &name, Term pc, Term lhs,
                             Term rhs) {
  // Index terms read under the bounds this case's path states (n >= 4 past
  // an unrolled loop's guard): the element variables' forms are exact where
  // the query looks (it is asked under pc). Restored on return.
  // Products of sizes and thread ids multiplied out, so the kernel's
  // n * row and the spec's (4 row / 4) * n meet as one form.
  auto saved = T.saveBounds();
  T.setMultiplyOutProducts(true);
  for (auto &[v, l] : pathLowerBounds(T, pc)) {
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; tile: " << v << " >= " << l << " on this path\n";
    T.setLowerBound(v, l);
  }
  Term result = tileReductionsUnder(name, pc, lhs, rhs);
  T.restoreBounds(std::move(saved));
  return result;
}

Term Checker::tileReductionsUnder(const std::string &name, Term pc, Term lhs,
                                  Term rhs) {
  // The spec's reduction Q = R_{i in [lo, hi)} f(i), the whole of rhs.
  if (!rhs->isReduction() || rhs->getKind() == Kind::MinOver)
    return lhs;
  Kind kind = rhs->getKind();
  Kind combine = kind == Kind::SumOver ? Kind::Add : Kind::Max;
  // The kernel's value: a sum (max chain) of reductions of the same kind.
  SmallVector<Term> parts, rest, work{lhs};
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (u->getKind() == combine) {
      for (Term o : u->getOperands())
        work.push_back(o);
      continue;
    }
    if (u->getKind() == kind)
      parts.push_back(u);
    else
      rest.push_back(u);
  }
  if (parts.empty() || parts.size() > 3)
    return lhs;
  // What remains must be the neutral element (0 for sums, -inf for max).
  for (Term r : rest)
    if (!(kind == Kind::SumOver ? r == T.real(0)
                                : r->getKind() == Kind::NegInf))
      return lhs;
  Term f = rhs->getOperand(2), fvar = T.boundVar(rhs);
  unsigned w = fvar->getWidth();
  auto fRead = selectReads(f);
  if (fRead.size() != 1)
    return lhs;
  const auto &[buf, per] = *fRead.begin();
  SmallVector<unsigned> strides;
  for (Term p : parts) {
    if (p->getOperand(0)->getWidth() != w)
      return lhs;
    auto reads = selectReads(p->getOperand(2));
    if (reads.size() != 1 || !reads.count(buf) || reads[buf] % per)
      return lhs;
    strides.push_back(reads[buf] / per);
  }
  // Each order of the parts: the blocks tile [lo, hi) one after another.
  // The widest stride first (an unrolled loop before its remainder loop),
  // then the other orders.
  SmallVector<unsigned> order;
  for (unsigned k = 0; k < parts.size(); ++k)
    order.push_back(k);
  SmallVector<SmallVector<unsigned>> orders;
  do
    orders.push_back(order);
  while (std::next_permutation(order.begin(), order.end()));
  std::stable_sort(orders.begin(), orders.end(),
                   [&](const SmallVector<unsigned> &a,
                       const SmallVector<unsigned> &b) {
                     for (unsigned k = 0; k < a.size(); ++k)
                       if (strides[a[k]] != strides[b[k]])
                         return strides[a[k]] > strides[b[k]];
                     return false;
                   });
  for (const SmallVector<unsigned> &order : orders) {
    SmallVector<Term> conds;
    Term c = rhs->getOperand(0);
    Term limit = T.bv(uint64_t(1) << 32, w);
    for (unsigned k : order) {
      Term p = parts[k];
      Term lo = p->getOperand(0), hi = p->getOperand(1);
      unsigned st = strides[k];
      // j in [lo, hi): where the index form bounds hi (and lo is not
      // negative), j gets that bound as its declared range, so the body's
      // byte offsets scaled back to elements read as linear forms; the
      // rewrite is exact for every j the implication below reaches.
      Term j = T.bvVar("tile.j" + std::to_string(tileVars++), w);
      if (auto hiRange = T.indexInterval(hi))
        if (auto loRange = T.indexInterval(lo);
            loRange && hiRange->second >= 1 &&
            loRange->second < (uint64_t(1) << (w - 1)) &&
            hiRange->second <= (uint64_t(1) << (w - 1)))
          T.setUpperBound(j->getName(), hiRange->second - 1);
      Term body = T.substitute(p->getOperand(2), {{T.boundVar(p), j}});
      // sum_{r < st} f(c + st * (j - lo) + r)
      Term base = T.bvBin(Kind::BVAdd, c,
                          T.bvBin(Kind::BVMul, T.bv(st, w),
                                  T.bvBin(Kind::BVSub, j, lo)));
      Term expect = nullptr;
      for (unsigned r = 0; r < st; ++r) {
        Term fr = T.substitute(
            f, {{fvar, T.bvBin(Kind::BVAdd, base, T.bv(r, w))}});
        expect = !expect ? fr
                 : kind == Kind::SumOver ? T.add(expect, fr)
                                         : T.max(expect, fr);
      }
      Term count = T.bvBin(Kind::BVSub, hi, lo);
      Term next = T.bvBin(Kind::BVAdd, c, T.bvBin(Kind::BVMul, T.bv(st, w),
                                                  count));
      conds.push_back(T.bvSle(lo, hi));
      conds.push_back(T.bvUle(count, limit));
      conds.push_back(T.bvSle(c, next));
      conds.push_back(T.implies(T.andOf(T.bvSle(lo, j), T.bvSlt(j, hi)),
                                T.eq(body, expect)));
      c = next;
    }
    conds.push_back(T.eq(c, rhs->getOperand(1)));
    Term bad = T.andOf(pc, T.notOf(T.andOf(conds)));
    constexpr uint64_t kTileRlimit = 5'000'000;
    bool tiled = shortcutUnsat(bad, kTileRlimit, /*bitVectorsFirst=*/true);
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; tile " << parts.size() << " parts (strides "
                   << strides.size() << "): "
                   << (tiled ? "proved" : "not proved") << "\n"
                   << ";   " << T.andOf(conds)->toBriefString(dumpLimit())
                   << "\n";
    if (tiled) {
      proved(name + " (" + std::to_string(parts.size()) + " " +
                 (kind == Kind::SumOver ? "sums" : "maxima") +
                 " of the kernel tile the spec's range)",
             bad, "z3 (unsat)");
      return rhs;
    }
  }
  return lhs;
}

} // namespace kproof::engine::check
