//===- Harness.h - run a kernel against its contract's spec -----*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What kproof-run and the counterexample replay share: inputs from JSON or
// at random, a run of the interpreter under a bound contract
// (engine::bindContract, read exactly as the prover reads it), and the
// comparison of the outputs with the contract's spec evaluated on the same
// inputs through the engine's spec lowering (Spec::element) and its MPFR
// evaluator (Evaluate.h): one implementation of spec semantics.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_INTERPRETER_HARNESS_H
#define KPROOF_INTERPRETER_HARNESS_H

#include "KProof/Interpreter/Interpreter.h"
#include "KProof/Verifier/Check/EquivalenceChecker.h"
#include "KProof/Verifier/Specs/Contract.h"
#include "KProof/Verifier/Terms/Assignment.h"

#include "llvm/Support/raw_ostream.h"

#include <random>

namespace kproof::interp {

/// Parses the inputs of kproof-run (docs/interpreter.md): one JSON object,
/// keys are contract parameter names; a buffer is an array of elements in
/// row-major order (nested arrays are flattened), a scalar one element. An
/// element is a JSON number, or a string: an exact rational ("-3/4",
/// "1.25"), "inf", "-inf", "nan", or raw bits "0x3f800000" of the element
/// type. Scalars the contract fixes (`value`) must not be given. Errors
/// (malformed JSON, an unknown name, a wrong element count, a missing
/// scalar) name the offending key and give nullopt.
std::optional<LaunchInputs> parseInputs(llvm::StringRef json,
                                        const engine::BoundContract &bc,
                                        std::string &error);

/// Random inputs for the random-testing baseline: every element of every
/// input buffer (and every free scalar) uniform in [-range, range], rounded
/// to the element type (integers: uniform integers in the range, or in the
/// contract's `range` of an integer table); scalars the contract fixes get
/// their value.
LaunchInputs randomInputs(const engine::BoundContract &bc, std::mt19937_64 &rng,
                          double range);

/// Adds the scalars the contract fixes (`value = ...`) to `inputs`.
void addFixedScalars(const engine::BoundContract &bc, LaunchInputs &inputs);

/// The inputs as an engine Assignment (reals "x[i]" for float elements,
/// bit-vectors "x[i]" for integer elements, scalars by name), for the MPFR
/// evaluation of the spec. Non-finite values cannot be assigned: `error`
/// names the first one and the result is nullopt.
std::optional<engine::Assignment> toAssignment(const engine::BoundContract &bc,
                                               const LaunchInputs &inputs,
                                               std::string &error);

/// Kernel output against the spec, element by element.
struct Comparison {
  std::string buffer;           ///< the spec's output buffer
  double maxAbsError = 0;       ///< max |kernel - spec| over the elements
  double maxRelError = 0;       ///< max |kernel - spec| / |spec|
  uint64_t worstIndex = 0;      ///< where maxAbsError is reached
  /// The first element outside atol + rtol * |spec| (or not finite, or not
  /// written).
  std::optional<uint64_t> firstMismatch;
  /// Spec values (nearest double of the MPFR enclosure's midpoint) and
  /// kernel values, per element.
  std::vector<double> spec, kernel;
  /// Non-empty when the spec could not be evaluated (then no comparison).
  std::string error;
};

/// Evaluates the contract's spec number `specIndex` (BoundContract::specs:
/// one per output buffer) on `inputs` and compares it with that output
/// buffer of `run`. Float elements agree within |k - s| <= atol + rtol |s|;
/// integer elements only when equal (the tolerances do not apply).
/// `only`: compare that element alone (a counterexample's replay; the
/// other elements' spec values may be beyond evaluation, e.g. reductions
/// over more than 65536 elements); `spec`/`kernel` then hold NaN elsewhere.
Comparison compareWithSpec(engine::BoundContract &bc, engine::TermContext &T,
                           const LaunchInputs &inputs, const RunResult &run,
                           double atol, double rtol, size_t specIndex = 0,
                           std::optional<uint64_t> only = std::nullopt);

/// Whether every input value is exactly representable in its element type
/// (so IEEE mode runs exactly these inputs); `why` names the first one that
/// is not.
bool representable(const engine::BoundContract &bc, const LaunchInputs &inputs,
                   std::string *why = nullptr);

/// The inputs of a counterexample, for the interpreter: elements the model
/// does not name take the model's default (elementDefaults) or 0; scalars
/// take the contract's value or the model's.
LaunchInputs inputsOfCounterexample(const engine::BoundContract &bc,
                                    const engine::Assignment &model);

/// Replays the counterexample of a REFUTED verdict on the kernel through
/// the interpreter (IEEE mode when every input is exactly representable in
/// its element type, else exact mode). Returns the note the driver stores
/// in Verdict::replay: "confirmed by replay (IEEE f32): kernel y[0] = ...,
/// spec = ..." or "not confirmed by replay: <why>"; empty when the verdict
/// has no counterexample.
///
/// `seen`, when given, receives the findings of the run that do not
/// confirm the counterexample (kind name, location), so that the caller
/// can match them against the verdict's other REFUTED obligations.
std::string replayCounterexample(
    mlir::ModuleOp module, kproof::ContractOp contract,
    const engine::Verdict &verdict,
    std::vector<std::pair<std::string, std::string>> *seen = nullptr);

/// Replays `verdict`'s counterexample (replayCounterexample) when it is
/// REFUTED, stores the note in Verdict::replay, and settles the verdict: a
/// value counterexample the replay does not reproduce is no REFUTED, so the
/// verdict becomes UNKNOWN and the value obligations it refuted are marked
/// UNKNOWN too (their text then never says "confirmed"). One place for
/// kproof-opt and the --kproof-verify-equiv pass.
void replayAndSettle(mlir::ModuleOp module, kproof::ContractOp contract,
                     engine::Verdict &verdict);

/// Prints a value the way kproof-run's JSON does: shortest round-trip
/// decimal for IEEE floats ("0.25", "inf", "nan"), integers in decimal,
/// exact-mode reals with 20 significant digits.
std::string formatElement(const OutputElement &e, mlir::Type type);

} // namespace kproof::interp

#endif // KPROOF_INTERPRETER_HARNESS_H
