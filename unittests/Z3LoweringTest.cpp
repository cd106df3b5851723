//===- Z3LoweringTest.cpp - tests of term lowering to Z3 ------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Lowering.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;
using smt::CheckResult;
using smt::Expr;

namespace {

/// A TermContext, a Z3 context, a lowering and a solver, with helpers that
/// assert terms and the atom facts the way the engine does.
struct Fixture {
  TermContext terms;
  smt::Context z3;
  Z3Lowering lowering{z3, terms};
  smt::Solver solver{z3};

  /// Asserts `t` (a Bool term); fails the test if it does not lower.
  void assertTerm(Term t) {
    Expr e = lowering.lower(t);
    ASSERT_TRUE(e.isValid()) << lowering.getError();
    solver.add(e);
  }
  /// Asserts every fact atomFacts() lists now.
  void assertFacts() {
    for (const auto &[name, fact] : lowering.atomFacts())
      solver.add(fact);
  }
  /// Proves `claim` (asserts its negation plus the facts; expects unsat).
  CheckResult refuteNegation(Term claim) {
    Expr e = lowering.lower(terms.notOf(claim));
    EXPECT_TRUE(e.isValid()) << lowering.getError();
    solver.add(e);
    assertFacts();
    return solver.check();
  }
};

/// (1) x < y gives exp(x) - exp(y) < 0: with the monotonicity facts the
/// negation is unsat; without them the atoms are free reals.
TEST(Z3Lowering, ExpMonotoneUnderAtomFacts) {
  Fixture f;
  Term x = f.terms.realVar("x"), y = f.terms.realVar("y");
  Term diff = f.terms.sub(f.terms.exp(x), f.terms.exp(y));
  Term claim = f.terms.realLt(diff, f.terms.real(0));
  f.assertTerm(f.terms.realLt(x, y));
  EXPECT_EQ(f.refuteNegation(claim), CheckResult::Unsat)
      << f.solver.getReason();

  // The same query without the facts is sat: nothing but the facts knows
  // that the atoms are exponentials.
  Fixture g;
  Term gx = g.terms.realVar("x"), gy = g.terms.realVar("y");
  g.assertTerm(g.terms.realLt(gx, gy));
  g.assertTerm(g.terms.notOf(g.terms.realLt(
      g.terms.sub(g.terms.exp(gx), g.terms.exp(gy)), g.terms.real(0))));
  EXPECT_EQ(g.solver.check(), CheckResult::Sat);

  // The facts are named, deterministic and quantifier-free.
  auto facts = f.lowering.atomFacts();
  std::vector<std::string> names;
  for (const auto &nf : facts)
    names.push_back(nf.first);
  EXPECT_NE(std::find(names.begin(), names.end(), "exp_pos!0"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "exp_mono!0!1"),
            names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "exp_inj!0!1"),
            names.end());
  for (const auto &nf : facts)
    EXPECT_EQ(nf.second.toString().find("forall"), std::string::npos);
  ASSERT_EQ(f.lowering.getAtoms().size(), 2u);
  EXPECT_EQ(f.lowering.getAtoms()[0].value.toString(), "exp!0");
}

/// (2) exp(x) > 0 is provable from the facts.
TEST(Z3Lowering, ExpPositive) {
  Fixture f;
  Term e = f.terms.exp(f.terms.realVar("x"));
  EXPECT_EQ(f.refuteNegation(f.terms.realLt(f.terms.real(0), e)),
            CheckResult::Unsat);
}

/// exp(x) = exp(y) forces x = y (injectivity, both directions of the
/// monotone facts), and exp(x) < 1 forces x < 0 (against exp(0) = 1).
TEST(Z3Lowering, ExpInjectiveAndComparedWithOne) {
  Fixture f;
  Term x = f.terms.realVar("x"), y = f.terms.realVar("y");
  f.assertTerm(f.terms.eq(f.terms.exp(x), f.terms.exp(y)));
  EXPECT_EQ(f.refuteNegation(f.terms.eq(x, y)), CheckResult::Unsat);

  Fixture g;
  Term gx = g.terms.realVar("x");
  g.assertTerm(g.terms.realLt(g.terms.exp(gx), g.terms.real(1)));
  EXPECT_EQ(g.refuteNegation(g.terms.realLt(gx, g.terms.real(0))),
            CheckResult::Unsat);
}

