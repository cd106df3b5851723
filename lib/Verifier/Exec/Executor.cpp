//===- Executor.cpp - symbolic execution of kproof kernels ----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Exec/Executor.h"
#include "llvm/ADT/StringExtras.h"

#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/SMT/Z3Solver.h"

#include <cstdio>
#include <unistd.h>

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Demangle/Demangle.h"

#include <set>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

/// The width in bits of a register type (vectors: all elements).
unsigned getWidthOf(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * v.getElementType().getIntOrFloatBitWidth();
  return t.getIntOrFloatBitWidth();
}

/// A register value: a term of the register's sort, or (realBits) a real
/// term travelling in an integer register through bit-preserving moves.
struct SymValue {
  Term term = nullptr;
  bool realBits = false;
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
  /// Multi-thread launches (DESIGN.md §4): the barrier phase, this thread's
  /// own shared-memory writes (program order), and how often each memory op
  /// ran on this path (loop iterations).
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
  llvm::DenseMap<Operation *, unsigned> occurrences;
  /// Counted barriers passed on this path, by id (ascending), and the ids
  /// this thread arrived at with bar.arrive (without waiting).
  std::vector<BarrierClock> clock;
  llvm::SmallVector<unsigned, 2> arrivedWithoutWait;
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

/// A shared read under counted barriers, checked for initialization when
/// every path has run (Executor::checkCountedReads).
struct PendingRead {
  std::string region;
  Term offset;
  Term pc;
  Term ownWrite; ///< the thread's own earlier write of this phase hits it
  unsigned phase;
  unsigned bytes;
  std::vector<BarrierClock> clock;
  Location loc;
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


static std::string locString(Location loc) { return locationString(loc); }

/// f32 log2(e) = 0f3FB8AA3B = 12102203 / 2^23, the constant of the ex2 idiom.
Rational log2eF32() { return Rational(12102203, 8388608); }

class Executor {
public:
  Executor(KernelOp kernel, const LaunchConfig &launch,
           const std::vector<std::optional<BufferBinding>> &buffers,
           const std::vector<Term> &scalars, TermContext &terms,
           Normalizer &normalizer, const ExecutorOptions &options)
      : kernel(kernel), launch(launch), buffers(buffers), scalars(scalars),
        T(terms), N(normalizer), options(options),
        symbols(kernel->getParentOfType<ModuleOp>()) {}

  ExecutionResult run();

private:
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
  /// The representative thread's id variables and their extents.
  llvm::DenseMap<Term, int64_t> tidVars, ctaidVars;
  unsigned writerCounter = 0;
  /// Shared reads under counted barriers (result.countedBarriers).
  std::vector<PendingRead> pendingReads;
  /// Barrier ids used CTA-wide and with a thread count.
  std::set<unsigned> fullBarrierIds, countedBarrierIds;
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
  Block *joinBlockOf(Block *b) {
    if (!options.mergeStates || !b->getParent() ||
        b->getParent()->hasOneBlock())
      return nullptr;
    DominanceInfoNode *node = postDominance.getNode(b);
    if (!node || !node->getIDom())
      return nullptr;
    return node->getIDom()->getBlock();
  }
  /// True (and `s` consumed) when `s` stands at the entry of the join it
  /// heads for: it waits there for its siblings.
  bool arriveAtJoin(State &s);
  /// Bookkeeping for a state that ended (finished, trapped): its joins no
  /// longer wait for it.
  void leaveJoins(State &s);
  /// Merges the states waiting at join `id` (those that are compatible)
  /// and puts the results on the worklist.
  void releaseJoin(unsigned id);
  /// Merges `b` into `a` when both stand at the same point with the same
  /// memory layout and barrier progress; false (nothing changed) otherwise.
  bool mergeInto(State &a, const State &b);
  /// The location of a store of merged states: `a` when both sides stored
  /// at the same instruction, else FusedLoc[a, b] tagged
  /// "kproof.merged.<k>" with `guard` (a's side) as result.mergeGuards[k]
  /// (locationString prints "A or B"; a counterexample picks its side).
  Location mergedLoc(Location a, Location b, Term guard) {
    if (a == b)
      return a;
    MLIRContext *ctx = a->getContext();
    std::string tag =
        "kproof.merged." + std::to_string(result.mergeGuards.size());
    result.mergeGuards.push_back(guard);
    return FusedLoc::get(ctx, {a, b}, StringAttr::get(ctx, tag));
  }
  /// Threads per CTA as a 32-bit term (launch variables when symbolic).
  Term ctaThreadsTerm() {
    return T.bvBin(Kind::BVMul, launch.extent(T, "ntid.x"),
                   T.bvBin(Kind::BVMul, launch.extent(T, "ntid.y"),
                           launch.extent(T, "ntid.z")));
  }
  /// Threads per CTA of a concrete launch (0: symbolic).
  uint64_t ctaThreads() const {
    return launch.isSymbolic()
               ? 0
               : uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  }
  /// The UNKNOWN reason of an initialization obligation whose writer was
  /// guessed (writerMatch's `exact`).
  std::string unguessable(Location write) {
    return "the writer thread of the shared write at " + locationString(write) +
           " is not determined by its address (not a linear form of the "
           "thread ids): whether some thread wrote the element read is not "
           "decided";
  }
  /// Initialization of the shared reads under counted barriers: some
  /// write ordered before the read (by phase, or by generation of a
  /// counted barrier) hits its address.
  void checkCountedReads();
  /// Z3 for pruning infeasible branches over thread ids (lazily created).
  std::unique_ptr<smt::Context> z3;
  std::unique_ptr<Z3Lowering> z3Lowering;
  /// False only when `pc` is unsatisfiable (checked with Z3 when `pc` has
  /// no real-valued subterm; true when unsure).
  bool mayHold(Term pc);

  /// Linear form c0 + sum c_v * v of a BV term over the thread-id
  /// variables, exact (no wrap-around at any width, checked with the
  /// variables' ranges); false when the term is not of that form.
  bool linearize(Term t, __int128 scale, __int128 &c0,
                 std::map<Term, __int128, TermIdLess> &coeffs);
  /// The range [lo, hi] of a linear form over the thread-id ranges.
  std::pair<__int128, __int128>
  rangeOf(__int128 c0, const std::map<Term, __int128, TermIdLess> &coeffs);
  /// Renames the fresh ('#') variables of `terms` apart, into `map`.
  void renameFresh(ArrayRef<Term> terms, llvm::DenseMap<Term, Term> &map);
  /// The writer thread w* of shared write `w` whose address is `a` (a
  /// fresh-renamed copy of the representative thread, by inverting the
  /// write's linear address or from its path condition) as the
  /// substitution `sigma`, and the condition that w* exists, runs the
  /// write's path and writes at `a`.
  /// `exact` is false when w* is a guess: a thread id the write's path
  /// condition or address depends on is neither found by the inversion
  /// nor pinned (then "no writer matches" does not mean none exists).
  /// The writer of a per-warp slot (`slot[tid.x / 32]` written under
  /// `tid.x % 32 == c`): (tid.x, its value for address `a`), from the
  /// address's index normal form and the lane the write's path condition
  /// fixes; nullopt when the write is not of that shape.
  std::optional<std::pair<Term, Term>> warpWriter(const MemoryAccess &w,
                                                  Term a);
  Term writerMatch(const MemoryAccess &w, Term a,
                   llvm::DenseMap<Term, Term> &sigma, bool &exact);
  /// All tid variables < their extents, under `map`.
  Term threadRange(const llvm::DenseMap<Term, Term> &map);
  /// The value of a shared-memory read of `bytes` at `offset` in `region`
  /// by the representative thread in its current phase (DESIGN.md §4):
  /// its own earlier write of this phase, else the last write of an
  /// earlier phase by the writer thread, found by inverting the write's
  /// address (a witness), else uninitialized. Records the side conditions.
  Term resolveSharedRead(State &s, const std::string &region, Term offset,
                         unsigned bytes, Location loc, bool wantReal);
  /// One earlier store of this thread that a load may read: `key` is the
  /// element index (contract buffers, `bytes` 1) or the byte offset (.local
  /// arrays, `bytes` the width), a 64-bit BV.
  struct ChainEntry {
    Term key;
    unsigned bytes;
    Term value;
    Location loc;
  };
  /// Stores a load may see before UNKNOWN ("store chain limit").
  static constexpr unsigned kMaxChainAliases = 32;
  /// The value a load of `bytes` at `key` reads (symbolic memory): the
  /// thread's own earlier stores to the same memory, newest first in
  /// `chain`, then the initial contents `base` (an input element, or an
  /// arbitrary value for uninitialized memory). A store whose key provably
  /// equals the load's (index normal form of the difference, exact modulo
  /// 2^64) supplies the value; one provably disjoint is passed; one that
  /// may alias wraps the rest in ite(key == store key, stored, rest), and,
  /// when bytes > 1, adds the obligation that the two accesses are equal or
  /// disjoint. Null (UNKNOWN recorded) on a partial overlap, a read with
  /// another type than stored, or more than kMaxChainAliases undecided
  /// stores.
  Term resolveChain(State &s, ArrayRef<ChainEntry> chain, Term key,
                    unsigned bytes, Term base, StringRef what, Location loc);
  /// The chain of buffer `name` (newest first): its symbolic-index stores,
  /// then its constant-index cells.
  SmallVector<ChainEntry> bufferChain(State &s, const std::string &name,
                                      unsigned elemBytes);
  /// The chain of .local array `name`: its ordered stores, then its cells.
  SmallVector<ChainEntry> scratchChain(State &s, const std::string &name);
  /// A load of a contract buffer that threads write (out/inout) in a
  /// multi-thread launch: it sees the initial contents and this thread's
  /// own stores only if no other thread writes the bytes it reads.
  /// Checked when every path has run (checkGlobalReads).
  struct PendingGlobalRead {
    std::string region;
    Term offset; ///< byte offset
    unsigned bytes;
    Term pc;
    Location loc;
  };
  std::vector<PendingGlobalRead> globalReads;
  /// For every pending global read: no other thread (of this CTA or any
  /// other) writes an overlapping byte on any path, in any phase.
  void checkGlobalReads();
  /// The obligations of a shared access of `width` bytes at byte `o`:
  /// aligned to its width and inside the variable's `bytes`.
  void sharedBounds(State &s, StringRef what, const std::string &region,
                    Term o, unsigned width, uint64_t bytes, Location loc) {
    result.alignments.push_back(
        {s.pc, T.eq(T.bvBin(Kind::BVURem, o, T.bv(width, 64)), T.bv(0, 64)),
         loc, ("alignment of the shared " + what + " " + region).str()});
    result.alignments.push_back(
        {s.pc, T.bvUle(T.bvBin(Kind::BVAdd, o, T.bv(width, 64)),
                       T.bv(bytes, 64)),
         loc, ("shared " + what + " " + region + " inside its " +
               Twine(bytes) + " bytes").str()});
  }
  /// The obligations of a .local access of `need` bytes (the whole vector)
  /// at symbolic byte `o` of an array of `bytes` (0: size unknown): aligned
  /// to the vector (PTX ISA 5.4.5) and inside the array (without wrapping).
  void localBounds(State &s, bool store, const std::string &region, Term o,
                   uint64_t need, uint64_t bytes, Location loc) {
    std::string access = (store ? "store to " : "load from ") + region;
    result.alignments.push_back(
        {s.pc, T.eq(T.bvBin(Kind::BVURem, o, T.bv(need, 64)), T.bv(0, 64)),
         loc, "alignment of the " + access});
    if (bytes)
      result.alignments.push_back(
          {s.pc,
           need > bytes ? T.boolConst(false)
                        : T.bvUle(o, T.bv(bytes - need, 64)),
           loc, access + " inside its " + std::to_string(bytes) + " bytes"});
  }
  /// A constant bit pattern stored to a float buffer of its width (nvcc
  /// stores 0.0f and 1.0f with st.global.u32 0, 1065353216) is that float's
  /// value (IEEE 754 binary16/bfloat16/binary32/binary64 by the buffer's
  /// element type): a real travelling as bits. NaN patterns and every other
  /// value stay as they are.
  SymValue floatBits(const Region &r, SymValue v) {
    auto ft = dyn_cast_or_null<FloatType>(r.elemType);
    if (!ft || !v.term || v.realBits || v.term->getKind() != Kind::BVConst ||
        v.term->getWidth() != ft.getWidth())
      return v;
    APFloat f(ft.getFloatSemantics(), v.term->getAPInt());
    if (f.isInfinity())
      return {f.isNegative() ? T.negInf() : T.posInf(), true};
    if (std::optional<Rational> q = Rational::fromAPFloat(f))
      return {T.real(*q), true};
    return v;
  }
  /// The float value of constant bits `v` (f16/f32/f64 by its width:
  /// nvcc stores 0.0f as st.u32 0), or null (not a constant, NaN, inf).
  Term floatOfBits(Term v) {
    if (v->getKind() != Kind::BVConst)
      return nullptr;
    const llvm::fltSemantics *sem = v->getWidth() == 32   ? &APFloat::IEEEsingle()
                                    : v->getWidth() == 64 ? &APFloat::IEEEdouble()
                                    : v->getWidth() == 16 ? &APFloat::IEEEhalf()
                                                          : nullptr;
    if (!sem)
      return nullptr;
    if (std::optional<Rational> q =
            Rational::fromAPFloat(APFloat(*sem, v->getAPInt())))
      return T.real(*q);
    return nullptr;
  }
  /// Shared-memory load/store in a multi-thread launch.
  bool sharedLoad(State &s, Frame &f, LoadOp l, const std::string &region,
                  Term offset, Location loc);
  bool sharedStore(State &s, Frame &f, StoreOp st, const std::string &region,
                   Term offset, Location loc);
  /// Records a memory access for the race checks.
  void recordAccess(State &s, Operation *op, bool write,
                    const std::string &region, bool shared, Term offset,
                    unsigned bytes, Term value, Location loc,
                    bool atomic = false, StringRef scope = {}) {
    if (!isMultiThread())
      return;
    // The .local state space is private to each thread (PTX ISA 5.1.5):
    // its accesses never race with another thread's.
    if (std::optional<Region *> r = regionOf("&" + region);
        r && (*r)->space == StateSpace::Local)
      return;
    MemoryAccess a{s.phase, write,  atomic, scope.str(),
                   region,  shared, offset, bytes,
                   value,   s.pc,   loc,    s.occurrences[op],
                   op,      s.clock};
    result.accesses.push_back(std::move(a));
  }

  bool isMultiThread() const { return launch.totalThreads() > 1; }

  /// Stops the current path: the verdict will be UNKNOWN.
  void unknown(Location loc, const Twine &why) {
    if (result.unknownReason.empty()) {
      result.unknownReason = why.str();
      result.unknownLoc = loc;
    }
  }

  /// Whether the float value `t` may be NaN or infinite in the inputs the
  /// proof covers (ExecutorOptions::nonFiniteInputs, nonFiniteBuffers): a
  /// non-constant value when every input may be; else a value that reads a
  /// buffer the contract declares `nonfinite`, or a fresh variable (its
  /// origin is not tracked, so it may be such a read) other than the value
  /// of a shared read that no write reaches (unwrittenShared).
  bool mayBeNonFinite(Term t) {
    if (t->isConstant())
      return false;
    if (options.nonFiniteInputs)
      return true;
    if (options.nonFiniteBuffers.empty())
      return false;
    // Post-order over the DAG, each term once across calls (memoized).
    SmallVector<std::pair<Term, bool>> work{{t, false}};
    while (!work.empty()) {
      auto [u, expanded] = work.pop_back_val();
      if (nonFiniteMemo.count(u))
        continue;
      if (!expanded) {
        work.push_back({u, true});
        for (Term o : u->getOperands())
          if (!nonFiniteMemo.count(o))
            work.push_back({o, false});
        continue;
      }
      bool found = false;
      StringRef name = u->getName();
      if ((u->getKind() == Kind::RealVar || u->getKind() == Kind::Select) &&
          u->getSort() == Sort::Real) {
        StringRef buffer = name.take_until([](char c) { return c == '['; });
        // The value of a shared read that no write reaches stands for a
        // case the initialization obligations rule out (or report).
        found = (name.contains('#') && !unwrittenShared.contains(u)) ||
                llvm::is_contained(options.nonFiniteBuffers, buffer.str());
      }
      for (Term o : u->getOperands())
        found = found || nonFiniteMemo.lookup(o);
      nonFiniteMemo[u] = found;
    }
    return nonFiniteMemo.lookup(t);
  }
  /// A float result `r` the reals model folded to a constant although an
  /// operand may be NaN or infinite (x * 0, x - x, min(x, x) - x): in IEEE
  /// arithmetic it is then NaN or infinite, not the constant. Such a result
  /// is the constant only when every input is finite (the thread-independent
  /// nonFiniteFlag() false), else an arbitrary value, so comparisons of it
  /// stay open as comparisons of the inputs do (ExecutorOptions::
  /// nonFiniteInputs, nonFiniteBuffers).
  Term keepNonFinite(Term r, ArrayRef<Term> operands) {
    // Finite constants only: a result that is -inf or +inf in the model
    // (-inf - x from a -inf literal) stays one (ites of infinities are not
    // modeled; the NaN an infinite x would give there is not covered).
    if (!r || !r->isRealConst())
      return r;
    for (Term o : operands)
      if (mayBeNonFinite(o))
        return T.ite(T.boolVar(nonFiniteFlag()), fresh("fold.nonfinite",
                                                       Sort::Real),
                     r);
    return r;
  }
  /// The "@uninit" values of resolveSharedRead: a case that the shared
  /// read's initialization obligation excludes (or reports).
  llvm::DenseSet<Term> unwrittenShared;
  /// mayBeNonFinite's answers for the terms it walked.
  llvm::DenseMap<Term, bool> nonFiniteMemo;

  Term fresh(StringRef base, Sort sort, unsigned width = 0) {
    std::string name = (base + "#" + Twine(freshCounter++)).str();
    if (sort == Sort::Real)
      return T.realVar(name);
    if (sort == Sort::Bool)
      return T.boolVar(name);
    return T.bvVar(name, width);
  }

  static Sort sortOf(Type t) {
    if (t.isInteger(1))
      return Sort::Bool;
    if (isa<IntegerType>(t))
      return Sort::BV;
    return Sort::Real;
  }

  /// Executes one state until it ends, forks, or stops; returns false when
  /// the state was consumed (finished, forked into the worklist, stopped).
  void step(State &s);
  bool execOp(State &s, Operation *op);
  bool branchTo(State &s, Block *dest, OperandRange args);

  // --- Loop summaries (DESIGN.md §10; docs/design-notes.md "Loops") ---

  /// A natural loop whose blocks form one cycle from its header, with one
  /// exit branch: the shape nvcc emits for a counted loop (bottom-tested
  /// at -O3, top-tested at -G).
  struct LoopShape {
    Block *header = nullptr;
    llvm::SmallPtrSet<Block *, 8> blocks;
    SmallVector<Block *, 4> cycle; ///< header first, in execution order
    /// Conditional branches with both successors inside the loop (an
    /// inner loop): `cycle` is then empty, and an iteration follows them
    /// only when their conditions fold to constants.
    bool innerBranches = false;
    cf::CondBranchOp exitBranch;
    bool exitOnTrue = false;
  };
  DominanceInfo dominance;
  llvm::DenseMap<Block *, std::optional<LoopShape>> loopShapes;
  /// Why the last loop was not summarized (named in a later UNKNOWN).
  std::string loopFailure;
  /// The loop headed by `b`, if it has the supported shape.
  const LoopShape *loopAt(Block *b, std::string &why);
  /// Summarizes the loop `dest` heads, entered by `s` with header
  /// arguments `entry`: the loop's effect over its whole trip count E, in
  /// closed form (induction variables a0 + s * k; sums, maxima, minima of
  /// the iterations as SumOver/MaxOver/MinOver terms), E proved to be the
  /// first iteration whose exit test fails, the body's obligations
  /// recorded once over a symbolic iteration k < E. True with `s` at the
  /// exit block; false (nothing changed) when the loop is not summarized
  /// (unrolled as before), with the reason in loopFailure.
  bool summarizeLoop(State &s, Block *dest, ArrayRef<SymValue> entry);
  Term additiveDifference(Term a, Term b);
  /// While one symbolic iteration of a loop runs: the regions it loads.
  std::set<std::string> *loopLoads = nullptr;
  void finishPath(State &s);

