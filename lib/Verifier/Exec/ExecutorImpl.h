//===- ExecutorImpl.h - the symbolic executor's internals -------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Verifier/Exec: the state of one path (registers, memory,
// barrier progress, pending joins) and the class `Executor` that runs a
// kernel for one representative thread (Executor.h's `execute`). The class
// declaration is the table of contents; its definitions are split by
// concern (README.md in this directory). Two concerns are classes of
// their own, members of the executor: the loop summarizer
// (`LoopSummarizer`, LoopSummary.h) and the model of memory other threads
// write (`SharedMemoryModel`, SharedMemory.h); the executor methods they
// use are its public ones, each in the section of its concern.
//
//   Executor.cpp      entry point, driver loop (worklist, phases), paths
//   Merge.cpp         joins of data-dependent branches, state merging
//   LoopSummary.cpp   closed-form summaries of counted loops
//                     (class LoopSummarizer, LoopSummary.h)
//   Threads.cpp       special registers, thread ids, feasibility (Z3)
//   Memory.cpp        regions, addresses, this thread's own memory
//                     (loads resolved by StoreChain, StoreChain.h)
//   SharedMemory.cpp  memory other threads write: writers, pending reads
//                     (class SharedMemoryModel, SharedMemory.h)
//   Ops.cpp           execOp: dispatch, moves, control flow, calls
//   ArithOps.cpp      integer, bit and float arithmetic, comparisons
//   MemoryOps.cpp     ld and st in every state space
//   SyncOps.cpp       barriers, fences, atomics, shfl.sync, vote.sync;
//                     GenerationOrder (orders through third threads)
//   AsyncCopy.cpp     cp.async and its groups
//   MBarrier.cpp      mbarrier objects: init, arrive, waits, inval
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_VERIFIER_EXEC_EXECUTORIMPL_H
#define KPROOF_LIB_VERIFIER_EXEC_EXECUTORIMPL_H

#include "LoopSummary.h"
#include "SharedMemory.h"

#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Exec/StoreChain.h"
#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/SMT/Z3Solver.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kproof::engine::exec {

using ::kproof::BarrierKind;
using ::kproof::ElectOp;
using ::kproof::GlobalOp;
using ::kproof::KernelOp;
using ::kproof::LoadOp;
using ::kproof::MatchOp;
using ::kproof::ReduxOp;
using ::kproof::ShflOp;
using ::kproof::SpecialReg;
using ::kproof::StateSpace;
using ::kproof::StoreOp;
using ::kproof::VoteOp;
using ::kproof::WarpSyncOp;
using ::llvm::APInt;
using ::llvm::ArrayRef;
using ::llvm::SmallVector;
using ::llvm::StringRef;
using ::llvm::Twine;
using ::mlir::Block;
using ::mlir::DominanceInfo;
using ::mlir::Location;
using ::mlir::OperandRange;
using ::mlir::Operation;
using ::mlir::PostDominanceInfo;
using ::mlir::SymbolTable;
using ::mlir::Type;
using ::mlir::Value;

/// The width in bits of a register type (vectors: all elements).
inline unsigned getWidthOf(Type t) {
  if (auto v = llvm::dyn_cast<mlir::VectorType>(t))
    return v.getNumElements() * v.getElementType().getIntOrFloatBitWidth();
  return t.getIntOrFloatBitWidth();
}

/// A register value: a term of the register's sort, or (realBits) a real
/// term travelling in an integer register through bit-preserving moves.
struct SymValue {
  Term term = nullptr;
  bool realBits = false;
  /// For real bits: the float type whose bits the register holds (f16,
  /// bf16, f32, f64), or null when unknown (a 16-bit register merged from
  /// two formats). 32 and 64 bits can only be f32 and f64.
  Type realType;
};

struct Frame {
  KernelOp func;
  Block *block = nullptr;
  Block::iterator it;
  llvm::DenseMap<Value, SymValue> env;
  /// The call op whose results receive this frame's return values.
  Operation *callSite = nullptr;
};

struct MemCell {
  Term value;
  bool realBits;
  unsigned bytes;
  Location loc;
};