/// (3) exp(x) + exp(y) == 2 exp(x) is false: its negation is sat, and the
/// model reads back as exact rationals with x != y.
TEST(Z3Lowering, FalseClaimGivesModel) {
  Fixture f;
  Term x = f.terms.realVar("x"), y = f.terms.realVar("y");
  Term ex = f.terms.exp(x), ey = f.terms.exp(y);
  Term claim =
      f.terms.eq(f.terms.add(ex, ey), f.terms.mul(f.terms.real(2), ex));
  ASSERT_EQ(f.refuteNegation(claim), CheckResult::Sat);
  smt::Model model = f.solver.getModel();
  std::optional<Assignment> a = f.lowering.extractModel(model);
  ASSERT_TRUE(a.has_value()) << f.lowering.getModelError();
  ASSERT_EQ(a->reals.count("x"), 1u);
  ASSERT_EQ(a->reals.count("y"), 1u);
  // exp(x) != exp(y) under the facts, hence x != y.
  EXPECT_NE(a->reals.at("x"), a->reals.at("y"));
  // Atoms are not inputs: they are not in the assignment.
  EXPECT_EQ(a->reals.count("exp!0"), 0u);
  // evalReal reads any real term under the model.
  auto vx = f.lowering.evalReal(model, ex);
  auto vy = f.lowering.evalReal(model, ey);
  ASSERT_TRUE(vx && vy) << f.lowering.getModelError();
  EXPECT_NE(*vx, *vy);
  EXPECT_EQ(a->reals.at("x") < a->reals.at("y"), *vx < *vy);
}

/// (4) (x + 1) > x (signed) is refuted by x = INT_MAX, and the model value
/// reads back exactly.
TEST(Z3Lowering, BitVectorOverflowWitness) {
  Fixture f;
  Term x = f.terms.bvVar("x", 32);
  Term x1 = f.terms.bvBin(Kind::BVAdd, x, f.terms.bv(1, 32));
  Term claim = f.terms.bvSlt(x, x1);
  ASSERT_EQ(f.refuteNegation(claim), CheckResult::Sat);
  auto a = f.lowering.extractModel(f.solver.getModel());
  ASSERT_TRUE(a.has_value()) << f.lowering.getModelError();
  ASSERT_EQ(a->bitvectors.count("x"), 1u);
  EXPECT_EQ(a->bitvectors.at("x").getBitWidth(), 32u);
  EXPECT_EQ(a->bitvectors.at("x"), llvm::APInt::getSignedMaxValue(32));

  // Unsigned: x + 1 > x fails only at UINT_MAX.
  Fixture g;
  Term gx = g.terms.bvVar("x", 32);
  Term gx1 = g.terms.bvBin(Kind::BVAdd, gx, g.terms.bv(1, 32));
  ASSERT_EQ(g.refuteNegation(g.terms.bvUlt(gx, gx1)), CheckResult::Sat);
  auto b = g.lowering.extractModel(g.solver.getModel());
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b->bitvectors.at("x").isAllOnes());
}

/// Every BV operation lowers with PTX semantics (a few spot checks).
TEST(Z3Lowering, BitVectorOperations) {
  Fixture f;
  Term x = f.terms.bvVar("x", 32);
  Term y = f.terms.bvVar("y", 32);
  f.assertTerm(f.terms.eq(x, f.terms.bv(0xF0, 32)));
  f.assertTerm(f.terms.eq(y, f.terms.bv(4, 32)));
  auto expectValue = [&](Term t, uint64_t v) {
    EXPECT_EQ(f.refuteNegation(f.terms.eq(t, f.terms.bv(v, t->getWidth()))),
              CheckResult::Unsat)
        << t->toString();
  };
  f.solver.push();
  expectValue(f.terms.bvBin(Kind::BVLShr, x, y), 0xF);
  f.solver.pop();
  f.solver.push();
  expectValue(f.terms.bvBin(Kind::BVUDiv, x, y), 0x3C);
  f.solver.pop();
  f.solver.push();
  expectValue(f.terms.bvExtract(x, 4, 4), 0xF);
  f.solver.pop();
  f.solver.push();
  expectValue(f.terms.bvConcat(f.terms.bvExtract(x, 0, 8),
                               f.terms.bvExtract(y, 0, 8)),
              0xF004);
  f.solver.pop();
  f.solver.push();
  expectValue(f.terms.bvSExt(f.terms.bvExtract(x, 0, 8), 16), 0xFFF0);
  f.solver.pop();
  f.solver.push();
  expectValue(f.terms.bvZExt(f.terms.bvExtract(x, 0, 8), 16), 0x00F0);
  f.solver.pop();
  // Wider than 64 bits.
  llvm::APInt big = llvm::APInt::getAllOnes(128);
  Term wide = f.terms.bvZExt(x, 128);
  Term sum = f.terms.bvBin(Kind::BVAdd, wide, f.terms.bv(big));
  f.solver.push();
  expectValue(f.terms.bvExtract(sum, 0, 32), 0xEF);
  f.solver.pop();
}

