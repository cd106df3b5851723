//===- FuncSpecTest.cpp - tests of func.func specs, element-wise ----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Specs/Spec.h"
#include "KProof/Verifier/Terms/Evaluate.h"
#include "KProof/Verifier/Terms/Normalizer.h"

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
  kproof::ContractOp contract;
  std::deque<BufferBinding> buffers;
  SpecEnvironment env;
  TermContext T;
  Normalizer N{T};
  std::string diagnostics;
  std::unique_ptr<ScopedDiagnosticHandler> handler;

  Fixture() {
    DialectRegistry registry;
    registry.insert<kproof::KProofDialect, func::FuncDialect,
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
    module->walk([&](kproof::ContractOp c) { contract = c; });
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
    return buildSpec(contract, contract.getSpecAttr(), env);
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

  /// Builds the spec {func = @fn, inputs, output}.
  std::unique_ptr<Spec> buildFunc(StringRef fn, ArrayRef<StringRef> inputs,
                                  StringRef out) {
    Builder b(&ctx);
    auto dict = b.getDictionaryAttr(
        {b.getNamedAttr("func", FlatSymbolRefAttr::get(&ctx, fn)),
         b.getNamedAttr("inputs", b.getStrArrayAttr(inputs)),
         b.getNamedAttr("output", b.getStringAttr(out))});
    return buildSpec(contract, dict, env);
  }

  /// A symbolic launch in x (ntid.x <= 1024, nctaid.x <= 4096), and
  /// launch-dependent extents for buffer `name` ("" keeps an extent
  /// concrete; a symbolic one's shape entry becomes its bound).
  void symbolic(StringRef name, std::vector<std::string> dims) {
    env.launch.blockSymbolic[0] = env.launch.gridSymbolic[0] = true;
    env.launch.block[0] = 1024;
    env.launch.grid[0] = 4096;
    for (BufferBinding &b : buffers) {
      if (b.name != name)
        continue;
      b.symbolicDims = dims;
      for (unsigned d = 0; d < dims.size(); ++d) {
        int64_t bound = 0;
        if (!dims[d].empty() &&
            launchProduct(T, env.launch, dims[d], nullptr, &bound))
          b.shape[d] = bound;
      }
    }
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
  // Symbolic: ite(col <= row, x[i], -inf), infinite on some indices only:
  // an ite with an extended leaf (Term.h).
  Term i = F.T.bvVar("i", 64);
  std::string why;
  Term e = spec->element(F.T, i, why);
  ASSERT_TRUE(e) << why;
  EXPECT_EQ(e->getKind(), Kind::Ite);
  EXPECT_EQ(e->getExtended(), TermNode::kExtendedNegInf);
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
  %r = math.log1p %x : tensor<4xf32>
  return %r : tensor<4xf32>
})",
                        params, R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("unsupported op 'math.log1p'"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    // The natural log is supported: the real function "log".
    Fixture F;
    ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = math.log %x : tensor<4xf32>
  return %r : tensor<4xf32>
})",
                        params, R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    EXPECT_TRUE(F.build()) << F.diagnostics;
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

/// The index at which `t`, a single read of buffer `buf` at a symbolic
/// index, reads it, under ntid.x = `ntid`, nctaid.x = `nctaid` and the
/// flat output index e = `e`.
std::optional<uint64_t> readIndex(Term t, StringRef buf, uint64_t ntid,
                                  uint64_t nctaid, uint64_t e) {
  if (!t || t->getKind() != Kind::Select || t->getName() != buf)
    return std::nullopt;
  Assignment a;
  a.bitvectors["ntid.x"] = APInt(32, ntid);
  a.bitvectors["nctaid.x"] = APInt(32, nctaid);
  a.bitvectors["e"] = APInt(64, e);
  Evaluator ev(a);
  std::optional<APInt> i = ev.bv(t->getOperand(0));
  EXPECT_TRUE(i) << ev.getError();
  if (!i)
    return std::nullopt;
  return i->getZExtValue();
}

const char *kRotate = R"(
func.func @rotate(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %n = tensor.dim %x, %c1 : tensor<?x?xf32>
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %n : index
    %v = tensor.extract %x[%b, %j] : tensor<?x?xf32>
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @copy(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c = tensor.cast %x : tensor<?x?xf32> to tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}
func.func @transposed(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d1, %d0) : tensor<?x?xf32>
  %r = linalg.transpose ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
      permutation = [1, 0]
  return %r : tensor<?x?xf32>
})";

