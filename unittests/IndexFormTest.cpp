//===- IndexFormTest.cpp - tests of the index normal form -----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// TermContext::canonicalIndex reads BV index terms as exact linear forms
// within declared bounds. Each rewrite is checked two ways: the canonical
// term is the expected one (so equal elements are one hash-consed term),
// and Z3 proves it equal to the original under the bounds (so the rewrite
// is sound), or, where the bounds do not allow it, the term is kept.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/Terms/Term.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

/// Z3 proves `a == b` wherever `bounds` holds.
bool provedEqualUnder(TermContext &T, Term bounds, Term a, Term b) {
  smt::Context z3;
  Z3Lowering lowering(z3, T);
  smt::Solver solver(z3);
  smt::Expr e = lowering.lower(T.andOf(bounds, T.notOf(T.eq(a, b))));
  EXPECT_TRUE(e.isValid()) << lowering.getError();
  solver.add(e);
  return solver.check() == smt::CheckResult::Unsat;
}

struct Fixture {
  TermContext T;
  Term tid = T.bvVar("tid.x", 32);
  Term cta = T.bvVar("ctaid.x", 32);
  Fixture() {
    T.setUpperBound("tid.x", 63);
    T.setUpperBound("ctaid.x", 1);
  }
  Term c32(uint64_t v) { return T.bv(v, 32); }
  Term c64(uint64_t v) { return T.bv(v, 64); }
  Term add(Term a, Term b) { return T.bvBin(Kind::BVAdd, a, b); }
  Term mul(Term a, Term b) { return T.bvBin(Kind::BVMul, a, b); }

  /// Z3 proves `a == b` for every tid.x <= 63, ctaid.x <= 1.
  bool provedEqual(Term a, Term b) {
    return provedEqualUnder(
        T, T.andOf(T.bvUle(tid, c32(63)), T.bvUle(cta, c32(1))), a, b);
  }
};

/// nvcc's byte scaling and back: (4 * sext(i)) / 4 is sext(i) = zext(i)
/// for a non-negative i, so both spellings name one element.
TEST(IndexForm, ScaleAndDivideBack) {
  Fixture f;
  Term i = f.add(f.mul(f.cta, f.c32(64)), f.tid); // <= 127
  Term bytes = f.mul(f.T.bvSExt(i, 64), f.c64(4));
  Term back = f.T.bvBin(Kind::BVUDiv, bytes, f.c64(4));
  Term direct = f.T.bvZExt(i, 64);
  EXPECT_EQ(f.T.canonicalIndex(back), f.T.canonicalIndex(direct));
  EXPECT_TRUE(f.provedEqual(back, f.T.canonicalIndex(back)));
  // The elements built from them are one term.
  EXPECT_EQ(f.T.element("x", back), f.T.element("x", direct));
}

/// bfi(row, lane, 7, 25) as the executor builds it, (lane & ~(2^32 - 128))
/// + (row << 7), is 128 row + lane, and a spec's split of the flat index
/// into (e / 128, e % 128) multiplied out again is the same form.
TEST(IndexForm, RowAndLane) {
  Fixture f;
  Term lane = f.T.bvBin(Kind::BVAnd, f.tid, f.c32(31));
  Term row = f.add(f.mul(f.cta, f.c32(2)),
                   f.T.bvBin(Kind::BVLShr, f.tid, f.c32(5)));
  Term packed =
      f.add(f.T.bvBin(Kind::BVAnd, lane, f.c32(127)),
            f.T.bvBin(Kind::BVShl, row, f.c32(7)));
  Term e = f.T.bvZExt(packed, 64);
  Term r = f.T.bvBin(Kind::BVUDiv, e, f.c64(128));
  Term c = f.T.bvBin(Kind::BVURem, e, f.c64(128));
  Term again = f.add(f.mul(r, f.c64(128)), c);
  EXPECT_EQ(f.T.canonicalIndex(again), f.T.canonicalIndex(e));
  EXPECT_TRUE(f.provedEqual(again, f.T.canonicalIndex(again)));
  EXPECT_TRUE(f.provedEqual(e, f.T.canonicalIndex(e)));
}

