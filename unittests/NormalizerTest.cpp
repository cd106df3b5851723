//===- NormalizerTest.cpp - tests of the real-term normalizer -------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Normalizer.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

struct NormalizerTest : ::testing::Test {
  TermContext T;
  Normalizer N{T};
  Term x = T.realVar("x"), y = T.realVar("y"), z = T.realVar("z");
  Term m = T.realVar("m");
};

/// x + x is the term 2 * x, and a chain of 40 doublings stays one product
/// 2^40 * x (it used to flatten into 2^k operands of one sum).
TEST_F(NormalizerTest, RepeatedAddendsAreScaled) {
  EXPECT_EQ(T.add(x, x), T.mul(T.real(2), x));
  EXPECT_EQ(T.add({x, y, x}), T.add(T.mul(T.real(2), x), y));
  Term t = x;
  for (int i = 0; i < 40; ++i)
    t = T.add(t, t);
  Rational c(1);
  for (int i = 0; i < 40; ++i)
    c = c * Rational(2);
  EXPECT_EQ(t, T.mul(T.real(c), x));
  EXPECT_TRUE(N.provesEqual(T.mul(T.real(Rational(1) / c), t), x));
  EXPECT_FALSE(N.provesEqual(T.mul(T.real(Rational(2) / c), t), x));
}

/// exp(x - m) / (exp(x - m) + exp(y - m)) == exp(x) / (exp(x) + exp(y)):
/// the exponent rules split exp of a sum, and the common factor exp(m)^-1
/// cancels (it is positive, so invertible).
TEST_F(NormalizerTest, SoftmaxShiftCancels) {
  Term a = T.div(T.exp(T.sub(x, m)),
                 T.add(T.exp(T.sub(x, m)), T.exp(T.sub(y, m))));
  Term b = T.div(T.exp(x), T.add(T.exp(x), T.exp(y)));
  EXPECT_TRUE(N.provesEqual(a, b));
  // ... and the max need not be expanded: m = max(x, y) is an atom.
  Term mx = T.max(x, y);
  Term c = T.div(T.exp(T.sub(x, mx)),
                 T.add(T.exp(T.sub(x, mx)), T.exp(T.sub(y, mx))));
  EXPECT_TRUE(N.provesEqual(c, b));
}

/// The online recurrence's denominator collapses step by step:
/// d2 = d1 * exp(m1 - m2) + exp(x1 - m2) with d1 = exp(x0 - m1).
TEST_F(NormalizerTest, OnlineRecurrenceCollapses) {
  Term x0 = T.realVar("x0"), x1 = T.realVar("x1");
  Term m1 = x0, m2 = T.max(x0, x1);
  Term d1 = T.exp(T.sub(x0, m1)); // exp(x0 - x0): 1 after normalization
  EXPECT_TRUE(N.provesEqual(d1, T.real(1)));
  Term d2 = T.add(T.mul(d1, T.exp(T.sub(m1, m2))), T.exp(T.sub(x1, m2)));
  Term spec = T.mul(T.add(T.exp(x0), T.exp(x1)), T.div(T.real(1), T.exp(m2)));
  EXPECT_TRUE(N.provesEqual(d2, spec));
  EXPECT_TRUE(N.provesPositive(d2));
  EXPECT_TRUE(N.provesNonZero(d2));
}

