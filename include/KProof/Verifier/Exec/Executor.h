//===- Executor.h - symbolic execution of kproof kernels --------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Executes one kproof.kernel symbolically for one representative thread
// (docs/verify-sync.md "The model"): float registers are exact reals, integers
// bit-vectors of their PTX width, predicates booleans. Branches on concrete
// conditions are followed (so loops with a bound fixed by the contract unroll);
// branches on symbolic conditions fork the path with its path condition, and
// the two states are merged again where they meet, at the branch's immediate
// post-dominator: registers and memory cells that differ become
// ite(condition, then-value, else-value), the path condition the disjunction,
// so k data-dependent branches in sequence cost one path, not 2^k (states
// that differ in what they wrote, or in barrier progress, stay separate).
// Calls to .func bodies are inlined. Anything not modeled stops the path with a
// reason, and the verdict becomes UNKNOWN: nothing is ever skipped silently.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_EXEC_EXECUTOR_H
#define KPROOF_VERIFIER_EXEC_EXECUTOR_H

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Verifier/Terms/Normalizer.h"
#include "KProof/Verifier/Terms/Term.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kproof::engine {

/// The launch (docs/verify-sync.md "The model"): concrete, or symbolic per
/// dimension. A symbolic block (grid) dimension d is the 32-bit variable
/// `ntid.d`
/// (`nctaid.d`), ranging over [1, block[d]] ([1, grid[d]]) under the facts
/// of `facts()`; one proof covers every thread of every launch in range.
struct LaunchConfig {
  /// Extents, or upper bounds of the symbolic dimensions.
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  bool gridSymbolic[3] = {false, false, false};
  bool blockSymbolic[3] = {false, false, false};
  /// Upper bound on the threads of the whole launch (the product of all six
  /// extents), from the contract's `max_threads`; 0 when none.
  uint64_t maxThreads = 0;
  /// Bytes of dynamic shared memory per CTA (the launch's third parameter,
  /// `extern __shared__` arrays); 0 when the contract gives none.
  uint64_t dynamicShared = 0;
  bool isSymbolic() const {
    for (int d = 0; d < 3; ++d)
      if (gridSymbolic[d] || blockSymbolic[d])
        return true;
    return false;
  }
  /// A symbolic size: an integer scalar parameter with a contract `range`
  /// (any value in [lo, hi], inclusive here), which buffer shapes may name
  /// (`shape = [64, "n"]`). `value` is set when the contract is
  /// instantiated for a run (bindContract's launchValues).
  struct SizeParam {
    std::string name;
    unsigned width = 32;
    int64_t lo = 1, hi = 1;
    std::optional<int64_t> value;
  };
  std::vector<SizeParam> sizes;
  /// The size parameter `name`, or null.
  const SizeParam *size(llvm::StringRef name) const {
    for (const SizeParam &p : sizes)
      if (p.name == name)
        return &p;
    return nullptr;
  }
  /// The term of size parameter `p`: its value, or the scalar's variable.
  Term sizeTerm(TermContext &terms, const SizeParam &p) const;
  /// Threads of the launch (an upper bound when the launch is symbolic).
  /// The product saturates at UINT64_MAX instead of wrapping (a concrete
  /// contract launch has at most 2^63 - 1 threads, ContractOp::verify).
  uint64_t totalThreads() const {
    uint64_t n = 1;
    for (int64_t e : {grid[0], grid[1], grid[2], block[0], block[1], block[2]})
      n = llvm::SaturatingMultiply(n, uint64_t(e));
    return maxThreads && isSymbolic() && maxThreads < n ? maxThreads : n;
  }
  /// The 32-bit term of the launch extent `name` ("ntid.x", ..., "nctaid.z"):
  /// a constant, or the variable of that name when the dimension is
  /// symbolic. Null for any other name.
  Term extent(TermContext &terms, llvm::StringRef name) const;
  /// The extent bounding thread-index variable `var` ("tid.x" -> ntid.x,
  /// "ctaid.y" -> nctaid.y), as extent() gives it.
  Term extentOf(TermContext &terms, llvm::StringRef var) const;
  /// Range facts of the symbolic dimensions (CUDA launch limits) and of
  /// the symbolic sizes (lo <= n <= hi, signed):
  /// 1 <= ntid.d <= block[d], 1 <= nctaid.d <= grid[d], ntid.x * ntid.y *
  /// ntid.z <= 1024, and the whole launch within maxThreads; `true` for a
  /// concrete launch. Every path condition starts from these.
  Term facts(TermContext &terms) const;
  /// The facts in words, printed with every verdict over a symbolic launch:
  /// "symbolic launch: ntid.x in [1, 1024], nctaid.x in [1, 4096], ...".
  std::string describe() const;
};