/// A row rotation over a symbolic launch: y[b, i] = x[b, (i + 1) % ntid.x]
/// with x, y of shape [nctaid.x, ntid.x].
TEST(FuncSpecDynamic, RotateRowsOverSymbolicLaunch) {
  Fixture F;
  ASSERT_TRUE(F.parse(kRotate,
                      buf("x", "in", "f32", "1, 1") + ", " +
                          buf("y", "out", "f32", "1, 1"),
                      R"({func = @rotate, inputs = ["x"], output = "y"})"))
      << F.diagnostics;
  F.symbolic("x", {"nctaid.x", "ntid.x"});
  F.symbolic("y", {"nctaid.x", "ntid.x"});
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  Term e = F.T.bvVar("e", 64);
  Term got = F.at(*spec, e);
  ASSERT_TRUE(got);
  ASSERT_EQ(got->getKind(), Kind::Select) << got;
  // x[(e / n) * n + ((e % n) + 1) % n], n = ntid.x.
  struct Case {
    uint64_t ntid, nctaid, e, want;
  } cases[] = {{96, 4, 95, 0},
               {96, 4, 191, 96},
               {1, 8, 5, 5},
               {96, 4, 0, 1},
               {96, 4, 383, 288},
               {1024, 4096, 0, 1},
               {1024, 4096, 1024 * 4096 - 1, 1024 * 4095},
               {7, 3, 20, 14}};
  for (const Case &c : cases) {
    EXPECT_EQ((c.e / c.ntid) * c.ntid + ((c.e % c.ntid) + 1) % c.ntid, c.want);
    EXPECT_EQ(readIndex(got, "x", c.ntid, c.nctaid, c.e), c.want)
        << "ntid.x = " << c.ntid << ", e = " << c.e << ": " << got;
  }
  // A concrete flat index is still symbolic in ntid.x.
  Term at95 = F.at(*spec, 95);
  ASSERT_TRUE(at95);
  EXPECT_EQ(readIndex(at95, "x", 96, 4, 0), 0u);
  EXPECT_EQ(readIndex(at95, "x", 32, 4, 0), 64u);

  // A copy through tensor.cast reads x at the flat index itself.
  std::unique_ptr<Spec> copy = F.buildFunc("copy", {"x"}, "y");
  ASSERT_TRUE(copy) << F.diagnostics;
  EXPECT_EQ(F.at(*copy, e), F.T.element("x", e));

  // The transpose's result is [ntid.x, nctaid.x]: not y's shape.
  EXPECT_FALSE(F.buildFunc("transposed", {"x"}, "y"));
  EXPECT_NE(F.diagnostics.find("returns a tensor whose dimension #0 has "
                               "extent 'ntid.x' but output buffer 'y' has "
                               "'nctaid.x'"),
            std::string::npos)
      << F.diagnostics;
}

/// A launch-dependent row count with a static row length: tensor<?x256xf32>
/// binds shape = ["nctaid.x", 256]; rows are reversed.
TEST(FuncSpecDynamic, MixedStaticAndLaunchDependentExtents) {
  Fixture F;
  ASSERT_TRUE(F.parse(R"(
func.func @reverse(%x: tensor<?x256xf32>, %s: f32) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %c255 = arith.constant 255 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%d0) : tensor<?x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x256xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = arith.subi %c255, %i : index
    %v = tensor.extract %x[%b, %j] : tensor<?x256xf32>
    linalg.yield %v : f32
  } -> tensor<?x256xf32>
  %sc = arith.mulf %r, %r : tensor<?x256xf32>
  return %sc : tensor<?x256xf32>
}
func.func @bad(%x: tensor<?x?xf32>, %s: f32) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
})",
                      buf("x", "in", "f32", "1, 256") +
                          ", {name = \"s\", scalar = f32}, " +
                          buf("y", "out", "f32", "1, 256"),
                      R"({func = @reverse, inputs = ["x", "s"],
                          output = "y"})"))
      << F.diagnostics;
  F.symbolic("x", {"nctaid.x", ""});
  F.symbolic("y", {"nctaid.x", ""});
  std::unique_ptr<Spec> spec = F.build();
  ASSERT_TRUE(spec) << F.diagnostics;
  Term e = F.T.bvVar("e", 64);
  Term got = F.at(*spec, e);
  ASSERT_TRUE(got);
  ASSERT_EQ(got->getKind(), Kind::Mul) << got;
  ASSERT_EQ(got->getNumOperands(), 2u) << got;
  Term read = got->getOperand(0);
  EXPECT_EQ(got->getOperand(1), read);
  for (uint64_t nctaid : {1, 3, 4096})
    for (uint64_t i : {uint64_t(0), uint64_t(255), uint64_t(256), uint64_t(300),
                       nctaid * 256 - 1})
      EXPECT_EQ(readIndex(read, "x", 1, nctaid, i),
                (i / 256) * 256 + 255 - i % 256)
          << "nctaid.x = " << nctaid << ", e = " << i << ": " << read;
  // The static extent splits as before, by constants.
  Term at300 = F.at(*spec, 300);
  EXPECT_EQ(at300, F.T.mul(F.x("x", 256 + 255 - 44), F.x("x", 256 + 211)));

  // tensor<?x?> does not bind ["nctaid.x", 256].
  EXPECT_FALSE(F.buildFunc("bad", {"x", "s"}, "y"));
  EXPECT_NE(F.diagnostics.find("argument #0 has shape [?x?] but buffer 'x' "
                               "has shape [\"nctaid.x\", 256]"),
            std::string::npos)
      << F.diagnostics;
}