/// The logsumexp in two frames: m + log(sum_j exp(x_j - m)) is the same
/// for every m (the exponential factor exp(-m) leaves the log as -m), in
/// base 2 as well (lg2(y) = log(y) / log(2)); the running-max recurrence
/// meets the two-pass form. A log whose argument is not shown positive
/// stays an atom, and dropping the max is no identity.
TEST_F(NormalizerTest, LogOfExponentialSumsAcrossFrames) {
  Term x0 = T.realVar("x0"), x1 = T.realVar("x1");
  Term m2 = T.max(x0, x1);
  auto lse = [&](Term frame) {
    return T.add(frame, T.realFn("log", {T.add(T.exp(T.sub(x0, frame)),
                                               T.exp(T.sub(x1, frame)))}));
  };
  EXPECT_TRUE(N.provesEqual(lse(m2), lse(m)));
  EXPECT_TRUE(
      N.provesEqual(lse(m2), T.realFn("log", {T.add(T.exp(x0), T.exp(x1))})));
  // The online form: d2 = exp(x0 - x0) exp(x0 - m2) + exp(x1 - m2).
  Term d2 = T.add(T.mul(T.exp(T.sub(x0, x0)), T.exp(T.sub(x0, m2))),
                  T.exp(T.sub(x1, m2)));
  EXPECT_TRUE(N.provesEqual(T.add(m2, T.realFn("log", {d2})), lse(m)));
  // Base 2: m + lg2(sum) * ln(2), with ln(2) the constant atom.
  Term ln2 = T.realFn("log", {T.real(2)});
  Term viaLg2 = T.add(m2, T.mul(T.realFn("lg2", {T.add(T.exp(T.sub(x0, m2)),
                                                       T.exp(T.sub(x1, m2)))}),
                                ln2));
  EXPECT_TRUE(N.provesEqual(viaLg2, lse(m)));
  // Without the max, and with an argument of unknown sign.
  Term noMax =
      T.realFn("log", {T.add(T.exp(T.sub(x0, m2)), T.exp(T.sub(x1, m2)))});
  EXPECT_FALSE(N.provesEqual(noMax, lse(m)));
  Term unsigned_ = T.add(m, T.realFn("log", {T.mul(T.exp(T.neg(m)), x)}));
  EXPECT_FALSE(N.provesEqual(unsigned_, T.realFn("log", {x})));
}

/// A false identity is not "proved": the no-rescale bug's denominator.
TEST_F(NormalizerTest, DoesNotProveFalseIdentities) {
  Term x0 = T.realVar("x0"), x1 = T.realVar("x1");
  Term m2 = T.max(x0, x1);
  Term bad = T.add(T.real(1), T.exp(T.sub(x1, m2))); // no rescale of 1
  Term good = T.mul(T.add(T.exp(x0), T.exp(x1)), T.div(T.real(1), T.exp(m2)));
  EXPECT_FALSE(N.provesEqual(bad, good));
  EXPECT_FALSE(N.provesEqual(T.div(T.exp(x), T.add(T.exp(x), T.exp(y))),
                             T.div(T.exp(y), T.add(T.exp(x), T.exp(y)))));
  EXPECT_FALSE(N.provesEqual(T.exp(x), T.exp(y)));
  EXPECT_FALSE(N.provesEqual(T.max(x, y), x));
}

/// Polynomial identities and cancellation of a common factor (sound given
/// the divisor's own non-zero obligation).
TEST_F(NormalizerTest, PolynomialsAndCommonFactors) {
  Term sq = T.mul(T.add(x, T.real(1)), T.add(x, T.real(1)));
  Term expanded = T.add({T.mul(x, x), T.mul(T.real(2), x), T.real(1)});
  EXPECT_TRUE(N.provesEqual(sq, expanded));
  EXPECT_TRUE(N.provesEqual(T.div(T.mul(x, y), T.mul(x, z)), T.div(y, z)));
  EXPECT_TRUE(N.provesEqual(T.div(T.mul(T.real(3), x), T.mul(T.real(6), x)),
                            T.real(1, 2)));
}

/// Signs: positive only when every coefficient is positive over positive
/// atoms (exponentials); an input variable has no known sign.
TEST_F(NormalizerTest, Positivity) {
  EXPECT_TRUE(N.provesPositive(T.add(T.exp(x), T.exp(y))));
  EXPECT_TRUE(N.provesPositive(T.div(T.exp(x), T.add(T.exp(x), T.exp(y)))));
  EXPECT_FALSE(N.provesPositive(T.sub(T.exp(x), T.exp(y))));
  EXPECT_FALSE(N.provesPositive(x));
  EXPECT_FALSE(N.provesNonZero(T.add(x, y)));
  EXPECT_TRUE(N.provesNonZero(T.neg(T.exp(x))));
}

