//===- DecideByBoundsTest.cpp - conditions decided by index bounds --------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// TermContext::decideByBounds answers branch conditions and race or
// writer-uniqueness obligations without a solver query, from the index
// normal form and the declared thread-id bounds. A wrong `false` there is a
// false PROVED (a race query answered "cannot happen"), so every decision
// below is checked against Z3 under the same bounds: a condition decided
// false is unsat, and each near miss (a condition that can hold) is sat and
// left undecided.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/Terms/Term.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

/// A CTA of 16 threads (tid.x <= 15) and the two thread copies of a pair
/// query (t1.tid.x, t2.tid.x <= 15), as the equivalence checker declares.
struct Fixture {
  TermContext T;
  Term tid = T.bvVar("tid.x", 32);
  Term t1 = T.bvVar("t1.tid.x", 32);
  Term t2 = T.bvVar("t2.tid.x", 32);
  Fixture() {
    for (const char *n : {"tid.x", "t1.tid.x", "t2.tid.x"})
      T.setUpperBound(n, 15);
  }
  Term c32(uint64_t v) { return T.bv(v, 32); }
  Term c64(uint64_t v) { return T.bv(v, 64); }
  Term bin(Kind k, Term a, Term b) { return T.bvBin(k, a, b); }
  Term add(Term a, Term b) { return bin(Kind::BVAdd, a, b); }

  /// nvcc's byte offset of `Ks[i / 64][i % 64]` (f32, row of 64) for the
  /// flat index i = t + c of `for (i = t; i < 1024; i += 16)`, with the
  /// signed division's sign correction: (i + ((i >> 31) >>u 26)).
  Term tileOffset(Term t, uint64_t c) {
    Term i = add(t, c32(c));
    Term corr = bin(Kind::BVLShr, bin(Kind::BVAShr, i, c32(31)), c32(26));
    Term biased = add(i, corr);
    Term row = bin(Kind::BVAShr, biased, c32(6));
    Term col = bin(Kind::BVSub, i, bin(Kind::BVAnd, biased, c32(0xFFFFFFC0u)));
    return add(T.bvZExt(bin(Kind::BVShl, col, c32(2)), 64),
               T.bvZExt(bin(Kind::BVShl, row, c32(8)), 64));
  }

  /// Whether `cond` can hold for some thread ids within the bounds (Z3).
  bool satisfiable(Term cond) {
    smt::Context z3;
    Z3Lowering lowering(z3, T);
    smt::Solver solver(z3);
    Term c = T.andOf({T.bvUle(tid, c32(15)), T.bvUle(t1, c32(15)),
                      T.bvUle(t2, c32(15)), cond});
    smt::Expr e = lowering.lower(c);
    EXPECT_TRUE(e.isValid()) << lowering.getError();
    solver.add(e);
    return solver.check() != smt::CheckResult::Unsat;
  }
};

/// The trip-count tests of the flat loop `for (i = t; i < 256; i += 16)` as
/// nvcc unrolls it by 4: max(t, 240) is 240 and (255 - t) / 16 is 15 for
/// every t <= 15, so the remainder test is decided (no solver query).
TEST(DecideByBounds, FlatLoopTripCount) {
  Fixture f;
  Term mx = f.T.ite(f.T.bvSlt(f.tid, f.c32(240)), f.c32(240), f.tid);
  Term span = f.bin(Kind::BVSub, f.add(mx, f.c32(15)), f.tid);
  Term trips = f.add(f.bin(Kind::BVLShr, span, f.c32(4)), f.c32(1));
  Term rem = f.T.eq(f.c32(0), f.bin(Kind::BVAnd, trips, f.c32(3)));
  EXPECT_EQ(f.T.decideByBounds(rem), std::optional<bool>(true));
  EXPECT_FALSE(f.satisfiable(f.T.notOf(rem)));
  EXPECT_EQ(f.T.decideByBounds(f.T.bvUlt(span, f.c32(48))),
            std::optional<bool>(false));
  // Without the bound the same test is left to the solver.
  TermContext U;
  Term u = U.bvVar("tid.x", 32);
  EXPECT_EQ(U.decideByBounds(U.bvSlt(u, U.bv(240, 32))), std::nullopt);
}