struct State {
  Term pc;
  SmallVector<Frame, 2> stack;
  /// Memory written so far: region name -> byte offset -> cell.
  std::map<std::string, std::map<uint64_t, MemCell>> mem;
  std::vector<std::string> violations;
  std::vector<Location> violationLocs; ///< one per violation
  std::vector<SymbolicStore> symbolicStores;
  /// Stores to per-thread .local arrays (PTX ISA 5.1.5) in program order,
  /// once one of them had a symbolic byte offset (before that, constant
  /// stores live in `mem`): the store chain a load resolves against.
  struct ScratchStore {
    std::string region;
    Term offset; ///< byte offset, 64-bit BV
    unsigned bytes;
    Term value;
    Location loc;
  };
  std::vector<ScratchStore> scratchStores;
  /// Whether buffer `name` has stores at symbolic indices on this path.
  bool storedSymbolically(StringRef name) const {
    return llvm::any_of(symbolicStores, [&](const SymbolicStore &st) {
      return st.buffer == name;
    });
  }
  /// Whether .local array `name` has an ordered store chain.
  bool hasScratchChain(StringRef name) const {
    return llvm::any_of(scratchStores, [&](const ScratchStore &st) {
      return st.region == name;
    });
  }
  /// Multi-thread launches (docs/verify-sync.md "The model"): the barrier
  /// phase, this thread's own shared-memory writes (program order), and how
  /// often each memory op ran on this path (loop iterations).
  unsigned phase = 0;
  struct SharedWrite {
    unsigned phase;
    std::string region;
    Term offset;
    unsigned bytes;
    Term value;
    bool realBits;
    /// Whether the write happened: true, or, after a merge, the side of
    /// the branch that made it (a write under `if (lane == 0)`).
    Term guard = nullptr;
  };
  std::vector<SharedWrite> sharedWrites;
  /// This thread's cp.async copies not yet complete, in issue order (PTX
  /// ISA: cp.async): the destination bytes, the cp.async-group (-1 while
  /// not committed), the write accesses recorded for the race checks
  /// (result.accesses[firstAccess, firstAccess + numAccesses)) and the
  /// writes the thread sees once a cp.async.wait completes the copy.
  struct AsyncCopy {
    std::string region;
    Term offset; ///< byte offset of the destination, 64-bit BV
    unsigned bytes;
    int64_t group;
    Location loc;
    size_t firstAccess, numAccesses;
    std::vector<SharedWrite> writes;
    bool operator==(const AsyncCopy &o) const {
      return firstAccess == o.firstAccess && numAccesses == o.numAccesses &&
             group == o.group;
    }
  };
  std::vector<AsyncCopy> asyncCopies;
  /// cp.async-groups committed so far (cp.async.commit_group).
  int64_t asyncGroups = 0;
  /// bar.warp.sync executed on this path, per (constant) membermask: the
  /// k-th of a lane pairs with the k-th of every lane its mask names
  /// (finishShuffles), which orders memory between them (MemoryAccess).
  std::map<uint32_t, unsigned> warpSyncs;
  /// The phase of the last bar.warp.sync (~0u: none): a shared read after
  /// one in its phase may see another lane's write of the phase.
  unsigned warpSyncPhase = ~0u;
  /// The last warp collective on this path, and the collectives run so
  /// far per kind (Executor::noteCollective).
  std::string lastCollective;
  std::map<std::string, unsigned> collectiveCounts;
  llvm::DenseMap<Operation *, unsigned> occurrences;
  /// Counted barriers passed on this path, by id (ascending), and the ids
  /// this thread arrived at with bar.arrive (without waiting).
  std::vector<BarrierClock> clock;
  llvm::SmallVector<unsigned, 2> arrivedWithoutWait;
  /// mbarrier objects (by id) this thread initialized and has not
  /// invalidated, with the CTA phase of the init, and those it used.
  std::map<unsigned, unsigned> mbarrierInits;
  std::set<unsigned> mbarrierUses, mbarrierInvals;
  std::vector<BarrierEvent> events;
  /// Joins this state is heading for, innermost last: the immediate
  /// post-dominator `block` of a data-dependent branch (fork `id`), in the
  /// frame at stack depth `depth`.
  struct PendingJoin {
    unsigned id;
    Block *block;
    size_t depth;
    bool operator==(const PendingJoin &o) const {
      return id == o.id && block == o.block && depth == o.depth;
    }
  };
  SmallVector<PendingJoin, 4> joins;
};

/// A region of memory the executor can address: a bound buffer or a
/// module variable.
struct Region {
  std::string name;
  StateSpace space;
  Type elemType;
  uint64_t bytes = 0; ///< size in bytes (0: unknown / dynamic)
  const BufferBinding *buffer = nullptr;
  GlobalOp global;
};

