//===- RefSpecTest.cpp - tests of reference-kernel specs, element-wise ----===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The lowering of spec form (c), a reference kernel: element at a concrete
// and at a symbolic index, the ite over the paths of a data-dependent
// branch, the inverted layout of a multi-thread reference, and the reasons
// and errors when the reference does not define the output.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Specs/Spec.h"
#include "KProof/Verifier/Terms/Normalizer.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <deque>

using namespace mlir;
using namespace ::kproof::engine;

namespace {

/// Parses reference kernels and one kproof.contract over buffers x (in,
/// f32[n]) and y (out, f32[m]) and builds its spec, binding params the way
/// the checker does.
struct Fixture {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  kproof::ContractOp contract;
  std::deque<BufferBinding> buffers;
  SpecEnvironment env;
  TermContext T;
  Normalizer N{T};
  std::string diagnostics;
  std::unique_ptr<ScopedDiagnosticHandler> handler;

  Fixture() {
    DialectRegistry registry;
    registry.insert<kproof::KProofDialect, cf::ControlFlowDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    handler =
        std::make_unique<ScopedDiagnosticHandler>(&ctx, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        });
  }

  std::unique_ptr<Spec> build(const std::string &kernels, int64_t n, int64_t m,
                              const std::string &spec) {
    std::string text =
        kernels +
        "\nkproof.contract @c {kernel = \"k\", grid = array<i64: 1, 1, 1>, "
        "block = array<i64: 1, 1, 1>, params = ["
        "{name = \"x\", buffer = \"in\", type = f32, shape = array<i64: " +
        std::to_string(n) +
        ">}, {name = \"y\", buffer = \"out\", type = f32, shape = "
        "array<i64: " +
        std::to_string(m) + ">}], spec = " + spec + "}\n";
    module = parseSourceString<ModuleOp>(text, &ctx);
    if (!module)
      return nullptr;
    module->walk([&](kproof::ContractOp c) { contract = c; });
    for (auto [name, role, extent] :
         {std::tuple{"x", BufferBinding::Role::In, n},
          std::tuple{"y", BufferBinding::Role::Out, m}}) {
      BufferBinding b;
      b.name = name;
      b.role = role;
      b.elemType = Float32Type::get(&ctx);
      b.shape = {extent};
      buffers.push_back(b);
      env.buffers[name] = &buffers.back();
    }
    return buildSpec(contract, contract.getSpecAttr(), env);
  }

  Term idx(uint64_t i) { return T.bv(i, 64); }
  Term x(uint64_t i) { return T.element("x", idx(i)); }
  Term at(Spec &s, Term index) {
    std::string why;
    Term t = s.element(T, index, why);
    EXPECT_TRUE(t) << why;
    return t;
  }
  Term at(Spec &s, uint64_t i) { return at(s, idx(i)); }
  /// `t` with the index variable `i` set to k.
  Term atIndex(Term t, Term i, uint64_t k) {
    llvm::DenseMap<Term, Term> m;
    m[i] = idx(k);
    return T.substitute(t, m);
  }
};

/// y[k] = x[3 - k], one thread, four stores.
const char *kReverse = R"(
kproof.kernel entry @rev(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %c = kproof.ld global %x {offset = 8 : i64} : i64 -> f32
  %d = kproof.ld global %x {offset = 12 : i64} : i64 -> f32
  kproof.st global %y, %d : i64, f32
  kproof.st global %y, %c {offset = 4 : i64} : i64, f32
  kproof.st global %y, %b {offset = 8 : i64} : i64, f32
  kproof.st global %y, %a {offset = 12 : i64} : i64, f32
  kproof.return
})";

TEST(RefSpec, OneThreadElementAtConcreteIndex) {
  Fixture F;
  auto spec = F.build(kReverse, 4, 4,
                      R"({reference = "rev", params = ["x", "y"], output = "y"})");
  ASSERT_TRUE(spec) << F.diagnostics;
  EXPECT_EQ(spec->describe(), "reference rev(x, y) -> y");
  // The very input terms of the checker's context: pointer-equal.
  for (uint64_t k = 0; k < 4; ++k)
    EXPECT_EQ(F.at(*spec, k), F.x(3 - k)) << k;
  // Outside the output: no element, with a reason.
  std::string why;
  EXPECT_EQ(spec->element(F.T, F.idx(4), why), nullptr);
  EXPECT_NE(why.find("outside 'y'"), std::string::npos) << why;
}

