//===- SharedMemory.h - the model of memory other threads write -*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Verifier/Exec: `SharedMemoryModel`, the executor's model of
// memory that other threads write in a multi-thread launch (docs/verify-sync.md
// "The model"), defined in SharedMemory.cpp. The executor owns one
// (`Executor::sharedMemory`) and hands it the shared loads and stores, every
// access for the race checks, and the loads of contract buffers other threads
// write; the model keeps what is checked when every path has run (the reads
// under counted barriers, the reads of such buffers) and the values of shared
// reads that no write reaches.
//
// Its interface to the executor: it is built with the executor's term
// context, result and launch, and uses a small set of public `Executor`
// methods, each declared in the section of its concern in ExecutorImpl.h:
// `fresh` and `unknown`, `regionOf` (the region of a shared variable),
// `isMultiThread`, the thread-id variables (`threadIdVars`, `ctaIdVars`) and
// the substitutions to another thread (`linearize`, `renameFresh`,
// `threadRange`), and the register helpers `get` and `set`. Public methods
// rather than a friend declaration, so that the compiler holds the model to
// that list; everything else of the executor stays private to it.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_VERIFIER_EXEC_SHAREDMEMORY_H
#define KPROOF_LIB_VERIFIER_EXEC_SHAREDMEMORY_H

#include "KProof/Verifier/Exec/Executor.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kproof::engine::exec {

class Executor;
struct Frame;
struct State;

/// Memory other threads write (docs/verify-sync.md "The model"): the shared
/// loads and stores of the representative thread, the accesses recorded for the
/// race checks, and the reads whose initialization is checked once every path
/// has run.
class SharedMemoryModel {
public:
  SharedMemoryModel(Executor &ex, TermContext &T, ExecutionResult &result,
                    const LaunchConfig &launch);

  /// Shared-memory load in a multi-thread launch: each element's value is
  /// its writer's (resolveSharedRead) below this thread's own writes of the
  /// phase, or, under counted barriers, a fresh value whose initialization
  /// checkCountedReads checks. False (UNKNOWN recorded) when not modeled.
  bool sharedLoad(State &s, Frame &f, kproof::LoadOp l,
                  const std::string &region, Term offset, mlir::Location loc);
  /// Shared-memory store in a multi-thread launch: recorded for the race
  /// checks and as this thread's own write (State::sharedWrites).
  bool sharedStore(State &s, Frame &f, kproof::StoreOp st,
                   const std::string &region, Term offset, mlir::Location loc);
  /// The obligations of a shared access of `width` bytes at byte `o`:
  /// aligned to its width and inside the variable's `bytes`.
  /// The writer of byte `a` when write `w`'s offset is a GF(2)-affine,
  /// injective function of the thread-id bits (an XOR-swizzled layout:
  /// and-masks, shifts, xor, carry-free or/add of the ids): `sigma` maps
  /// each thread id to the xor of the bits of `a` it is read from. The
  /// caller's match condition offset(sigma) == a checks the witness.
  bool xorWriter(const MemoryAccess &w, Term a,
                 llvm::DenseMap<Term, Term> &sigma);
  /// A written value `v` as a read of `bytes` bytes at `resultType`
  /// takes it: bits read as a float (constants, FloatBits), or a real read
  /// through an integer register as its FloatBits; else `v` unchanged.
  Term readAs(Term v, bool wantReal, mlir::Type resultType, unsigned bytes);
  /// The alignment obligation of a vector access of `bytes` bytes in all
  /// at byte `o` of shared variable `region` (PTX ISA 5.4.5); nothing for
  /// a scalar access.
  void vectorAlignment(State &s, llvm::StringRef what,
                       const std::string &region, Term o, unsigned bytes,
                       mlir::Location loc);
  void sharedBounds(State &s, llvm::StringRef what, const std::string &region,
                    Term o, unsigned width, uint64_t bytes, mlir::Location loc);
  /// Records a memory access for the race checks (multi-thread launches;
  /// .local accesses never race).
  void recordAccess(State &s, mlir::Operation *op, bool write,
                    const std::string &region, bool shared, Term offset,
                    unsigned bytes, Term value, mlir::Location loc,
                    bool atomic = false, llvm::StringRef scope = {});
  /// A load of `bytes` at byte `offset` of contract buffer `region`, which
  /// threads write (out/inout), in a multi-thread launch: it sees the
  /// initial contents and this thread's own stores only if no other thread
  /// writes the bytes it reads. Recorded for the race checks, and checked
  /// when every path has run (checkGlobalReads).
  void deferGlobalRead(State &s, mlir::Operation *op, const std::string &region,
                       Term offset, unsigned bytes, mlir::Location loc);

  /// Initialization of the shared reads under counted barriers: some
  /// write ordered before the read (by phase, or by generation of a
  /// counted barrier) hits its address.
  void checkCountedReads();
  /// For every pending global read: no other thread (of this CTA or any
  /// other) writes an overlapping byte on any path, in any phase.
  void checkGlobalReads();

  /// Shared variable `region` is written in a summarized synchronizing
  /// loop (LoopSummarizer): its accesses are recorded over a symbolic
  /// iteration, so a read after the loop (which sees the last iteration's
  /// writes) is UNKNOWN.
  void writtenInSummarizedLoop(const std::string &region) {
    summarizedRegions.insert(region);
  }

  /// Whether `t` is an "@uninit" value of resolveSharedRead: a case that
  /// the shared read's initialization obligation excludes (or reports).
  bool isUnwritten(Term t) const { return unwrittenShared.contains(t); }

