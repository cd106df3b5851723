//===- LoopSummary.h - closed-form summaries of loops -----------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Verifier/Exec: `LoopSummarizer`, the executor's loop
// summaries (docs/design-notes.md "Loops: closed forms over a symbolic trip
// count"), defined in LoopSummary.cpp. The executor owns one
// (`Executor::loops`) and asks it, when a branch enters a loop from outside, to
// replace the loop by its effect over a symbolic trip count; a loop it does not
// summarize is unrolled, and the reason (`failure`) goes into a later UNKNOWN.
// While an iteration runs, the executor reports the regions it loads
// (`noteLoad`).
//
// Its interface to the executor: it is built with the executor's term
// context, normalizer, result, shared-memory model, symbol table and buffer
// bindings, and runs the symbolic iteration with a small set of public
// `Executor` methods, each declared in the section of its concern in
// ExecutorImpl.h: `execOp` (the ops of the body), `fresh`, `sortOf` and
// `get` (the iteration's values), `mayHold` (the trip count's proof) and
// `worklistSize`/`truncateWorklist` (an op that forked the path is undone).
// Public methods rather than a friend declaration, so that the compiler
// holds the summarizer to that list; the rest of the executor stays
// private to it.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_VERIFIER_EXEC_LOOPSUMMARY_H
#define KPROOF_LIB_VERIFIER_EXEC_LOOPSUMMARY_H

#include "KProof/Verifier/Exec/Executor.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kproof::engine::exec {

class Executor;
class SharedMemoryModel;
struct State;
struct SymValue;

/// Loop summaries: a loop of the shape nvcc emits for a counted loop is
/// replaced by its effect over its trip count, in closed form.
class LoopSummarizer {
public:
  LoopSummarizer(Executor &ex, TermContext &T, Normalizer &N,
                 ExecutionResult &result, SharedMemoryModel &sharedMemory,
                 mlir::SymbolTable &symbols,
                 const std::vector<std::optional<BufferBinding>> &buffers);

  /// A natural loop whose blocks form one cycle from its header, with one
  /// exit branch: the shape nvcc emits for a counted loop (bottom-tested
  /// at -O3, top-tested at -G).
  struct LoopShape {
    mlir::Block *header = nullptr;
    llvm::SmallPtrSet<mlir::Block *, 8> blocks;
    /// The blocks, header first, in execution order.
    llvm::SmallVector<mlir::Block *, 4> cycle;
    /// Conditional branches with both successors inside the loop (an
    /// inner loop): `cycle` is then empty, and an iteration follows them
    /// only when their conditions fold to constants.
    bool innerBranches = false;
    /// CTA-wide barriers or shared-memory accesses in the body: a tile
    /// loop whose iterations synchronize (summarizeLoop's conditions).
    bool synchronizes = false;
    mlir::cf::CondBranchOp exitBranch;
    bool exitOnTrue = false;
  };
  /// The loop headed by `b`, if it has the supported shape.
  const LoopShape *loopAt(mlir::Block *b, std::string &why);
  /// Summarizes the loop `dest` heads, entered by `s` with header
  /// arguments `entry`: the loop's effect over its whole trip count E, in
  /// closed form (induction variables a0 + s * k; sums, maxima, minima of
  /// the iterations as SumOver/MaxOver/MinOver terms), E proved to be the
  /// first iteration whose exit test fails, the body's obligations
  /// recorded once over a symbolic iteration k < E. True with `s` at the
  /// exit block; false (nothing changed) when the loop is not summarized
  /// (unrolled as before), with the reason in failure().
  bool summarizeLoop(State &s, mlir::Block *dest,
                     llvm::ArrayRef<SymValue> entry);
  /// Why the last loop was not summarized (named in a later UNKNOWN);
  /// empty when none failed.
  const std::string &failure() const { return loopFailure; }
  /// While one symbolic iteration runs: the body loads `region`.
  void noteLoad(const std::string &region) {
    if (loopLoads)
      loopLoads->insert(region);
  }

private:
  Executor &ex;
  TermContext &T;
  Normalizer &N;
  ExecutionResult &result;
  SharedMemoryModel &sharedMemory;
  mlir::SymbolTable &symbols;
  const std::vector<std::optional<BufferBinding>> &buffers;

  mlir::DominanceInfo dominance;
  /// Where the two sides of a branch inside a body meet (summarizeLoop).
  mlir::PostDominanceInfo postDominance;
  llvm::DenseMap<mlir::Block *, std::optional<LoopShape>> loopShapes;
  /// Why the last loop was not summarized (failure()).
  std::string loopFailure;
  /// While one symbolic iteration of a loop runs: the regions it loads.
  std::set<std::string> *loopLoads = nullptr;
  /// Numbers the iteration variables shared by the threads of a CTA in
  /// synchronizing loops ("loop.k@<n>", "loop.d@<n>": no '#', so the
  /// substitutions to another thread keep them).
  unsigned uniformCounter = 0;
  /// Synchronizing loops whose symbolic iteration ran and failed (after
  /// its iteration: not retried), with the reason.
  llvm::DenseMap<mlir::Block *, std::string> failedSynchronizing;
  /// d with a == b + d (mod 2^w), when a's addends include b's; null
  /// otherwise.
  Term additiveDifference(Term a, Term b);
};

} // namespace kproof::engine::exec

#endif // KPROOF_LIB_VERIFIER_EXEC_LOOPSUMMARY_H