/// A sum over a launch-dependent extent is one reduction term; a product
/// (a body shape without a reduction term) and what needs a count are
/// refused with a reason; a reduction over a static extent of a dynamic
/// tensor is unfolded.
TEST(FuncSpecDynamic, ReductionsOverLaunchDependentExtents) {
  Fixture F;
  ASSERT_TRUE(F.parse(
      R"(
func.func @sum(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%d0) : tensor<?xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%c : tensor<?xf32>)
      dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %acc, %in : f32
        linalg.yield %s : f32
      }
  return %r : tensor<?xf32>
}
func.func @rowsum(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%d0) : tensor<?xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x4xf32>) outs(%c : tensor<?xf32>)
      dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %acc, %in : f32
        linalg.yield %s : f32
      }
  return %r : tensor<?xf32>
}
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>)
                                   outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @flat(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %f = tensor.collapse_shape %x [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  return %f : tensor<?xf32>
}
func.func @prod(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %z = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%d0) : tensor<?xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%c : tensor<?xf32>)
      dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.mulf %acc, %in : f32
        linalg.yield %s : f32
      }
  return %r : tensor<?xf32>
})",
      buf("x", "in", "f32", "1, 1") + ", " + buf("w", "in", "f32", "1, 4") +
          ", " + buf("y", "out", "f32", "1") + ", " +
          buf("z", "out", "f32", "1, 1") + ", " + buf("f", "out", "f32", "1"),
      R"({func = @sum, inputs = ["x"], output = "y"})"))
      << F.diagnostics;
  F.symbolic("x", {"nctaid.x", "ntid.x"});
  F.symbolic("w", {"nctaid.x", ""});
  F.symbolic("y", {"nctaid.x"});
  F.symbolic("z", {"nctaid.x", "ntid.x"});
  F.symbolic("f", {"nctaid.x*ntid.x"});
  Term e = F.T.bvVar("e", 64);
  auto refused = [&](Spec &s, StringRef want) {
    std::string why;
    EXPECT_EQ(s.element(F.T, e, why), nullptr);
    EXPECT_NE(why.find(want.str()), std::string::npos) << why;
  };
  std::unique_ptr<Spec> sum = F.build();
  ASSERT_TRUE(sum) << F.diagnostics;
  // y[e] = sum_{j in [0, ntid.x)} x[e * ntid.x + j].
  Term s = F.at(*sum, e);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->getKind(), Kind::SumOver) << s;
  EXPECT_TRUE(s->getOperand(0)->getKind() == Kind::BVConst &&
              s->getOperand(0)->getAPInt().isZero());
  EXPECT_NE(s->getOperand(1)->toString().find("ntid.x"), std::string::npos);
  EXPECT_EQ(s->getOperand(2)->getKind(), Kind::Select);

  std::unique_ptr<Spec> prod = F.buildFunc("prod", {"x"}, "y");
  ASSERT_TRUE(prod) << F.diagnostics;
  refused(*prod, "a reduction over the launch-dependent extent 'ntid.x' is "
                 "modeled only as the single reduction dimension of a body "
                 "that yields acc + g");

  std::unique_ptr<Spec> rowsum = F.buildFunc("rowsum", {"w"}, "y");
  ASSERT_TRUE(rowsum) << F.diagnostics;
  Term got = F.at(*rowsum, e);
  ASSERT_TRUE(got);
  std::vector<Term> want;
  for (uint64_t j = 0; j < 4; ++j)
    want.push_back(F.T.element(
        "w",
        F.T.bvBin(Kind::BVAdd, F.T.bvBin(Kind::BVMul, e, F.idx(4)), F.idx(j))));
  EXPECT_TRUE(F.N.provesEqual(got, F.T.add(want))) << got;

  std::unique_ptr<Spec> softmax = F.buildFunc("softmax", {"x"}, "z");
  ASSERT_TRUE(softmax) << F.diagnostics;
  refused(*softmax, "linalg.softmax over the launch-dependent extent "
                    "'ntid.x' is not modeled");

  std::unique_ptr<Spec> flat = F.buildFunc("flat", {"x"}, "f");
  ASSERT_TRUE(flat) << F.diagnostics;
  refused(*flat, "a reshape of a tensor with a launch-dependent extent is "
                 "not modeled");
}

