//===- EvaluateTest.cpp - tests of the MPFR interval evaluator ------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Evaluate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace kproof;
using namespace kproof::engine;

namespace {

Rational q(int64_t n, int64_t d = 1) { return Rational(n, d); }

/// exp(1) encloses e, tightly at 256 bits.
TEST(Evaluate, ExpOfOneEnclosesE) {
  TermContext ctx;
  Assignment in;
  in.reals["x"] = q(1);
  Evaluator ev(in);
  auto r = ev.real(ctx.exp(ctx.realVar("x")));
  ASSERT_TRUE(r) << ev.getError();
  EXPECT_TRUE(ev.getError().empty());
  EXPECT_LT(r->width(), 1e-60);
  EXPECT_LE(r->loDouble(), 2.718281828459045);
  EXPECT_GE(r->hiDouble(), 2.718281828459045);
  // e = 2.71828182845904523536028747135266249775724709369995957...
  auto lo = Rational::parse("2.7182818284590452353602874713526624977572470936");
  auto hi = Rational::parse("2.7182818284590452353602874713526624977572470937");
  ASSERT_TRUE(lo && hi);
  EXPECT_FALSE(r->contains(*lo));
  EXPECT_FALSE(r->contains(*hi));
  EXPECT_GT(mpfr_cmp_q(r->lo(), lo->get()), 0);
  EXPECT_LT(mpfr_cmp_q(r->hi(), hi->get()), 0);
  EXPECT_EQ(r->toString(10).substr(0, 13), "[2.7182818284");
}

/// A rational constant that is not a binary fraction gets a tight interval
/// around it; a binary fraction is a point.
TEST(Evaluate, RationalConstantsAreEnclosed) {
  TermContext ctx;
  Assignment in;
  Evaluator ev(in);
  auto third = ev.real(ctx.real(1, 3));
  ASSERT_TRUE(third);
  EXPECT_TRUE(third->contains(q(1, 3)));
  EXPECT_FALSE(third->isPoint());
  EXPECT_LT(third->width(), 1e-70);
  auto half = ev.real(ctx.real(-3, 8));
  ASSERT_TRUE(half);
  EXPECT_TRUE(half->isPoint());
  EXPECT_EQ(half->midpoint(), -0.375);
  EXPECT_EQ(half->sign(), -1);
}

/// exp(x) - exp(y) at x = 1/3, y = 1/2 is definitely negative.
TEST(Evaluate, ExpDifferenceIsDefinitelyNegative) {
  TermContext ctx;
  Term x = ctx.realVar("x"), y = ctx.realVar("y");
  Assignment in;
  in.reals["x"] = q(1, 3);
  in.reals["y"] = q(1, 2);
  Evaluator ev(in);
  auto d = ev.real(ctx.sub(ctx.exp(x), ctx.exp(y)));
  ASSERT_TRUE(d) << ev.getError();
  EXPECT_EQ(d->sign(), -1);
  EXPECT_TRUE(d->excludesZero());
  EXPECT_NEAR(d->midpoint(), std::exp(1.0 / 3) - std::exp(0.5), 1e-15);
  auto d2 = ev.difference(ctx.exp(x), ctx.exp(y));
  ASSERT_TRUE(d2);
  EXPECT_EQ(d2->sign(), -1);
  EXPECT_EQ(definitelyDiffer(ctx.exp(x), ctx.exp(y), in), true);
  Truth lt = ev.boolean(ctx.realLt(ctx.exp(x), ctx.exp(y)));
  EXPECT_EQ(lt, Truth::True);
  EXPECT_EQ(ev.boolean(ctx.realLe(ctx.exp(y), ctx.exp(x))), Truth::False);
}

/// exp2(1/2)^2 is exactly 2: the interval of the difference contains 0, so
/// the two do not definitely differ; exp2(1/2) and 1.4142 do.
TEST(Evaluate, Exp2SquaredMinusTwoContainsZero) {
  TermContext ctx;
  Assignment in;
  Term r2 = ctx.exp2(ctx.real(1, 2));
  Term sq = ctx.mul(r2, r2);
  Evaluator ev(in);
  auto d = ev.real(ctx.sub(sq, ctx.real(2)));
  ASSERT_TRUE(d) << ev.getError();
  EXPECT_TRUE(d->contains(0));
  EXPECT_FALSE(d->excludesZero());
  EXPECT_LT(d->width(), 1e-60);
  std::string err;
  EXPECT_EQ(definitelyDiffer(sq, ctx.real(2), in, 256, &err), false);
  auto approx = Rational::parse("1.4142");
  ASSERT_TRUE(approx);
  EXPECT_EQ(definitelyDiffer(r2, ctx.real(*approx), in), true);
  // 1.41421356237309504880168872420969807856967187537694 is sqrt(2) to 50
  // places: it still differs (by ~1e-51) at 256 bits.
  auto close = Rational::parse(
      "1.41421356237309504880168872420969807856967187537694");
  ASSERT_TRUE(close);
  EXPECT_EQ(definitelyDiffer(r2, ctx.real(*close), in), true);
  // Real equality of overlapping intervals is undecided.
  EXPECT_EQ(ev.boolean(ctx.eq(sq, ctx.real(2))), Truth::Unknown);
  EXPECT_TRUE(ev.getError().empty());
}

/// A difference too small for 256 bits is resolved by the 4x retry.
TEST(Evaluate, DefinitelyDifferRetriesAtHigherPrecision) {
  TermContext ctx;
  Assignment in;
  // 1 + 2^-300 vs 1: at 64 bits the constant rounds to [1, 1 + 2^-63] and
  // exp of it overlaps exp(1); at 256 bits (4x) it resolves.
  Rational tiny(1);
  for (int i = 0; i < 200; ++i)
    tiny = tiny * q(1, 2);
  Term a = ctx.exp(ctx.real(q(1) + tiny));
  Term b = ctx.exp(ctx.real(1));
  Evaluator low(in, 64);
  auto d = low.difference(a, b);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->contains(0));
  EXPECT_EQ(definitelyDiffer(a, b, in, 64), true);
  EXPECT_EQ(definitelyDiffer(a, b, in, 16), false); // 64 bits is not enough
}