/// locationString, for messages.
inline std::string locString(Location loc) { return locationString(loc); }

/// Runs one kernel for one representative thread (Executor.h, `execute`).
/// Paths run from a worklist; the states of a data-dependent branch meet
/// again at its immediate post-dominator and merge; counted loops are
/// summarized in closed form; in a multi-thread launch, paths run in CTA
/// phases between barriers, and shared reads resolve against the writes of
/// the other threads (docs/verify-sync.md "The model").
class Executor {
public:
  Executor(KernelOp kernel, const LaunchConfig &launch,
           const std::vector<std::optional<BufferBinding>> &buffers,
           const std::vector<Term> &scalars, TermContext &terms,
           Normalizer &normalizer, const ExecutorOptions &options);

  ExecutionResult run();

private:
  //===--------------------------------------------------------------------===//
  // Inputs, result, driver loop (Executor.cpp)
  //===--------------------------------------------------------------------===//

  KernelOp kernel;
  const LaunchConfig &launch;
  const std::vector<std::optional<BufferBinding>> &buffers;
  const std::vector<Term> &scalars;
  TermContext &T;
  Normalizer &N;
  const ExecutorOptions &options;
  SymbolTable symbols;
  ExecutionResult result;
  uint64_t steps = 0;
  unsigned freshCounter = 0;
  std::map<std::string, Region> regions; // by base-variable name
  std::vector<State> worklist;
  /// States waiting at a CTA barrier for the phase to end.
  std::vector<State> parked;
  /// Forks whose first side is still to run while the other one branches
  /// (otherStatesPending).
  unsigned siblingsPending = 0;

  /// Executes one state until it ends, forks, or stops; returns false when
  /// the state was consumed (finished, forked into the worklist, stopped).
  void step(State &s);
  bool branchTo(State &s, Block *dest, OperandRange args);
  /// Records a completed path (its stores, and its arrival at the end
  /// in a multi-thread launch).
  void finishPath(State &s);

public:
  // The services of this section that SharedMemoryModel (unknown, fresh,
  // get, set, isMultiThread) and LoopSummarizer (the worklist, fresh, get,
  // sortOf) use.

  /// The number of states on the worklist, and dropping those past the
  /// first `n` (states that an op of a loop's symbolic iteration forked).
  size_t worklistSize() const { return worklist.size(); }
  void truncateWorklist(size_t n) {
    if (worklist.size() > n)
      worklist.erase(worklist.begin() + n, worklist.end());
  }
  /// Merges `b` into `a` when both stand at the same point with the same
  /// memory layout and barrier progress; false (nothing changed) otherwise.
  /// Also LoopSummarizer's, for the two sides of a branch inside a loop's
  /// symbolic iteration.
  bool mergeInto(State &a, const State &b);
  /// A CTA-wide barrier (bar.sync / barrier.sync without a thread count,
  /// __syncthreads; PTX ISA 9.7.13.4) reached in a loop's symbolic
  /// iteration (LoopSummarizer): recorded as execOp records it (the
  /// arrival, the next phase) without parking the state for the phase's
  /// end. False with the reason in `why` for any other barrier (counted,
  /// bar.arrive, bar.red, a non-constant id) or in a one-thread launch.
  bool passBarrier(State &s, BarrierOp b, std::string &why);
  /// Whether a state other than the running one is pending: on the
  /// worklist, parked at a CTA barrier, or waiting at a join.
  bool otherStatesPending() const {
    return !worklist.empty() || !parked.empty() || waitingStates != 0 ||
           siblingsPending != 0;
  }
  /// Whether counted barriers (bar.sync id, n; bar.arrive) occur.
  bool countedBarriersUsed() const { return result.countedBarriers; }
  /// Stops the current path: the verdict will be UNKNOWN.
  void unknown(Location loc, const Twine &why);
  /// A fresh variable "<base>#<n>" of `sort` (a BV of `width` bits).
  Term fresh(StringRef base, Sort sort, unsigned width = 0);