  // Helpers over values.
  SymValue get(Frame &f, Value v) { return f.env.lookup(v); }
  void set(Frame &f, Value v, Term t, bool realBits = false) {
    f.env[v] = SymValue{t, realBits};
  }
  std::optional<Region *> regionOf(StringRef base);
  /// addr = base + offset: the base variable's region and the byte offset
  /// (64-bit BV term, constant when the address is).
  bool decomposeAddress(Term addr, int64_t extra, std::string &region,
                        Term &byteOffset, Location loc);
  Term specialRegister(State &s, SpecialReg reg, Location loc);
  /// The linear thread id x + y*ntid.x + z*ntid.x*ntid.y of the
  /// representative thread (32-bit), adding the tid ranges to the path.
  Term linearTid(State &s) {
    static const char *dims[] = {"tid.x", "tid.y", "tid.z"};
    Term lin = T.bv(0, 32);
    Term stride = T.bv(1, 32);
    for (int d = 0; d < 3; ++d) {
      Term extent = launch.extentOf(T, dims[d]);
      if (launch.block[d] > 1) {
        Term v = T.bvVar(dims[d], 32);
        s.pc = T.andOf(s.pc, T.bvUlt(v, extent));
        lin = T.bvBin(Kind::BVAdd, lin, T.bvBin(Kind::BVMul, v, stride));
      }
      stride = T.bvBin(Kind::BVMul, stride, extent);
    }
    return lin;
  }
  /// The substitution making the representative thread the thread of
  /// linear id `lin` in the same CTA.
  llvm::DenseMap<Term, Term> threadAt(Term lin) {
    static const char *dims[] = {"tid.x", "tid.y", "tid.z"};
    llvm::DenseMap<Term, Term> m;
    if (launch.block[1] == 1 && launch.block[2] == 1) {
      // A 1-D block: tid.x is the linear id (a lane past the block's end
      // does not exist, which the callers' obligations check).
      if (launch.block[0] > 1)
        m[T.bvVar("tid.x", 32)] = lin;
      for (auto &[v, ext] : ctaidVars)
        m[v] = v;
      return m;
    }
    Term stride = T.bv(1, 32);
    for (int d = 0; d < 3; ++d) {
      Term extent = launch.extentOf(T, dims[d]);
      if (launch.block[d] > 1)
        m[T.bvVar(dims[d], 32)] = T.bvBin(
            Kind::BVURem, T.bvBin(Kind::BVUDiv, lin, stride), extent);
      stride = T.bvBin(Kind::BVMul, stride, extent);
    }
    for (auto &[v, ext] : ctaidVars)
      m[v] = v;
    return m;
  }
  /// shfl.sync across the lanes of the warp (PTX ISA 9.7.9.6).
  bool shuffle(State &s, Frame &f, ShflOp sh, Location loc);
  /// vote.sync over the lanes of the membermask (PTX ISA 9.7.13.10).
  bool vote(State &s, Frame &f, VoteOp v, Location loc);
  /// Bit `lane` (32-bit, below 32) of the 32-bit `mask`: for a constant
  /// mask the lanes it names, without a shift by a symbolic amount.
  Term laneInMask(Term mask, Term lane) {
    if (mask->getKind() == Kind::BVConst) {
      const APInt &m = mask->getAPInt();
      if (m.isAllOnes())
        return T.bvUlt(lane, T.bv(32, 32));
      SmallVector<Term> lanes;
      for (unsigned b = 0; b < 32; ++b)
        if (m[b])
          lanes.push_back(T.eq(lane, T.bv(b, 32)));
      return T.orOf(lanes);
    }
    return T.eq(
        T.bvBin(Kind::BVAnd, T.bvBin(Kind::BVLShr, mask, lane), T.bv(1, 32)),
        T.bv(1, 32));
  }
  /// One execution of a shfl.sync on a path, for the membermask check.
  struct ShuffleRun {
    Operation *op;
    unsigned phase, occurrence;
    Term pc;
    Term namedLane; ///< lane w (a fresh variable) is named by the mask
    Term wLin;      ///< w's linear thread id
    Location loc;
    Term mask; ///< the membermask
  };
  std::vector<ShuffleRun> shuffles;
  /// Every lane a shfl.sync's (vote.sync's) membermask names executes one
  /// with the same membermask (PTX ISA 9.7.9.6, 9.7.13.10): on sm_70 and
  /// later an op of the same kind and mode, on sm_6x the same instruction,
  /// in the same phase and iteration, on some path: an obligation per
  /// execution.
  void finishShuffles() {
    bool sameInstruction = false;
    if (auto target =
            kernel->getParentOfType<ModuleOp>()->getAttrOfType<StringAttr>(
                "kproof.target")) {
      unsigned sm = 0;
      if (target.getValue().starts_with("sm_") &&
          !target.getValue()
               .drop_front(3)
               .take_while([](char c) { return c >= '0' && c <= '9'; })
               .getAsInteger(10, sm))
        sameInstruction = sm < 70;
    }
    for (const ShuffleRun &r : shuffles) {
      llvm::DenseMap<Term, Term> atW = threadAt(r.wLin);
      SmallVector<Term> runs;
      for (const ShuffleRun &o : shuffles) {
        bool sameKind = sameInstruction ? o.op == r.op
                                        : o.op->getName() == r.op->getName() &&
                                              o.op->getAttr("mode") ==
                                                  r.op->getAttr("mode");
        if (sameKind && o.phase == r.phase && o.occurrence == r.occurrence) {
          llvm::DenseMap<Term, Term> m = atW;
          renameFresh({o.pc, o.mask}, m);
          runs.push_back(T.andOf(T.substitute(o.pc, m),
                                 T.eq(T.substitute(o.mask, m), r.mask)));
        }
      }
      std::string what = isa<VoteOp>(r.op) ? "vote.sync" : "shfl.sync";
      result.alignments.push_back(
          {T.andOf({r.pc, r.namedLane, T.notOf(T.orOf(runs))}),
           T.boolConst(false), r.loc,
           "every lane named in the membermask executes a " + what +
               " with the same membermask"});
    }
  }
  /// `.sat` on a float result: clamp to [0, 1] (PTX ISA 9.7.3).
  Term saturate(Term t) { return T.min(T.max(t, T.real(0)), T.real(1)); }
  /// The address of an ld/st as region + byte offset; false (UNKNOWN
  /// recorded) for an address holding real bits, or an address not rooted
  /// at a region.
  bool resolveAccess(Frame &f, Value address, int64_t offset,
                     StateSpace space, Location loc, Term &addr,
                     std::string &region, Term &byteOffset) {
    (void)space;
    SymValue a = get(f, address);
    if (!a.term || a.realBits || a.term->getSort() != Sort::BV) {
      unknown(loc, "an address computed from a real value is not modeled");
      return false;
    }
    addr = a.term;
    return decomposeAddress(addr, offset, region, byteOffset, loc);
  }
};

//===----------------------------------------------------------------------===//
// Driver loop
//===----------------------------------------------------------------------===//

ExecutionResult Executor::run() {
  // Regions: bound buffers by their base-pointer variables, and module
  // variables.
  for (const std::optional<BufferBinding> &b : buffers)
    if (b) {
      Region r;
      r.name = b->name;
      r.space = StateSpace::Global;
      r.elemType = b->elemType;
      r.bytes = b->numElements() * b->elemBytes();
      r.buffer = &*b;
      regions["&" + b->name] = r;
    }
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  for (GlobalOp g : module.getOps<GlobalOp>()) {
    Region r;
    r.name = g.getSymName().str();
    r.space = g.getSpace();
    r.elemType = g.getElemType();
    r.bytes = g.getCount() ? *g.getCount() * g.getElementSizeInBytes() : 0;
    // An extern .shared array without a size is the dynamic shared memory
    // the launch provides: its size comes from the contract.
    if (!g.getCount() && g.getSpace() == StateSpace::Shared)
      r.bytes = launch.dynamicShared;
    r.global = g;
    regions["&" + r.name] = r;
  }

  State init;
  // A symbolic launch: every path starts from the launch's range facts.
  init.pc = launch.facts(T);
  Frame f;
  f.func = kernel;
  f.block = &kernel.getBody().front();
  f.it = f.block->begin();
  for (auto [i, arg] : llvm::enumerate(f.block->getArguments())) {
    if (i < buffers.size() && buffers[i]) {
      set(f, arg, T.bvVar("&" + buffers[i]->name, getWidthOf(arg.getType())));
    } else if (i < scalars.size() && scalars[i]) {
      set(f, arg, scalars[i]);
    } else {
      unknown(kernel.getLoc(), "kernel parameter #" + Twine(i) +
                                   " is not bound by the contract");
      return std::move(result);
    }
  }
  init.stack.push_back(std::move(f));
  worklist.push_back(std::move(init));
  static const char *dims[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    if (launch.block[d] > 1) {
      std::string n = std::string("tid.") + dims[d];
      tidVars[T.bvVar(n, 32)] = launch.block[d];
      result.threadVars.push_back({n, launch.block[d]});
    }
  }
  for (int d = 0; d < 3; ++d) {
    if (launch.grid[d] > 1) {
      std::string n = std::string("ctaid.") + dims[d];
      ctaidVars[T.bvVar(n, 32)] = launch.grid[d];
      result.threadVars.push_back({n, launch.grid[d]});
    }
  }
  // Counted barriers anywhere in the module (bar.arrive, or a thread count
  // other than the CTA's): shared reads are checked, not resolved.
  // An id used with bar.arrive or a count anywhere is a counted barrier
  // everywhere (bar.sync 1, 256 with bar.arrive 1, 256 in a 256-thread CTA).
  // The kernel and the functions it calls, transitively.
  SmallVector<KernelOp> reachable{kernel};
  for (size_t i = 0; i < reachable.size(); ++i)
    reachable[i].walk([&](CallOp call) {
      if (auto callee = symbols.lookup<KernelOp>(call.getCallee()))
        if (!llvm::is_contained(reachable, callee))
          reachable.push_back(callee);
    });
  for (KernelOp k :
       isMultiThread() ? ArrayRef(reachable) : ArrayRef<KernelOp>())
    k.walk([&](BarrierOp b) {
      auto constant = [](Value v) -> std::optional<uint64_t> {
        auto c = v ? v.getDefiningOp<ConstantOp>() : ConstantOp();
        auto a = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
        if (!a)
          return std::nullopt;
        return a.getValue().getZExtValue();
      };
      std::optional<uint64_t> count = constant(b.getCount());
      bool counted =
          b.getKind() == BarrierKind::Arrive ||
          (b.getCount() && (!count || !ctaThreads() || *count != ctaThreads()));
      if (!counted)
        return;
      result.countedBarriers = true;
      if (std::optional<uint64_t> id =
              b.getId() ? constant(b.getId()) : std::optional<uint64_t>(0))
        countedBarrierIds.insert(*id);
    });
  while (!worklist.empty() || !parked.empty() || waitingStates) {
    if (worklist.empty() && waitingStates) {
      // States wait at joins whose other states wait at a CTA barrier:
      // they meet in a later phase, if at all. Merge what arrived and let
      // the rest pass the join.
      for (unsigned id = 0; id < joinPoints.size(); ++id)
        if (!joinPoints[id].waiting.empty()) {
          joinPoints[id].abandoned = true;
          releaseJoin(id);
        }
      continue;
    }
    if (worklist.empty()) {
      // Every path reached a barrier or the end: the phase is over
      // (DESIGN.md §4); the next one starts for all parked states.
      worklist = std::move(parked);
      parked.clear();
      std::reverse(worklist.begin(), worklist.end());
    }
    State s = std::move(worklist.back());
    worklist.pop_back();
    step(s);
    if (!result.unknownReason.empty())
      break;
    if (result.paths.size() + worklist.size() + parked.size() + waitingStates >
        options.maxPaths) {
      unknown(kernel.getLoc(), "more than " + Twine(options.maxPaths) +
                                   " paths (data-dependent control flow)" +
                                   (loopFailure.empty()
                                        ? std::string()
                                        : "; not summarized: " + loopFailure));
      break;
    }
  }
  if (result.unknownReason.empty())
    finishShuffles();
  if (result.unknownReason.empty())
    checkCountedReads();
  if (result.unknownReason.empty())
    checkGlobalReads();
  return std::move(result);
}

void Executor::step(State &s) {
  while (true) {
    Frame &f = s.stack.back();
    if (f.it == f.block->end()) {
      unknown(f.func.getLoc(), "block without terminator");
      return;
    }
    if (!s.joins.empty() && f.it == f.block->begin() && arriveAtJoin(s))
      return;
    Operation *op = &*f.it;
    if (options.memoryLimitMiB && (steps & 4095) == 0 &&
        residentMiB() > options.memoryLimitMiB) {
      unknown(op->getLoc(), "memory budget of " +
                                Twine(options.memoryLimitMiB) +
                                " MiB exceeded during symbolic execution "
                                "(--memory-limit)");
      return;
    }
    if (++steps > options.maxSteps) {
      unknown(op->getLoc(), "step limit of " + Twine(options.maxSteps) +
                                " operations reached (loop bound not "
                                "proven)");
      return;
    }
    if (!execOp(s, op))
      return;
  }
}

void Executor::finishPath(State &s) {
  leaveJoins(s);
  if (isMultiThread()) {
    Frame &f = s.stack.back();
    result.arrivals.push_back(
        {s.phase, nullptr, true, s.pc,
         f.it != f.block->end() ? f.it->getLoc() : f.func.getLoc(), 0, s.clock,
         s.events});
  }
  PathResult p;
  p.pathCondition = s.pc;
  p.violations = s.violations;
  p.violationLocs = s.violationLocs;
  p.symbolicStores = s.symbolicStores;
  for (auto &[name, cells] : s.mem) {
    auto it = regions.find("&" + name);
    if (it == regions.end() || !it->second.buffer)
      continue; // shared/local scratch: not an output
    const BufferBinding &b = *it->second.buffer;
    for (auto &[off, cell] : cells) {
      uint64_t idx = off / b.elemBytes();
      p.stores[name].insert_or_assign(
          idx, FinalStore{name, idx, cell.value, cell.loc});
    }
  }
  result.paths.push_back(std::move(p));
}

bool Executor::branchTo(State &s, Block *dest, OperandRange args) {
  Frame &f = s.stack.back();
  SmallVector<SymValue> vals;
  for (Value a : args)
    vals.push_back(get(f, a));
  // Entering a loop (from outside it): summarize it when it has the
  // supported shape and a symbolic trip count.
  if (options.summarizeLoops && f.block && f.block != dest) {
    std::string why;
    if (const LoopShape *L = loopAt(dest, why))
      if (!L->blocks.count(f.block) && summarizeLoop(s, dest, vals))
        return true;
  }
  for (auto [arg, v] : llvm::zip(dest->getArguments(), vals))
    f.env[arg] = v;
  f.block = dest;
  f.it = dest->begin();
  return true;
}

//===----------------------------------------------------------------------===//
// Loop summaries
//===----------------------------------------------------------------------===//

const Executor::LoopShape *Executor::loopAt(Block *h, std::string &why) {
  auto found = loopShapes.find(h);
  if (found != loopShapes.end())
    return found->second ? &*found->second : nullptr;
  std::optional<LoopShape> &slot = loopShapes[h];
  auto fail = [&](const Twine &w) -> const LoopShape * {
    why = w.str();
    loopFailure = "loop at " + locationString(h->front().getLoc()) + ": " + why;
    return nullptr;
  };
  // Back edges: predecessors the header dominates.
  SmallVector<Block *> latches;
  for (Block *p : h->getPredecessors())
    if (dominance.dominates(h, p))
      latches.push_back(p);
  if (latches.empty())
    return nullptr;
  LoopShape L;
  L.header = h;
  L.blocks.insert(h);
  SmallVector<Block *> work(latches.begin(), latches.end());
  while (!work.empty()) {
    Block *b = work.pop_back_val();
    if (!L.blocks.insert(b).second)
      continue;
    for (Block *p : b->getPredecessors())
      work.push_back(p);
  }
  // One exit branch: the only terminator with a successor outside the
  // loop. Other conditional branches stay inside (an inner loop with a
  // constant trip count, as -G keeps an unrolled `#pragma unroll` loop):
  // the iteration follows them only when their conditions fold to
  // constants (summarizeLoop).
  for (Block *b : L.blocks) {
    Operation *term = b->getTerminator();
    if (auto br = dyn_cast<cf::BranchOp>(term)) {
      if (!L.blocks.count(br.getDest()))
        return fail("the loop body leaves the loop without its exit test");
    } else if (auto cb = dyn_cast<cf::CondBranchOp>(term)) {
      bool inT = L.blocks.count(cb.getTrueDest()),
           inF = L.blocks.count(cb.getFalseDest());
      if (inT && inF) {
        L.innerBranches = true;
        continue;
      }
      if ((!inT && !inF) || L.exitBranch)
        return fail("the loop has more than one exit");
      L.exitBranch = cb;
      L.exitOnTrue = !inT;
    } else {
      return fail("the loop body ends in something other than a branch");
    }
  }
  if (!L.exitBranch)
    return fail("the loop has no exit test");
  // The blocks in execution order when nothing inside branches: the
  // cycle from the header.
  if (!L.innerBranches) {
    Block *cur = h;
    while (true) {
      L.cycle.push_back(cur);
      Operation *term = cur->getTerminator();
      Block *next = nullptr;
      if (auto br = dyn_cast<cf::BranchOp>(term))
        next = br.getDest();
      else if (auto cb = dyn_cast<cf::CondBranchOp>(term))
        next = L.exitOnTrue ? cb.getFalseDest() : cb.getTrueDest();
      if (next == h)
        break;
      if (llvm::is_contained(L.cycle, next))
        return fail("the loop contains an inner cycle");
      cur = next;
    }
    if (L.cycle.size() != L.blocks.size())
      return fail("the loop is not one cycle with one exit test");
  }
  // Only ops whose effect over all iterations the summary states; a call
  // of a .func with a body (fmaxf at -G) is stepped through when its body
  // is made of such ops and calls nothing.
  // Stores of the body itself become store families (summarizeLoop);
  // a callee's stores are not summarized.
  auto unsupported = [](Operation &op) {
    return isa<BarrierOp, AtomOp, ShflOp, VoteOp, ActiveMaskOp, WarpSyncOp,
               FenceOp, TrapOp, CallOp, OpaqueOp, UndefOp, ExitOp>(op);
  };
  for (Block *b : L.blocks)
    for (Operation &op : *b) {
      if (auto call = dyn_cast<CallOp>(op)) {
        auto callee = symbols.lookup<KernelOp>(call.getCallee());
        bool ok = callee && !callee.getBody().empty();
        if (ok)
          callee.walk([&](Operation *o) {
            ok &= !unsupported(*o) && !isa<StoreOp>(o);
          });
        if (ok)
          continue;
      }
      if (unsupported(op) || isa<ReturnOp>(op))
        return fail("the loop body has a '" + op.getName().getStringRef() +
                    "' (synchronization and calls of functions that "
                    "synchronize or store are not summarized)");
    }
  slot = std::move(L);
  return &*slot;
}

/// The addends of a BV sum, nested bvadds flattened, constants summed.
static void addendsOf(Term t, SmallVectorImpl<Term> &terms, APInt &constant) {
  SmallVector<Term> work{t};
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (u->getKind() == Kind::BVAdd) {
      work.push_back(u->getOperand(0));
      work.push_back(u->getOperand(1));
    } else if (u->getKind() == Kind::BVConst) {
      constant += u->getAPInt();
    } else {
      terms.push_back(u);
    }
  }
}

/// d with a == b + d (mod 2^w), when a's addends include b's: exact, as
/// addition modulo 2^w is associative and commutative. Null otherwise.
Term Executor::additiveDifference(Term a, Term b) {
  unsigned w = a->getWidth();
  SmallVector<Term> as, bs;
  APInt ca(w, 0), cb(w, 0);
  addendsOf(a, as, ca);
  addendsOf(b, bs, cb);
  for (Term t : bs) {
    auto it = llvm::find(as, t);
    if (it == as.end())
      return nullptr;
    as.erase(it);
  }
  Term d = T.bv(ca - cb);
  for (Term t : as)
    d = T.bvBin(Kind::BVAdd, d, t);
  return d;
}

/// Drops the elements of `v` past the first `n`.
template <typename Vec> static void truncateTo(Vec &v, size_t n) {
  if (v.size() > n)
    v.erase(v.begin() + n, v.end());
}

bool Executor::summarizeLoop(State &s, Block *h, ArrayRef<SymValue> entry) {
  std::string why;
  const LoopShape *Lp = loopAt(h, why);
  if (!Lp)
    return false;
  const LoopShape &L = *Lp;
  auto fail = [&](const Twine &w) {
    loopFailure = ("loop at " + locationString(h->front().getLoc()) + ": " +
                   w)
                      .str();
    return false;
  };
  for (const State::PendingJoin &j : s.joins)
    if (L.blocks.count(j.block))
      return fail("a pending join is inside the loop");
  for (const SymValue &v : entry)
    if (!v.term || v.realBits)
      return fail("a loop-carried value holds the bits of a real value");

  // Snapshot of what one iteration may add.
  size_t nAlign = result.alignments.size(), nDiv = result.divisors.size(),
         nIdiom = result.idioms.size(), nAcc = result.accesses.size(),
         nRes = result.resolutions.size(), nArr = result.arrivals.size(),
         nPaths = result.paths.size(), nGlobal = globalReads.size(),
         nPending = pendingReads.size(), nDown = result.downgrades.size();
  std::string unknownBefore = result.unknownReason;
  size_t nWork = worklist.size();
  auto rollback = [&] {
    truncateTo(result.alignments, nAlign);
    truncateTo(result.divisors, nDiv);
    truncateTo(result.idioms, nIdiom);
    truncateTo(result.accesses, nAcc);
    truncateTo(result.resolutions, nRes);
    truncateTo(result.arrivals, nArr);
    truncateTo(result.downgrades, nDown);
    while (result.paths.size() > nPaths)
      result.paths.pop_back();
    truncateTo(globalReads, nGlobal);
    truncateTo(pendingReads, nPending);
    result.unknownReason = unknownBefore;
    if (unknownBefore.empty())
      result.unknownLoc.reset();
  };

  // One symbolic iteration: the header's arguments are fresh variables.
  State it = s;
  it.joins.clear();
  // Room for the frame of a call in the body (a callee calls nothing,
  // loopAt), so that `f` stays valid while it runs.
  it.stack.reserve(it.stack.size() + 2);
  Frame &f = it.stack.back();
  // An integer is its entry value plus a fresh distance D (so that an
  // address stays rooted at its buffer), anything else a fresh variable;
  // `keys` are what the closed forms substitute (D, or the variable).
  SmallVector<Term> V, keys;
  for (auto [i, a] : llvm::enumerate(h->getArguments())) {
    Sort sort = sortOf(a.getType());
    Term key, v;
    if (sort == Sort::BV) {
      key = fresh("loop.d", sort, getWidthOf(a.getType()));
      v = T.bvBin(Kind::BVAdd, entry[i].term, key);
    } else {
      key = v = fresh("loop.v", sort);
    }
    keys.push_back(key);
    V.push_back(v);
    f.env[a] = SymValue{v, false};
  }
  SmallVector<Term> next;   // header arguments of the next iteration
  Term exitCond = nullptr;  // the exit branch's condition
  SmallVector<Term> exitArgs;
  size_t alignAtTest = 0, divAtTest = 0, accAtTest = 0;
  size_t storesBefore = s.symbolicStores.size(), storesAtTest = storesBefore;
  // The path condition at each new store of the iteration.
  SmallVector<Term> storePcs;
  // The regions the iteration loads (a loop that loads what it stores is
  // not summarized: its loads would need the earlier iterations' stores).
  std::set<std::string> loads;
  loopLoads = &loads;
  llvm::scope_exit endLoads([&] { loopLoads = nullptr; });
  bool afterTest = false;
  llvm::SmallPtrSet<Operation *, 16> beforeTestOps;
  // The blocks of one iteration, from the header back to it: the cycle,
  // or, with inner branches, wherever their folded conditions lead.
  Block *b = h;
  unsigned visits = 0;
  constexpr unsigned kMaxVisits = 1 << 16;
  bool done = false;
  // Along a branch to `dest` with `ops`: back at the header, the next
  // iteration's arguments (the iteration is done); else the block's
  // arguments, read before any is set.
  auto goTo = [&](Block *dest, OperandRange ops) {
    if (dest == h) {
      for (Value a : ops)
        next.push_back(get(f, a).term);
      done = true;
      return;
    }
    SmallVector<SymValue> vals;
    for (Value a : ops)
      vals.push_back(get(f, a));
    for (auto [arg, v] : llvm::zip(dest->getArguments(), vals))
      f.env[arg] = v;
    b = dest;
  };
  while (!done) {
    if (++visits > kMaxVisits) {
      rollback();
      return fail("an inner loop of its body runs more than " +
                  Twine(kMaxVisits) + " blocks per iteration");
    }
    f.block = b;
    f.it = b->begin();
    while (&*f.it != b->getTerminator()) {
      Operation *op = &*f.it;
      if (!afterTest) {
        beforeTestOps.insert(op);
      } else if (beforeTestOps.count(op)) {
        // A block before the exit test runs again after it: its values
        // at the exit would be those of the earlier pass, not the last.
        rollback();
        return fail("a block before its exit test runs again after it in "
                    "one iteration");
      }
      auto stopped = [&] {
        return !result.unknownReason.empty() ||
               result.paths.size() != nPaths || worklist.size() != nWork;
      };
      auto stop = [&] {
        std::string reason = result.unknownReason;
        truncateTo(worklist, nWork);
        rollback();
        return fail(reason.empty() ? "an op in the body stopped or forked "
                                     "the path"
                                   : "its body: " + reason);
      };
      if (!execOp(it, op) || stopped())
        return stop();
      // A call: its body, to the return (which advances this frame).
      while (it.stack.size() > s.stack.size()) {
        Frame &cf = it.stack.back();
        if (cf.it == cf.block->end() || !execOp(it, &*cf.it) || stopped())
          return stop();
      }
      while (storesBefore + storePcs.size() < it.symbolicStores.size())
        storePcs.push_back(it.pc);
    }
    Operation *term = b->getTerminator();
    if (auto br = dyn_cast<cf::BranchOp>(term)) {
      goTo(br.getDest(), br.getDestOperands());
      continue;
    }
    auto cb = cast<cf::CondBranchOp>(term);
    if (cb != L.exitBranch) {
      // A branch inside the body (an inner loop's test): followed when its
      // condition folds to a constant in the symbolic iteration.
      Term c = get(f, cb.getCondition()).term;
      if (!c || c->getKind() != Kind::BoolConst) {
        rollback();
        return fail("a branch inside its body (at " +
                    locationString(cb.getLoc()) +
                    ") depends on the iteration's values");
      }
      bool taken = c->getBoolValue();
      goTo(taken ? cb.getTrueDest() : cb.getFalseDest(),
           taken ? cb.getTrueDestOperands() : cb.getFalseDestOperands());
      continue;
    }
    if (exitCond) {
      rollback();
      return fail("its exit test runs more than once per iteration");
    }
    exitCond = get(f, cb.getCondition()).term;
    OperandRange exitOps = L.exitOnTrue ? cb.getTrueDestOperands()
                                        : cb.getFalseDestOperands();
    OperandRange stayOps = L.exitOnTrue ? cb.getFalseDestOperands()
                                        : cb.getTrueDestOperands();
    Block *stay = L.exitOnTrue ? cb.getFalseDest() : cb.getTrueDest();
    for (Value a : exitOps)
      exitArgs.push_back(get(f, a).term);
    alignAtTest = result.alignments.size();
    divAtTest = result.divisors.size();
    accAtTest = result.accesses.size();
    storesAtTest = it.symbolicStores.size();
    afterTest = true;
    goTo(stay, stayOps);
  }
  auto bail = [&](const Twine &w) {
    rollback();
    return fail(w);
  };
  if (!exitCond || next.size() != V.size() ||
      llvm::any_of(next, [](Term t) { return !t; }) ||
      llvm::any_of(exitArgs, [](Term t) { return !t; }))
    return bail("its values could not be followed through one iteration");
  // Only reads of input buffers (never written: a store to one is a
  // violation of its own) and stores at symbolic indices to buffers the
  // loop does not read, no other memory or synchronization effect.
  auto sameCells = [&](const std::map<std::string,
                                      std::map<uint64_t, MemCell>> &a,
                       const std::map<std::string,
                                      std::map<uint64_t, MemCell>> &b) {
    auto covered = [](const auto &x, const auto &y) {
      for (auto &[name, cells] : x) {
        if (cells.empty())
          continue;
        auto o = y.find(name);
        if (o == y.end() || o->second.size() != cells.size())
          return false;
        for (auto [c, d] : llvm::zip(cells, o->second))
          if (c.first != d.first || c.second.value != d.second.value)
            return false;
      }
      return true;
    };
    return covered(a, b) && covered(b, a);
  };
  if (result.resolutions.size() != nRes || result.arrivals.size() != nArr ||
      globalReads.size() != nGlobal || pendingReads.size() != nPending ||
      it.violations.size() != s.violations.size() ||
      it.sharedWrites.size() != s.sharedWrites.size() ||
      it.scratchStores.size() != s.scratchStores.size() ||
      !sameCells(it.mem, s.mem))
    return bail("its body touches memory other than input buffers and "
                "symbolic-index stores to output buffers");
  auto bindingOf = [&](StringRef region) -> const BufferBinding * {
    for (const std::optional<BufferBinding> &bb : buffers)
      if (bb && bb->name == region)
        return &*bb;
    return nullptr;
  };
  for (size_t i = storesBefore; i < it.symbolicStores.size(); ++i) {
    const SymbolicStore &st = it.symbolicStores[i];
    const BufferBinding *b = bindingOf(st.buffer);
    if (!b || b->role == BufferBinding::Role::In)
      return bail("its body stores to '" + st.buffer +
                  "', which is not an output buffer");
    if (loads.count(st.buffer))
      return bail("its body loads '" + st.buffer +
                  "', which it also stores (the loads would read earlier "
                  "iterations' stores)");
  }
  // Reads of input buffers never race (nothing writes them) and are
  // dropped; the stores' writes are kept, for the race checks.
  SmallVector<size_t> writes;
  for (size_t k = nAcc; k < result.accesses.size(); ++k) {
    const MemoryAccess &a = result.accesses[k];
    const BufferBinding *b = bindingOf(a.region);
    if (a.shared || a.atomic || !b)
      return bail("its body reads memory other than input buffers");
    if (a.write)
      writes.push_back(k);
    else if (b->role != BufferBinding::Role::In)
      return bail("its body reads memory other than input buffers");
  }

  auto mentionsAny = [&](Term t, ArrayRef<Term> vars) {
    for (Term u : subterms({t}))
      if (llvm::is_contained(vars, u))
        return true;
    return false;
  };
  // Classify the loop-carried values.
  enum class Role { Invariant, Induction, Sum, Max, Min, Rescaled };
  SmallVector<Role> roles(V.size(), Role::Invariant);
  SmallVector<Term> steps(V.size(), nullptr), contrib(V.size(), nullptr);
  // Rescaled sums: the running max they follow, and the placeholder of its
  // new value in `contrib`.
  SmallVector<size_t> partner(V.size(), 0);
  SmallVector<Term> placeholder(V.size(), nullptr);
  SmallVector<size_t> deferred;
  SmallVector<Term> inductionVars;
  for (size_t i = 0; i < V.size(); ++i) {
    if (next[i] == V[i])
      continue;
    if (V[i]->getSort() == Sort::BV) {
      Term d = additiveDifference(next[i], V[i]);
      if (!d || mentionsAny(d, keys))
        return bail("loop-carried value #" + Twine(i) + " (" +
                    next[i]->toBriefString(80) +
                    ") is no induction variable (not v + step)");
      roles[i] = Role::Induction;
      steps[i] = d;
      inductionVars.push_back(V[i]);
    }
  }
  // Loop-invariant integers are their entry values (distance 0).
  llvm::DenseMap<Term, Term> invariantMap;
  for (size_t i = 0; i < V.size(); ++i)
    if (next[i] == V[i] && V[i]->getSort() == Sort::BV)
      invariantMap[keys[i]] = T.bv(0, V[i]->getWidth());
  auto invariant = [&](Term t) {
    return invariantMap.empty() ? t : T.substitute(t, invariantMap);
  };
  // The accumulators: a contribution may not depend on one of them.
  SmallVector<Term> others;
  for (size_t i = 0; i < V.size(); ++i)
    if (roles[i] != Role::Induction && next[i] != V[i])
      others.push_back(keys[i]);
  for (size_t i = 0; i < V.size(); ++i) {
    if (roles[i] == Role::Induction || next[i] == V[i])
      continue;
    if (V[i]->getSort() != Sort::Real)
      return bail("loop-carried predicate #" + Twine(i) + " has no invariant");
    Term n = next[i];
    Kind k = n->getKind();
    SmallVector<Term> rest;
    bool self = false;
    if (k == Kind::Add) {
      for (Term o : n->getOperands()) {
        if (o == V[i] && !self)
          self = true;
        else
          rest.push_back(o);
      }
      if (self) {
        roles[i] = Role::Sum;
        contrib[i] = rest.size() == 1 ? rest[0] : T.add(rest);
      }
    } else if (k == Kind::Max || k == Kind::Min) {
      SmallVector<Term> leaves, w{n};
      while (!w.empty()) {
        Term u = w.pop_back_val();
        if (u->getKind() == k) {
          w.push_back(u->getOperand(1));
          w.push_back(u->getOperand(0));
        } else {
          leaves.push_back(u);
        }
      }
      Term c = nullptr;
      for (Term o : leaves) {
        if (o == V[i] && !self) {
          self = true;
          continue;
        }
        c = !c ? o : k == Kind::Max ? T.max(c, o) : T.min(c, o);
      }
      if (self && c) {
        roles[i] = k == Kind::Max ? Role::Max : Role::Min;
        contrib[i] = c;
      }
    }
    if (contrib[i])
      contrib[i] = invariant(contrib[i]);
    if (roles[i] == Role::Invariant && k == Kind::Add) {
      deferred.push_back(i); // a rescaled sum? (below, once maxima known)
      continue;
    }
    if (roles[i] == Role::Invariant || mentionsAny(contrib[i], others))
      return bail("loop-carried value #" + Twine(i) + " (" +
                  n->toBriefString(80) +
                  ") has no invariant the engine states (sum, max or min "
                  "of the iterations, a sum rescaled by a running max, or "
                  "an induction variable)");
  }
  // A sum rescaled by a running max m (the online-softmax denominator and
  // accumulator; Milakov and Gimelshein, "Online normalizer calculation for
  // softmax", 2018): d' = d * exp(m - m') + c(m') with m' = max(m, x_k) the
  // max's next value and c(m') = sum_t a_t * exp(b_t - m'), where d, m and
  // the other accumulators occur in no a_t, b_t. Then d_k * exp(m_k) =
  // d_0 * exp(m_0) + sum_{j<k} sum_t a_t(j) * exp(b_t(j)), by exp(u + v) =
  // exp(u) * exp(v), so
  //   d_k = d_0 * exp(m_0 - m_k) + sum_{j<k} c_j(m_k),
  // c_j(m_k) being iteration j's contribution with m' read as m_k (the
  // closed form below; d_0 = 0 drops the first term, which for m_0 = -inf
  // is 0 * exp(-inf - m_k)). Exact over the reals, as the other summaries.
  for (size_t i : deferred) {
    Term n = next[i];
    auto noInvariant = [&]() {
      return bail("loop-carried value #" + Twine(i) + " (" +
                  n->toBriefString(80) +
                  ") has no invariant the engine states (sum, max or min "
                  "of the iterations, a sum rescaled by a running max, or "
                  "an induction variable)");
    };
    // The addend d * exp(arg); the rest is c.
    std::optional<size_t> p;
    SmallVector<Term> rest;
    for (Term o : n->getOperands()) {
      if (!p && o->getKind() == Kind::Mul && o->getNumOperands() == 2) {
        Term a = o->getOperand(0), b = o->getOperand(1);
        if (b == V[i])
          std::swap(a, b);
        if (a == V[i] && b->getKind() == Kind::Exp) {
          Term arg = b->getOperand(0);
          for (size_t q = 0; q < V.size() && !p; ++q)
            if (roles[q] == Role::Max &&
                N.provesEqual(arg, T.sub(V[q], next[q]))) // arg == m - m'
              p = q;
          if (p)
            continue;
        }
      }
      rest.push_back(o);
    }
    if (!p || rest.empty())
      return noInvariant();
    Term P = fresh("loop.m", Sort::Real);
    llvm::DenseMap<Term, Term> toP;
    toP[next[*p]] = P;
    // Each addend of c: a * exp(b - m'), m' only there.
    SmallVector<Term> addends;
    for (Term o : rest) {
      Term c = invariant(T.substitute(o, toP));
      if (mentionsAny(c, others) || mentionsAny(c, {V[i]}))
        return noInvariant();
      SmallVector<Term> factors;
      if (c->getKind() == Kind::Mul)
        llvm::append_range(factors, c->getOperands());
      else
        factors.push_back(c);
      unsigned scaled = 0;
      for (Term fct : factors) {
        if (!mentionsAny(fct, {P}))
          continue;
        // exp(b - m') with b free of m': the argument plus m' equals the
        // argument at m' = 0 (exact rewrites of the normalizer).
        if (fct->getKind() != Kind::Exp)
          return noInvariant();
        Term arg = fct->getOperand(0);
        if (!N.provesEqual(T.add(arg, P),
                           T.substitute(arg, {{P, T.real(0)}})))
          return noInvariant();
        ++scaled;
      }
      if (scaled != 1)
        return noInvariant();
      addends.push_back(c);
    }
    roles[i] = Role::Rescaled;
    partner[i] = *p;
    placeholder[i] = P;
    contrib[i] = addends.size() == 1 ? addends[0] : T.add(addends);
    Term d0 = entry[i].term, m0 = entry[*p].term;
    if (!(d0->isRealConst() && d0->getRational() == Rational(0)) &&
        (!m0 || m0->getKind() == Kind::NegInf))
      return bail("loop-carried value #" + Twine(i) +
                  " is a sum rescaled by a running max that starts at -inf "
                  "with a non-zero initial value");
  }

  // Closed forms at iteration k (a 64-bit counter).
  auto atIter = [&](Term k64) {
    llvm::DenseMap<Term, Term> m;
    for (size_t i = 0; i < V.size(); ++i)
      if (roles[i] == Role::Induction) {
        unsigned w = V[i]->getWidth();
        Term kw = w < 64 ? T.bvExtract(k64, 0, w) : k64;
        m[keys[i]] = T.bvBin(Kind::BVMul, steps[i], kw);
      } else if (roles[i] == Role::Invariant) {
        m[keys[i]] = V[i]->getSort() == Sort::BV ? T.bv(0, V[i]->getWidth())
                                                 : entry[i].term;
      }
    return m;
  };
  Term zero64 = T.bv(0, 64), one64 = T.bv(1, 64);
  uint64_t tripBound = 0; // set with the exit test, below
  // Reductions need the accumulators' closed forms, which need E only as
  // their upper bound: closed(k) = a0 (op) R_{j<k} contrib(j).
  auto closedAt = [&](Term k64) -> llvm::DenseMap<Term, Term> {
    llvm::DenseMap<Term, Term> m = atIter(k64);
    Term j = fresh("loop.j", Sort::BV, 64);
    // j < E <= 2^w for the w-bit exit test (the first exit comes within
    // 2^w iterations, and E is proved to be it): index terms of the body
    // fold as linear forms within that bound (TermContext::canonicalIndex).
    if (tripBound)
      T.setUpperBound(j->getName(), tripBound - 1);
    llvm::DenseMap<Term, Term> mj = atIter(j);
    for (size_t i = 0; i < V.size(); ++i) {
      if (roles[i] != Role::Sum && roles[i] != Role::Max &&
          roles[i] != Role::Min)
        continue;
      Term body = T.substitute(contrib[i], mj);
      Kind rk = roles[i] == Role::Sum   ? Kind::SumOver
                : roles[i] == Role::Max ? Kind::MaxOver
                                        : Kind::MinOver;
      Term r = T.reduce(rk, j, zero64, k64, body);
      Term a0 = entry[i].term;
      m[keys[i]] = roles[i] == Role::Sum   ? T.add(a0, r)
                : roles[i] == Role::Max ? T.max(a0, r)
                                        : T.min(a0, r);
    }
    // Rescaled sums, once the maxima they follow are closed:
    // d_k = d_0 * exp(m_0 - m_k) + sum_{j<k} c_j(m_k).
    for (size_t i = 0; i < V.size(); ++i) {
      if (roles[i] != Role::Rescaled)
        continue;
      Term mk = m[keys[partner[i]]];
      llvm::DenseMap<Term, Term> mjk = mj;
      mjk[placeholder[i]] = mk;
      Term r = T.reduce(Kind::SumOver, j, zero64, k64,
                        T.substitute(contrib[i], mjk));
      Term d0 = entry[i].term;
      m[keys[i]] =
          d0->isRealConst() && d0->getRational() == Rational(0)
              ? r
              : T.add(T.mul(d0, T.exp(T.add(entry[partner[i]].term,
                                            T.neg(mk)))),
                      r);
    }
    return m;
  };

  // The trip count: the exit test compares an induction variable (before
  // or after its step) with a loop-invariant bound.
  Term stayCond = L.exitOnTrue ? T.notOf(exitCond) : exitCond;
  Term E = nullptr;
  {
    Term c = stayCond;
    bool negated = false;
    while (c->getKind() == Kind::Not) {
      c = c->getOperand(0);
      negated = !negated;
    }
    Kind ck = c->getKind();
    bool isCmp = ck == Kind::BVSlt || ck == Kind::BVSle || ck == Kind::BVUlt ||
                 ck == Kind::BVUle || ck == Kind::Eq;
    if (!isCmp || c->getOperand(0)->getSort() != Sort::BV)
      return bail("its exit test " + exitCond->toBriefString(80) +
                  " is not a comparison of integers");
    // X(k) = c0 + st * k for the induction variable X tests.
    auto inductionOf = [&](Term x, Term &c0, Term &st) {
      for (size_t i = 0; i < V.size(); ++i) {
        if (roles[i] != Role::Induction)
          continue;
        if (x == V[i]) {
          c0 = entry[i].term;
          st = steps[i];
          return true;
        }
        if (x == next[i]) {
          c0 = T.bvBin(Kind::BVAdd, entry[i].term, steps[i]);
          st = steps[i];
          return true;
        }
      }
      return false;
    };
    Term a = c->getOperand(0), b = c->getOperand(1), c0, st;
    bool swapped = false;
    if (!inductionOf(a, c0, st)) {
      std::swap(a, b);
      swapped = true;
      if (!inductionOf(a, c0, st))
        return bail("its exit test " + exitCond->toBriefString(80) +
                    " does not compare an induction variable");
    }
    b = invariant(b);
    if (mentionsAny(b, keys))
      return bail("its exit test's bound is not loop-invariant");
    unsigned w = a->getWidth();
    tripBound = w < 64 ? uint64_t(1) << w : 0;
    auto ext = [&](Term t, bool sgn) {
      return w == 64 ? t : sgn ? T.bvSExt(t, 64) : T.bvZExt(t, 64);
    };
    bool stepOne = st->getKind() == Kind::BVConst && st->getAPInt().isOne();
    bool stepMinusOne =
        st->getKind() == Kind::BVConst && st->getAPInt().isAllOnes();
    // Candidate E; proved below whatever the pattern.
    if (ck == Kind::Eq && negated && st->getKind() == Kind::BVConst) {
      // stay while X(k) != B: E = (B - c0) / st (exact; proved below).
      llvm::APInt sv = st->getAPInt();
      Term diff = T.bvBin(Kind::BVSub, b, c0);
      if (sv.isNegative())
        diff = T.bvBin(Kind::BVSub, c0, b), sv = -sv;
      E = T.bvZExt(T.bvBin(Kind::BVUDiv, diff, T.bv(sv)), 64);
    } else if (!negated && !swapped && stepOne &&
               (ck == Kind::BVSlt || ck == Kind::BVUlt)) {
      // stay while X(k) < B.
      bool sgn = ck == Kind::BVSlt;
      Term lt = sgn ? T.bvSlt(c0, b) : T.bvUlt(c0, b);
      E = T.ite(lt, T.bvBin(Kind::BVSub, ext(b, sgn), ext(c0, sgn)), zero64);
    } else if (!negated && !swapped && stepOne &&
               (ck == Kind::BVSle || ck == Kind::BVUle)) {
      bool sgn = ck == Kind::BVSle;
      Term le = sgn ? T.bvSle(c0, b) : T.bvUle(c0, b);
      E = T.ite(le,
                T.bvBin(Kind::BVAdd,
                        T.bvBin(Kind::BVSub, ext(b, sgn), ext(c0, sgn)),
                        one64),
                zero64);
    } else if (!negated && swapped && stepMinusOne &&
               (ck == Kind::BVSlt || ck == Kind::BVUlt)) {
      // stay while B < X(k), X stepping down.
      bool sgn = ck == Kind::BVSlt;
      Term lt = sgn ? T.bvSlt(b, c0) : T.bvUlt(b, c0);
      E = T.ite(lt, T.bvBin(Kind::BVSub, ext(c0, sgn), ext(b, sgn)), zero64);
    } else if (!negated && !swapped && st->getKind() == Kind::BVConst &&
               !st->getAPInt().isNegative() && !st->getAPInt().isZero() &&
               (ck == Kind::BVSlt || ck == Kind::BVUlt || ck == Kind::BVSle ||
                ck == Kind::BVUle)) {
      // stay while X(k) < B (or <= B), X stepping up by a constant s > 1
      // (a grid-stride loop over a concrete launch): E = ceil((B - c0) / s)
      // iterations (floor((B - c0) / s) + 1 for <=) when c0 passes the
      // test, else 0.
      bool sgn = ck == Kind::BVSlt || ck == Kind::BVSle;
      bool strict = ck == Kind::BVSlt || ck == Kind::BVUlt;
      Term s64 = T.bv(st->getAPInt().zext(64));
      Term diff = T.bvBin(Kind::BVSub, ext(b, sgn), ext(c0, sgn));
      Term count =
          strict ? T.bvBin(Kind::BVUDiv,
                           T.bvBin(Kind::BVAdd, diff,
                                   T.bvBin(Kind::BVSub, s64, one64)),
                           s64)
                 : T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVUDiv, diff, s64),
                           one64);
      Term enter = strict ? (sgn ? T.bvSlt(c0, b) : T.bvUlt(c0, b))
                          : (sgn ? T.bvSle(c0, b) : T.bvUle(c0, b));
      E = T.ite(enter, count, zero64);
    } else if (negated && swapped && stepOne &&
               (ck == Kind::BVSle || ck == Kind::BVUle ||
                ck == Kind::BVSlt || ck == Kind::BVUlt)) {
      // stay while !(B <= X(k)), that is X(k) < B (`setp.ge X, B` exiting
      // the loop), or while !(B < X(k)), that is X(k) <= B.
      bool sgn = ck == Kind::BVSle || ck == Kind::BVSlt;
      bool strict = ck == Kind::BVSle || ck == Kind::BVUle;
      Term enter = strict ? (sgn ? T.bvSlt(c0, b) : T.bvUlt(c0, b))
                          : (sgn ? T.bvSle(c0, b) : T.bvUle(c0, b));
      Term diff = T.bvBin(Kind::BVSub, ext(b, sgn), ext(c0, sgn));
      E = T.ite(enter, strict ? diff : T.bvBin(Kind::BVAdd, diff, one64),
                zero64);
    } else if (negated && !swapped && stepOne &&
               (ck == Kind::BVSle || ck == Kind::BVUle)) {
      // stay while !(B <= X(k))... written X(k) <= B negated: X > B.
      return bail("its exit test's direction is not supported");
    } else {
      return bail("its exit test " + exitCond->toBriefString(80) +
                  " is not of a supported form (X < B, X <= B, X != B "
                  "with a constant step)");
    }
  }
  // An ite the path decides (the loop's guard: n >= 1 when it is
  // entered) is its arm.
  while (E->getKind() == Kind::Ite) {
    Term c = E->getOperand(0);
    if (!mayHold(T.andOf(s.pc, T.notOf(c))))
      E = E->getOperand(1);
    else if (!mayHold(T.andOf(s.pc, c)))
      E = E->getOperand(2);
    else
      break;
  }
  E = T.canonicalIndex(E);
  if (E->getKind() == Kind::BVConst)
    return bail("its trip count is a constant (unrolled)");

  // Prove E: the test stays in the loop at every k < E and exits at E.
  Term k = fresh("loop.k", Sort::BV, 64);
  // Every use of k is under k <= E <= 2^w (the guards below): index terms
  // of the body fold as linear forms within that bound.
  if (tripBound)
    T.setUpperBound(k->getName(), tripBound);
  llvm::DenseMap<Term, Term> mk = atIter(k), mE = atIter(E);
  Term stayK = T.substitute(stayCond, mk);
  Term stayE = T.substitute(stayCond, mE);
  if (mayHold(T.andOf({s.pc, T.bvUlt(k, E), T.notOf(stayK)})) ||
      mayHold(T.andOf(s.pc, stayE)))
    return bail("its trip count " + E->toBriefString(80) +
                " is not proved (the exit test may not fail exactly there)");

  // The body's obligations, once over a symbolic iteration: before the
  // exit test for k <= E, after it for k < E.
  llvm::DenseMap<Term, Term> ck = closedAt(k);
  llvm::DenseMap<Term, Term> ck1 = closedAt(T.bvBin(Kind::BVAdd, k, one64));
  for (size_t i = 0; i < V.size(); ++i)
    if (next[i] != V[i])
      ck[next[i]] = T.substitute(V[i], ck1);
  auto inst = [&](Term t, bool before) {
    Term r = T.substitute(t, ck);
    (void)before;
    return r;
  };
  Term rangeBefore = T.andOf(s.pc, T.bvUle(k, E));
  Term rangeAfter = T.andOf(s.pc, T.bvUlt(k, E));
  for (size_t n = nAlign; n < result.alignments.size(); ++n) {
    PathObligation &o = result.alignments[n];
    bool before = n < alignAtTest;
    o.pathCondition = T.andOf(before ? rangeBefore : rangeAfter,
                              inst(o.pathCondition, before));
    o.condition = inst(o.condition, before);
  }
  for (size_t n = nDiv; n < result.divisors.size(); ++n) {
    DivisorObligation &o = result.divisors[n];
    bool before = n < divAtTest;
    o.pathCondition = T.andOf(before ? rangeBefore : rangeAfter,
                              inst(o.pathCondition, before));
    o.divisor = inst(o.divisor, before);
  }
  // The stores' writes, once over a symbolic iteration k (renamed apart
  // per thread by the race checks, as every fresh variable).
  {
    SmallVector<MemoryAccess> kept;
    for (size_t n : writes) {
      MemoryAccess a = result.accesses[n];
      bool before = n < accAtTest;
      a.pathCondition = T.andOf(before ? rangeBefore : rangeAfter,
                                inst(a.pathCondition, before));
      a.byteOffset = T.canonicalIndex(inst(a.byteOffset, before));
      if (a.value)
        a.value = inst(a.value, before);
      kept.push_back(std::move(a));
    }
    truncateTo(result.accesses, nAcc);
    for (MemoryAccess &a : kept)
      result.accesses.push_back(std::move(a));
  }
  // The stores: one family per store op, iteration k storing under
  // `guard` (k within the trip count, the iteration's path condition).
  SmallVector<SymbolicStore> families;
  for (size_t i = storesBefore; i < it.symbolicStores.size(); ++i) {
    SymbolicStore st = it.symbolicStores[i];
    bool before = i < storesAtTest;
    st.index = T.canonicalIndex(inst(st.index, before));
    st.value = inst(st.value, before);
    st.iteration = k;
    st.guard = T.andOf(before ? rangeBefore : rangeAfter,
                       inst(storePcs[i - storesBefore], before));
    families.push_back(std::move(st));
  }

  // The exit: the values at iteration E's test.
  llvm::DenseMap<Term, Term> cE = closedAt(E);
  llvm::DenseMap<Term, Term> cE1 = closedAt(T.bvBin(Kind::BVAdd, E, one64));
  llvm::DenseMap<Term, Term> exitMap = cE;
  for (size_t i = 0; i < V.size(); ++i)
    if (next[i] != V[i])
      exitMap[next[i]] = T.substitute(V[i], cE1);
  cf::CondBranchOp exitBr = L.exitBranch;
  Block *exitBlock =
      L.exitOnTrue ? exitBr.getTrueDest() : exitBr.getFalseDest();
  Frame &sf = s.stack.back();
  // Values of the loop used after it: those computed before the exit test,
  // at iteration E.
  for (Block *b : L.blocks)
    for (Operation &op : *b)
      for (Value r : op.getResults())
        for (Operation *user : r.getUsers()) {
          Block *ub = user->getBlock();
          if (L.blocks.count(ub))
            continue;
          if (!beforeTestOps.count(&op) || !get(f, r).term)
            return bail("a value computed after the exit test (or on a "
                        "branch the iteration does not take) is used after "
                        "the loop");
          sf.env[r] = SymValue{T.substitute(get(f, r).term, exitMap),
                               get(f, r).realBits};
        }
  for (BlockArgument a : h->getArguments())
    for (Operation *user : a.getUsers())
      if (!L.blocks.count(user->getBlock()))
        sf.env[a] = SymValue{T.substitute(get(f, a).term, exitMap), false};
  SmallVector<SymValue> outVals;
  for (Term t : exitArgs)
    outVals.push_back(SymValue{T.substitute(t, exitMap), false});
  // Keep what the iteration learned about the thread (id ranges).
  if (it.pc != s.pc)
    s.pc = T.andOf(s.pc, T.substitute(it.pc, exitMap));
  for (auto [arg, v] : llvm::zip(exitBlock->getArguments(), outVals))
    sf.env[arg] = v;
  sf.block = exitBlock;
  sf.it = exitBlock->begin();
  for (SymbolicStore &st : families)
    s.symbolicStores.push_back(std::move(st));
  ++result.loopSummaries;
  return true;
}