/// Division by an interval that contains 0 is an error; one that excludes
/// it is fine.
TEST(Evaluate, DivisionByIntervalContainingZeroIsAnError) {
  TermContext ctx;
  Term x = ctx.realVar("x");
  Assignment in;
  in.reals["x"] = q(0);
  Evaluator ev(in);
  EXPECT_FALSE(ev.real(ctx.div(ctx.real(1), x)));
  EXPECT_NE(ev.getError().find("division"), std::string::npos)
      << ev.getError();
  // exp2(1/2)^2 - 2 is exactly 0 but only enclosed: still an error.
  Term r2 = ctx.exp2(ctx.real(1, 2));
  Term zeroish = ctx.sub(ctx.mul(r2, r2), ctx.real(2));
  EXPECT_FALSE(ev.real(ctx.div(ctx.real(1), zeroish)));
  std::string err;
  EXPECT_EQ(definitelyDiffer(ctx.div(ctx.real(1), x), ctx.real(0), in, 256,
                             &err),
            std::nullopt);
  EXPECT_NE(err.find("division"), std::string::npos);

  Assignment in2;
  in2.reals["x"] = q(-4);
  Evaluator ev2(in2);
  auto r = ev2.real(ctx.div(ctx.exp(ctx.real(1)), x));
  ASSERT_TRUE(r) << ev2.getError();
  EXPECT_TRUE(ev2.getError().empty());
  EXPECT_NEAR(r->midpoint(), -std::exp(1.0) / 4, 1e-15);
  EXPECT_EQ(r->sign(), -1);
}

