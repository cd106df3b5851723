//===- ConstantsTest.cpp - transcendental constants -----------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Constants.h"
#include "KProof/Verifier/Terms/Evaluate.h"
#include "KProof/Verifier/Terms/Normalizer.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

llvm::APFloat f32Bits(uint32_t bits) {
  return llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits));
}
llvm::APFloat f64(double v) { return llvm::APFloat(v); }

struct ConstantsTest : ::testing::Test {
  TermContext T;
  Normalizer N{T};
  Term x = T.realVar("x"), y = T.realVar("y");
  Term ln2 = ln2Atom(T);
};

/// nvcc's and Triton's f32 constants, and f64 ones, read as the values
/// they round; their neighbours one ulp further do not.
TEST_F(ConstantsTest, ReadsTheValuesTheyRound) {
  auto name = [](const llvm::APFloat &c) {
    auto r = matchTranscendental(c);
    return r ? r->name : std::string("none");
  };
  EXPECT_EQ(name(f32Bits(0x3FB8AA3B)), "log2(e)");
  EXPECT_EQ(name(f32Bits(0x3F317218)), "ln(2)");
  EXPECT_EQ(name(f32Bits(0xBFB8AA3B)), "-log2(e)");
  EXPECT_EQ(name(f32Bits(0x3F3504F3)), "sqrt(2) / 2");
  EXPECT_EQ(name(f32Bits(0x3FB504F3)), "sqrt(2)");
  EXPECT_EQ(name(f32Bits(0x40490FDB)), "pi");
  EXPECT_EQ(name(f32Bits(0x40C90FDB)), "2 * pi");
  EXPECT_EQ(name(f32Bits(0x3DB504F3)), "sqrt(2) / 16"); // 1/sqrt(128)
  EXPECT_EQ(name(f64(1.4426950408889634)), "log2(e)");
  EXPECT_EQ(name(f64(0.6931471805599453)), "ln(2)");
  EXPECT_EQ(name(f64(3.141592653589793)), "pi");
  // The other float neighbour of ln(2) and log2(e) (one ulp away, on the
  // far side of the value): a different number.
  EXPECT_EQ(name(f32Bits(0x3F317217)), "none");
  EXPECT_EQ(name(f32Bits(0x3FB8AA3C)), "none");
  // Two ulps away, an exact value, zero, a dyadic scale: no reading.
  EXPECT_EQ(name(f32Bits(0x3FB8AA3D)), "none");
  EXPECT_EQ(name(f32Bits(0x3FB8AA39)), "none");
  EXPECT_EQ(name(f32Bits(0x3F800000)), "none");
  EXPECT_EQ(name(f32Bits(0x00000000)), "none");
  EXPECT_EQ(name(f32Bits(0x3E000000)), "none"); // 1/sqrt(64)
  // f16 and bf16 constants are never read (one ulp is too wide).
  EXPECT_FALSE(matchTranscendental(
      llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, 0x3DC5))));
  auto r = matchTranscendental(f32Bits(0x3FB8AA3B));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->spelling, "0f3FB8AA3B");
  EXPECT_LT(r->relativeError, 0x1p-23);
  EXPECT_GT(r->relativeError, 0);
}

/// The terms: log2(e) * ln(2) = 1 and ex2's argument x * log2(e) strips to
/// x, exactly; lg2(y) * ln(2) is log(y).
TEST_F(ConstantsTest, ReadingsCancelExactly) {
  Term log2e = floatConstant(T, f32Bits(0x3FB8AA3B));
  Term ln2c = floatConstant(T, f32Bits(0x3F317218));
  ASSERT_TRUE(log2e && ln2c);
  EXPECT_EQ(ln2c, ln2);
  EXPECT_TRUE(N.provesEqual(T.mul(log2e, ln2c), T.real(1)));
  EXPECT_EQ(N.matchInverseAtomScaled(T.mul(x, log2e), ln2), x);
  EXPECT_EQ(N.matchInverseAtomScaled(T.add(T.mul(x, log2e), y), ln2),
            nullptr);
  EXPECT_TRUE(N.provesEqual(T.mul(T.realFn("lg2", {y}), ln2c),
                            T.realFn("log", {y})));
  // max(x log2(e), y log2(e)) * ln(2) = max(x, y).
  EXPECT_TRUE(N.provesEqual(T.mul(T.max(T.mul(x, log2e), T.mul(y, log2e)), ln2c),
                            T.max(x, y)));
  // -inf times the positive constant stays -inf.
  EXPECT_EQ(T.mul(T.negInf(), log2e), T.negInf());
  EXPECT_TRUE(N.provesPositive(log2e));
}

/// Contract expressions: 1/sqrt(128) is (1/8) / sqrt(2), the value the
/// f32 constant 0f3DB504F3 is read as.
TEST_F(ConstantsTest, ContractExpressions) {
  std::string err;
  Term s = parseConstantExpression(T, "1/sqrt(128)", err);
  ASSERT_TRUE(s) << err;
  EXPECT_TRUE(N.provesEqual(s, floatConstant(T, f32Bits(0x3DB504F3))));
  Term l = parseConstantExpression(T, "log2(e) / sqrt(2)", err);
  ASSERT_TRUE(l) << err;
  // Square roots of constants have one normal form.
  Term r2 = T.realFn("sqrt", {T.real(2)});
  EXPECT_TRUE(N.provesEqual(T.mul(r2, r2), T.real(2)));
  EXPECT_TRUE(N.provesEqual(T.div(T.real(1), r2), T.mul(T.real(1, 2), r2)));
  EXPECT_TRUE(N.provesEqual(parseConstantExpression(T, "sqrt(8)", err),
                            T.mul(T.real(2), r2)));
  EXPECT_FALSE(parseConstantExpression(T, "1/sqrt(x)", err));
  EXPECT_NE(err.find("not a constant expression"), std::string::npos);
  EXPECT_FALSE(parseConstantExpression(T, "1/0", err));
  EXPECT_FALSE(parseConstantExpression(T, "", err));
}

/// The exact values in MPFR (the interpreter's exact mode) and the
/// evaluator's enclosure of pi().
TEST_F(ConstantsTest, ExactValues) {
  mpfr_t v;
  mpfr_init2(v, 128);
  ASSERT_TRUE(transcendentalValue(f32Bits(0x3F317218), v));
  EXPECT_NEAR(mpfr_get_d(v, MPFR_RNDN), 0.6931471805599453, 1e-16);
  EXPECT_FALSE(transcendentalValue(f32Bits(0x3F800000), v));
  mpfr_clear(v);
  Assignment none;
  Evaluator ev(none);
  auto pi = ev.real(T.realFn("pi", {}));
  ASSERT_TRUE(pi);
  EXPECT_NEAR(pi->midpoint(), 3.141592653589793, 1e-15);
  // Widened atoms: log(2) within a relative 2^-23 on both sides.
  Evaluator wide(none, 128);
  wide.widenConstantAtoms(23);
  auto l = wide.real(ln2);
  ASSERT_TRUE(l);
  EXPECT_NEAR(l->width(), 2 * 0.6931471805599453 * 0x1p-23, 1e-12);
  EXPECT_TRUE(l->contains(Rational(11629080, 16777216))); // 0f3F317218
}

} // namespace