  // Helpers over values.
  SymValue get(Frame &f, Value v) { return f.env.lookup(v); }
  /// Binds `v` to `t` (real bits of `realType` when `realBits`). The bits
  /// of a real in a known format filling an integer register (a half
  /// unpacked from packed f16x2: a FloatBits term) become real bits.
  void set(Frame &f, Value v, Term t, bool realBits = false,
           Type realType = Type());
  /// The FloatBits format name of float type `t` ("f16", "bf16", "f32",
  /// "f64"; for a vector of halves, its element's), or empty.
  static StringRef floatFormat(Type t);
  /// The float format name of real bits ("f16", "bf16", "f32", "f64"):
  /// from the value's type when known, else from the width (32 and 64
  /// bits); empty when unknown.
  static StringRef realFormat(const SymValue &v, unsigned width);
  /// A register value as a bit-vector: real bits of a known format as
  /// their FloatBits term; null (UNKNOWN at `loc`) for a real of unknown
  /// format.
  Term bitsOf(const SymValue &v, unsigned width, Location loc);
  /// The real whose `format` bits `t` holds (TermContext::realOfFloatBits),
  /// where a leaf that is (part of) uninitialized memory's arbitrary bits
  /// is an arbitrary real (its read is an obligation of its own); null
  /// when `t` holds other bits.
  Term realOfBits(Term t, StringRef format);
  /// The value a store of `width` bytes keeps in untyped memory (shared,
  /// .local, module variables): a 16-bit real as its FloatBits, so that it
  /// is read back in its own format (f16 or bf16); null (UNKNOWN at `loc`)
  /// when that format is not known.
  SymValue storedValue(SymValue v, unsigned width, Location loc);

  bool isMultiThread() const { return launch.totalThreads() > 1; }
  /// The sort of a register type: i1 Bool, other integers BV, floats Real.
  static Sort sortOf(Type t);

private:
  /// realOfBits: the arbitrary real of each uninitialized half.
  llvm::DenseMap<Term, Term> uninitHalves;

  //===--------------------------------------------------------------------===//
  // State merging at control-flow joins (Merge.cpp)
  //===--------------------------------------------------------------------===//

  /// The joins of data-dependent branches (State::joins), by fork id: how
  /// many states heading for it are still running (`live`), and the states
  /// that arrived. When the last one arrives (or ends), the arrived states
  /// are merged (mergeStates) and continue; an `abandoned` join (its
  /// siblings wait at a CTA barrier of a later phase) lets states pass.
  struct JoinPoint {
    unsigned live = 0;
    bool abandoned = false;
    std::vector<State> waiting;
  };
  std::vector<JoinPoint> joinPoints;
  size_t waitingStates = 0;
  PostDominanceInfo postDominance;
  /// The block where the two sides of a branch leaving `b` meet again (its
  /// immediate post-dominator); null when they never do (different exits).
  Block *joinBlockOf(Block *b);
  /// True (and `s` consumed) when `s` stands at the entry of the join it
  /// heads for: it waits there for its siblings.
  bool arriveAtJoin(State &s);
  /// Bookkeeping for a state that ended (finished, trapped): its joins no
  /// longer wait for it.
  void leaveJoins(State &s);
  /// Merges the states waiting at join `id` (those that are compatible)
  /// and puts the results on the worklist.
  void releaseJoin(unsigned id);
  /// The location of a store of merged states: `a` when both sides stored
  /// at the same instruction, else FusedLoc[a, b] tagged
  /// "kproof.merged.<k>" with `guard` (a's side) as result.mergeGuards[k]
  /// (locationString prints "A or B"; a counterexample picks its side).
  Location mergedLoc(Location a, Location b, Term guard);

  //===--------------------------------------------------------------------===//
  // Loop summaries (LoopSummary.h, LoopSummary.cpp; docs/design-notes.md
  // "Loops: closed forms over a symbolic trip count", docs/design-notes.md
  // "Loops")
  //===--------------------------------------------------------------------===//

  /// Replaces a counted loop the executor enters by its effect over a
  /// symbolic trip count (branchTo); why the last loop was not summarized.
  LoopSummarizer loops;

  //===--------------------------------------------------------------------===//
  // Threads: special registers, thread ids, feasibility (Threads.cpp)
  //===--------------------------------------------------------------------===//

  /// The representative thread's id variables and their extents.
  llvm::DenseMap<Term, int64_t> tidVars, ctaidVars;

public:
  // The services of this section that SharedMemoryModel (thread ids,
  // substitutions to another thread) and LoopSummarizer (mayHold) use.