/// (5) A buffer read at a symbolic index lowers to an uninterpreted
/// function application; the model gives the elements read.
TEST(Z3Lowering, SelectAtSymbolicIndex) {
  Fixture f;
  Term i = f.terms.bvVar("i", 32), j = f.terms.bvVar("j", 64);
  Term ai = f.terms.element("a", i), aj = f.terms.element("a", j);
  ASSERT_EQ(ai->getKind(), Kind::Select);
  Expr lowered = f.lowering.lower(ai);
  ASSERT_TRUE(lowered.isValid()) << f.lowering.getError();
  EXPECT_NE(lowered.toString().find("(a ((_ zero_extend 32) i))"),
            std::string::npos)
      << lowered.toString();
  f.assertTerm(f.terms.eq(i, f.terms.bv(5, 32)));
  f.assertTerm(f.terms.eq(j, f.terms.bv(7, 64)));
  f.assertTerm(f.terms.eq(ai, f.terms.real(3, 2)));
  f.assertTerm(f.terms.eq(aj, f.terms.real(-2)));
  ASSERT_EQ(f.solver.check(), CheckResult::Sat);
  auto a = f.lowering.extractModel(f.solver.getModel());
  ASSERT_TRUE(a.has_value()) << f.lowering.getModelError();
  EXPECT_EQ(a->element("a", 5), Rational(3, 2));
  EXPECT_EQ(a->element("a", 7), Rational(-2));
  EXPECT_EQ(a->bitvectors.at("i"), llvm::APInt(32, 5));

  // Equal indices read equal elements (function congruence, for free).
  Fixture g;
  Term gi = g.terms.bvVar("i", 32), gj = g.terms.bvVar("j", 32);
  g.assertTerm(g.terms.eq(gi, gj));
  EXPECT_EQ(g.refuteNegation(g.terms.eq(g.terms.element("a", gi),
                                        g.terms.element("a", gj))),
            CheckResult::Unsat);
}

/// A constant-index element (RealVar "a[3]") and a symbolic read of the
/// same element agree through the "elem_link" fact.
TEST(Z3Lowering, ConstantAndSymbolicElementsAgree) {
  Fixture f;
  Term i = f.terms.bvVar("i", 32);
  Term a3 = f.terms.element("a", f.terms.bv(3, 32));
  ASSERT_EQ(a3->getKind(), Kind::RealVar);
  Term ai = f.terms.element("a", i);
  f.assertTerm(f.terms.eq(i, f.terms.bv(3, 32)));
  f.assertTerm(f.terms.eq(a3, f.terms.real(7)));
  EXPECT_EQ(f.refuteNegation(f.terms.eq(ai, f.terms.real(7))),
            CheckResult::Unsat);
  bool linked = false;
  for (const auto &nf : f.lowering.atomFacts())
    linked |= nf.first == "elem_link!a[3]";
  EXPECT_TRUE(linked);
}

