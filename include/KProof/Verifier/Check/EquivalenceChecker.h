//===- EquivalenceChecker.h - kernel == spec, or a counterexample -*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The proof engine's main job (docs/verify-equiv.md): given a kernel and a
// contract, execute the kernel symbolically, lower the spec element-wise,
// and discharge every obligation:
//   - value: for every output element a path writes, the stored value equals
//     the spec's element under the path condition;
//   - coverage: every output element the spec defines is written on every
//     path;
//   - divisor: every division (rcp, rsqrt, lg2) has a non-zero operand;
//   - safety: no store to an input buffer or outside a buffer, no trap.
// Each obligation is closed by the normalizer, or answered by Z3 (unsat:
// proved; sat: a model, confirmed with the true exp in MPFR interval
// arithmetic before it counts as a counterexample), or left UNKNOWN with the
// reason. The worst obligation decides: REFUTED > UNKNOWN > PROVED.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_CHECK_EQUIVALENCECHECKER_H
#define KPROOF_VERIFIER_CHECK_EQUIVALENCECHECKER_H

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Assignment.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kproof::engine {

enum class VerdictKind { Proved, Refuted, Unknown };

/// The outcome of one obligation.
struct ObligationResult {
  std::string name;     ///< "value y[2]", "divisor at file:line:col", ...
  VerdictKind verdict;
  std::string how;      ///< "normalizer", "z3 (unsat)", or the reason
  /// With --explain, for a value obligation left UNKNOWN: what was left to
  /// show, `kernel == spec` under `condition` (the path condition), as the
  /// terms the checker had (TermNode::toReadableString; cut past about
  /// 2000 characters). Empty otherwise.
  struct Residual {
    std::string kernel, spec, condition;
  };
  std::optional<Residual> residual;
};

/// A confirmed counterexample.
struct Counterexample {
  std::string property;       ///< "value mismatch at y[0]", ...
  Assignment inputs;          ///< exact rational inputs
  std::string kernelValue;    ///< MPFR enclosure, printed
  std::string specValue;
  std::string location;       ///< PTX location of the failing store
  /// For a value mismatch: the output buffer and element (row-major
  /// element index) whose value differs; empty for other properties.
  std::string outputBuffer;
  std::optional<uint64_t> outputIndex;
  /// Inputs the replay set to non-finite values, which `inputs` (exact
  /// rationals) cannot hold: (buffer, value) for "every element of buffer
  /// is value" ("-inf", "inf", "nan"). They replace the buffer's values in
  /// `inputs`.
  std::vector<std::pair<std::string, std::string>> nonFiniteInputs;
};

/// A race or barrier divergence the model shows only with NaN or infinite
/// inputs (--verify-sync): the obligation (UNKNOWN) and the model's
/// counterexample over its finite values.
struct NonFiniteCandidate {
  std::string obligation;
  Counterexample counterexample;
};

/// The version of the JSON verdict format (docs/verify-equiv.md); raised
/// when a key changes meaning or goes away (new keys keep it).
constexpr int64_t kVerdictSchemaVersion = 1;

/// "kproof X.Y.Z": the tool and engine version printed with every verdict.
std::string toolVersion();

struct Verdict {
  VerdictKind kind = VerdictKind::Unknown;
  /// The contract's symbol name, and the wall time of its check (proof and
  /// replay) in seconds; filled by the driver (< 0: not measured).
  std::string contractName;
  double seconds = -1;
  std::string kernelName;
  std::string specDescription;
  /// The launch as the contract states it: "grid (4, 1, 1) x block (64, 1,
  /// 1)"; a symbolic extent as "<= N" (N its bound). Empty when the
  /// contract did not bind.
  std::string launch;
  /// A contract buffer: name, role ("in", "out", "inout"), element type
  /// ("f32"), and per dimension the extent in elements, or the name of the
  /// size or launch extent it is ("n", "nctaid.x*ntid.x").
  struct BufferShape {
    std::string name, role, type;
    std::vector<std::string> dims;
  };
  std::vector<BufferShape> buffers;
  std::vector<std::string> assumptions;
  std::vector<std::string> idioms;
  std::vector<std::string> warnings;
  std::vector<ObligationResult> obligations;
  /// Symbolic execution: the paths checked, the data-dependent branches
  /// that forked, and the merges of their states at joins.
  unsigned paths = 0, branches = 0, merges = 0;
  std::optional<Counterexample> counterexample;
  /// UNKNOWN only: the first race or divergence that only non-finite inputs
  /// reach. The driver's replay (interp::replayAndSettle) tries concrete
  /// non-finite values the contract allows; a run that shows the finding
  /// makes the verdict REFUTED with those inputs.
  std::optional<NonFiniteCandidate> nonFiniteCandidate;
  /// For UNKNOWN: the first reason.
  std::string reason;
  /// For REFUTED: what replaying the counterexample on the kernel through
  /// the CPU interpreter showed ("confirmed by replay: ...", or why not).
  /// Filled by the driver (kproof-opt, the pass), empty when not replayed.
  std::string replay;
  /// The instructions where an obligation was refuted, with the property
  /// ("value mismatch at y[3]"), once per instruction and property. The
  /// checker does not report them: the driver emits them
  /// (emitRefutedSites) once the verdict stands, after the replay, so that
  /// nothing says REFUTED before it is confirmed.
  std::vector<std::pair<mlir::Location, std::string>> refutedSites;

  /// Emits one error diagnostic "REFUTED: <property>" per refuted site when
  /// the verdict is REFUTED; nothing otherwise.
  void emitRefutedSites() const;

  /// One input of the counterexample as reports list it: a scalar (`buffer`
  /// empty), a buffer element at `index` (per dimension, as the contract's
  /// shape gives it; the flat index when the shape has one dimension or an
  /// extent without a value), the buffer's default for elements not listed
  /// (`others`), or a non-finite fill of the whole buffer (`all`).
  struct InputEntry {
    std::string name, value, buffer;
    std::vector<int64_t> index;
    bool others = false, all = false;
    uint64_t flat = 0; ///< an element's row-major index
  };
  /// The counterexample's inputs in order: scalars by name, then each
  /// buffer's elements in index order and its default. `compact`: a buffer
  /// with more than 8 listed elements lists only those that differ from
  /// its default. Empty without a counterexample.
  std::vector<InputEntry> listInputs(bool compact) const;
  /// The counterexample's property with its output element indexed as the
  /// contract's shape gives it ("value mismatch at y[3, 28] (row-major
  /// 178)").
  std::string property() const;
  /// `text` with each element "y[178]" of a buffer of two or more
  /// dimensions written as the contract's shape gives it (elementIndex).
  std::string shaped(llvm::StringRef text) const;
  /// The element at row-major `flat` of `buffer` as a multi-dimensional
  /// index by the contract's shape.
  std::vector<int64_t> elementIndex(llvm::StringRef buffer,
                                    uint64_t flat) const;

  /// kproof-opt exit code (docs/design-notes.md "Certificates restate the
  /// goal"): 0 PROVED, 1 REFUTED, 3 UNKNOWN.
  int exitCode() const;
  /// The Alive2-style text report.
  void print(llvm::raw_ostream &os) const;
  /// The same content as JSON (schema in docs/verify-equiv.md).
  void printJSON(llvm::raw_ostream &os) const;
};

struct CheckerOptions {
  /// Z3 resource limit per query (deterministic): what decides a solver
  /// UNKNOWN (docs/design-notes.md "Certificates restate the goal").
  uint64_t rlimit = 50'000'000;
  /// Wall-clock guard per query, in seconds (0: none). It only backs the
  /// rlimit, which Z3 4.8 does not always heed (nonlinear integers,
  /// bit-blasting); an UNKNOWN it causes is reported as this guard, since
  /// it depends on the machine's load.
  unsigned solverGuardSeconds = 300;
  /// Memory budget in MiB (0: none): symbolic execution stops with UNKNOWN
  /// past it (ExecutorOptions::memoryLimitMiB), and no Z3 query starts
  /// past it (UNKNOWN naming the budget). One query can still grow beyond
  /// it while it runs. The default stays below a 24 GiB machine.
  uint64_t memoryLimitMiB = 16384;
  /// Bounded checks at small sizes: when the proof over the contract's
  /// symbolic sizes (integer scalars with a `range`, under a concrete
  /// launch) is UNKNOWN, the kernel is checked again with every such size
  /// fixed to lo, lo + 1, ... (this many values, within the range); the
  /// first REFUTED is the verdict (its counterexample names the size). They
  /// never prove anything. 0: none.
  unsigned smallSizes = 4;
  /// The sizes' values for one such bounded check (bindContract's
  /// launchValues); empty: symbolic.
  std::map<std::string, int64_t> sizeValues;
  /// Precision of the MPFR confirmation, in bits.
  unsigned mpfrBits = 256;
  /// Models tried before a non-confirmed counterexample gives UNKNOWN.
  unsigned maxModels = 4;
  /// Seeded random concrete inputs tried on a value obligation before the
  /// solver (testing before proving, Probe.h); one confirmed with the true
  /// functions is a counterexample. They never prove anything. 0: none.
  unsigned probes = 16;
  /// Cases a value obligation over merged states (ites over branch
  /// conditions) is split into at most; past it the value goes to Z3 whole.
  unsigned maxCases = 256;
  /// Precision downgrades are failures (REFUTED) instead of warnings.
  bool strictPrecision = false;
  /// When set, a certificate per proved obligation is written there
  /// (Certificate.h).
  std::string certificateDir;
  /// Only the synchronization and memory-safety obligations (races, barrier
  /// divergence, shared reads, bounds and alignment, traps): the
  /// `--verify-sync` mode. The spec is not compared.
  bool syncOnly = false;
  /// Keep the residual of each value obligation left UNKNOWN (--explain):
  /// the kernel's and the spec's terms and the path condition, in readable
  /// form (ObligationResult::residual).
  bool explain = false;
  /// Merge the states of data-dependent branches at their joins
  /// (ExecutorOptions::mergeStates); off: every path runs to its end.
  bool mergeStates = true;
  /// The time limit of the whole check, in seconds (--timeout; 0: none).
  /// Past it symbolic execution stops, no Z3 query starts, a running one is
  /// interrupted (its time limit is what remains), and the verdict is
  /// UNKNOWN naming the limit. Wall-clock, so machine-dependent: the
  /// solver's rlimit stays what decides a solver UNKNOWN. The clock starts
  /// when checkEquivalence does (or at `deadline` when that is set).
  unsigned timeoutSeconds = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Whether the time limit (`deadline`) has passed.
  bool pastDeadline() const {
    return deadline && std::chrono::steady_clock::now() >= *deadline;
  }
  /// Called at each step of the check with a short description of what
  /// starts now (a phase: "symbolic execution", "memory safety", ...; or a
  /// long obligation: one store's value) and the verdict so far (kernel,
  /// spec, launch, the obligations decided); `now` is empty when an
  /// obligation was just decided and the step goes on. The driver prints
  /// progress from it, and keeps what a hard time-limit stop reports. It
  /// runs on the checker's thread and must be cheap.
  std::function<void(llvm::StringRef now, const Verdict &sofar)> progress;
};

/// Checks the kernel named by `contract` in `module` against the contract.
/// Contract errors (unknown kernel, parameter count or type mismatch) are
/// emitted as diagnostics at the contract and give std::nullopt.
std::optional<Verdict> checkEquivalence(mlir::ModuleOp module,
                                        kproof::ContractOp contract,
                                        const CheckerOptions &options = {});

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_CHECK_EQUIVALENCECHECKER_H