  /// False only when `pc` is unsatisfiable: a conjunct the thread-id
  /// bounds falsify (TermContext::decideByBounds), else checked with Z3
  /// when `pc` has no real-valued subterm; true when unsure.
  bool mayHold(Term pc);
  /// mayHold's solver query alone (no bounds decision).
  bool mayHoldBySolver(Term pc);
  /// The undecided conjuncts of a path condition (those decideByBounds
  /// decided true left out) and the declared bounds of their variables:
  /// satisfiable within the bounds exactly when the path condition is.
  Term withVariableBounds(ArrayRef<Term> conjuncts);
  /// The thread-id variables tid.* (ctaid.*) with their extents (those
  /// of a dimension of more than one thread, CTA).
  const llvm::DenseMap<Term, int64_t> &threadIdVars() const { return tidVars; }
  const ExecutorOptions &getOptions() const { return options; }
  const llvm::DenseMap<Term, int64_t> &ctaIdVars() const { return ctaidVars; }
  /// Linear form c0 + sum c_v * v of a BV term over the thread-id
  /// variables, exact (no wrap-around at any width, checked with the
  /// variables' ranges); false when the term is not of that form.
  bool linearize(Term t, __int128 scale, __int128 &c0,
                 std::map<Term, __int128, TermIdLess> &coeffs);
  /// Renames the fresh ('#') variables of `terms` apart, into `map`.
  void renameFresh(ArrayRef<Term> terms, llvm::DenseMap<Term, Term> &map);
  /// All tid variables < their extents, under `map`.
  Term threadRange(const llvm::DenseMap<Term, Term> &map);

private:
  /// The term of special register `reg` (PTX ISA 10): thread and CTA ids
  /// (ranges added to the path), launch extents, fresh values for the
  /// clocks and hardware ids; null (UNKNOWN recorded) when not modeled.
  /// The value of special register `reg`: thread ids, launch extents, and
  /// a fresh value per read where kproof-symbolize-lanes tagged the read
  /// (`freshPerRead`); null (UNKNOWN recorded) for anything else.
  Term specialRegister(State &s, SpecialReg reg, Location loc,
                       bool freshPerRead);
  /// The linear thread id x + y*ntid.x + z*ntid.x*ntid.y of the
  /// representative thread (32-bit), adding the tid ranges to the path.
  Term linearTid(State &s);
  /// The substitution making the representative thread the thread of
  /// linear id `lin` in the same CTA.
  llvm::DenseMap<Term, Term> threadAt(Term lin);
  /// Threads per CTA as a 32-bit term (launch variables when symbolic).
  Term ctaThreadsTerm();
  /// Threads per CTA of a concrete launch (0: symbolic).
  uint64_t ctaThreads() const;
  /// Z3 for pruning infeasible branches over thread ids (lazily created).
  std::unique_ptr<smt::Context> z3;
  std::unique_ptr<Z3Lowering> z3Lowering;
  /// The range [lo, hi] of a linear form over the thread-id ranges.
  std::pair<__int128, __int128>
  rangeOf(__int128 c0, const std::map<Term, __int128, TermIdLess> &coeffs);

  //===--------------------------------------------------------------------===//
  // This thread's own memory (Memory.cpp)
  //===--------------------------------------------------------------------===//

public:
  // The service of this section that SharedMemoryModel uses.

  /// The region of base variable `base` ("&name"), if any.
  std::optional<Region *> regionOf(StringRef base);

private:
  /// addr = base + offset: the base variable's region and the byte offset
  /// (64-bit BV term, constant when the address is).
  bool decomposeAddress(Term addr, int64_t extra, std::string &region,
                        Term &byteOffset, Location loc);
  /// The address of an ld/st as region + byte offset; false (UNKNOWN
  /// recorded) for an address holding real bits, or an address not rooted
  /// at a region.
  bool resolveAccess(Frame &f, Value address, int64_t offset,
                     StateSpace space, Location loc, Term &addr,
                     std::string &region, Term &byteOffset);
  /// The value a load of `bytes` at `key` reads (symbolic memory): the
  /// thread's own earlier stores to the same memory in `chain` (newest
  /// first), then the initial contents `base` (an input element, or an
  /// arbitrary value for uninitialized memory), as StoreChain::load
  /// resolves it; its obligations go to result.alignments under the path
  /// condition of `s`. Null (UNKNOWN recorded) when the load is UNKNOWN.
  Term resolveChain(State &s, const StoreChain &chain, Term key,
                    unsigned bytes, Term base, StringRef what, Location loc);
  /// The chain of contract buffer `name` (keys: element indices, of
  /// `elemBytes` bytes each): its symbolic-index stores, newest first, then
  /// its constant-index cells.
  StoreChain bufferChain(State &s, const std::string &name,
                         unsigned elemBytes);
  /// The chain of .local array `name` (keys: byte offsets): its ordered
  /// stores, newest first, then its cells.
  StoreChain scratchChain(State &s, const std::string &name);
  /// The obligations of a .local access of `need` bytes (the whole vector)
  /// at symbolic byte `o` of an array of `bytes` (0: size unknown): aligned
  /// to the vector (PTX ISA 5.4.5) and inside the array (without wrapping).
  void localBounds(State &s, bool store, const std::string &region, Term o,
                   uint64_t need, uint64_t bytes, Location loc);
  /// A constant bit pattern stored to a float buffer of its width (nvcc
  /// stores 0.0f and 1.0f with st.global.u32 0, 1065353216) is that float's
  /// value (IEEE 754 binary16/bfloat16/binary32/binary64 by the buffer's
  /// element type): a real travelling as bits. NaN patterns and every other
  /// value stay as they are.
  SymValue floatBits(const Region &r, SymValue v, Location loc);

