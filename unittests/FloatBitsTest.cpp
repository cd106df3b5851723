//===- FloatBitsTest.cpp - tests of FloatBits terms -----------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// TermContext::floatBits and realOfFloatBits: the bits of a real in a float
// format (packed halves), the constants that fold, the inverse only in the
// same format, and the extract of a concatenation (an unpacked half). The
// Z3 lowering leaves the encoding unconstrained: a claim that depends on
// it is not proved.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/Terms/Term.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

TEST(FloatBits, ExactConstantsFoldToTheirEncoding) {
  TermContext T;
  EXPECT_EQ(T.floatBits(T.real(1), "f16"), T.bv(0x3C00, 16));
  EXPECT_EQ(T.floatBits(T.real(1), "bf16"), T.bv(0x3F80, 16));
  EXPECT_EQ(T.floatBits(T.real(Rational(-3, 2)), "f32"), T.bv(0xBFC00000, 32));
  EXPECT_EQ(T.floatBits(T.real(0), "f16"), T.bv(0, 16));
  // 1/3 and 65536 (past f16's largest finite value) are rounded by the
  // format: kept as terms.
  EXPECT_EQ(T.floatBits(T.real(Rational(1, 3)), "f16")->getKind(),
            Kind::FloatBits);
  EXPECT_EQ(T.floatBits(T.real(65536), "f16")->getKind(), Kind::FloatBits);
  EXPECT_EQ(T.floatBits(T.real(1), "f8"), nullptr);
}

TEST(FloatBits, ReadBackOnlyInTheSameFormat) {
  TermContext T;
  Term x = T.realVar("x[0]");
  Term h = T.floatBits(x, "f16");
  EXPECT_EQ(h->getWidth(), 16u);
  EXPECT_EQ(T.realOfFloatBits(h, "f16"), x);
  EXPECT_EQ(T.realOfFloatBits(h, "bf16"), nullptr);
  EXPECT_EQ(T.realOfFloatBits(T.bvVar("r", 16), "f16"), nullptr);
  // Constants read as their value in the format asked for.
  EXPECT_EQ(T.realOfFloatBits(T.bv(0x3F80, 16), "bf16"), T.real(1));
  EXPECT_EQ(T.realOfFloatBits(T.bv(0x3C00, 16), "f16"), T.real(1));
  // Through ites whose leaves are all such bits.
  Term c = T.boolVar("c");
  Term sel = T.ite(c, h, T.bv(0, 16));
  EXPECT_EQ(T.realOfFloatBits(sel, "f16"), T.ite(c, x, T.real(0)));
  EXPECT_EQ(T.realOfFloatBits(T.ite(c, h, T.bvVar("r", 16)), "f16"), nullptr);
}

TEST(FloatBits, HalvesOfAPackedPairAreItsParts) {
  TermContext T;
  Term lo = T.floatBits(T.realVar("x[0]"), "f16");
  Term hi = T.floatBits(T.realVar("x[1]"), "f16");
  Term packed = T.bvConcat(hi, lo);
  EXPECT_EQ(packed->getWidth(), 32u);
  EXPECT_EQ(T.bvExtract(packed, 0, 16), lo);
  EXPECT_EQ(T.bvExtract(packed, 16, 16), hi);
  // A straddling extract stays one.
  EXPECT_EQ(T.bvExtract(packed, 8, 16)->getKind(), Kind::BVExtract);
  // Nested: the third half of a 64-bit pair of pairs.
  Term wide = T.bvConcat(T.bvConcat(hi, lo), packed);
  EXPECT_EQ(T.bvExtract(wide, 32, 16), lo);
}

TEST(FloatBits, SolverDoesNotAssumeAnEncoding) {
  // bits_f16(x) == 0x3C00 does not follow from x == 1 in the lowering (the
  // encoding is unconstrained), and bits_f16(x) != bits_f16(x) is unsat.
  TermContext T;
  Term x = T.realVar("x");
  Term h = T.floatBits(x, "f16");
  smt::Context z3;
  Z3Lowering lowering(z3, T);
  {
    smt::Solver solver(z3);
    smt::Expr e = lowering.lower(
        T.andOf(T.eq(x, T.real(1)), T.notOf(T.eq(h, T.bv(0x3C00, 16)))));
    ASSERT_TRUE(e.isValid()) << lowering.getError();
    solver.add(e);
    EXPECT_EQ(solver.check(), smt::CheckResult::Sat);
  }
  {
    smt::Solver solver(z3);
    smt::Expr e = lowering.lower(T.notOf(T.eq(h, h)));
    ASSERT_TRUE(e.isValid()) << lowering.getError();
    solver.add(e);
    EXPECT_EQ(solver.check(), smt::CheckResult::Unsat);
  }
}

} // namespace
