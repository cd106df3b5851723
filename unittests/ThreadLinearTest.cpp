//===- ThreadLinearTest.cpp - offsets as linear forms of thread ids -------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// linearizeOver reads a BV offset as its exact integer value over thread-id
// ranges, and disjointForDistinctThreads dismisses race pairs on integers.
// A wrong "disjoint" is a false PROVED (a race answered "cannot happen"),
// so every answer of the second is checked against brute force over all
// pairs of threads, for thousands of small random layouts.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/ThreadLinear.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace kproof;
using namespace kproof::engine;

namespace {

struct Fixture {
  TermContext T;
  Term tid = T.bvVar("tid.x", 32);
  Term tidy = T.bvVar("tid.y", 32);
  Term cta = T.bvVar("ctaid.x", 32);
  VarExtents ext{{tid, 16}, {tidy, 4}, {cta, 8}};
  Term c32(uint64_t v) { return T.bv(v, 32); }
  Term bin(Kind k, Term a, Term b) { return T.bvBin(k, a, b); }
};

TEST(ThreadLinear, ReadsAnAffineOffsetExactly) {
  Fixture f;
  // zext64((16 ctaid + tid) * 512) + 4 * 3
  Term row = f.bin(Kind::BVAdd, f.bin(Kind::BVMul, f.c32(16), f.cta), f.tid);
  Term t = f.T.bvZExt(f.bin(Kind::BVMul, row, f.c32(512)), 64);
  t = f.bin(Kind::BVAdd, t, f.T.bv(12, 64));
  LinearForm lf;
  ASSERT_TRUE(linearizeOver(t, f.ext, 1, lf));
  EXPECT_EQ(int64_t(lf.c0), 12);
  EXPECT_EQ(int64_t(lf.coeffs[f.cta]), 16 * 512);
  EXPECT_EQ(int64_t(lf.coeffs[f.tid]), 512);
  auto [lo, hi] = rangeOver(lf, f.ext);
  EXPECT_EQ(int64_t(lo), 12);
  EXPECT_EQ(int64_t(hi), 12 + (16 * 7 + 15) * 512);
}

TEST(ThreadLinear, RefusesAProductThatWraps) {
  Fixture f;
  // (tid << 28) at 32 bits wraps for tid >= 16? tid <= 15: 15 << 28 fits;
  // tid * 2^29 does not.
  LinearForm ok, wraps, unknownVar;
  EXPECT_TRUE(
      linearizeOver(f.bin(Kind::BVShl, f.tid, f.c32(28)), f.ext, 1, ok));
  EXPECT_FALSE(linearizeOver(f.bin(Kind::BVMul, f.tid, f.c32(1u << 29)), f.ext,
                             1, wraps));
  // A variable without a range (a loaded value) is not a thread id.
  EXPECT_FALSE(linearizeOver(f.bin(Kind::BVAdd, f.tid, f.T.bvVar("x#1", 32)),
                             f.ext, 1, unknownVar));
}

/// Brute force: some t1, t2 in range (shared variables equal, differing in
/// a mustDiffer variable) with [x(t1), x(t1)+xb) and [y(t2), y(t2)+yb)
/// overlapping.
bool overlapExists(const LinearForm &x, uint64_t xb, const LinearForm &y,
                   uint64_t yb,
                   const std::vector<std::pair<Term, int64_t>> &vars,
                   const std::vector<bool> &shared,
                   const std::vector<bool> &mustDiffer) {
  size_t n = vars.size();
  std::vector<int64_t> a(n, 0), b(n, 0);
  auto eval = [&](const LinearForm &f, const std::vector<int64_t> &v) {
    __int128 s = f.c0;
    for (size_t k = 0; k < n; ++k) {
      auto it = f.coeffs.find(vars[k].first);
      if (it != f.coeffs.end())
        s += it->second * v[k];
    }
    return s;
  };
  // Odometer over a then b.
  std::function<bool(size_t)> rec = [&](size_t k) -> bool {
    if (k == 2 * n) {
      bool differ = false;
      for (size_t i = 0; i < n; ++i) {
        if (shared[i] && a[i] != b[i])
          return false;
        if (mustDiffer[i] && a[i] != b[i])
          differ = true;
      }
      if (!differ)
        return false;
      __int128 o1 = eval(x, a), o2 = eval(y, b);
      return o1 < o2 + __int128(yb) && o2 < o1 + __int128(xb);
    }
    std::vector<int64_t> &v = k < n ? a : b;
    size_t i = k < n ? k : k - n;
    for (int64_t val = 0; val < vars[i].second; ++val) {
      v[i] = val;
      if (rec(k + 1))
        return true;
    }
    return false;
  };
  return rec(0);
}

TEST(ThreadLinear, DisjointnessAgreesWithBruteForce) {
  TermContext T;
  Term u = T.bvVar("tid.x", 32), v = T.bvVar("tid.y", 32),
       c = T.bvVar("ctaid.x", 32);
  std::mt19937_64 rng(7);
  unsigned decided = 0, trials = 4000;
  for (unsigned trial = 0; trial < trials; ++trial) {
    std::vector<std::pair<Term, int64_t>> vars{{u, int64_t(1 + rng() % 6)},
                                               {v, int64_t(1 + rng() % 3)},
                                               {c, int64_t(1 + rng() % 3)}};
    VarExtents ext;
    for (auto &[var, e] : vars)
      ext[var] = e;
    auto coeff = [&]() -> __int128 {
      static const int64_t pool[] = {0, 1, 2, 4, 8, 12, 16, 24, 32, 64, -4};
      return pool[rng() % 11];
    };
    LinearForm x, y;
    x.c0 = int64_t(rng() % 40);
    y.c0 = int64_t(rng() % 40);
    bool sameLayout = rng() % 2;
    for (auto &[var, e] : vars) {
      __int128 k = coeff();
      x.coeffs[var] = k;
      y.coeffs[var] = sameLayout ? k : coeff();
    }
    uint64_t xb = 1 + rng() % 8, yb = 1 + rng() % 8;
    bool sameCta = rng() % 2;
    std::vector<bool> shared{false, false, sameCta},
        mustDiffer{sameCta, sameCta, !sameCta};
    llvm::SmallVector<Term> sharedVars, differVars;
    if (sameCta) {
      sharedVars.push_back(c);
      differVars = {u, v};
    } else {
      differVars = {c};
    }
    bool disjoint =
        disjointForDistinctThreads(x, xb, y, yb, ext, sharedVars, differVars);
    if (disjoint) {
      ++decided;
      ASSERT_FALSE(overlapExists(x, xb, y, yb, vars, shared, mustDiffer))
          << "trial " << trial << ": decided disjoint, but an overlap exists";
    }
  }
  // The decision is not vacuous: it answers a good share of them.
  EXPECT_GT(decided, trials / 5);
}

TEST(ThreadLinear, TileStoresOfDistinctThreadsAreDisjoint) {
  // A row of D = 128 floats per thread (offset 512 tid + 4 c), 16 threads,
  // 8 CTAs: two threads' stores of columns c and c' never overlap, for
  // c == c' too (mixed radix over 2048 ctaid + 512 tid... as one layout).
  Fixture f;
  for (int c : {0, 5}) {
    for (int c2 : {0, 5, 127}) {
      LinearForm x, y;
      x.c0 = 4 * c;
      y.c0 = 4 * c2;
      x.coeffs[f.tid] = y.coeffs[f.tid] = 512;
      x.coeffs[f.cta] = y.coeffs[f.cta] = 8192;
      VarExtents ext{{f.tid, 16}, {f.cta, 8}};
      EXPECT_TRUE(
          disjointForDistinctThreads(x, 4, y, 4, ext, {f.cta}, {f.tid}));
      EXPECT_TRUE(disjointForDistinctThreads(x, 4, y, 4, ext, {}, {f.cta}));
    }
  }
  // Not when the layout leaves out a thread id the threads may differ in
  // (tid.y): both threads of one column write one element.
  LinearForm x;
  x.coeffs[f.tid] = 4;
  VarExtents ext{{f.tid, 16}, {f.tidy, 4}};
  EXPECT_FALSE(
      disjointForDistinctThreads(x, 4, x, 4, ext, {}, {f.tid, f.tidy}));
  // Nor when the coefficients are not mixed radix (4 tid + 8 tid.y with
  // tid < 16: thread (2, 0) and (0, 1) write one element).
  x.coeffs[f.tidy] = 8;
  EXPECT_FALSE(
      disjointForDistinctThreads(x, 4, x, 4, ext, {}, {f.tid, f.tidy}));
}

} // namespace