/// The ex2 idiom: ex2(L * (x - m)) with L = 0f3FB8AA3B, also in nvcc's fused
/// form fma(x, L, -m * L), is recognized; a multiple of L that is not an
/// integer, or a constant other than L, is not.
TEST_F(NormalizerTest, Log2eIdiomMatchesLinearForms) {
  Rational L(12102203, 8388608);
  Term lt = T.real(L);
  Term direct = T.mul(T.sub(x, m), lt);
  Term fused = T.add(T.mul(x, lt), T.neg(T.mul(m, lt)));
  Term f1 = N.matchScaledLinear(direct, L);
  Term f2 = N.matchScaledLinear(fused, L);
  ASSERT_TRUE(f1);
  ASSERT_TRUE(f2);
  EXPECT_TRUE(N.provesEqual(f1, T.sub(x, m)));
  EXPECT_TRUE(N.provesEqual(f2, T.sub(x, m)));
  // exp2f(1.5 * x) has no log2(e) factor: not the idiom.
  EXPECT_FALSE(N.matchScaledLinear(T.mul(x, T.real(3, 2)), L));
  EXPECT_FALSE(N.matchScaledLinear(x, L));
  // A scaled score (attention's 1/sqrt(d) as an f32 constant) times L is.
  Term scale = T.real(Rational(11863283, 16777216)); // 0f3F3504F3
  Term f3 = N.matchScaledLinear(T.mul(T.mul(x, scale), lt), L);
  ASSERT_TRUE(f3);
  EXPECT_TRUE(N.provesEqual(f3, T.mul(x, scale)));
}

/// -inf as an initial running max folds exactly: max(-inf, x) = x and
/// exp(-inf - x) = 0; infinities that meet give NaN (IEEE 754); inf times a
/// term of unknown sign is refused (null).
TEST_F(NormalizerTest, InfinitiesFoldOrRefuse) {
  EXPECT_EQ(T.max(T.negInf(), x), x);
  EXPECT_EQ(T.exp(T.sub(T.negInf(), x)), T.real(0));
  EXPECT_EQ(T.add(T.negInf(), T.posInf()), T.nan());
  EXPECT_EQ(T.mul(T.real(0), T.negInf()), T.nan());
  EXPECT_EQ(T.mul(x, T.negInf()), nullptr);
}

/// Values that are -inf on some inputs (a causal mask): operations lift
/// over the ite and fold at its leaves, so arithmetic nodes stay finite.
TEST_F(NormalizerTest, ExtendedValuesLiftOverTheirCases) {
  Term c = T.realLt(x, y);
  Term s = T.ite(c, x, T.negInf()); // x where c, else -inf
  EXPECT_EQ(s->getExtended(), TermNode::kExtendedNegInf);
  EXPECT_EQ(s->getExtendedLeaves(), 2u);
  // exp(s - y) = ite(c, exp(x - y), 0): finite.
  Term e = T.exp(T.sub(s, y));
  EXPECT_FALSE(e->mayBeNonFinite());
  EXPECT_EQ(e, T.ite(c, T.exp(T.sub(x, y)), T.real(0)));
  // s - s: -inf - -inf is NaN where c is false (the cases agree on c).
  Term d = T.sub(s, s);
  EXPECT_EQ(d, T.ite(c, T.add(x, T.neg(x)), T.nan()));
  // NaN equals nothing, itself included: s - s == s - s is c.
  EXPECT_EQ(T.eq(d, d), c);
  // Comparisons and equalities become booleans over the cases.
  EXPECT_EQ(T.eq(s, T.negInf()), T.notOf(c));
  EXPECT_EQ(T.realLt(T.negInf(), s), c);
  // max of two masked values stays linear: one ite over "either is
  // finite", the max of finite stand-ins inside.
  Term b = T.boolVar("b");
  Term u = T.ite(b, y, T.negInf());
  Term m = T.max(s, u);
  ASSERT_EQ(m->getKind(), Kind::Ite);
  EXPECT_EQ(m->getOperand(0), T.orOf(c, b));
  EXPECT_EQ(m->getOperand(2), T.negInf());
  EXPECT_FALSE(m->getOperand(1)->mayBeNonFinite());
  // A functions of an extended value is refused; so is inf * x.
  EXPECT_EQ(T.realFn("sqrt", {s}), nullptr);
  EXPECT_EQ(T.mul(s, y), nullptr);
  // A positive constant scales it (log2(e) before ex2).
  EXPECT_EQ(T.mul(T.real(2), s), T.ite(c, T.mul(T.real(2), x), T.negInf()));
}

