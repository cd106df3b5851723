//===- VerdictTest.cpp - the verdict's report of a counterexample ---------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Verdict::listInputs, elementIndex, shaped and print: inputs in a fixed
// order (scalars, then each buffer's elements in index order, its default
// last), indices by the contract's shape, runs of equal elements on one
// line.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Check/EquivalenceChecker.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

/// A REFUTED verdict over x: f32[2, 8] (in) and y: f32[2, 8] (out), with
/// x[0..5] = 0, x[6] = 1, x[9] = -1, every other x 2, and n = 3.
Verdict sample() {
  Verdict v;
  v.kind = VerdictKind::Refuted;
  v.launch = "grid (1, 1, 1) x block (16, 1, 1)";
  v.buffers = {{"x", "in", "f32", {"2", "8"}}, {"y", "out", "f32", {"2", "8"}}};
  Counterexample c;
  c.property = "value mismatch at y[9]";
  c.outputBuffer = "y";
  c.outputIndex = 9;
  for (uint64_t i = 0; i < 6; ++i)
    c.inputs.elements["x"][i] = Rational(0);
  c.inputs.elements["x"][6] = Rational(1);
  c.inputs.elements["x"][9] = Rational(-1);
  c.inputs.elementDefaults["x"] = Rational(2);
  c.inputs.bitvectors["n"] = llvm::APInt(32, 3);
  v.counterexample = c;
  return v;
}

TEST(Verdict, InputsInIndexOrderWithShapedIndices) {
  Verdict v = sample();
  std::vector<Verdict::InputEntry> in = v.listInputs(/*compact=*/false);
  ASSERT_EQ(in.size(), 10u);
  EXPECT_EQ(in[0].name, "n");
  EXPECT_EQ(in[1].name, "x[0, 0]");
  EXPECT_EQ(in[7].name, "x[0, 6]");
  EXPECT_EQ(in[8].name, "x[1, 1]");
  EXPECT_EQ(in[8].index, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(in[8].value, "-1");
  EXPECT_EQ(in[9].name, "x[others]");
  EXPECT_TRUE(in[9].others);
  EXPECT_EQ(v.elementIndex("y", 9), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(v.property(), "value mismatch at y[1, 1] (row-major 9)");
  // Only whole names of multi-dimensional buffers are rewritten.
  EXPECT_EQ(v.shaped("kernel y[9], xy[9], y[x]"),
            "kernel y[1, 1] (row-major 9), xy[9], y[x]");
}

TEST(Verdict, RunsOfEqualElementsPrintOnOneLine) {
  Verdict v = sample();
  std::string text;
  llvm::raw_string_ostream os(text);
  v.print(os);
  EXPECT_NE(text.find("  x[0, 0] .. x[0, 5] = 0 (6 elements)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  x[0, 6] = 1\n  x[1, 1] = -1\n  x[others] = 2\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ERROR: value mismatch at y[1, 1] (row-major 9)"),
            std::string::npos)
      << text;
}

TEST(Verdict, AFlatIndexWhenAnExtentHasNoValue) {
  Verdict v = sample();
  v.buffers[0].dims = {"2", "m"}; // m: no value in the counterexample
  EXPECT_EQ(v.elementIndex("x", 9), (std::vector<int64_t>{9}));
  v.buffers[0].dims = {"2", "n"}; // n = 3 in the counterexample
  EXPECT_EQ(v.elementIndex("x", 5), (std::vector<int64_t>{1, 2}));
  // Past the extents (2 x 3): the flat index.
  EXPECT_EQ(v.elementIndex("x", 9), (std::vector<int64_t>{9}));
}

} // namespace
