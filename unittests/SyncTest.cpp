//===- SyncTest.cpp - tests of the executor's synchronization model -------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The representative-thread model of docs/verify-sync.md ("The model") as the
// executor builds it: barrier phases, shared reads resolved to a witness writer
// thread, shfl.sync source lanes, and the access log the race checks read; and
// the merging of states at the joins of data-dependent branches.
//
//===----------------------------------------------------------------------===//

#include "ExecutorFixture.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

using SyncTest = ::kproof::testing::ExecutorFixture;

/// s[t] = x[t]; barrier; y[t] = s[(t + 1) % 32]: the read in phase 1
/// resolves to the write of thread (t + 1) % 32 in phase 0, so at t = 5 the
/// stored value is x[6], and at t = 31 it is x[0].
TEST_F(SyncTest, RotateResolvesToTheNeighbour) {
  ExecutionResult r = run(R"mlir(
    kproof.global shared @s : f32[32] {align = 4 : i64}
    kproof.kernel entry @rot(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c0 = kproof.constant 0 : i32
      %c1 = kproof.constant 1 : i32
      %c2 = kproof.constant 2 : i32
      %c31 = kproof.constant 31 : i32
      %t64 = kproof.cvt %t : i32 -> i64
      %o64 = kproof.shift shl %t64, %c2 : i64
      %xa = kproof.ibin add %x, %o64 : i64
      %v = kproof.ld global %xa : i64 -> f32
      %base = kproof.addressof @s : i32
      %o = kproof.shift shl %t, %c2 : i32
      %sa = kproof.ibin add %base, %o : i32
      kproof.st shared %sa, %v : i32, f32
      kproof.barrier sync id %c0 {aligned}
      %n = kproof.ibin add %t, %c1 : i32
      %m = kproof.ibin and %n, %c31 : i32
      %no = kproof.shift shl %m, %c2 : i32
      %ra = kproof.ibin add %base, %no : i32
      %w = kproof.ld shared %ra : i32 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %w : i64, f32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  ASSERT_EQ(r.paths.size(), 1u);
  // One barrier arrival (phase 0) and one exit (phase 1).
  ASSERT_EQ(r.arrivals.size(), 2u);
  EXPECT_NE(r.arrivals[0].barrier, nullptr);
  EXPECT_EQ(r.arrivals[0].phase, 0u);
  EXPECT_EQ(r.arrivals[1].barrier, nullptr);
  EXPECT_EQ(r.arrivals[1].phase, 1u);
  // The access log: the shared write in phase 0, the shared read in phase 1,
  // the global store in phase 1.
  ASSERT_EQ(r.accesses.size(), 3u);
  EXPECT_TRUE(r.accesses[0].write && r.accesses[0].shared);
  EXPECT_EQ(r.accesses[0].phase, 0u);
  EXPECT_TRUE(!r.accesses[1].write && r.accesses[1].shared);
  EXPECT_EQ(r.accesses[1].phase, 1u);
  EXPECT_TRUE(r.accesses[2].write && !r.accesses[2].shared);
  // The stored value at two concrete threads.
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  Term v5 = at(st.value, 5), v31 = at(st.value, 31);
  EXPECT_TRUE(N.provesEqual(v5, T.element("x", T.bv(6, 64))))
      << v5->toString();
  EXPECT_TRUE(N.provesEqual(v31, T.element("x", T.bv(0, 64))))
      << v31->toString();
  // Side conditions: writer uniqueness and "some thread wrote it".
  ASSERT_EQ(r.resolutions.size(), 2u);
  EXPECT_FALSE(r.resolutions[0].uninitialized);
  EXPECT_TRUE(r.resolutions[1].uninitialized);
}

/// Without the barrier the read sees no earlier phase: the value is the
/// uninitialized one, and the initialization obligation is the path
/// condition itself (satisfiable: reported).
TEST_F(SyncTest, NoBarrierLeavesTheReadUninitialized) {
  ExecutionResult r = run(R"mlir(
    kproof.global shared @s : f32[32] {align = 4 : i64}
    kproof.kernel entry @nob(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c1 = kproof.constant 1 : i32
      %c2 = kproof.constant 2 : i32
      %c31 = kproof.constant 31 : i32
      %base = kproof.addressof @s : i32
      %o = kproof.shift shl %t, %c2 : i32
      %sa = kproof.ibin add %base, %o : i32
      %one = kproof.constant 1.0 : f32
      kproof.st shared %sa, %one : i32, f32
      %n = kproof.ibin add %t, %c1 : i32
      %m = kproof.ibin and %n, %c31 : i32
      %no = kproof.shift shl %m, %c2 : i32
      %ra = kproof.ibin add %base, %no : i32
      %w = kproof.ld shared %ra : i32 -> f32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  ASSERT_EQ(r.resolutions.size(), 1u);
  EXPECT_TRUE(r.resolutions[0].uninitialized);
  // Both accesses are in phase 0: the race checks pair them.
  ASSERT_EQ(r.accesses.size(), 2u);
  EXPECT_EQ(r.accesses[0].phase, r.accesses[1].phase);
}

/// A branch no thread can take (t < 8 after t >= 16) is pruned: one fork,
/// not two (so two paths without merging, not three).
static const char *prunedBranch = R"mlir(
    kproof.kernel entry @br(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c16 = kproof.constant 16 : i32
      %c8 = kproof.constant 8 : i32
      %hi = kproof.cmp ge %t, %c16 : i32
      cf.cond_br %hi, ^a, ^done
    ^a:
      %lo = kproof.cmp lt %t, %c8 : i32
      cf.cond_br %lo, ^done, ^done
    ^done:
      kproof.return
    })mlir";

TEST_F(SyncTest, InfeasibleThreadBranchesArePruned) {
  ExecutionResult r = run(prunedBranch, 32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  // The first branch forks; the second cannot (tid < 8 under tid >= 16).
  EXPECT_EQ(r.forks, 1u);
  // Merged at ^done, or followed to two ends without merging.
  EXPECT_EQ(r.paths.size(), 1u);
  options.mergeStates = false;
  r = run(prunedBranch, 32);
  EXPECT_EQ(r.forks, 1u);
  EXPECT_EQ(r.paths.size(), 2u);
}

/// shfl.sync.bfly with lane mask 1: lane 4 reads lane 5's register.
TEST_F(SyncTest, ShuffleReadsTheSourceLane) {
  ExecutionResult r = run(R"mlir(
    kproof.kernel entry @sh(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c1 = kproof.constant 1 : i32
      %c2 = kproof.constant 2 : i32
      %c31 = kproof.constant 31 : i32
      %full = kproof.constant -1 : i32
      %t64 = kproof.cvt %t : i32 -> i64
      %o64 = kproof.shift shl %t64, %c2 : i64
      %xa = kproof.ibin add %x, %o64 : i64
      %v = kproof.ld global %xa : i64 -> f32
      %b = kproof.bitcast %v : f32 to i32
      %r, %p = kproof.shfl bfly %b, %c1, %c31, %full : i32
      %f = kproof.bitcast %r : i32 to f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %f : i64, f32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  const SymbolicStore &st = r.paths.at(0).symbolicStores.at(0);
  Term v4 = at(st.value, 4);
  EXPECT_TRUE(N.provesEqual(v4, T.element("x", T.bv(5, 64))))
      << v4->toString();
}

} // namespace

namespace {

/// The generation order of counted barriers (orderedByCountedBarriers): an
/// access after a_k arrivals precedes another thread's access after b_k
/// arrivals when b_k > a_k and that thread waited at one of its arrivals
/// a_k+1 .. b_k; the first thread must arrive again (given when a_k >= 1,
/// else its participation decides).
TEST(CountedBarrierOrder, GenerationsOrderAccesses) {
  TermContext T;
  Term part = T.boolVar("participates");
  auto participates = [&](unsigned) { return part; };
  // Producer before its bar.arrive (no arrivals), consumer after its
  // bar.sync (one arrival, waited): ordered if the producer takes part.
  std::vector<BarrierClock> before{}, afterSync{{1, 1, 1}};
  EXPECT_EQ(orderedByCountedBarriers(T, before, afterSync, participates),
            part);
  // Producer after its bar.arrive, consumer after its bar.sync: the same
  // generation, not ordered.
  std::vector<BarrierClock> afterArrive{{1, 1, 0}};
  EXPECT_EQ(orderedByCountedBarriers(T, afterArrive, afterSync, participates),
            T.boolConst(false));
  // Consumer before its sync, producer after its arrive: the producer never
  // waits, so nothing orders the consumer's access before it.
  EXPECT_EQ(orderedByCountedBarriers(T, before, afterArrive, participates),
            T.boolConst(false));
  // A thread past one generation and another past two (waiting at the
  // second): ordered without the participation condition.
  std::vector<BarrierClock> one{{1, 1, 1}}, two{{1, 2, 2}};
  EXPECT_EQ(orderedByCountedBarriers(T, one, two, participates),
            T.boolConst(true));
  EXPECT_EQ(orderedByCountedBarriers(T, two, one, participates),
            T.boolConst(false));
  // Another barrier id orders nothing.
  std::vector<BarrierClock> other{{2, 1, 1}};
  EXPECT_EQ(orderedByCountedBarriers(T, before, other, [&](unsigned id) {
              return id == 2 ? part : T.boolConst(false);
            }),
            part);
  EXPECT_EQ(orderedByCountedBarriers(T, one, other, participates),
            part);
}

} // namespace

/// bar.arrive / bar.sync with a count below the CTA's: the path does not
/// stop at the barrier; accesses carry the per-id arrival counts, shared
/// reads are not resolved (the value proof is UNKNOWN) but their
/// initialization is an obligation.
TEST_F(SyncTest, CountedBarriersRecordGenerations) {
  ExecutionResult r = run(R"mlir(
    kproof.global shared @s : f32[32] {align = 4 : i64}
    kproof.kernel entry @pc(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c1 = kproof.constant 1 : i32
      %c2 = kproof.constant 2 : i32
      %c16 = kproof.constant 16 : i32
      %c32 = kproof.constant 32 : i32
      %base = kproof.addressof @s : i32
      %o = kproof.shift shl %t, %c2 : i32
      %sa = kproof.ibin add %base, %o : i32
      %p = kproof.cmp lt %t, %c16 : i32
      cf.cond_br %p, ^producer, ^consumer
    ^producer:
      %f = kproof.constant 1.0 : f32
      kproof.st shared %sa, %f : i32, f32
      kproof.barrier arrive id %c1 count %c32 {aligned}
      kproof.return
    ^consumer:
      kproof.barrier sync id %c1 count %c32 {aligned}
      %w = kproof.ld shared %sa : i32 -> f32
      kproof.return
    })mlir",
                          64);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  EXPECT_TRUE(r.countedBarriers);
  EXPECT_FALSE(r.valueUnknownReason.empty());
  ASSERT_EQ(r.countedArrivals.size(), 2u);
  EXPECT_EQ(r.countedArrivals[0].count, 32u);
  // No CTA-wide phase: every access is in phase 0, told apart by clocks.
  for (const MemoryAccess &a : r.accesses) {
    EXPECT_EQ(a.phase, 0u);
    if (a.write) {
      EXPECT_TRUE(a.clock.empty());
    } else {
      ASSERT_EQ(a.clock.size(), 1u);
      EXPECT_EQ(a.clock[0].id, 1u);
      EXPECT_EQ(a.clock[0].arrivals, 1u);
      EXPECT_EQ(a.clock[0].lastWait, 1u);
    }
  }
  // Exits carry the final clocks: the producer arrived without waiting.
  unsigned exits = 0;
  for (const BarrierArrival &a : r.arrivals)
    if (!a.barrier) {
      ++exits;
      ASSERT_EQ(a.clock.size(), 1u);
      EXPECT_EQ(a.clock[0].arrivals, 1u);
    }
  EXPECT_EQ(exits, 2u);
  // One initialization obligation, for the consumer's read.
  ASSERT_EQ(r.resolutions.size(), 1u);
  EXPECT_TRUE(r.resolutions[0].uninitialized);
}

/// vote.sync over a full warp of 32 threads: the vote is the predicate
/// term at each of the 32 lanes combined. With p = (tid.x < 5), `any` is
/// true and `all` false at every thread, and the ballot is 0x1f.
TEST_F(SyncTest, VoteCombinesTheLanes) {
  ExecutionResult r = run(R"mlir(
    kproof.kernel entry @votes(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c2 = kproof.constant 2 : i32
      %c5 = kproof.constant 5 : i32
      %full = kproof.constant -1 : i32
      %p = kproof.cmp lt %t, %c5 : i32
      %any = kproof.vote any %p, %full -> i1
      %all = kproof.vote all %p, %full -> i1
      %bal = kproof.vote ballot %p, %full -> i32
      %one = kproof.constant 1.0 : f32
      %zero = kproof.constant 0.0 : f32
      %a = kproof.selp %any, %one, %zero : f32
      %b = kproof.selp %all, %one, %zero : f32
      %bf = kproof.cvt %bal mode rn : i32 -> f32
      %s = kproof.fbin add %a, %b : f32
      %v = kproof.fbin add %s, %bf : f32
      %o = kproof.shift shl %t, %c2 : i32
      %o64 = kproof.cvt %o : i32 -> i64
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %v : i64, f32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  ASSERT_EQ(r.paths.size(), 1u);
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  // any + all + ballot = 1 + 0 + 31 at every thread.
  for (uint64_t t : {0u, 4u, 5u, 31u}) {
    Term v = at(st.value, t);
    EXPECT_TRUE(N.provesEqual(v, T.real(32))) << t << ": " << v->toString();
  }
  // The membermask obligations, and per vote "every lane runs the same
  // path" and "no lane named exits without executing it".
  EXPECT_FALSE(r.alignments.empty());
  ASSERT_EQ(r.resolutions.size(), 6u);
}

/// redux.sync.add of tid over the full warp is 0 + 1 + ... + 31 = 496 at
/// every lane; redux.sync.max.s32 of tid - 16 is 15. (PTX ISA 9.7.13.12.)
TEST_F(SyncTest, ReduxCombinesTheLanesInOrder) {
  ExecutionResult r = run(R"mlir(
    kproof.kernel entry @redux(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c2 = kproof.constant 2 : i32
      %c16 = kproof.constant 16 : i32
      %full = kproof.constant -1 : i32
      %sum = kproof.redux add %t, %full : i32
      %d = kproof.ibin sub %t, %c16 : i32
      %mx = kproof.redux max signed %d, %full : i32
      %v = kproof.ibin add %sum, %mx : i32
      %o = kproof.shift shl %t, %c2 : i32
      %o64 = kproof.cvt %o : i32 -> i64
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %v : i64, i32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  ASSERT_EQ(r.paths.size(), 1u);
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  for (uint64_t t : {0u, 17u, 31u})
    EXPECT_EQ(at(st.value, t), T.bv(496 + 15, 32)) << t;
  // Per redux.sync: the same-path resolution and the one that no named
  // lane exits without executing it (finishShuffles).
  EXPECT_EQ(r.resolutions.size(), 4u);
}

/// elect.sync over the full warp: the leader is one variable shared by
/// every thread (not renamed per thread), a 5-bit lane, and exactly the
/// lane equal to it is the leader.
TEST_F(SyncTest, ElectLeaderIsOneLaneForEveryThread) {
  ExecutionResult r = run(R"mlir(
    kproof.kernel entry @elect(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c2 = kproof.constant 2 : i32
      %full = kproof.constant -1 : i32
      %lane, %is = kproof.elect %full
      %z = kproof.constant 0 : i32
      %one = kproof.constant 1 : i32
      %v = kproof.selp %is, %one, %z : i32
      %o = kproof.shift shl %t, %c2 : i32
      %o64 = kproof.cvt %o : i32 -> i64
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %v : i64, i32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  const SymbolicStore &st = r.paths.at(0).symbolicStores.at(0);
  Term leader = T.bvZExt(T.bvVar("elect.leader(0xffffffff)", 5), 32);
  for (uint64_t t : {0u, 9u}) {
    Term expected = T.ite(T.eq(T.bv(t, 32), leader), T.bv(1, 32), T.bv(0, 32));
    EXPECT_TRUE(N.provesEqual(at(st.value, t), expected))
        << t << ": " << at(st.value, t)->toString();
  }
}

/// bar.warp.sync is counted per mask on the path, and every access carries
/// the counts before it: the race checks order two lanes' accesses by them.
TEST_F(SyncTest, WarpSyncsAreCountedPerMask) {
  ExecutionResult r = run(R"mlir(
    kproof.global shared @s : f32[32] {align = 4 : i64}
    kproof.kernel entry @ws(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c2 = kproof.constant 2 : i32
      %full = kproof.constant -1 : i32
      %v = kproof.ld global %x : i64 -> f32
      %base = kproof.addressof @s : i32
      %o = kproof.shift shl %t, %c2 : i32
      %sa = kproof.ibin add %base, %o : i32
      kproof.st shared %sa, %v : i32, f32
      kproof.warp_sync %full
      kproof.st shared %sa, %v : i32, f32
      kproof.warp_sync %full
      kproof.st shared %sa, %v : i32, f32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  std::vector<unsigned> counts;
  for (const MemoryAccess &a : r.accesses)
    if (a.shared) {
      auto it = a.warpSyncs.find(0xffffffffu);
      counts.push_back(it == a.warpSyncs.end() ? 0 : it->second);
    }
  EXPECT_EQ(counts, (std::vector<unsigned>{0, 1, 2}));
}

//===----------------------------------------------------------------------===//
// State merging at joins
//===----------------------------------------------------------------------===//

/// Three data-dependent diamonds in sequence, v = x[i] > 0 ? x[i] : 0 as
/// branches: one path (three merges) instead of eight, and y[i] holds the
/// ite over the branch condition.
static const char *threeDiamonds = R"mlir(
  kproof.kernel entry @relu3(%x: i64, %y: i64) {
    %zero = kproof.constant 0.0 : f32
    %a = kproof.ld global %x : i64 -> f32
    %pa = kproof.cmp gt %a, %zero : f32
    cf.cond_br %pa, ^a1, ^a2
  ^a1:
    cf.br ^b(%a : f32)
  ^a2:
    cf.br ^b(%zero : f32)
  ^b(%va: f32):
    kproof.st global %y, %va : i64, f32
    %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
    %pb = kproof.cmp gt %b, %zero : f32
    cf.cond_br %pb, ^b1, ^b2
  ^b1:
    kproof.st global %y, %b {offset = 4 : i64} : i64, f32
    cf.br ^c
  ^b2:
    kproof.st global %y, %zero {offset = 4 : i64} : i64, f32
    cf.br ^c
  ^c:
    %c = kproof.ld global %x {offset = 8 : i64} : i64 -> f32
    %pc = kproof.cmp gt %c, %zero : f32
    cf.cond_br %pc, ^c1, ^d(%zero : f32)
  ^c1:
    cf.br ^d(%c : f32)
  ^d(%vc: f32):
    kproof.st global %y, %vc {offset = 8 : i64} : i64, f32
    kproof.return
  })mlir";

TEST_F(SyncTest, DiamondsMergeIntoOnePath) {
  ExecutionResult r = run(threeDiamonds, 1);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  EXPECT_EQ(r.forks, 3u);
  EXPECT_EQ(r.merges, 3u);
  ASSERT_EQ(r.paths.size(), 1u);
  // The branches were complementary: nothing is left of them in the path
  // condition.
  EXPECT_EQ(r.paths[0].pathCondition, T.boolConst(true));
  const auto &ys = r.paths[0].stores.at("y");
  ASSERT_EQ(ys.size(), 3u);
  for (uint64_t i = 0; i < 3; ++i) {
    Term xi = T.element("x", T.bv(i, 64));
    Term v = ys.at(i).value;
    ASSERT_EQ(v->getKind(), Kind::Ite) << i;
    // ite(c, x[i], 0) or ite(c', 0, x[i]) with c, c' over x[i].
    llvm::SmallVector<Term> arms(v->getOperands().drop_front());
    EXPECT_TRUE(llvm::is_contained(arms, xi)) << i;
    EXPECT_TRUE(llvm::is_contained(arms, T.real(0))) << i;
  }
  // y[1] is written by a different store on each side: both locations.
  EXPECT_NE(locationString(ys.at(1).loc).find(" or "), std::string::npos)
      << locationString(ys.at(1).loc);
  EXPECT_EQ(locationString(ys.at(0).loc).find(" or "), std::string::npos);

  options.mergeStates = false;
  r = run(threeDiamonds, 1);
  EXPECT_EQ(r.forks, 7u); // 1 + 2 + 4
  EXPECT_EQ(r.merges, 0u);
  EXPECT_EQ(r.paths.size(), 8u);
}

/// A store on one side only: the two paths wrote different cells, so they
/// stay apart (merging would give the other path a store it never did).
TEST_F(SyncTest, StatesThatWroteDifferentCellsStayApart) {
  ExecutionResult r = run(R"mlir(
    kproof.kernel entry @half(%x: i64, %y: i64) {
      %zero = kproof.constant 0.0 : f32
      %a = kproof.ld global %x : i64 -> f32
      %p = kproof.cmp gt %a, %zero : f32
      cf.cond_br %p, ^w, ^done
    ^w:
      kproof.st global %y, %a : i64, f32
      cf.br ^done
    ^done:
      kproof.return
    })mlir",
                          1);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  EXPECT_EQ(r.forks, 1u);
  EXPECT_EQ(r.merges, 0u);
  ASSERT_EQ(r.paths.size(), 2u);
  EXPECT_NE(r.paths[0].stores.count("y"), r.paths[1].stores.count("y"));
}

/// A violation on one side only (a store to the input buffer) stays with
/// its path: no merge.
TEST_F(SyncTest, ViolationsStayWithTheirPath) {
  ExecutionResult r = run(R"mlir(
    kproof.kernel entry @bad(%x: i64, %y: i64) {
      %zero = kproof.constant 0.0 : f32
      %a = kproof.ld global %x : i64 -> f32
      %p = kproof.cmp gt %a, %zero : f32
      kproof.st global %y, %a : i64, f32
      cf.cond_br %p, ^w, ^done
    ^w:
      kproof.st global %x, %zero {offset = 4 : i64} : i64, f32
      cf.br ^done
    ^done:
      kproof.return
    })mlir",
                          1);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  EXPECT_EQ(r.merges, 0u);
  ASSERT_EQ(r.paths.size(), 2u);
  unsigned withViolation = 0;
  for (const PathResult &p : r.paths)
    withViolation += !p.violations.empty();
  EXPECT_EQ(withViolation, 1u);
}

/// A loop that may leave early (a data-dependent break): every exit meets
/// at the loop's exit block, one path; the count is an ite chain.
TEST_F(SyncTest, EarlyExitsOfALoopMerge) {
  ExecutionResult r = run(R"mlir(
    kproof.kernel entry @find(%x: i64, %y: i64) {
      %zero = kproof.constant 0.0 : f32
      %c0 = kproof.constant 0 : i32
      %c1 = kproof.constant 1 : i32
      %c4 = kproof.constant 4 : i32
      %c2 = kproof.constant 2 : i32
      cf.br ^head(%c0 : i32)
    ^head(%i: i32):
      %more = kproof.cmp lt %i, %c4 : i32
      cf.cond_br %more, ^body, ^exit(%i : i32)
    ^body:
      %i64 = kproof.cvt %i : i32 -> i64
      %off = kproof.shift shl %i64, %c2 : i64
      %a = kproof.ibin add %x, %off : i64
      %v = kproof.ld global %a : i64 -> f32
      %hit = kproof.cmp gt %v, %zero : f32
      %next = kproof.ibin add %i, %c1 : i32
      cf.cond_br %hit, ^exit(%i : i32), ^head(%next : i32)
    ^exit(%k: i32):
      %kf = kproof.cvt %k mode rn : i32 -> f32
      kproof.st global %y, %kf : i64, f32
      kproof.return
    })mlir",
                          1);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  EXPECT_EQ(r.forks, 4u);
  EXPECT_EQ(r.merges, 4u);
  ASSERT_EQ(r.paths.size(), 1u);
  EXPECT_EQ(r.paths[0].pathCondition, T.boolConst(true));
}

/// The kernel of the cp.async tests: s[t] = x[t] by cp.async, then WAIT
/// (text spliced in), then y[t] = s[(t + 1) % 32] after a barrier.
static std::string cpAsyncKernel(llvm::StringRef wait) {
  return (R"mlir(
    kproof.global shared @s : f32[32] {align = 4 : i64}
    kproof.kernel entry @cp(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c0 = kproof.constant 0 : i32
      %c1 = kproof.constant 1 : i32
      %c2 = kproof.constant 2 : i32
      %c31 = kproof.constant 31 : i32
      %t64 = kproof.cvt %t : i32 -> i64
      %o64 = kproof.shift shl %t64, %c2 : i64
      %xa = kproof.ibin add %x, %o64 : i64
      %base = kproof.addressof @s : i32
      %o = kproof.shift shl %t, %c2 : i32
      %sa = kproof.ibin add %base, %o : i32
      kproof.cp_async %sa, %xa, 4 : i32, i64
      kproof.cp_async_commit
)mlir" + wait +
          R"mlir(
      kproof.barrier sync id %c0 {aligned}
      %n = kproof.ibin add %t, %c1 : i32
      %m = kproof.ibin and %n, %c31 : i32
      %no = kproof.shift shl %m, %c2 : i32
      %ra = kproof.ibin add %base, %no : i32
      %w = kproof.ld shared %ra : i32 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %w : i64, f32
      kproof.return
    })mlir")
      .str();
}

/// A cp.async completed by a wait in the phase of its issue: its write is
/// recorded as async, in flight in phase 0 only; the read after the barrier
/// resolves to the neighbour's copied element.
TEST_F(SyncTest, CpAsyncCompletedByItsWait) {
  ExecutionResult r = run(cpAsyncKernel("kproof.cp_async_wait pending 0"), 32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  ASSERT_EQ(r.accesses.size(), 3u);
  const MemoryAccess &cp = r.accesses[0];
  EXPECT_TRUE(cp.write && cp.shared && cp.async);
  EXPECT_EQ(cp.phase, 0u);
  EXPECT_EQ(cp.lastPhase(), 0u);
  EXPECT_FALSE(cp.phasesOverlap(r.accesses[1])); // the read, phase 1
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  Term v5 = at(st.value, 5);
  EXPECT_TRUE(N.provesEqual(v5, T.element("x", T.bv(6, 64)))) << v5->toString();
}

/// wait_group 1 with one group committed completes nothing: the copy stays
/// in flight to the end of the thread (it overlaps every later phase).
TEST_F(SyncTest, CpAsyncWaitGroupLeavesTheNewestPending) {
  ExecutionResult r = run(cpAsyncKernel("kproof.cp_async_wait pending 1"), 32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  const MemoryAccess &cp = r.accesses.at(0);
  EXPECT_TRUE(cp.async);
  EXPECT_EQ(cp.lastPhase(), MemoryAccess::kNeverCompleted);
  EXPECT_TRUE(cp.phasesOverlap(r.accesses.at(1)));
}

/// A thread's own read of its copy's destination before the wait is an
/// obligation (a race with its own copy) that the read breaks at every
/// thread.
TEST_F(SyncTest, CpAsyncOwnReadBeforeTheWait) {
  ExecutionResult r = run(cpAsyncKernel(R"mlir(
      %own = kproof.ld shared %sa : i32 -> f32
      kproof.cp_async_wait all)mlir"),
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  const PathObligation *race = nullptr;
  for (const PathObligation &a : r.alignments)
    if (llvm::StringRef(a.what).starts_with(
            "no data race with the thread's own cp.async"))
      race = &a;
  ASSERT_NE(race, nullptr);
  // The read hits the copy's bytes exactly: the condition fails (at thread
  // 5, say).
  Term c5 = at(race->condition, 5);
  EXPECT_EQ(c5, T.boolConst(false)) << c5->toString();
  // After wait_all the copy is complete in phase 0.
  EXPECT_EQ(r.accesses.at(0).lastPhase(), 0u);
}

/// A shared offset that truncates a 64-bit index (cvt.u32.u64 of
/// zext(t) + 128, as a block-stride loop with a size_t counter gives it) is
/// the linear form it equals: the write's writer is found by inversion and
/// the read of s[(t + 1) % 32] + 16 resolves.
TEST_F(SyncTest, TruncatedIndexIsLinear) {
  ExecutionResult r = run(R"mlir(
    kproof.global shared @s : f32[64] {align = 4 : i64}
    kproof.kernel entry @k(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c0 = kproof.constant 0 : i32
      %c1 = kproof.constant 1 : i32
      %c2 = kproof.constant 2 : i32
      %c31 = kproof.constant 31 : i32
      %c32w = kproof.constant 32 : i64
      %t64 = kproof.cvt %t : i32 -> i64
      %o64 = kproof.shift shl %t64, %c2 : i64
      %xa = kproof.ibin add %x, %o64 : i64
      %v = kproof.ld global %xa : i64 -> f32
      %i64 = kproof.ibin add %t64, %c32w : i64
      %i = kproof.cvt %i64 : i64 -> i32
      %base = kproof.addressof @s : i32
      %o = kproof.shift shl %i, %c2 : i32
      %sa = kproof.ibin add %base, %o : i32
      kproof.st shared %sa, %v : i32, f32
      kproof.barrier sync id %c0 {aligned}
      %n = kproof.ibin add %t, %c1 : i32
      %m = kproof.ibin and %n, %c31 : i32
      %c32 = kproof.constant 32 : i32
      %m2 = kproof.ibin add %m, %c32 : i32
      %no = kproof.shift shl %m2, %c2 : i32
      %ra = kproof.ibin add %base, %no : i32
      %w = kproof.ld shared %ra : i32 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %w : i64, f32
      kproof.return
    })mlir",
                          32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  for (const ResolutionObligation &res : r.resolutions)
    EXPECT_EQ(res.whyUnknown.find("not determined by its address"),
              std::string::npos)
        << res.whyUnknown;
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  Term v5 = at(st.value, 5);
  EXPECT_TRUE(N.provesEqual(v5, T.element("x", T.bv(6, 64)))) << v5->toString();
}
