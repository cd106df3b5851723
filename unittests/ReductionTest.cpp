//===- ReductionTest.cpp - SumOver/MaxOver/MinOver terms -----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reductions over an integer range (Term.h): canonical bound variables (so
// a kernel loop's sum and a spec's sum are one term), capture-free
// rebuilding under substitution, element-by-element evaluation, and their
// Z3 lowering as functions of their bounds.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/Terms/Evaluate.h"
#include "KProof/Verifier/Terms/Normalizer.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

/// sum_{j in [0, n)} x[row * n + j] with the bound variable named `var`.
Term rowSum(TermContext &T, llvm::StringRef var) {
  Term j = T.bvVar(var, 64), n = T.bvVar("n", 64), row = T.bvVar("row", 64);
  Term idx = T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, row, n), j);
  return T.reduce(Kind::SumOver, j, T.bv(0, 64), n, T.element("x", idx));
}

} // namespace

TEST(Reduction, AlphaEquivalentReductionsAreOneTerm) {
  TermContext T;
  Term a = rowSum(T, "k"), b = rowSum(T, "spec.j");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->getName(), "$r1");
  // Different bounds or bodies are different terms.
  Term j = T.bvVar("j", 64);
  EXPECT_NE(a, T.reduce(Kind::SumOver, j, T.bv(1, 64), T.bvVar("n", 64),
                        T.element("x", j)));
  EXPECT_NE(a, T.reduce(Kind::MaxOver, j, T.bv(0, 64), T.bvVar("n", 64),
                        a->getOperand(2)));
}

TEST(Reduction, NestingLevelsAndConstantRanges) {
  TermContext T;
  Term j = T.bvVar("j", 64), i = T.bvVar("i", 64), n = T.bvVar("n", 64);
  Term zero = T.bv(0, 64);
  // (nonEmpty: n >= 1 is known; else the max is ite(0 < n, m, -inf).)
  Term m = T.reduce(Kind::MaxOver, j, zero, n, T.element("x", j),
                    /*nonEmpty=*/true);
  Term d = T.reduce(Kind::SumOver, i, zero, n,
                    T.exp(T.sub(T.element("x", i), m)));
  EXPECT_EQ(m->getName(), "$r1");
  EXPECT_EQ(d->getName(), "$r2");
  // Empty and one-element constant ranges fold.
  EXPECT_EQ(T.reduce(Kind::SumOver, j, T.bv(3, 64), T.bv(3, 64),
                     T.element("x", j)),
            T.real(0));
  EXPECT_EQ(T.reduce(Kind::MaxOver, j, T.bv(3, 64), T.bv(2, 64),
                     T.element("x", j))
                ->getKind(),
            Kind::NegInf);
  EXPECT_EQ(T.reduce(Kind::SumOver, j, T.bv(3, 64), T.bv(4, 64),
                     T.element("x", j)),
            T.realVar("x[3]"));
}

TEST(Reduction, SubstitutionDoesNotCapture) {
  TermContext T;
  // sum_i (y + x[i]) with y := max_j x[j]: the inner max is bound at level
  // 1, so the outer sum moves to level 2 and its own variable with it.
  Term i = T.bvVar("i", 64), j = T.bvVar("j", 64), n = T.bvVar("n", 64);
  Term zero = T.bv(0, 64), y = T.realVar("y");
  Term s = T.reduce(Kind::SumOver, i, zero, n, T.add(y, T.element("x", i)));
  ASSERT_EQ(s->getName(), "$r1");
  Term m = T.reduce(Kind::MaxOver, j, zero, n, T.element("x", j),
                    /*nonEmpty=*/true);
  Term r = T.substitute(s, {{y, m}});
  ASSERT_TRUE(r->isReduction());
  EXPECT_EQ(r->getName(), "$r2");
  // The same term as building it with the max in place.
  Term k = T.bvVar("k", 64);
  EXPECT_EQ(r, T.reduce(Kind::SumOver, k, zero, n,
                        T.add(m, T.element("x", k))));
}