/// An if-then-else whose condition is undecided takes the hull of its arms;
/// a decided one evaluates only its arm (a guarded division is fine).
TEST(Evaluate, IteHullAndLaziness) {
  TermContext ctx;
  Assignment in;
  in.reals["x"] = q(0);
  Term r2 = ctx.exp2(ctx.real(1, 2));
  Term sq = ctx.mul(r2, r2);
  Term undecided = ctx.realLt(sq, ctx.real(2));
  Evaluator ev(in);
  EXPECT_EQ(ev.boolean(undecided), Truth::Unknown);
  auto h = ev.real(ctx.ite(undecided, ctx.real(1), ctx.real(3)));
  ASSERT_TRUE(h) << ev.getError();
  EXPECT_EQ(h->loDouble(), 1.0);
  EXPECT_EQ(h->hiDouble(), 3.0);
  EXPECT_TRUE(h->contains(2));

  Term x = ctx.realVar("x");
  Term guarded =
      ctx.ite(ctx.eq(x, ctx.real(0)), ctx.real(7), ctx.div(ctx.real(1), x));
  auto g = ev.real(guarded);
  ASSERT_TRUE(g) << ev.getError();
  EXPECT_TRUE(g->isPoint());
  EXPECT_EQ(g->midpoint(), 7.0);

  // Undecided condition with an erroring arm: an error.
  EXPECT_FALSE(ev.real(ctx.ite(undecided, ctx.real(1), ctx.div(ctx.real(1), x))));
  // Bool-sorted ite with equal known arms is known even if undecided.
  Term b = ctx.boolVar("b");
  Assignment in2;
  in2.bools["b"] = true;
  in2.bools["q"] = false;
  Evaluator ev2(in2);
  EXPECT_EQ(ev2.boolean(
                ctx.ite(undecided, b, ctx.orOf(b, ctx.boolVar("q")))),
            Truth::True);
  EXPECT_EQ(ev2.boolean(ctx.ite(ctx.realLt(sq, ctx.real(3)), ctx.notOf(b), b)),
            Truth::False);
}

/// Kleene logic for And/Or and comparisons.
TEST(Evaluate, ThreeValuedLogic) {
  TermContext ctx;
  Assignment in;
  in.reals["x"] = q(1, 2);
  in.bools["p"] = false;
  Term r2 = ctx.exp2(ctx.real(1, 2));
  Term undecided = ctx.realLe(ctx.mul(r2, r2), ctx.real(2));
  Term x = ctx.realVar("x");
  Term p = ctx.boolVar("p");
  Evaluator ev(in);
  EXPECT_EQ(ev.boolean(ctx.andOf(undecided, p)), Truth::False);
  EXPECT_EQ(ev.boolean(ctx.orOf(undecided, p)), Truth::Unknown);
  EXPECT_EQ(ev.boolean(ctx.orOf(undecided, ctx.notOf(p))), Truth::True);
  EXPECT_EQ(ev.boolean(ctx.realLe(x, ctx.real(1, 2))), Truth::True);
  EXPECT_EQ(ev.boolean(ctx.realLt(x, ctx.real(1, 2))), Truth::False);
  EXPECT_EQ(ev.boolean(ctx.eq(x, ctx.real(1, 2))), Truth::True);
  EXPECT_EQ(ev.boolean(ctx.eq(x, ctx.real(1, 3))), Truth::False);
  // A missing operand in an And decided by another is still decided; alone
  // it is Unknown with an error.
  Term missing = ctx.boolVar("nope");
  EXPECT_EQ(ev.boolean(ctx.andOf(missing, p)), Truth::False);
  EXPECT_TRUE(ev.getError().empty());
  EXPECT_EQ(ev.boolean(ctx.orOf(missing, p)), Truth::Unknown);
  EXPECT_NE(ev.getError().find("nope"), std::string::npos) << ev.getError();
}