/// (6) BVToReal: signed 0xFFFFFFFF is -1, unsigned is 2^32 - 1.
TEST(Z3Lowering, BVToRealSignedAndUnsigned) {
  Fixture f;
  Term x = f.terms.bvVar("x", 32);
  f.assertTerm(f.terms.eq(x, f.terms.bv(0xFFFFFFFFu, 32)));
  f.solver.push();
  EXPECT_EQ(f.refuteNegation(
                f.terms.eq(f.terms.bvToReal(x, true), f.terms.real(-1))),
            CheckResult::Unsat);
  f.solver.pop();
  f.solver.push();
  EXPECT_EQ(f.refuteNegation(f.terms.eq(f.terms.bvToReal(x, false),
                                        f.terms.real(4294967295LL))),
            CheckResult::Unsat);
  f.solver.pop();
  // Positive values read the same either way.
  Fixture g;
  Term y = g.terms.bvVar("y", 8);
  g.assertTerm(g.terms.eq(y, g.terms.bv(0x7F, 8)));
  EXPECT_EQ(g.refuteNegation(
                g.terms.eq(g.terms.bvToReal(y, true), g.terms.real(127))),
            CheckResult::Unsat);
  // TermContext folds constants; the lowering agrees with the fold.
  EXPECT_EQ(f.terms.bvToReal(f.terms.bv(0xFFFFFFFFu, 32), true),
            f.terms.real(-1));
}

/// (7) An infinity reaching the lowering is an error, not a crash; the
/// error propagates to the enclosing terms.
TEST(Z3Lowering, InfinityIsAnError) {
  Fixture f;
  Expr e = f.lowering.lower(f.terms.negInf());
  EXPECT_FALSE(e.isValid());
  EXPECT_NE(f.lowering.getError().find("-inf"), std::string::npos)
      << f.lowering.getError();

  Fixture g;
  Term x = g.terms.realVar("x");
  Term b = g.terms.boolVar("b");
  // A value infinite on some inputs only is an ite with an extended leaf;
  // as a real it does not lower, while a comparison of it is a boolean
  // over the cases (+inf < 1 is false) and does.
  Term inf = g.terms.ite(b, g.terms.posInf(), x);
  ASSERT_TRUE(inf);
  EXPECT_FALSE(g.lowering.lower(inf).isValid());
  Term lt = g.terms.realLt(inf, g.terms.real(1));
  EXPECT_EQ(lt, g.terms.ite(b, g.terms.boolConst(false),
                            g.terms.realLt(x, g.terms.real(1))));
  EXPECT_TRUE(g.lowering.lower(lt).isValid());
  // Other terms still lower.
  EXPECT_TRUE(g.lowering.lower(g.terms.realLt(x, g.terms.real(1))).isValid());
  // A null term (a failed construction) is an error too.
  EXPECT_FALSE(g.lowering.lower(nullptr).isValid());
}

/// (8) Div is exact real division.
TEST(Z3Lowering, DivIsRealDivision) {
  Fixture f;
  Term x = f.terms.realVar("x"), y = f.terms.realVar("y");
  Term q = f.terms.div(x, y);
  ASSERT_EQ(q->getKind(), Kind::Div);
  Expr lowered = f.lowering.lower(q);
  ASSERT_TRUE(lowered.isValid());
  EXPECT_EQ(lowered.toString(), "(/ x y)");
  f.assertTerm(f.terms.eq(x, f.terms.real(3)));
  f.assertTerm(f.terms.eq(y, f.terms.real(2)));
  ASSERT_EQ(f.solver.check(), CheckResult::Sat);
  auto v = f.lowering.evalReal(f.solver.getModel(), q);
  ASSERT_TRUE(v.has_value()) << f.lowering.getModelError();
  EXPECT_EQ(*v, Rational(3, 2));

  // y != 0 -> y * (x / y) = x.
  Fixture g;
  Term gx = g.terms.realVar("x"), gy = g.terms.realVar("y");
  g.assertTerm(g.terms.notOf(g.terms.eq(gy, g.terms.real(0))));
  EXPECT_EQ(g.refuteNegation(g.terms.eq(
                g.terms.mul(gy, g.terms.div(gx, gy)), gx)),
            CheckResult::Unsat);
}