TEST(Reduction, EvaluatesElementByElement) {
  TermContext T;
  Term s = rowSum(T, "j");
  Term j = T.bvVar("j", 64);
  Term mx = T.reduce(Kind::MaxOver, j, T.bv(0, 64), T.bvVar("n", 64),
                     T.element("x", j));
  Assignment in;
  in.bitvectors["n"] = llvm::APInt(64, 3);
  in.bitvectors["row"] = llvm::APInt(64, 1);
  for (uint64_t e = 0; e < 6; ++e)
    in.elements["x"][e] = Rational(int64_t(e) - 4);
  Evaluator ev(in);
  // Row 1: x[3] + x[4] + x[5] = -1 + 0 + 1.
  auto v = ev.real(s);
  ASSERT_TRUE(v) << ev.getError();
  EXPECT_TRUE(v->contains(0));
  EXPECT_TRUE(v->isPoint());
  // max of x[0..3) = -2.
  auto m = ev.real(mx);
  ASSERT_TRUE(m) << ev.getError();
  EXPECT_TRUE(m->contains(-2));
  EXPECT_TRUE(m->isPoint());
  // An empty max is -inf (an extended point).
  Assignment empty = in;
  empty.bitvectors["n"] = llvm::APInt(64, 0);
  Evaluator ev0(empty);
  std::optional<Interval> m0 = ev0.real(mx);
  ASSERT_TRUE(m0) << ev0.getError();
  EXPECT_EQ(m0->extendedPoint(), std::optional<int>(-1));
  auto z = ev0.real(s);
  ASSERT_TRUE(z) << ev0.getError();
  EXPECT_TRUE(z->contains(0));
}

TEST(Reduction, NormalFormOfTheBody) {
  TermContext T;
  Normalizer N(T);
  Term j = T.bvVar("j", 64), n = T.bvVar("n", 64), zero = T.bv(0, 64);
  Term x = T.element("x", j);
  // sum_j (2 * x[j] + x[j]) and sum_j 3 * x[j] are equal as normal forms
  // (x[j] + x[j] is the term 2 * x[j] already: TermContext::add).
  Term a = T.reduce(Kind::SumOver, j, zero, n,
                    T.add(T.mul(T.real(2), x), x));
  Term b = T.reduce(Kind::SumOver, j, zero, n, T.mul(T.real(3), x));
  EXPECT_NE(a, b);
  EXPECT_TRUE(N.provesEqual(a, b));
  EXPECT_FALSE(N.provesEqual(
      a, T.reduce(Kind::SumOver, j, zero, n, T.mul(T.real(2), x))));
}

TEST(Reduction, LowersAsAFunctionOfItsBounds) {
  TermContext T;
  smt::Context z3;
  Z3Lowering lowering(z3, T);
  smt::Solver solver(z3);
  Term j = T.bvVar("j", 64), zero = T.bv(0, 64);
  Term n = T.bvVar("n", 64), m = T.bvVar("m", 64);
  Term sn = T.reduce(Kind::SumOver, j, zero, n, T.element("x", j));
  Term sm = T.reduce(Kind::SumOver, j, zero, m, T.element("x", j));
  // n == m and the sums differ: unsat with the congruence facts.
  smt::Expr e = lowering.lower(T.andOf(T.eq(n, m), T.notOf(T.eq(sn, sm))));
  ASSERT_TRUE(e.isValid()) << lowering.getError();
  solver.add(e);
  for (const auto &[name, fact] : lowering.atomFacts())
    solver.add(fact);
  EXPECT_EQ(solver.check(), smt::CheckResult::Unsat);
  // Different bounds: the sums may differ (sat).
  smt::Solver other(z3);
  smt::Expr f = lowering.lower(T.notOf(T.eq(sn, sm)));
  ASSERT_TRUE(f.isValid());
  other.add(f);
  for (const auto &[name, fact] : lowering.atomFacts())
    other.add(fact);
  EXPECT_EQ(other.check(), smt::CheckResult::Sat);
}