  //===--------------------------------------------------------------------===//
  // Memory other threads write (SharedMemory.h, SharedMemory.cpp;
  // docs/verify-sync.md "The model")
  //===--------------------------------------------------------------------===//

  /// Shared loads and stores, the accesses recorded for the race checks,
  /// and the reads checked when every path has run.
  SharedMemoryModel sharedMemory;

  //===--------------------------------------------------------------------===//
  // Operations (Ops.cpp, ArithOps.cpp, MemoryOps.cpp, SyncOps.cpp)
  //===--------------------------------------------------------------------===//

public:
  // The service of this section that LoopSummarizer uses.

  /// Executes `op` in the innermost frame of `s`. Returns true to continue
  /// with the next op of the same state, false when the state ended.
  bool execOp(State &s, Operation *op);

private:
  /// The ops of one concern, each a case of execOp: nullopt when `op` is
  /// not one of them, else execOp's answer. Integer, bit and float
  /// arithmetic, comparisons, conversions (ArithOps.cpp); ld and st
  /// (MemoryOps.cpp); barriers, fences, atomics, shfl.sync, vote.sync
  /// (SyncOps.cpp).
  /// An op tagged by recognizeMathIdioms: an idiom's interior op is skipped,
  /// its root is the function's value (nvcc's expf: exp(x), reported as an
  /// idiom). nullopt for any other op.
  std::optional<bool> execMathIdiom(State &s, Operation *op);
  std::optional<bool> execArithOp(State &s, Operation *op);
  /// Unary float operations and the rest of ArithOps.cpp's float cases.
  std::optional<bool> execFloatOp(State &s, Operation *op);
  /// The value of fbin `o` on reals `a` and `b` (one element of packed
  /// halves, or the scalar), with its obligations; null on UNKNOWN.
  Term floatBinary(State &s, FloatBinOp o, Term a, Term b, Location loc);
  std::optional<bool> execMemoryOp(State &s, Operation *op);
  std::optional<bool> execSyncOp(State &s, Operation *op);
  /// cp.async, cp.async.commit_group and cp.async.wait_group/wait_all
  /// (AsyncCopy.cpp).
  std::optional<bool> execAsyncCopyOp(State &s, Operation *op);
  /// mbarrier.init / arrive / test_wait / try_wait / inval (MBarrier.cpp).
  std::optional<bool> execMBarrierOp(State &s, Operation *op);
  /// When every path has run: the objects with an arrival that may join
  /// the phase of its thread's previous one (result.mbarrierUnaligned).
  void findUnalignedArrivals();
  /// mbarrier objects by (shared variable, byte offset), their ids from
  /// kMBarrierIdBase; the phase tokens mbarrier.arrive returned: token ->
  /// (id, arrival number).
  std::map<std::pair<std::string, uint64_t>, unsigned> mbarrierIds;
  llvm::DenseMap<Term, std::pair<unsigned, unsigned>> mbarrierTokens;
  /// Completes copy `c` of `s` in phase `phase` (a wait, or
  /// MemoryAccess::kNeverCompleted at the end of the path): its accesses
  /// get their last phase, its writes become the thread's own. False
  /// (UNKNOWN recorded) when another path completes it in another phase,
  /// or a counted barrier was passed while it was in flight.
  bool completeAsyncCopy(State &s, const State::AsyncCopy &c, unsigned phase,
                         Location loc);
  /// A register read as a real: a real term, or real bits moved through an
  /// integer register; null (UNKNOWN recorded) for an integer bit pattern.
  Term realOperand(Frame &f, Value v, Location loc);
  /// A register read as an integer or predicate: real bits are refused
  /// (null, UNKNOWN recorded).
  Term bitsOperand(Frame &f, Value v, Location loc);
  /// False (UNKNOWN recorded unless already) when an op's result `t` is
  /// null: infinities met or an operand is not modeled.
  bool resultModeled(Term t, Location loc);
  /// `t` (a float result) with the cases of its extended leaves that the
  /// path decides taken: an ite over a condition that `s.pc` implies (or
  /// refutes), such as "some lane of the warp holds a column" after a
  /// masked butterfly max, is its arm (Z3 on the thread-id conditions,
  /// `mayHold`). Keeps the cases of later lifts from multiplying.
  Term settleExtended(State &s, Term t);
  /// settleExtended's decisions: (path condition, case condition) -> 1
  /// (implied), 0 (refuted), -1 (open).
  std::map<std::pair<unsigned, unsigned>, int> extendedCaseMemo;

