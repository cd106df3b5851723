//===- FuncSpecTest.cpp - tests of func.func specs, element-wise ----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Normalizer.h"
#include "KProof/Verifier/Spec.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <deque>

using namespace mlir;
using namespace ::kproof::engine;

namespace {

/// Parses a module with one kproof.contract (and its spec function), binds
/// its params the way the checker does, and builds specs.
struct Fixture {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  mlir::kproof::ContractOp contract;
  std::deque<BufferBinding> buffers;
  SpecEnvironment env;
  TermContext T;
  Normalizer N{T};
  std::string diagnostics;
  std::unique_ptr<ScopedDiagnosticHandler> handler;

  Fixture() {
    DialectRegistry registry;
    registry.insert<mlir::kproof::KProofDialect, func::FuncDialect,
                    arith::ArithDialect, math::MathDialect,
                    tensor::TensorDialect, linalg::LinalgDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    handler =
        std::make_unique<ScopedDiagnosticHandler>(&ctx, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        });
  }

  /// `params` is the text of the contract's params list, `spec` of its spec
  /// dictionary, `funcs` the spec function(s).
  bool parse(const std::string &funcs, const std::string &params,
             const std::string &spec) {
    std::string text = funcs +
                       "\nkproof.contract @c {kernel = \"k\", "
                       "grid = array<i64: 1, 1, 1>, "
                       "block = array<i64: 1, 1, 1>, params = [" +
                       params + "], spec = " + spec + ", mode = \"reals\"}\n";
    module = parseSourceString<ModuleOp>(text, &ctx);
    if (!module)
      return false;
    module->walk([&](mlir::kproof::ContractOp c) { contract = c; });
    if (!contract)
      return false;
    for (Attribute a : contract.getParams()) {
      auto d = cast<DictionaryAttr>(a);
      std::string name = d.getAs<StringAttr>("name").getValue().str();
      if (auto role = d.getAs<StringAttr>("buffer")) {
        BufferBinding b;
        b.name = name;
        b.role = role.getValue() == "in"    ? BufferBinding::Role::In
                 : role.getValue() == "out" ? BufferBinding::Role::Out
                                            : BufferBinding::Role::InOut;
        b.elemType = d.getAs<TypeAttr>("type").getValue();
        auto shape = d.getAs<DenseI64ArrayAttr>("shape").asArrayRef();
        b.shape.assign(shape.begin(), shape.end());
        buffers.push_back(b);
        env.buffers[name] = &buffers.back();
      } else {
        Type t = d.getAs<TypeAttr>("scalar").getValue();
        env.scalars[name] = isa<FloatType>(t)
                                ? T.realVar(name)
                                : T.bvVar(name, t.getIntOrFloatBitWidth());
      }
    }
    return true;
  }

  std::unique_ptr<Spec> build() {
    return buildSpec(contract, contract.getSpec(), env);
  }
  std::unique_ptr<Spec> buildBuiltin(StringRef builtin, StringRef in,
                                     StringRef out) {
    Builder b(&ctx);
    auto dict = b.getDictionaryAttr(
        {b.getNamedAttr("builtin", b.getStringAttr(builtin)),
         b.getNamedAttr("input", b.getStringAttr(in)),
         b.getNamedAttr("output", b.getStringAttr(out))});
    return buildSpec(contract, dict, env);
  }

  Term idx(uint64_t i) { return T.bv(i, 64); }
  Term x(StringRef buf, uint64_t i) { return T.element(buf, idx(i)); }
  Term at(Spec &s, Term index) {
    std::string why;
    Term t = s.element(T, index, why);
    EXPECT_TRUE(t) << why;
    return t;
  }
  Term at(Spec &s, uint64_t i) { return at(s, idx(i)); }
};

const char *kBuf = "{name = \"%s\", buffer = \"%s\", space = \"global\", "
                   "type = %s, shape = array<i64: %s>}";

std::string buf(const char *name, const char *role, const char *type,
                const char *shape) {
  char out[256];
  snprintf(out, sizeof out, kBuf, name, role, type, shape);
  return out;
}

TEST(FuncSpec, ElementwiseExpOfScaledInput) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %s, %a : f32
    %v = math.exp %m : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
})",
                      buf("x", "in", "f32", "4") +
                          ", {name = \"s\", scalar = f32}, " +
                          buf("y", "out", "f32", "4"),
                      R"({func = @f, inputs = ["x", "s"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  EXPECT_EQ(spec->output().name, "y");
  Term s = F.env.scalars["s"];
  for (uint64_t i = 0; i < 4; ++i) {
    Term want = F.T.exp(F.T.mul(s, F.x("x", i)));
    Term got = F.at(*spec, i);
    EXPECT_TRUE(F.N.provesEqual(got, want)) << got << " vs " << want;
  }
  // A symbolic index reads x at that same index.
  Term i = F.T.bvVar("i", 64);
  Term want = F.T.exp(F.T.mul(s, F.T.element("x", i)));
  EXPECT_EQ(F.at(*spec, i), want);
}