/// Bit-vector semantics (SMT-LIB).
TEST(Evaluate, BitVectorSemantics) {
  TermContext ctx;
  Assignment in;
  in.bitvectors["a"] = llvm::APInt(8, 200);
  in.bitvectors["z"] = llvm::APInt(8, 0);
  in.bitvectors["s9"] = llvm::APInt(8, 9);
  in.bitvectors["s8"] = llvm::APInt(8, 8);
  in.bitvectors["s3"] = llvm::APInt(8, 3);
  in.bitvectors["m"] = llvm::APInt(8, static_cast<uint64_t>(-7), true);
  Term a = ctx.bvVar("a", 8), z = ctx.bvVar("z", 8);
  Term s9 = ctx.bvVar("s9", 8), s8 = ctx.bvVar("s8", 8);
  Term s3 = ctx.bvVar("s3", 8), m = ctx.bvVar("m", 8);
  Evaluator ev(in);
  auto val = [&](Term t) -> uint64_t {
    auto v = ev.bv(t);
    EXPECT_TRUE(v) << ev.getError();
    return v ? v->getZExtValue() : ~0ull;
  };
  EXPECT_EQ(val(ctx.bvBin(Kind::BVUDiv, a, z)), 255u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVURem, a, z)), 200u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVSDiv, a, z)), 1u);   // a < 0 signed
  EXPECT_EQ(val(ctx.bvBin(Kind::BVSDiv, s3, z)), 255u); // a >= 0
  EXPECT_EQ(val(ctx.bvBin(Kind::BVSRem, m, z)), 0xF9u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVUDiv, a, s3)), 66u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVSDiv, m, s3)), 0xFEu); // -7/3 = -2
  EXPECT_EQ(val(ctx.bvBin(Kind::BVSRem, m, s3)), 0xFFu); // -1
  EXPECT_EQ(val(ctx.bvBin(Kind::BVShl, a, s8)), 0u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVShl, a, s9)), 0u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVShl, s3, s3)), 24u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVLShr, a, s9)), 0u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVLShr, a, s3)), 25u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVAShr, a, s9)), 255u); // sign fill
  EXPECT_EQ(val(ctx.bvBin(Kind::BVAShr, s3, s9)), 0u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVAShr, a, s3)), 0xF9u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVAdd, a, a)), 144u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVSub, s3, a)), 59u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVMul, a, s3)), 88u);
  EXPECT_EQ(val(ctx.bvBin(Kind::BVXor, a, s9)), 193u);
  EXPECT_EQ(val(ctx.bvNot(a)), 55u);
  EXPECT_EQ(val(ctx.bvSExt(a, 16)), 0xFFC8u);
  EXPECT_EQ(val(ctx.bvZExt(a, 16)), 0xC8u);
  EXPECT_EQ(val(ctx.bvExtract(a, 3, 4)), 9u); // 1100'1000 -> bits 6..3 = 1001
  EXPECT_EQ(val(ctx.bvConcat(s3, a)), 0x03C8u);
  EXPECT_EQ(ev.bv(ctx.bvConcat(s3, a))->getBitWidth(), 16u);
  EXPECT_EQ(ev.boolean(ctx.bvUlt(s3, a)), Truth::True);
  EXPECT_EQ(ev.boolean(ctx.bvSlt(s3, a)), Truth::False);
  EXPECT_EQ(ev.boolean(ctx.bvSle(m, m)), Truth::True);
  EXPECT_EQ(ev.boolean(ctx.eq(a, s3)), Truth::False);
  // BVToReal, signed and unsigned, exactly.
  auto sr = ev.real(ctx.bvToReal(a, /*isSigned=*/true));
  ASSERT_TRUE(sr);
  EXPECT_TRUE(sr->isPoint());
  EXPECT_EQ(sr->midpoint(), -56.0);
  auto ur = ev.real(ctx.bvToReal(a, /*isSigned=*/false));
  ASSERT_TRUE(ur);
  EXPECT_EQ(ur->midpoint(), 200.0);
  // Wide values.
  Assignment wide;
  wide.bitvectors["w"] = llvm::APInt::getAllOnes(128);
  Evaluator ew(wide);
  auto wr = ew.real(ctx.bvToReal(ctx.bvVar("w", 128), false));
  ASSERT_TRUE(wr);
  EXPECT_TRUE(wr->isPoint());
  EXPECT_TRUE(
      wr->contains(Rational::fromAPInt(llvm::APInt::getAllOnes(128), false)));
}

