//===- TimeLimitTest.cpp - --timeout and progress in the engine -----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The time limit (CheckerOptions::timeoutSeconds / deadline): past it the
// executor stops with UNKNOWN naming the limit, and the checker's verdict is
// UNKNOWN with that reason, never PROVED. The progress callback reports the
// phases and the obligations decided.
//
//===----------------------------------------------------------------------===//

#include "ExecutorFixture.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

using TimeLimitTest = ::kproof::testing::ExecutorFixture;

/// y[t] = x[t] over 32 threads, with its contract (the copy builtin).
constexpr const char *kCopy = R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c2 = kproof.constant 2 : i32
      %t64 = kproof.cvt %t : i32 -> i64
      %o64 = kproof.shift shl %t64, %c2 : i64
      %xa = kproof.ibin add %x, %o64 : i64
      %v = kproof.ld global %xa : i64 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %v : i64, f32
      kproof.return
    }
    kproof.contract @c {kernel = "k", grid = array<i64: 1, 1, 1>,
      block = array<i64: 32, 1, 1>,
      params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 32>},
                {name = "y", buffer = "out", type = f32, shape = array<i64: 32>}],
      spec = {builtin = "copy", input = "x", output = "y"}}
)mlir";

TEST_F(TimeLimitTest, ExecutorStopsPastTheDeadline) {
  options.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  options.timeoutSeconds = 7;
  ExecutionResult r = run(kCopy, 32);
  EXPECT_NE(r.unknownReason.find("time limit of 7 s reached during symbolic "
                                 "execution (--timeout)"),
            std::string::npos)
      << r.unknownReason;
}

/// Checks the copy kernel with `opts`.
static std::optional<Verdict> check(MLIRContext &ctx,
                                    OwningOpRef<ModuleOp> &module,
                                    const CheckerOptions &opts) {
  ctx.loadDialect<func::FuncDialect>();
  module = parseSourceString<ModuleOp>(kCopy, &ctx);
  EXPECT_TRUE(module);
  auto contract = *module->getOps<ContractOp>().begin();
  return checkEquivalence(*module, contract, opts);
}

TEST_F(TimeLimitTest, VerdictIsUnknownNamingTheLimit) {
  CheckerOptions opts;
  opts.timeoutSeconds = 7;
  opts.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  std::optional<Verdict> v = check(ctx, module, opts);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, VerdictKind::Unknown);
  EXPECT_NE(v->reason.find("time limit of 7 s reached"), std::string::npos)
      << v->reason;
}

TEST_F(TimeLimitTest, WithoutALimitTheSameKernelProves) {
  CheckerOptions opts;
  std::vector<std::string> phases;
  unsigned lastDecided = 0;
  opts.progress = [&](llvm::StringRef now, const Verdict &sofar) {
    if (!now.empty())
      phases.push_back(now.str());
    unsigned decided = sofar.obligations.size();
    EXPECT_GE(decided, lastDecided);
    lastDecided = decided;
  };
  std::optional<Verdict> v = check(ctx, module, opts);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, VerdictKind::Proved) << v->reason;
  ASSERT_FALSE(phases.empty());
  EXPECT_EQ(phases.front(), "symbolic execution");
  EXPECT_TRUE(llvm::is_contained(phases, "values and coverage of the outputs"));
  EXPECT_EQ(lastDecided, v->obligations.size());
}

} // namespace