TEST(RefSpec, OneThreadElementAtSymbolicIndexIsLifted) {
  Fixture F;
  auto spec = F.build(kReverse, 4, 4, R"({reference = "rev", output = "y"})");
  ASSERT_TRUE(spec) << F.diagnostics;
  Term i = F.T.bvVar("i", 64);
  Term e = F.at(*spec, i);
  ASSERT_TRUE(e);
  // x[3 - i] as one Select (the affine family), not an ite over elements.
  EXPECT_EQ(e->getKind(), Kind::Select) << e->toString();
  for (uint64_t k = 0; k < 4; ++k)
    EXPECT_EQ(F.atIndex(e, i, k), F.x(3 - k)) << k;
}

TEST(RefSpec, OneThreadSymbolicIndexFallsBackToIteChain) {
  // y = (x[0], x[3], x[1], x[2]): no affine family; an ite chain.
  Fixture F;
  auto spec = F.build(R"(
kproof.kernel entry @shuffle(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %c = kproof.ld global %x {offset = 8 : i64} : i64 -> f32
  %d = kproof.ld global %x {offset = 12 : i64} : i64 -> f32
  kproof.st global %y, %a : i64, f32
  kproof.st global %y, %d {offset = 4 : i64} : i64, f32
  kproof.st global %y, %b {offset = 8 : i64} : i64, f32
  kproof.st global %y, %c {offset = 12 : i64} : i64, f32
  kproof.return
})",
                      4, 4, R"({reference = "shuffle", output = "y"})");
  ASSERT_TRUE(spec) << F.diagnostics;
  Term i = F.T.bvVar("i", 64);
  Term e = F.at(*spec, i);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->getKind(), Kind::Ite) << e->toString();
  const uint64_t expected[] = {0, 3, 1, 2};
  for (uint64_t k = 0; k < 4; ++k)
    EXPECT_EQ(F.atIndex(e, i, k), F.x(expected[k])) << k;
}

/// y[0] = max(x[0], x[1]) by a data-dependent branch: two paths.
const char *kBranchMax = R"(
kproof.kernel entry @bmax(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %p = kproof.cmp gt %a, %b : f32
  cf.cond_br %p, ^bigger, ^smaller
^bigger:
  kproof.st global %y, %a : i64, f32
  kproof.return
^smaller:
  kproof.st global %y, %b : i64, f32
  kproof.return
})";

TEST(RefSpec, PathsCombineAsIteOverPathConditions) {
  Fixture F;
  auto spec = F.build(kBranchMax, 2, 1, R"({reference = "bmax", output = "y"})");
  ASSERT_TRUE(spec) << F.diagnostics;
  Term e = F.at(*spec, uint64_t(0));
  ASSERT_TRUE(e);
  ASSERT_EQ(e->getKind(), Kind::Ite) << e->toString();
  // Its value at concrete inputs: the larger one, on either path.
  auto value = [&](int64_t a, int64_t b) {
    llvm::DenseMap<Term, Term> m;
    m[F.x(0)] = F.T.real(a);
    m[F.x(1)] = F.T.real(b);
    return F.T.substitute(e, m);
  };
  EXPECT_EQ(value(3, 5), F.T.real(5));
  EXPECT_EQ(value(5, 3), F.T.real(5));
  EXPECT_EQ(value(-2, -7), F.T.real(-2));
  // The same element at a symbolic index of a 1-element output.
  Term i = F.T.bvVar("i", 64);
  EXPECT_EQ(F.atIndex(F.at(*spec, i), i, 0), e);
}

TEST(RefSpec, ElementMissingOnOnePathIsAReason) {
  Fixture F;
  auto spec = F.build(R"(
kproof.kernel entry @half(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %p = kproof.cmp gt %a, %b : f32
  cf.cond_br %p, ^store, ^done
^store:
  kproof.st global %y, %a : i64, f32
  kproof.return
^done:
  kproof.return
})",
                      2, 1, R"({reference = "half", output = "y"})");
  ASSERT_TRUE(spec) << F.diagnostics;
  std::string why;
  EXPECT_EQ(spec->element(F.T, F.idx(0), why), nullptr);
  EXPECT_NE(why.find("does not write y[0] on the path"), std::string::npos)
      << why;
}

