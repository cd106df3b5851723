//===- IndexShiftTest.cpp - terms that differ by shifted indices ----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// antiUnifyByIndexShift builds the template of a row of unrolled stores,
// and equalUpToIndexForms checks each store against its instance: a wrong
// "equal" there would let one proof stand for a store it does not cover.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/IndexShift.h"

#include <gtest/gtest.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

struct Fixture {
  TermContext T;
  Term tid = T.bvVar("tid.x", 32);
  Term k = T.bvVar("k.column0", 32);
  Fixture() { T.setUpperBound("tid.x", 15); }
  Term c64(uint64_t v) { return T.bv(v, 64); }
  /// Byte offset 64 tid + 4 c as nvcc spells it, then the element index.
  Term element(uint64_t c) {
    Term x = T.bvBin(Kind::BVShl,
                     T.bvBin(Kind::BVMul, T.bvSExt(tid, 64), c64(16)), c64(2));
    if (c)
      x = T.bvBin(Kind::BVAdd, x, c64(4 * c));
    return T.bvBin(Kind::BVUDiv, x, c64(4));
  }
  /// A value reading V at column c of two rows: V[16 + c] * exp(s) + V[c].
  Term value(uint64_t c) {
    Term s = T.realVar("s");
    return T.add(
        {T.mul({T.element("V", T.bvBin(Kind::BVAdd, element(c), c64(16))),
                T.exp(s)}),
         T.element("V", element(c))});
  }
};

TEST(IndexShift, TemplateOfARowCoversEachColumn) {
  Fixture f;
  Term tmpl = antiUnifyByIndexShift(f.T, f.value(0), f.value(1), f.k);
  ASSERT_TRUE(tmpl);
  llvm::DenseMap<std::pair<Term, Term>, bool> memo;
  for (uint64_t c = 0; c < 8; ++c) {
    llvm::DenseMap<Term, Term> at{{f.k, f.T.bv(c, 32)}};
    EXPECT_TRUE(
        equalUpToIndexForms(f.T, f.T.substitute(tmpl, at), f.value(c), memo))
        << "column " << c;
  }
  // Not another column's value.
  llvm::DenseMap<Term, Term> at2{{f.k, f.T.bv(2, 32)}};
  EXPECT_FALSE(
      equalUpToIndexForms(f.T, f.T.substitute(tmpl, at2), f.value(3), memo));
}

TEST(IndexShift, RealLeavesThatDifferHaveNoTemplate) {
  Fixture f;
  Term a = f.T.add({f.T.realVar("x"), f.T.element("V", f.element(0))});
  Term b = f.T.add({f.T.realVar("y"), f.T.element("V", f.element(1))});
  EXPECT_FALSE(antiUnifyByIndexShift(f.T, a, b, f.k));
  // Nor indices whose difference is not constant (a row, not a column).
  Term r =
      f.T.element("V", f.T.bvBin(Kind::BVMul, f.T.bvZExt(f.tid, 64), f.c64(2)));
  EXPECT_FALSE(antiUnifyByIndexShift(
      f.T, f.T.element("V", f.T.bvZExt(f.tid, 64)), r, f.k));
}

TEST(IndexShift, EqualityNeedsEqualLeaves) {
  Fixture f;
  llvm::DenseMap<std::pair<Term, Term>, bool> memo;
  Term x = f.T.realVar("x"), y = f.T.realVar("y");
  EXPECT_FALSE(equalUpToIndexForms(f.T, x, y, memo));
  EXPECT_FALSE(equalUpToIndexForms(f.T, f.T.exp(x), f.T.exp(y), memo));
  // Index terms spelled differently but equal within the bounds.
  Term a = f.T.element("V", f.element(3));
  Term b = f.T.element(
      "V", f.T.bvBin(Kind::BVAdd,
                     f.T.bvBin(Kind::BVMul, f.T.bvZExt(f.tid, 64), f.c64(16)),
                     f.c64(3)));
  EXPECT_TRUE(equalUpToIndexForms(f.T, a, b, memo));
}

} // namespace
namespace {
TEST(IndexShift, ConstantIndices) {
  Fixture f;
  Term s = f.T.exp(f.T.realVar("s"));
  Term a = f.T.mul({s, f.T.element("V", f.c64(0))});
  Term b = f.T.mul({f.T.element("V", f.c64(1)), s});
  Term tmpl = antiUnifyByIndexShift(f.T, a, b, f.k);
  ASSERT_TRUE(tmpl);
}
} // namespace