/// A constant factor of a sum's body is pulled out (sum_j c f(j) =
/// c sum_j f(j)): a loop that adds an element twice and halves the total
/// meets the spec's sum. Maxima keep their bodies (max_j 2 f(j) is
/// 2 max_j f(j) only for c > 0; not rewritten).
TEST(Reduction, ConstantFactorsLeaveSums) {
  TermContext T;
  Term j = T.bvVar("j", 64), n = T.bvVar("n", 64);
  Term xj = T.element("x", j);
  Term twice = T.reduce(Kind::SumOver, j, T.bv(0, 64), n,
                        T.mul(T.real(2), xj));
  Term sum = T.reduce(Kind::SumOver, j, T.bv(0, 64), n, xj);
  EXPECT_EQ(twice, T.mul(T.real(2), sum));
  EXPECT_EQ(T.mul(T.real(1, 2), twice), sum);
  Term maxTwice = T.reduce(Kind::MaxOver, j, T.bv(0, 64), n,
                           T.mul(T.real(2), xj), /*nonEmpty=*/true);
  EXPECT_TRUE(maxTwice->isReduction());
}

TEST(Reduction, MaskedBodiesShrinkTheRange) {
  // sum_{j in [0, n)} ite(a <= j32 && j32 < b && p, x[j], 0), the bounds
  // on the low 32 bits of j (a spec's index_cast), is the sum of x over
  // [max(0, a), min(n, b)) shifted to 0, under p.
  TermContext T;
  Term j = T.bvVar("j", 64), n32 = T.bvVar("n", 32);
  Term n = T.bvSExt(n32, 64);
  Term a = T.bvVar("a", 32), b = T.bvVar("b", 32), p = T.boolVar("p");
  Term j32 = T.bvExtract(j, 0, 32);
  Term body = T.ite(T.andOf({T.bvSle(a, j32), T.bvSlt(j32, b), p}),
                    T.element("x", j), T.real(0));
  Term s = T.reduce(Kind::SumOver, j, T.bv(0, 64), n, body);
  ASSERT_EQ(s->getKind(), Kind::Ite);
  EXPECT_EQ(s->getOperand(0), p);
  Term r = s->getOperand(1);
  ASSERT_EQ(r->getKind(), Kind::SumOver);
  EXPECT_TRUE(r->getOperand(0)->getKind() == Kind::BVConst &&
              r->getOperand(0)->getAPInt().isZero());
  // Same value as the masked sum, element by element, at a few points
  // (including an empty and a clipped range).
  Term masked = T.reduce(Kind::SumOver, j, T.bv(0, 64), n,
                         T.ite(T.andOf({T.bvSle(a, j32), T.bvSlt(j32, b), p}),
                               T.element("x", j), T.real(1) /*not neutral*/));
  EXPECT_EQ(masked->getKind(), Kind::SumOver); // not rewritten
  for (auto [av, bv, nv] : {std::tuple{1, 4, 6}, std::tuple{4, 2, 6},
                            std::tuple{-3, 9, 5}, std::tuple{0, 0, 3}}) {
    Assignment in;
    in.bitvectors["n"] = llvm::APInt(32, nv);
    in.bitvectors["a"] = llvm::APInt(32, av, /*isSigned=*/true);
    in.bitvectors["b"] = llvm::APInt(32, bv, /*isSigned=*/true);
    in.bools["p"] = true;
    for (uint64_t e = 0; e < 10; ++e)
      in.elements["x"][e] = Rational(int64_t(e) + 1);
    int64_t expect = 0;
    for (int64_t e = std::max(0, av); e < std::min(nv, bv); ++e)
      expect += e + 1;
    Evaluator ev(in);
    auto v = ev.real(s);
    ASSERT_TRUE(v) << ev.getError();
    EXPECT_TRUE(v->contains(Rational(expect))) << av << " " << bv << " " << nv;
    EXPECT_TRUE(v->isPoint());
  }
}