/// With tid.x = 32 q + c (a lane case), a shuffle partner's lane
/// (tid.x & 31) ^ 16 is the constant c ^ 16, and the clamp
/// ite(partner <= 31, partner, lane) folds.
TEST(IndexForm, LaneCaseFoldsPartner) {
  Fixture f;
  f.T.setUpperBound("q", 1);
  Term q = f.T.bvVar("q", 32);
  Term t = f.add(f.mul(q, f.c32(32)), f.c32(5));
  Term lane = f.T.bvBin(Kind::BVURem, t, f.c32(32));
  Term partner = f.T.bvBin(Kind::BVXor, lane, f.c32(16));
  Term clamped =
      f.T.ite(f.T.bvSle(partner, f.c32(31)), partner, lane);
  Term idx = f.add(f.T.bvBin(Kind::BVSub, t, lane), clamped);
  Term expected = f.add(f.mul(q, f.c32(32)), f.c32(21));
  EXPECT_EQ(f.T.canonicalIndex(idx), f.T.canonicalIndex(expected));
}

/// Where the bounds do not rule out wrapping the term stays: tid.x * 2^27
/// overflows 32 bits for tid.x >= 32, so (tid.x * 2^27) / 2^27 is not
/// tid.x; and a negative value under sext is not its zext.
TEST(IndexForm, KeepsWhatMayWrap) {
  Fixture f;
  Term big = f.mul(f.tid, f.c32(uint64_t(1) << 27));
  Term back = f.T.bvBin(Kind::BVUDiv, big, f.c32(uint64_t(1) << 27));
  EXPECT_NE(f.T.canonicalIndex(back), f.tid);
  EXPECT_TRUE(f.provedEqual(back, f.T.canonicalIndex(back)));
  Term v = f.T.bvVar("v", 32); // unbounded: may be negative
  EXPECT_NE(f.T.canonicalIndex(f.T.bvSExt(v, 64)), f.T.bvZExt(v, 64));
}

/// nvcc's unrolled-loop trip count (n - (n & 3) + 0xFFFFFFFC) / 4, past
/// its guard n >= 4: n - n % 4 is 4 (n / 4), the unsigned constant is -4
/// modulo 2^32, and the quotient is n / 4 - 1. Below the lower bound (n may
/// be 1) the term stays, since the subtraction wraps there.
TEST(IndexForm, UnrolledTripCount) {
  Fixture f;
  Term n = f.T.bvVar("n", 32);
  f.T.setUpperBound("n", 1 << 20);
  Term trip = f.T.bvBin(
      Kind::BVUDiv,
      f.add(f.T.bvBin(Kind::BVSub, n, f.T.bvBin(Kind::BVAnd, n, f.c32(3))),
            f.c32(0xFFFFFFFCu)),
      f.c32(4));
  Term quarter = f.T.bvBin(Kind::BVUDiv, n, f.c32(4));
  f.T.setLowerBound("n", 1);
  EXPECT_NE(f.T.canonicalIndex(trip), f.T.canonicalIndex(f.add(quarter, f.c32(0xFFFFFFFFu))));
  f.T.setLowerBound("n", 4);
  Term canon = f.T.canonicalIndex(trip);
  EXPECT_EQ(canon, f.T.canonicalIndex(f.add(quarter, f.c32(0xFFFFFFFFu))));
  // Z3: equal for every n in [4, 2^20].
  smt::Context z3;
  Z3Lowering lowering(z3, f.T);
  smt::Solver solver(z3);
  Term cond = f.T.andOf({f.T.bvUle(f.c32(4), n), f.T.bvUle(n, f.c32(1 << 20)),
                         f.T.notOf(f.T.eq(trip, canon))});
  smt::Expr e = lowering.lower(cond);
  ASSERT_TRUE(e.isValid()) << lowering.getError();
  solver.add(e);
  EXPECT_EQ(solver.check(), smt::CheckResult::Unsat);
}