/// A missing variable is an error that names it.
TEST(Evaluate, MissingVariableIsAnErrorWithItsName) {
  TermContext ctx;
  Assignment in;
  in.reals["x"] = q(1);
  Evaluator ev(in);
  Term t = ctx.add(ctx.exp(ctx.realVar("x")), ctx.realVar("missing_y"));
  EXPECT_FALSE(ev.real(t));
  EXPECT_NE(ev.getError().find("missing_y"), std::string::npos)
      << ev.getError();
  // The error is remembered for the failed term, cleared by a success.
  EXPECT_TRUE(ev.real(ctx.realVar("x")));
  EXPECT_TRUE(ev.getError().empty());
  EXPECT_FALSE(ev.real(ctx.mul(t, t)));
  EXPECT_NE(ev.getError().find("missing_y"), std::string::npos);
  EXPECT_FALSE(ev.bv(ctx.bvVar("idx", 32)));
  EXPECT_NE(ev.getError().find("idx"), std::string::npos);
  EXPECT_EQ(ev.boolean(ctx.realLt(ctx.realVar("missing_y"), ctx.real(0))),
            Truth::Unknown);
  EXPECT_NE(ev.getError().find("missing_y"), std::string::npos);
  // An infinity is an extended point, not an error; arithmetic never
  // takes one (the constructors lift it out first).
  std::optional<Interval> ninf = ev.real(ctx.negInf());
  ASSERT_TRUE(ninf);
  EXPECT_EQ(ninf->extendedPoint(), std::optional<int>(-1));
  // A BV variable of the wrong width.
  Assignment bad;
  bad.bitvectors["i"] = llvm::APInt(16, 3);
  Evaluator eb(bad);
  EXPECT_FALSE(eb.bv(ctx.bvVar("i", 32)));
  EXPECT_NE(eb.getError().find("width"), std::string::npos);
}

/// Select reads Assignment::elements (then elementDefaults); a RealVar
/// "buf[i]" is found in reals or elements.
TEST(Evaluate, SelectReadsElements) {
  TermContext ctx;
  Assignment in;
  in.bitvectors["i"] = llvm::APInt(32, 3);
  in.bitvectors["j"] = llvm::APInt(32, 10);
  in.elements["buf"][3] = q(5, 7);
  in.elements["buf"][2] = q(1, 4);
  in.elementDefaults["dflt"] = q(-2);
  Term i = ctx.bvVar("i", 32), j = ctx.bvVar("j", 32);
  Evaluator ev(in);
  auto v = ev.real(ctx.element("buf", i));
  ASSERT_TRUE(v) << ev.getError();
  EXPECT_TRUE(v->contains(q(5, 7)));
  EXPECT_LT(v->width(), 1e-70);
  EXPECT_FALSE(ev.real(ctx.element("buf", j)));
  EXPECT_NE(ev.getError().find("buf[10]"), std::string::npos)
      << ev.getError();
  auto d = ev.real(ctx.element("dflt", j));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->midpoint(), -2.0);
  // Concrete index: the RealVar "buf[2]" reads elements too.
  auto c = ev.real(ctx.element("buf", ctx.bv(2, 32)));
  ASSERT_TRUE(c) << ev.getError();
  EXPECT_EQ(c->midpoint(), 0.25);
  // Index arithmetic: buf[i - 1] = buf[2].
  auto e = ev.real(ctx.element(
      "buf", ctx.bvBin(Kind::BVSub, i, ctx.bvVar("one", 32))));
  EXPECT_FALSE(e);
  EXPECT_NE(ev.getError().find("one"), std::string::npos);
}