/// y[tid.x] = x[tid.x] * 2 + 1, a reference of 4 threads.
const char *kThreads = R"(
kproof.kernel entry @affine(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %four = kproof.constant 4 : i32
  %off = kproof.mul_wide %t, %four : i32 -> i64
  %xa = kproof.ibin add %x, %off : i64
  %v = kproof.ld global %xa : i64 -> f32
  %two = kproof.constant 2.0 : f32
  %one = kproof.constant 1.0 : f32
  %w = kproof.fma %v, %two, %one mode rn : f32
  %ya = kproof.ibin add %y, %off : i64
  kproof.st global %ya, %w : i64, f32
  kproof.return
})";

TEST(RefSpec, MultiThreadReferenceByInvertedLayout) {
  Fixture F;
  auto spec = F.build(kThreads, 4, 4,
                      R"({reference = "affine", output = "y",
                          block = array<i64: 4, 1, 1>})");
  ASSERT_TRUE(spec) << F.diagnostics;
  auto expected = [&](Term xe) {
    return F.T.add(F.T.mul(xe, F.T.real(2)), F.T.real(1));
  };
  // Concrete element: the witness thread tid.x = 2, folded.
  Term e2 = F.at(*spec, 2);
  ASSERT_TRUE(e2);
  EXPECT_TRUE(F.N.provesEqual(e2, expected(F.x(2)))) << e2->toString();
  // Symbolic element: the store's value at the witness thread tid.x = i.
  Term i = F.T.bvVar("i", 64);
  Term e = F.at(*spec, i);
  ASSERT_TRUE(e);
  for (uint64_t k = 0; k < 4; ++k)
    EXPECT_TRUE(F.N.provesEqual(F.atIndex(e, i, k), expected(F.x(k)))) << k;
  // No thread variable of the reference is left.
  std::function<bool(Term)> hasTid = [&](Term t) {
    if (t->getKind() == Kind::BVVar && t->getName().starts_with("tid."))
      return true;
    return llvm::any_of(t->getOperands(), hasTid);
  };
  EXPECT_FALSE(hasTid(e)) << e->toString();
}

TEST(RefSpec, MultiThreadReferenceMustCoverTheOutput) {
  // Two threads for four elements: elements 2 and 3 have no writer.
  Fixture F;
  auto spec = F.build(kThreads, 4, 4,
                      R"({reference = "affine", output = "y",
                          block = array<i64: 2, 1, 1>})");
  ASSERT_TRUE(spec) << F.diagnostics;
  std::string why;
  EXPECT_EQ(spec->element(F.T, F.idx(0), why), nullptr);
  EXPECT_NE(why.find("does not write every element of 'y'"),
            std::string::npos)
      << why;
}

TEST(RefSpec, BindingErrorsAreDiagnosed) {
  {
    Fixture F;
    EXPECT_FALSE(F.build(kReverse, 4, 4,
                         R"({reference = "nope", output = "y"})"));
    EXPECT_NE(F.diagnostics.find("no reference kernel (.entry with a body) "
                                 "named 'nope' in the contract's module"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    Fixture F;
    EXPECT_FALSE(F.build(kReverse, 4, 4,
                         R"({reference = "rev", params = ["x"], output = "y"})"));
    EXPECT_NE(F.diagnostics.find("has 2 parameter(s) but the spec binds 1"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    Fixture F;
    EXPECT_FALSE(F.build(kReverse, 4, 4,
                         R"({reference = "rev", params = ["x", "z"], output = "y"})"));
    EXPECT_NE(F.diagnostics.find("reference param #1 'z' is not a param"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    // Writing x, an input: an error even though y is written too.
    Fixture F;
    EXPECT_FALSE(F.build(R"(
kproof.kernel entry @clobber(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  kproof.st global %y, %a : i64, f32
  kproof.st global %x, %a : i64, f32
  kproof.return
})",
                         1, 1, R"({reference = "clobber", output = "y"})"));
    EXPECT_NE(F.diagnostics.find("must not write its inputs: store to input "
                                 "buffer 'x'"),
              std::string::npos)
        << F.diagnostics;
  }
}

} // namespace