/// A loop bounded by n - 1, unrolled by 4: the trip count of the unrolled
/// loop, (n - ((n - 1) & 3) - 4 - 1) / 4, is (n - 1) / 4 - 1 for n >= 5
/// (the remainder folds with an atom A = n - 1 that is not itself in the
/// form: k n - k (A % d) = k d (A / d) - k c for A = n + c).
TEST(IndexForm, UnrolledTripCountOfShiftedBound) {
  Fixture f;
  Term n = f.T.bvVar("n", 32);
  f.T.setUpperBound("n", 1 << 20);
  f.T.setLowerBound("n", 5);
  Term nm1 = f.add(n, f.c32(0xFFFFFFFFu));
  Term trip = f.T.bvBin(
      Kind::BVUDiv,
      f.T.bvBin(Kind::BVSub,
                f.add(f.T.bvBin(Kind::BVSub, n,
                                f.T.bvBin(Kind::BVAnd, nm1, f.c32(3))),
                      f.c32(0xFFFFFFFCu)),
                f.c32(1)),
      f.c32(4));
  Term expected =
      f.add(f.T.bvBin(Kind::BVUDiv, nm1, f.c32(4)), f.c32(0xFFFFFFFFu));
  Term canon = f.T.canonicalIndex(trip);
  EXPECT_EQ(canon, f.T.canonicalIndex(expected)) << canon->toString();
  smt::Context z3;
  Z3Lowering lowering(z3, f.T);
  smt::Solver solver(z3);
  Term cond = f.T.andOf({f.T.bvUle(f.c32(5), n), f.T.bvUle(n, f.c32(1 << 20)),
                         f.T.notOf(f.T.eq(trip, canon))});
  smt::Expr e = lowering.lower(cond);
  ASSERT_TRUE(e.isValid()) << lowering.getError();
  solver.add(e);
  EXPECT_EQ(solver.check(), smt::CheckResult::Unsat);
}

/// A 64-bit value times a constant near 2^64 overflows the form's 128-bit
/// interval arithmetic: the form gives up (before, (x * (2^64 - 1)) >> 2
/// read as 0; a review's fuzzer found it).
TEST(IndexForm, HugeScalesGiveUp) {
  Fixture f;
  Term x = f.T.bvVar("x", 64);
  Term t = f.T.bvBin(Kind::BVLShr, f.mul(x, f.c64(~uint64_t(0))), f.c64(2));
  Term c = f.T.canonicalIndex(t);
  EXPECT_NE(c, f.c64(0));
  EXPECT_TRUE(f.provedEqual(t, c));
}

/// (x + c1) + c2 folds to x + (c1 + c2) (modulo 2^w): nvcc's `p - 8`
/// then `+ 8` is p.
TEST(IndexForm, NestedConstantsFold) {
  Fixture f;
  Term x = f.T.bvVar("x", 64);
  Term t = f.add(f.add(x, f.c64(uint64_t(-8))), f.c64(8));
  EXPECT_EQ(t, x);
  Term u = f.add(f.c64(3), f.add(f.c64(4), x));
  EXPECT_EQ(u, f.add(x, f.c64(7)));
}

/// With products multiplied out (a scope of the tiling check), the
/// kernel's sext(n) * sext(row) and the spec's ((4 row) / 4) * sext(n) are
/// one form; by default each product stays one atom of its own spelling.
TEST(IndexForm, ProductsMultipliedOut) {
  Fixture f;
  Term n = f.T.bvVar("n", 32);
  f.T.setUpperBound("n", 1 << 20);
  Term row = f.add(f.mul(f.cta, f.c32(64)), f.tid); // <= 127
  Term kernel = f.mul(f.T.bvSExt(n, 64), f.T.bvSExt(row, 64));
  Term scaled = f.T.bvBin(Kind::BVShl, f.T.bvSExt(row, 64), f.c64(2));
  Term spec = f.mul(f.T.bvBin(Kind::BVUDiv, scaled, f.c64(4)),
                    f.T.bvSExt(n, 64));
  EXPECT_NE(f.T.canonicalIndex(kernel), f.T.canonicalIndex(spec));
  auto saved = f.T.saveBounds();
  f.T.setMultiplyOutProducts(true);
  Term a = f.T.canonicalIndex(kernel), b = f.T.canonicalIndex(spec);
  EXPECT_EQ(a, b);
  // Exact for n <= 2^20 (the declared bound).
  EXPECT_TRUE(f.provedEqual(
      f.T.ite(f.T.bvUle(n, f.c32(1 << 20)), kernel, a), a));
  f.T.restoreBounds(std::move(saved));
  EXPECT_FALSE(f.T.multipliesOutProducts());
  EXPECT_NE(f.T.canonicalIndex(kernel), f.T.canonicalIndex(spec));
}

