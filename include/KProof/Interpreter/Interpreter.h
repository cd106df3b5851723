//===- Interpreter.h - concrete execution of kproof kernels -----*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CPU interpreter (docs/interpreter.md): runs one
// kproof.kernel over a concrete launch (3-D grid and block) with concrete
// inputs. Every thread has its own registers and call stack; memory is
// byte-addressed per state space (.global buffers and variables, .shared per
// CTA, .local per thread) with bounds checks against the allocation lengths
// and the contract's buffer extents. Barriers are scheduling points; warp
// collectives (shfl.sync, vote.sync, activemask, bar.warp.sync) rendezvous
// per warp and check their membermasks; atomics are read-modify-writes.
//
// It executes the SAME instruction semantics as the symbolic executor
// (execOp, lib/Verifier/Exec/*Ops.cpp), concretely, in one of two numeric
// modes:
//   - IEEE: floats are host IEEE values of their PTX type with PTX's
//     rounding modes (.rn .rz .rm .rp) and .ftz (PTX ISA 9.7.3); the .approx
//     instructions use the host's functions (ex2.approx is exp2f).
//   - Exact: floats are reals in MPFR at high precision (256 bits by
//     default), every instruction its exact real function, as in the proof
//     engine's reals model (ex2(0f3FB8AA3B * f) is read as exp(f), the same
//     idiom the executor applies).
//
// Between barriers threads run in a chosen interleaving (Schedule), and
// accesses are recorded per byte, so a missing barrier shows dynamically:
// conflicting accesses of two threads in the same barrier phase (shared and
// global memory) and reads of uninitialized shared memory or output buffers
// are reported as findings.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_INTERPRETER_INTERPRETER_H
#define KPROOF_INTERPRETER_INTERPRETER_H

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Terms/Rational.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kproof::interp {

/// How floats are computed.
enum class NumericMode {
  IEEE,  ///< host IEEE arithmetic of the PTX type, PTX rounding and ftz
  Exact, ///< reals at high precision (the proof engine's reals model)
};

/// The order in which the threads of a CTA run between scheduling points.
enum class SchedulePolicy {
  InOrder,        ///< thread 0 first, each until it blocks
  Reversed,       ///< the last thread first, each until it blocks
  WarpRoundRobin, ///< one instruction per lane of a warp, warp after warp
  Random,         ///< a seeded random thread runs a few instructions
};

struct Schedule {
  SchedulePolicy policy = SchedulePolicy::InOrder;
  uint64_t seed = 0;
};

/// Parses "inorder", "reversed", "warp-rr" or "random[:SEED]"; nullopt if
/// malformed.
std::optional<Schedule> parseSchedule(llvm::StringRef text);
/// The spelling parseSchedule accepts.
std::string toString(const Schedule &schedule);

/// One concrete scalar: a finite exact value, or an IEEE special.
struct Scalar {
  enum class Kind { Finite, PosInf, NegInf, NaN } kind = Kind::Finite;
  Rational value; ///< for Finite; integers are integral rationals

  Scalar() = default;
  Scalar(Rational v) : value(std::move(v)) {}
  static Scalar special(Kind k) {
    Scalar s;
    s.kind = k;
    return s;
  }
  bool isFinite() const { return kind == Kind::Finite; }
  /// "3/4", "inf", "-inf", "nan".
  std::string toString() const;
};

/// The inputs of one launch, by contract parameter name.
struct LaunchInputs {
  /// Buffer contents in elements, row-major; missing or short buffers are
  /// padded with 0 (output buffers start uninitialized, see Interpreter).
  std::map<std::string, std::vector<Scalar>> buffers;
  /// Values of scalar parameters.
  std::map<std::string, Scalar> scalars;
};

/// A high-precision real (MPFR), the value of a float in Exact mode.
class BigFloat {
public:
  explicit BigFloat(unsigned precisionBits = 256);
  BigFloat(const BigFloat &o);
  BigFloat &operator=(const BigFloat &o);
  ~BigFloat();
  /// The underlying mpfr_t (mpfr_ptr).
  void *raw();
  const void *raw() const;
  double toDouble() const;
  /// Decimal with `digits` significant digits ("inf", "nan" as such).
  std::string toString(unsigned digits = 17) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// One element of a buffer after the run.
struct OutputElement {
  /// Raw bits of the element type (IEEE mode; in Exact mode the nearest
  /// value of the type, rounded to nearest even).
  uint64_t bits = 0;
  /// Whether any thread stored to it.
  bool written = false;
  /// Exact mode: the real value (null in IEEE mode or for integers).
  std::shared_ptr<BigFloat> exact;
};

/// A dynamic problem of the kernel (exit 1 of kproof-run).
struct Finding {
  enum class Kind {
    Race,              ///< conflicting same-phase accesses of two threads
    Uninitialized,     ///< read of never-written shared memory / output
    OutOfBounds,       ///< access outside every allocation or a buffer
    StoreToInput,      ///< store to an `in` buffer of the contract
    Misaligned,        ///< address not aligned to the access size
    BarrierDivergence, ///< an aligned barrier reached at different places
    Membermask,        ///< a warp collective's membermask is violated
    Deadlock,          ///< every live thread waits and nothing can complete
    Trap,              ///< trap / __assertfail reached
    MBarrier,          ///< mbarrier use before init, re-init, use after inval
  };
  Kind kind;
  std::string message;
  mlir::Location loc;
  /// The other access of a race, or the other barrier.
  std::optional<mlir::Location> other;
};

/// A numerically notable event of IEEE arithmetic that the proof engine
/// raises an obligation for: a float division or rcp by zero, sqrt of a
/// negative, rsqrt or lg2 of a non-positive value. Not a finding (IEEE
/// defines a result); the replay of a divisor or domain counterexample
/// looks for it.
struct Event {
  std::string what; ///< "divisor of div is zero", ...
  mlir::Location loc;
  unsigned thread;  ///< linear thread id in the launch
};

struct RunOptions {
  NumericMode mode = NumericMode::IEEE;
  Schedule schedule;
  /// MPFR precision of Exact mode, in bits.
  unsigned exactPrecision = 256;
  /// Operations executed by all threads before the run stops (error).
  uint64_t maxSteps = 200'000'000;
  /// Bytes of dynamic (.extern) shared memory per CTA; unset: the
  /// launch's (the contract's `dynamic_shared`, LaunchConfig::dynamicShared).
  std::optional<uint64_t> dynamicSharedBytes;
  /// The contract's tolerate_equal_writes: two unordered writes of the
  /// same bytes are a warning, not a race finding (by default they are a
  /// race, as under PTX's memory model).
  bool tolerateEqualWrites = false;
  /// Findings kept (the run continues after a finding): this many in all,
  /// a quarter of them per kind.
  unsigned maxFindings = 32;
  /// The lane elect.sync elects for a membermask (PTX ISA 9.7.13.14 leaves
  /// the choice to the hardware); a mask not listed elects its lowest
  /// lane. A replay takes the verifier's counterexample's choice.
  std::map<uint32_t, unsigned> electedLanes;
};

struct RunResult {
  /// An input or interpreter error (exit 2 of kproof-run): an unmodeled
  /// op (named, with its PTX location), a missing input, a step limit.
  std::string error;
  std::optional<mlir::Location> errorLoc;
  std::vector<Finding> findings;
  std::vector<Event> events;
  /// Final contents of every buffer parameter, by name, in elements.
  std::map<std::string, std::vector<OutputElement>> buffers;
  /// Warnings (e.g. what the race check does not cover).
  std::vector<std::string> warnings;
  uint64_t steps = 0;

  bool failed() const { return !error.empty(); }
};

/// Runs `kernel` over `launch` with parameters bound by position to
/// `buffers` (a buffer parameter, given its contract binding) or scalars
/// (nullopt entries: the value comes from `inputs.scalars` under
/// `paramNames[i]`). Buffer contents come from `inputs.buffers`. Never
/// aborts on a kernel problem: errors are in RunResult::error, dynamic
/// problems in RunResult::findings.
RunResult run(kproof::KernelOp kernel,
              const engine::LaunchConfig &launch,
              const std::vector<std::optional<engine::BufferBinding>> &buffers,
              const std::vector<std::string> &paramNames,
              const LaunchInputs &inputs, const RunOptions &options = {});

/// The PTX location of `loc` as "file:line:col" (with the CUDA location in
/// parentheses when there is one), as the proof engine prints it.
std::string locationString(mlir::Location loc);

/// "race", "uninitialized read", ...
llvm::StringRef findingKindName(Finding::Kind kind);

/// The IEEE value of `bits` of float type `type` (f16, bf16, f32, f64) as a
/// Scalar; integers (`type` an IntegerType) are read signed if `isSigned`.
Scalar scalarOfBits(uint64_t bits, mlir::Type type, bool isSigned = true);

/// The bits of the element type nearest to `s` (round to nearest even);
/// integers wrap modulo 2^width. `exact` is set to whether no rounding
/// happened.
uint64_t bitsOfScalar(const Scalar &s, mlir::Type type, bool *exact = nullptr);

} // namespace kproof::interp

#endif // KPROOF_INTERPRETER_INTERPRETER_H