TEST(FuncSpec, CausalMaskWithLinalgIndex) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ule, %j, %i : index
    %v = arith.select %ok, %a, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
})",
                      buf("x", "in", "f32", "4, 4") + ", " +
                          buf("y", "out", "f32", "4, 4"),
                      R"({func = @f, inputs = ["x"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  for (uint64_t r = 0; r < 4; ++r)
    for (uint64_t c = 0; c < 4; ++c) {
      Term got = F.at(*spec, r * 4 + c);
      if (c <= r)
        EXPECT_EQ(got, F.x("x", r * 4 + c));
      else
        EXPECT_EQ(got, F.T.negInf());
    }
  // Symbolic: ite(col <= row, x[i], -inf) would be infinite on some
  // indices only, which the reals model does not represent (Term.h): the
  // element is refused (a null term; the checker answers UNKNOWN).
  Term i = F.T.bvVar("i", 64);
  std::string why;
  EXPECT_EQ(spec->element(F.T, i, why), nullptr);
}

TEST(FuncSpec, Matmul) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>)
                     outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
})",
                      buf("a", "in", "f32", "2, 3") + ", " +
                          buf("b", "in", "f32", "3, 2") + ", " +
                          buf("y", "out", "f32", "2, 2"),
                      R"({func = @f, inputs = ["a", "b"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  auto &T = F.T;
  // y[1, 0] = a[1, k] * b[k, 0] summed over k.
  Term want =
      T.add({T.mul(F.x("a", 3), F.x("b", 0)), T.mul(F.x("a", 4), F.x("b", 2)),
             T.mul(F.x("a", 5), F.x("b", 4))});
  Term got = F.at(*spec, 2);
  EXPECT_TRUE(F.N.provesEqual(got, want)) << got << " vs " << want;
  EXPECT_FALSE(F.N.provesEqual(F.at(*spec, 1), want));
}

TEST(FuncSpec, SoftmaxMatchesBuiltin) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x4xf32>)
                                   outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
})",
                      buf("x", "in", "f32", "2, 4") + ", " +
                          buf("y", "out", "f32", "2, 4"),
                      R"({func = @f, inputs = ["x"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  std::unique_ptr<Spec> builtin = F.buildBuiltin("softmax", "x", "y");
  ASSERT_TRUE(builtin) << F.diagnostics;
  for (uint64_t i = 0; i < 8; ++i) {
    Term got = F.at(*spec, i), want = F.at(*builtin, i);
    EXPECT_TRUE(F.N.provesEqual(got, want)) << got << " vs " << want;
  }
  // Symbolic indices give the builtin's term too.
  Term i = F.T.bvVar("i", 64);
  EXPECT_EQ(F.at(*spec, i), F.at(*builtin, i));
}

TEST(FuncSpec, ReduceSumAndGenericMaxOverLastDim) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @sum(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%x : tensor<2x4xf32>) outs(%c : tensor<2xf32>)
      dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %acc, %in : f32
        linalg.yield %s : f32
      }
  return %r : tensor<2xf32>
}
func.func @max(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2xf32>
  %c = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%c : tensor<2xf32>) {
  ^bb0(%a: f32, %m: f32):
    %v = arith.maximumf %m, %a : f32
    linalg.yield %v : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
})",
                      buf("x", "in", "f32", "2, 4") + ", " +
                          buf("y", "out", "f32", "2"),
                      R"({func = @sum, inputs = ["x"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  std::unique_ptr<Spec> sum = F.buildBuiltin("sum", "x", "y");
  ASSERT_TRUE(sum) << F.diagnostics;
  for (uint64_t r = 0; r < 2; ++r) {
    Term got = F.at(*spec, r), want = F.at(*sum, r);
    EXPECT_TRUE(F.N.provesEqual(got, want)) << got << " vs " << want;
  }
  // At a symbolic row, too.
  Term row = F.T.bvVar("r", 64);
  EXPECT_TRUE(F.N.provesEqual(F.at(*spec, row), F.at(*sum, row)));

  Builder b(&F.ctx);
  auto maxSpec = b.getDictionaryAttr(
      {b.getNamedAttr("func", FlatSymbolRefAttr::get(&F.ctx, "max")),
       b.getNamedAttr("inputs", b.getStrArrayAttr({"x"})),
       b.getNamedAttr("output", b.getStringAttr("y"))});
  std::unique_ptr<Spec> mx = buildSpec(F.contract, maxSpec, F.env);
  ASSERT_TRUE(mx) << F.diagnostics;
  std::unique_ptr<Spec> builtinMax = F.buildBuiltin("max", "x", "y");
  ASSERT_TRUE(builtinMax) << F.diagnostics;
  // max(-inf, x0) folds to x0, so the fold is exactly the builtin's.
  for (uint64_t r = 0; r < 2; ++r)
    EXPECT_EQ(F.at(*mx, r), F.at(*builtinMax, r));
}