//===----------------------------------------------------------------------===//
// State merging at control-flow joins
//===----------------------------------------------------------------------===//

bool Executor::arriveAtJoin(State &s) {
  while (!s.joins.empty()) {
    State::PendingJoin j = s.joins.back();
    Frame &f = s.stack.back();
    if (j.block != f.block || j.depth != s.stack.size() ||
        f.it != f.block->begin())
      return false;
    s.joins.pop_back();
    JoinPoint &jp = joinPoints[j.id];
    --jp.live;
    if (jp.abandoned)
      continue;
    jp.waiting.push_back(std::move(s));
    ++waitingStates;
    if (jp.live == 0)
      releaseJoin(j.id);
    return true;
  }
  return false;
}

void Executor::leaveJoins(State &s) {
  for (const State::PendingJoin &j : llvm::reverse(s.joins)) {
    JoinPoint &jp = joinPoints[j.id];
    --jp.live;
    if (jp.live == 0 && !jp.waiting.empty())
      releaseJoin(j.id);
  }
  s.joins.clear();
}

void Executor::releaseJoin(unsigned id) {
  std::vector<State> arrived = std::move(joinPoints[id].waiting);
  joinPoints[id].waiting.clear();
  waitingStates -= arrived.size();
  std::vector<State> merged;
  for (State &st : arrived) {
    bool absorbed = false;
    for (State &m : merged)
      if (mergeInto(m, st)) {
        absorbed = true;
        ++result.merges;
        // One state fewer heads for the outer joins.
        for (const State::PendingJoin &j : st.joins)
          --joinPoints[j.id].live;
        break;
      }
    if (!absorbed)
      merged.push_back(std::move(st));
  }
  for (State &m : llvm::reverse(merged))
    worklist.push_back(std::move(m));
}