TEST(Reduction, MaskedBodiesThatMayWrapStay) {
  // A bound on 32 bits of j over a range that does not fit 32 bits: the
  // low bits are not j, nothing is rewritten.
  TermContext T;
  Term j = T.bvVar("j", 64), n = T.bvVar("n", 64);
  Term a = T.bvVar("a", 32);
  Term body = T.ite(T.bvSle(a, T.bvExtract(j, 0, 32)), T.element("x", j),
                    T.real(0));
  Term s = T.reduce(Kind::SumOver, j, T.bv(0, 64), n, body);
  ASSERT_EQ(s->getKind(), Kind::SumOver);
  EXPECT_EQ(s->getOperand(2)->getKind(), Kind::Ite);
}

namespace {
/// Lane c's masked load of a row of n elements, as Triton emits it:
/// ite(c < n, x[zext(n * row) + c], neutral).
Term maskedLoad(TermContext &T, uint64_t c, Term neutral) {
  Term n = T.bvVar("n", 32), row = T.bvVar("row", 32);
  Term idx = T.bvBin(Kind::BVAdd, T.bvZExt(T.bvBin(Kind::BVMul, n, row), 64),
                     T.bv(c, 64));
  return T.ite(T.bvSlt(T.bv(c, 32), n), T.element("x", idx), neutral);
}

/// A context with n in [1, 8] and row < 4 declared.
void declareBounds(TermContext &T) {
  T.setUpperBound("n", 8);
  T.setLowerBound("n", 1);
  T.setUpperBound("row", 3);
}
} // namespace

TEST(Reduction, MaskedElementsMergeIntoOneRange) {
  // max over c < 8 of ite(c < n, x[n * row + c], -inf), folded pairwise
  // in order (a warp's butterfly), is the max over [0, n) of the row: the
  // one-element ranges [c, smin(n, c + 1)) meet, and smin(n, 8) is n
  // under n's declared bound. Likewise the sum with neutral 0.
  TermContext T;
  declareBounds(T);
  Term mx = maskedLoad(T, 0, T.negInf());
  Term sum = maskedLoad(T, 0, T.real(0));
  for (uint64_t c = 1; c < 8; ++c) {
    mx = T.max(mx, maskedLoad(T, c, T.negInf()));
    sum = T.add(sum, maskedLoad(T, c, T.real(0)));
  }
  ASSERT_EQ(mx->getKind(), Kind::MaxOver) << mx->toString();
  ASSERT_EQ(sum->getKind(), Kind::SumOver) << sum->toString();
  Term n64 = T.bvSExt(T.bvVar("n", 32), 64);
  EXPECT_EQ(mx->getOperand(1), n64);
  EXPECT_EQ(sum->getOperand(1), n64);
  EXPECT_TRUE(mx->getOperand(0)->getKind() == Kind::BVConst &&
              mx->getOperand(0)->getAPInt().isZero());
  // The same values as the masked elements, at every n and two rows.
  for (int64_t nv = 1; nv <= 8; ++nv)
    for (int64_t rv : {0, 2}) {
      Assignment in;
      in.bitvectors["n"] = llvm::APInt(32, nv);
      in.bitvectors["row"] = llvm::APInt(32, rv);
      for (uint64_t e = 0; e < 40; ++e)
        in.elements["x"][e] = Rational(int64_t((e * 7) % 11) - 5);
      int64_t best = INT64_MIN, total = 0;
      for (int64_t c = 0; c < nv; ++c) {
        int64_t v = int64_t(((nv * rv + c) * 7) % 11) - 5;
        best = std::max(best, v);
        total += v;
      }
      Evaluator ev(in);
      auto m = ev.real(mx), s = ev.real(sum);
      ASSERT_TRUE(m && s) << ev.getError();
      EXPECT_TRUE(m->isPoint() && m->contains(Rational(best))) << nv;
      EXPECT_TRUE(s->isPoint() && s->contains(Rational(total))) << nv;
    }
}