  /// Whether the float value `t` may be NaN or infinite in the inputs the
  /// proof covers (ExecutorOptions::nonFiniteInputs, nonFiniteBuffers): a
  /// non-constant value when every input may be; else a value that reads a
  /// buffer the contract declares `nonfinite`, or a fresh variable (its
  /// origin is not tracked, so it may be such a read) other than the value
  /// of a shared read that no write reaches (SharedMemoryModel::isUnwritten).
  bool mayBeNonFinite(Term t);
  /// Closed arithmetic on read transcendental constants (x * x - 2 with x
  /// read as sqrt(2), ln(2) in f32 minus ln(2) in f64): a reading moves a
  /// float by up to half an ulp, which closed arithmetic can amplify
  /// without bound (to exactly 0, flipping a branch or hiding a NaN). True
  /// (after recording UNKNOWN at `loc`) when every operand is closed, some
  /// holds a constant atom, and `a op b (+ c)` over operands whose atoms
  /// are widened by 2^-23 contains 0 without being the point 0, or is wider
  /// than 2^-16 of its magnitude. `op` is Add, Mul or the fma's Mul-Add
  /// (Kind::Mul with `c`).
  bool readingIllConditioned(Kind op, Term a, Term b, Term c,
                             mlir::Location loc);
  /// A float result `r` the reals model folded to a constant although an
  /// operand may be NaN or infinite (x * 0, x - x, min(x, x) - x): in IEEE
  /// arithmetic it is then NaN or infinite, not the constant. Such a result
  /// is the constant only when every input is finite (the thread-independent
  /// nonFiniteFlag() false), else an arbitrary value, so comparisons of it
  /// stay open as comparisons of the inputs do (ExecutorOptions::
  /// nonFiniteInputs, nonFiniteBuffers).
  Term keepNonFinite(Term r, ArrayRef<Term> operands);
  /// mayBeNonFinite's answers for the terms it walked.
  llvm::DenseMap<Term, bool> nonFiniteMemo;
  /// `.sat` on a float result: clamp to [0, 1] (PTX ISA 9.7.3).
  Term saturate(Term t);
  /// Barrier ids used CTA-wide and with a thread count.
  std::set<unsigned> fullBarrierIds, countedBarrierIds;
  /// shfl.sync across the lanes of the warp (PTX ISA 9.7.9.6).
  bool shuffle(State &s, Frame &f, ShflOp sh, Location loc);
  /// vote.sync over the lanes of the membermask (PTX ISA 9.7.13.10).
  bool vote(State &s, Frame &f, VoteOp v, Location loc);
  /// redux.sync: add/min/max/and/or/xor of a 32-bit register over the
  /// lanes of the membermask (PTX ISA 9.7.13.12).
  bool redux(State &s, Frame &f, ReduxOp r, Location loc);
  /// match.any/all.sync: the lanes of the membermask holding the same
  /// 32- or 64-bit value (PTX ISA 9.7.13.10).
  bool match(State &s, Frame &f, MatchOp m, Location loc);
  /// elect.sync: one unspecified lane of a constant membermask, the same
  /// for every warp and execution (PTX ISA 9.7.13.14).
  bool elect(State &s, Frame &f, ElectOp e, Location loc);
  /// One lane of the executing thread's warp in a warp collective: whether
  /// it takes part (in the membermask and in the CTA) and the collective's
  /// operand terms at that lane.
  struct CollectiveLane {
    Term member;
    SmallVector<Term, 2> at;
  };
  /// The 32 lanes of the executing thread's warp for the warp collective
  /// `op` over the 32-bit `mask`, with `terms` (the collective's operands,
  /// as terms of the executing thread) at each lane. Records the
  /// membermask obligations (the executing lane is in the mask; every lane
  /// it names exists and executes the same collective with the same mask,
  /// checked in finishShuffles) and, when `terms` is not empty, the
  /// resolution that every lane of the mask runs this path (else the
  /// operands at other lanes are not determined: UNKNOWN). Empty `terms`:
  /// no lanes returned.
  std::optional<SmallVector<CollectiveLane, 32>>
  collectiveLanes(State &s, Operation *op, Term mask, ArrayRef<Term> terms,
                  Location loc);
  /// bar.warp.sync with a constant membermask (PTX ISA 9.7.13.3).
  bool warpSync(State &s, Frame &f, WarpSyncOp w, Location loc);
  /// The membermask operand as a term; null (UNKNOWN recorded) when it
  /// holds a real value.
  Term membermaskTerm(Frame &f, mlir::Value mask, llvm::StringRef what,
                      Location loc);
  /// Bit `lane` (32-bit, below 32) of the 32-bit `mask`: for a constant
  /// mask the lanes it names, without a shift by a symbolic amount.
  Term laneInMask(Term mask, Term lane);
  /// One execution of a shfl.sync on a path, for the membermask check.
  struct ShuffleRun {
    Operation *op;
    /// `occurrence`: collectives of the kind run before on the path;
    /// `opOccurrence`: executions of `op` before.
    unsigned phase, occurrence, opOccurrence;
    Term pc;
    Term namedLane; ///< lane w (a fresh variable) is named by the mask
    Term wLin;      ///< w's linear thread id
    Location loc;
    Term mask; ///< the membermask
  };
  std::vector<ShuffleRun> shuffles;
  /// Warp collectives by pairing key (kind, occurrence or per-mask count,
  /// phase), with the ones a path executed next: the deadlock check of
  /// finishShuffles.
  std::map<std::string, std::set<std::string>> collectiveEdges;
  /// Counts `op` among the path's collectives of its kind (its qualifiers
  /// and, when a constant, its membermask `mask`) and records it after the
  /// path's last collective; returns how many of the kind ran before on the
  /// path (the number that pairs lanes' executions on sm_70 and later).
  unsigned noteCollective(State &s, Operation *op, Term mask);
  /// Records the blocking event `key` (a collective, a counted barrier's
  /// waiting arrival) after the path's last one (collectiveEdges).
  void noteOrdered(State &s, const std::string &key);
  /// A shfl.sync.bfly over a whole warp (membermask of all 32 lanes, clamp
  /// 31, a constant power-of-two lane mask c < 32): its result term is the
  /// source register `src` at lane `lane ^ c` (PTX ISA 9.7.9.6).
  struct Butterfly {
    Term src;
    unsigned laneMask;
  };
  llvm::DenseMap<Term, Butterfly> butterflies;
  /// A value that is `op` (max, min or add) over the lanes of a butterfly
  /// span: op over m subset of the lane bits `bits` of `base` at the lane
  /// (lane & ~bits) | m of the same warp.
  struct LaneReduction {
    Term base;
    FloatBinKind op;
    unsigned bits;
  };
  llvm::DenseMap<Term, LaneReduction> laneReductions;
  /// op(a, b) where one operand is the other's butterfly shuffle, as the
  /// lane reduction over the widened span, its operands in lane order
  /// (lane (lane & ~bits) + m for m = 0, 1, ...): the same value as
  /// op(a, b) (the span's lanes as a set, or a multiset for add, do not
  /// depend on the order of the butterfly's steps), but a term that
  /// depends on the lane only through (lane & ~bits). A span of the low k
  /// bits of a warp of a CTA of 2^k threads does not depend on the lane
  /// at all. Null when op(a, b) is not such a step.
  Term combineButterfly(State &s, FloatBinKind op, Term a, Term b);
  /// Every lane a shfl.sync's (vote.sync's) membermask names executes one
  /// with the same membermask (PTX ISA 9.7.9.6, 9.7.13.10): on sm_70 and
  /// later an op of the same kind and mode, on sm_6x the same instruction,
  /// in the same phase and iteration, on some path: an obligation per
  /// execution.
  void finishShuffles();
};

} // namespace kproof::engine::exec

#endif // KPROOF_LIB_VERIFIER_EXEC_EXECUTORIMPL_H