/// Max/Min are ite; Ite, And/Or/Not and BoolVar lower; the model gives
/// Booleans.
TEST(Z3Lowering, MaxMinIteAndBooleans) {
  Fixture f;
  Term x = f.terms.realVar("x"), y = f.terms.realVar("y");
  Term m = f.terms.max(x, y);
  EXPECT_EQ(f.refuteNegation(f.terms.andOf(f.terms.realLe(x, m),
                                           f.terms.realLe(f.terms.min(x, y),
                                                          y))),
            CheckResult::Unsat);
  Fixture g;
  Term p = g.terms.boolVar("p"), q = g.terms.boolVar("q");
  g.assertTerm(g.terms.andOf(p, g.terms.notOf(q)));
  g.assertTerm(g.terms.eq(g.terms.realVar("z"),
                          g.terms.ite(p, g.terms.real(1, 3), g.terms.real(2))));
  ASSERT_EQ(g.solver.check(), CheckResult::Sat);
  auto a = g.lowering.extractModel(g.solver.getModel());
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->bools.at("p"));
  EXPECT_FALSE(a->bools.at("q"));
  EXPECT_EQ(a->reals.at("z"), Rational(1, 3));
}

/// sqrt atoms: sqrt(x)^2 = x for x >= 0, sqrt(x) >= 0; equal arguments
/// give equal values (congruence); rsqrt(x) > 0 for x > 0.
TEST(Z3Lowering, RealFunctionFacts) {
  Fixture f;
  Term x = f.terms.realVar("x"), y = f.terms.realVar("y");
  Term sx = f.terms.realFn("sqrt", {x});
  f.assertTerm(f.terms.realLe(f.terms.real(0), x));
  EXPECT_EQ(f.refuteNegation(f.terms.andOf(
                f.terms.realLe(f.terms.real(0), sx),
                f.terms.eq(f.terms.mul(sx, sx), x))),
            CheckResult::Unsat);

  Fixture g;
  Term gx = g.terms.realVar("x"), gy = g.terms.realVar("y");
  g.assertTerm(g.terms.eq(gx, gy));
  EXPECT_EQ(g.refuteNegation(g.terms.eq(g.terms.realFn("tanh", {gx}),
                                        g.terms.realFn("tanh", {gy}))),
            CheckResult::Unsat);

  Fixture h;
  Term hx = h.terms.realVar("x");
  h.assertTerm(h.terms.realLt(h.terms.real(0), hx));
  EXPECT_EQ(h.refuteNegation(h.terms.realLt(
                h.terms.real(0), h.terms.realFn("rsqrt", {hx}))),
            CheckResult::Unsat);
  (void)y;
}

/// A nonlinear model can be irrational: x * x = 2 has no rational witness,
/// and extractModel says so instead of rounding.
TEST(Z3Lowering, IrrationalModelIsReported) {
  Fixture f;
  Term x = f.terms.realVar("x");
  f.assertTerm(f.terms.eq(f.terms.mul(x, x), f.terms.real(2)));
  ASSERT_EQ(f.solver.check(), CheckResult::Sat);
  auto a = f.lowering.extractModel(f.solver.getModel());
  EXPECT_FALSE(a.has_value());
  EXPECT_NE(f.lowering.getModelError().find("irrational"), std::string::npos)
      << f.lowering.getModelError();
}

/// Lowering is memoized per term, also across shared subterms, and a deep
/// term lowers without recursion.
TEST(Z3Lowering, MemoizedAndDeep) {
  Fixture f;
  Term x = f.terms.realVar("x");
  Term e = f.terms.exp(x);
  Expr a = f.lowering.lower(e), b = f.lowering.lower(e);
  EXPECT_EQ(a.getAST(), b.getAST());
  EXPECT_EQ(f.lowering.getAtoms().size(), 1u);

  // A chain of 30000 nested ite terms (90000 deep).
  Term t = x;
  Term c = f.terms.boolVar("c");
  for (int k = 0; k < 30000; ++k)
    t = f.terms.ite(c, f.terms.max(t, f.terms.real(k)), t);
  EXPECT_TRUE(f.lowering.lower(t).isValid()) << f.lowering.getError();
}

/// A name used with two sorts is an error (it would make the benchmark and
/// the assignment ambiguous).
TEST(Z3Lowering, NameClashIsAnError) {
  Fixture f;
  EXPECT_TRUE(f.lowering.lower(f.terms.bvVar("n", 32)).isValid());
  EXPECT_FALSE(f.lowering.lower(f.terms.bvVar("n", 64)).isValid());
  EXPECT_NE(f.lowering.getError().find("'n'"), std::string::npos);
}