TEST(Reduction, MaskedElementsThatDoNotMeetStay) {
  TermContext T;
  declareBounds(T);
  // Elements 0 and 2: a gap, no range.
  Term gap = T.max(maskedLoad(T, 0, T.negInf()), maskedLoad(T, 2, T.negInf()));
  EXPECT_NE(gap->getKind(), Kind::MaxOver);
  EXPECT_FALSE(gap->isReduction());
  // Element 1 twice in a sum: counted twice, not a range.
  Term twice = T.add(maskedLoad(T, 1, T.real(0)), maskedLoad(T, 1, T.real(0)));
  EXPECT_FALSE(twice->isReduction());
  // A value that does not read the element at its column (the same
  // element x[n * row] under the guards of columns 0 and 1): no range.
  Term n = T.bvVar("n", 32), row = T.bvVar("row", 32);
  Term first = T.element("x", T.bvZExt(T.bvBin(Kind::BVMul, n, row), 64));
  Term same = T.max(T.ite(T.bvSlt(T.bv(0, 32), n), first, T.negInf()),
                    T.ite(T.bvSlt(T.bv(1, 32), n), first, T.negInf()));
  EXPECT_FALSE(same->isReduction());
  // A constant bound: the guards fold, nothing to merge.
  Term c0 = T.ite(T.bvSlt(T.bv(0, 32), T.bv(5, 32)), first, T.negInf());
  EXPECT_EQ(c0, first);
}

TEST(Reduction, ReadableForm) {
  // --explain's infix form: element reads, reductions with their bound
  // variables as j1, j2, merged values as (c ? a : b), no widths.
  TermContext T;
  Term j = T.bvVar("j", 64), i = T.bvVar("i", 64);
  Term n = T.bvSExt(T.bvVar("n", 32), 64), row = T.bvVar("row", 64);
  Term at = [&](Term k) {
    return T.element("x",
                     T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, row, n), k));
  }(j);
  Term m = T.reduce(Kind::MaxOver, j, T.bv(0, 64), n, at, /*nonEmpty=*/true);
  Term xi =
      T.element("x", T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, row, n), i));
  Term d = T.reduce(Kind::SumOver, i, T.bv(0, 64), n, T.exp(T.sub(xi, m)));
  EXPECT_EQ(m->toReadableString(), "max_{j1 in [0, n)} x[(row * n) + j1]");
  EXPECT_EQ(d->toReadableString(),
            "sum_{j2 in [0, n)} exp((-1 * (max_{j1 in [0, n)} x[(row * n) + "
            "j1])) + x[(row * n) + j2])");
  // Unsigned forms are marked, signed ones are not; extracts are shown.
  Term u = T.bvVar("u", 32);
  EXPECT_EQ(T.bvBin(Kind::BVUDiv, u, T.bvVar("v", 32))->toReadableString(),
            "u /u v");
  EXPECT_EQ(T.bvBin(Kind::BVLShr, u, T.bvVar("v", 32))->toReadableString(),
            "u >>u v");
  EXPECT_EQ(T.bvExtract(u, 8, 8)->toReadableString(), "bits(u, 15:8)");
  Term c = T.bvSlt(T.bvVar("t", 32), T.bvVar("n", 32));
  EXPECT_EQ(T.ite(c, T.realVar("a"), T.real(0))->toReadableString(),
            "((t < n) ? a : 0)");
  EXPECT_EQ(T.bvUlt(T.bvVar("t", 32), T.bv(uint64_t(-4) & 0xffffffffu, 32))
                ->toReadableString(),
            "t <u 0xfffffffc");
  // Cut past the limit.
  std::string cut = d->toReadableString(20);
  EXPECT_EQ(cut.size(), 20u);
  EXPECT_EQ(cut.substr(17), "...");
}