bool Executor::mergeInto(State &a, const State &b) {
  // The same program point, the same joins ahead.
  if (a.stack.size() != b.stack.size() || a.joins != b.joins ||
      a.violations != b.violations)
    return false;
  for (auto [fa, fb] : llvm::zip(a.stack, b.stack))
    if (fa.func != fb.func || fa.block != fb.block || fa.it != fb.it ||
        fa.callSite != fb.callSite)
      return false;
  // The same progress through barriers (multi-thread launches: accesses are
  // recorded with their phase, clock and iteration).
  if (isMultiThread()) {
    auto sameClock = [](ArrayRef<BarrierClock> x, ArrayRef<BarrierClock> y) {
      return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto p) {
               auto &[u, v] = p;
               return u.id == v.id && u.arrivals == v.arrivals &&
                      u.lastWait == v.lastWait;
             });
    };
    auto sameEvents = [](ArrayRef<BarrierEvent> x, ArrayRef<BarrierEvent> y) {
      return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto p) {
               auto &[u, v] = p;
               return u.cta == v.cta && u.id == v.id && u.index == v.index &&
                      u.waits == v.waits;
             });
    };
    if (a.phase != b.phase || !sameClock(a.clock, b.clock) ||
        a.arrivedWithoutWait != b.arrivedWithoutWait ||
        !sameEvents(a.events, b.events))
      return false;
    // Occurrence counts pair up the shuffles, votes and atomics of lanes
    // (finishShuffles): those must agree. Of plain loads and stores they
    // only number loop iterations in race reports, so a load or store on
    // one side only (`v = lane < 8 ? s[lane] : 0`) does not keep the
    // states apart.
    auto agree = [](const State &x, const State &y) {
      for (auto &[op, n] : x.occurrences) {
        auto it = y.occurrences.find(op);
        unsigned m = it == y.occurrences.end() ? 0 : it->second;
        if (m != n && !isa<LoadOp, StoreOp>(op))
          return false;
      }
      return true;
    };
    if (!agree(a, b) || !agree(b, a))
      return false;
  }

  // Path conditions: common conjuncts, and what only one side assumes
  // (g1, g2). The two paths must be visibly disjoint (one assumes the
  // negation of a conjunct of the other, as the two sides of a fork do):
  // then under the merged condition, g1 holds exactly on a's path, and
  // ite(g1, a's value, b's value) is each path's value.
  auto conjuncts = [](Term t) {
    SmallVector<Term> c;
    if (t->getKind() == Kind::And)
      c.append(t->getOperands().begin(), t->getOperands().end());
    else
      c.push_back(t);
    return c;
  };
  SmallVector<Term> ca = conjuncts(a.pc), cb = conjuncts(b.pc);
  llvm::DenseSet<Term> inA(ca.begin(), ca.end()), inB(cb.begin(), cb.end());
  SmallVector<Term> common, onlyA, onlyB;
  for (Term t : ca)
    (inB.contains(t) ? common : onlyA).push_back(t);
  for (Term t : cb)
    if (!inA.contains(t))
      onlyB.push_back(t);
  Term g1 = T.andOf(onlyA), g2 = T.andOf(onlyB);
  bool complementary = g2 == T.notOf(g1);
  bool disjoint = complementary || llvm::any_of(onlyA, [&](Term t) {
                    return inB.contains(T.notOf(t));
                  });
  if (!disjoint)
    return false;
  auto select = [&](Term x, Term y) -> Term {
    if (x == y)
      return x;
    if (!x || !y || x->getSort() != y->getSort() ||
        x->getWidth() != y->getWidth())
      return nullptr;
    return T.ite(g1, x, y);
  };

  // Registers of every frame. A value only one side defined is not used
  // past the join (SSA: a use after the join is dominated by its
  // definition, which then ran on both paths): it is dropped.
  SmallVector<llvm::DenseMap<Value, SymValue>, 2> envs;
  for (auto [fa, fb] : llvm::zip(a.stack, b.stack)) {
    llvm::DenseMap<Value, SymValue> env;
    // Visit the registers in the order of their terms' creation ids, not
    // of the Value pointers: the ite terms built here get ids in this
    // order, and later queries are built in id order (determinism).
    SmallVector<std::tuple<unsigned, unsigned, Value>> order;
    for (auto &[v, x] : fa.env) {
      auto it = fb.env.find(v);
      if (it == fb.env.end())
        continue;
      order.emplace_back(x.term ? x.term->getId() : 0,
                         it->second.term ? it->second.term->getId() : 0, v);
    }
    llvm::sort(order, [](const auto &l, const auto &r) {
      return std::make_pair(std::get<0>(l), std::get<1>(l)) <
             std::make_pair(std::get<0>(r), std::get<1>(r));
    });
    for (auto &[xi, yi, v] : order) {
      const SymValue &x = fa.env.find(v)->second;
      const SymValue &y = fb.env.find(v)->second;
      if (x.realBits != y.realBits)
        return false;
      Term t = select(x.term, y.term);
      if (!t)
        return false;
      env[v] = SymValue{t, x.realBits};
    }
    envs.push_back(std::move(env));
  }
  // Memory: both sides wrote the same cells (else the final stores of one
  // path would have to be attributed to the other).
  std::map<std::string, std::map<uint64_t, MemCell>> mem;
  if (a.mem.size() != b.mem.size())
    return false;
  for (auto &[name, cells] : a.mem) {
    auto it = b.mem.find(name);
    if (it == b.mem.end() || it->second.size() != cells.size())
      return false;
    auto &out = mem[name];
    for (auto &[off, x] : cells) {
      auto jt = it->second.find(off);
      if (jt == it->second.end())
        return false;
      const MemCell &y = jt->second;
      // (A load reads a cell by its term's sort; how the bits got there,
      // st.f32 or st.u32 of a float's bits, does not matter.)
      if (x.bytes != y.bytes)
        return false;
      Term t = select(x.value, y.value);
      if (!t)
        return false;
      out.insert({off, MemCell{t, x.realBits || y.realBits, x.bytes,
                               mergedLoc(x.loc, y.loc, g1)}});
    }
  }
  std::vector<SymbolicStore> stores;
  if (a.symbolicStores.size() != b.symbolicStores.size())
    return false;
  for (auto [x, y] : llvm::zip(a.symbolicStores, b.symbolicStores)) {
    if (x.buffer != y.buffer || x.index != y.index ||
        x.iteration != y.iteration || x.guard != y.guard)
      return false;
    Term t = select(x.value, y.value);
    if (!t)
      return false;
    stores.push_back({x.buffer, x.index, t, mergedLoc(x.loc, y.loc, g1),
                      x.iteration, x.guard});
  }
  std::vector<State::ScratchStore> scratch;
  if (a.scratchStores.size() != b.scratchStores.size())
    return false;
  for (auto [x, y] : llvm::zip(a.scratchStores, b.scratchStores)) {
    if (x.region != y.region || x.offset != y.offset || x.bytes != y.bytes)
      return false;
    Term t = select(x.value, y.value);
    if (!t)
      return false;
    scratch.push_back(
        {x.region, x.offset, x.bytes, t, mergedLoc(x.loc, y.loc, g1)});
  }
  // Own shared writes: the common prefix merges value by value; what one
  // side wrote beyond it stays, guarded by that side's condition (g1 holds
  // exactly on a's path under the merged condition, g2 on b's), so a later
  // read by this thread sees it only there. (Other threads see the write
  // through its access record, which keeps its own path condition.)
  std::vector<State::SharedWrite> sharedWrites;
  size_t prefix = 0;
  for (auto [x, y] : llvm::zip(a.sharedWrites, b.sharedWrites)) {
    if (x.phase != y.phase || x.region != y.region || x.offset != y.offset ||
        x.bytes != y.bytes || x.realBits != y.realBits || x.guard != y.guard)
      break;
    Term t = select(x.value, y.value);
    if (!t)
      return false;
    State::SharedWrite w = x;
    w.value = t;
    sharedWrites.push_back(std::move(w));
    ++prefix;
  }
  auto guarded = [&](const std::vector<State::SharedWrite> &side,
                     Term guard) {
    for (size_t i = prefix; i < side.size(); ++i) {
      State::SharedWrite w = side[i];
      w.guard = w.guard ? T.andOf(w.guard, guard) : guard;
      sharedWrites.push_back(std::move(w));
    }
  };
  guarded(a.sharedWrites, g1);
  guarded(b.sharedWrites, g2);

  // Commit.
  if (!complementary)
    common.push_back(T.orOf({g1, g2}));
  a.pc = T.andOf(common);
  for (auto [f, env] : llvm::zip(a.stack, envs))
    f.env = std::move(env);
  a.mem = std::move(mem);
  a.symbolicStores = std::move(stores);
  a.scratchStores = std::move(scratch);
  a.sharedWrites = std::move(sharedWrites);
  for (auto &[op, n] : b.occurrences)
    a.occurrences[op] = std::max(a.occurrences[op], n);
  return true;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

std::optional<Region *> Executor::regionOf(StringRef base) {
  auto it = regions.find(base.str());
  if (it == regions.end())
    return std::nullopt;
  return &it->second;
}

bool Executor::decomposeAddress(Term addr, int64_t extra, std::string &region,
                                Term &byteOffset, Location loc) {
  SmallVector<Term> work{addr};
  Term base = nullptr;
  SmallVector<Term> rest;
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (t->getKind() == Kind::BVAdd) {
      work.push_back(t->getOperand(0));
      work.push_back(t->getOperand(1));
      continue;
    }
    // A narrowed address (cvta of a 64-bit shared address to 32 bits):
    // shared and local windows are below 2^32, so the low bits are it.
    if (t->getKind() == Kind::BVExtract && t->getExtractLow() == 0 &&
        t->getOperand(0)->getKind() == Kind::BVAdd) {
      work.push_back(t->getOperand(0));
      continue;
    }
    Term inner = (t->getKind() == Kind::BVZExt ||
                  (t->getKind() == Kind::BVExtract && t->getExtractLow() == 0))
                     ? t->getOperand(0)
                     : t;
    if (inner->getKind() == Kind::BVVar && inner->getName().starts_with("&")) {
      if (base) {
        unknown(loc, "address adds two base addresses: " + addr->toString());
        return false;
      }
      base = inner;
      continue;
    }
    rest.push_back(T.bvZExt(t, 64));
  }
  if (!base) {
    unknown(loc, "address does not derive from a bound buffer or variable: " +
                     addr->toString());
    return false;
  }
  Term off = T.bv(APInt(64, extra, /*isSigned=*/true));
  for (Term r : rest)
    off = T.bvBin(Kind::BVAdd, off, r);
  region = base->getName().drop_front().str();
  byteOffset = off;
  if (off->getKind() == Kind::BVConst && off->getAPInt().isNegative()) {
    unknown(loc, "negative offset from " + base->getName());
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Shared memory across threads (DESIGN.md §4)
//===----------------------------------------------------------------------===//

bool Executor::mayHold(Term pc) {
  if (pc->getKind() == Kind::BoolConst)
    return pc->getBoolValue();
  llvm::DenseSet<Term> seen;
  SmallVector<Term> work{pc};
  bool nonlinear = false, data = false;
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!seen.insert(t).second)
      continue;
    if (t->getSort() == Sort::Real || seen.size() > 4000)
      return true; // data-dependent: keep both sides
    Kind k = t->getKind();
    // An integer input element (or an undefined value): data, not the
    // launch.
    if (k == Kind::Select ||
        (k == Kind::BVVar && !llvm::StringRef(t->getName()).starts_with("tid.") &&
         !llvm::StringRef(t->getName()).starts_with("ctaid.") &&
         !llvm::StringRef(t->getName()).starts_with("ntid.") &&
         !llvm::StringRef(t->getName()).starts_with("nctaid.")))
      data = true;
    nonlinear |= (k == Kind::BVMul && !t->getOperand(0)->isConstant() &&
                  !t->getOperand(1)->isConstant()) ||
                 ((k == Kind::BVUDiv || k == Kind::BVURem) &&
                  !t->getOperand(1)->isConstant());
    for (Term o : t->getOperands())
      work.push_back(o);
  }
  // A nonlinear condition over data (a product of input integers): the
  // integer encoding is for launch products, and bit-blasting a 64-bit
  // product can take minutes; keeping both sides is sound.
  if (nonlinear && data)
    return true;
  if (nonlinear) {
    // A symbolic launch (ctaid.x * ntid.x): the exact integer encoding,
    // which Z3's nonlinear arithmetic decides where bit-blasting does not
    // (Z3Lowering::setBitVectorsAsIntegers).
    smt::SolverOptions so;
    so.rlimit = 2'000'000;
    // The rlimit decides (deterministic); the wall-clock guard only backs
    // it where Z3 does not heed it, generously, so that a loaded machine
    // does not change which paths are kept. An undecided query keeps the
    // path (sound: more paths, never fewer).
    so.timeoutMs = 60'000;
    smt::Context &ctx = smt::Context::reusable(so);
    Z3Lowering lowering(ctx, T);
    lowering.setBitVectorsAsIntegers(true);
    lowering.assumeBoundsOf({pc});
    smt::Expr e = lowering.lower(pc);
    if (e.isValid()) {
      smt::Solver solver(ctx, /*simple=*/true);
      solver.add(e);
      for (const smt::Expr &d : lowering.intDefinitions())
        solver.add(d);
      return solver.check() != smt::CheckResult::Unsat;
    }
  }
  if (!z3) {
    smt::SolverOptions so;
    so.rlimit = 2'000'000;
    z3 = std::make_unique<smt::Context>(so);
    z3Lowering = std::make_unique<Z3Lowering>(*z3, T);
  }
  smt::Expr e = z3Lowering->lower(pc);
  if (!e.isValid())
    return true;
  smt::Solver solver(*z3);
  solver.add(e);
  return solver.check() != smt::CheckResult::Unsat;
}

bool Executor::linearize(Term t, __int128 scale, __int128 &c0,
                         std::map<Term, __int128, TermIdLess> &coeffs) {
  switch (t->getKind()) {
  case Kind::BVConst:
    c0 += scale * __int128(t->getAPInt().getSExtValue());
    return t->getAPInt().getSignificantBits() <= 63;
  case Kind::BVVar:
    if (!tidVars.count(t))
      return false;
    coeffs[t] += scale;
    return true;
  case Kind::BVAdd:
    return linearize(t->getOperand(0), scale, c0, coeffs) &&
           linearize(t->getOperand(1), scale, c0, coeffs);
  case Kind::BVSub:
    return linearize(t->getOperand(0), scale, c0, coeffs) &&
           linearize(t->getOperand(1), -scale, c0, coeffs);
  case Kind::BVMul:
  case Kind::BVShl: {
    Term k = t->getOperand(1), x = t->getOperand(0);
    if (k->getKind() != Kind::BVConst && t->getKind() == Kind::BVMul)
      std::swap(k, x);
    if (k->getKind() != Kind::BVConst || k->getAPInt().getActiveBits() > 20)
      return false;
    __int128 m = t->getKind() == Kind::BVMul
                     ? __int128(k->getAPInt().getZExtValue())
                     : (__int128(1) << k->getAPInt().getZExtValue());
    // Linearize the operand on its own, so that its wrap-around at this
    // width is checked below.
    __int128 d0 = 0;
    std::map<Term, __int128, TermIdLess> dc;
    if (!linearize(x, 1, d0, dc))
      return false;
    auto [lo, hi] = rangeOf(d0 * m, [&] {
      std::map<Term, __int128, TermIdLess> scaled;
      for (auto &[v, c] : dc)
        scaled[v] = c * m;
      return scaled;
    }());
    if (lo < 0 || hi >= (__int128(1) << t->getWidth()))
      return false;
    c0 += scale * m * d0;
    for (auto &[v, c] : dc)
      coeffs[v] += scale * m * c;
    return true;
  }
  case Kind::BVZExt: {
    __int128 d0 = 0;
    std::map<Term, __int128, TermIdLess> dc;
    if (!linearize(t->getOperand(0), 1, d0, dc))
      return false;
    auto [lo, hi] = rangeOf(d0, dc);
    if (lo < 0 || hi >= (__int128(1) << t->getOperand(0)->getWidth()))
      return false;
    c0 += scale * d0;
    for (auto &[v, c] : dc)
      coeffs[v] += scale * c;
    return true;
  }
  default:
    return false;
  }
}

std::pair<__int128, __int128>
Executor::rangeOf(__int128 c0, const std::map<Term, __int128, TermIdLess> &coeffs) {
  __int128 lo = c0, hi = c0;
  for (auto &[v, c] : coeffs) {
    __int128 span = c * __int128(tidVars.lookup(v) - 1);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

void Executor::renameFresh(ArrayRef<Term> terms,
                           llvm::DenseMap<Term, Term> &map) {
  llvm::DenseSet<Term> seen;
  SmallVector<Term> work(terms.begin(), terms.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!t || !seen.insert(t).second)
      continue;
    for (Term o : t->getOperands())
      work.push_back(o);
    bool isVar = t->getKind() == Kind::RealVar ||
                 t->getKind() == Kind::BVVar || t->getKind() == Kind::BoolVar;
    if (isVar && t->getName().contains('#') && !map.count(t))
      map[t] = fresh(t->getName().split('#').first, t->getSort(),
                     t->getWidth());
  }
}

Term Executor::threadRange(const llvm::DenseMap<Term, Term> &map) {
  SmallVector<Term> cs;
  for (auto &[v, ext] : tidVars)
    cs.push_back(T.bvUlt(map.lookup(v), launch.extentOf(T, v->getName())));
  return T.andOf(cs);
}

/// The conjuncts of `pc` of the form `term == constant` (either side), as
/// (term, constant) with a bit-vector constant.
static SmallVector<std::pair<Term, Term>> constantEqualities(Term pc) {
  SmallVector<std::pair<Term, Term>> out;
  for (Term t : conjunctsOf(pc)) {
    if (t->getKind() != Kind::Eq)
      continue;
    Term a = t->getOperand(0), b = t->getOperand(1);
    if (a->getKind() == Kind::BVConst)
      std::swap(a, b);
    if (b->getKind() == Kind::BVConst && a->getSort() == Sort::BV)
      out.push_back({a, b});
  }
  return out;
}

std::optional<std::pair<Term, Term>>
Executor::warpWriter(const MemoryAccess &w, Term a) {
  // The address in its index normal form: k * (X / D) + c0 for a thread
  // id X (a per-warp slot: warp_sums[tid >> 5], in bytes).
  Term off = T.canonicalIndex(w.byteOffset);
  Term atom = nullptr;
  uint64_t k = 1, c0 = 0;
  auto take = [&](Term t) {
    if (t->getKind() == Kind::BVZExt)
      t = t->getOperand(0);
    if (t->getKind() == Kind::BVMul &&
        t->getOperand(1)->getKind() == Kind::BVConst) {
      k = t->getOperand(1)->getAPInt().getZExtValue();
      t = t->getOperand(0);
      if (t->getKind() == Kind::BVZExt)
        t = t->getOperand(0);
    }
    atom = t;
  };
  if (off->getKind() == Kind::BVAdd &&
      off->getOperand(1)->getKind() == Kind::BVConst) {
    c0 = off->getOperand(1)->getAPInt().getZExtValue();
    take(off->getOperand(0));
  } else {
    take(off);
  }
  if (!atom || atom->getKind() != Kind::BVUDiv || k == 0 ||
      atom->getOperand(1)->getKind() != Kind::BVConst)
    return std::nullopt;
  Term x = atom->getOperand(0);
  if (x->getKind() != Kind::BVVar || !x->getName().starts_with("tid."))
    return std::nullopt;
  Term d = atom->getOperand(1);
  // The lane within the slot, from the write's path condition: a conjunct
  // X % D == c (the elected lane: `if (lane == 0)`).
  Term rem = T.bvBin(Kind::BVURem, x, d);
  std::optional<Term> lane;
  for (auto [l, v] : constantEqualities(w.pathCondition))
    if (!lane && T.canonicalIndex(l) == rem)
      lane = v;
  if (!lane)
    return std::nullopt;
  // X = D * ((a - c0) / k) + c.
  unsigned wx = x->getWidth();
  Term slot = T.bvBin(Kind::BVUDiv,
                      T.bvBin(Kind::BVSub, a, T.bv(c0, a->getWidth())),
                      T.bv(k, a->getWidth()));
  Term slotX = a->getWidth() > wx ? T.bvExtract(slot, 0, wx) : slot;
  return std::make_pair(
      x, T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, slotX, d), *lane));
}

Term Executor::writerMatch(const MemoryAccess &w, Term a,
                           llvm::DenseMap<Term, Term> &sigma, bool &exact) {
  // The witness: the writer thread w* with addr(w*) == a.
  for (auto &[var, ext] : ctaidVars)
    sigma[var] = var; // shared memory: the writer is in the same CTA
  __int128 c0 = 0;
  std::map<Term, __int128, TermIdLess> coeffs;
  llvm::DenseMap<Term, Term> pins = pinnedThreadVars(T, w.pathCondition);
  Term a64 = a;
  if (linearize(w.byteOffset, 1, c0, coeffs)) {
    SmallVector<std::pair<Term, __int128>> order;
    for (auto &[var, c] : coeffs)
      if (c != 0)
        order.push_back({var, c});
    bool positive = llvm::all_of(order, [](auto &p) { return p.second > 0; });
    if (positive) {
      llvm::sort(order, [](auto &x, auto &y) {
        return x.second > y.second ||
               (x.second == y.second && x.first->getId() < y.first->getId());
      });
      Term rem = T.bvBin(Kind::BVSub, a64, T.bv(APInt(64, uint64_t(c0), true)));
      for (auto &[var, c] : order) {
        Term cc = T.bv(uint64_t(c), 64);
        Term q = T.bvBin(Kind::BVUDiv, rem, cc);
        rem = T.bvBin(Kind::BVSub, rem, T.bvBin(Kind::BVMul, q, cc));
        sigma[var] = T.bvExtract(q, 0, 32);
      }
    }
  }
  else if (std::optional<std::pair<Term, Term>> lw =
               warpWriter(w, a64))
    sigma[lw->first] = lw->second;
  exact = true;
  llvm::DenseSet<Term> used;
  {
    SmallVector<Term> work{w.pathCondition, w.byteOffset};
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (used.insert(t).second)
        work.append(t->getOperands().begin(), t->getOperands().end());
    }
  }
  for (auto &[var, ext] : tidVars)
    if (!sigma.count(var)) {
      auto p = pins.find(var);
      sigma[var] = p != pins.end() ? p->second : var;
      if (p == pins.end() && used.count(var))
        exact = false;
    }
  renameFresh({w.pathCondition, w.byteOffset, w.value}, sigma);
  return T.andOf({T.substitute(w.pathCondition, sigma), threadRange(sigma),
                  T.eq(T.substitute(w.byteOffset, sigma), a)});
}