/// Two unrolled writes of the tile (flat indices t1 + 16 and t2 + 80) never
/// meet: their offsets differ by 64 bytes plus 4 (t1 - t2), |4 (t1 - t2)|
/// <= 60. The same iteration's writes by two threads meet only when the
/// threads are equal, which the pair query excludes.
TEST(DecideByBounds, TileWritesOfTwoThreads) {
  Fixture f;
  Term apart = f.T.eq(f.tileOffset(f.t1, 16), f.tileOffset(f.t2, 80));
  EXPECT_EQ(f.T.decideByBounds(apart), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(apart));

  Term same = f.T.andOf({f.T.eq(f.tileOffset(f.t1, 16), f.tileOffset(f.t2, 16)),
                         f.T.notOf(f.T.eq(f.t1, f.t2))});
  EXPECT_EQ(f.T.decideByBounds(same), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(same));

  // Near miss: flat indices t1 + 8 and t2 meet where t2 = t1 + 8.
  Term meet = f.T.andOf({f.T.eq(f.tileOffset(f.t1, 8), f.tileOffset(f.t2, 0)),
                         f.T.notOf(f.T.eq(f.t1, f.t2))});
  EXPECT_NE(f.T.decideByBounds(meet), std::optional<bool>(false));
  EXPECT_TRUE(f.satisfiable(meet));
}

/// A 4-byte range overlap of two rows of 64 bytes: the two strict bounds on
/// 64 (t1 - t2) leave no integer between them. Shifting one range by 24
/// bytes leaves t1 = t2, which the pair's disequality excludes; without the
/// disequality it is satisfiable.
TEST(DecideByBounds, RangeOverlapBounds) {
  Fixture f;
  auto row = [&](Term t, uint64_t c) {
    return f.add(f.bin(Kind::BVMul, f.T.bvZExt(t, 64), f.c64(64)), f.c64(c));
  };
  Term disjoint = f.T.andOf({f.T.bvUlt(row(f.t2, 40), row(f.t1, 16)),
                             f.T.bvUlt(row(f.t1, 12), row(f.t2, 44))});
  EXPECT_EQ(f.T.decideByBounds(disjoint), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(disjoint));

  Term overlap = f.T.andOf({f.T.bvUlt(row(f.t2, 8), row(f.t1, 16)),
                            f.T.bvUlt(row(f.t1, 12), row(f.t2, 44))});
  EXPECT_NE(f.T.decideByBounds(overlap), std::optional<bool>(false));
  EXPECT_TRUE(f.satisfiable(overlap));
  Term distinct = f.T.andOf(overlap, f.T.notOf(f.T.eq(f.t1, f.t2)));
  EXPECT_EQ(f.T.decideByBounds(distinct), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(distinct));
}

