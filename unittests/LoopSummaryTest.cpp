//===- LoopSummaryTest.cpp - loops summarized in closed form --------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// LoopSummarizer::summarizeLoop: a loop whose trip count depends on a size
// parameter is replaced by its closed form (a sum over the iterations, the
// trip count proved); a loop with a constant trip count unrolls as before;
// a loop whose suggested trip count does not hold is not summarized.
//
//===----------------------------------------------------------------------===//

#include "ExecutorFixture.h"

#include "KProof/Verifier/Terms/Evaluate.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

using LoopSummaryTest = ::kproof::testing::ExecutorFixture;

/// y[0] = sum_{i < n} x[i], the loop bottom-tested as nvcc -O3 emits it,
/// with the counter stepping by STEP and the exit test CMP.
std::string rowSum(llvm::StringRef step, llvm::StringRef cmp) {
  return (R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64, %n: i32) {
      %c0 = kproof.constant 0 : i32
      %c1 = kproof.constant 1 : i32
      %z = kproof.constant 0.000000e+00 : f32
      %skip = kproof.cmp lt %n, %c1 {is_signed} : i32
      cf.cond_br %skip, ^done(%z : f32), ^loop(%x, %z, %c0 : i64, f32, i32)
    ^loop(%p: i64, %acc: f32, %i: i32):
      %v = kproof.ld global %p : i64 -> f32
      %acc2 = kproof.fbin add %acc, %v : f32
      %c4 = kproof.constant 4 : i64
      %p2 = kproof.ibin add %p, %c4 : i64
      %st = kproof.constant )mlir" +
          step + R"mlir( : i32
      %i2 = kproof.ibin add %i, %st : i32
      %more = kproof.cmp )mlir" +
          cmp + R"mlir( %i2, %n {is_signed} : i32
      cf.cond_br %more, ^loop(%p2, %acc2, %i2 : i64, f32, i32), ^done(%acc2 : f32)
    ^done(%r: f32):
      kproof.st global %y, %r : i64, f32
      kproof.return
    })mlir")
      .str();
}

struct LoopRun {
  ExecutionResult result;
};

LoopRun runWith(LoopSummaryTest &f, llvm::StringRef src, Term n,
            std::optional<int64_t> value = std::nullopt) {
  f.module = mlir::parseSourceString<mlir::ModuleOp>(src, &f.ctx);
  EXPECT_TRUE(f.module);
  auto kernel = *f.module->getOps<kproof::KernelOp>().begin();
  LaunchConfig launch;
  LaunchConfig::SizeParam p;
  p.name = "n";
  p.lo = 1;
  p.hi = 32;
  p.value = value;
  launch.sizes.push_back(p);
  std::vector<std::optional<BufferBinding>> buffers = {f.x, f.y,
                                                       std::nullopt};
  std::vector<Term> scalars = {nullptr, nullptr, n};
  return LoopRun{execute(kernel, launch, buffers, scalars, f.T, f.N, f.options)};
}

} // namespace

TEST_F(LoopSummaryTest, SymbolicTripCountIsASum) {
  Term n = T.bvVar("n", 32);
  LoopRun r = runWith(*this, rowSum("1", "lt"), n);
  ASSERT_TRUE(r.result.unknownReason.empty()) << r.result.unknownReason;
  EXPECT_EQ(r.result.loopSummaries, 1u);
  // One path per side of the guard, no fork per iteration.
  EXPECT_LE(r.result.paths.size(), 2u);
  // Some stored value is a sum over the iterations; at n = 3 with
  // x[i] = i + 1 it is 1 + 2 + 3.
  bool sawSum = false;
  for (const PathResult &path : r.result.paths)
    for (const auto &[buffer, cells] : path.stores)
      for (const auto &[offset, v] : cells) {
      bool hasSum = false;
      for (Term u : subterms({v.value}))
        hasSum |= u->isReduction();
      if (!hasSum)
        continue;
      sawSum = true;
      Assignment in;
      in.bitvectors["n"] = llvm::APInt(32, 3);
      for (uint64_t e = 0; e < 32; ++e)
        in.elements["x"][e] = Rational(int64_t(e) + 1);
      Evaluator ev(in);
      auto val = ev.real(v.value);
      ASSERT_TRUE(val) << ev.getError();
      EXPECT_TRUE(val->contains(6)) << val->toString(6);
    }
  EXPECT_TRUE(sawSum);
}

TEST_F(LoopSummaryTest, ConstantTripCountUnrolls) {
  LoopRun r = runWith(*this, rowSum("1", "lt"), T.bv(5, 32), 5);
  ASSERT_TRUE(r.result.unknownReason.empty()) << r.result.unknownReason;
  EXPECT_EQ(r.result.loopSummaries, 0u);
}

TEST_F(LoopSummaryTest, UnprovedTripCountIsNotSummarized) {
  // i != n stepping by 2 from 0: E = n / 2 is the first exit only for even
  // n (odd n never exits before wrapping); the proof fails, so no summary.
  options.maxPaths = 64;
  LoopRun r = runWith(*this, rowSum("2", "ne"), T.bvVar("n", 32));
  EXPECT_EQ(r.result.loopSummaries, 0u);
}