/// Binding errors: a `?` for a concrete extent, a static extent for a
/// launch-dependent one.
TEST(FuncSpecDynamic, BindingErrors) {
  {
    Fixture F;
    ASSERT_TRUE(
        F.parse(R"(
func.func @f(%x: tensor<?xf32>) -> tensor<4xf32> {
  %r = tensor.cast %x : tensor<?xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
})",
                buf("x", "in", "f32", "4") + ", " + buf("y", "out", "f32", "4"),
                R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("argument #0 has shape [?] but buffer 'x' "
                                 "has shape [4] (a launch-dependent extent "
                                 "is bound by '?', a concrete one by "
                                 "itself)"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    Fixture F;
    ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  return %x : tensor<4096x1024xf32>
})",
                        buf("x", "in", "f32", "1, 1") + ", " +
                            buf("y", "out", "f32", "1, 1"),
                        R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    F.symbolic("x", {"nctaid.x", "ntid.x"});
    F.symbolic("y", {"nctaid.x", "ntid.x"});
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("argument #0 has shape [4096x1024] but "
                                 "buffer 'x' has shape [\"nctaid.x\", "
                                 "\"ntid.x\"]"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    // The result's `?` is bound to a concrete output extent.
    Fixture F;
    ASSERT_TRUE(
        F.parse(R"(
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
})",
                buf("x", "in", "f32", "1") + ", " + buf("y", "out", "f32", "4"),
                R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    F.symbolic("x", {"ntid.x"});
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("returns shape [?] but output buffer 'y' "
                                 "has shape [4]"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    // Element-wise operands with different launch-dependent extents.
    Fixture F;
    ASSERT_TRUE(F.parse(R"(
func.func @f(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = arith.addf %x, %w : tensor<?x?xf32>
  return %r : tensor<?x?xf32>
})",
                        buf("x", "in", "f32", "1, 1") + ", " +
                            buf("w", "in", "f32", "1, 1") + ", " +
                            buf("y", "out", "f32", "1, 1"),
                        R"({func = @f, inputs = ["x", "w"], output = "y"})"))
        << F.diagnostics;
    F.symbolic("x", {"nctaid.x", "ntid.x"});
    F.symbolic("w", {"ntid.x", "nctaid.x"});
    F.symbolic("y", {"nctaid.x", "ntid.x"});
    EXPECT_FALSE(F.build());
    EXPECT_NE(F.diagnostics.find("operands of 'arith.addf' have extents "
                                 "'nctaid.x' and 'ntid.x' in dimension #0"),
              std::string::npos)
        << F.diagnostics;
  }
  {
    // Equal products written in another order bind.
    Fixture F;
    ASSERT_TRUE(
        F.parse(R"(
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
})",
                buf("x", "in", "f32", "1") + ", " + buf("y", "out", "f32", "1"),
                R"({func = @f, inputs = ["x"], output = "y"})"))
        << F.diagnostics;
    F.symbolic("x", {"ntid.x*nctaid.x"});
    F.symbolic("y", {"nctaid.x * ntid.x"});
    EXPECT_TRUE(F.build()) << F.diagnostics;
  }
}

} // namespace
