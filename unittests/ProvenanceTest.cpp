//===- ProvenanceTest.cpp - which parameters a kernel loads and stores ----===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// paramAccesses: def-use from the pointer parameters through arithmetic and
// block arguments to loads and stores, and the cases where it must give up
// (a pointer stored to memory, a store through a loaded 64-bit value).
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Specs/Contract.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

struct ProvenanceTest : ::testing::Test {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  ProvenanceTest() {
    ctx.loadDialect<KProofDialect, cf::ControlFlowDialect>();
  }
  std::optional<std::vector<ParamAccess>> run(StringRef src) {
    module = parseSourceString<ModuleOp>(src, &ctx);
    EXPECT_TRUE(module);
    return paramAccesses(*module->getOps<KernelOp>().begin());
  }
};

TEST_F(ProvenanceTest, LoadsAndStoresThroughArithmeticAndBlockArguments) {
  auto a = run(R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64, %n: i32) {
      %gx = kproof.cvta to global %x : i64
      %c4 = kproof.constant 4 : i64
      %xa = kproof.ibin add %gx, %c4 : i64
      %v = kproof.ld global %xa : i64 -> f32
      cf.br ^bb1(%y : i64)
    ^bb1(%p: i64):
      %gy = kproof.cvta to global %p : i64
      kproof.st global %gy, %v : i64, f32
      kproof.return
    })mlir");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->size(), 3u);
  EXPECT_TRUE((*a)[0].loaded);
  EXPECT_FALSE((*a)[0].stored);
  EXPECT_FALSE((*a)[1].loaded);
  EXPECT_TRUE((*a)[1].stored); // through the block argument %p
  EXPECT_FALSE((*a)[2].loaded || (*a)[2].stored);
}

TEST_F(ProvenanceTest, APointerStoredToMemoryGivesUp) {
  auto a = run(R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64) {
      %gy = kproof.cvta to global %y : i64
      kproof.st global %gy, %x : i64, i64
      kproof.return
    })mlir");
  EXPECT_FALSE(a);
}

TEST_F(ProvenanceTest, AStoreThroughALoadedPointerGivesUp) {
  auto a = run(R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64) {
      %gx = kproof.cvta to global %x : i64
      %p = kproof.ld global %gx : i64 -> i64
      %c1 = kproof.constant 1.0 : f32
      kproof.st global %p, %c1 : i64, f32
      kproof.return
    })mlir");
  EXPECT_FALSE(a);
}

TEST_F(ProvenanceTest, ScalarParamsAreNotFollowedWhenUntracked) {
  // y[0] = s: the scalar s stored as data is no escaping pointer once the
  // analysis follows only the buffers (x, y).
  const char *src = R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64, %s: i64) {
      %gy = kproof.cvta to global %y : i64
      kproof.st global %gy, %s : i64, i64
      kproof.return
    })mlir";
  EXPECT_FALSE(run(src)); // all tracked: s looks like a pointer stored
  module = parseSourceString<ModuleOp>(src, &ctx);
  ASSERT_TRUE(module);
  auto a = paramAccesses(*module->getOps<KernelOp>().begin(),
                         {true, true, false});
  ASSERT_TRUE(a);
  EXPECT_TRUE((*a)[1].stored);
  EXPECT_FALSE((*a)[0].stored);
}

TEST_F(ProvenanceTest, AStoreThroughAnyLoadedValueGivesUp) {
  // A pointer rebuilt from two loaded u32 halves.
  auto a = run(R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64) {
      %gx = kproof.cvta to global %x : i64
      %lo = kproof.ld global %gx : i64 -> i32
      %w = kproof.cvt %lo : i32 -> i64
      %c1 = kproof.constant 1.0 : f32
      kproof.st global %w, %c1 : i64, f32
      kproof.return
    })mlir");
  EXPECT_FALSE(a);
}

} // namespace
