//===- LoopSummary.cpp - closed-form summaries of loops -------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Loop summaries (class LoopSummarizer, LoopSummary.h; docs/design-notes.md
// "Loops: closed forms over a symbolic trip count"; docs/design-notes.md
// "Loops"): `loopAt` recognizes a natural loop of the shape nvcc emits for a
// counted loop (one cycle from its header, one exit branch); `summarizeLoop`
// runs one symbolic iteration and, when every loop-carried value is invariant,
// an induction variable, a sum, maximum or minimum of the iterations, or a sum
// rescaled by a running max, replaces the loop by its effect over the trip
// count E in closed form, E proved to be the first iteration whose exit test
// fails, the body's obligations recorded once over a symbolic iteration k < E.
// A loop it does not summarize is unrolled, with the reason kept for a later
// UNKNOWN.
//
//===----------------------------------------------------------------------===//

#include "LoopSummary.h"

#include "ExecutorImpl.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

#include <functional>

namespace kproof::engine::exec {

LoopSummarizer::LoopSummarizer(
    Executor &ex, TermContext &T, Normalizer &N, ExecutionResult &result,
    SharedMemoryModel &sharedMemory, SymbolTable &symbols,
    const std::vector<std::optional<BufferBinding>> &buffers)
    : ex(ex), T(T), N(N), result(result), sharedMemory(sharedMemory),
      symbols(symbols), buffers(buffers) {}

const LoopSummarizer::LoopShape *LoopSummarizer::loopAt(Block *h,
                                                        std::string &why) {
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
  // Any other op with effects (an mbarrier wait's spin loop) is not
  // summarized either: the summary would drop its effect.
  bool hasBarrier = false, hasShared = false;
  auto unsupported = [](Operation &op) {
    return isa<AtomOp, ShflOp, VoteOp, ActiveMaskOp, WarpSyncOp, ReduxOp,
               MatchOp, ElectOp, FenceOp, TrapOp, CallOp, OpaqueOp, UndefOp,
               ExitOp, CpAsyncOp, CpAsyncCommitOp, CpAsyncWaitOp>(op) ||
           (!isPure(&op) &&
            !isa<LoadOp, StoreOp, BarrierOp, SRegOp, AddressOfOp, ConstantOp,
                 cf::BranchOp, cf::CondBranchOp, ReturnOp, KernelOp>(op));
  };
  for (Block *b : L.blocks)
    for (Operation &op : *b) {
      if (auto call = dyn_cast<CallOp>(op)) {
        auto callee = symbols.lookup<KernelOp>(call.getCallee());
        bool ok = callee && !callee.getBody().empty();
        if (ok)
          callee.walk([&](Operation *o) {
            auto load = dyn_cast<LoadOp>(o);
            ok &= !unsupported(*o) && !isa<StoreOp, BarrierOp>(o) &&
                  !(load && load.getSpace() == StateSpace::Shared);
          });
        if (ok)
          continue;
      }
      if (unsupported(op) || isa<ReturnOp>(op))
        return fail("the loop body has a '" + op.getName().getStringRef() +
                    "' (synchronization other than bar.sync and calls of "
                    "functions that synchronize or store are not "
                    "summarized)");
      // CTA barriers and shared memory: a synchronizing loop, whose
      // conditions summarizeLoop checks once its iteration ran.
      auto load = dyn_cast<LoadOp>(op);
      auto store = dyn_cast<StoreOp>(op);
      if (isa<BarrierOp>(op))
        L.synchronizes = hasBarrier = true;
      if ((load && load.getSpace() == StateSpace::Shared) ||
          (store && store.getSpace() == StateSpace::Shared))
        L.synchronizes = hasShared = true;
    }
  // Shared memory without a barrier: every access is in the phase that
  // continues into the next iteration (summarizeLoop's condition), known
  // without running the iteration.
  if (hasShared && !hasBarrier)
    return fail("the loop body accesses shared memory and has no barrier "
                "(not summarized)");
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
Term LoopSummarizer::additiveDifference(Term a, Term b) {
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

bool LoopSummarizer::summarizeLoop(State &s, Block *h,
                                   ArrayRef<SymValue> entry) {
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
  // A synchronizing loop whose symbolic iteration already failed is not
  // run again (each run resolves every shared read of a tile).
  if (L.synchronizes && failedSynchronizing.count(h))
    return fail(failedSynchronizing[h]);
  // A synchronizing loop (barriers, shared memory) runs its iteration for
  // every thread of the CTA at once: no other path may be pending (their
  // writes of the phase would be missing from the shared reads'
  // resolution), and its barriers are CTA-wide bar.sync.
  if (L.synchronizes && (!ex.isMultiThread() || ex.otherStatesPending() ||
                         ex.countedBarriersUsed()))
    return fail(!ex.isMultiThread()
                    ? "its body synchronizes or uses shared memory in a "
                      "one-thread launch (not summarized)"
                    : "its body synchronizes or uses shared memory while "
                      "other paths of the thread are pending, or with "
                      "counted barriers (not summarized)");

  // Snapshot of what one iteration may add.
  size_t nAlign = result.alignments.size(), nDiv = result.divisors.size(),
         nIdiom = result.idioms.size(), nAcc = result.accesses.size(),
         nRes = result.resolutions.size(), nArr = result.arrivals.size(),
         nPaths = result.paths.size(), nDown = result.downgrades.size();
  SharedMemoryModel::Mark sharedMark = sharedMemory.mark();
  std::string unknownBefore = result.unknownReason;
  size_t nWork = ex.worklistSize();
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
    sharedMemory.rollbackTo(sharedMark);
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
  // (A pointer: the state is replaced when a branch's sides merge.)
  Frame *fp = &it.stack.back();
  // An integer is its entry value plus a fresh distance D (so that an
  // address stays rooted at its buffer), anything else a fresh variable;
  // `keys` are what the closed forms substitute (D, or the variable).
  SmallVector<Term> V, keys;
  for (auto [i, a] : llvm::enumerate(h->getArguments())) {
    Sort sort = Executor::sortOf(a.getType());
    Term key, v;
    if (sort == Sort::BV) {
      // In a synchronizing loop the threads of a CTA are in the same
      // iteration in each barrier phase: an induction variable's distance
      // is one variable for all of them (its step is checked uniform).
      key = L.synchronizes
                ? T.bvVar("loop.d@" + std::to_string(uniformCounter++),
                          getWidthOf(a.getType()))
                : ex.fresh("loop.d", sort, getWidthOf(a.getType()));
      v = T.bvBin(Kind::BVAdd, entry[i].term, key);
    } else {
      key = v = ex.fresh("loop.v", sort);
    }
    keys.push_back(key);
    V.push_back(v);
    fp->env[a] = SymValue{v, false};
  }
  SmallVector<Term> next;   // header arguments of the next iteration
  Term exitCond = nullptr;  // the exit branch's condition
  SmallVector<Term> exitArgs;
  size_t alignAtTest = 0, divAtTest = 0, accAtTest = 0, resAtTest = 0,
         arrAtTest = 0;
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
        next.push_back(ex.get(*fp, a).term);
      done = true;
      return;
    }
    SmallVector<SymValue> vals;
    for (Value a : ops)
      vals.push_back(ex.get(*fp, a));
    for (auto [arg, v] : llvm::zip(dest->getArguments(), vals))
      fp->env[arg] = v;
    b = dest;
  };
  // The two sides of a branch inside the body whose condition the
  // iteration does not decide, each run on its own copy of the state from
  // the branch to the immediate post-dominator, where they merge
  // (Executor::mergeInto: values ite(c, ...)): if-conversion, as the
  // executor merges the states of a fork. Only pure ops and loads on the
  // sides (no store, synchronization or call), and nested branches of the
  // same kind; the exit test and the header are not reached from a side.
  std::function<bool(State &, cf::CondBranchOp, Block *&, std::string &)>
      innerBranch;
  // The side a branch on `c` takes on `st`'s path when the path decides it
  // (a constant; the thread-id bounds or the solver rule a side out).
  auto decided = [&](State &st, Term c) -> std::optional<bool> {
    if (!c || c->getSort() != Sort::Bool)
      return std::nullopt;
    if (c->getKind() == Kind::BoolConst)
      return c->getBoolValue();
    if (!ex.mayHold(T.andOf(st.pc, c)))
      return false;
    if (!ex.mayHold(T.andOf(st.pc, T.notOf(c))))
      return true;
    return std::nullopt;
  };
  // Runs `st` from block `from` (with arguments `args`) until it branches
  // to `stop`; `atStop` gets the arguments of that branch.
  auto runSide = [&](State &st, Block *from, SmallVector<SymValue> args,
                     Block *stop, SmallVector<SymValue> &atStop,
                     std::string &why) -> bool {
    Block *cur = from;
    while (cur != stop) {
      if (++visits > kMaxVisits || cur == h || !L.blocks.count(cur)) {
        why = "a branch inside its body (at " +
              locationString(cur->getParentOp()->getLoc()) +
              ") does not rejoin inside one iteration";
        return false;
      }
      Frame &fr = st.stack.back();
      for (auto [arg, v] : llvm::zip(cur->getArguments(), args))
        fr.env[arg] = v;
      fr.block = cur;
      fr.it = cur->begin();
      while (&*fr.it != cur->getTerminator()) {
        Operation *op = &*fr.it;
        auto load = dyn_cast<LoadOp>(op);
        if (isa<StoreOp, BarrierOp, CallOp>(op) ||
            (load && load.getSpace() == StateSpace::Shared) ||
            (!isPure(op) && !load &&
             !isa<SRegOp, AddressOfOp, ConstantOp>(op))) {
          why = "a branch inside its body has a '" +
                op->getName().getStringRef().str() + "' on one side (at " +
                locationString(op->getLoc()) + ")";
          return false;
        }
        if (afterTest ? beforeTestOps.count(op) : false) {
          why = "a block before its exit test runs again after it in one "
                "iteration";
          return false;
        }
        if (!afterTest)
          beforeTestOps.insert(op);
        if (!ex.execOp(st, op) || !result.unknownReason.empty() ||
            result.paths.size() != nPaths || ex.worklistSize() != nWork) {
          why = result.unknownReason.empty()
                    ? "an op on a side of a branch in its body stopped or "
                      "forked the path"
                    : "its body: " + result.unknownReason;
          return false;
        }
      }
      Operation *term = cur->getTerminator();
      if (!afterTest)
        beforeTestOps.insert(term);
      if (auto br = dyn_cast<cf::BranchOp>(term)) {
        args.clear();
        for (Value a : br.getDestOperands())
          args.push_back(ex.get(fr, a));
        cur = br.getDest();
        if (cur == stop) {
          atStop = std::move(args);
          return true;
        }
        continue;
      }
      auto inner = dyn_cast<cf::CondBranchOp>(term);
      if (!inner || inner == L.exitBranch) {
        why = "a branch inside its body reaches the exit test on one side";
        return false;
      }
      Block *next = nullptr;
      if (!innerBranch(st, inner, next, why))
        return false;
      // innerBranch bound `next`'s arguments already.
      Frame &nf = st.stack.back();
      args.clear();
      for (BlockArgument a : next->getArguments())
        args.push_back(nf.env.lookup(a));
      cur = next;
    }
    atStop = std::move(args);
    return true;
  };
  innerBranch = [&](State &st, cf::CondBranchOp cb, Block *&next,
                    std::string &why) -> bool {
    Frame &fr = st.stack.back();
    Term c = ex.get(fr, cb.getCondition()).term;
    auto operandsOf = [&](OperandRange ops) {
      SmallVector<SymValue> vals;
      for (Value a : ops)
        vals.push_back(ex.get(fr, a));
      return vals;
    };
    auto bind = [&](State &x, Block *dest, ArrayRef<SymValue> vals) {
      Frame &xf = x.stack.back();
      for (auto [arg, v] : llvm::zip(dest->getArguments(), vals))
        xf.env[arg] = v;
      xf.block = dest;
      xf.it = dest->begin();
    };
    if (std::optional<bool> taken = decided(st, c)) {
      next = *taken ? cb.getTrueDest() : cb.getFalseDest();
      bind(st, next,
           operandsOf(*taken ? cb.getTrueDestOperands()
                             : cb.getFalseDestOperands()));
      return true;
    }
    Block *join = nullptr;
    if (c && c->getSort() == Sort::Bool)
      if (DominanceInfoNode *node = postDominance.getNode(cb->getBlock());
          node && node->getIDom())
        join = node->getIDom()->getBlock();
    if (!join || join == h || !L.blocks.count(join)) {
      why = "a branch inside its body (at " + locationString(cb.getLoc()) +
            ") depends on the iteration's values and its sides do not "
            "rejoin inside the iteration";
      return false;
    }
    State sT = st, sF = st;
    sT.pc = T.andOf(st.pc, c);
    sF.pc = T.andOf(st.pc, T.notOf(c));
    SmallVector<SymValue> aT, aF;
    if (!runSide(sT, cb.getTrueDest(), operandsOf(cb.getTrueDestOperands()),
                 join, aT, why) ||
        !runSide(sF, cb.getFalseDest(), operandsOf(cb.getFalseDestOperands()),
                 join, aF, why))
      return false;
    bind(sT, join, aT);
    bind(sF, join, aF);
    if (!ex.mergeInto(sT, sF)) {
      why = "the two sides of a branch inside its body (at " +
            locationString(cb.getLoc()) + ") do not merge";
      return false;
    }
    st = std::move(sT);
    st.stack.reserve(st.stack.size() + 2);
    next = join;
    return true;
  };
  while (!done) {
    if (++visits > kMaxVisits) {
      rollback();
      return fail("an inner loop of its body runs more than " +
                  Twine(kMaxVisits) + " blocks per iteration");
    }
    fp->block = b;
    fp->it = b->begin();
    while (&*fp->it != b->getTerminator()) {
      Operation *op = &*fp->it;
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
        return !result.unknownReason.empty() || result.paths.size() != nPaths ||
               ex.worklistSize() != nWork;
      };
      auto stop = [&] {
        std::string reason = result.unknownReason;
        ex.truncateWorklist(nWork);
        rollback();
        return fail(reason.empty() ? "an op in the body stopped or forked "
                                     "the path"
                                   : "its body: " + reason);
      };
      if (auto bar = dyn_cast<BarrierOp>(op)) {
        // A CTA barrier of a synchronizing loop: the next phase of the
        // iteration, without waiting (no other path is pending).
        std::string why;
        if (!ex.passBarrier(it, bar, why)) {
          rollback();
          return fail(why);
        }
        continue;
      }
      if (!ex.execOp(it, op) || stopped())
        return stop();
      // A call: its body, to the return (which advances this frame).
      while (it.stack.size() > s.stack.size()) {
        Frame &cf = it.stack.back();
        if (cf.it == cf.block->end() || !ex.execOp(it, &*cf.it) || stopped())
          return stop();
      }
      while (storesBefore + storePcs.size() < it.symbolicStores.size())
        storePcs.push_back(it.pc);
    }
    Operation *term = b->getTerminator();
    if (!afterTest)
      beforeTestOps.insert(term); // (its block's arguments: values at E)
    if (auto br = dyn_cast<cf::BranchOp>(term)) {
      goTo(br.getDest(), br.getDestOperands());
      continue;
    }
    auto cb = cast<cf::CondBranchOp>(term);
    if (cb != L.exitBranch) {
      // A branch inside the body (an inner loop's test, a mask): followed
      // when its condition is decided in the symbolic iteration, else both
      // sides run and merge where they meet (innerBranch).
      if (std::optional<bool> taken =
              decided(it, ex.get(*fp, cb.getCondition()).term)) {
        goTo(*taken ? cb.getTrueDest() : cb.getFalseDest(),
             *taken ? cb.getTrueDestOperands() : cb.getFalseDestOperands());
        continue;
      }
      Block *nextBlock = nullptr;
      std::string why;
      if (!innerBranch(it, cb, nextBlock, why)) {
        ex.truncateWorklist(nWork);
        rollback();
        return fail(why);
      }
      fp = &it.stack.back();
      b = nextBlock;
      continue;
    }
    if (exitCond) {
      rollback();
      return fail("its exit test runs more than once per iteration");
    }
    exitCond = ex.get(*fp, cb.getCondition()).term;
    OperandRange exitOps = L.exitOnTrue ? cb.getTrueDestOperands()
                                        : cb.getFalseDestOperands();
    OperandRange stayOps = L.exitOnTrue ? cb.getFalseDestOperands()
                                        : cb.getTrueDestOperands();
    Block *stay = L.exitOnTrue ? cb.getFalseDest() : cb.getTrueDest();
    for (Value a : exitOps)
      exitArgs.push_back(ex.get(*fp, a).term);
    alignAtTest = result.alignments.size();
    divAtTest = result.divisors.size();
    accAtTest = result.accesses.size();
    resAtTest = result.resolutions.size();
    arrAtTest = result.arrivals.size();
    storesAtTest = it.symbolicStores.size();
    afterTest = true;
    goTo(stay, stayOps);
  }
  auto bail = [&](const Twine &w) {
    rollback();
    if (L.synchronizes)
      failedSynchronizing[h] = w.str();
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
  if ((!L.synchronizes &&
       (result.resolutions.size() != nRes || result.arrivals.size() != nArr ||
        it.sharedWrites.size() != s.sharedWrites.size())) ||
      sharedMemory.changedSince(sharedMark) ||
      it.violations.size() != s.violations.size() ||
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
  // A synchronizing loop's shared accesses, kept for the race checks.
  SmallVector<size_t> sharedAccs;
  std::set<std::string> sharedRead, sharedWritten;
  for (size_t k = nAcc; k < result.accesses.size(); ++k) {
    const MemoryAccess &a = result.accesses[k];
    if (L.synchronizes && a.shared && !a.atomic && !a.async) {
      // After the body's last barrier the phase goes on into the next
      // iteration's first one (and the code after the loop): an access
      // there would race with those, which one iteration does not see.
      if (a.phase == it.phase)
        return bail("its body accesses shared memory after its last "
                    "barrier (that phase continues into the next "
                    "iteration)");
      (a.write ? sharedWritten : sharedRead).insert(a.region);
      sharedAccs.push_back(k);
      continue;
    }
    const BufferBinding *b = bindingOf(a.region);
    if (a.shared || a.atomic || !b)
      return bail("its body reads memory other than input buffers");
    if (a.write)
      writes.push_back(k);
    else if (b->role != BufferBinding::Role::In)
      return bail("its body reads memory other than input buffers");
  }

  if (L.synchronizes) {
    if (!writes.empty() || it.symbolicStores.size() != storesBefore)
      return bail("its body synchronizes and stores to global memory (not "
                  "summarized)");
    // The shared reads of the iteration resolve against its own writes
    // only when nothing older is there to read.
    for (size_t k = 0; k < nAcc; ++k) {
      const MemoryAccess &a = result.accesses[k];
      if (a.shared && a.write && sharedRead.count(a.region))
        return bail("its body reads shared '" + a.region +
                    "', which is written before the loop");
    }
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
                    next[i]->toReadableString(120) +
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
    } else if (k == Kind::Ite && V[i]->getSort() == Sort::Real) {
      // A sum updated on one side of a branch (merged states: `if (c)
      // acc += f`): ite(c, acc + f, acc) = acc + ite(c, f, 0), the arms
      // read as acc plus their rest, recursively through nested ites.
      std::function<Term(Term)> restOf = [&](Term t) -> Term {
        if (t == V[i])
          return T.real(0);
        if (t->getKind() == Kind::Add) {
          SmallVector<Term> others;
          bool found = false;
          for (Term o : t->getOperands()) {
            if (o == V[i] && !found)
              found = true;
            else
              others.push_back(o);
          }
          if (!found)
            return nullptr;
          return others.empty()       ? T.real(0)
                 : others.size() == 1 ? others[0]
                                      : T.add(others);
        }
        if (t->getKind() == Kind::Ite) {
          Term a = restOf(t->getOperand(1)), b = restOf(t->getOperand(2));
          return a && b ? T.ite(t->getOperand(0), a, b) : nullptr;
        }
        return nullptr;
      };
      if (Term r = restOf(n)) {
        roles[i] = Role::Sum;
        contrib[i] = r;
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
      if (self && c && mentionsAny(c, {V[i]})) {
        // The guarded form of max(v, c') with c' -inf on some inputs
        // (TermContext::max) is max(v, ite(g, c'', v)): where v is a leaf
        // of the contribution's max (min) nest or ite arms, it is the
        // neutral infinity there, as max(v, ite(g, x, v)) =
        // max(v, ite(g, x, -inf)) and max(v, max(v, y)) = max(v, y).
        Term neutral = k == Kind::Max ? T.negInf() : T.posInf();
        llvm::DenseMap<Term, Term> memo;
        std::function<Term(Term)> strip = [&](Term t) -> Term {
          if (t == V[i])
            return neutral;
          if (t->getKind() != Kind::Ite && t->getKind() != k)
            return t;
          if (auto f = memo.find(t); f != memo.end())
            return f->second;
          Term r =
              t->getKind() == Kind::Ite
                  ? T.ite(t->getOperand(0), strip(t->getOperand(1)),
                          strip(t->getOperand(2)))
              : k == Kind::Max
                  ? T.max(strip(t->getOperand(0)), strip(t->getOperand(1)))
                  : T.min(strip(t->getOperand(0)), strip(t->getOperand(1)));
          memo[t] = r;
          return r;
        };
        c = strip(c);
        if (c && c->getKind() == neutral->getKind())
          c = nullptr;
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
    if (getenv("KPROOF_DUMP_TERMS")) {
      llvm::errs() << "; loop-carried #" << i << ": " << n->toBriefString(300)
                   << "\n";
      if (contrib[i])
        for (Term u : subterms({contrib[i]}))
          if (llvm::is_contained(others, u))
            llvm::errs() << ";   its contribution mentions "
                         << u->toBriefString(80) << "\n";
    }
    if (roles[i] == Role::Invariant || mentionsAny(contrib[i], others))
      return bail("loop-carried value #" + Twine(i) + " (" +
                  n->toReadableString(120) +
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
                  n->toReadableString(120) +
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
    Term P = ex.fresh("loop.m", Sort::Real);
    llvm::DenseMap<Term, Term> toP;
    toP[next[*p]] = P;
    // Each addend of c: a * exp(b - m'), m' only there.
    SmallVector<Term> addends;
    for (Term o : rest) {
      Term c = invariant(T.substitute(o, toP));
      if (mentionsAny(c, others) || mentionsAny(c, {V[i]}))
        return noInvariant();
      // One factor exp(b - m') with b free of m' (the argument plus m'
      // equals the argument at m' = 0, exact rewrites of the normalizer),
      // possibly under ites whose conditions do not mention m' and whose
      // other arms are 0 (a masked score: exp(-inf - m') = 0): then
      // c * exp(m') is free of m' too.
      std::function<bool(Term)> scaled = [&](Term t) -> bool {
        if (!mentionsAny(t, {P}))
          return false;
        switch (t->getKind()) {
        case Kind::Exp: {
          Term arg = t->getOperand(0);
          return N.provesEqual(T.add(arg, P),
                               T.substitute(arg, {{P, T.real(0)}}));
        }
        case Kind::Mul: {
          unsigned carrying = 0;
          for (Term f : t->getOperands())
            if (mentionsAny(f, {P})) {
              if (!scaled(f))
                return false;
              ++carrying;
            }
          return carrying == 1;
        }
        case Kind::Ite: {
          if (mentionsAny(t->getOperand(0), {P}))
            return false;
          for (Term arm : {t->getOperand(1), t->getOperand(2)})
            if (!(arm->isRealConst() && arm->getRational() == Rational(0)) &&
                !scaled(arm))
              return false;
          return true;
        }
        default:
          return false;
        }
      };
      if (!scaled(c))
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
  // `nonEmpty`: [0, k64) is known non-empty (k64 = k + 1, or E proved
  // >= 1 on the path); otherwise a max/min over it is -inf/+inf at k64 = 0
  // (TermContext::reduce wraps it in an ite).
  auto closedAt = [&](Term k64,
                      bool nonEmpty = false) -> llvm::DenseMap<Term, Term> {
    llvm::DenseMap<Term, Term> m = atIter(k64);
    Term j = ex.fresh("loop.j", Sort::BV, 64);
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
      Term r = T.reduce(rk, j, zero64, k64, body, nonEmpty);
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
      // Inside the sum over [0, k64) the range is non-empty, so the max
      // it follows is its finite case (an empty sum is 0 whatever it is).
      mjk[placeholder[i]] =
          T.decideExtendedCases(mk, T.bvSlt(zero64, k64), true);
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
      return bail("its exit test " + exitCond->toReadableString(120) +
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
        return bail("its exit test " + exitCond->toReadableString(120) +
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
      return bail("its exit test " + exitCond->toReadableString(120) +
                  " is not of a supported form (X < B, X <= B, X != B "
                  "with a constant step)");
    }
  }
  // An ite the path decides (the loop's guard: n >= 1 when it is
  // entered) is its arm.
  while (E->getKind() == Kind::Ite) {
    Term c = E->getOperand(0);
    if (!ex.mayHold(T.andOf(s.pc, T.notOf(c))))
      E = E->getOperand(1);
    else if (!ex.mayHold(T.andOf(s.pc, c)))
      E = E->getOperand(2);
    else
      break;
  }
  E = T.canonicalIndex(E);
  if (E->getKind() == Kind::BVConst)
    return bail("its trip count is a constant (unrolled)");
  if (L.synchronizes) {
    // Every thread of the CTA runs the same iterations: the trip count and
    // the induction steps depend on no thread id and no per-thread value
    // (CTA ids and sizes are uniform), so the threads are in the same
    // iteration in each phase and reach the same barriers.
    auto uniform = [&](Term t) {
      for (Term u : subterms({t}))
        if ((u->getKind() == Kind::BVVar || u->getKind() == Kind::BoolVar ||
             u->getKind() == Kind::RealVar) &&
            (u->getName().contains('#') || u->getName().starts_with("tid.") ||
             u->getName().starts_with("laneid") ||
             u->getName().starts_with("warpid")))
          return false;
      return true;
    };
    if (!uniform(E))
      return bail("its body synchronizes and its trip count " +
                  E->toReadableString(120) + " may differ between threads");
    for (size_t i = 0; i < V.size(); ++i)
      if (roles[i] == Role::Induction && !uniform(steps[i]))
        return bail("its body synchronizes and an induction step (" +
                    steps[i]->toReadableString(120) +
                    ") may differ between threads");
    // Barriers before the exit test run at every k <= E (at least once),
    // those after it at k < E. Either way the code after the loop is in
    // the phase after the body's last barrier, provided some barrier ran:
    // barriers on both sides of the test would leave the last iteration
    // partial (not summarized), and barriers after it need E >= 1.
    size_t arrBefore = arrAtTest - nArr,
           arrAfter = result.arrivals.size() - arrAtTest;
    if (arrBefore && arrAfter)
      return bail("its body has barriers before and after its exit test");
    if (arrAfter && ex.mayHold(T.andOf(s.pc, T.eq(E, T.bv(0, E->getWidth())))))
      return bail("its body synchronizes after its exit test and it may "
                  "run no iteration");
  }

  // Prove E: the test stays in the loop at every k < E and exits at E.
  // (One k for the threads of a CTA in a synchronizing loop.)
  Term k = L.synchronizes
               ? T.bvVar("loop.k@" + std::to_string(uniformCounter++), 64)
               : ex.fresh("loop.k", Sort::BV, 64);
  // Every use of k is under k <= E <= 2^w (the guards below): index terms
  // of the body fold as linear forms within that bound.
  if (tripBound)
    T.setUpperBound(k->getName(), tripBound);
  llvm::DenseMap<Term, Term> mk = atIter(k), mE = atIter(E);
  Term stayK = T.substitute(stayCond, mk);
  Term stayE = T.substitute(stayCond, mE);
  if (ex.mayHold(T.andOf({s.pc, T.bvUlt(k, E), T.notOf(stayK)})) ||
      ex.mayHold(T.andOf(s.pc, stayE)))
    return bail("its trip count " + E->toReadableString(120) +
                " is not proved (the exit test may not fail exactly there)");

  // What every iteration's header knows: the previous iteration's stay
  // test (k >= 1, proved above for k - 1 < E) or the entry (k = 0, asked
  // below), read over the header's values: stayCond = f(next), so f(V)
  // at iteration k is the test at k - 1. Read as true inside the
  // iteration's terms before their closed forms are substituted (a tile's
  // first key is valid in every iteration, so its running max is finite
  // there: no -inf - -inf).
  llvm::DenseMap<Term, Term> headerFacts;
  {
    llvm::DenseMap<Term, Term> back, fwd;
    for (size_t i = 0; i < V.size(); ++i)
      if (roles[i] == Role::Induction) {
        back[next[i]] = V[i];
        fwd[V[i]] = next[i];
      }
    Term f = back.empty() ? nullptr : T.substitute(stayCond, back);
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; loop header fact: "
                   << (f ? f->toBriefString(300) : std::string("none"))
                   << " (stay test " << stayCond->toBriefString(300) << ")\n";
    if (f && f != stayCond && T.substitute(f, fwd) == stayCond &&
        !mentionsAny(f, others) &&
        !ex.mayHold(T.andOf(s.pc, T.notOf(T.substitute(f, atIter(zero64)))))) {
      SmallVector<Term> cs;
      if (f->getKind() == Kind::And)
        llvm::append_range(cs, f->getOperands());
      else
        cs.push_back(f);
      for (Term c : cs)
        headerFacts[c] = T.boolConst(true);
    }
  }
  auto settle = [&](Term t) {
    if (headerFacts.empty() || !t)
      return t;
    // (Null: the facts made an operation of infinities; t as it was.)
    Term settled = T.substitute(t, headerFacts);
    return settled ? settled : t;
  };
  // The contributions of iterations j <= E too.
  for (Term &c : contrib)
    if (c)
      c = settle(c);

  // The body's obligations, once over a symbolic iteration: before the
  // exit test for k <= E, after it for k < E.
  llvm::DenseMap<Term, Term> ck = closedAt(k);
  llvm::DenseMap<Term, Term> ck1 =
      closedAt(T.bvBin(Kind::BVAdd, k, one64), /*nonEmpty=*/true);
  // (The next values as settle rewrites them, too: settled terms meet
  // them so.)
  for (size_t i = 0; i < V.size(); ++i)
    if (next[i] != V[i]) {
      ck[next[i]] = T.substitute(V[i], ck1);
      if (Term sn = settle(next[i]); sn && sn != next[i])
        ck[sn] = ck[next[i]];
    }
  // (A term whose closed form does not exist, infinities meeting, makes
  // the summary fail below.)
  bool instFailed = false;
  auto inst = [&](Term t, bool before) {
    Term r = T.substitute(settle(t), ck);
    (void)before;
    if (!r) {
      instFailed = true;
      r = t->getSort() == Sort::Bool   ? T.boolConst(false)
          : t->getSort() == Sort::Real ? T.real(0)
                                       : T.bv(0, t->getWidth());
    }
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
    // A synchronizing loop's shared accesses too: iteration k of every
    // thread of the CTA (k is not renamed per thread), in the phases of
    // the iteration.
    SmallVector<size_t> keptAccs(writes.begin(), writes.end());
    keptAccs.append(sharedAccs.begin(), sharedAccs.end());
    llvm::sort(keptAccs);
    for (size_t n : keptAccs) {
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
  if (L.synchronizes) {
    // The iteration's barrier arrivals and the obligations of its shared
    // reads (some write of the iteration hits each; its writer is unique),
    // over the symbolic iteration k.
    for (size_t n = nArr; n < result.arrivals.size(); ++n) {
      BarrierArrival &a = result.arrivals[n];
      bool before = n < arrAtTest;
      a.pathCondition = T.andOf(before ? rangeBefore : rangeAfter,
                                inst(a.pathCondition, before));
    }
    for (size_t n = nRes; n < result.resolutions.size(); ++n) {
      ResolutionObligation &r = result.resolutions[n];
      bool before = n < resAtTest;
      Term range = before ? rangeBefore : rangeAfter;
      r.condition = T.andOf(range, inst(r.condition, before));
      if (r.addressOnly)
        r.addressOnly = T.andOf(range, inst(r.addressOnly, before));
      if (r.otherValue)
        r.otherValue = inst(r.otherValue, before);
      if (r.witnessValue)
        r.witnessValue = inst(r.witnessValue, before);
      if (r.witnessMissed)
        r.witnessMissed = inst(r.witnessMissed, before);
    }
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

  if (instFailed)
    return bail("an obligation of its body has no closed form over the "
                "iterations (infinities meet)");
  // The exit: the values at iteration E's test.
  // A max over the whole trip is finite when the path proves E >= 1.
  bool exitNonEmpty = !ex.mayHold(T.andOf(s.pc, T.eq(E, zero64)));
  llvm::DenseMap<Term, Term> cE = closedAt(E, exitNonEmpty);
  llvm::DenseMap<Term, Term> cE1 =
      closedAt(T.bvBin(Kind::BVAdd, E, one64), /*nonEmpty=*/true);
  llvm::DenseMap<Term, Term> exitMap = cE;
  for (size_t i = 0; i < V.size(); ++i)
    if (next[i] != V[i]) {
      exitMap[next[i]] = T.substitute(V[i], cE1);
      if (Term sn = settle(next[i]); sn && sn != next[i])
        exitMap[sn] = exitMap[next[i]];
    }
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
          if (!beforeTestOps.count(&op) || !ex.get(*fp, r).term)
            return bail("a value computed after the exit test (or on a "
                        "branch the iteration does not take) is used after "
                        "the loop");
          Term t = T.substitute(settle(ex.get(*fp, r).term), exitMap);
          if (!t)
            return bail("a value of the loop used after it has no closed "
                        "form (infinities meet)");
          sf.env[r] =
              SymValue{t, ex.get(*fp, r).realBits, ex.get(*fp, r).realType};
        }
  for (BlockArgument a : h->getArguments())
    for (Operation *user : a.getUsers())
      if (!L.blocks.count(user->getBlock()))
        if (Term t = T.substitute(settle(ex.get(*fp, a).term), exitMap))
          sf.env[a] = SymValue{t, false};
        else
          return bail("a value of the loop used after it has no closed "
                      "form (infinities meet)");
  // Arguments of the body's other blocks (the joins of its branches).
  for (Block *b : L.blocks)
    if (b != h)
      for (BlockArgument a : b->getArguments())
        for (Operation *user : a.getUsers()) {
          if (L.blocks.count(user->getBlock()))
            continue;
          SymValue v = ex.get(*fp, a);
          if (!beforeTestOps.count(b->getTerminator()) || !v.term)
            return bail("a value merged after the exit test (or on a "
                        "branch the iteration does not take) is used after "
                        "the loop");
          Term t = T.substitute(settle(v.term), exitMap);
          if (!t)
            return bail("a value of the loop used after it has no closed "
                        "form (infinities meet)");
          sf.env[a] = SymValue{t, v.realBits, v.realType};
        }
  SmallVector<SymValue> outVals;
  for (Term t : exitArgs) {
    Term v = T.substitute(settle(t), exitMap);
    if (!v)
      return bail("its value at the exit " + t->toReadableString(120) +
                  " has no closed form (infinities meet)");
    outVals.push_back(SymValue{v, false});
  }
  // Keep what the iteration learned about the thread (id ranges).
  if (it.pc != s.pc) {
    Term exitPc = T.substitute(it.pc, exitMap);
    if (!exitPc)
      return bail("its path condition at the exit has no closed form "
                  "(infinities meet)");
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; loop summary: the path condition at the exit adds "
                   << exitPc->toBriefString(600) << "\n";
    s.pc = T.andOf(s.pc, exitPc);
  }
  for (auto [arg, v] : llvm::zip(exitBlock->getArguments(), outVals))
    sf.env[arg] = v;
  sf.block = exitBlock;
  sf.it = exitBlock->begin();
  if (L.synchronizes) {
    // After the loop: the phase after the body's last barrier (E >= 1).
    // Its shared variables hold the last iteration's writes, which a read
    // after the loop would need: such a read is UNKNOWN.
    s.phase = it.phase;
    for (const std::string &r : sharedWritten)
      sharedMemory.writtenInSummarizedLoop(r);
  }
  for (SymbolicStore &st : families)
    s.symbolicStores.push_back(std::move(st));
  ++result.loopSummaries;
  return true;
}

} // namespace kproof::engine::exec