/// A row-major byte offset 4 (n * row) + 16 k + 4 splits as c = 4, the size
/// n, the row, and the rest 16 k + 4 (the race checks' lemma: two accesses
/// whose rests stay inside 4 n overlap only in one row). An offset with
/// two products of a size, or none, does not split.
TEST(IndexForm, SplitByProduct) {
  Fixture f;
  Term n = f.T.bvVar("n", 32);
  f.T.setUpperBound("n", 1 << 20);
  Term k = f.T.bvVar("k", 64);
  f.T.setUpperBound("k", 1 << 18);
  Term row = f.add(f.mul(f.cta, f.c32(64)), f.tid);
  Term prod = f.mul(f.T.bvSExt(n, 64), f.T.bvSExt(row, 64));
  Term off = f.add(f.add(f.mul(prod, f.c64(4)), f.mul(k, f.c64(16))),
                   f.c64(4));
  std::optional<TermContext::ProductSplit> sp = f.T.splitByProduct(off);
  ASSERT_TRUE(sp.has_value());
  EXPECT_EQ(sp->size, n);
  EXPECT_EQ(sp->coeff, 4u);
  EXPECT_EQ(sp->factor, f.T.bvSExt(row, 64));
  EXPECT_EQ(f.T.canonicalIndex(sp->rest),
            f.T.canonicalIndex(f.add(f.mul(k, f.c64(16)), f.c64(4))));
  // c * n * R + W is the offset (Z3, under the bounds).
  Term rebuilt = f.add(
      f.mul(f.mul(f.c64(sp->coeff), f.T.bvZExt(n, 64)), sp->factor),
      sp->rest);
  EXPECT_TRUE(f.provedEqual(
      f.T.ite(f.T.andOf(f.T.bvUle(n, f.c32(1 << 20)),
                        f.T.bvUle(k, f.c64(1 << 18))),
              off, rebuilt),
      rebuilt));
  Term two = f.add(off, f.mul(f.T.bvSExt(n, 64),
                              f.T.bvSExt(f.add(row, f.c32(1)), 64)));
  EXPECT_FALSE(f.T.splitByProduct(two).has_value());
  EXPECT_FALSE(f.T.splitByProduct(f.mul(k, f.c64(4))).has_value());
}

/// Triton's row offset: n * pid multiplied in 32 bits, then widened
/// (zext(n * ctaid.x) + 2 tid.x). The narrow product does not wrap under
/// the declared bounds, so it splits with the factor widened; ctaid.x is
/// bounded too, but a thread index is never taken for the size.
TEST(IndexForm, SplitByANarrowProduct) {
  Fixture f;
  Term n = f.T.bvVar("n", 32);
  f.T.setUpperBound("n", 64);
  Term idx = f.add(f.T.bvZExt(f.mul(n, f.cta), 64),
                   f.mul(f.T.bvZExt(f.tid, 64), f.c64(2)));
  std::optional<TermContext::ProductSplit> sp = f.T.splitByProduct(idx);
  ASSERT_TRUE(sp.has_value());
  EXPECT_EQ(sp->size, n);
  EXPECT_EQ(sp->coeff, 1u);
  EXPECT_EQ(sp->factor, f.T.bvZExt(f.cta, 64));
  EXPECT_EQ(sp->rest,
            f.T.canonicalIndex(f.mul(f.T.bvZExt(f.tid, 64), f.c64(2))));
  Term rebuilt = f.add(f.mul(f.T.bvZExt(n, 64), sp->factor), sp->rest);
  EXPECT_TRUE(
      f.provedEqual(f.T.ite(f.T.bvUle(n, f.c32(64)), idx, rebuilt), rebuilt));
  // A product that may wrap in 32 bits (n unbounded) does not split.
  Term m = f.T.bvVar("m", 32);
  f.T.setUpperBound("m", 0xffffffffu);
  EXPECT_FALSE(f.T.splitByProduct(f.T.bvZExt(f.mul(m, f.tid), 64)).has_value());
}

/// An integer element at a symbolic index is a BV-sorted Select of its
/// width, a constant index the BVVar "idx[k]", and the two are linked in
/// Z3: idx(3) and idx[3] are one value.
TEST(IndexForm, IntegerElements) {
  Fixture f;
  Term sym = f.T.intElement("idx", f.T.bvZExt(f.tid, 64), 32);
  ASSERT_EQ(sym->getKind(), Kind::Select);
  EXPECT_EQ(sym->getSort(), Sort::BV);
  EXPECT_EQ(sym->getWidth(), 32u);
  Term fixed = f.T.intElement("idx", f.c64(3), 32);
  EXPECT_EQ(fixed, f.T.bvVar("idx[3]", 32));
  // tid.x == 3 -> idx[tid.x] == idx[3].
  smt::Context z3;
  Z3Lowering lowering(z3, f.T);
  smt::Solver solver(z3);
  Term cond = f.T.andOf(f.T.eq(f.tid, f.c32(3)),
                        f.T.notOf(f.T.eq(sym, fixed)));
  smt::Expr e = lowering.lower(cond);
  ASSERT_TRUE(e.isValid()) << lowering.getError();
  solver.add(e);
  for (const auto &[name, fact] : lowering.atomFacts())
    solver.add(fact);
  EXPECT_EQ(solver.check(), smt::CheckResult::Unsat);
}

} // namespace