void Executor::checkCountedReads() {
  // Accesses may also be ordered through a third thread's barriers of
  // two ids (t1 -> barrier 1 -> t2 -> barrier 2 -> t3), which the direct
  // order does not see: then an unordered write is not a verdict.
  bool bridged = llvm::any_of(result.arrivals, [](const BarrierArrival &a) {
    return !a.barrier && a.clock.size() > 1;
  });
  for (const PendingRead &r : pendingReads) {
    Term any = r.ownWrite;
    std::optional<Location> guessedWriter;
    for (const MemoryAccess &w : result.accesses) {
      if (!w.write || !w.shared || w.region != r.region || w.phase > r.phase)
        continue;
      if (w.atomic) {
        unknown(r.loc, "a read of shared memory that atomics update ('" +
                           displayVariable(r.region) + "') is not yet modeled");
        return;
      }
      if (w.bytes != r.bytes) {
        unknown(r.loc, "shared accesses of different widths to '" + r.region +
                           "' are not modeled");
        return;
      }
      llvm::DenseMap<Term, Term> sigma;
      bool exact = true;
      Term match = writerMatch(w, r.offset, sigma, exact);
      if (!exact &&
          !(match->getKind() == Kind::BoolConst && !match->getBoolValue()))
        guessedWriter = w.loc;
      if (w.phase == r.phase) {
        // Same phase: only a write that a counted barrier orders before
        // the read initializes it.
        match = T.andOf(match, orderedByCountedBarriers(
                                   T, w.clock, r.clock, [&](unsigned id) {
                                     Term p = participation(T, result, id);
                                     renameFresh({p}, sigma);
                                     return T.substitute(p, sigma);
                                   }));
      }
      any = T.orOf(any, match);
    }
    std::string why;
    if (guessedWriter)
      why = unguessable(*guessedWriter);
    else if (bridged && !r.clock.empty())
      why = "no write is ordered before the read by a barrier both threads "
            "take part in; an order through a third thread's barriers of "
            "two ids is not modeled";
    result.resolutions.push_back(
        {T.andOf(r.pc, T.notOf(any)), r.loc,
         "the shared read of '" + displayVariable(r.region) +
             "' sees a value some thread wrote before it (in an earlier "
             "phase, or before a counted barrier both take part in)",
         why.empty(), why});
  }
}

Term Executor::resolveSharedRead(State &s, const std::string &region,
                                 Term a, unsigned bytes, Location loc,
                                 bool wantReal) {
  // Nothing written: an arbitrary value (reported by the
  // initialization obligation below).
  Term v = fresh(region + "@uninit", wantReal ? Sort::Real : Sort::BV,
                 bytes * 8);
  unwrittenShared.insert(v);
  Term anyMatch = T.boolConst(false);
  std::optional<Location> guessedWriter;
  for (const MemoryAccess &w : result.accesses) {
    if (!w.write || !w.shared || w.region != region || w.phase >= s.phase)
      continue;
    if (w.atomic) {
      unknown(loc, "a read of shared memory that atomics update ('" +
                       displayVariable(region) + "') is not yet modeled");
      return nullptr;
    }
    if (w.bytes != bytes) {
      unknown(loc, "shared accesses of different widths to '" + region +
                       "' are not modeled");
      return nullptr;
    }
    llvm::DenseMap<Term, Term> sigma;
    bool exact = true;
    Term match = writerMatch(w, a, sigma, exact);
    if (match->getKind() == Kind::BoolConst && !match->getBoolValue())
      continue;
    if (!exact)
      guessedWriter = w.loc;
    // Completeness: no other writer w != w* of this write hits `a`.
    llvm::DenseMap<Term, Term> tau;
    unsigned n = writerCounter++;
    SmallVector<Term> differs;
    for (auto &[var, ext] : tidVars) {
      tau[var] = T.bvVar(("w" + Twine(n) + "." + var->getName()).str(), 32);
      differs.push_back(T.notOf(T.eq(tau[var], sigma[var])));
    }
    for (auto &[var, ext] : ctaidVars)
      tau[var] = var;
    renameFresh({w.pathCondition, w.byteOffset, w.value}, tau);
    // Another writer of the same value (a benign race) leaves the value
    // determined.
    Term value = T.substitute(w.value, sigma);
    Term otherWriter =
        T.andOf({s.pc, T.substitute(w.pathCondition, tau), threadRange(tau),
                 T.eq(T.substitute(w.byteOffset, tau), a), T.orOf(differs)});
    result.resolutions.push_back(
        {T.andOf(otherWriter,
                 T.notOf(T.eq(T.substitute(w.value, tau), value))),
         loc,
         "the writer of the shared read of '" + displayVariable(region) +
             "' is unique or writes the same value (the " +
             "write at " + "PTX_LOC" + ")",
         false, "", otherWriter});
    {
      std::string str;
      llvm::raw_string_ostream os(str);
      os << w.loc;
      std::string &what = result.resolutions.back().what;
      what.replace(what.find("PTX_LOC"), 7, os.str());
    }
    if (wantReal && value->getSort() != Sort::Real)
      if (Term r = floatOfBits(value))
        value = r;
    if ((value->getSort() == Sort::Real) != wantReal) {
      unknown(loc, "shared memory of '" + region + "' read with another "
                   "type than written (bit reinterpretation) is not modeled");
      return nullptr;
    }
    // Recording order is program order within a phase and phases ascend:
    // wrapping in that order puts the newest write outermost.
    v = T.ite(match, value, v);
    anyMatch = T.orOf(anyMatch, match);
  }
  result.resolutions.push_back(
      {T.andOf(s.pc, T.notOf(anyMatch)), loc,
       "the shared read of '" + displayVariable(region) +
           "' sees a value some thread wrote",
       !guessedWriter, guessedWriter ? unguessable(*guessedWriter) : ""});
  return v;
}

SmallVector<Executor::ChainEntry>
Executor::bufferChain(State &s, const std::string &name, unsigned elemBytes) {
  SmallVector<ChainEntry> chain;
  for (const SymbolicStore &st : llvm::reverse(s.symbolicStores))
    if (st.buffer == name)
      chain.push_back({st.index, 1, st.value, st.loc});
  // Constant-index stores all precede the symbolic ones (a constant store
  // after a symbolic one is refused), and never overlap each other.
  auto it = s.mem.find(name);
  if (it != s.mem.end())
    for (auto &[off, cell] : it->second)
      chain.push_back({T.bv(off / elemBytes, 64), 1, cell.value, cell.loc});
  return chain;
}

SmallVector<Executor::ChainEntry>
Executor::scratchChain(State &s, const std::string &name) {
  SmallVector<ChainEntry> chain;
  for (const State::ScratchStore &st : llvm::reverse(s.scratchStores))
    if (st.region == name)
      chain.push_back({st.offset, st.bytes, st.value, st.loc});
  auto it = s.mem.find(name);
  if (it != s.mem.end())
    for (auto &[off, cell] : it->second)
      chain.push_back({T.bv(off, 64), cell.bytes, cell.value, cell.loc});
  return chain;
}

Term Executor::resolveChain(State &s, ArrayRef<ChainEntry> chain, Term key,
                            unsigned bytes, Term base, StringRef what,
                            Location loc) {
  // Newest first: the first store that certainly hits ends the walk; the
  // undecided ones above it are wrapped around it, innermost last.
  SmallVector<std::pair<Term, const ChainEntry *>> undecided;
  Term value = base;
  for (const ChainEntry &e : chain) {
    Term d = T.canonicalIndex(T.bvBin(Kind::BVSub, key, e.key));
    if (d->getKind() == Kind::BVConst) {
      // Exact modulo 2^64: [key, key + bytes) and [e.key, e.key + e.bytes)
      // overlap iff key - e.key < e.bytes or e.key - key < bytes.
      APInt dv = d->getAPInt(), nd = -dv;
      if (dv.isZero() && bytes == e.bytes) {
        value = e.value;
        break;
      }
      if (dv.uge(e.bytes) && nd.uge(bytes))
        continue;
      unknown(loc, "a load of " + what + " partially overlaps the store at " +
                       locString(e.loc) + " (not modeled)");
      return nullptr;
    }
    if (e.bytes != bytes) {
      unknown(loc, "a load of " + what + " may partially overlap the store "
                   "at " + locString(e.loc) + " of another width (not "
                   "modeled)");
      return nullptr;
    }
    if (undecided.size() >= kMaxChainAliases) {
      unknown(loc, "the load of " + what + " may read any of more than " +
                       Twine(kMaxChainAliases) +
                       " earlier stores of this thread (store chain limit)");
      return nullptr;
    }
    Term hit = T.eq(key, e.key);
    if (bytes > 1) {
      Term w = T.bv(bytes, 64);
      result.alignments.push_back(
          {s.pc,
           T.orOf({hit, T.andOf(T.bvUle(w, T.bvBin(Kind::BVSub, key, e.key)),
                                T.bvUle(w, T.bvBin(Kind::BVSub, e.key, key)))}),
           loc, ("the load of " + what + " and the store at " +
                 locString(e.loc) + " access the same bytes or disjoint ones")
                    .str()});
    }
    undecided.push_back({hit, &e});
  }
  // One sort for the ite: a float's constant bits (st.u32 0 of 0.0f, as
  // -G code initializes a float array) are that float's value.
  bool real = value->getSort() == Sort::Real ||
              llvm::any_of(undecided, [](auto &u) {
                return u.second->value->getSort() == Sort::Real;
              });
  auto asSort = [&](Term v) -> Term {
    if (!real || v->getSort() == Sort::Real)
      return v;
    if (Term r = floatOfBits(v))
      return r;
    unknown(loc, "a load of " + what + " may read a store of another type "
                 "(bit reinterpretation is not modeled)");
    return nullptr;
  };
  if (!(value = asSort(value)))
    return nullptr;
  for (auto &[hit, e] : llvm::reverse(undecided)) {
    Term v = asSort(e->value);
    if (!v)
      return nullptr;
    value = T.ite(hit, v, value);
  }
  return value;
}

void Executor::checkGlobalReads() {
  for (const PendingGlobalRead &r : globalReads) {
    Term any = T.boolConst(false);
    for (const MemoryAccess &w : result.accesses) {
      if (!w.write || w.shared || w.region != r.region)
        continue;
      llvm::DenseMap<Term, Term> tau;
      unsigned n = writerCounter++;
      SmallVector<Term> differs, ranges;
      auto renameVar = [&](Term var) {
        Term v = T.bvVar(("g" + Twine(n) + "." + var->getName()).str(), 32);
        tau[var] = v;
        differs.push_back(T.notOf(T.eq(v, var)));
        ranges.push_back(T.bvUlt(v, launch.extentOf(T, var->getName())));
      };
      for (auto &[var, ext] : tidVars)
        renameVar(var);
      for (auto &[var, ext] : ctaidVars)
        renameVar(var);
      renameFresh({w.pathCondition, w.byteOffset}, tau);
      Term wo = T.substitute(w.byteOffset, tau);
      // Exact modulo 2^64, as in resolveChain.
      Term overlap = T.orOf(
          {T.bvUlt(T.bvBin(Kind::BVSub, r.offset, wo), T.bv(w.bytes, 64)),
           T.bvUlt(T.bvBin(Kind::BVSub, wo, r.offset), T.bv(r.bytes, 64))});
      any = T.orOf(any, T.andOf({T.substitute(w.pathCondition, tau),
                                 T.andOf(ranges), T.orOf(differs), overlap}));
    }
    result.resolutions.push_back(
        {T.andOf(r.pc, any), r.loc,
         "no other thread writes the element of '" + r.region +
             "' this thread reads (it sees the initial contents and its own "
             "stores)",
         false,
         "another thread may write the element of '" + r.region +
             "' this thread reads: cross-thread data flow through global "
             "memory is not yet modeled"});
  }
}

bool Executor::shuffle(State &s, Frame &f, ShflOp sh, Location loc) {
  SymValue a = get(f, sh.getValue());
  SymValue bv = get(f, sh.getLaneArg()), cv = get(f, sh.getClamp()),
           mv = get(f, sh.getMembermask());
  if (!a.term || !bv.term || !cv.term || !mv.term)
    return false;
  if (bv.realBits || cv.realBits || mv.realBits) {
    unknown(loc, "shfl.sync lane, clamp or mask holding a real value");
    return false;
  }
  auto c32 = [&](uint64_t v) { return T.bv(v, 32); };
  auto bin = [&](Kind k, Term x, Term y) { return T.bvBin(k, x, y); };
  Term lin = linearTid(s);
  Term lane = bin(Kind::BVURem, lin, c32(32));
  Term segmask = bin(Kind::BVAnd, bin(Kind::BVLShr, cv.term, c32(8)), c32(31));
  Term clamp = bin(Kind::BVAnd, cv.term, c32(31));
  Term minLane = bin(Kind::BVAnd, lane, segmask);
  Term maxLane = bin(Kind::BVOr, minLane, bin(Kind::BVAnd, clamp,
                                               T.bvNot(segmask)));
  Term j = nullptr, pval = nullptr;
  switch (sh.getMode()) {
  case ShflMode::Up:
    j = bin(Kind::BVSub, lane, bv.term);
    pval = T.bvSle(maxLane, j);
    break;
  case ShflMode::Down:
    j = bin(Kind::BVAdd, lane, bv.term);
    pval = T.bvSle(j, maxLane);
    break;
  case ShflMode::Bfly:
    j = bin(Kind::BVXor, lane, bv.term);
    pval = T.bvSle(j, maxLane);
    break;
  case ShflMode::Idx:
    j = bin(Kind::BVOr, minLane,
            bin(Kind::BVAnd, bin(Kind::BVAnd, bv.term, c32(31)),
                T.bvNot(segmask)));
    pval = T.bvSle(j, maxLane);
    break;
  }
  Term src = T.ite(pval, j, lane);
  Term srcLin = bin(Kind::BVAdd, bin(Kind::BVSub, lin, lane), src);
  auto inMask = [&](Term l) { return laneInMask(mv.term, l); };
  Term blockThreads = ctaThreadsTerm();
  result.alignments.push_back({s.pc, inMask(lane), loc,
                               "the executing lane is in the membermask of "
                               "shfl.sync"});
  result.alignments.push_back({T.andOf(s.pc, pval), inMask(j), loc,
                               "the source lane of shfl.sync is in its "
                               "membermask"});
  result.alignments.push_back({s.pc, T.bvUlt(srcLin, blockThreads), loc,
                               "the source lane of shfl.sync exists (a "
                               "partial warp has fewer lanes)"});
  // Every lane the mask names executes this shfl.sync (checked at the end
  // of the run, over all paths: finishShuffles).
  Term wl = fresh("shfl.lane", Sort::BV, 32);
  Term wLin = bin(Kind::BVAdd, bin(Kind::BVSub, lin, lane), wl);
  shuffles.push_back(
      {sh, s.phase, s.occurrences[sh], s.pc,
       T.andOf({T.bvUlt(wl, c32(32)), inMask(wl), T.bvUlt(wLin, blockThreads)}),
       wLin, loc, mv.term});
  ++s.occurrences[sh];
  // The source lane's register is this path's term at that lane when the
  // source runs this path too (else the value is not determined: UNKNOWN).
  llvm::DenseMap<Term, Term> sigma = threadAt(srcLin);
  renameFresh({a.term, s.pc}, sigma);
  result.resolutions.push_back(
      {T.andOf({s.pc, pval, T.notOf(T.substitute(s.pc, sigma))}), loc,
       "the source lane of shfl.sync runs the same path",
       false,
       "the source lane may run another path (data-dependent branches), "
       "where its register may hold another value"});
  set(f, sh.getResult(), T.substitute(a.term, sigma), a.realBits);
  set(f, sh.getInRange(), pval);
  ++f.it;
  return true;
}

bool Executor::vote(State &s, Frame &f, VoteOp v, Location loc) {
  SymValue p = get(f, v.getPredicate()), mv = get(f, v.getMembermask());
  if (!p.term || !mv.term)
    return false;
  if (mv.realBits || mv.term->getSort() != Sort::BV) {
    unknown(loc, "vote.sync membermask holding a real value");
    return false;
  }
  auto c32 = [&](uint64_t x) { return T.bv(x, 32); };
  auto bin = [&](Kind k, Term x, Term y) { return T.bvBin(k, x, y); };
  Term lin = linearTid(s);
  Term lane = bin(Kind::BVURem, lin, c32(32));
  Term base = bin(Kind::BVSub, lin, lane);
  auto inMask = [&](Term l) { return laneInMask(mv.term, l); };
  Term blockThreads = ctaThreadsTerm();
  // The membermask obligations of shfl.sync: the executing lane is in the
  // mask, every lane the mask names exists and executes this vote.sync.
  result.alignments.push_back(
      {s.pc, inMask(lane), loc,
       "the executing lane is in the membermask of vote.sync"});
  Term wl = fresh("vote.lane", Sort::BV, 32);
  Term wLin = bin(Kind::BVAdd, base, wl);
  result.alignments.push_back(
      {T.andOf({s.pc, T.bvUlt(wl, c32(32)), inMask(wl)}),
       T.bvUlt(wLin, blockThreads), loc,
       "every lane named in the membermask of vote.sync exists (a partial "
       "warp has fewer lanes)"});
  shuffles.push_back(
      {v, s.phase, s.occurrences[v], s.pc,
       T.andOf({T.bvUlt(wl, c32(32)), inMask(wl), T.bvUlt(wLin, blockThreads)}),
       wLin, loc, mv.term});
  ++s.occurrences[v];
  // The predicate of each lane of the mask: this path's term at that lane,
  // when the lane runs this path too (else UNKNOWN).
  SmallVector<Term> all, any, other, bits;
  for (unsigned l = 0; l < 32; ++l) {
    Term lLin = bin(Kind::BVAdd, base, c32(l));
    Term member = T.andOf(inMask(c32(l)), T.bvUlt(lLin, blockThreads));
    llvm::DenseMap<Term, Term> sigma = threadAt(lLin);
    renameFresh({p.term, s.pc}, sigma);
    Term pl = T.substitute(p.term, sigma);
    other.push_back(T.andOf(member, T.notOf(T.substitute(s.pc, sigma))));
    all.push_back(T.orOf(T.notOf(member), pl));
    any.push_back(T.andOf(member, pl));
    bits.push_back(T.ite(T.andOf(member, pl), c32(uint64_t(1) << l), c32(0)));
  }
  result.resolutions.push_back(
      {T.andOf(s.pc, T.orOf(other)), loc,
       "every lane of the membermask of vote.sync runs the same path", false,
       "a lane of the membermask may run another path (data-dependent "
       "branches), where its predicate may differ"});
  Term r = nullptr;
  switch (v.getMode()) {
  case VoteMode::All:
    r = T.andOf(all);
    break;
  case VoteMode::Any:
    r = T.orOf(any);
    break;
  case VoteMode::Uni: {
    // Every lane of the mask has the same predicate.
    SmallVector<Term> none;
    for (Term a : any)
      none.push_back(T.notOf(a));
    r = T.orOf(T.andOf(all), T.andOf(none));
    break;
  }
  case VoteMode::Ballot: {
    r = c32(0);
    for (Term b : bits)
      r = bin(Kind::BVOr, r, b);
    break;
  }
  }
  if (!r) {
    unknown(loc, "vote.sync mode not modeled");
    return false;
  }
  set(f, v.getResult(), r);
  ++f.it;
  return true;
}

bool Executor::sharedLoad(State &s, Frame &f, LoadOp l,
                          const std::string &region, Term offset,
                          Location loc) {
  Region *r = *regionOf("&" + region);
  if (!r->bytes) {
    unknown(loc, "dynamic shared memory '" + region +
                     "': its size is not in the contract (dynamic_shared)");
    return false;
  }
  Type resultType = l.getResult(0).getType();
  unsigned width = std::max(1u, getWidthOf(resultType) / 8);
  for (auto [k, res] : llvm::enumerate(l.getResults())) {
    Term o = T.bvBin(Kind::BVAdd, offset, T.bv(k * width, 64));
    sharedBounds(s, "load from", region, o, width, r->bytes, loc);
    recordAccess(s, l, /*write=*/false, region, /*shared=*/true, o, width,
                 nullptr, loc);
    // The sort the memory holds: what was written to it.
    // (Constant bits read as a float are that float: floatOfBits.)
    bool wantReal = isa<FloatType>(resultType);
    for (const MemoryAccess &w : result.accesses)
      if (w.write && w.shared && w.region == region && w.value &&
          !(isa<FloatType>(resultType) && floatOfBits(w.value)))
        wantReal = w.value->getSort() == Sort::Real;
    for (const State::SharedWrite &w : s.sharedWrites)
      if (w.region == region &&
          !(isa<FloatType>(resultType) && floatOfBits(w.value)))
        wantReal = w.value->getSort() == Sort::Real;
    if (wantReal && !isa<FloatType>(resultType) &&
        resultType.getIntOrFloatBitWidth() != width * 8) {
      unknown(loc, "partial read of a real value in shared memory");
      return false;
    }
    if (!wantReal && isa<FloatType>(resultType)) {
      unknown(loc, "integer data in shared memory read as a float");
      return false;
    }
    if (result.countedBarriers) {
      // Under counted barriers the writer is not resolved (the value proof
      // is UNKNOWN); the read's initialization is checked once every path
      // has run (checkCountedReads).
      Term own = T.boolConst(false);
      for (const State::SharedWrite &w : s.sharedWrites)
        if (w.phase == s.phase && w.region == region)
          own = T.orOf(own, T.andOf(w.guard ? w.guard : T.boolConst(true),
                                    T.eq(w.offset, o)));
      pendingReads.push_back(
          {region, o, s.pc, own, s.phase, width, s.clock, loc});
      set(f, res,
          fresh(region + "@read", wantReal ? Sort::Real : Sort::BV, width * 8),
          wantReal && !isa<FloatType>(resultType));
      continue;
    }
    Term v = resolveSharedRead(s, region, o, width, loc, wantReal);
    if (!v)
      return false;
    // This thread's own writes of the current phase come first, the newest
    // outermost (program order).
    for (const State::SharedWrite &w : s.sharedWrites) {
      if (w.phase != s.phase || w.region != region)
        continue;
      if (w.bytes != width) {
        unknown(loc, "shared accesses of different widths to '" + region +
                         "' are not modeled");
        return false;
      }
      Term wv = w.value;
      if (wantReal && wv->getSort() != Sort::Real)
        if (Term r = floatOfBits(wv))
          wv = r;
      if ((wv->getSort() == Sort::Real) != wantReal) {
        unknown(loc, "shared memory of '" + region +
                         "' read with another type than written");
        return false;
      }
      Term hit = T.eq(w.offset, o);
      v = T.ite(w.guard ? T.andOf(w.guard, hit) : hit, wv, v);
    }
    set(f, res, v, wantReal && !isa<FloatType>(resultType));
  }
  ++s.occurrences[l];
  ++f.it;
  return true;
}

bool Executor::sharedStore(State &s, Frame &f, StoreOp st,
                           const std::string &region, Term offset,
                           Location loc) {
  Region *r = *regionOf("&" + region);
  if (!r->bytes) {
    unknown(loc, "dynamic shared memory '" + region +
                     "': its size is not in the contract (dynamic_shared)");
    return false;
  }
  unsigned width = std::max(1u, getWidthOf(st.getValues()[0].getType()) / 8);
  for (auto [k, v] : llvm::enumerate(st.getValues())) {
    Term o = T.bvBin(Kind::BVAdd, offset, T.bv(k * width, 64));
    sharedBounds(s, "store to", region, o, width, r->bytes, loc);
    SymValue sv = get(f, v);
    if (!sv.term)
      return false;
    recordAccess(s, st, /*write=*/true, region, /*shared=*/true, o, width,
                 sv.term, loc);
    s.sharedWrites.push_back(
        {s.phase, region, o, width, sv.term, sv.realBits});
  }
  ++s.occurrences[st];
  ++f.it;
  return true;
}

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