/// A sum with a positive term and masked terms ite(c, e, 0) (e > 0) is
/// positive, hence a non-zero divisor; masked terms alone are only
/// non-negative.
TEST_F(NormalizerTest, MaskedTermsAreNonNegative) {
  Term c = T.realLt(x, y);
  Term masked = T.ite(c, T.exp(y), T.real(0));
  EXPECT_FALSE(N.provesPositive(masked));
  EXPECT_FALSE(N.provesNonZero(masked));
  EXPECT_TRUE(N.provesPositive(T.add(T.exp(x), masked)));
  EXPECT_TRUE(N.provesNonZero(T.add(T.exp(x), masked)));
  // A non-negative atom in a denominator proves nothing.
  EXPECT_FALSE(N.provesPositive(T.div(T.exp(x), masked)));
}

/// Comparisons with the end of a bit-vector order fold (a causal mask's
/// 0 <= i); the other comparisons stay.
TEST_F(NormalizerTest, BoundComparisonsFold) {
  Term i = T.bvVar("i", 32);
  EXPECT_EQ(T.bvUle(T.bv(0, 32), i), T.boolConst(true));
  EXPECT_EQ(T.bvUlt(i, T.bv(0, 32)), T.boolConst(false));
  EXPECT_EQ(T.bvSle(T.bv(llvm::APInt::getSignedMinValue(32)), i),
            T.boolConst(true));
  EXPECT_EQ(T.bvSlt(T.bv(llvm::APInt::getSignedMaxValue(32)), i),
            T.boolConst(false));
  EXPECT_EQ(T.bvUle(i, T.bv(0xffffffffu, 32)), T.boolConst(true));
  EXPECT_NE(T.bvSle(T.bv(0, 32), i)->getKind(), Kind::BoolConst);
}

/// x & (2^k - 1) and x urem 2^k fold when the low k bits of x do not depend
/// on its variables (a lane case: tid = 32 * w + 3).
TEST_F(NormalizerTest, KnownLowBitsFold) {
  Term w = T.bvVar("w", 32), c = T.bvVar("c", 32);
  Term tid = T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, w, T.bv(32, 32)),
                     T.bv(3, 32));
  Term t = T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, c, T.bv(64, 32)), tid);
  EXPECT_EQ(T.bvBin(Kind::BVAnd, t, T.bv(31, 32)), T.bv(3, 32));
  EXPECT_EQ(T.bvBin(Kind::BVURem, t, T.bv(32, 32)), T.bv(3, 32));
  // A partner lane: (tid ^ 16) & 31 = 19.
  EXPECT_EQ(T.bvBin(Kind::BVAnd, T.bvBin(Kind::BVXor, t, T.bv(16, 32)),
                    T.bv(31, 32)),
            T.bv(19, 32));
  // Unknown low bits stay: (w * 16) & 31, w & 31.
  EXPECT_NE(T.bvBin(Kind::BVAnd, T.bvBin(Kind::BVMul, w, T.bv(16, 32)),
                    T.bv(31, 32))
                ->getKind(),
            Kind::BVConst);
  EXPECT_NE(T.bvBin(Kind::BVAnd, w, T.bv(31, 32))->getKind(), Kind::BVConst);
  // A mask that is not 2^k - 1 over known low bits: t & 30 = 3 & 30 = 2,
  // and ((v & ~3) << 2) & 12 = 0 (a shift keeps known zero bits).
  EXPECT_EQ(T.bvBin(Kind::BVAnd, t, T.bv(30, 32)), T.bv(2, 32));
  Term shifted = T.bvBin(Kind::BVShl, T.bvBin(Kind::BVAnd, w, T.bv(~3u, 32)),
                         T.bv(2, 32));
  EXPECT_EQ(T.bvBin(Kind::BVAnd, shifted, T.bv(12, 32)), T.bv(0, 32));
  EXPECT_NE(T.bvBin(Kind::BVAnd, shifted, T.bv(16, 32))->getKind(),
            Kind::BVConst);
}

