//===- SpecTest.cpp - tests of the built-in specs -------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Specs/Spec.h"
#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Verifier/Terms/Normalizer.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

struct AttentionSpecTest : ::testing::Test {
  MLIRContext ctx;
  TermContext T;
  Normalizer N{T};
  BufferBinding q, k, v, o;
  SpecEnvironment env;
  OwningOpRef<ModuleOp> module;

  AttentionSpecTest() {
    Type f32 = Float32Type::get(&ctx);
    q = {"q", BufferBinding::Role::In, f32, {2, 1}};
    k = {"k", BufferBinding::Role::In, f32, {2, 1}};
    v = {"v", BufferBinding::Role::In, f32, {2, 1}};
    o = {"o", BufferBinding::Role::Out, f32, {2, 1}};
    for (BufferBinding *b : {&q, &k, &v, &o})
      env.buffers[b->name] = b;
    module = ModuleOp::create(UnknownLoc::get(&ctx));
  }

  std::unique_ptr<Spec> build(StringRef mask, int64_t offset = 0) {
    Builder b(&ctx);
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("builtin", b.getStringAttr("attention")),
        b.getNamedAttr("q", b.getStringAttr("q")),
        b.getNamedAttr("k", b.getStringAttr("k")),
        b.getNamedAttr("v", b.getStringAttr("v")),
        b.getNamedAttr("output", b.getStringAttr("o")),
        b.getNamedAttr("scale", b.getF32FloatAttr(0.5)),
        b.getNamedAttr("mask", b.getStringAttr(mask)),
        b.getNamedAttr("offset", b.getI64IntegerAttr(offset))};
    return buildSpec(*module, b.getDictionaryAttr(attrs), env);
  }

  Term el(const char *buf, uint64_t i) { return T.realVar(std::string(buf) + "[" + std::to_string(i) + "]"); }
};

/// o[i] = (e0 v0 + e1 v1) / (e0 + e1), e_j = exp(q_i k_j / 2): the running
/// max m_i cancels.
TEST_F(AttentionSpecTest, NoMaskIsSoftmaxWeightedValues) {
  std::unique_ptr<Spec> spec = build("none");
  ASSERT_TRUE(spec);
  std::string why;
  Term got = spec->element(T, T.bv(1, 64), why);
  ASSERT_TRUE(got) << why;
  Term half = T.real(1, 2);
  Term e0 = T.exp(T.mul({half, el("q", 1), el("k", 0)}));
  Term e1 = T.exp(T.mul({half, el("q", 1), el("k", 1)}));
  Term want = T.div(T.add(T.mul(e0, el("v", 0)), T.mul(e1, el("v", 1))),
                    T.add(e0, e1));
  EXPECT_TRUE(N.provesEqual(got, want));
  EXPECT_FALSE(N.provesEqual(got, el("v", 0)));
}

/// Causal, offset 0: query 0 sees key 0 only, so o[0] = v[0]; query 1 sees
/// both keys.
TEST_F(AttentionSpecTest, CausalMaskHidesLaterKeys) {
  std::unique_ptr<Spec> spec = build("causal");
  ASSERT_TRUE(spec);
  std::string why;
  Term first = spec->element(T, T.bv(0, 64), why);
  ASSERT_TRUE(first) << why;
  EXPECT_TRUE(N.provesEqual(first, el("v", 0)));
  Term second = spec->element(T, T.bv(1, 64), why);
  EXPECT_FALSE(N.provesEqual(second, el("v", 1)));
  // With offset 1, query 0 sees both keys too.
  std::unique_ptr<Spec> shifted = build("causal", 1);
  Term firstShifted = shifted->element(T, T.bv(0, 64), why);
  EXPECT_FALSE(N.provesEqual(firstShifted, el("v", 0)));
}

/// v and the output may have another last extent Dv than q and k's D:
/// q [2, 1], k [2, 1], v [2, 2], o [2, 2]. o[3] is row 1, column 1: it
/// weighs v[1] and v[3] (column 1 of v's rows) by query 1's scores.
TEST_F(AttentionSpecTest, ValuesHaveTheirOwnWidth) {
  v.shape = {2, 2};
  o.shape = {2, 2};
  std::unique_ptr<Spec> spec = build("none");
  ASSERT_TRUE(spec);
  std::string why;
  Term got = spec->element(T, T.bv(3, 64), why);
  ASSERT_TRUE(got) << why;
  Term half = T.real(1, 2);
  Term e0 = T.exp(T.mul({half, el("q", 1), el("k", 0)}));
  Term e1 = T.exp(T.mul({half, el("q", 1), el("k", 1)}));
  Term want = T.div(T.add(T.mul(e0, el("v", 1)), T.mul(e1, el("v", 3))),
                    T.add(e0, e1));
  EXPECT_TRUE(N.provesEqual(got, want));
}

TEST_F(AttentionSpecTest, BadMaskIsAnError) {
  std::string msg;
  ScopedDiagnosticHandler h(&ctx, [&](Diagnostic &d) {
    msg = d.str();
    return success();
  });
  EXPECT_FALSE(build("sliding"));
  EXPECT_EQ(msg, "attention mask must be 'none' or 'causal', not 'sliding'");
  EXPECT_FALSE(build("causal", -1));
}

} // namespace

namespace {

/// A transpose: y[c, r] = x[r, c] for x [2, 3], y [3, 2].
TEST(PermuteSpec, TransposeReadsTheSwappedElement) {
  MLIRContext ctx;
  TermContext T;
  Type f32 = Float32Type::get(&ctx);
  BufferBinding x{"x", BufferBinding::Role::In, f32, {2, 3}};
  BufferBinding y{"y", BufferBinding::Role::Out, f32, {3, 2}};
  SpecEnvironment env;
  env.buffers = {{"x", &x}, {"y", &y}};
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  Builder b(&ctx);
  auto dict = [&](ArrayRef<int64_t> perm) {
    return b.getDictionaryAttr(
        {b.getNamedAttr("builtin", b.getStringAttr("permute")),
         b.getNamedAttr("input", b.getStringAttr("x")),
         b.getNamedAttr("output", b.getStringAttr("y")),
         b.getNamedAttr("perm", b.getDenseI64ArrayAttr(perm))});
  };
  std::unique_ptr<Spec> spec = buildSpec(*module, dict({1, 0}), env);
  ASSERT_TRUE(spec);
  std::string why;
  // y[2, 1] (flat 5) = x[1, 2] (flat 5); y[1, 0] (flat 2) = x[0, 1] (flat 1).
  EXPECT_EQ(spec->element(T, T.bv(5, 64), why), T.realVar("x[5]"));
  EXPECT_EQ(spec->element(T, T.bv(2, 64), why), T.realVar("x[1]"));
  EXPECT_EQ(spec->element(T, T.bv(1, 64), why), T.realVar("x[3]"));
  // The identity permutation does not fit these shapes: an error.
  ScopedDiagnosticHandler h(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_FALSE(buildSpec(*module, dict({0, 1}), env));
}

} // namespace