Term Executor::specialRegister(State &s, SpecialReg reg, Location loc) {
  auto dim = [&](StringRef name) { return launch.extent(T, name); };
  auto idx = [&](StringRef name, int64_t bound) -> Term {
    if (bound == 1)
      return T.bv(0, 32);
    Term v = T.bvVar(name, 32);
    s.pc = T.andOf(s.pc, T.bvUlt(v, launch.extentOf(T, name)));
    return v;
  };
  switch (reg) {
  case SpecialReg::TidX: return idx("tid.x", launch.block[0]);
  case SpecialReg::TidY: return idx("tid.y", launch.block[1]);
  case SpecialReg::TidZ: return idx("tid.z", launch.block[2]);
  case SpecialReg::NtidX: return dim("ntid.x");
  case SpecialReg::NtidY: return dim("ntid.y");
  case SpecialReg::NtidZ: return dim("ntid.z");
  case SpecialReg::CtaidX: return idx("ctaid.x", launch.grid[0]);
  case SpecialReg::CtaidY: return idx("ctaid.y", launch.grid[1]);
  case SpecialReg::CtaidZ: return idx("ctaid.z", launch.grid[2]);
  case SpecialReg::NctaidX: return dim("nctaid.x");
  case SpecialReg::NctaidY: return dim("nctaid.y");
  case SpecialReg::NctaidZ: return dim("nctaid.z");
  case SpecialReg::LaneId:
    // The lane is the linear thread id mod 32 (DESIGN.md §4).
    return T.bvBin(Kind::BVURem, linearTid(s), T.bv(32, 32));
  case SpecialReg::WarpId:
  case SpecialReg::SmId:
  case SpecialReg::Clock:
  case SpecialReg::ClockHi:
    return fresh(stringifySpecialReg(reg), Sort::BV, 32);
  case SpecialReg::GridId:
    return fresh(stringifySpecialReg(reg), Sort::BV, 64);
  case SpecialReg::Clock64:
  case SpecialReg::GlobalTimer:
    return fresh(stringifySpecialReg(reg), Sort::BV, 64);
  default:
    break;
  }
  unknown(loc, "special register %" + stringifySpecialReg(reg) +
                   " is not modeled");
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

/// Executes `op` in the innermost frame of `s`. Returns true to continue
/// with the next op of the same state, false when the state ended.
bool Executor::execOp(State &s, Operation *op) {
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  auto advance = [&]() {
    ++f.it;
    return true;
  };
  auto val = [&](Value v) { return get(f, v); };
  /// A register read as a real: a real term, or real bits moved through an
  /// integer register.
  auto real = [&](Value v) -> Term {
    SymValue sv = val(v);
    if (!sv.term)
      return nullptr;
    if (sv.term->getSort() != Sort::Real) {
      unknown(loc, "an integer bit pattern reinterpreted as a float is not "
                   "modeled");
      return nullptr;
    }
    return sv.term;
  };
  /// A register read as an integer or predicate: real bits are refused.
  auto bits = [&](Value v) -> Term {
    SymValue sv = val(v);
    if (!sv.term)
      return nullptr;
    if (sv.realBits || sv.term->getSort() == Sort::Real) {
      unknown(loc, "bit operation on a register holding a real value is not "
                   "modeled");
      return nullptr;
    }
    return sv.term;
  };
  auto done = [&](Term t) {
    if (!t) {
      if (result.unknownReason.empty())
        unknown(loc, "infinities meet (inf - inf or 0 * inf) or an operand "
                     "is not modeled");
      return false;
    }
    return true;
  };

  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case<ConstantOp>([&](ConstantOp c) {
        Attribute a = c.getValue();
        Term t;
        if (auto i = dyn_cast<IntegerAttr>(a)) {
          t = c.getType().isInteger(1) ? T.boolConst(i.getValue().getBoolValue())
                                       : T.bv(i.getValue());
        } else if (auto fl = dyn_cast<FloatAttr>(a)) {
          const APFloat &v = fl.getValue();
          if (v.isInfinity())
            t = v.isNegative() ? T.negInf() : T.posInf();
          else if (std::optional<Rational> q = Rational::fromAPFloat(v))
            t = T.real(*q);
          else {
            unknown(loc, "NaN constants are not modeled");
            return false;
          }
        } else {
          unknown(loc, "vector constants are not modeled");
          return false;
        }
        set(f, c, t);
        return advance();
      })
      .Case<UndefOp>([&](UndefOp u) {
        set(f, u, fresh("undef", sortOf(u.getType()),
                        isa<IntegerType>(u.getType())
                            ? u.getType().getIntOrFloatBitWidth()
                            : 0));
        return advance();
      })
      .Case<BitcastOp>([&](BitcastOp b) {
        SymValue in = val(b.getInput());
        Type to = b.getType();
        if (isa<FloatType>(to)) {
          if (in.term->getSort() == Sort::Real) {
            set(f, b, in.term); // f32 -> f32 through a .b32 register
            return advance();
          }
          unknown(loc, "an integer bit pattern reinterpreted as a float is "
                       "not modeled");
          return false;
        }
        if (isa<IntegerType>(to) && !to.isInteger(1)) {
          if (in.term->getSort() == Sort::Real) {
            set(f, b, in.term, /*realBits=*/true);
            return advance();
          }
          set(f, b, in.term, in.realBits);
          return advance();
        }
        unknown(loc, "bitcast to " + std::string("a vector") +
                         " is not modeled");
        return false;
      })
      .Case<SRegOp>([&](SRegOp r) {
        Term t = specialRegister(s, r.getReg(), loc);
        if (!t)
          return false;
        if (r.getType().getIntOrFloatBitWidth() != t->getWidth())
          t = T.bvZExt(t, r.getType().getIntOrFloatBitWidth());
        set(f, r, t);
        return advance();
      })
      .Case<AddressOfOp>([&](AddressOfOp a) {
        set(f, a,
            T.bvVar("&" + a.getName().str(), getWidthOf(a.getType())));
        return advance();
      })
      .Case<CvtaOp>([&](CvtaOp c) {
        // The generic and global windows coincide (PTX ISA 9.7.9.17). For
        // .shared/.local/.const/.param, an address here is its variable's
        // base plus an offset, and the base names the state space: the
        // conversion keeps the term (zero-extended or truncated to the
        // result's width; shared windows are below 2^32).
        Term a = bits(c.getInput());
        if (!a)
          return false;
        unsigned w = getWidthOf(c.getResult().getType());
        if (a->getWidth() < w)
          a = T.bvZExt(a, w);
        else if (a->getWidth() > w)
          a = T.bvExtract(a, 0, w);
        set(f, c, a);
        return advance();
      })
      .Case<IntBinOp>([&](IntBinOp o) {
        Term a = bits(o.getLhs()), b = bits(o.getRhs());
        if (!a || !b)
          return false;
        Term r = nullptr;
        bool sgn = o.getIsSigned();
        if (o.getType().isInteger(1)) {
          switch (o.getKind()) {
          case IntBinKind::And:
            r = T.andOf(a, b);
            break;
          case IntBinKind::Or:
            r = T.orOf(a, b);
            break;
          case IntBinKind::Xor:
            r = T.ite(a, T.notOf(b), b);
            break;
          default:
            break;
          }
        } else {
          unsigned w = a->getWidth();
          switch (o.getKind()) {
          case IntBinKind::Add:
          case IntBinKind::Sub: {
            Kind k = o.getKind() == IntBinKind::Add ? Kind::BVAdd : Kind::BVSub;
            if (!o.getSat()) {
              r = T.bvBin(k, a, b);
              break;
            }
            // .sat (PTX ISA 9.7.1.1-2, .s32 only): the exact sum of the
            // signed operands clamped to the type's range.
            Term wide = T.bvBin(k, T.bvSExt(a, w + 1), T.bvSExt(b, w + 1));
            APInt hi = APInt::getSignedMaxValue(w), lo = APInt::getSignedMinValue(w);
            r = T.ite(T.bvSlt(T.bv(hi.sext(w + 1)), wide), T.bv(hi),
                      T.ite(T.bvSlt(wide, T.bv(lo.sext(w + 1))), T.bv(lo),
                            T.bvExtract(wide, 0, w)));
            break;
          }
          case IntBinKind::Mul24Lo:
          case IntBinKind::Mul24Hi: {
            // PTX ISA 9.7.1.5: the 48-bit product of the low 24 bits
            // (signed or unsigned); .lo its low 32 bits, .hi bits 16-47.
            Term x = T.bvExtract(a, 0, 24), y = T.bvExtract(b, 0, 24);
            Term p = T.bvBin(Kind::BVMul, sgn ? T.bvSExt(x, 64) : T.bvZExt(x, 64),
                             sgn ? T.bvSExt(y, 64) : T.bvZExt(y, 64));
            r = T.bvExtract(p, o.getKind() == IntBinKind::Mul24Lo ? 0 : 16, w);
            break;
          }
          case IntBinKind::MulLo:
            r = T.bvBin(Kind::BVMul, a, b);
            break;
          case IntBinKind::MulHi: {
            Term wa = sgn ? T.bvSExt(a, 2 * w) : T.bvZExt(a, 2 * w);
            Term wb = sgn ? T.bvSExt(b, 2 * w) : T.bvZExt(b, 2 * w);
            r = T.bvExtract(T.bvBin(Kind::BVMul, wa, wb), w, w);
            break;
          }
          case IntBinKind::And:
            r = T.bvBin(Kind::BVAnd, a, b);
            break;
          case IntBinKind::Or:
            r = T.bvBin(Kind::BVOr, a, b);
            break;
          case IntBinKind::Xor:
            r = T.bvBin(Kind::BVXor, a, b);
            break;
          case IntBinKind::Min:
            r = T.ite(sgn ? T.bvSlt(b, a) : T.bvUlt(b, a), b, a);
            break;
          case IntBinKind::Max:
            r = T.ite(sgn ? T.bvSlt(a, b) : T.bvUlt(a, b), b, a);
            break;
          case IntBinKind::Div:
          case IntBinKind::Rem: {
            // Division by zero gives an unspecified value (no trap).
            Kind k = o.getKind() == IntBinKind::Div
                         ? (sgn ? Kind::BVSDiv : Kind::BVUDiv)
                         : (sgn ? Kind::BVSRem : Kind::BVURem);
            r = T.ite(T.eq(b, T.bv(0, w)), fresh("divzero", Sort::BV, w),
                      T.bvBin(k, a, b));
            break;
          }
          default:
            break;
          }
        }
        if (!r) {
          unknown(loc, "integer operation '" +
                           stringifyIntBinKind(o.getKind()) +
                           (o.getSat() ? ".sat" : "") + "' is not modeled");
          return false;
        }
        set(f, o, r);
        return advance();
      })
      .Case<IntUnaryOp>([&](IntUnaryOp o) {
        Term a = bits(o.getInput());
        if (!a)
          return false;
        Term r = nullptr;
        if (o.getType().isInteger(1)) {
          if (o.getKind() == IntUnaryKind::Not)
            r = T.notOf(a);
        } else {
          unsigned w = a->getWidth();
          switch (o.getKind()) {
          case IntUnaryKind::Not:
            r = T.bvNot(a);
            break;
          case IntUnaryKind::Neg:
            r = T.bvBin(Kind::BVSub, T.bv(0, w), a);
            break;
          case IntUnaryKind::Abs:
            r = T.ite(T.bvSlt(a, T.bv(0, w)),
                      T.bvBin(Kind::BVSub, T.bv(0, w), a), a);
            break;
          case IntUnaryKind::CNot:
            r = T.ite(T.eq(a, T.bv(0, w)), T.bv(1, w), T.bv(0, w));
            break;
          default:
            if (o.getKind() == IntUnaryKind::Popc &&
                a->getKind() != Kind::BVConst) {
              // popc: the sum of the bits (PTX ISA 9.7.1.14). Of an OR of
              // `ite(c, 2^k, 0)` with distinct k (a vote.sync ballot): the
              // number of true c, without bit extraction.
              SmallVector<Term> leaves{a}, conds;
              APInt seen(w, 0);
              bool disjoint = true;
              while (!leaves.empty() && disjoint) {
                Term x = leaves.pop_back_val();
                if (x->getKind() == Kind::BVOr) {
                  leaves.append(x->getOperands().begin(),
                                x->getOperands().end());
                } else if (x->getKind() == Kind::BVConst &&
                           x->getAPInt().isZero()) {
                } else if (x->getKind() == Kind::Ite &&
                           x->getOperand(1)->getKind() == Kind::BVConst &&
                           x->getOperand(1)->getAPInt().isPowerOf2() &&
                           x->getOperand(2)->getKind() == Kind::BVConst &&
                           x->getOperand(2)->getAPInt().isZero() &&
                           !(seen & x->getOperand(1)->getAPInt())) {
                  seen |= x->getOperand(1)->getAPInt();
                  conds.push_back(x->getOperand(0));
                } else {
                  disjoint = false;
                }
              }
              r = T.bv(0, 32);
              if (disjoint)
                for (Term c : conds)
                  r = T.bvBin(Kind::BVAdd, r,
                              T.ite(c, T.bv(1, 32), T.bv(0, 32)));
              else
                for (unsigned i = 0; i < w; ++i)
                  r = T.bvBin(Kind::BVAdd, r,
                              T.bvZExt(T.bvExtract(a, i, 1), 32));
            } else if (a->getKind() == Kind::BVConst) {
              const APInt &v = a->getAPInt();
              if (o.getKind() == IntUnaryKind::Popc)
                r = T.bv(v.popcount(), 32);
              else if (o.getKind() == IntUnaryKind::Clz)
                r = T.bv(v.countl_zero(), 32);
              else
                r = T.bv(v.reverseBits());
            } else if (o.getKind() == IntUnaryKind::Clz) {
              // PTX ISA 9.7.1.16: w when a = 0, else w - 1 - (the index of
              // the highest set bit): a select from the lowest bit up.
              r = T.bv(w, 32);
              for (unsigned i = 0; i < w; ++i)
                r = T.ite(T.eq(T.bvExtract(a, i, 1), T.bv(1, 1)),
                          T.bv(w - 1 - i, 32), r);
            } else if (o.getKind() == IntUnaryKind::Brev) {
              // PTX ISA 9.7.1.17: bit i of the result is bit w - 1 - i.
              r = T.bvExtract(a, 0, 1);
              for (unsigned i = 1; i < w; ++i)
                r = T.bvConcat(r, T.bvExtract(a, i, 1));
            }
          }
        }
        if (!r) {
          unknown(loc, "'" + stringifyIntUnaryKind(o.getKind()) +
                           "' of a symbolic value is not modeled");
          return false;
        }
        set(f, o, r);
        return advance();
      })
      .Case<ShiftOp>([&](ShiftOp o) {
        Term a = bits(o.getInput()), n = bits(o.getAmount());
        if (!a || !n)
          return false;
        unsigned w = a->getWidth();
        // PTX clamps shift amounts (PTX ISA 9.7.8.7-8): compare in 32 bits.
        Term big = T.bvUle(T.bv(w, 32), n);
        Term amt = w >= 32 ? T.bvZExt(n, w) : T.bvExtract(n, 0, w);
        Term shifted;
        if (o.getKind() == ShiftKind::Shl)
          shifted = T.ite(big, T.bv(0, w), T.bvBin(Kind::BVShl, a, amt));
        else if (o.getIsSigned())
          shifted = T.ite(big, T.bvBin(Kind::BVAShr, a, T.bv(w - 1, w)),
                          T.bvBin(Kind::BVAShr, a, amt));
        else
          shifted = T.ite(big, T.bv(0, w), T.bvBin(Kind::BVLShr, a, amt));
        set(f, o, shifted);
        return advance();
      })
      .Case<PrmtOp>([&](PrmtOp o) {
        // PTX ISA 9.7.8.9, generic mode with a constant selector: byte i of
        // the result is byte sel_i (nibble i of c) of {b, a} (a: bytes
        // 0-3, b: 4-7). Runs of result bytes taken from consecutive bytes
        // of one operand become one field (bytes 1-3 of prmt(row, lane,
        // 0x2104) are row's bytes 0-2: 256 row + (lane & 255)), so an index
        // built this way stays a linear form. Sign replication (bit 3 of a
        // nibble) and the other modes are not modeled.
        Term a = bits(o.getA()), b = bits(o.getB()), c = bits(o.getSelector());
        if (!a || !b || !c)
          return false;
        if (o.getMode() || c->getKind() != Kind::BVConst ||
            (c->getAPInt().getZExtValue() & 0x8888)) {
          // The general form, byte by byte: a mode's table row chosen by
          // c[1:0], or in the generic mode nibble i of c naming byte i's
          // source (bit 3: replicate that byte's sign). A symbolic
          // selector selects among the cases.
          auto byte = [&](unsigned k) {
            return T.bvExtract(k < 4 ? a : b, 8 * (k % 4), 8);
          };
          auto generic = [&](unsigned sel) {
            Term v = byte(sel & 7);
            if (sel & 8)
              v = T.ite(T.eq(T.bvExtract(v, 7, 1), T.bv(1, 1)), T.bv(0xff, 8),
                        T.bv(0, 8));
            return v;
          };
          const std::array<std::array<int, 4>, 4> *table = nullptr;
          if (std::optional<StringRef> m = o.getMode()) {
            table = prmtModeTable(*m);
            if (!table) {
              unknown(loc, "prmt mode '" + m->str() + "' is not modeled");
              return false;
            }
          }
          Term result = nullptr;
          for (unsigned i = 0; i < 4; ++i) {
            Term v;
            if (table) {
              Term row = T.bvExtract(c, 0, 2);
              v = byte((*table)[3][i]);
              for (unsigned k = 0; k < 3; ++k)
                v = T.ite(T.eq(row, T.bv(k, 2)), byte((*table)[k][i]), v);
            } else {
              Term nib = T.bvExtract(c, 4 * i, 4);
              v = generic(15);
              for (unsigned k = 0; k < 15; ++k)
                v = T.ite(T.eq(nib, T.bv(k, 4)), generic(k), v);
            }
            result = result ? T.bvConcat(v, result) : v;
          }
          set(f, o, result);
          return advance();
        }
        uint64_t sel = c->getAPInt().getZExtValue();
        auto source = [&](unsigned i) { return unsigned(sel >> (4 * i)) & 7; };
        Term acc = T.bv(0, 32);
        for (unsigned i = 0; i < 4;) {
          unsigned from = source(i), len = 1;
          while (i + len < 4 && source(i + len) == from + len &&
                 (from + len) / 4 == from / 4)
            ++len;
          Term src = from < 4 ? a : b;
          Term field = T.bvExtract(src, 8 * (from % 4), 8 * len);
          if (8 * len < 32)
            field = T.bvZExt(field, 32);
          acc = T.bvBin(Kind::BVAdd, acc,
                        T.bvBin(Kind::BVShl, field, T.bv(8 * i, 32)));
          i += len;
        }
        set(f, o, acc);
        return advance();
      })
      .Case<BfeOp>([&](BfeOp o) {
        // PTX ISA 9.7.8.10: bit i of the result is bit pos + i of a for
        // i < len (while pos + i is inside a), else the sign bit: 0 for
        // .u, bit min(pos + len - 1, msb) of a for .s (0 when len = 0).
        // pos and len are their low 8 bits. With constant pos and len the
        // field is an extract (and an extension); otherwise a select over
        // the w + 1 positions (and lengths) that matter.
        Term a = bits(o.getInput()), pos = bits(o.getPos()),
             len = bits(o.getLen());
        if (!a || !pos || !len)
          return false;
        unsigned w = a->getWidth();
        bool sgn = o.getIsSigned();
        auto field = [&](unsigned p, unsigned n) -> Term {
          if (n == 0 || p >= w) {
            // No bit of a below the sign: 0, or the replicated sign bit.
            if (!sgn || n == 0)
              return T.bv(0, w);
            return T.bvSExt(T.bvExtract(a, w - 1, 1), w);
          }
          unsigned k = std::min(n, w - p); // bits of a inside the field
          Term f = T.bvExtract(a, p, k);
          if (k == w)
            return f;
          if (!sgn)
            return T.bvZExt(f, w);
          // The sign bit is bit min(p + n - 1, msb) of a: the field's top
          // bit when the field fits, else a's msb (also the top bit).
          return T.bvSExt(f, w);
        };
        Term r;
        if (pos->getKind() == Kind::BVConst && len->getKind() == Kind::BVConst) {
          r = field(pos->getAPInt().getZExtValue() & 0xff,
                    len->getAPInt().getZExtValue() & 0xff);
        } else {
          Term p8 = T.bvExtract(pos, 0, 8), n8 = T.bvExtract(len, 0, 8);
          // Positions >= w and lengths >= w behave as w.
          auto clampTo = [&](Term v) {
            return T.ite(T.bvUle(T.bv(w, 8), v), T.bv(w, 8), v);
          };
          Term pc = clampTo(p8), nc = clampTo(n8);
          auto byLen = [&](unsigned p) {
            Term v = field(p, w); // len >= w
            for (unsigned n = 0; n < w; ++n)
              v = T.ite(T.eq(nc, T.bv(n, 8)), field(p, n), v);
            return v;
          };
          r = byLen(w); // pos >= w
          for (unsigned p = 0; p < w; ++p)
            r = T.ite(T.eq(pc, T.bv(p, 8)), byLen(p), r);
        }
        set(f, o, r);
        return advance();
      })
      .Case<Lop3Op>([&](Lop3Op o) {
        // PTX ISA 9.7.8.6: bit i of the result is bit (a_i b_i c_i) of the
        // 8-bit table: the OR of the minterms the table selects.
        Term a = bits(o.getA()), b = bits(o.getB()), c = bits(o.getC());
        if (!a || !b || !c)
          return false;
        uint32_t lut = o.getLut() & 0xff;
        Term r = T.bv(0, 32);
        for (unsigned m = 0; m < 8; ++m) {
          if (!((lut >> m) & 1))
            continue;
          Term ta = (m & 4) ? a : T.bvNot(a), tb = (m & 2) ? b : T.bvNot(b),
               tc = (m & 1) ? c : T.bvNot(c);
          r = T.bvBin(Kind::BVOr, r,
                      T.bvBin(Kind::BVAnd, ta, T.bvBin(Kind::BVAnd, tb, tc)));
        }
        set(f, o, r);
        return advance();
      })
      .Case<ShfOp>([&](ShfOp o) {
        // PTX ISA 9.7.8.8: the funnel {b, a} (b the high word) shifted by
        // n = min(c, 32) (.clamp) or c & 31 (.wrap); .l keeps the high
        // word of the shifted 64 bits, .r the low word.
        Term a = bits(o.getA()), b = bits(o.getB()), c = bits(o.getAmount());
        if (!a || !b || !c)
          return false;
        Term n = o.getClamp()
                     ? T.ite(T.bvUlt(T.bv(32, 32), c), T.bv(32, 32), c)
                     : T.bvBin(Kind::BVAnd, c, T.bv(31, 32));
        Term v = T.bvConcat(b, a), n64 = T.bvZExt(n, 64);
        Term r = o.getLeft()
                     ? T.bvExtract(T.bvBin(Kind::BVShl, v, n64), 32, 32)
                     : T.bvExtract(T.bvBin(Kind::BVLShr, v, n64), 0, 32);
        set(f, o, r);
        return advance();
      })
      .Case<TestpOp>([&](TestpOp o) {
        // PTX ISA 9.7.3.5. In the reals model every value is a finite
        // number; normal means |a| >= the type's smallest normal (2^-126
        // for f32, 2^-1022 for f64; no upper limit: reals do not
        // overflow), subnormal 0 < |a| below it. With non-finite inputs
        // (ExecutorOptions::nonFiniteInputs) any outcome is possible.
        Term a = real(o.getInput());
        if (!a)
          return false;
        unsigned e = o.getInput().getType().isF64() ? 1022 : 126;
        Rational minNormal(1);
        for (unsigned i = 0; i < e; ++i)
          minNormal = minNormal / Rational(2);
        Term absA = T.ite(T.realLt(a, T.real(0)), T.neg(a), a);
        Term r = nullptr;
        switch (o.getKind()) {
        case TestpKind::Finite:
        case TestpKind::Number:
          r = T.boolConst(true);
          break;
        case TestpKind::Infinite:
        case TestpKind::NotANumber:
          r = T.boolConst(false);
          break;
        case TestpKind::Normal:
          r = T.realLe(T.real(minNormal), absA);
          break;
        case TestpKind::Subnormal:
          r = T.andOf(T.realLt(T.real(0), absA),
                      T.realLt(absA, T.real(minNormal)));
          break;
        }
        if (mayBeNonFinite(a)) {
          Term nf = T.boolVar(nonFiniteFlag());
          r = T.orOf(T.andOf(T.notOf(nf), r),
                     T.andOf(nf, fresh("testp.nonfinite", Sort::Bool)));
        }
        set(f, o, r);
        return advance();
      })
      .Case<BfiOp>([&](BfiOp o) {
        // PTX ISA 9.7.8.11: b with bits [pos, pos + len) replaced by the
        // low len bits of a (pos, len: their low 8 bits; truncated at the
        // width). The two parts have disjoint bits, so their sum is their
        // OR, which keeps an index such as bfi(row, lane, 7, 25) a linear
        // form (row * 128 + (lane & 127)).
        Term a = bits(o.getInsert()), b = bits(o.getBase());
        Term pos = bits(o.getPos()), len = bits(o.getLen());
        if (!a || !b || !pos || !len)
          return false;
        unsigned w = a->getWidth();
        if (pos->getKind() != Kind::BVConst ||
            len->getKind() != Kind::BVConst) {
          // A symbolic field: mask = (2^len - 1) << pos over the low 8 bits
          // of pos and len (all ones for len >= w; shifts past the width
          // give 0, as the field then starts outside b).
          auto low8 = [&](Term v) { return T.bvZExt(T.bvExtract(v, 0, 8), w); };
          Term p = low8(pos), n = low8(len);
          Term ones = T.bv(APInt::getAllOnes(w));
          Term lowMask =
              T.ite(T.bvUle(T.bv(w, w), n), ones,
                    T.bvBin(Kind::BVSub, T.bvBin(Kind::BVShl, T.bv(1, w), n),
                            T.bv(1, w)));
          Term mask = T.bvBin(Kind::BVShl, lowMask, p);
          set(f, o,
              T.bvBin(Kind::BVOr, T.bvBin(Kind::BVAnd, b, T.bvNot(mask)),
                      T.bvBin(Kind::BVAnd, T.bvBin(Kind::BVShl, a, p), mask)));
          return advance();
        }
        unsigned p = pos->getAPInt().getZExtValue() & 0xff;
        unsigned n = len->getAPInt().getZExtValue() & 0xff;
        if (p >= w || n == 0) {
          set(f, o, b);
          return advance();
        }
        n = std::min(n, w - p);
        APInt mask = APInt::getBitsSet(w, p, p + n);
        Term field = T.bvBin(Kind::BVShl, a, T.bv(p, w));
        if (p + n < w) // the shift already clears the bits below p
          field = T.bvBin(Kind::BVAnd, field, T.bv(mask));
        Term rest = T.bvBin(Kind::BVAnd, b, T.bv(~mask));
        set(f, o, T.bvBin(Kind::BVAdd, rest, field));
        return advance();
      })
      .Case<MulWideOp>([&](MulWideOp o) {
        Term a = bits(o.getLhs()), b = bits(o.getRhs());
        if (!a || !b)
          return false;
        unsigned w = 2 * a->getWidth();
        bool sgn = o.getIsSigned();
        set(f, o,
            T.bvBin(Kind::BVMul, sgn ? T.bvSExt(a, w) : T.bvZExt(a, w),
                    sgn ? T.bvSExt(b, w) : T.bvZExt(b, w)));
        return advance();
      })
      .Case<CmpOp>([&](CmpOp c) {
        Type t = c.getLhs().getType();
        Term r = nullptr;
        if (isa<FloatType>(t)) {
          Term a = real(c.getLhs()), b = real(c.getRhs());
          if (!a || !b)
            return false;
          // No NaN in the reals model: unordered = ordered; num is true.
          switch (c.getPredicate()) {
          case CmpPredicate::Eq:
          case CmpPredicate::Equ:
            r = T.eq(a, b);
            break;
          case CmpPredicate::Ne:
          case CmpPredicate::Neu:
            r = T.notOf(T.eq(a, b));
            break;
          case CmpPredicate::Lt:
          case CmpPredicate::Ltu:
            r = T.realLt(a, b);
            break;
          case CmpPredicate::Le:
          case CmpPredicate::Leu:
            r = T.realLe(a, b);
            break;
          case CmpPredicate::Gt:
          case CmpPredicate::Gtu:
            r = T.realLt(b, a);
            break;
          case CmpPredicate::Ge:
          case CmpPredicate::Geu:
            r = T.realLe(b, a);
            break;
          case CmpPredicate::Num:
            r = T.boolConst(true);
            break;
          case CmpPredicate::NaN:
            r = T.boolConst(false);
            break;
          }
          // NaN and infinite operands (ExecutorOptions::nonFiniteInputs):
          // every outcome is possible, thread by thread.
          if (r && (mayBeNonFinite(a) || mayBeNonFinite(b))) {
            Term nf = T.boolVar(nonFiniteFlag());
            r = T.orOf(T.andOf(T.notOf(nf), r),
                       T.andOf(nf, fresh("fcmp.nonfinite", Sort::Bool)));
          }
        } else {
          Term a = bits(c.getLhs()), b = bits(c.getRhs());
          if (!a || !b)
            return false;
          bool sgn = c.getIsSigned();
          switch (c.getPredicate()) {
          case CmpPredicate::Eq:
            r = T.eq(a, b);
            break;
          case CmpPredicate::Ne:
            r = T.notOf(T.eq(a, b));
            break;
          case CmpPredicate::Lt:
            r = sgn ? T.bvSlt(a, b) : T.bvUlt(a, b);
            break;
          case CmpPredicate::Le:
            r = sgn ? T.bvSle(a, b) : T.bvUle(a, b);
            break;
          case CmpPredicate::Gt:
            r = sgn ? T.bvSlt(b, a) : T.bvUlt(b, a);
            break;
          case CmpPredicate::Ge:
            r = sgn ? T.bvSle(b, a) : T.bvUle(b, a);
            break;
          default:
            break;
          }
        }
        if (!done(r))
          return false;
        set(f, c, r);
        return advance();
      })
      .Case<SelpOp>([&](SelpOp o) {
        Term c = bits(o.getCondition());
        SymValue a = val(o.getTrueValue()), b = val(o.getFalseValue());
        if (!c || !a.term || !b.term)
          return false;
        if (a.term->getSort() != b.term->getSort() || a.realBits != b.realBits) {
          unknown(loc, "selp between a real and integer bits");
          return false;
        }
        set(f, o, T.ite(c, a.term, b.term), a.realBits);
        return done(val(o).term) && advance();
      })
      .Case<CvtOp>([&](CvtOp c) {
        Type from = c.getInput().getType(), to = c.getType();
        bool fromF = isa<FloatType>(from), toF = isa<FloatType>(to);
        Term r = nullptr;
        if (!fromF && !toF) {
          Term a = bits(c.getInput());
          if (!a)
            return false;
          unsigned fw = a->getWidth(), tw = to.getIntOrFloatBitWidth();
          if (c.getSat()) {
            // PTX ISA 9.7.9.21: the source value (signed or unsigned)
            // clamped to the destination's range.
            unsigned ww = std::max(fw, tw) + 2;
            Term v = c.getSrcSigned() ? T.bvSExt(a, ww) : T.bvZExt(a, ww);
            APInt lo = c.getDstSigned() ? APInt::getSignedMinValue(tw).sext(ww)
                                        : APInt(ww, 0);
            APInt hi = c.getDstSigned() ? APInt::getSignedMaxValue(tw).sext(ww)
                                        : APInt::getMaxValue(tw).zext(ww);
            Term clamped = T.ite(T.bvSlt(v, T.bv(lo)), T.bv(lo),
                                 T.ite(T.bvSlt(T.bv(hi), v), T.bv(hi), v));
            r = T.bvExtract(clamped, 0, tw);
            if (!done(r))
              return false;
            set(f, c, r);
            return advance();
          }
          r = tw < fw   ? T.bvExtract(a, 0, tw)
              : tw > fw ? (c.getSrcSigned() ? T.bvSExt(a, tw)
                                            : T.bvZExt(a, tw))
                        : a;
        } else if (!fromF && toF) {
          Term a = bits(c.getInput());
          if (!a)
            return false;
          r = T.bvToReal(a, c.getSrcSigned());
        } else if (fromF && toF) {
          Term a = real(c.getInput());
          if (!a)
            return false;
          if (to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth() ||
              (from.isF16() && to.isBF16()) || (from.isBF16() && to.isF16()))
          {
            std::string what;
            llvm::raw_string_ostream os(what);
            os << "conversion from " << from << " to " << to;
            result.downgrades.push_back({what, loc});
          }
          if (c.getMode() && (*c.getMode() == FloatMode::RNI ||
                              *c.getMode() == FloatMode::RZI ||
                              *c.getMode() == FloatMode::RMI ||
                              *c.getMode() == FloatMode::RPI)) {
            unknown(loc, "rounding to an integral value is not modeled");
            return false;
          }
          r = c.getSat() ? saturate(a) : a;
        } else {
          unknown(loc, "float to integer conversion is not modeled");
          return false;
        }
        if (!done(r))
          return false;
        set(f, c, r);
        return advance();
      })
      .Case<FloatBinOp>([&](FloatBinOp o) {
        Term a = real(o.getLhs()), b = real(o.getRhs());
        if (!a || !b)
          return false;
        if (isa<VectorType>(o.getType())) {
          unknown(loc, "packed float arithmetic is not modeled");
          return false;
        }
        Term r = nullptr;
        switch (o.getKind()) {
        case FloatBinKind::Add:
          r = T.add(a, b);
          break;
        case FloatBinKind::Sub:
          r = T.sub(a, b);
          break;
        case FloatBinKind::Mul:
          r = T.mul(a, b);
          break;
        case FloatBinKind::Div:
          result.divisors.push_back({s.pc, b, loc, "divisor of div"});
          r = T.div(a, b);
          break;
        case FloatBinKind::Min:
          r = T.min(a, b);
          break;
        case FloatBinKind::Max:
          r = T.max(a, b);
          break;
        case FloatBinKind::CopySign: {
          Term mag = T.ite(T.realLt(b, T.real(0)), T.neg(b), b);
          r = T.ite(T.realLt(a, T.real(0)), T.neg(mag), mag);
          break;
        }
        }
        if (o.getSat() && r)
          r = saturate(r);
        r = keepNonFinite(r, {a, b});
        if (!done(r))
          return false;
        set(f, o, r);
        return advance();
      })
      .Case<FmaOp>([&](FmaOp o) {
        Term a = real(o.getA()), b = real(o.getB()), c = real(o.getC());
        if (!a || !b || !c)
          return false;
        Term r = T.add(T.mul(a, b), c);
        if (o.getSat() && r)
          r = saturate(r);
        r = keepNonFinite(r, {a, b, c});
        if (!done(r))
          return false;
        set(f, o, r);
        return advance();
      })
      .Case<FloatUnaryOp>([&](FloatUnaryOp o) {
        Term a = real(o.getInput());
        if (!a)
          return false;
        Term r = nullptr;
        switch (o.getKind()) {
        case FloatUnaryKind::Neg:
          r = T.neg(a);
          break;
        case FloatUnaryKind::Abs:
          r = T.ite(T.realLt(a, T.real(0)), T.neg(a), a);
          break;
        case FloatUnaryKind::Rcp:
          result.divisors.push_back({s.pc, a, loc, "operand of rcp"});
          r = T.div(T.real(1), a);
          break;
        case FloatUnaryKind::Sqrt:
          // sqrt of a negative number is NaN: the operand must be >= 0.
          result.alignments.push_back({s.pc, T.realLe(T.real(0), a), loc,
                                       "non-negative operand of sqrt"});
          r = T.realFn("sqrt", {a});
          break;
        case FloatUnaryKind::Rsqrt:
          result.alignments.push_back({s.pc, T.realLt(T.real(0), a), loc,
                                       "positive operand of rsqrt"});
          r = T.realFn("rsqrt", {a});
          break;
        case FloatUnaryKind::Ex2: {
          // The idiom is read arm by arm of an if-then-else (merged states,
          // selp): each path computes ex2 of its own arm, so the term is
          // the one a path-by-path execution (and the interpreter) gives.
          // Memoized: arms of merged states share sub-ites, and walking
          // the DAG as a tree would take time exponential in the merges.
          bool idiom = false;
          llvm::DenseMap<Term, Term> done;
          std::function<Term(Term)> ex2 = [&](Term x) -> Term {
            if (Term d = done.lookup(x))
              return d;
            Term r;
            if (x->getKind() == Kind::Ite) {
              r = T.ite(x->getOperand(0), ex2(x->getOperand(1)),
                        ex2(x->getOperand(2)));
            } else if (Term lifted = N.matchScaledLinear(x, log2eF32())) {
              idiom = true;
              r = T.exp(lifted);
            } else {
              r = T.exp2(x);
            }
            done[x] = r;
            return r;
          };
          r = ex2(a);
          if (idiom)
            result.idioms.push_back(
                {"ex2(0f3FB8AA3B * f) read as exp(f)", loc});
          break;
        }
        case FloatUnaryKind::Lg2:
          // PTX ISA 9.7.4.10: lg2 of +-0 is -inf (and ex2(-inf) = +0), a
          // value the reals model has only as a constant: a constant zero
          // operand gives -inf; any other operand must be positive.
          if (a->getKind() == Kind::RealConst && a->getRational().isZero()) {
            r = T.negInf();
            break;
          }
          result.alignments.push_back({s.pc, T.realLt(T.real(0), a), loc,
                                       "positive operand of lg2"});
          r = T.realFn("lg2", {a});
          break;
        case FloatUnaryKind::Tanh:
          r = T.realFn("tanh", {a});
          break;
        case FloatUnaryKind::Sin:
          r = T.realFn("sin", {a});
          break;
        case FloatUnaryKind::Cos:
          r = T.realFn("cos", {a});
          break;
        }
        if (o.getSat() && r)
          r = saturate(r);
        if (!done(r))
          return false;
        set(f, o, r);
        return advance();
      })
      .Case<LoadOp>([&](LoadOp l) {
        Term addr;
        std::string name;
        Term offTerm;
        if (!resolveAccess(f, l.getAddr(), l.getOffset(), l.getSpace(), loc,
                           addr, name, offTerm))
          return false;
        Region *r = *regionOf("&" + name);
        if (loopLoads)
          loopLoads->insert(name);
        if (isMultiThread() && r->space == StateSpace::Shared)
          return sharedLoad(s, f, l, name, offTerm, loc);
        if (isMultiThread() && !r->buffer && r->global &&
            (r->space == StateSpace::Global ||
             r->space == StateSpace::Shared)) {
          // Another thread may have written it: cross-thread data flow
          // through a module variable.
          unknown(loc, "cross-thread data flow: not yet modeled (a load from "
                       "'" + name + "', which threads write, in a "
                       "multi-thread launch)");
          return false;
        }
        // A per-thread .local array (PTX ISA 5.1.5): -G code and
        // dynamically indexed register arrays.
        bool local = !r->buffer && r->space == StateSpace::Local;
        // A buffer that threads write: this thread's loads see the initial
        // contents and its own stores only if no other thread writes what
        // it reads (checkGlobalReads).
        bool othersWrite = isMultiThread() && r->buffer &&
                           r->buffer->role != BufferBinding::Role::In;
        auto readByOthers = [&](Term byteOff, unsigned bytes) {
          if (!othersWrite)
            return;
          globalReads.push_back({name, byteOff, bytes, s.pc, loc});
          recordAccess(s, l, /*write=*/false, name, /*shared=*/false, byteOff,
                       bytes, nullptr, loc);
        };
        Type resultType = l.getResult(0).getType();
        unsigned width = getWidthOf(resultType) / 8;
        if (width == 0)
          width = 1;
        // The initial contents of element `at` of a buffer: an input term,
        // or an arbitrary value for an output.
        auto initialElement = [&](Term at) -> Term {
          bool elemIsFloat = isa<FloatType>(r->elemType);
          unsigned bits = r->elemType.getIntOrFloatBitWidth();
          if (r->buffer->role == BufferBinding::Role::Out)
            return fresh(name + "@uninit", elemIsFloat ? Sort::Real : Sort::BV,
                         bits);
          return elemIsFloat ? T.element(name, at) : T.intElement(name, at, bits);
        };
        // A loaded value into `res`: reals travel in integer registers as
        // real bits; integer bits are not read as a float.
        auto setLoaded = [&](Value res, Term v) {
          bool wantReal = isa<FloatType>(res.getType());
          if (wantReal && v->getSort() != Sort::Real)
            if (Term r = floatOfBits(v))
              v = r;
          if (wantReal && v->getSort() != Sort::Real) {
            unknown(loc, "integer bits reinterpreted as a float");
            return false;
          }
          set(f, res, v, !wantReal && v->getSort() == Sort::Real);
          return true;
        };
        // Element `at` of the buffer into `res`: the thread's own stores
        // to it (its chain), over the initial contents (distinct contract
        // buffers never alias: stores to other buffers do not matter).
        auto loadElement = [&](Term at, Value res) {
          if (!isa<FloatType>(r->elemType) && isa<FloatType>(res.getType())) {
            unknown(loc, "integer data read as a float");
            return false;
          }
          if (llvm::any_of(s.symbolicStores, [&](const SymbolicStore &st) {
                return st.buffer == name && st.isFamily();
              })) {
            unknown(loc, "load of '" + name + "' after a summarized loop "
                         "stored to it (its stores are a family over the "
                         "iterations) is not yet modeled");
            return false;
          }
          Term v = initialElement(at);
          SmallVector<ChainEntry> chain =
              bufferChain(s, name, r->buffer->elemBytes());
          if (!chain.empty())
            v = resolveChain(s, chain, at, 1, v, "'" + name + "'", loc);
          return v && setLoaded(res, v);
        };
        // `width` bytes of the .local array at byte `o` into `res`: its
        // chain over an arbitrary (uninitialized) value, of the sort the
        // array holds.
        auto loadLocal = [&](Term o, Value res) {
          SmallVector<ChainEntry> chain = scratchChain(s, name);
          bool real = isa<FloatType>(res.getType()) ||
                      llvm::any_of(chain, [](const ChainEntry &e) {
                        return e.value->getSort() == Sort::Real;
                      });
          Term base = fresh(name + "@uninit", real ? Sort::Real : Sort::BV,
                            width * 8);
          Term v = resolveChain(s, chain, o, width, base, "'" + name + "'", loc);
          return v && setLoaded(res, v);
        };
        if (offTerm->getKind() != Kind::BVConst) {
          unsigned lanes = l.getNumResults();
          if (local) {
            localBounds(s, /*store=*/false, name, offTerm,
                        uint64_t(width) * lanes, r->bytes, loc);
            for (auto [k, res] : llvm::enumerate(l.getResults()))
              if (!loadLocal(
                      T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64)), res))
                return false;
            return advance();
          }
          if (!r->buffer || addr->getWidth() != 64) {
            unknown(loc, "load of " + name +
                             " at a symbolic address (a module variable, or a "
                             "32-bit address) is not yet modeled");
            return false;
          }
          unsigned elemBytes = r->buffer->elemBytes();
          if (elemBytes != width) {
            unknown(loc, "access width differs from the element type of " +
                             name);
            return false;
          }
          // PTX ISA 5.4.5: a vector access is aligned to its whole size.
          Term eb = T.bv(elemBytes, 64);
          Term vb = T.bv(uint64_t(elemBytes) * lanes, 64);
          result.alignments.push_back(
              {s.pc, T.eq(T.bvBin(Kind::BVURem, offTerm, vb), T.bv(0, 64)),
               loc, "alignment of the load from " + name});
          Term index = T.bvBin(Kind::BVUDiv, offTerm, eb);
          Term last = T.bvBin(Kind::BVAdd, index, T.bv(lanes - 1, 64));
          result.alignments.push_back(
              {s.pc,
               T.andOf(T.bvUlt(last, r->buffer->numElementsTerm(T, launch)),
                       T.bvUle(index, last)),
               loc, "load from " + name + " inside its extent of " +
                        r->buffer->extentText() + " elements"});
          // The thread's own earlier stores to the buffer, newest first,
          // over its initial contents (distinct contract buffers never
          // alias: stores to other buffers do not matter).
          for (auto [k, res] : llvm::enumerate(l.getResults())) {
            if (!loadElement(T.bvBin(Kind::BVAdd, index, T.bv(k, 64)), res))
              return false;
            readByOthers(T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64)),
                         width);
          }
          return advance();
        }
        uint64_t off = offTerm->getAPInt().getZExtValue();
        for (auto [k, res] : llvm::enumerate(l.getResults())) {
          uint64_t o = off + k * width;
          // A launch-dependent extent: r->bytes is only its upper bound.
          if (r->buffer && r->buffer->isSymbolic())
            result.alignments.push_back(
                {s.pc,
                 T.bvUlt(T.bv((o + width - 1) / r->buffer->elemBytes(), 64),
                         r->buffer->numElementsTerm(T, launch)),
                 loc, "load from " + name + " inside its extent of " +
                          r->buffer->extentText() + " elements"});
          if (r->bytes && o + width > r->bytes) {
            unknown(loc, "load of " + name + " at byte " + Twine(o) +
                             " is outside its extent (" + Twine(r->bytes) +
                             " bytes)");
            return false;
          }
          readByOthers(T.bv(o, 64), width);
          // After a symbolic store to the same memory: through its chain.
          if (r->buffer ? s.storedSymbolically(name)
                        : local && s.hasScratchChain(name)) {
            if (r->buffer) {
              unsigned elemBytes = r->buffer->elemBytes();
              if (elemBytes != width || o % elemBytes) {
                unknown(loc, "access of " + Twine(width) + " bytes to " +
                                 name + " whose elements have " +
                                 Twine(elemBytes));
                return false;
              }
              if (!loadElement(T.bv(o / elemBytes, 64), res))
                return false;
            } else if (!loadLocal(T.bv(o, 64), res)) {
              return false;
            }
            continue;
          }
          auto &cells = s.mem[name];
          auto hit = cells.find(o);
          if (hit != cells.end()) {
            if (hit->second.bytes != width) {
              unknown(loc, "partially overlapping accesses to " + name);
              return false;
            }
            if (!setLoaded(res, hit->second.value))
              return false;
            continue;
          }
          // Nothing stored yet: the initial contents.
          unsigned elemBytes =
              std::max(1u, r->elemType.getIntOrFloatBitWidth() / 8);
          if (elemBytes != width || o % elemBytes) {
            unknown(loc, "access of " + Twine(width) + " bytes to " + name +
                             " whose elements have " + Twine(elemBytes));
            return false;
          }
          uint64_t index = o / elemBytes;
          Term v;
          bool elemIsFloat = isa<FloatType>(r->elemType);
          if (r->buffer && r->buffer->role != BufferBinding::Role::Out) {
            v = elemIsFloat
                    ? T.element(name, T.bv(index, 64))
                    : T.bvVar(name + "[" + std::to_string(index) + "]",
                              r->elemType.getIntOrFloatBitWidth());
          } else if (r->global && r->global.getInit()) {
            ArrayAttr init = *r->global.getInit();
            Attribute a = index < init.size() ? init[index] : Attribute();
            if (auto fa = dyn_cast_or_null<FloatAttr>(a))
              v = T.real(*Rational::fromAPFloat(fa.getValue()));
            else if (auto ia = dyn_cast_or_null<IntegerAttr>(a))
              v = T.bv(ia.getValue());
            else
              v = elemIsFloat ? T.real(0)
                              : T.bv(0, r->elemType.getIntOrFloatBitWidth());
          } else if (r->global && (r->space == StateSpace::Global ||
                                   r->space == StateSpace::Const) &&
                     !r->global.getExternal() &&
                     !r->global->hasAttr("kproof.unmodeled_init")) {
            v = elemIsFloat ? T.real(0)
                            : T.bv(0, r->elemType.getIntOrFloatBitWidth());
          } else {
            // Uninitialized (an output before any store, shared, local):
            // an arbitrary value.
            v = fresh(name + "[" + std::to_string(index) + "]@uninit",
                      elemIsFloat ? Sort::Real : Sort::BV,
                      r->elemType.getIntOrFloatBitWidth());
          }
          if (r->global && r->global->hasAttr("kproof.unmodeled_init")) {
            unknown(loc, "read of " + name + ", whose initializer is not "
                                             "modeled");
            return false;
          }
          bool wantReal = isa<FloatType>(resultType);
          if (wantReal != elemIsFloat) {
            if (wantReal) {
              unknown(loc, "integer data read as a float");
              return false;
            }
            set(f, res, v, /*realBits=*/true);
          } else {
            set(f, res, v);
          }
        }
        return advance();
      })
      .Case<StoreOp>([&](StoreOp st) {
        Term addr;
        std::string name;
        Term offTerm;
        if (!resolveAccess(f, st.getAddr(), st.getOffset(), st.getSpace(),
                           loc, addr, name, offTerm))
          return false;
        Region *r = *regionOf("&" + name);
        if (isMultiThread() && r->space == StateSpace::Shared)
          return sharedStore(s, f, st, name, offTerm, loc);
        unsigned width =
            std::max(1u, getWidthOf(st.getValues()[0].getType()) / 8);
        if (r->buffer && r->buffer->role == BufferBinding::Role::In) {
          s.violations.push_back("store to input buffer '" + name + "'");
          s.violationLocs.push_back(loc);
        }
        bool local = !r->buffer && r->space == StateSpace::Local;
        if (offTerm->getKind() != Kind::BVConst && local) {
          // A per-thread .local array at a symbolic byte offset: the store
          // joins the array's store chain (State::scratchStores).
          unsigned lanes = st.getValues().size();
          localBounds(s, /*store=*/true, name, offTerm, uint64_t(width) * lanes,
                      r->bytes, loc);
          for (auto [k, v] : llvm::enumerate(st.getValues())) {
            SymValue sv = val(v);
            if (!sv.term)
              return false;
            s.scratchStores.push_back(
                {name, T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64)),
                 width, sv.term, loc});
          }
          ++s.occurrences[st];
          return advance();
        }
        if (offTerm->getKind() != Kind::BVConst) {
          if (!r->buffer || addr->getWidth() != 64 || !s.mem[name].empty() ||
              r->buffer->elemBytes() != width) {
            unknown(loc, "store to " + name +
                             " at a symbolic address (scratch variable, "
                             "mixed with constant-index stores, or of a "
                             "width other than the element's) is not yet "
                             "modeled");
            return false;
          }
          unsigned lanes = st.getValues().size();
          SmallVector<Term, 4> values;
          for (Value v : st.getValues()) {
            SymValue sv = floatBits(*r, val(v));
            if (!sv.term)
              return false;
            values.push_back(sv.term);
          }
          // PTX ISA 5.4.5: a vector access is aligned to its whole size.
          Term eb = T.bv(width, 64);
          Term vb = T.bv(uint64_t(width) * lanes, 64);
          result.alignments.push_back(
              {s.pc, T.eq(T.bvBin(Kind::BVURem, offTerm, vb), T.bv(0, 64)),
               loc, "alignment of the store to " + name});
          Term index = T.bvBin(Kind::BVUDiv, offTerm, eb);
          // Bounds: checked here, for --verify-sync as for --verify-equiv.
          Term last = T.bvBin(Kind::BVAdd, index, T.bv(lanes - 1, 64));
          result.alignments.push_back(
              {s.pc, T.bvUlt(last, r->buffer->numElementsTerm(T, launch)),
               loc, "stores to " + name + " stay inside its extent of " +
                        r->buffer->extentText() + " elements"});
          for (auto [k, v] : llvm::enumerate(values)) {
            Term at = T.bvBin(Kind::BVAdd, index, T.bv(k, 64));
            s.symbolicStores.push_back({name, at, v, loc});
            Term byteOff = T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64));
            recordAccess(s, st, /*write=*/true, name, /*shared=*/false,
                         byteOff, width, v, loc);
          }
          ++s.occurrences[st];
          return advance();
        }
        uint64_t off = offTerm->getAPInt().getZExtValue();
        if (r->buffer && (width != r->buffer->elemBytes() ||
                          off % r->buffer->elemBytes() != 0)) {
          unknown(loc, "a store of " + Twine(width) + " bytes at byte " +
                           Twine(off) + " of '" + name + "', whose elements "
                           "have " + Twine(r->buffer->elemBytes()) +
                           " bytes, is not modeled");
          return false;
        }
        if (r->buffer && s.storedSymbolically(name)) {
          unknown(loc, "a constant-index store to " + name +
                           " after symbolic-index stores to it is not yet "
                           "modeled");
          return false;
        }
        for (auto [k, v] : llvm::enumerate(st.getValues())) {
          uint64_t o = off + k * width;
          if (r->buffer && r->buffer->isSymbolic())
            result.alignments.push_back(
                {s.pc,
                 T.bvUlt(T.bv(o / r->buffer->elemBytes(), 64),
                         r->buffer->numElementsTerm(T, launch)),
                 loc, "store to " + name + " inside its extent of " +
                          r->buffer->extentText() + " elements"});
          if (r->bytes && o + width > r->bytes) {
            s.violations.push_back("store to " + name + " at byte " +
                                   std::to_string(o) +
                                   ", outside its extent of " +
                                   std::to_string(r->bytes) + " bytes");
            s.violationLocs.push_back(loc);
            continue;
          }
          SymValue sv = floatBits(*r, val(v));
          if (!sv.term)
            return false;
          recordAccess(s, st, /*write=*/true, name, /*shared=*/false,
                       T.bv(o, 64), width, sv.term, loc);
          if (local && s.hasScratchChain(name)) {
            // After a symbolic store: in program order, on the chain.
            s.scratchStores.push_back({name, T.bv(o, 64), width, sv.term, loc});
            continue;
          }
          // Overlap check with existing cells of another width.
          auto &cells = s.mem[name];
          for (auto &[co, cell] : cells)
            if (co != o && co < o + width && o < co + cell.bytes) {
              unknown(loc, "partially overlapping stores to " + name);
              return false;
            }
          cells.insert_or_assign(o, MemCell{sv.term, sv.realBits, width, loc});
        }
        ++s.occurrences[st];
        return advance();
      })
      .Case<BarrierOp>([&](BarrierOp b) {
        if (!isMultiThread()) {
          if (b.getKind() == BarrierKind::Red) {
            unknown(loc, "bar.red is not modeled");
            return false;
          }
          return advance(); // one thread: nothing to wait for
        }
        // PTX ISA 9.7.13.4. The id and the thread count must be constants
        // (a barrier id in a register that differs between threads is not
        // modeled).
        Term idTerm = b.getId() ? bits(b.getId()) : T.bv(0, 32);
        Term countTerm = b.getCount() ? bits(b.getCount()) : nullptr;
        if (!idTerm || (b.getCount() && !countTerm))
          return false;
        if (idTerm->getKind() != Kind::BVConst ||
            (countTerm && countTerm->getKind() != Kind::BVConst)) {
          unknown(loc, "a barrier id or thread count that is not a constant "
                       "is not modeled");
          return false;
        }
        unsigned id = idTerm->getAPInt().getZExtValue();
        uint64_t count = countTerm ? countTerm->getAPInt().getZExtValue() : 0;
        bool full = b.getKind() != BarrierKind::Arrive &&
                    (!countTerm || (ctaThreads() && count == ctaThreads())) &&
                    !countedBarrierIds.count(id);
        if (full ? countedBarrierIds.count(id) : fullBarrierIds.count(id)) {
          unknown(loc, "barrier " + Twine(id) +
                           " is used both by all "
                           "threads of the CTA and with a thread count");
          return false;
        }
        (full ? fullBarrierIds : countedBarrierIds).insert(id);
        if (b.getKind() == BarrierKind::Red) {
          // bar.red: a barrier whose result reduces a predicate over the
          // participants; its value is another thread's data.
          if (result.valueUnknownReason.empty())
            result.valueUnknownReason =
                "the result of bar.red (a reduction over the CTA) is not "
                "modeled by the value proof";
          Type t = b.getResult().getType();
          std::optional<BarrierRedOp> rop = b.getRedOp();
          if (full && t.isInteger(1) && rop && rop != BarrierRedOp::Popc) {
            // and/or over the CTA: one value for every thread of the CTA
            // at this barrier instance (the CTA phase), so a decision
            // taken on it is uniform: an unknown per (phase, CTA), the
            // element of a per-phase table indexed by the CTA's ids.
            Term key = T.bv(0, 64);
            static const char *dims[] = {"x", "y", "z"};
            static const unsigned shift[] = {0, 31, 47};
            for (int d = 0; d < 3; ++d)
              if (launch.grid[d] > 1 || launch.gridSymbolic[d])
                key = T.bvBin(
                    Kind::BVAdd, key,
                    T.bvBin(Kind::BVShl,
                            T.bvZExt(T.bvVar(std::string("ctaid.") + dims[d],
                                             32),
                                     64),
                            T.bv(shift[d], 64)));
            Term r = T.notOf(T.eq(
                T.element("bar.red." +
                              std::string(stringifyBarrierRedOp(*rop)) +
                              "@phase" + std::to_string(s.phase),
                          key),
                T.real(0)));
            // The thread's own predicate takes part: c -> or, and -> c.
            if (Value p = b.getPred()) {
              SymValue c = val(p);
              if (c.term && c.term->getSort() == Sort::Bool)
                s.pc = T.andOf(s.pc, *rop == BarrierRedOp::Or
                                         ? T.implies(c.term, r)
                                         : T.implies(r, c.term));
            }
            set(f, b.getResult(), r);
          } else {
            // A count (popc, a bit-vector of its width), or a counted
            // barrier's generation: a value of its own per thread.
            set(f, b.getResult(),
                fresh("bar.red", sortOf(t),
                      t.isInteger(1) ? 0 : getWidthOf(t)));
          }
        }
        if (full) {
          // A CTA-wide barrier (bar.sync 0, __syncthreads, a named barrier
          // without a thread count): the phase ends here (DESIGN.md §4).
          result.arrivals.push_back(
              {s.phase, b, b.getAligned(), s.pc, loc, id, {}, {}});
          if (result.countedBarriers)
            s.events.push_back({true, 0, s.phase, true, loc});
          ++s.phase;
          ++f.it;
          parked.push_back(std::move(s));
          return false;
        }
        // A counted barrier: participants synchronize in generations of
        // `count` arrivals; the path goes on and records how far it got
        // (DESIGN.md §4: participant counts per barrier id).
        if (llvm::is_contained(s.arrivedWithoutWait, id)) {
          unknown(loc, "a second arrival at barrier " + Twine(id) +
                           " after this thread's bar.arrive: its "
                           "generations are not modeled");
          return false;
        }
        auto it = llvm::find_if(
            s.clock, [&](const BarrierClock &c) { return c.id >= id; });
        if (it == s.clock.end() || it->id != id)
          it = s.clock.insert(it, BarrierClock{id, 0, 0});
        ++it->arrivals;
        bool waits = b.getKind() != BarrierKind::Arrive;
        if (waits)
          it->lastWait = it->arrivals;
        else
          s.arrivedWithoutWait.push_back(id);
        result.countedArrivals.push_back({id, count ? count : ctaThreads(),
                                          waits, b.getAligned(), s.pc, loc, b,
                                          it->arrivals});
        s.events.push_back({false, id, it->arrivals, waits, loc});
        if (result.valueUnknownReason.empty())
          result.valueUnknownReason =
              "values passed between threads through counted barriers "
              "(bar.sync id, n; bar.arrive) are not yet modeled by the "
              "value proof";
        return advance();
      })
      .Case<FenceOp>([&](FenceOp) { return advance(); })
      .Case<ShflOp>([&](ShflOp sh) { return shuffle(s, f, sh, loc); })
      .Case<AtomOp>([&](AtomOp at) {
        // An atomic read-modify-write (PTX ISA 9.7.13.5): for the race
        // checks a strong access with its scope; the value it returns is
        // arbitrary (other threads' atomics interleave), and what atomics
        // accumulate is not modeled by the value proof.
        if (!isMultiThread()) {
          unknown(loc, "atomics are not yet modeled in a one-thread launch");
          return false;
        }
        Term addr, off;
        std::string name;
        if (!resolveAccess(f, at.getAddr(), at.getOffset(), at.getSpace(),
                           loc, addr, name, off))
          return false;
        Region *r = *regionOf("&" + name);
        unsigned width = std::max(1u, getWidthOf(at.getValue().getType()) / 8);
        bool shared = r->space == StateSpace::Shared;
        if (shared) {
          if (!r->bytes) {
            unknown(loc, "dynamic shared memory '" + name +
                             "': its size is not in the contract "
                             "(dynamic_shared)");
            return false;
          }
          sharedBounds(s, "atomic on", name, off, width, r->bytes, loc);
        }
        if (r->buffer && r->buffer->role == BufferBinding::Role::In) {
          s.violations.push_back("atomic update of input buffer '" + name +
                                 "'");
          s.violationLocs.push_back(loc);
        }
        recordAccess(s, at, /*write=*/true, name, shared, off, width,
                     nullptr, loc, /*atomic=*/true,
                     stringifyMemScope(at.getScope()));
        if (result.valueUnknownReason.empty())
          result.valueUnknownReason =
              "atomic updates of '" + displayVariable(name) +
              "' are not modeled by the value proof";
        MemoryAccess &rec = result.accesses.back();
        if (at.getKind() == AtomKind::Add &&
            isa<IntegerType>(at.getValue().getType())) {
          SymValue add = val(at.getValue());
          if (add.term && add.term->getKind() == Kind::BVConst &&
              add.term->getAPInt().getActiveBits() <= 63)
            rec.atomicAddend = add.term->getAPInt().getZExtValue();
        }
        if (Value res = at.getResult()) {
          // Some value the location held: unconstrained here; the race
          // check relates the old values of two threads' atomics
          // (MemoryAccess::atomicOld).
          Type t = res.getType();
          Term old = fresh("atom.old", sortOf(t),
                           isa<FloatType>(t) ? 0 : getWidthOf(t));
          rec.atomicOld = old;
          unsigned elemBits = r->elemType.getIntOrFloatBitWidth();
          if (r->buffer && r->buffer->role != BufferBinding::Role::Out &&
              isa<IntegerType>(r->elemType) && elemBits == 8 * width &&
              off->getKind() == Kind::BVConst &&
              off->getAPInt().getZExtValue() % width == 0 &&
              old->getSort() == Sort::BV && old->getWidth() == elemBits)
            rec.atomicInit = T.bvVar(
                name + "[" +
                    std::to_string(off->getAPInt().getZExtValue() / width) +
                    "]",
                elemBits);
          set(f, res, old);
        }
        ++s.occurrences[at];
        return advance();
      })
      .Case<VoteOp>([&](VoteOp v) { return vote(s, f, v, loc); })
      .Case<ActiveMaskOp, WarpSyncOp>([&](Operation *o) {
        unknown(loc, "cross-thread data flow: not yet modeled ('" +
                         o->getName().getStringRef() + "')");
        return false;
      })
      .Case<PackOp>([&](PackOp pk) {
        // mov.b32 d, {lo, hi}: the first element is the low half.
        SmallVector<SymValue> parts;
        for (Value e : pk.getElements())
          parts.push_back(val(e));
        bool anyReal = llvm::any_of(parts, [](const SymValue &v) {
          return v.realBits || (v.term && v.term->getSort() == Sort::Real);
        });
        if (!anyReal) {
          Term r = parts.front().term;
          for (const SymValue &v : ArrayRef(parts).drop_front())
            r = T.bvConcat(v.term, r);
          if (!done(r))
            return false;
          set(f, pk, r);
          return advance();
        }
        // {0, bf16 bits} is the bf16 value widened to f32, exactly
        // (nvcc's __bfloat162float on sm_80).
        Value hi = pk.getElements().size() == 2 ? pk.getElements()[1]
                                                : Value();
        bool bf16High = hi && parts[1].realBits && hi.getDefiningOp() &&
                        isa<BitcastOp>(hi.getDefiningOp()) &&
                        cast<BitcastOp>(hi.getDefiningOp())
                            .getInput()
                            .getType()
                            .isBF16();
        Term lo = parts[0].term;
        if (bf16High && pk.getType().isInteger(32) && lo &&
            lo->getKind() == Kind::BVConst && lo->getAPInt().isZero()) {
          set(f, pk, parts[1].term, /*realBits=*/true);
          return advance();
        }
        unknown(loc, "packing the bits of a real value is not modeled");
        return false;
      })
      .Case<UnpackOp>([&](UnpackOp up) {
        Term a = bits(up.getInput());
        if (!a)
          return false;
        unsigned w = getWidthOf(up.getElements()[0].getType());
        for (auto [i, r] : llvm::enumerate(up.getElements()))
          set(f, r, T.bvExtract(a, i * w, w));
        return advance();
      })
      .Case<CreatePolicyOp>([&](CreatePolicyOp c) {
        set(f, c, fresh("policy", Sort::BV, 64));
        return advance();
      })
      .Case<OpaqueOp>([&](OpaqueOp o) {
        unknown(loc, "unmodeled PTX instruction '" + o.getText() + "'");
        return false;
      })
      .Case<TrapOp>([&](TrapOp) {
        leaveJoins(s);
        PathResult p;
        p.pathCondition = s.pc;
        p.trapped = true;
        p.trapLoc = loc;
        result.paths.push_back(std::move(p));
        return false;
      })
      .Case<cf::BranchOp>([&](cf::BranchOp br) {
        return branchTo(s, br.getDest(), br.getDestOperands());
      })
      .Case<cf::CondBranchOp>([&](cf::CondBranchOp br) {
        Term c = bits(br.getCondition());
        if (!c)
          return false;
        if (c->getKind() == Kind::BoolConst) {
          return c->getBoolValue()
                     ? branchTo(s, br.getTrueDest(), br.getTrueDestOperands())
                     : branchTo(s, br.getFalseDest(),
                                br.getFalseDestOperands());
        }
        // A data-dependent branch: fork (bounded: a loop whose exit depends
        // on data forks once per iteration).
        if (result.paths.size() + worklist.size() + waitingStates + 1 >
            options.maxPaths) {
          unknown(loc, "more than " + Twine(options.maxPaths) +
                           " paths (data-dependent control flow, or a loop "
                           "whose trip count depends on data)" +
                           (loopFailure.empty()
                                ? std::string()
                                : "; not summarized: " + loopFailure));
          return false;
        }
        // Prune a side no thread can take (conditions over thread ids,
        // e.g. tid < 64 after tid >= 128).
        Term pcTrue = T.andOf(s.pc, c), pcFalse = T.andOf(s.pc, T.notOf(c));
        if (isMultiThread()) {
          if (!mayHold(pcTrue)) {
            s.pc = pcFalse;
            return branchTo(s, br.getFalseDest(), br.getFalseDestOperands());
          }
          if (!mayHold(pcFalse)) {
            s.pc = pcTrue;
            return branchTo(s, br.getTrueDest(), br.getTrueDestOperands());
          }
        }
        // Both sides head for the joins `s` heads for, and for the block
        // where they meet again.
        ++result.forks;
        for (const State::PendingJoin &j : s.joins)
          ++joinPoints[j.id].live;
        if (Block *join = joinBlockOf(br->getBlock())) {
          s.joins.push_back(
              {unsigned(joinPoints.size()), join, s.stack.size()});
          joinPoints.emplace_back();
          joinPoints.back().live = 2;
        }
        State other = s;
        other.pc = pcFalse;
        branchTo(other, br.getFalseDest(), br.getFalseDestOperands());
        worklist.push_back(std::move(other));
        s.pc = pcTrue;
        return branchTo(s, br.getTrueDest(), br.getTrueDestOperands());
      })
      .Case<CallOp>([&](CallOp call) {
        auto callee = symbols.lookup<KernelOp>(call.getCallee());
        if (!callee || callee.getBody().empty()) {
          StringRef name = call.getCallee();
          if (name == "vprintf") {
            // An opaque side effect: the returned count is arbitrary.
            for (Value r : call.getResults())
              set(f, r, fresh("vprintf", Sort::BV, 32));
            return advance();
          }
          if (name == "__assertfail") {
            leaveJoins(s);
            PathResult p;
            p.pathCondition = s.pc;
            p.trapped = true;
            p.trapLoc = loc;
            result.paths.push_back(std::move(p));
            return false;
          }
          unknown(loc, "call to '" + name + "', which has no body");
          return false;
        }
        if (s.stack.size() > 64) {
          unknown(loc, "call depth above 64 (recursion)");
          return false;
        }
        Frame callee_f;
        callee_f.func = callee;
        callee_f.block = &callee.getBody().front();
        callee_f.it = callee_f.block->begin();
        callee_f.callSite = call;
        for (auto [arg, v] :
             llvm::zip(callee_f.block->getArguments(), call.getArgs()))
          callee_f.env[arg] = val(v);
        s.stack.push_back(std::move(callee_f));
        return true;
      })
      .Case<ReturnOp, ExitOp>([&](Operation *term) {
        if (isa<ExitOp>(term) || s.stack.size() == 1) {
          finishPath(s);
          return false;
        }
        SmallVector<SymValue> rets;
        for (Value v : term->getOperands())
          rets.push_back(val(v));
        Operation *site = f.callSite;
        s.stack.pop_back();
        Frame &caller = s.stack.back();
        for (auto [r, v] : llvm::zip(site->getResults(), rets))
          caller.env[r] = v;
        ++caller.it;
        return true;
      })
      .Default([&](Operation *o) {
        unknown(loc, "operation '" + o->getName().getStringRef() +
                         "' is not modeled");
        return false;
      });
}

} // namespace