/// The writer-uniqueness obligation of a read at byte 0: another writer w
/// (a renamed copy with only a stated bound w < 16) writing 4 w = 0 is w =
/// 0, which `w != 0` excludes. A mixed radix that does not separate its
/// digits (64 t + 4 c with c up to 31) is not paired.
TEST(DecideByBounds, WriterPinnedByItsOffset) {
  Fixture f;
  Term w = f.T.bvVar("w7.tid.x", 32);
  Term off = f.T.bvZExt(f.bin(Kind::BVShl, w, f.c32(2)), 64);
  Term unique = f.T.andOf({f.T.bvUlt(w, f.c32(16)), f.T.eq(off, f.c64(0)),
                           f.T.notOf(f.T.eq(f.c32(0), w))});
  EXPECT_EQ(f.T.decideByBounds(unique), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(unique));
  Term hits = f.T.andOf({f.T.bvUlt(w, f.c32(16)), f.T.eq(off, f.c64(0))});
  EXPECT_NE(f.T.decideByBounds(hits), std::optional<bool>(false));
  EXPECT_TRUE(f.satisfiable(hits));

  Term c1 = f.T.bvVar("c1", 32), c2 = f.T.bvVar("c2", 32);
  f.T.setUpperBound("c1", 31);
  f.T.setUpperBound("c2", 31);
  auto flat = [&](Term t, Term c) {
    return f.add(f.bin(Kind::BVMul, f.T.bvZExt(t, 64), f.c64(64)),
                 f.bin(Kind::BVMul, f.T.bvZExt(c, 64), f.c64(4)));
  };
  Term wide = f.T.andOf(
      {f.T.eq(flat(f.t1, c1), flat(f.t2, c2)), f.T.notOf(f.T.eq(f.t1, f.t2))});
  EXPECT_NE(f.T.decideByBounds(wide), std::optional<bool>(false));
  smt::Context z3;
  Z3Lowering lowering(z3, f.T);
  smt::Solver solver(z3);
  solver.add(lowering.lower(
      f.T.andOf({f.T.bvUle(f.t1, f.c32(15)), f.T.bvUle(f.t2, f.c32(15)),
                 f.T.bvUle(c1, f.c32(31)), f.T.bvUle(c2, f.c32(31)), wide})));
  EXPECT_EQ(solver.check(), smt::CheckResult::Sat);
}

/// Bounds a conjunction states on a variable narrow it: x < 4 and x >= 8
/// cannot both hold; x < 4 alone is not decided.
TEST(DecideByBounds, StatedBoundsContradict) {
  Fixture f;
  Term x = f.T.bvVar("x", 32);
  Term both =
      f.T.andOf({f.T.bvUlt(x, f.c32(4)), f.T.notOf(f.T.bvUlt(x, f.c32(8)))});
  EXPECT_EQ(f.T.decideByBounds(both), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(both));
  EXPECT_EQ(f.T.decideByBounds(f.T.bvUlt(x, f.c32(4))), std::nullopt);
  // A disjunction is decided by one true member, or when all are false.
  Term anyOf = f.T.orOf({f.T.bvUlt(x, f.c32(4)), f.T.bvUlt(f.tid, f.c32(16))});
  EXPECT_EQ(f.T.decideByBounds(anyOf), std::optional<bool>(true));
}

/// The warp tail sum without __syncwarp: lane t1 (t1 <= 31, stated as
/// !(31 < t1)) writes s[t1] while lane t2 (t2 <= 15) reads s[t2 + 16]. A
/// negated bound with the constant first is an upper bound (a review-found
/// regression read !(31 < t1) as t1 >= 32 and answered "no race").
TEST(DecideByBounds, NegatedBoundsWithTheConstantFirst) {
  Fixture f;
  f.T.setUpperBound("t1.tid.x", 63);
  f.T.setUpperBound("t2.tid.x", 63);
  auto word = [&](Term t, uint64_t c) {
    return f.add(f.T.bvZExt(f.bin(Kind::BVShl, t, f.c32(2)), 64), f.c64(c));
  };
  Term race = f.T.andOf({f.T.notOf(f.T.bvUlt(f.c32(31), f.t1)),
                         f.T.notOf(f.T.bvUlt(f.c32(15), f.t2)),
                         f.T.notOf(f.T.eq(f.t1, f.t2)),
                         f.T.bvUlt(word(f.t2, 64), word(f.t1, 4)),
                         f.T.bvUlt(word(f.t1, 0), word(f.t2, 68))});
  EXPECT_NE(f.T.decideByBounds(race), std::optional<bool>(false));
  smt::Context z3;
  Z3Lowering lowering(z3, f.T);
  smt::Solver solver(z3);
  solver.add(lowering.lower(race));
  EXPECT_EQ(solver.check(), smt::CheckResult::Sat);
  // With t1 <= 15 as well (!(15 < t1)), t1 = t2 + 16 is out of reach.
  Term none = f.T.andOf(race, f.T.notOf(f.T.bvUlt(f.c32(15), f.t1)));
  EXPECT_EQ(f.T.decideByBounds(none), std::optional<bool>(false));
  // !(K <= v) is v <= K - 1; !(v <= K) is v >= K + 1.
  Term x = f.T.bvVar("x", 32);
  Term strictly = f.T.andOf(
      {f.T.notOf(f.T.bvUle(f.c32(8), x)), f.T.notOf(f.T.bvUle(x, f.c32(6)))});
  EXPECT_NE(f.T.decideByBounds(strictly), std::optional<bool>(false));
  Term empty = f.T.andOf(
      {f.T.notOf(f.T.bvUle(f.c32(7), x)), f.T.notOf(f.T.bvUle(x, f.c32(6)))});
  EXPECT_EQ(f.T.decideByBounds(empty), std::optional<bool>(false));
}

