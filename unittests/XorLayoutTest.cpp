//===- XorLayoutTest.cpp - tests of invertXorLayout -----------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// invertXorLayout recovers the writer thread of a byte of an XOR-swizzled
// shared layout. Each witness is checked the way the engine uses it: for
// every thread (tx, ty) of the launch, substituting the witness of that
// thread's own address gives back (tx, ty). Layouts that are not injective,
// or have carries, are refused.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Term.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

struct Layout {
  TermContext T;
  Term tx = T.bvVar("tid.x", 32), ty = T.bvVar("tid.y", 32);
  Term c(uint64_t v) { return T.bv(v, 32); }
  Term bin(Kind k, Term a, Term b) { return T.bvBin(k, a, b); }
  /// Whether the witness of every thread's own address is that thread.
  bool roundTrips(Term offset, int64_t ex, int64_t ey) {
    Term a = T.bvVar("a", offset->getWidth());
    llvm::DenseMap<Term, Term> sigma;
    std::vector<std::pair<Term, int64_t>> ids{{tx, ex}, {ty, ey}};
    if (!invertXorLayout(T, offset, a, ids, sigma))
      return false;
    for (int64_t y = 0; y < ey; ++y)
      for (int64_t x = 0; x < ex; ++x) {
        llvm::DenseMap<Term, Term> at{{tx, c(x)}, {ty, c(y)}};
        Term addr = T.substitute(offset, at);
        llvm::DenseMap<Term, Term> read{{a, addr}};
        Term wx = T.substitute(sigma[tx], read);
        Term wy = T.substitute(sigma[ty], read);
        if (wx != c(x) || wy != c(y))
          return false;
      }
    return true;
  }
};

TEST(XorLayout, SwizzledTileRoundTrips) {
  // tile[r][tx ^ r] with r = ty + 8 (a second unrolled row), 4-byte
  // elements: ((r * 32) + (tx ^ r)) * 4 for a 32x8 block.
  Layout L;
  Term r = L.bin(Kind::BVAdd, L.ty, L.c(8));
  Term off = L.bin(Kind::BVMul,
                   L.bin(Kind::BVAdd, L.bin(Kind::BVMul, r, L.c(32)),
                         L.bin(Kind::BVXor, L.tx, r)),
                   L.c(4));
  EXPECT_TRUE(L.roundTrips(off, 32, 8));
}

TEST(XorLayout, TritonStyleMasksAndSignExtendedBit) {
  // ((t << 4) & 368) ^ (sext(bit 3 of t) & 144): Triton's A-tile layout.
  Layout L;
  Term hi = L.bin(Kind::BVAnd, L.bin(Kind::BVShl, L.tx, L.c(4)), L.c(368));
  Term bit3 = L.bin(Kind::BVAShr, L.bin(Kind::BVShl, L.tx, L.c(28)), L.c(31));
  Term off = L.bin(Kind::BVXor, hi, L.bin(Kind::BVAnd, bit3, L.c(144)));
  EXPECT_TRUE(L.roundTrips(off, 32, 1));
}

TEST(XorLayout, NonInjectiveAndCarriesAreRefused) {
  Layout L;
  Term a = L.T.bvVar("a", 32);
  std::vector<std::pair<Term, int64_t>> ids{{L.tx, 32}, {L.ty, 1}};
  llvm::DenseMap<Term, Term> sigma;
  // tx & 15: threads tx and tx + 16 write the same byte.
  EXPECT_FALSE(
      invertXorLayout(L.T, L.bin(Kind::BVAnd, L.tx, L.c(15)), a, ids, sigma));
  // tx + (tx << 2): overlapping bits, a carry.
  EXPECT_FALSE(invertXorLayout(
      L.T, L.bin(Kind::BVAdd, L.tx, L.bin(Kind::BVShl, L.tx, L.c(2))), a, ids,
      sigma));
  // A non-constant mask.
  EXPECT_FALSE(
      invertXorLayout(L.T, L.bin(Kind::BVAnd, L.tx, L.ty), a, ids, sigma));
}

} // namespace