TEST(FuncSpec, TransposeAndIntegerScalar) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<2x3xf32>, %n: i32) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>)
      permutation = [1, 0]
  %nf = arith.sitofp %n : i32 to f32
  %r = linalg.map ins(%t : tensor<3x2xf32>) outs(%e : tensor<3x2xf32>)
      (%a: f32, %o: f32) {
        %v = arith.addf %a, %nf : f32
        linalg.yield %v : f32
      }
  return %r : tensor<3x2xf32>
})",
                      buf("x", "in", "f32", "2, 3") +
                          ", {name = \"n\", scalar = i32}, " +
                          buf("y", "out", "f32", "3, 2"),
                      R"({func = @f, inputs = ["x", "n"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  Term n = F.T.bvToReal(F.env.scalars["n"], true);
  // y[r, c] = x[c, r] + n.
  for (uint64_t r = 0; r < 3; ++r)
    for (uint64_t c = 0; c < 2; ++c)
      EXPECT_EQ(F.at(*spec, r * 2 + c), F.T.add(F.x("x", c * 3 + r), n));
}

TEST(FuncSpec, Errors) {
  const std::string params =
      buf("x", "in", "f32", "4") + ", " + buf("y", "out", "f32", "4");
  {
    Fixture F;
    ASSERT_TRUE(
        F.parse("", params, R"({func = @nope, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("spec function @nope not found"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    Fixture F;
    ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
})",
                        params, R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("has shape [8] but buffer 'x' has shape [4]"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    Fixture F;
    ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = math.log %x : tensor<4xf32>
  return %r : tensor<4xf32>
})",
                        params, R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("unsupported op 'math.log'"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    Fixture F;
    ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
})",
                        params, R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("takes 2 argument(s)"), std::string::npos)
        << F.diagnostics;
  }
  {
    // Reading the `outs` of a tensor.empty: a spec error at element time.
    Fixture F;
    ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
})",
                        params, R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    std::unique_ptr<Spec> spec = F.build();
    ASSERT_TRUE(spec) << F.diagnostics;
    std::string why;
    EXPECT_FALSE(spec->element(F.T, F.idx(0), why));
    EXPECT_NE(why.find("reading an uninitialized tensor element"),
              std::string::npos)
        << why;
  }
}

TEST(FuncSpec, ElementwiseTensorArithAndConstants) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 0.5]]> : tensor<2x2xf32>
  %m = arith.mulf %x, %c : tensor<2x2xf32>
  %i1 = arith.constant 1 : index
  %first = tensor.extract %x[%i1, %i1] : tensor<2x2xf32>
  %s = arith.subf %first, %first : f32
  %r = tensor.insert %s into %m[%i1, %i1] : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
)",
                      buf("x", "in", "f32", "2, 2") + ", " +
                          buf("y", "out", "f32", "2, 2"),
                      R"({func = @f, inputs = ["x"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  auto &T = F.T;
  EXPECT_EQ(F.at(*spec, uint64_t(0)), F.x("x", 0));
  EXPECT_TRUE(F.N.provesEqual(F.at(*spec, 1), T.mul(T.real(2), F.x("x", 1))));
  EXPECT_TRUE(F.N.provesEqual(F.at(*spec, 2), T.mul(T.real(3), F.x("x", 2))));
  EXPECT_TRUE(F.N.provesEqual(F.at(*spec, 3), T.real(0)));
  // At a symbolic index the constant becomes an ite over the flat index.
  Term i = T.bvVar("i", 64);
  EXPECT_TRUE(F.at(*spec, i));
}

TEST(FuncSpec, SlicesAndReshapes) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %row = tensor.extract_slice %x[1, 0] [1, 4] [1, 1]
      : tensor<2x4xf32> to tensor<4xf32>
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %odd = tensor.extract_slice %flat[1] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %sum = arith.addf %row, %odd : tensor<4xf32>
  %r = tensor.expand_shape %sum [[0, 1]] output_shape [2, 2]
      : tensor<4xf32> into tensor<2x2xf32>
  return %r : tensor<2x2xf32>
})",
                      buf("x", "in", "f32", "2, 4") + ", " +
                          buf("y", "out", "f32", "2, 2"),
                      R"({func = @f, inputs = ["x"], output = "y"})"))
      << F.diagnostics;
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  // y[i] = x[4 + i] + x[1 + 2 i] (flat).
  for (uint64_t i = 0; i < 4; ++i)
    EXPECT_EQ(F.at(*spec, i), F.T.add(F.x("x", 4 + i), F.x("x", 1 + 2 * i)));
}

} // namespace