  /// How many reads wait for the checks: a mark that `rollbackTo` returns
  /// to (the loop summarizer undoes a symbolic iteration with it).
  struct Mark {
    size_t pendingReads, globalReads;
  };
  Mark mark() const { return {pendingReads.size(), globalReads.size()}; }
  /// Whether reads were deferred since `m`.
  bool changedSince(const Mark &m) const {
    return globalReads.size() != m.globalReads ||
           pendingReads.size() != m.pendingReads;
  }
  /// Drops the reads deferred since `m`.
  void rollbackTo(const Mark &m);

private:
  Executor &ex;
  TermContext &T;
  ExecutionResult &result;
  const LaunchConfig &launch;

  /// Numbers the renamed writer threads ("w<n>.", "g<n>.").
  unsigned writerCounter = 0;

  /// A shared read under counted barriers, checked for initialization when
  /// every path has run (checkCountedReads).
  struct PendingRead {
    std::string region;
    Term offset;
    Term pc;
    Term ownWrite; ///< the thread's own earlier write of this phase hits it
    unsigned phase;
    unsigned bytes;
    std::vector<BarrierClock> clock;
    mlir::Location loc;
    /// The reader's bar.warp.sync counts per mask (MemoryAccess).
    std::map<uint32_t, unsigned> warpSyncs;
  };
  /// Shared reads under counted barriers (result.countedBarriers), and
  /// reads after a bar.warp.sync of their phase.
  std::vector<PendingRead> pendingReads;

  /// A load of a contract buffer that threads write (deferGlobalRead).
  struct PendingGlobalRead {
    std::string region;
    Term offset; ///< byte offset
    unsigned bytes;
    Term pc;
    mlir::Location loc;
  };
  std::vector<PendingGlobalRead> globalReads;

  /// The "@uninit" values of resolveSharedRead (isUnwritten).
  llvm::DenseSet<Term> unwrittenShared;
  /// writtenInSummarizedLoop's variables.
  std::set<std::string> summarizedRegions;

  /// The UNKNOWN reason of an initialization obligation whose writer was
  /// guessed (writerMatch's `exact`).
  std::string unguessable(mlir::Location write);
  /// The writer of a per-warp slot (`slot[tid.x / 32]` written under
  /// `tid.x % 32 == c`): (tid.x, its value for address `a`), from the
  /// address's index normal form and the lane the write's path condition
  /// fixes; nullopt when the write is not of that shape. A write that no
  /// lane condition elects (every lane writes the slot, as Triton's
  /// reductions do) gets lane 0 of the slot's warp as its witness, and
  /// `guessed` is set: some other lane may be the only writer.
  std::optional<std::pair<Term, Term>> warpWriter(const MemoryAccess &w,
                                                  Term a, bool &guessed);
  /// Whether no thread of shared write `w` can write at byte offset `a`
  /// of the reader, decided on integers: both offsets are linear forms of
  /// the thread ids (Executor::linearize of the offset or of its
  /// TermContext::canonicalIndex: exact within the thread-id ranges,
  /// modulo 2^width), the writer's ids renamed apart from the
  /// reader's; their difference ranges within (-2^width, 2^width), so the
  /// offsets are equal only where it is 0, which the range of the
  /// difference or the gcd of its coefficients rules out. False when
  /// either offset is not such a form (writerMatch then decides). A cheap
  /// filter before writerMatch: a thread reading one element of a tile
  /// that each thread fills with D unrolled stores is otherwise matched
  /// against all D store sites.
  bool cannotHit(const MemoryAccess &w, Term a);
  /// The linear forms of cannotHit, by offset term (nullopt: not linear).
  struct LinearOffset {
    __int128 c0;
    std::map<Term, __int128, TermIdLess> coeffs;
  };
  std::map<Term, std::optional<LinearOffset>, TermIdLess> linearOffsets;
  /// The entry of `t` (a std::map: references stay valid as it grows).
  const std::optional<LinearOffset> &linearOffset(Term t);
  /// The writer thread w* of shared write `w` whose address is `a` (a
  /// fresh-renamed copy of the representative thread, by inverting the
  /// write's linear address or from its path condition) as the
  /// substitution `sigma`, and the condition that w* exists, runs the
  /// write's path and writes at `a`.
  /// `exact` is false when w* is a guess: a thread id the write's path
  /// condition or address depends on is neither found by the inversion
  /// nor pinned (then "no writer matches" does not mean none exists).
  /// `injective` (when given) is set where the inversion names the only
  /// thread of the write that can hit `a`: a linear address whose
  /// coefficients form a mixed-radix system over the thread ranges, or an
  /// elected lane's per-warp slot. Only then does a witness that misses
  /// `a` mean that no thread of the write hits it.
  /// `onlyWriter` (when given) is set where, besides, the inversion is a
  /// mixed-radix layout that names every thread id: a thread of the write
  /// that hits `a` is w* itself, so no other writer exists.
  Term writerMatch(const MemoryAccess &w, Term a,
                   llvm::DenseMap<Term, Term> &sigma, bool &exact,
                   bool *injective = nullptr, bool *onlyWriter = nullptr);
  /// The value of a shared-memory read of `bytes` at `offset` in `region`
  /// by the representative thread in its current phase (docs/verify-sync.md
  /// "The model"): the last write of an earlier phase by the writer thread,
  /// found by inverting the write's address (a witness), else uninitialized
  /// (the thread's own writes of this phase come on top, in sharedLoad).
  /// Records the side conditions.
  Term resolveSharedRead(State &s, const std::string &region, Term offset,
                         unsigned bytes, mlir::Location loc, bool wantReal,
                         mlir::Type resultType = {});
};

} // namespace kproof::engine::exec

#endif // KPROOF_LIB_VERIFIER_EXEC_SHAREDMEMORY_H
