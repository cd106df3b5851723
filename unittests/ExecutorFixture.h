//===- ExecutorFixture.h - a kernel run by the executor, for tests --------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The fixture the executor's tests share: a kproof-dialect kernel parsed
// from text, bound to an input buffer x and an output buffer y of 32 f32
// elements, run for a 1-D CTA of `threads` threads.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_UNITTESTS_EXECUTORFIXTURE_H
#define KPROOF_UNITTESTS_EXECUTORFIXTURE_H

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Check/EquivalenceChecker.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Normalizer.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

namespace kproof::testing {

struct ExecutorFixture : ::testing::Test {
  mlir::MLIRContext ctx;
  engine::TermContext T;
  engine::Normalizer N{T};
  mlir::OwningOpRef<mlir::ModuleOp> module;
  engine::BufferBinding x, y;
  engine::ExecutorOptions options;

  ExecutorFixture() {
    ctx.loadDialect<kproof::KProofDialect,
                    mlir::cf::ControlFlowDialect>();
    mlir::Type f32 = mlir::Float32Type::get(&ctx);
    x = {"x", engine::BufferBinding::Role::In, f32, {32}};
    y = {"y", engine::BufferBinding::Role::Out, f32, {32}};
  }

  /// Runs the first kernel of `src` with parameters (x, y).
  engine::ExecutionResult run(llvm::StringRef src, int64_t threads) {
    module = mlir::parseSourceString<mlir::ModuleOp>(src, &ctx);
    EXPECT_TRUE(module);
    auto kernel = *module->getOps<kproof::KernelOp>().begin();
    engine::LaunchConfig launch;
    launch.block[0] = threads;
    std::vector<std::optional<engine::BufferBinding>> buffers = {x, y};
    std::vector<engine::Term> scalars = {nullptr, nullptr};
    return engine::execute(kernel, launch, buffers, scalars, T, N, options);
  }

  /// `t` with tid.x := v.
  engine::Term at(engine::Term t, uint64_t v) {
    llvm::DenseMap<engine::Term, engine::Term> m;
    m[T.bvVar("tid.x", 32)] = T.bv(v, 32);
    return T.substitute(t, m);
  }
};

} // namespace kproof::testing

#endif // KPROOF_UNITTESTS_EXECUTORFIXTURE_H