/// Review-found: a constant division by zero (x / 0 is all ones in
/// SMT-LIB) must not be folded into a quotient by d1 * d = 0, which gave
/// (x / 0) / 4 a range of [0, 2^30) and decided a valid condition false;
/// and a remainder rewrite whose quotient has an interval of one value (n
/// in [1, 4]: (n - 1) / 4 = 0), or a remainder by 0, must not crash.
TEST(DecideByBounds, DivisionByZeroAndConstantQuotients) {
  TermContext T;
  Term x = T.bvVar("x", 32);
  Term x0 = T.bvBin(Kind::BVUDiv, x, T.bv(0, 32));
  Term q = T.bvBin(Kind::BVUDiv, x0, T.bv(4, 32));
  Term valid =
      T.andOf(T.eq(q, T.bv(0x3FFFFFFF, 32)), T.eq(x0, T.bv(0xFFFFFFFFu, 32)));
  EXPECT_NE(T.decideByBounds(valid), std::optional<bool>(false));

  TermContext U;
  U.setUpperBound("n", 4);
  U.setLowerBound("n", 1);
  Term n = U.bvVar("n", 32);
  Term a = U.bvBin(Kind::BVSub, n, U.bv(1, 32));
  Term masked = U.bvBin(Kind::BVSub, a, U.bvBin(Kind::BVAnd, a, U.bv(3, 32)));
  // (n - 1) - ((n - 1) & 3) is 0 for every n in [1, 4].
  EXPECT_NE(U.decideByBounds(U.eq(masked, U.bv(0, 32))),
            std::optional<bool>(false));
  EXPECT_NE(U.decideByBounds(U.notOf(U.eq(masked, U.bv(0, 32)))),
            std::optional<bool>(true));
  Term rem0 = U.bvBin(Kind::BVSub, a, U.bvBin(Kind::BVURem, a, U.bv(0, 32)));
  // (n - 1) - (n - 1) % 0 = (n - 1) - (n - 1) = 0 in SMT-LIB.
  EXPECT_NE(U.decideByBounds(U.eq(rem0, U.bv(0, 32))),
            std::optional<bool>(false));

  TermContext V;
  Term m = V.bvVar("n", 32);
  Term am = V.bvBin(Kind::BVSub, m, V.bv(1, 32));
  Term mm = V.bvBin(Kind::BVSub, am, V.bvBin(Kind::BVAnd, am, V.bv(3, 32)));
  Term narrowed = V.andOf({V.bvUle(V.bv(1, 32), m), V.bvUlt(m, V.bv(5, 32)),
                           V.notOf(V.eq(mm, V.bv(0, 32)))});
  // Unsatisfiable (the difference is 0 for n in [1, 4]); any answer but
  // true is right, and no crash.
  EXPECT_NE(V.decideByBounds(narrowed), std::optional<bool>(true));
}

} // namespace

