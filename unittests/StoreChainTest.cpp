//===- StoreChainTest.cpp - tests of the own-thread store chain -----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// StoreChain on terms, without a kernel: a load at a key equal to a store's
// reads the stored value, a provably disjoint store is skipped, an undecided
// one becomes an ite (newest outermost), the walk stops at the newest store
// that certainly hits, a partial overlap and more than kMaxUndecided
// undecided stores are UNKNOWN, and a wider undecided store raises the
// equal-or-disjoint obligation. (MemoryTest.cpp runs the same memory through
// the executor, from kproof-dialect kernels.)
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Exec/StoreChain.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ::kproof::engine;

namespace {

struct StoreChainTest : ::testing::Test {
  MLIRContext ctx;
  TermContext T;
  Location loc = UnknownLoc::get(&ctx);
  Term pc = T.boolConst(true);
  /// Symbolic keys i, j and k, 32-bit variables widened to 64 bits as the
  /// executor's keys are (whether two of them are equal is undecided), and
  /// the initial contents x.
  Term i = key("i"), j = key("j"), k = key("k");
  Term x = T.realVar("x");

  Term key(llvm::StringRef name) {
    return T.bvZExt(T.bvVar(name, 32), 64);
  }
  /// A constant key.
  Term c(uint64_t v) { return T.bv(v, 64); }

};

TEST_F(StoreChainTest, AnEmptyChainReadsTheInitialContents) {
  StoreChain chain(T);
  StoreChain::Load l = chain.load(i, 1, x, "'buf'", loc, pc);
  EXPECT_EQ(l.value, x);
  EXPECT_TRUE(l.unknownReason.empty());
  EXPECT_TRUE(l.obligations.empty());
}

TEST_F(StoreChainTest, AStoreAtAnEqualKeySuppliesTheValue) {
  Term v = T.realVar("v");
  // Constant keys: the difference is the constant 0, the walk stops there
  // (the older store at j is not consulted: no ite, no obligation).
  StoreChain chain(T);
  chain.appendOlder(c(8), 4, v, loc);
  chain.appendOlder(j, 4, T.realVar("w"), loc);
  StoreChain::Load l = chain.load(c(8), 4, x, "'buf'", loc, pc);
  EXPECT_EQ(l.value, v);
  EXPECT_TRUE(l.obligations.empty());
  EXPECT_TRUE(l.unknownReason.empty());
  // The same symbolic key: the ite's condition i == i folds to true.
  StoreChain same(T);
  same.appendOlder(i, 1, v, loc);
  EXPECT_EQ(same.load(i, 1, x, "'buf'", loc, pc).value, v);
}

TEST_F(StoreChainTest, AProvablyDisjointStoreIsSkipped) {
  // Element indices: 9 and 7 are not 8.
  StoreChain chain(T);
  chain.appendOlder(c(9), 1, T.realVar("v"), loc);
  chain.appendOlder(c(7), 1, T.realVar("w"), loc);
  EXPECT_EQ(chain.load(c(8), 1, x, "'buf'", loc, pc).value, x);
  // Byte offsets: [12, 16) and [4, 8) do not overlap [8, 12).
  StoreChain bytes(T);
  bytes.appendOlder(c(12), 4, T.realVar("v"), loc);
  bytes.appendOlder(c(4), 4, T.realVar("w"), loc);
  StoreChain::Load b = bytes.load(c(8), 4, x, "'buf'", loc, pc);
  EXPECT_EQ(b.value, x);
  EXPECT_TRUE(b.obligations.empty());
}

TEST_F(StoreChainTest, AnUndecidedStoreWrapsAnIte) {
  Term v = T.realVar("v");
  StoreChain chain(T);
  chain.appendOlder(j, 1, v, loc);
  StoreChain::Load l = chain.load(i, 1, x, "'buf'", loc, pc);
  EXPECT_EQ(l.value, T.ite(T.eq(i, j), v, x)) << l.value->toString();
  // Element indices (1 "byte" each): no equal-or-disjoint obligation.
  EXPECT_TRUE(l.obligations.empty());
}

TEST_F(StoreChainTest, TheNewestStoreIsOutermost) {
  Term vj = T.realVar("vj"), vk = T.realVar("vk");
  StoreChain chain(T);
  chain.appendOlder(j, 1, vj, loc); // newest
  chain.appendOlder(k, 1, vk, loc);
  StoreChain::Load l = chain.load(i, 1, x, "'buf'", loc, pc);
  EXPECT_EQ(l.value, T.ite(T.eq(i, j), vj, T.ite(T.eq(i, k), vk, x)))
      << l.value->toString();
  // Two stores at the same key: the newer one is read.
  StoreChain same(T);
  same.appendOlder(i, 1, vj, loc);
  same.appendOlder(i, 1, vk, loc);
  EXPECT_EQ(same.load(i, 1, x, "'buf'", loc, pc).value, vj);
}

TEST_F(StoreChainTest, TheWalkStopsAtTheNewestCertainHit) {
  Term vj = T.realVar("vj"), vi = T.realVar("vi"), vk = T.realVar("vk");
  StoreChain chain(T);
  chain.appendOlder(j, 1, vj, loc);
  chain.appendOlder(i, 1, vi, loc);
  chain.appendOlder(k, 1, vk, loc); // hidden by the store at i
  StoreChain::Load l = chain.load(i, 1, x, "'buf'", loc, pc);
  EXPECT_EQ(l.value, T.ite(T.eq(i, j), vj, vi)) << l.value->toString();
}

TEST_F(StoreChainTest, MoreUndecidedStoresThanTheLimitAreUnknown) {
  auto chainOf = [&](unsigned n) {
    StoreChain chain(T);
    for (unsigned s = 0; s < n; ++s)
      chain.appendOlder(key("s" + std::to_string(s)), 1,
                        T.realVar("v" + std::to_string(s)), loc);
    return chain;
  };
  StoreChain::Load atLimit =
      chainOf(StoreChain::kMaxUndecided).load(i, 1, x, "'buf'", loc, pc);
  EXPECT_NE(atLimit.value, nullptr) << atLimit.unknownReason;
  StoreChain::Load past =
      chainOf(StoreChain::kMaxUndecided + 1).load(i, 1, x, "'buf'", loc, pc);
  EXPECT_EQ(past.value, nullptr);
  EXPECT_NE(past.unknownReason.find("store chain limit"), std::string::npos)
      << past.unknownReason;
  EXPECT_NE(past.unknownReason.find("'buf'"), std::string::npos);
}

TEST_F(StoreChainTest, AWiderUndecidedStoreRaisesTheEqualOrDisjointObligation) {
  Term v = T.realVar("v");
  Term guard = T.boolVar("p");
  StoreChain chain(T);
  chain.appendOlder(j, 4, v, loc);
  StoreChain::Load l = chain.load(i, 4, x, "'buf'", loc, guard);
  EXPECT_EQ(l.value, T.ite(T.eq(i, j), v, x));
  ASSERT_EQ(l.obligations.size(), 1u);
  EXPECT_EQ(l.obligations[0].pathCondition, guard);
  EXPECT_NE(l.obligations[0].what.find("access the same bytes or disjoint"),
            std::string::npos)
      << l.obligations[0].what;
}

TEST_F(StoreChainTest, PartialOverlapsAreUnknown) {
  // [10, 14) overlaps [8, 12) in part.
  StoreChain chain(T);
  chain.appendOlder(c(10), 4, T.realVar("v"), loc);
  StoreChain::Load l = chain.load(c(8), 4, x, "'buf'", loc, pc);
  EXPECT_EQ(l.value, nullptr);
  EXPECT_NE(l.unknownReason.find("partially overlaps"), std::string::npos)
      << l.unknownReason;
  // An undecided store of another width.
  StoreChain wide(T);
  wide.appendOlder(j, 8, T.realVar("v"), loc);
  StoreChain::Load w = wide.load(i, 4, x, "'buf'", loc, pc);
  EXPECT_EQ(w.value, nullptr);
  EXPECT_NE(w.unknownReason.find("of another width"), std::string::npos)
      << w.unknownReason;
}

TEST_F(StoreChainTest, ConstantFloatBitsAreTheirFloatValue) {
  // st.u32 1065353216 (1.0f) under a real: the ite reads 1.0.
  StoreChain chain(T);
  chain.appendOlder(j, 1, T.bv(0x3f800000, 32), loc);
  StoreChain::Load l = chain.load(i, 1, x, "'buf'", loc, pc);
  EXPECT_EQ(l.value, T.ite(T.eq(i, j), T.real(1), x)) << l.value->toString();
  // Other bits under a real are not reinterpreted.
  StoreChain other(T);
  other.appendOlder(j, 1, T.bvVar("bits", 32), loc);
  StoreChain::Load o = other.load(i, 1, x, "'buf'", loc, pc);
  EXPECT_EQ(o.value, nullptr);
  EXPECT_NE(o.unknownReason.find("store of another type"), std::string::npos)
      << o.unknownReason;
}

TEST_F(StoreChainTest, FloatOfBits) {
  EXPECT_EQ(floatOfBits(T, T.bv(0, 32)), T.real(0));
  EXPECT_EQ(floatOfBits(T, T.bv(0x3c00, 16)), T.real(1));
  EXPECT_EQ(floatOfBits(T, T.bv(0x4000000000000000ULL, 64)), T.real(2));
  // Extended values: Triton's masked-load default mov.b32 %r, -8388608.
  EXPECT_EQ(floatOfBits(T, T.bv(0x7f800000, 32)), T.posInf());
  EXPECT_EQ(floatOfBits(T, T.bv(0xff800000u, 32)), T.negInf());
  EXPECT_EQ(floatOfBits(T, T.bv(0x7fc00000, 32)), T.nan());
  EXPECT_EQ(floatOfBits(T, T.bv(1, 8)), nullptr);
  EXPECT_EQ(floatOfBits(T, T.bvVar("b", 32)), nullptr);
}

} // namespace