/// A max over a range is -inf exactly when the range is empty (its body is
/// finite), so comparisons with -inf become emptiness of the range.
TEST_F(NormalizerTest, EmptyMaxIsMinusInfinity) {
  Term j = T.bvVar("j", 64), n = T.bvVar("n", 64);
  // A max over [0, n) that may be empty is an extended value: the max
  // where 0 < n, -inf elsewhere.
  Term wrapped = T.reduce(Kind::MaxOver, j, T.bv(0, 64), n, T.element("x", j));
  ASSERT_TRUE(wrapped);
  ASSERT_EQ(wrapped->getKind(), Kind::Ite);
  EXPECT_EQ(wrapped->getOperand(0), T.bvSlt(T.bv(0, 64), n));
  EXPECT_EQ(wrapped->getOperand(2), T.negInf());
  // x + (m - m) is NaN where the range is empty, not x.
  Term x0 = T.realVar("x0");
  Term mm = T.add(x0, T.sub(wrapped, wrapped));
  EXPECT_EQ(mm->getExtended(), TermNode::kExtendedNaN);
  // With n's declared range from 1 the range is non-empty: the bare max.
  TermContext T2;
  T2.setUpperBound("n", 100);
  T2.setLowerBound("n", 1);
  Term j2 = T2.bvVar("j", 64);
  EXPECT_TRUE(T2.reduce(Kind::MaxOver, j2, T2.bv(0, 64), T2.bvVar("n", 64),
                        T2.element("x", j2))
                  ->isReduction());
  // The bare node (its emptiness handled around it): comparisons with -inf
  // are the emptiness of its range.
  Term mx = wrapped->getOperand(1);
  Term empty = T.bvSle(n, T.bv(0, 64));
  EXPECT_EQ(T.eq(mx, T.negInf()), empty);
  EXPECT_EQ(T.realLt(T.negInf(), mx), T.notOf(empty));
  EXPECT_EQ(T.realLe(mx, T.negInf()), empty);
  EXPECT_EQ(T.realLt(mx, T.negInf()), T.boolConst(false));
  EXPECT_EQ(T.eq(mx, T.posInf()), T.boolConst(false));
}

} // namespace

namespace {

/// Values of merged states: an ite is positive (non-zero) when both arms
/// are, also inside a sum or product, and not otherwise.
TEST_F(NormalizerTest, IteOfPositiveArmsIsPositive) {
  Term c = T.realLt(x, y);
  Term pos = T.ite(c, T.exp(x), T.add(T.real(1), T.exp(y)));
  EXPECT_TRUE(N.provesPositive(pos));
  EXPECT_TRUE(N.provesNonZero(pos));
  // d * exp(m - v) + 1 with d such an ite: the online softmax's merged
  // denominator.
  Term d = T.add(T.mul(pos, T.exp(T.sub(m, x))), T.real(1));
  EXPECT_TRUE(N.provesPositive(d));
  EXPECT_TRUE(N.provesNonZero(T.ite(T.realLt(y, z), d, pos)));
  // One arm of unknown sign: neither.
  Term mixed = T.ite(c, T.exp(x), T.sub(x, T.real(1)));
  EXPECT_FALSE(N.provesPositive(mixed));
  EXPECT_FALSE(N.provesNonZero(mixed));
  EXPECT_FALSE(N.provesPositive(T.add(mixed, T.real(1))));
  // Non-zero arms of opposite signs: non-zero, not positive.
  Term signs = T.ite(c, T.real(-1), T.exp(y));
  EXPECT_TRUE(N.provesNonZero(signs));
  EXPECT_FALSE(N.provesPositive(signs));
}

} // namespace

