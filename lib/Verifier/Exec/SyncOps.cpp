//===- SyncOps.cpp - barriers, atomics, warp-level operations -------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The synchronization cases of execOp (execSyncOp): barriers (PTX ISA
// 9.7.13.4): a CTA-wide barrier ends the phase (the state is parked), a counted
// barrier records the arrival, bar.red (with more than one thread) reduces a
// predicate over the participants; fences; atomics (9.7.13.5), recorded for the
// race checks; shfl.sync (9.7.9.6) and vote.sync (9.7.13.10) across the lanes
// of the warp, with the membermask obligations (`finishShuffles`). activemask
// and warpsync are UNKNOWN. Also `participation` and `orderedByCountedBarriers`
// (Executor.h).
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

std::optional<bool> Executor::execSyncOp(State &s, Operation *op) {
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  auto advance = [&]() {
    ++f.it;
    return true;
  };
  auto val = [&](Value v) { return get(f, v); };
  auto bits = [&](Value v) { return bitsOperand(f, v, loc); };

  return llvm::TypeSwitch<Operation *, std::optional<bool>>(op)
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
          sharedMemory.sharedBounds(s, "atomic on", name, off, width, r->bytes,
                                    loc);
        }
        if (r->buffer && r->buffer->role == BufferBinding::Role::In) {
          s.violations.push_back("atomic update of input buffer '" + name +
                                 "'");
          s.violationLocs.push_back(loc);
        }
        sharedMemory.recordAccess(s, at, /*write=*/true, name, shared, off,
                                  width, nullptr, loc, /*atomic=*/true,
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
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// Warp-level operations
//===----------------------------------------------------------------------===//

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
  Term shuffled = T.substitute(a.term, sigma);
  // A whole-warp butterfly step: remembered for the lane reductions that
  // combine it with its source (combineButterfly).
  auto constant = [](Term t, uint64_t &v) {
    if (t->getKind() != Kind::BVConst || t->getAPInt().getActiveBits() > 32)
      return false;
    v = t->getAPInt().getZExtValue();
    return true;
  };
  uint64_t laneMask = 0, clampVal = 0, memberMask = 0;
  if (sh.getMode() == ShflMode::Bfly && constant(bv.term, laneMask) &&
      constant(cv.term, clampVal) && constant(mv.term, memberMask) &&
      laneMask && laneMask < 32 && llvm::isPowerOf2_64(laneMask) &&
      clampVal == 31 && memberMask == 0xffffffffu)
    butterflies[shuffled] = {a.term, unsigned(laneMask)};
  set(f, sh.getResult(), shuffled, a.realBits);
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

Term Executor::combineButterfly(State &s, FloatBinKind op, Term a, Term b) {
  if (op != FloatBinKind::Max && op != FloatBinKind::Min &&
      op != FloatBinKind::Add)
    return nullptr;
  auto it = butterflies.find(b);
  if (it == butterflies.end() || it->second.src != a) {
    std::swap(a, b);
    it = butterflies.find(b);
    if (it == butterflies.end() || it->second.src != a)
      return nullptr;
  }
  unsigned c = it->second.laneMask;
  Term base = a;
  unsigned bits = 0;
  if (auto lr = laneReductions.find(a);
      lr != laneReductions.end() && lr->second.op == op) {
    base = lr->second.base;
    bits = lr->second.bits;
  }
  // Lane c already in the span: op(a, b) counts the span twice (add) or is
  // a (max, min); left to the general rule.
  if (bits & c)
    return nullptr;
  unsigned span = bits | c;
  Term lin = linearTid(s);
  Term warpPart = T.bvBin(Kind::BVAnd, lin, T.bv(~uint64_t(span) & 0xffffffffu, 32));
  SmallVector<Term> copies;
  for (unsigned m = 0; m < 32; ++m) {
    if (m & ~span)
      continue;
    Term lane = T.bvBin(Kind::BVOr, warpPart, T.bv(m, 32));
    llvm::DenseMap<Term, Term> sigma = threadAt(lane);
    renameFresh({base}, sigma);
    copies.push_back(T.substitute(base, sigma));
  }
  Term r = copies.front();
  for (Term t : ArrayRef<Term>(copies).drop_front()) {
    r = op == FloatBinKind::Max   ? T.max(r, t)
        : op == FloatBinKind::Min ? T.min(r, t)
                                  : T.add(r, t);
    if (!r)
      return nullptr;
  }
  laneReductions[r] = {base, op, span};
  return r;
}

Term Executor::laneInMask(Term mask, Term lane) {
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

void Executor::finishShuffles() {
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
      bool sameKind = sameInstruction
                          ? o.op == r.op
                          : o.op->getName() == r.op->getName() &&
                                o.op->getAttr("mode") == r.op->getAttr("mode");
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

} // namespace kproof::engine::exec

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