ExecutionResult kproof::engine::execute(
    KernelOp kernel, const LaunchConfig &launch,
    const std::vector<std::optional<BufferBinding>> &buffers,
    const std::vector<Term> &scalars, TermContext &terms,
    Normalizer &normalizer, const ExecutorOptions &options) {
  Executor ex(kernel, launch, buffers, scalars, terms, normalizer, options);
  return ex.run();
}

llvm::DenseMap<Term, Term> kproof::engine::pinnedThreadVars(Term pc) {
  llvm::DenseMap<Term, Term> pins;
  for (auto [a, b] : constantEqualities(pc)) {
    if (a->getKind() == Kind::BVVar &&
        (a->getName().starts_with("tid.") ||
         a->getName().starts_with("ctaid.")))
      pins[a] = b;
  }
  return pins;
}

llvm::DenseMap<Term, Term> kproof::engine::pinnedThreadVars(TermContext &T,
                                                            Term pc) {
  llvm::DenseMap<Term, Term> pins = pinnedThreadVars(pc);
  // (id, divisor) -> quotient and remainder constants.
  std::map<std::pair<Term, uint64_t>, std::pair<Term, Term>> parts;
  for (auto [a, b] : constantEqualities(pc)) {
    Term c = T.canonicalIndex(a);
    if ((c->getKind() != Kind::BVUDiv && c->getKind() != Kind::BVURem) ||
        c->getOperand(1)->getKind() != Kind::BVConst)
      continue;
    Term x = c->getOperand(0);
    if (x->getKind() != Kind::BVVar || x->getWidth() != b->getWidth() ||
        !(x->getName().starts_with("tid.") ||
          x->getName().starts_with("ctaid.")))
      continue;
    auto &slot = parts[{x, c->getOperand(1)->getAPInt().getZExtValue()}];
    (c->getKind() == Kind::BVUDiv ? slot.first : slot.second) = b;
  }
  for (auto &[key, qr] : parts) {
    auto &[x, d] = key;
    if (!qr.first || !qr.second || pins.count(x))
      continue;
    pins[x] = T.bvBin(Kind::BVAdd,
                      T.bvBin(Kind::BVMul, qr.first, T.bv(d, x->getWidth())),
                      qr.second);
  }
  return pins;
}