/// The true functions by name.
TEST(Evaluate, RealFunctions) {
  TermContext ctx;
  Assignment in;
  in.reals["x"] = q(1, 2);
  in.reals["n"] = q(-1);
  Term x = ctx.realVar("x"), n = ctx.realVar("n");
  Evaluator ev(in);
  struct Case {
    const char *fn;
    double expected;
  } cases[] = {{"sqrt", std::sqrt(0.5)}, {"rsqrt", 1 / std::sqrt(0.5)},
               {"lg2", -1.0},           {"tanh", std::tanh(0.5)},
               {"sin", std::sin(0.5)},  {"cos", std::cos(0.5)},
               {"rcp", 2.0}};
  for (const Case &c : cases) {
    auto r = ev.real(ctx.realFn(c.fn, {x}));
    ASSERT_TRUE(r) << c.fn << ": " << ev.getError();
    EXPECT_LT(r->width(), 1e-60) << c.fn;
    EXPECT_LE(r->loDouble(), c.expected + 1e-15) << c.fn;
    EXPECT_GE(r->hiDouble(), c.expected - 1e-15) << c.fn;
  }
  auto lg = ev.real(ctx.realFn("lg2", {x}));
  ASSERT_TRUE(lg);
  EXPECT_TRUE(lg->isPoint()); // log2(1/2) = -1 exactly
  EXPECT_FALSE(ev.real(ctx.realFn("sqrt", {n})));
  EXPECT_NE(ev.getError().find("sqrt"), std::string::npos);
  EXPECT_FALSE(ev.real(ctx.realFn("lg2", {ctx.real(0)})));
  EXPECT_FALSE(ev.real(ctx.realFn("rsqrt", {ctx.real(0)})));
  auto s0 = ev.real(ctx.realFn("sqrt", {ctx.real(0)}));
  ASSERT_TRUE(s0);
  EXPECT_TRUE(s0->isPoint());
  EXPECT_FALSE(ev.real(ctx.realFn("erf", {x})));
  EXPECT_NE(ev.getError().find("erf"), std::string::npos);
  auto tn = ev.real(ctx.realFn("tanh", {n}));
  ASSERT_TRUE(tn);
  EXPECT_EQ(tn->sign(), -1);
}

/// sin/cos of an interval that contains an extremum include it; wide
/// intervals give [-1, 1].
TEST(Evaluate, SinCosOverIntervals) {
  TermContext ctx;
  Assignment in;
  Term r2 = ctx.exp2(ctx.real(1, 2));
  Term undecided = ctx.realLt(ctx.mul(r2, r2), ctx.real(2));
  auto range = [&](Term lo, Term hi) { return ctx.ite(undecided, lo, hi); };
  Evaluator ev(in);
  // [1.5, 1.7] contains pi/2: sin reaches 1.
  auto s = ev.real(ctx.realFn("sin", {range(ctx.real(3, 2), ctx.real(17, 10))}));
  ASSERT_TRUE(s) << ev.getError();
  EXPECT_EQ(s->hiDouble(), 1.0);
  EXPECT_LE(s->loDouble(), std::sin(1.7));
  EXPECT_GT(s->loDouble(), 0.99);
  // [3, 3.2] contains pi: cos reaches -1.
  auto c = ev.real(ctx.realFn("cos", {range(ctx.real(3), ctx.real(16, 5))}));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->loDouble(), -1.0);
  EXPECT_LT(c->hiDouble(), -0.98);
  // [0.1, 0.2]: monotonic, tight.
  auto m = ev.real(ctx.realFn("sin", {range(ctx.real(1, 10), ctx.real(1, 5))}));
  ASSERT_TRUE(m);
  EXPECT_LE(m->loDouble(), std::sin(0.1));
  EXPECT_GE(m->hiDouble(), std::sin(0.2));
  EXPECT_LT(m->width(), std::sin(0.2) - std::sin(0.1) + 1e-12);
  // Wide: [-1, 1].
  auto w = ev.real(ctx.realFn("cos", {range(ctx.real(0), ctx.real(7))}));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->loDouble(), -1.0);
  EXPECT_EQ(w->hiDouble(), 1.0);
  // A huge argument still evaluates (MPFR reduces exactly).
  auto big = ev.real(ctx.realFn("sin", {ctx.real(1000000007)}));
  ASSERT_TRUE(big);
  EXPECT_LT(big->width(), 1e-60);
}

