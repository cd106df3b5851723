//===- Merge.cpp - state merging at control-flow joins --------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The two sides of a data-dependent branch meet again at its immediate
// post-dominator (`joinBlockOf`). A state heading for a join waits there
// (`arriveAtJoin`) until its siblings have arrived or ended (`leaveJoins`);
// `releaseJoin` then merges the states that are compatible. `mergeInto`
// requires the same program point and violations, the same barrier progress,
// visibly disjoint path conditions and the same memory layout (cells, symbolic
// and .local store sequences); registers, cells and stores whose values differ
// become ite(g1, a's value, b's value), g1 what only a's path condition
// assumes; own shared writes past a common prefix stay, guarded by their side's
// condition; the path condition keeps the common conjuncts. A store of merged
// states carries both locations (`mergedLoc`).
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

Block *Executor::joinBlockOf(Block *b) {
  if (!options.mergeStates || !b->getParent() || b->getParent()->hasOneBlock())
    return nullptr;
  DominanceInfoNode *node = postDominance.getNode(b);
  if (!node || !node->getIDom())
    return nullptr;
  return node->getIDom()->getBlock();
}

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
    auto sameEvents = [](ArrayRef<BarrierEvent> x, ArrayRef<BarrierEvent> y) {
      return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto p) {
               auto &[u, v] = p;
               return u.cta == v.cta && u.id == v.id && u.index == v.index &&
                      u.waits == v.waits;
             });
    };
    if (a.phase != b.phase || a.clock != b.clock ||
        a.asyncCopies != b.asyncCopies || a.asyncGroups != b.asyncGroups ||
        a.warpSyncs != b.warpSyncs || a.warpSyncPhase != b.warpSyncPhase ||
        a.lastCollective != b.lastCollective ||
        a.collectiveCounts != b.collectiveCounts ||
        a.arrivedWithoutWait != b.arrivedWithoutWait ||
        a.mbarrierInits != b.mbarrierInits ||
        a.mbarrierUses != b.mbarrierUses ||
        a.mbarrierInvals != b.mbarrierInvals || !sameEvents(a.events, b.events))
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
      SymValue x = fa.env.find(v)->second;
      SymValue y = fb.env.find(v)->second;
      // Real bits on one side, a constant bit pattern on the other (a
      // predicated load into a register preset to -inf's bits, as Triton's
      // masked loads are): the constant's float, as real bits.
      if (x.realBits != y.realBits && x.term && y.term) {
        SymValue &bits = x.realBits ? y : x;
        const SymValue &real = x.realBits ? x : y;
        // In the real side's format (a 16-bit pattern is f16 or bf16).
        StringRef fmt = Executor::realFormat(real, bits.term->getWidth());
        if (bits.term->getKind() == Kind::BVConst && !fmt.empty())
          if (Term r = T.realOfFloatBits(bits.term, fmt))
            bits = SymValue{r, true, real.realType};
      }
      if (x.realBits != y.realBits)
        return false;
      Term t = select(x.term, y.term);
      if (!t)
        return false;
      env[v] = SymValue{t, x.realBits,
                        x.realType == y.realType ? x.realType : Type()};
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

Location Executor::mergedLoc(Location a, Location b, Term guard) {
  if (a == b)
    return a;
  MLIRContext *ctx = a->getContext();
  std::string tag =
      "kproof.merged." + std::to_string(result.mergeGuards.size());
  result.mergeGuards.push_back(guard);
  return FusedLoc::get(ctx, {a, b}, StringAttr::get(ctx, tag));
}

} // namespace kproof::engine::exec
