//===- GenerationOrderTest.cpp - tests of GenerationOrder -----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// GenerationOrder orders generations of counted barriers and mbarrier
// phases from the barrier events of the paths: `must` from what every path
// (or a path some thread always takes) does, `may` from what some path
// does. orderedByCountedBarriers then orders two accesses through a third
// thread, and mayBeOrderedByCountedBarriers says whether any chain could.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Term.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

struct Paths {
  mlir::MLIRContext ctx;
  mlir::Location loc = mlir::UnknownLoc::get(&ctx);
  std::vector<BarrierArrival> paths;
  /// A path (thread kind) with its barrier events in program order:
  /// {id, generation, waits, arrives}.
  void path(std::initializer_list<std::tuple<unsigned, unsigned, bool, bool>>
                events) {
    BarrierArrival a{0, nullptr, true, nullptr, loc, 0, {}, {}};
    for (auto [id, g, waits, arrives] : events)
      a.events.push_back({false, id, g, waits, loc, arrives});
    paths.push_back(std::move(a));
  }
};

/// Warp 0 -> barrier 1 -> warp 1 -> barrier 2 -> warp 2 (bar.sync 1, 64
/// and bar.sync 2, 64: each arrives and waits).
TEST(GenerationOrder, ThroughAThirdWarp) {
  Paths p;
  p.path({{1, 1, true, true}});
  p.path({{1, 1, true, true}, {2, 1, true, true}});
  p.path({{2, 1, true, true}});
  // Only the middle path waits for (1, 1) before arriving at (2, 1).
  GenerationOrder none = GenerationOrder::build(
      p.paths, [](const BarrierArrival &) { return false; });
  EXPECT_FALSE(none.reaches(true, 1, 1, 2, 1));
  EXPECT_TRUE(none.reaches(false, 1, 1, 2, 1));
  // Some thread of every CTA takes it: (1, 1) completes before (2, 1).
  GenerationOrder always = GenerationOrder::build(
      p.paths, [](const BarrierArrival &) { return true; });
  EXPECT_TRUE(always.reaches(true, 1, 1, 2, 1));
  EXPECT_FALSE(always.reaches(true, 2, 1, 1, 1));
  // Generations of one barrier complete in order.
  EXPECT_TRUE(always.reaches(true, 2, 1, 2, 3));
  EXPECT_FALSE(always.reaches(true, 2, 3, 2, 1));
}

/// The full/empty ping-pong of two mbarriers (F, E): producers arrive at F,
/// wait for E's phase 0, arrive at F again; consumers wait for F's phase 0,
/// arrive at E, wait for F's phase 1. Every path making F's second arrival
/// waited for E's first generation, which every path making it arrives at
/// after F's first: (F, 1) -> (E, 1) -> (F, 2) in `must`.
TEST(GenerationOrder, PingPong) {
  const unsigned F = kMBarrierIdBase, E = kMBarrierIdBase + 1;
  Paths p;
  p.path({{F, 1, false, true}, {E, 1, true, false}, {F, 2, false, true}});
  p.path({{F, 1, true, false}, {E, 1, false, true}, {F, 2, true, false}});
  GenerationOrder g = GenerationOrder::build(
      p.paths, [](const BarrierArrival &) { return false; });
  EXPECT_TRUE(g.reaches(true, F, 1, E, 1));
  EXPECT_TRUE(g.reaches(true, E, 1, F, 2));
  EXPECT_TRUE(g.reaches(true, F, 1, F, 2));
  EXPECT_FALSE(g.reaches(true, F, 2, E, 1));

  // A consumer read after F's phase 0 (waited F 1, no arrival at E yet)
  // comes before a producer write after its wait for E's phase 0: through
  // the consumer's next arrival at E, when it takes part in E.
  TermContext T;
  std::vector<BarrierClock> read{{F, 0, 1}};
  std::vector<BarrierClock> write{{F, 1, 0}, {E, 0, 1}};
  Term takesPart = T.boolVar("consumer");
  Term o = orderedByCountedBarriers(
      T, read, write, [&](unsigned id) { return takesPart; }, &g);
  EXPECT_EQ(o, takesPart);
  // Without the producer's wait for E nothing orders them, in any
  // execution.
  std::vector<BarrierClock> early{{F, 1, 0}};
  Term none = orderedByCountedBarriers(
      T, read, early, [&](unsigned) { return takesPart; }, &g);
  EXPECT_EQ(none, T.boolConst(false));
  EXPECT_FALSE(mayBeOrderedByCountedBarriers(read, early, g));
}

/// A waiting arrival of a counted barrier (bar.sync) waits for its own
/// generation only after arriving: no edge from a generation to itself.
TEST(GenerationOrder, WaitingArrivalIsNotBeforeItself) {
  Paths p;
  p.path({{1, 1, true, true}, {1, 2, true, true}});
  GenerationOrder g = GenerationOrder::build(
      p.paths, [](const BarrierArrival &) { return true; });
  EXPECT_TRUE(g.must.count({1, 1}));
  EXPECT_FALSE(g.reaches(true, 1, 2, 1, 1));
}

} // namespace