/// Max, Min and products of intervals that straddle 0.
TEST(Evaluate, MaxMinAndSquares) {
  TermContext ctx;
  Assignment in;
  in.reals["x"] = q(-3);
  in.reals["y"] = q(2);
  Term x = ctx.realVar("x"), y = ctx.realVar("y");
  Evaluator ev(in);
  auto mx = ev.real(ctx.max(x, y));
  auto mn = ev.real(ctx.min(x, y));
  ASSERT_TRUE(mx && mn);
  EXPECT_EQ(mx->midpoint(), 2.0);
  EXPECT_EQ(mn->midpoint(), -3.0);
  // (hull of -1 and 1)^2 is [0, 1], not [-1, 1].
  Term r2 = ctx.exp2(ctx.real(1, 2));
  Term undecided = ctx.realLt(ctx.mul(r2, r2), ctx.real(2));
  Term u = ctx.ite(undecided, ctx.real(-1), ctx.real(1));
  auto sq = ev.real(ctx.mul(u, u));
  ASSERT_TRUE(sq);
  EXPECT_EQ(sq->loDouble(), 0.0);
  EXPECT_EQ(sq->hiDouble(), 1.0);
  auto prod = ev.real(ctx.mul(u, ctx.add(u, ctx.real(3))));
  ASSERT_TRUE(prod);
  EXPECT_EQ(prod->loDouble(), -4.0);
  EXPECT_EQ(prod->hiDouble(), 4.0);
  // Overflow of exp is an error, not an infinity.
  EXPECT_FALSE(ev.real(ctx.exp(ctx.real(4000000000LL))));
  EXPECT_NE(ev.getError().find("overflow"), std::string::npos);
}

/// A deep DAG that shares subterms evaluates in time linear in its size:
/// t_{k+1} = (max(t_k, s) + min(t_k, s + 1)) / 2 refers to t_k twice (2^2000
/// paths), with s = exp(x) shared by every level.
TEST(Evaluate, DeepSharedDagIsMemoized) {
  TermContext ctx;
  Assignment in;
  in.reals["x"] = q(1, 3);
  Term s = ctx.exp(ctx.realVar("x"));
  Term s1 = ctx.add(s, ctx.real(1));
  Term t = ctx.realVar("x");
  for (int k = 0; k < 2000; ++k)
    t = ctx.mul(ctx.real(1, 2), ctx.add(ctx.max(t, s), ctx.min(t, s1)));
  auto start = std::chrono::steady_clock::now();
  Evaluator ev(in);
  auto r = ev.real(t);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  ASSERT_TRUE(r) << ev.getError();
  EXPECT_LT(seconds, 2.0);
  // The fixed point is s + 1/2... the recurrence converges to within s and
  // s + 1 of s; check it is enclosed near the double computation.
  double ds = std::exp(1.0 / 3), dt = 1.0 / 3;
  for (int k = 0; k < 2000; ++k)
    dt = 0.5 * (std::max(dt, ds) + std::min(dt, ds + 1));
  EXPECT_NEAR(r->midpoint(), dt, 1e-12);
  EXPECT_LT(r->width(), 1e-50);

  // A chain 90000 terms deep: no recursion on the depth.
  Term chain = ctx.realVar("x");
  for (int k = 0; k < 30000; ++k)
    chain = ctx.exp2(ctx.mul(ctx.real(1, 2), chain));
  Evaluator ev2(in, 64);
  auto c = ev2.real(chain);
  ASSERT_TRUE(c) << ev2.getError();
  EXPECT_TRUE(c->contains(q(2))); // fixed point of 2^(x/2) is 2
}

} // namespace
