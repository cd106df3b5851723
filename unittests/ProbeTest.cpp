//===- ProbeTest.cpp - tests of the random input sampler ------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Check/Probe.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Evaluate.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <set>

using namespace kproof;
using namespace kproof::engine;

namespace {

std::string text(const Assignment &a) {
  std::string s;
  for (auto &[n, v] : a.reals)
    s += n + "=" + v.toString() + ";";
  for (auto &[n, v] : a.bitvectors)
    s += n + "=" + llvm::toString(v, 10, false) + ";";
  for (auto &[n, v] : a.bools)
    s += n + "=" + (v ? "1" : "0") + ";";
  for (auto &[b, es] : a.elements)
    for (auto &[i, v] : es)
      s += b + "[" + std::to_string(i) + "]=" + v.toString() + ";";
  return s;
}

/// The same seed gives the same draws; another seed other draws.
TEST(InputSampler, DeterministicPerSeed) {
  TermContext T;
  Term x = T.realVar("x"), y = T.realVar("y");
  Term v = T.add(T.mul(x, y), T.exp(x));
  std::string a, b, c;
  {
    InputSampler s(T, 42);
    for (unsigned k = 0; k < 8; ++k)
      a += text(s.draw({v}, {}, k)) + "|";
  }
  {
    InputSampler s(T, 42);
    for (unsigned k = 0; k < 8; ++k)
      b += text(s.draw({v}, {}, k)) + "|";
  }
  {
    InputSampler s(T, 43);
    for (unsigned k = 0; k < 8; ++k)
      c += text(s.draw({v}, {}, k)) + "|";
  }
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

/// Reals are small: round 0 in {-2, ..., 2}, later rounds in [-4, 4] with
/// denominators dividing 4.
TEST(InputSampler, RealsAreSmallBinaryFractions) {
  TermContext T;
  Term x = T.realVar("x");
  InputSampler s(T, 7);
  for (unsigned k = 0; k < 64; ++k) {
    Assignment a = s.draw({x}, {}, k);
    ASSERT_EQ(a.reals.count("x"), 1u);
    Rational v = a.reals["x"];
    Rational lo(k == 0 ? -2 : -4), hi(k == 0 ? 2 : 4);
    EXPECT_FALSE(v < lo) << v.toString();
    EXPECT_FALSE(hi < v) << v.toString();
    Rational scaled = v * Rational(4);
    EXPECT_TRUE(scaled.isInteger()) << v.toString();
  }
}

/// A thread id is drawn below its declared bound and within the bounds its
/// path condition states (here 3 <= tid.x < 9 over 32 threads).
TEST(InputSampler, BitVectorsRespectBoundsOfThePathCondition) {
  TermContext T;
  T.setUpperBound("tid.x", 31);
  Term tid = T.bvVar("tid.x", 32);
  Term pc = T.andOf(T.bvUlt(tid, T.bv(9, 32)),
                    T.notOf(T.bvUlt(tid, T.bv(3, 32))));
  InputSampler s(T, 1);
  std::set<uint64_t> seen;
  for (unsigned k = 0; k < 64; ++k) {
    Assignment a = s.draw({tid}, {pc}, k);
    uint64_t v = a.bitvectors.at("tid.x").getZExtValue();
    EXPECT_GE(v, 3u);
    EXPECT_LT(v, 9u);
    seen.insert(v);
    Evaluator ev(a);
    EXPECT_EQ(ev.boolean(pc), Truth::True);
  }
  EXPECT_GT(seen.size(), 3u); // uniform over the range, not one value
  // Without a stated bound, the declared one: tid.x <= 31.
  for (unsigned k = 0; k < 64; ++k)
    EXPECT_LE(s.draw({tid}, {}, k).bitvectors.at("tid.x").getZExtValue(),
              31u);
}

/// An equality with a drawn variable fixes the other side (the second
/// thread of a pair shares the first one's warp).
TEST(InputSampler, EqualityWithADrawnVariable) {
  TermContext T;
  T.setUpperBound("a", 1000);
  Term a = T.bvVar("a", 32), b = T.bvVar("b", 32);
  Term pc = T.eq(b, a);
  InputSampler s(T, 5);
  for (unsigned k = 0; k < 16; ++k) {
    Assignment m = s.draw({a, b}, {pc}, k);
    EXPECT_EQ(m.bitvectors.at("a"), m.bitvectors.at("b"));
  }
}

/// An index table read first, then the element it selects: both drawn, the
/// table's entries within the contract's range; the non-finite flag is
/// always false.
TEST(InputSampler, IndexTablesThenElements) {
  TermContext T;
  T.setUpperBound("tid.x", 7);
  Term tid = T.bvZExt(T.bvVar("tid.x", 32), 64);
  Term id = T.intElement("idx", tid, 32);
  Term x = T.element("x", T.bvZExt(id, 64));
  Term flag = T.boolVar(nonFiniteFlag());
  InputSampler s(T, 9);
  s.setIntRange("idx", 10, 20);
  for (unsigned k = 0; k < 32; ++k) {
    Assignment m = s.draw({x, flag}, {}, k);
    uint64_t t = m.bitvectors.at("tid.x").getZExtValue();
    std::optional<llvm::APInt> i = m.intElement("idx", t);
    ASSERT_TRUE(i);
    EXPECT_GE(i->getSExtValue(), 10);
    EXPECT_LT(i->getSExtValue(), 20);
    ASSERT_TRUE(m.elements.count("x"));
    EXPECT_TRUE(m.elements["x"].count(i->getZExtValue()));
    EXPECT_FALSE(m.bools.at(nonFiniteFlag().str()));
    Evaluator ev(m);
    EXPECT_TRUE(ev.real(x)) << ev.getError();
  }
}

} // namespace
