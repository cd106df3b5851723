//===- Spec.cpp - built-in specs, element-wise ----------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Spec.h"
#include "FuncSpec.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

Term ::kproof::engine::inputElement(TermContext &T,
                                    const BufferBinding &buffer, Term index) {
  if (isa<FloatType>(buffer.elemType))
    return T.element(buffer.name, index);
  if (index->getKind() == Kind::BVConst)
    return T.bvVar(buffer.name + "[" +
                       std::to_string(index->getAPInt().getZExtValue()) + "]",
                   buffer.elemType.getIntOrFloatBitWidth());
  return nullptr; // integer elements at symbolic indices: not modeled yet
}

namespace {

/// The built-in spec library (DESIGN.md §2b): row softmax over the last
/// dimension, copy, and sum/max reductions of the last dimension.
class BuiltinSpec final : public Spec {
public:
  BuiltinSpec(std::string builtin, const BufferBinding *in,
              const BufferBinding *out)
      : builtin(std::move(builtin)), in(in), out(out) {}

  std::string describe() const override {
    return builtin + "(" + in->name + ") -> " + out->name;
  }
  const BufferBinding &output() const override { return *out; }

  Term element(TermContext &T, Term index, std::string &reason) override {
    uint64_t cols = in->shape.back();
    Term c = T.bv(cols, 64);
    auto at = [&](Term i) -> Term {
      Term t = inputElement(T, *in, i);
      if (!t)
        reason = "integer elements of '" + in->name +
                 "' at a symbolic index are not modeled";
      return t;
    };
    if (builtin == "copy")
      return at(index);
    if (builtin == "softmax") {
      Term base = T.bvBin(Kind::BVMul, T.bvBin(Kind::BVUDiv, index, c), c);
      auto col = [&](uint64_t j) {
        return at(T.bvBin(Kind::BVAdd, base, T.bv(j, 64)));
      };
      // m = max_j x[row, j], folded left as kernels usually do.
      Term m = col(0);
      for (uint64_t j = 1; j < cols && m; ++j)
        m = T.max(m, col(j));
      SmallVector<Term> exps;
      for (uint64_t j = 0; j < cols && m; ++j)
        exps.push_back(T.exp(T.sub(col(j), m)));
      Term mine = at(index);
      if (!m || !mine)
        return nullptr;
      return T.div(T.exp(T.sub(mine, m)), T.add(exps));
    }
    if (builtin == "sum" || builtin == "max") {
      Term base = T.bvBin(Kind::BVMul, index, c);
      Term acc = at(base);
      for (uint64_t j = 1; j < cols && acc; ++j) {
        Term x = at(T.bvBin(Kind::BVAdd, base, T.bv(j, 64)));
        acc = builtin == "sum" ? T.add(acc, x) : T.max(acc, x);
      }
      return acc;
    }
    reason = "unknown builtin '" + builtin + "'";
    return nullptr;
  }

private:
  std::string builtin;
  const BufferBinding *in;
  const BufferBinding *out;
};

} // namespace

namespace kproof::engine {
std::unique_ptr<Spec> buildSpec(Operation *contract, DictionaryAttr spec,
                                const SpecEnvironment &env) {
  auto buffer = [&](StringRef key) -> const BufferBinding * {
    auto name = spec.getAs<StringAttr>(key);
    if (!name)
      return nullptr;
    auto it = env.buffers.find(name.getValue().str());
    return it == env.buffers.end() ? nullptr : it->second;
  };
  if (spec.get("func"))
    return buildFuncSpec(contract, spec, env);
  auto builtin = spec.getAs<StringAttr>("builtin");
  const BufferBinding *in = buffer("input"), *out = buffer("output");
  if (!builtin || !in || !out) {
    contract->emitError("spec input and output must name buffer params");
    return nullptr;
  }
  StringRef b = builtin.getValue();
  uint64_t rows = in->numElements() / in->shape.back();
  uint64_t expected =
      (b == "sum" || b == "max") ? rows : in->numElements();
  if (out->numElements() != expected) {
    contract->emitError("spec shape mismatch: ")
        << b << " of '" << in->name << "' has " << expected
        << " element(s) but '" << out->name << "' has "
        << out->numElements();
    return nullptr;
  }
  if (in->elemType != out->elemType && b != "copy") {
    contract->emitError("spec type mismatch: '")
        << in->name << "' holds " << in->elemType << " but '" << out->name
        << "' holds " << out->elemType;
    return nullptr;
  }
  return std::make_unique<BuiltinSpec>(b.str(), in, out);
}
} // namespace kproof::engine