namespace {

/// A DAG whose tree is exponential (t_{k+1} = t_k + t_k, 60 levels): the
/// brief string stops at its limit instead of printing 2^60 leaves.
TEST(TermPrinting, BriefStringOfADeepDag) {
  TermContext T;
  Term t = T.bvVar("i", 64);
  for (int k = 0; k < 60; ++k)
    t = T.bvBin(Kind::BVAdd, t, T.bvBin(Kind::BVMul, t, T.bv(3, 64)));
  std::string s = t->toBriefString(120);
  EXPECT_LE(s.size(), 120u);
  EXPECT_TRUE(llvm::StringRef(s).ends_with("..."));
  EXPECT_TRUE(llvm::StringRef(s).starts_with("(bvadd (bvadd"));
  // A small term prints whole.
  Term small = T.bvBin(Kind::BVAdd, T.bvVar("j", 64), T.bv(1, 64));
  EXPECT_EQ(small->toBriefString(), small->toString());
}

} // namespace

/// A product of two bounded values that does not wrap is an atom with the
/// product of their intervals, so nvcc's byte offset of a row, ((4 k) +
/// (row * n << 2)) / 4, reads as row * n + k (n <= 2^20, k <= 2^32); an
/// unbounded product may wrap and stays an atom, its scaling kept.
TEST(IndexForm, BoundedProduct) {
  Fixture f;
  f.T.setUpperBound("n", 1 << 20);
  f.T.setUpperBound("loop.k", uint64_t(1) << 32);
  Term n = f.T.bvVar("n", 32), k = f.T.bvVar("loop.k", 64);
  Term row = f.T.bvSExt(f.add(f.mul(f.cta, f.c32(32)), f.tid), 64);
  Term rowN = f.mul(f.T.bvSExt(n, 64), row);
  std::optional<std::pair<uint64_t, uint64_t>> iv = f.T.indexInterval(rowN);
  ASSERT_TRUE(iv.has_value());
  EXPECT_EQ(iv->first, 0u);
  EXPECT_EQ(iv->second, uint64_t(1 << 20) * 95);
  Term bytes = f.add(f.mul(f.c64(4), k),
                     f.T.bvBin(Kind::BVShl, rowN, f.c64(2)));
  Term back = f.T.bvBin(Kind::BVUDiv, bytes, f.c64(4));
  EXPECT_EQ(f.T.canonicalIndex(back), f.T.canonicalIndex(f.add(rowN, k)));
  // Sound under the bounds: Z3 proves the rewrite.
  {
    smt::Context z3;
    Z3Lowering lowering(z3, f.T);
    smt::Solver solver(z3);
    Term cond = f.T.andOf(
        {f.T.bvUle(f.tid, f.c32(63)), f.T.bvUle(f.cta, f.c32(1)),
         f.T.bvUle(n, f.c32(1 << 20)),
         f.T.bvUle(k, f.c64(uint64_t(1) << 32)),
         f.T.notOf(f.T.eq(back, f.T.canonicalIndex(back)))});
    smt::Expr e = lowering.lower(cond);
    ASSERT_TRUE(e.isValid()) << lowering.getError();
    solver.add(e);
    EXPECT_EQ(solver.check(), smt::CheckResult::Unsat);
  }
  // Without bounds the product may wrap: 4 * p / 4 is not p.
  Term a = f.T.bvVar("a", 64), b = f.T.bvVar("b", 64);
  Term p = f.mul(a, b);
  EXPECT_FALSE(f.T.indexInterval(f.T.bvBin(Kind::BVShl, p, f.c64(2))));
  Term scaled = f.T.bvBin(Kind::BVUDiv, f.mul(p, f.c64(4)), f.c64(4));
  EXPECT_NE(f.T.canonicalIndex(scaled), p);
}

