//===- Z3SolverTest.cpp - tests of the Z3 C API wrapper -------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Solver.h"

#include <gtest/gtest.h>

using namespace kproof::smt;

namespace {

/// Proves a real-arithmetic fact the way the engine does: assert its negation
/// and expect unsat. x > 0 and y > 0 imply x*y > 0 (nonlinear real
/// arithmetic, which Z3 decides with nlsat).
TEST(Z3Solver, ProvesProductOfPositivesIsPositive) {
  Context ctx;
  Expr x = ctx.realVar("x"), y = ctx.realVar("y");
  Expr zero = ctx.realVal(0);
  Solver s(ctx);
  s.add(!((x > zero && y > zero).implies(x * y > zero)));
  EXPECT_EQ(s.check(), CheckResult::Unsat) << s.getReason();
}

/// (x + y)^2 == x^2 + 2xy + y^2 over the reals.
TEST(Z3Solver, ProvesBinomialSquare) {
  Context ctx;
  Expr x = ctx.realVar("x"), y = ctx.realVar("y");
  Solver s(ctx);
  Expr lhs = (x + y) * (x + y);
  Expr rhs = x * x + ctx.realVal(2) * x * y + y * y;
  s.add(lhs != rhs);
  EXPECT_EQ(s.check(), CheckResult::Unsat);
}

/// A false claim gives a model that is an exact rational witness:
/// x / 3 == x has only the solution x = 0, so x / 3 != x is sat with x != 0;
/// restrict to x = 1/2 and check the model value exactly.
TEST(Z3Solver, RefutesWithExactRationalModel) {
  Context ctx;
  Expr x = ctx.realVar("x");
  Solver s(ctx);
  s.add(x / ctx.realVal(3) != x);
  s.add(x == ctx.realVal(1, 2));
  ASSERT_EQ(s.check(), CheckResult::Sat);
  Model m = s.getModel();
  auto value = m.evalRational(x);
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(value->first, "1");
  EXPECT_EQ(value->second, "2");
  EXPECT_EQ(m.eval(x / ctx.realVal(3)).value_or(""), "1/6");
}

/// Bit-vectors wrap like PTX registers: 0xffffffff + 1 == 0 in 32 bits, and
/// it is not true that x + 1 > x (signed) for every x.
TEST(Z3Solver, BitVectorsWrap) {
  Context ctx;
  Solver s(ctx);
  s.add(ctx.bvVal(0xffffffffu, 32) + ctx.bvVal(1, 32) != ctx.bvVal(0, 32));
  EXPECT_EQ(s.check(), CheckResult::Unsat);

  Solver t(ctx);
  Expr x = ctx.bvVar("x", 32);
  t.add(!(x + ctx.bvVal(1, 32) > x));
  ASSERT_EQ(t.check(), CheckResult::Sat);
  EXPECT_EQ(t.getModel().eval(x).value_or(""), "2147483647");
}

/// An API misuse is reported through the error handler as CheckResult::Error
/// with a reason, not a crash and not a silent answer.
TEST(Z3Solver, ApiErrorsAreReported) {
  Context ctx;
  Expr b = ctx.boolVar("b");
  Expr r = ctx.realVar("r");
  Expr bad = b + r; // Bool + Real: Z3 rejects the sort mismatch.
  EXPECT_FALSE(bad.isValid());
  EXPECT_TRUE(ctx.hasError());
  Solver s(ctx);
  s.add(r > ctx.realVal(0));
  EXPECT_EQ(s.check(), CheckResult::Error);
  EXPECT_FALSE(s.getReason().empty());
}

/// The resource limit makes a hard query answer Unknown deterministically
/// rather than running forever.
TEST(Z3Solver, ResourceLimitGivesUnknown) {
  SolverOptions opts;
  opts.rlimit = 1; // far too small for anything nonlinear
  Context ctx(opts);
  Expr x = ctx.realVar("x"), y = ctx.realVar("y"), z = ctx.realVar("z");
  Solver s(ctx);
  s.add(x * x * x + y * y * y == z * z * z);
  s.add(x > ctx.realVal(1) && y > ctx.realVal(1) && z > ctx.realVal(1));
  CheckResult r = s.check();
  EXPECT_EQ(r, CheckResult::Unknown);
  EXPECT_FALSE(s.getReason().empty());
}

/// The SMT-LIB2 text of a solver re-solves to the same answer in a fresh
/// context (how certificates are re-checked).
TEST(Z3Solver, SMTLIB2RoundTripResolvesUnsat) {
  Context ctx;
  Expr x = ctx.realVar("x");
  Solver s(ctx);
  s.add(x * x < ctx.realVal(0));
  ASSERT_EQ(s.check(), CheckResult::Unsat);
  EXPECT_EQ(solveSMTLIB2(s.toSMTLIB2()), "unsat");
}

} // namespace