TEST(Reduction, RangesThatDoNotMeetYetKeepTheirParts) {
  // A lane t reads two chunks, elements t and t + 8 of a row (Triton's
  // 4 t + j and 512 + 4 t + j, scaled down). The lane's max is two ranges
  // that do not meet; it keeps them as parts (TermContext::rangeParts),
  // through substitute (the butterfly's copy of each lane), so the max over
  // lanes 0..7 is one range [0, n) under n <= 16.
  TermContext T;
  T.setUpperBound("n", 16);
  T.setLowerBound("n", 1);
  T.setUpperBound("t", 7);
  T.setUpperBound("row", 3);
  Term n = T.bvVar("n", 32), row = T.bvVar("row", 32), t = T.bvVar("t", 32);
  auto leaf = [&](Term c) {
    Term idx = T.bvBin(Kind::BVAdd, T.bvZExt(T.bvBin(Kind::BVMul, n, row), 64),
                       T.bvZExt(c, 64));
    return T.ite(T.bvSlt(c, n), T.element("x", idx), T.negInf());
  };
  Term lane = T.max(leaf(t), leaf(T.bvBin(Kind::BVAdd, t, T.bv(8, 32))));
  EXPECT_FALSE(lane->isReduction());
  Term all = nullptr;
  for (uint64_t m = 0; m < 8; ++m) {
    Term copy = T.substitute(lane, {{t, T.bv(m, 32)}});
    all = all ? T.max(all, copy) : copy;
  }
  ASSERT_EQ(all->getKind(), Kind::MaxOver) << all->toReadableString();
  EXPECT_EQ(all->getOperand(1), T.bvSExt(n, 64));
  for (int64_t nv = 1; nv <= 16; ++nv) {
    Assignment in;
    in.bitvectors["n"] = llvm::APInt(32, nv);
    in.bitvectors["row"] = llvm::APInt(32, 1);
    for (uint64_t e = 0; e < 40; ++e)
      in.elements["x"][e] = Rational(int64_t((e * 5) % 13));
    int64_t best = INT64_MIN;
    for (int64_t c = 0; c < nv; ++c)
      best = std::max(best, int64_t(((nv + c) * 5) % 13));
    Evaluator ev(in);
    auto v = ev.real(all);
    ASSERT_TRUE(v) << ev.getError();
    EXPECT_TRUE(v->isPoint() && v->contains(Rational(best))) << nv;
  }
}

TEST(Reduction, SubstitutedKeysDoNotPassTheirPartsOn) {
  // Review 2026-12-06: max(x[0], x[2]) (masked) keeps its two ranges as
  // parts; substituting that term itself by a variable v must not give v
  // those parts (max(v, x[1]) was read as the max over [0, 3), dropping v),
  // nor recurse without end when the parts are not in the root.
  TermContext T;
  T.setUpperBound("n", 8);
  T.setLowerBound("n", 1);
  T.setUpperBound("row", 3);
  Term gap = T.max(maskedLoad(T, 0, T.negInf()), maskedLoad(T, 2, T.negInf()));
  ASSERT_FALSE(gap->isReduction());
  Term v = T.realVar("v");
  Term b = T.boolVar("b");
  Term root = T.ite(b, gap, maskedLoad(T, 1, T.negInf()));
  Term sub = T.substitute(root, {{gap, v}});
  ASSERT_TRUE(sub);
  Term m = T.max(v, maskedLoad(T, 1, T.negInf()));
  EXPECT_FALSE(m->isReduction()) << m->toReadableString();
  Term guarded = T.substitute(T.ite(b, gap, T.negInf()), {{gap, v}});
  EXPECT_EQ(guarded, T.ite(b, v, T.negInf()));
}