/// A certificate: the negated goal plus every fact as a named assertion,
/// re-solved from text in a fresh context, is unsat; the unsat core names
/// the facts it used.
TEST(Z3Lowering, CertificateRoundTrip) {
  Fixture f;
  Term x = f.terms.realVar("x[0]"), y = f.terms.realVar("x[1]");
  Term goal = f.terms.realLt(f.terms.exp(x), f.terms.exp(y));
  std::vector<std::pair<std::string, Expr>> named;
  named.emplace_back("hyp", f.lowering.lower(f.terms.realLt(x, y)));
  named.emplace_back("negated_goal", f.lowering.lower(f.terms.notOf(goal)));
  for (auto &nf : f.lowering.atomFacts())
    named.push_back(nf);
  smt::BenchmarkOptions opts;
  opts.status = "unsat";
  opts.comment = "kproof certificate\nexp(x[0]) < exp(x[1])";
  opts.unsatCore = true;
  std::string text = smt::toSMTLIB2Benchmark(named, {}, opts);
  ASSERT_FALSE(text.empty()) << f.z3.getError();
  EXPECT_NE(text.find("(declare-fun |x[0]| () Real)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(declare-fun exp!0 () Real)"), std::string::npos);
  EXPECT_NE(text.find(":named exp_mono!0!1))"), std::string::npos);
  EXPECT_EQ(text.find("forall"), std::string::npos);
  std::string answer = smt::solveSMTLIB2(text);
  EXPECT_EQ(answer.rfind("unsat", 0), 0u) << answer << "\n" << text;
  EXPECT_NE(answer.find("exp_mono!0!1"), std::string::npos) << answer;
  EXPECT_NE(answer.find("hyp"), std::string::npos) << answer;

  // Symbols that need quoting are quoted.
  EXPECT_EQ(smt::quoteSymbol("x[2]"), "|x[2]|");
  EXPECT_EQ(smt::quoteSymbol("exp!0"), "exp!0");
  EXPECT_EQ(smt::quoteSymbol("0x"), "|0x|");
}

} // namespace

namespace {

/// Integer-mode lowering (setBitVectorsAsIntegers) under a fixed resource
/// limit: the set-up of the Z3LoweringInt tests.
struct IntLowering {
  TermContext T;
  smt::Context z3{options()};
  Z3Lowering lowering{z3, T};
  IntLowering() { lowering.setBitVectorsAsIntegers(true); }
  static smt::SolverOptions options() {
    smt::SolverOptions so;
    so.rlimit = 5'000'000;
    return so;
  }
};

} // namespace

namespace {

/// Integer mode: the thread index g = ctaid.x * ntid.x + tid.x in 32 bits
/// wraps unless the launch bounds the total thread count. With
/// `zext(ntid.x) * zext(nctaid.x) <= 2^31` and `ctaid.x < nctaid.x` the
/// product ctaid.x * ntid.x is bounded (productBounds) and lowered without
/// a modular wrap, and g >= tid.x is proved; without the bound the wrap is
/// kept and a model wraps g below tid.x.
TEST(Z3LoweringInt, ProductBoundElidesTheWrap) {
  for (bool bounded : {true, false}) {
    IntLowering in;
    TermContext &T = in.T;
    smt::Context &z3 = in.z3;
    Z3Lowering &lowering = in.lowering;
    Term ntid = T.bvVar("ntid.x", 32), nctaid = T.bvVar("nctaid.x", 32);
    Term tid = T.bvVar("tid.x", 32), ctaid = T.bvVar("ctaid.x", 32);
    llvm::SmallVector<Term> facts = {T.notOf(T.eq(ntid, T.bv(0, 32))),
                                     T.bvUle(ntid, T.bv(1024, 32)),
                                     T.notOf(T.eq(nctaid, T.bv(0, 32))),
                                     T.bvUle(nctaid, T.bv(2147483647, 32)),
                                     T.bvUlt(tid, ntid),
                                     T.bvUlt(ctaid, nctaid)};
    if (bounded)
      facts.push_back(T.bvUle(
          T.bvBin(Kind::BVMul, T.bvZExt(ntid, 64), T.bvZExt(nctaid, 64)),
          T.bv(uint64_t(1) << 31, 64)));
    Term g = T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, ctaid, ntid), tid);
    Term bad = T.bvUlt(g, tid);
    llvm::SmallVector<Term> all(facts.begin(), facts.end());
    all.push_back(bad);
    lowering.assumeBoundsOf(all);
    smt::Solver solver(z3, /*simple=*/true);
    for (Term a : all) {
      Expr e = lowering.lower(a);
      ASSERT_TRUE(e.isValid()) << lowering.getError();
      solver.add(e);
    }
    for (const Expr &d : lowering.intDefinitions())
      solver.add(d);
    std::string g64 = lowering.lower(g).toString();
    EXPECT_EQ(g64.find("int.wrap") == std::string::npos, bounded) << g64;
    EXPECT_EQ(solver.check(), bounded ? CheckResult::Unsat : CheckResult::Sat)
        << solver.getReason();
  }
}

} // namespace

