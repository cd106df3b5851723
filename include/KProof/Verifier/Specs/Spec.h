//===- Spec.h - the element-wise meaning of a contract's spec ---*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A spec's meaning is implemented once, as an element-wise lowering to the
// engine's terms (docs/contracts.md): output element at a (possibly symbolic)
// index -> term over the input element terms, never a materialized tensor.
// The executor reads input element i of buffer `x` as
// TermContext::element("x", i) (floats) or the BVVar "x[i]" (integers), and
// a scalar parameter `s` as the term bound in the contract; a spec uses the
// same terms, so kernel and spec values are comparable.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_SPECS_SPEC_H
#define KPROOF_VERIFIER_SPECS_SPEC_H

#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Term.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>

namespace kproof::engine {

/// What a spec may refer to: the contract's bound buffers and scalars by
/// parameter name.
struct SpecEnvironment {
  std::map<std::string, const BufferBinding *> buffers;
  std::map<std::string, Term> scalars;
  /// The contract's launch: the extents of launch-dependent buffer shapes
  /// (BufferBinding::symbolicDims) are terms over it (a spec keeps a copy).
  LaunchConfig launch;
  /// ExecutorOptions::mergeStates for a reference kernel spec.
  bool mergeStates = true;
};

class Spec {
public:
  virtual ~Spec() = default;
  /// For the verdict: "softmax(x) -> y".
  virtual std::string describe() const = 0;
  /// The output buffer the spec defines (elements in row-major order).
  virtual const BufferBinding &output() const = 0;
  /// The term of output element `index` (a 64-bit BV term, concrete or
  /// symbolic). Null when the spec cannot express it; `reason` says why.
  virtual Term element(TermContext &terms, Term index, std::string &reason) = 0;
  /// Readings the spec's lowering made that are assumptions of the verdict
  /// (a float constant read as a transcendental value, Constants.h), one
  /// line each, without duplicates, for the elements built so far.
  const std::vector<std::string> &idioms() const { return idiomLines; }

protected:
  void addIdiom(const std::string &line) {
    if (std::find(idiomLines.begin(), idiomLines.end(), line) ==
        idiomLines.end())
      idiomLines.push_back(line);
  }

private:
  std::vector<std::string> idiomLines;
};

/// Reads an input element the way the executor does.
Term inputElement(TermContext &terms, const BufferBinding &buffer, Term index);

/// Builds the specs of a contract's `spec` dictionary, one per output
/// buffer it defines: a built-in ({builtin = "softmax"|"copy"|"sum"|"max",
/// input, output}; "attention" defines its `output` and, with `lse`, the
/// logsumexp buffer as a second spec) or a func.func ({func = @name,
/// inputs = [...], output}) found from `symbolScope`. Errors (unknown
/// names, shape mismatches) are emitted at `contract` and give an empty
/// vector.
std::vector<std::unique_ptr<Spec>> buildSpecs(mlir::Operation *contract,
                                              mlir::DictionaryAttr spec,
                                              const SpecEnvironment &env);
/// The first spec buildSpecs builds (the only one of a single-output
/// spec), or null after an error.
std::unique_ptr<Spec> buildSpec(mlir::Operation *contract,
                                mlir::DictionaryAttr spec,
                                const SpecEnvironment &env);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_SPECS_SPEC_H