namespace {

/// A 64 x 64 tile of (query, key) pairs indexed by a CTA id p < 4096, as
/// nvcc spells `p / 64` and `p % 64`: -O3 with the sign correction of a
/// signed division and masks, -G with div.s32 / rem.s32. Each spelling
/// reads as the spec's p / 64 and p % 64 (one term), and Z3 proves each
/// canonical form equal to the term it came from.
struct PairFixture {
  TermContext T;
  Term p = T.bvVar("ctaid.x", 32);
  PairFixture() { T.setUpperBound("ctaid.x", 4095); }
  Term c32(uint64_t v) { return T.bv(v, 32); }
  Term bin(Kind k, Term a, Term b) { return T.bvBin(k, a, b); }
  bool provedEqual(Term a, Term b) {
    return provedEqualUnder(T, T.bvUle(p, c32(4095)), a, b);
  }
};

TEST(IndexForm, SignedPairSplitsAsTheSpecs) {
  PairFixture f;
  // corr = (p >>s 31) >>u 26 (0 for p >= 0); q128 = ((p + corr) << 1) &
  // ~127 = 128 (p / 64); r = p - ((p + corr) & ~63) = p % 64.
  Term corr =
      f.bin(Kind::BVLShr, f.bin(Kind::BVAShr, f.p, f.c32(31)), f.c32(26));
  Term pc = f.bin(Kind::BVAdd, f.p, corr);
  Term q128 =
      f.bin(Kind::BVAnd, f.bin(Kind::BVShl, pc, f.c32(1)), f.c32(0xFFFFFF80u));
  Term rem = f.bin(Kind::BVSub, f.p, f.bin(Kind::BVAnd, pc, f.c32(0x1FFFFC0u)));
  Term specQ =
      f.bin(Kind::BVMul, f.bin(Kind::BVUDiv, f.p, f.c32(64)), f.c32(128));
  Term specR = f.bin(Kind::BVURem, f.p, f.c32(64));
  EXPECT_EQ(f.T.canonicalIndex(q128), f.T.canonicalIndex(specQ));
  EXPECT_EQ(f.T.canonicalIndex(rem), f.T.canonicalIndex(specR));
  EXPECT_TRUE(f.provedEqual(q128, f.T.canonicalIndex(q128)));
  EXPECT_TRUE(f.provedEqual(rem, f.T.canonicalIndex(rem)));
  // -G: div.s32 and rem.s32 of the non-negative p.
  Term sq = f.bin(Kind::BVSDiv, f.p, f.c32(64));
  Term sr = f.bin(Kind::BVSRem, f.p, f.c32(64));
  EXPECT_EQ(f.T.canonicalIndex(sq),
            f.T.canonicalIndex(f.bin(Kind::BVUDiv, f.p, f.c32(64))));
  EXPECT_EQ(f.T.canonicalIndex(sr), f.T.canonicalIndex(specR));
  EXPECT_TRUE(f.provedEqual(sq, f.T.canonicalIndex(sq)));
  EXPECT_TRUE(f.provedEqual(sr, f.T.canonicalIndex(sr)));
}

TEST(IndexForm, SignedDivisionOfAMaybeNegativeValueStays) {
  PairFixture f;
  // x = p - 2048 may be negative (as a signed value): sdiv is not udiv.
  Term x = f.bin(Kind::BVSub, f.p, f.c32(2048));
  Term sq = f.bin(Kind::BVSDiv, x, f.c32(64));
  EXPECT_NE(f.T.canonicalIndex(sq),
            f.T.canonicalIndex(f.bin(Kind::BVUDiv, x, f.c32(64))));
  EXPECT_TRUE(f.provedEqual(sq, f.T.canonicalIndex(sq)));
  // 3 p / 64 has no common factor to cancel; 4 p / 64 is p / 16.
  Term p4 = f.bin(Kind::BVMul, f.p, f.c32(4));
  EXPECT_EQ(f.T.canonicalIndex(f.bin(Kind::BVUDiv, p4, f.c32(64))),
            f.T.canonicalIndex(f.bin(Kind::BVUDiv, f.p, f.c32(16))));
  EXPECT_TRUE(
      f.provedEqual(f.bin(Kind::BVUDiv, p4, f.c32(64)),
                    f.T.canonicalIndex(f.bin(Kind::BVUDiv, p4, f.c32(64)))));
  Term p4r = f.bin(Kind::BVURem, p4, f.c32(64));
  EXPECT_TRUE(f.provedEqual(p4r, f.T.canonicalIndex(p4r)));
}

} // namespace