/// A selection of two bounded values is bounded by both: the causal key
/// range `min(32, 16 ctaid + 20)` of a CTA (ctaid.x <= 1) is at least 20,
/// so a loop `k0 < kend` runs at least once; an ite its condition's bounds
/// decide is that arm.
TEST(DecideByBounds, SelectionWithinBothArms) {
  Fixture f;
  Term c = f.T.bvVar("ctaid.x", 32);
  f.T.setUpperBound("ctaid.x", 1);
  Term inGrid = f.T.bvUle(c, f.c32(1)); // for Z3
  Term horizon = f.add(f.bin(Kind::BVShl, c, f.c32(4)), f.c32(20));
  Term kend = f.T.ite(f.T.bvSlt(f.c32(32), horizon), f.c32(32), horizon); // min
  Term empty = f.T.bvSlt(kend, f.c32(1));
  EXPECT_EQ(f.T.decideByBounds(empty), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(f.T.andOf(empty, inGrid)));
  // Near miss: kend < 21 holds for ctaid.x = 0.
  Term below = f.T.bvSlt(kend, f.c32(21));
  EXPECT_EQ(f.T.decideByBounds(below), std::nullopt);
  EXPECT_TRUE(f.satisfiable(f.T.andOf(below, inGrid)));
  // A condition the bounds decide selects its arm: tid.x < 16 always.
  Term sel = f.T.ite(f.T.bvUlt(f.tid, f.c32(16)), f.c32(3), f.tid);
  EXPECT_EQ(f.T.decideByBounds(f.T.eq(sel, f.c32(3))),
            std::optional<bool>(true));
}

/// Bound propagation in a conjunction: `16 ctaid + tid + 4 < 6` leaves
/// ctaid.x = 0 (tid.x >= 0), so a case that also takes ctaid.x >= 1 (the
/// second CTA's longer key loop) is impossible; the kernel's causal mask
/// cases are then only those of the rows that exist.
TEST(DecideByBounds, ConjunctionPropagatesLinearBounds) {
  Fixture f;
  Term c = f.T.bvVar("ctaid.x", 32);
  f.T.setUpperBound("ctaid.x", 1);
  Term inGrid = f.T.bvUle(c, f.c32(1)); // for Z3
  Term row = f.add(f.add(f.bin(Kind::BVShl, c, f.c32(4)), f.tid), f.c32(4));
  Term early = f.T.bvSlt(row, f.c32(6));
  Term second = f.T.bvUle(f.c32(1), c);
  Term both = f.T.andOf(early, second);
  EXPECT_EQ(f.T.decideByBounds(both), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(f.T.andOf(both, inGrid)));
  // Near misses: row 16 (ctaid 1, tid 0) is < 21; and the first CTA.
  Term late = f.T.andOf(f.T.bvSlt(row, f.c32(21)), second);
  EXPECT_EQ(f.T.decideByBounds(late), std::nullopt);
  EXPECT_TRUE(f.satisfiable(f.T.andOf(late, inGrid)));
  Term first = f.T.andOf(early, f.T.notOf(second));
  EXPECT_NE(f.T.decideByBounds(first), std::optional<bool>(false));
  EXPECT_TRUE(f.satisfiable(f.T.andOf(first, inGrid)));
  // A negative coefficient: tid - 16 ctaid >= 3 leaves ctaid = 0 too.
  Term diff = f.bin(Kind::BVSub, f.add(f.tid, f.c32(64)),
                    f.bin(Kind::BVShl, c, f.c32(4)));
  Term neg = f.T.andOf(f.T.bvSle(f.c32(67), diff), second);
  EXPECT_EQ(f.T.decideByBounds(neg), std::optional<bool>(false));
  EXPECT_FALSE(f.satisfiable(f.T.andOf(neg, inGrid)));
}