namespace {

/// max and min nests are canonical chains: the same operands in any order
/// and grouping are one term; duplicates, -inf (for max) and all but the
/// largest constant fold away.
TEST(TermChains, MaxAndMinNestsAreOneTerm) {
  kproof::engine::TermContext T;
  using kproof::engine::Term;
  Term a = T.realVar("a"), b = T.realVar("b"), c = T.realVar("c");
  EXPECT_EQ(T.max(a, T.max(b, c)), T.max(T.max(c, a), b));
  EXPECT_EQ(T.max(T.max(a, b), T.max(b, a)), T.max(a, b));
  EXPECT_EQ(T.max(T.max(a, T.real(2)), T.max(T.real(3), a)),
            T.max(a, T.real(3)));
  EXPECT_EQ(T.max(T.negInf(), T.max(a, b)), T.max(b, a));
  EXPECT_EQ(T.max(T.posInf(), T.max(a, b))->getKind(),
            kproof::engine::Kind::PosInf);
  EXPECT_EQ(T.min(a, T.min(b, c)), T.min(T.min(c, b), a));
  EXPECT_EQ(T.min(T.min(a, T.real(2)), T.real(-1)), T.min(a, T.real(-1)));
  // max and min do not mix.
  EXPECT_NE(T.max(a, T.min(b, c)), T.max(T.max(a, b), c));
  // A chain is binary and nested to the right.
  Term m = T.max(T.max(a, b), c);
  ASSERT_EQ(m->getKind(), kproof::engine::Kind::Max);
  EXPECT_EQ(m->getOperand(1)->getKind(), kproof::engine::Kind::Max);
  // Substitution rebuilds the chain of the substituted operands: the same
  // term as building it directly, duplicates merged, constants folded.
  llvm::DenseMap<Term, Term> sigma{{a, c}, {b, T.real(5)}};
  EXPECT_EQ(T.substitute(m, sigma), T.max(c, T.real(5)));
  llvm::DenseMap<Term, Term> toInf{{b, T.posInf()}};
  EXPECT_EQ(T.substitute(m, toInf)->getKind(), kproof::engine::Kind::PosInf);
  // Past 64 operands a nest stays binary, and substitution still works.
  Term big = T.realVar("v0");
  std::vector<Term> vs{big};
  for (int k = 1; k < 100; ++k) {
    vs.push_back(T.realVar("v" + std::to_string(k)));
    big = T.max(big, vs.back());
  }
  llvm::DenseMap<Term, Term> first{{vs[0], T.real(0)}};
  Term sub = T.substitute(big, first);
  ASSERT_TRUE(sub);
  EXPECT_EQ(sub->getKind(), kproof::engine::Kind::Max);
  EXPECT_NE(sub, big);
}

} // namespace

/// A predicate through selp and setp (`selp.u32 r, 1, 0, p; setp.ne r, 0`)
/// is the predicate again: ite(c, k1, k2) == k over constants folds to c,
/// not c, true or false.
TEST(TermFolds, EqualityOfConstantIteIsItsCondition) {
  TermContext T;
  Term c = T.bvUlt(T.bvVar("a", 32), T.bvVar("b", 32));
  Term sel = T.ite(c, T.bv(1, 32), T.bv(0, 32));
  EXPECT_EQ(T.eq(sel, T.bv(1, 32)), c);
  EXPECT_EQ(T.eq(T.bv(0, 32), sel), T.notOf(c));
  EXPECT_EQ(T.eq(sel, T.bv(7, 32)), T.boolConst(false));
  Term same = T.ite(c, T.bv(3, 32), T.bv(3, 32));
  EXPECT_EQ(T.eq(same, T.bv(3, 32)), T.boolConst(true));
  // Arms that are not constants stay an equation.
  Term open = T.ite(c, T.bvVar("a", 32), T.bv(0, 32));
  EXPECT_EQ(T.eq(open, T.bv(0, 32))->getKind(), Kind::Eq);
}