/// A kernel buffer bound by the contract.
struct BufferBinding {
  std::string name;
  enum class Role { In, Out, InOut } role;
  mlir::Type elemType;
  /// Extents in elements, row-major; a symbolic extent's upper bound under
  /// the contract's launch bounds.
  std::vector<int64_t> shape;
  /// Per dimension, empty when shape[d] is the extent, else the extent as
  /// the product of launch extents and integers the contract wrote
  /// ("nctaid.x", "nctaid.x*ntid.x", "2*ntid.x"): a launch-dependent extent.
  /// An empty vector: every extent is concrete.
  std::vector<std::string> symbolicDims;
  /// Integer tables: the contract's precondition `range = [lo, hi)` on
  /// every element (signed values of the element width). It restricts the
  /// inputs a proof covers (printed with the verdict); it is no axiom.
  std::optional<std::pair<int64_t, int64_t>> range;
  /// Integer tables: the contract's precondition `at_most = "n"`, every
  /// element (signed) <= the value of the integer scalar parameter n (its
  /// name; empty when absent). Like `range`, it restricts the inputs.
  std::string atMost;
  /// Float inputs: the non-finite values the contract says an element may
  /// hold (`nonfinite = ["-inf"]`: "-inf", "inf", "nan"), a mask of -inf
  /// entries. --verify-sync covers them even under finite_inputs; the
  /// reals model of --verify-equiv does not (an UNKNOWN obligation).
  std::vector<std::string> nonFinite;
  bool isSymbolic() const {
    for (const std::string &s : symbolicDims)
      if (!s.empty())
        return true;
    return false;
  }
  /// Elements in all (an upper bound when isSymbolic()).
  uint64_t numElements() const {
    uint64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  unsigned elemBytes() const {
    unsigned bits = elemType.getIntOrFloatBitWidth();
    return bits <= 8 ? 1 : bits / 8;
  }
  /// The extent of dimension `d` as a 64-bit term under `launch`.
  Term extent(TermContext &terms, const LaunchConfig &launch,
              unsigned d) const;
  /// The number of elements as a 64-bit term under `launch`.
  Term numElementsTerm(TermContext &terms, const LaunchConfig &launch) const;
  /// The element count for messages: "1024", or the launch-dependent
  /// expression ("nctaid.x*ntid.x", "nctaid.x*256").
  std::string extentText() const;
};

/// The 64-bit term of a launch-extent product `expr` ("nctaid.x*ntid.x",
/// "4*ntid.y"; factors are integers or launch extent names) under `launch`;
/// null (with `error` set) when a factor is neither. Its upper bound under
/// the launch bounds goes to `bound` when given.
Term launchProduct(TermContext &terms, const LaunchConfig &launch,
                   llvm::StringRef expr, std::string *error = nullptr,
                   int64_t *bound = nullptr);

/// One store that survived to the end of a path.
struct FinalStore {
  std::string buffer;
  uint64_t index;
  Term value;
  mlir::Location loc;
};

/// A store of one thread at an index that depends on the thread (or on
/// data): the representative thread's write.
struct SymbolicStore {
  std::string buffer;
  Term index; ///< element index, 64-bit BV
  Term value;
  mlir::Location loc;
  /// A store family (a store in a summarized loop,
  /// LoopSummarizer::summarizeLoop): one store per iteration k of the loop,
  /// `iteration` the 64-bit variable k (free in `index` and `value`),
  /// `guard` the condition under which iteration k stores (k below the trip
  /// count, the iteration's own path condition).
  /// Null for a single store.
  Term iteration = nullptr;
  Term guard = nullptr;
  bool isFamily() const { return iteration != nullptr; }
};

/// A condition that must hold on a path: alignment and extent of an
/// access, the domain of sqrt/rsqrt/lg2.
struct PathObligation {
  Term pathCondition;
  Term condition;
  mlir::Location loc;
  std::string what;
};

/// A non-zero-divisor obligation raised by a division, rcp, rsqrt, lg2.
struct DivisorObligation {
  Term pathCondition;
  Term divisor;
  mlir::Location loc;
  std::string what; ///< "divisor of div.rn.f32", ...
};

/// A completed path.
struct PathResult {
  Term pathCondition;
  /// Final value of every element written (last store wins), by buffer.
  std::map<std::string, std::map<uint64_t, FinalStore>> stores;
  /// Stores at thread- or data-dependent indices, in program order.
  std::vector<SymbolicStore> symbolicStores;
  /// Stores outside the contract's extents or to input buffers, and the
  /// location of each (the store or atomic), index by index.
  std::vector<std::string> violations;
  std::vector<mlir::Location> violationLocs;
  bool trapped = false;
  std::optional<mlir::Location> trapLoc;
};

/// An idiom the executor applied (reported with every verdict).
struct IdiomUse {
  std::string name;
  mlir::Location loc;
};

/// One shared- or global-memory access of the representative thread in a
/// multi-thread launch (docs/verify-sync.md "The model"), for the race checks.
/// Terms are over the representative thread's variables (tid.x, ..., ctaid.x,
/// ...); the checker renames them to compare two distinct threads. The
/// representative thread's progress at one counted barrier (`bar.sync id, n`,
/// `bar.arrive id, n`; docs/verify-sync.md "The model"): it arrived `arrivals`
/// times, the last time it waited was its `lastWait`-th arrival (0: never).
struct BarrierClock {
  unsigned id = 0;
  unsigned arrivals = 0;
  unsigned lastWait = 0;
  bool operator==(const BarrierClock &o) const {
    return id == o.id && arrivals == o.arrivals && lastWait == o.lastWait;
  }
};

struct MemoryAccess {
  /// Barrier phase: the number of CTA barriers the thread passed before.
  unsigned phase = 0;
  bool write = false;
  /// An atomic (atom.*/red.*): strong, with `scope` ("cta", "gpu", "sys").
  bool atomic = false;
  std::string scope;
  std::string region;   ///< buffer or variable name
  bool shared = false;  ///< .shared state space (per CTA)
  Term byteOffset;      ///< 64-bit BV, from the region's start
  unsigned bytes = 0;   ///< access width in bytes
  Term value;           ///< the stored value (writes), else null
  Term pathCondition;
  mlir::Location loc;
  /// How many times this op ran before on the path (loop iteration).
  unsigned occurrence = 0;
  /// The ld/st/atom op.
  mlir::Operation *op = nullptr;
  /// Counted barriers passed before the access, by id (ascending).
  std::vector<BarrierClock> clock;
  /// Atomics: the value the op returned (atom.*; null for red.* and for
  /// plain accesses), and, for atom/red.add of a constant integer, the
  /// addend (PTX ISA 9.7.13.5). Atomics of one location are totally
  /// ordered, so two add-only atomics with positive addends return
  /// distinct old values when the location's sum cannot wrap (the race
  /// check's counter facts).
  Term atomicOld;
  std::optional<uint64_t> atomicAddend;
  /// The location's contents at launch when the executor knows its term
  /// (an integer element of an in/inout buffer at a constant index), else
  /// null.
  Term atomicInit;
  /// A cp.async write (PTX ISA: cp.async): performed at some point from
  /// its issue (`phase`) until the issuing thread's cp.async.wait that
  /// completes it, in phase `phaseEnd` (kNeverCompleted when no wait does
  /// before the thread exits). It may race with accesses of any phase in
  /// between.
  bool async = false;
  unsigned phaseEnd = 0;
  static constexpr unsigned kNeverCompleted = ~0u;
  /// While the executor has not reached the completing wait yet.
  static constexpr unsigned kNotYetCompleted = ~0u - 1;
  /// The last phase in which the access may be performed.
  unsigned lastPhase() const { return async ? phaseEnd : phase; }
  /// Whether the access and `o` may be performed in one phase.
  bool phasesOverlap(const MemoryAccess &o) const {
    return phase <= o.lastPhase() && o.phase <= lastPhase();
  }
  /// bar.warp.sync the thread executed before the access, per constant
  /// membermask (PTX ISA 9.7.13.3). Lanes pair their k-th bar.warp.sync of
  /// a mask (an obligation), so an access with count c of mask M comes
  /// before the access of another lane of M with a count above c.
  std::map<uint32_t, unsigned> warpSyncs;
};

/// The order the paths imply between generations of counted barriers and
/// mbarrier phases (docs/verify-sync.md "The model"). Generation (k, g) (of
/// barrier or mbarrier k: complete once every participant made its g-th
/// arrival) completes before generation (k2, j) when g' >= g of k is waited
/// for, before its j-th arrival at k2, by
///   - every path that makes a j-th arrival at k2, or one path that some
///     thread of every CTA takes whatever the inputs (`must`: (k2, j)
///     waits for that thread's arrival, which comes after (k, g)), or
///   - some path (`may`: an order some execution may have),
/// and transitively; generations of one barrier complete in order.
struct BarrierArrival;
struct GenerationOrder {
  using Node = std::pair<unsigned, unsigned>; ///< (id, generation)
  std::map<Node, std::set<Node>> must, may;
  std::set<unsigned> ids;
  /// Whether (id1, g1) completes before (or is) (id2, g2).
  bool reaches(bool mustOrder, unsigned id1, unsigned g1, unsigned id2,
               unsigned g2) const;
  /// From the barrier events of the completed paths (ExecutionResult::
  /// arrivals of exited threads).
  /// `alwaysTaken(p)`: some thread of every CTA takes path p, for every
  /// input.
  static GenerationOrder
  build(llvm::ArrayRef<BarrierArrival> paths,
        llvm::function_ref<bool(const BarrierArrival &)> alwaysTaken);
};

/// mbarrier objects (PTX ISA 9.7.13.15) take part in the counted-barrier
/// clocks (BarrierClock) under ids from kMBarrierIdBase up, one per object
/// (a shared variable and a constant byte offset); named barrier ids are
/// 0..15.
constexpr unsigned kMBarrierIdBase = 1u << 16;

/// One operation of a path on an mbarrier object, for the checks of its
/// lifetime, counts and phases (checkMBarriers).
struct MBarrierEvent {
  enum class Kind { Init, Arrive, Wait, Inval };
  Kind kind = Kind::Init;
  unsigned id = 0;
  /// The CTA barrier phase of the op.
  unsigned phase = 0;
  Term pathCondition;
  mlir::Location loc;
  explicit MBarrierEvent(mlir::Location loc) : loc(loc) {}
  /// Init: the expected arrival count (a 32-bit term).
  Term count;
  /// The thread initialized the object itself, earlier in this CTA phase.
  bool ownInit = false;
  /// Arrive: the thread's arrival number at the object (1..). Wait: the
  /// number of phases the thread has seen complete before it (its
  /// BarrierClock::lastWait; for a wait on a state, the number of the
  /// state's phase).
  unsigned generation = 0;
  /// Wait: the phase parity names the phase before the first one the
  /// thread has not seen complete (phase generation - 1): it may pass at
  /// once and then orders nothing.
  bool passesEarly = false;
  /// The thread's counted-barrier clock before the op.
  std::vector<BarrierClock> clock;
};

/// An arrival at a counted barrier (`bar.sync id, n`, `bar.arrive id, n`,/// An
/// arrival at a counted barrier (`bar.sync id, n`, `bar.arrive id, n`,
/// `bar.red` with a count): threads synchronize in generations of `count`
/// arrivals (PTX ISA 9.7.13.4), not in CTA-wide phases.
struct CountedArrival {
  unsigned id = 0;
  uint64_t count = 0;  ///< 0: every thread of a symbolic CTA (no count)
  bool waits = true;   ///< sync/red; false for arrive
  bool aligned = true; ///< bar.* / barrier.*.aligned
  Term pathCondition;
  mlir::Location loc;
  mlir::Operation *op = nullptr;
  unsigned generation = 0; ///< the thread's arrival number at `id` (1..)
};

/// One barrier a path passes, in program order, for the deadlock check:
/// the end of CTA phase `index` (a CTA-wide barrier), or the
/// `index`-th arrival at counted barrier `id`.
struct BarrierEvent {
  bool cta = true;
  unsigned id = 0;
  unsigned index = 0;
  bool waits = true;
  mlir::Location loc;
  /// The event counts an arrival (bar.sync/bar.arrive with a count,
  /// mbarrier.arrive); false for an mbarrier wait, which only waits.
  bool arrives = true;
};

/// A thread arriving at a CTA barrier, or finishing (`exited`), at the end
/// of phase `phase` (docs/verify-sync.md "The model", barrier divergence).
struct BarrierArrival {
  unsigned phase = 0;
  mlir::Operation *barrier = nullptr; ///< null when the thread exited
  bool aligned = true;                ///< bar.sync / barrier.sync.aligned
  Term pathCondition;
  mlir::Location loc;
  /// Barrier id (full barriers: 0 for __syncthreads, or a named one).
  unsigned id = 0;
  /// For an exit: the counted barriers the path passed, by id, and every
  /// barrier it passed in program order (with counted barriers only).
  std::vector<BarrierClock> clock;
  std::vector<BarrierEvent> events;
};

/// A side condition of resolving a read of another thread's write: a
/// satisfiable `condition` means the writer could not be determined (the
/// value is then unknown), or, for `uninitialized`, that the read sees
/// memory no thread wrote.
struct ResolutionObligation {
  Term condition; ///< must be unsatisfiable
  mlir::Location loc;
  std::string what;
  bool uninitialized = false;
  /// The UNKNOWN reason when `condition` is satisfiable (default: another
  /// writer in the same phase).
  std::string whyUnknown;
  /// A weaker condition that `condition` implies (the writer's uniqueness
  /// without the "writes another value" part): when it is unsatisfiable so
  /// is `condition`, and it carries no values (no shuffle trees of exp
  /// atoms), so it is asked first. Null when there is none.
  Term addressOnly = nullptr;
  /// With addressOnly: the two values `condition` says differ (another
  /// writer's and the witness writer's), so that the checker may ask
  /// whether they are one term up to bit-vector subterms first
  /// (bitVectorDifference). Null when there are none.
  Term otherValue = nullptr, witnessValue = nullptr;
  /// With addressOnly: where the witness writer does not hit the address
  /// and no newer write does (the read falls through to an older value
  /// while another writer of this write hits it). `condition` includes it;
  /// a proof from otherValue/witnessValue must cover it too.
  Term witnessMissed = nullptr;
  /// With addressOnly: the write's address is a mixed-radix linear form
  /// of every thread id (SharedMemoryModel::writerMatch's onlyWriter), so
  /// a writer that hits the address is the witness, and addressOnly
  /// (another writer hits it) is unsatisfiable without a query.
  bool onlyWriter = false;
};

struct ExecutionResult {
  std::vector<PathResult> paths;
  /// Multi-thread launches: shared/global accesses and barrier arrivals of
  /// the representative thread over all paths, and the side conditions of
  /// the shared-memory reads resolved to their writers.
  std::vector<MemoryAccess> accesses;
  std::vector<BarrierArrival> arrivals;
  std::vector<ResolutionObligation> resolutions;
  /// Arrivals at counted barriers (bar.sync id, n with n below the CTA
  /// size; bar.arrive): ordered accesses by generation (MemoryAccess::clock)
  /// instead of by phase.
  std::vector<CountedArrival> countedArrivals;
  /// The order of counted-barrier generations and mbarrier phases the
  /// paths imply (built when every path has run).
  GenerationOrder generations;
  /// Operations on mbarrier objects, and each object's name by id
  /// ("shared 'bar' + 8").
  std::vector<MBarrierEvent> mbarrierEvents;
  std::map<unsigned, std::string> mbarrierNames;
  /// Objects (by id) with an arrival that may join the phase of its
  /// thread's previous arrival (not ordered after that phase's
  /// completion): the generation order is not theirs; the reason.
  std::map<unsigned, std::string> mbarrierUnaligned;
  /// Each object's shared variable and byte offset, by id.
  std::map<unsigned, std::pair<std::string, uint64_t>> mbarrierObjects;
  /// The kernel uses counted barriers: shared reads are not resolved to
  /// their writers (the value proof is UNKNOWN), their initialization is
  /// checked against writes ordered before them by phase or generation.
  bool countedBarriers = false;
  /// Some shared read came after a bar.warp.sync of its phase: its value is
  /// not resolved (a fresh term; the value proof is UNKNOWN), and only its
  /// initialization is checked.
  bool warpSyncReads = false;
  /// The membermasks of the bar.warp.sync the kernel executes: with two or
  /// more, lanes may be ordered through a third lane's syncs, which the
  /// race checks do not follow (UNKNOWN).
  std::set<uint32_t> warpSyncMasks;
  /// Non-empty when the value proof cannot be trusted although the
  /// synchronization checks can (atomics update memory): its reason.
  std::string valueUnknownReason;
  /// The representative thread's id variables with their extents
  /// (only dimensions of extent > 1): ("tid.x", 256), ("ctaid.x", 4), ...
  std::vector<std::pair<std::string, int64_t>> threadVars;
  std::vector<DivisorObligation> divisors;
  std::vector<PathObligation> alignments;
  std::vector<IdiomUse> idioms;
  /// Precision downgrades (narrowing conversions), with their locations.
  std::vector<std::pair<std::string, mlir::Location>> downgrades;
  /// Non-empty when some path reached something not modeled: the first
  /// reason and its location. The verdict is then UNKNOWN.
  std::string unknownReason;
  std::optional<mlir::Location> unknownLoc;
  /// Data-dependent branches that forked the path, and how many pairs of
  /// states were merged again at a join (ExecutorOptions::mergeStates).
  unsigned forks = 0;
  unsigned merges = 0;
  /// Loops summarized in closed form instead of unrolled.
  unsigned loopSummaries = 0;
  /// A store of merged states has the location FusedLoc[then, else] tagged
  /// "kproof.merged.<k>": the store at `then` when mergeGuards[k] holds,
  /// else the one at `else` (each may be merged again).
  std::vector<Term> mergeGuards;
};

struct ExecutorOptions {
  /// Ops executed over all paths before giving up (UNKNOWN).
  uint64_t maxSteps = 5'000'000;
  /// Paths explored before giving up (UNKNOWN): finished paths plus the
  /// states still running or waiting at a join.
  unsigned maxPaths = 256;
  /// Merge the states of a data-dependent branch where they meet again, at
  /// the branch's immediate post-dominator (values become `ite`s over the
  /// branch condition), instead of following every path to the end.
  bool mergeStates = true;
  /// Summarize loops with a symbolic trip count in closed form (induction
  /// variables, sums, maxima and minima of the iterations) instead of
  /// unrolling them (LoopSummarizer::summarizeLoop).
  bool summarizeLoops = true;
  /// Inputs may be NaN or infinite (the --verify-sync default): a float
  /// comparison with a non-constant operand is exact only under the
  /// thread-independent Bool `nonFiniteFlag()` being false; when it is
  /// true, each comparison takes a value of its own (any outcome), which
  /// covers every IEEE-754 outcome of NaN and infinite operands. Off: the
  /// reals model alone (inputs are finite; printed with the verdict).
  bool nonFiniteInputs = false;
  /// With nonFiniteInputs off: the input buffers that may still hold
  /// non-finite values (BufferBinding::nonFinite). A float comparison whose
  /// operands read one of them, or a value the engine does not track (a
  /// fresh variable: an unresolved read, an opaque result), is treated as
  /// under nonFiniteInputs.
  std::vector<std::string> nonFiniteBuffers;
  /// Build the condition "another writer hits the address" of a shared
  /// read even where the write's layout is one-to-one in the thread ids
  /// (ResolutionObligation::onlyWriter), whose obligation is proved without
  /// it: only a proof certificate states it. Off, the condition is `false`
  /// there (equivalent: unsatisfiable by the layout), which spares a copy
  /// of the writer's path condition, offset and value per read.
  bool otherWriterConditions = true;
  /// Memory budget of the process in MiB (resident set, checked every 4096
  /// operations; 0: none): past it the execution stops with UNKNOWN naming
  /// the budget, instead of the allocator aborting.
  uint64_t memoryLimitMiB = 0;
  /// The time limit (--timeout; checked every 4096 operations): past it the
  /// execution stops with UNKNOWN naming `timeoutSeconds`. Unset: none.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  unsigned timeoutSeconds = 0;
};

/// The resident set size of this process in MiB (/proc/self/statm; 0 when
/// it cannot be read).
uint64_t residentMiB();

/// The Bool variable "inputs.nonfinite": true in the runs where some input
/// may be NaN or infinite (ExecutorOptions::nonFiniteInputs).
inline llvm::StringRef nonFiniteFlag() { return "inputs.nonfinite"; }

/// The thread-id variables (tid.*, ctaid.*) that the conjunction `pc`
/// pins to constants (a conjunct `tid.x == 0`), as a substitution: under
/// `pc` the representative thread is that thread.
llvm::DenseMap<Term, Term> pinnedThreadVars(Term pc);
/// pinnedThreadVars, and also the ids that a lane and a warp conjunct pin
/// together (`tid.x % 32 == c` and `tid.x / 32 == q`, in any spelling whose
/// index normal form is that: `(tid.x & 31) == 0`, `(tid.x >> 5) == 0`):
/// tid.x = 32 q + c.
llvm::DenseMap<Term, Term> pinnedThreadVars(TermContext &T, Term pc);

/// The condition (over the representative thread) that the thread takes
/// part in counted barrier `id`: some path that arrives at it.
Term participation(TermContext &T, const ExecutionResult &ex, unsigned id);

/// Happens-before through counted barriers (docs/verify-sync.md "The model"):
/// an access of thread t1 after the barrier progress `first` is ordered before
/// an access of thread t2 (same CTA) after `second` when, for some barrier id
/// k, t1 had arrived a_k times, t2 b_k > a_k times, t2 waited at one of its
/// arrivals a_k+1 .. b_k (that generation completes only after t1's
/// (a_k+1)-th arrival), and t1 arrives at k again after its access: always
/// when a_k >= 1 (every participant arrives equally often, a checked
/// obligation), else when it takes part in k at all
/// (`firstParticipates(k)`, over t1). The disjunction over k; false when
/// no barrier orders them.
///
/// With `order`, also through third threads: t1's next arrival at some
/// barrier k1 (number a_k1 + 1) comes before a generation t2 waited for
/// when the generations of the paths chain them (GenerationOrder::must).
Term orderedByCountedBarriers(
    TermContext &T, llvm::ArrayRef<BarrierClock> first,
    llvm::ArrayRef<BarrierClock> second,
    llvm::function_ref<Term(unsigned id)> firstParticipates,
    const GenerationOrder *order = nullptr);

/// Whether some chain of generations through a barrier other than the
/// first (GenerationOrder::may) could order an access after `first` before
/// one after `second`, participation aside: when false, only the direct
/// order of orderedByCountedBarriers (exact) can order them.
/// `firstMayTakePart(k)`, when given, is false where the first thread is
/// known not to arrive at barrier k at all (then no chain starts there).
bool mayBeOrderedByCountedBarriers(
    llvm::ArrayRef<BarrierClock> first, llvm::ArrayRef<BarrierClock> second,
    const GenerationOrder &order,
    llvm::function_ref<bool(unsigned)> firstMayTakePart = nullptr);

/// The linear thread id in the CTA (PTX ISA 2.2: x fastest), 32-bit, over
/// the variables tid.x/y/z of the dimensions with more than one thread.
Term linearThreadId(TermContext &T, const LaunchConfig &launch);

/// The writer of byte `a` of a shared layout whose byte `offset` is a
/// GF(2)-affine, injective function of the bits of the thread ids
/// `threadIds` (each with its extent e, below 2^ceil(log2 e)): and-masks,
/// constant shifts, xor, `or`/`add` of operands with no possibly-set bit in
/// common, power-of-two multiplies, extensions and extracts (XOR swizzles
/// such as tile[r][c ^ r]). On success `sigma` maps each id to the xor of
/// the bits of `a` it is recovered from (Gauss-Jordan elimination over
/// GF(2)); false for any other form, or when two ids' bits are not
/// recoverable (the map is not injective). The caller checks the witness:
/// offset[sigma] == a is an obligation, not an assumption.
bool invertXorLayout(TermContext &T, Term offset, Term a,
                     llvm::ArrayRef<std::pair<Term, int64_t>> threadIds,
                     llvm::DenseMap<Term, Term> &sigma);

/// Happens-before through bar.warp.sync (PTX ISA 9.7.13.3): an access of
/// the thread with linear id `firstLin` after the bar.warp.sync counts
/// `first` (per constant mask) comes before an access of the thread
/// `secondLin` after `second` when both are in one warp and some mask M
/// names both lanes with second[M] > first[M] (lanes pair their k-th
/// bar.warp.sync of a mask, an obligation, so the first lane's
/// first[M]-th one follows its access). False when none does.
Term orderedByWarpSyncs(TermContext &T,
                        const std::map<uint32_t, unsigned> &first,
                        const std::map<uint32_t, unsigned> &second,
                        Term firstLin, Term secondLin);

/// A module variable's name for messages: "rotate_smem::s" for the
/// function-local shared variable `rotate_smem._ZZ11rotate_smemE1s`
/// (demangled); other names unchanged.
std::string displayVariable(llvm::StringRef region);

/// Runs `kernel` under `launch` with parameters bound to `buffers` (by
/// position; a null entry is a scalar parameter with the term in
/// `scalars`).
ExecutionResult
execute(kproof::KernelOp kernel, const LaunchConfig &launch,
        const std::vector<std::optional<BufferBinding>> &buffers,
        const std::vector<Term> &scalars, TermContext &terms,
        Normalizer &normalizer, const ExecutorOptions &options = {});

/// "file:line:col (cuda.cu:line:col)": the PTX location of an op, with the
/// CUDA source location fused into it when the PTX carries `.loc`; a store
/// of merged states (a fused location tagged "kproof.merged.*") prints each
/// side's, joined by " or ".
std::string locationString(mlir::Location loc);

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_EXEC_EXECUTOR_H