std::string kproof::engine::displayVariable(llvm::StringRef region) {
  size_t dot = region.find("._Z");
  if (dot == llvm::StringRef::npos)
    return region.str();
  return llvm::demangle(region.substr(dot + 1));
}

Term kproof::engine::participation(TermContext &T, const ExecutionResult &ex,
                                   unsigned id) {
  SmallVector<Term> paths;
  for (const BarrierArrival &a : ex.arrivals)
    if (!a.barrier && llvm::any_of(a.clock, [&](const BarrierClock &c) {
          return c.id == id && c.arrivals > 0;
        }))
      paths.push_back(a.pathCondition);
  return T.orOf(paths);
}

Term kproof::engine::orderedByCountedBarriers(
    TermContext &T, llvm::ArrayRef<BarrierClock> first,
    llvm::ArrayRef<BarrierClock> second,
    llvm::function_ref<Term(unsigned id)> firstParticipates) {
  SmallVector<Term> orders;
  for (const BarrierClock &b : second) {
    unsigned a = 0;
    for (const BarrierClock &c : first)
      if (c.id == b.id)
        a = c.arrivals;
    if (a >= b.arrivals || b.lastWait <= a)
      continue;
    orders.push_back(a >= 1 ? T.boolConst(true) : firstParticipates(b.id));
  }
  return T.orOf(orders);
}

uint64_t kproof::engine::residentMiB() {
  std::FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long long size = 0, resident = 0;
  int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (n != 2)
    return 0;
  return resident * uint64_t(sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

/// "file.ptx:line:col", followed by " (file.cu:line:col)" when the PTX
/// instruction carries a `.loc` source location.
std::string kproof::engine::locationString(Location loc) {
  // A store of merged states (Executor.cpp, mergedLoc): each side's store.
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (auto tag = dyn_cast_or_null<StringAttr>(fused.getMetadata());
        tag && tag.getValue().starts_with("kproof.merged.")) {
      SmallVector<std::string, 2> sides;
      for (Location l : fused.getLocations()) {
        std::string one = locationString(l);
        if (!llvm::is_contained(sides, one))
          sides.push_back(one);
      }
      return llvm::join(sides, " or ");
    }
  SmallVector<std::string, 2> parts;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l))
      parts.push_back((f.getFilename().getValue() + ":" + Twine(f.getLine()) +
                       ":" + Twine(f.getColumn()))
                          .str());
    return WalkResult::advance();
  });
  if (parts.empty())
    return "<unknown location>";
  if (parts.size() == 1)
    return parts[0];
  return parts[0] + " (" + parts[1] + ")";
}