namespace {

/// A bound on a product that may itself wrap (`zext(n * m) <= 2` with a
/// 32-bit n * m, or a constant factor that overflows the fact's width)
/// bounds it modulo 2^32 only: the product keeps its modular wrap, and
/// n * m = 2^33 + 2 stays a model.
TEST(Z3LoweringInt, WrappingProductBoundIsNotTrusted) {
  IntLowering in;
  TermContext &T = in.T;
  smt::Context &z3 = in.z3;
  Z3Lowering &lowering = in.lowering;
  Term n = T.bvVar("n", 32), m = T.bvVar("m", 32);
  Term nm = T.bvBin(Kind::BVMul, n, m);
  Term fact = T.bvUle(T.bvZExt(nm, 64), T.bv(2, 64));
  Term wide = T.bvBin(Kind::BVMul, T.bv(16, 64),
                      T.bvBin(Kind::BVMul, T.bvZExt(n, 64), T.bvZExt(m, 64)));
  Term fact2 = T.bvUle(wide, T.bv(32, 64));
  Term big = T.bvUlt(T.bv(100, 32), n);
  lowering.assumeBoundsOf({fact, fact2, big});
  std::string s = lowering.lower(nm).toString();
  EXPECT_NE(s.find("int.wrap"), std::string::npos) << s;
  smt::Solver solver(z3, /*simple=*/true);
  for (Term a : {fact, big})
    solver.add(lowering.lower(a));
  for (const Expr &d : lowering.intDefinitions())
    solver.add(d);
  EXPECT_EQ(solver.check(), CheckResult::Sat) << solver.getReason();
}

} // namespace

namespace {

/// Integer mode: a size n asserted as `1 <=s n`, `n <=s 2^20` (signed, as
/// a contract range is) is bounded below 2^20 unsigned, so the row offset
/// row * n (row < 64) needs no modular wrap; a loop counter k asserted
/// below the term ite(1 <s n, sext(n) - 1, 0) is bounded by that term's
/// interval, so 4 * k needs none either. Without the lower bound the
/// signed upper bound says nothing unsigned, and both wraps stay.
TEST(Z3LoweringInt, SignedAndTermBoundsElideTheWrap) {
  for (bool lower : {true, false}) {
    IntLowering in;
    TermContext &T = in.T;
    Z3Lowering &lowering = in.lowering;
    Term n = T.bvVar("n", 32), row = T.bvVar("row", 32);
    Term k = T.bvVar("k", 64);
    Term trip = T.ite(T.bvSlt(T.bv(1, 32), n),
                      T.bvBin(Kind::BVSub, T.bvSExt(n, 64), T.bv(1, 64)),
                      T.bv(0, 64));
    llvm::SmallVector<Term> all = {T.bvSle(n, T.bv(1 << 20, 32)),
                                   T.bvUlt(row, T.bv(64, 32)),
                                   T.bvUle(k, trip)};
    if (lower)
      all.push_back(T.bvSle(T.bv(1, 32), n));
    lowering.assumeBoundsOf(all);
    for (Term a : all)
      ASSERT_TRUE(lowering.lower(a).isValid()) << lowering.getError();
    std::string product =
        lowering.lower(T.bvBin(Kind::BVMul, row, n)).toString();
    std::string scaled =
        lowering.lower(T.bvBin(Kind::BVMul, T.bv(4, 64), k)).toString();
    EXPECT_EQ(product.find("int.wrap") == std::string::npos, lower)
        << product;
    EXPECT_EQ(scaled.find("int.wrap") == std::string::npos, lower) << scaled;
  }
}

} // namespace
