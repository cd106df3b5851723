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
// race checks; the warp collectives shfl.sync (9.7.9.6), vote.sync,
// match.sync, redux.sync and elect.sync (9.7.13.9-14) across the lanes of the
// warp (`collectiveLanes`), and bar.warp.sync (9.7.13.3), counted per mask for
// the race checks, all with the membermask obligations (`finishShuffles`).
// activemask is UNKNOWN. Also `participation` and `orderedByCountedBarriers`
// (Executor.h).
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

bool Executor::passBarrier(State &s, BarrierOp b, std::string &why) {
  Frame &f = s.stack.back();
  why = "a barrier in its body other than a CTA-wide bar.sync";
  if (!isMultiThread() || b.getKind() != BarrierKind::Sync ||
      result.countedBarriers)
    return false;
  Term idTerm = b.getId() ? bitsOperand(f, b.getId(), b.getLoc()) : T.bv(0, 32);
  Term countTerm =
      b.getCount() ? bitsOperand(f, b.getCount(), b.getLoc()) : nullptr;
  if (!idTerm || idTerm->getKind() != Kind::BVConst ||
      (b.getCount() &&
       (!countTerm || countTerm->getKind() != Kind::BVConst || !ctaThreads() ||
        countTerm->getAPInt().getZExtValue() != ctaThreads())))
    return false;
  unsigned id = idTerm->getAPInt().getZExtValue();
  if (countedBarrierIds.count(id))
    return false;
  fullBarrierIds.insert(id);
  // As execSyncOp's full barrier: the phase ends here (docs/verify-sync.md "The
  // model").
  result.arrivals.push_back(
      {s.phase, b, b.getAligned(), s.pc, b.getLoc(), id, {}, {}});
  ++s.phase;
  ++f.it;
  return true;
}

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
          // without a thread count): the phase ends here (docs/verify-sync.md
          // "The model").
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
        // (docs/verify-sync.md "The model": participant counts per barrier id).
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
        // A waiting arrival joins the order of the warp collectives (a lane
        // at the barrier while another of its warp waits for it at a
        // bar.warp.sync is a deadlock: finishShuffles).
        if (waits)
          noteOrdered(
              s, ("barrier " + Twine(id) + " arrival #" + Twine(it->arrivals))
                     .str());
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
      .Case<ReduxOp>([&](ReduxOp r) { return redux(s, f, r, loc); })
      .Case<MatchOp>([&](MatchOp m) { return match(s, f, m, loc); })
      .Case<ElectOp>([&](ElectOp e) { return elect(s, f, e, loc); })
      .Case<WarpSyncOp>([&](WarpSyncOp w) { return warpSync(s, f, w, loc); })
      .Case<ActiveMaskOp>([&](Operation *o) {
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
  unsigned kth = noteCollective(s, sh, mv.term);
  shuffles.push_back(
      {sh, s.phase, kth, s.occurrences[sh], s.pc,
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
  set(f, sh.getResult(), shuffled, a.realBits, a.realType);
  set(f, sh.getInRange(), pval);
  ++f.it;
  return true;
}

/// The PTX name of a warp collective, for messages.
static StringRef collectiveName(Operation *op) {
  if (isa<WarpSyncOp>(op))
    return "bar.warp.sync";
  if (isa<VoteOp>(op))
    return "vote.sync";
  if (isa<ReduxOp>(op))
    return "redux.sync";
  if (isa<MatchOp>(op))
    return "match.sync";
  if (isa<ElectOp>(op))
    return "elect.sync";
  return "shfl.sync";
}

std::optional<SmallVector<Executor::CollectiveLane, 32>>
Executor::collectiveLanes(State &s, Operation *op, Term mask,
                          ArrayRef<Term> terms, Location loc) {
  std::string what = collectiveName(op).str();
  auto c32 = [&](uint64_t x) { return T.bv(x, 32); };
  auto bin = [&](Kind k, Term x, Term y) { return T.bvBin(k, x, y); };
  Term lin = linearTid(s);
  Term lane = bin(Kind::BVURem, lin, c32(32));
  Term base = bin(Kind::BVSub, lin, lane);
  auto inMask = [&](Term l) { return laneInMask(mask, l); };
  Term blockThreads = ctaThreadsTerm();
  // The membermask obligations of shfl.sync: the executing lane is in the
  // mask, every lane the mask names exists and executes this collective.
  result.alignments.push_back(
      {s.pc, inMask(lane), loc,
       "the executing lane is in the membermask of " + what});
  Term wl = fresh(what.substr(0, what.find('.')) + ".lane", Sort::BV, 32);
  Term wLin = bin(Kind::BVAdd, base, wl);
  result.alignments.push_back(
      {T.andOf({s.pc, T.bvUlt(wl, c32(32)), inMask(wl)}),
       T.bvUlt(wLin, blockThreads), loc,
       "every lane named in the membermask of " + what +
           " exists (a partial warp has fewer lanes)"});
  unsigned kth = noteCollective(s, op, mask);
  shuffles.push_back(
      {op, s.phase, kth, s.occurrences[op], s.pc,
       T.andOf({T.bvUlt(wl, c32(32)), inMask(wl), T.bvUlt(wLin, blockThreads)}),
       wLin, loc, mask});
  ++s.occurrences[op];
  SmallVector<CollectiveLane, 32> lanes;
  if (terms.empty())
    return lanes;
  // The terms at each lane of the mask: this path's terms at that lane,
  // when the lane runs this path too (else UNKNOWN).
  SmallVector<Term> other;
  for (unsigned l = 0; l < 32; ++l) {
    Term lLin = bin(Kind::BVAdd, base, c32(l));
    // A lane of the mask that is not in the CTA fails the obligation
    // above (REFUTED), so the value reads every lane of the mask as one
    // that takes part: for a constant mask a constant.
    CollectiveLane cl;
    cl.member = inMask(c32(l));
    llvm::DenseMap<Term, Term> sigma = threadAt(lLin);
    SmallVector<Term> roots(terms.begin(), terms.end());
    roots.push_back(s.pc);
    renameFresh(roots, sigma);
    for (Term t : terms)
      cl.at.push_back(T.substitute(t, sigma));
    other.push_back(T.andOf({cl.member, T.bvUlt(lLin, blockThreads),
                             T.notOf(T.substitute(s.pc, sigma))}));
    lanes.push_back(std::move(cl));
  }
  result.resolutions.push_back(
      {T.andOf(s.pc, T.orOf(other)), loc,
       "every lane of the membermask of " + what + " runs the same path", false,
       "a lane of the membermask may run another path (data-dependent "
       "branches), where its " +
           std::string(isa<VoteOp>(op) ? "predicate" : "operand") +
           " may differ"});
  return lanes;
}

/// The membermask of a warp collective as a 32-bit bit-vector term, or
/// null (UNKNOWN recorded) when it holds a real value.
Term Executor::membermaskTerm(Frame &f, Value mask, StringRef what,
                              Location loc) {
  SymValue mv = get(f, mask);
  if (!mv.term)
    return nullptr;
  if (mv.realBits || mv.term->getSort() != Sort::BV) {
    unknown(loc, (what + " membermask holding a real value").str());
    return nullptr;
  }
  return mv.term;
}

bool Executor::vote(State &s, Frame &f, VoteOp v, Location loc) {
  SymValue p = get(f, v.getPredicate());
  Term mask = membermaskTerm(f, v.getMembermask(), "vote.sync", loc);
  if (!p.term || !mask)
    return false;
  std::optional<SmallVector<CollectiveLane, 32>> lanes =
      collectiveLanes(s, v, mask, {p.term}, loc);
  if (!lanes)
    return false;
  auto c32 = [&](uint64_t x) { return T.bv(x, 32); };
  SmallVector<Term> all, any, bits;
  for (auto [l, cl] : llvm::enumerate(*lanes)) {
    Term pl = cl.at[0];
    all.push_back(T.orOf(T.notOf(cl.member), pl));
    any.push_back(T.andOf(cl.member, pl));
    bits.push_back(
        T.ite(T.andOf(cl.member, pl), c32(uint64_t(1) << l), c32(0)));
  }
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
      r = T.bvBin(Kind::BVOr, r, b);
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

bool Executor::warpSync(State &s, Frame &f, WarpSyncOp w, Location loc) {
  Term mask = membermaskTerm(f, w.getMembermask(), "bar.warp.sync", loc);
  if (!mask)
    return false;
  // PTX ISA 9.7.13.3: the lane waits until every lane of the mask executed
  // a bar.warp.sync with the same mask, and memory accesses before it are
  // ordered before those after it among them. Paired by count per mask:
  // the k-th of a lane with the k-th of each lane its mask names (an
  // obligation, finishShuffles), which the race check uses to order two
  // lanes' accesses (MemoryAccess::warpSyncs).
  if (mask->getKind() != Kind::BVConst) {
    unknown(loc, "bar.warp.sync with a membermask that is not a constant "
                 "is not modeled");
    return false;
  }
  uint32_t m = uint32_t(mask->getAPInt().getZExtValue());
  result.warpSyncMasks.insert(m);
  if (!collectiveLanes(s, w, mask, {}, loc))
    return false;
  ++s.warpSyncs[m];
  s.warpSyncPhase = s.phase;
  ++f.it;
  return true;
}

bool Executor::redux(State &s, Frame &f, ReduxOp r, Location loc) {
  SymValue a = get(f, r.getValue());
  Term mask = membermaskTerm(f, r.getMembermask(), "redux.sync", loc);
  if (!a.term || !mask)
    return false;
  if (a.realBits || a.term->getSort() != Sort::BV) {
    unknown(loc, "redux.sync of a register holding a real value");
    return false;
  }
  std::optional<SmallVector<CollectiveLane, 32>> lanes =
      collectiveLanes(s, r, mask, {a.term}, loc);
  if (!lanes)
    return false;
  // op over the lanes of the mask, in lane order, from the first lane's
  // operand (the form min.s32 chains give: min(min(x0, x1), x2) ...); a
  // lane whose membership is not a constant (a membermask in a register)
  // contributes the operation's identity when it is outside the mask.
  bool sgn = r.getIsSigned();
  auto bin = [&](Kind k, Term x, Term y) { return T.bvBin(k, x, y); };
  Term identity = nullptr;
  switch (r.getKind()) {
  case ReduxKind::Add:
  case ReduxKind::Or:
  case ReduxKind::Xor:
    identity = T.bv(0, 32);
    break;
  case ReduxKind::And:
    identity = T.bv(0xffffffffu, 32);
    break;
  case ReduxKind::Min:
    identity = T.bv(sgn ? 0x7fffffffu : 0xffffffffu, 32);
    break;
  case ReduxKind::Max:
    identity = T.bv(sgn ? 0x80000000u : 0, 32);
    break;
  }
  auto combine = [&](Term acc, Term v) -> Term {
    switch (r.getKind()) {
    case ReduxKind::Add:
      return bin(Kind::BVAdd, acc, v);
    case ReduxKind::And:
      return bin(Kind::BVAnd, acc, v);
    case ReduxKind::Or:
      return bin(Kind::BVOr, acc, v);
    case ReduxKind::Xor:
      return bin(Kind::BVXor, acc, v);
    case ReduxKind::Min:
      return T.ite(sgn ? T.bvSlt(v, acc) : T.bvUlt(v, acc), v, acc);
    case ReduxKind::Max:
      return T.ite(sgn ? T.bvSlt(acc, v) : T.bvUlt(acc, v), v, acc);
    }
    return nullptr;
  };
  Term acc = nullptr;
  for (const CollectiveLane &cl : *lanes) {
    Term v = cl.at[0];
    bool constant = cl.member->getKind() == Kind::BoolConst;
    if (constant && !cl.member->getBoolValue())
      continue;
    Term next = acc ? combine(acc, v) : v;
    acc = constant ? next : T.ite(cl.member, next, acc ? acc : identity);
  }
  if (!acc)
    acc = identity; // no lane: the executing lane's obligation fails
  set(f, r.getResult(), acc);
  ++f.it;
  return true;
}

bool Executor::match(State &s, Frame &f, MatchOp m, Location loc) {
  SymValue a = get(f, m.getValue());
  Term mask = membermaskTerm(f, m.getMembermask(), "match.sync", loc);
  if (!a.term || !mask)
    return false;
  if (a.realBits || a.term->getSort() != Sort::BV) {
    unknown(loc, "match.sync of a register holding a real value");
    return false;
  }
  std::optional<SmallVector<CollectiveLane, 32>> lanes =
      collectiveLanes(s, m, mask, {a.term}, loc);
  if (!lanes)
    return false;
  auto c32 = [&](uint64_t x) { return T.bv(x, 32); };
  Term peers = c32(0);
  SmallVector<Term> equal;
  for (auto [l, cl] : llvm::enumerate(*lanes)) {
    Term same = T.eq(cl.at[0], a.term);
    peers =
        T.bvBin(Kind::BVOr, peers,
                T.ite(T.andOf(cl.member, same), c32(uint64_t(1) << l), c32(0)));
    equal.push_back(T.orOf(T.notOf(cl.member), same));
  }
  Term allEqual = T.andOf(equal);
  set(f, m.getResult(),
      m.getMode() == MatchMode::Any ? peers : T.ite(allEqual, mask, c32(0)));
  set(f, m.getAllEqual(), allEqual);
  ++f.it;
  return true;
}

bool Executor::elect(State &s, Frame &f, ElectOp e, Location loc) {
  Term mask = membermaskTerm(f, e.getMembermask(), "elect.sync", loc);
  if (!mask)
    return false;
  // The leader is a function of the mask alone (PTX ISA 9.7.13.14: the
  // same mask elects the same lane), which lane unspecified: one 5-bit
  // variable v per constant mask, shared by every thread (no '#': not
  // renamed per thread); the leader is lane v when the mask names it,
  // else the mask's lowest lane. Every lane of the mask is some v's
  // leader, and every v names a lane of the mask (no assumption needed).
  if (mask->getKind() != Kind::BVConst) {
    unknown(loc, "elect.sync with a membermask that is not a constant");
    return false;
  }
  if (!collectiveLanes(s, e, mask, {}, loc))
    return false;
  uint64_t m = mask->getAPInt().getZExtValue();
  if (!m) {
    // No lane to elect: the executing lane is not in the mask (REFUTED by
    // the obligation above); nothing further runs on this path.
    unknown(loc, "elect.sync with an empty membermask");
    return false;
  }
  Term v = T.bvZExt(
      T.bvVar("elect.leader(0x" + llvm::utohexstr(m, true, 8) + ")", 5), 32);
  Term leader = m == 0xffffffffu ? v
                                 : T.ite(laneInMask(mask, v), v,
                                         T.bv(llvm::countr_zero(m), 32));
  Term lane = T.bvBin(Kind::BVURem, linearTid(s), T.bv(32, 32));
  set(f, e.getLeader(), leader);
  set(f, e.getIsLeader(), T.eq(lane, leader));
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
    SmallVector<Term> runs, sameName;
    for (const ShuffleRun &o : shuffles) {
      // match.sync also pairs by its operand type (.b32 / .b64).
      auto qualifiers = [](Operation *x) {
        return std::make_tuple(
            x->getAttr("mode"), x->getAttr("kind"), x->getAttr("is_signed"),
            isa<MatchOp>(x) ? x->getOperand(0).getType() : Type());
      };
      // bar.warp.sync pairs by its count per mask (the mask is compared
      // below); on sm_70 and later any bar.warp.sync instruction.
      // sm_6x: the same instruction, its same execution; later: the k-th
      // collective of the kind (and, for bar.warp.sync, of the mask).
      bool paired = sameInstruction
                        ? o.op == r.op && o.opOccurrence == r.opOccurrence
                        : o.op->getName() == r.op->getName() &&
                              qualifiers(o.op) == qualifiers(r.op) &&
                              o.occurrence == r.occurrence;
      if (paired && o.phase == r.phase) {
        llvm::DenseMap<Term, Term> m = atW;
        renameFresh({o.pc, o.mask}, m);
        runs.push_back(T.andOf(T.substitute(o.pc, m),
                               T.eq(T.substitute(o.mask, m), r.mask)));
      }
      // A collective of this name with other qualifiers or another mask:
      // the lane does not wait here, a membermask violation.
      if (o.op->getName() == r.op->getName() && o.phase == r.phase) {
        llvm::DenseMap<Term, Term> m = atW;
        renameFresh({o.pc, o.mask}, m);
        sameName.push_back(
            T.andOf(T.substitute(o.pc, m),
                    qualifiers(o.op) != qualifiers(r.op)
                        ? T.boolConst(true)
                        : T.notOf(T.eq(T.substitute(o.mask, m), r.mask))));
      }
    }
    // The named lane exits in this phase without executing this one: the
    // PTX ISA waits only for the lanes of the mask that have not exited
    // (9.7.13.3, 9.7.13.9-14), which the model does not follow (UNKNOWN).
    // Executing a collective of this kind with another mask, or waiting
    // at a barrier, instead is a membermask violation (REFUTED).
    SmallVector<Term> exits;
    for (const BarrierArrival &a : result.arrivals)
      if (!a.barrier && a.phase == r.phase) {
        llvm::DenseMap<Term, Term> m = atW;
        renameFresh({a.pathCondition}, m);
        exits.push_back(T.substitute(a.pathCondition, m));
      }
    Term exitsFirst = T.andOf(T.orOf(exits), T.notOf(T.orOf(sameName)));
    std::string what = collectiveName(r.op).str();
    Term missing = T.andOf({r.pc, r.namedLane, T.notOf(T.orOf(runs))});
    result.alignments.push_back(
        {T.andOf(missing, T.notOf(exitsFirst)), T.boolConst(false), r.loc,
         "every lane named in the membermask executes a " + what +
             " with the same membermask"});
    result.resolutions.push_back(
        {T.andOf(missing, exitsFirst), r.loc,
         "no lane named in the membermask of " + what +
             " exits without executing it",
         false,
         "a lane named in the membermask may exit without executing the " +
             what +
             " (the PTX ISA then waits only for the lanes that have not "
             "exited, which is not yet modeled)"});
  }
  // Deadlock freedom among the collectives: every lane executes them in
  // an order consistent with one order of all of them (the graph of
  // "executed before, on some path" is acyclic). With the pairing above,
  // the first collective a lane is stuck at would otherwise have a named
  // lane stuck at an earlier one. A cycle (lane 0 at masks 0x3 then 0x7,
  // lane 1 at 0x7 then 0x3) may deadlock: UNKNOWN.
  llvm::StringMap<unsigned> colour;
  std::string cycleAt;
  std::function<bool(const std::string &)> cyclic = [&](const std::string &n) {
    colour[n] = 1;
    auto it = collectiveEdges.find(n);
    if (it != collectiveEdges.end())
      for (const std::string &m : it->second) {
        unsigned c = colour.lookup(m);
        if (c == 1 || (c == 0 && cyclic(m))) {
          if (cycleAt.empty())
            cycleAt = n + " and " + m;
          return true;
        }
      }
    colour[n] = 2;
    return false;
  };
  for (auto &[n, succ] : collectiveEdges)
    if (colour.lookup(n) == 0 && cyclic(n))
      break;
  if (!cycleAt.empty())
    result.resolutions.push_back(
        {T.boolConst(true), kernel.getLoc(),
         "the warp collectives run in one order on every path", false,
         "lanes may execute warp collectives in different orders (" + cycleAt +
             "): a deadlock between them is not ruled out (not yet "
             "modeled)"});
}

unsigned Executor::noteCollective(State &s, Operation *op, Term mask) {
  std::string kind = collectiveName(op).str();
  for (StringRef q : {"mode", "kind", "is_signed"})
    if (Attribute a = op->getAttr(q)) {
      std::string str;
      llvm::raw_string_ostream os(str);
      os << a;
      kind += " " + str;
    }
  if (isa<MatchOp>(op)) {
    std::string str;
    llvm::raw_string_ostream os(str);
    os << op->getOperand(0).getType();
    kind += " " + str;
  }
  if (mask->getKind() == Kind::BVConst)
    kind += " mask 0x" + llvm::utohexstr(mask->getAPInt().getZExtValue());
  unsigned kth = s.collectiveCounts[kind]++;
  noteOrdered(s,
              (kind + " #" + Twine(kth) + " in phase " + Twine(s.phase)).str());
  return kth;
}

void Executor::noteOrdered(State &s, const std::string &key) {
  if (!s.lastCollective.empty())
    collectiveEdges[s.lastCollective].insert(key);
  collectiveEdges[key];
  s.lastCollective = key;
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

GenerationOrder kproof::engine::GenerationOrder::build(
    llvm::ArrayRef<BarrierArrival> paths,
    llvm::function_ref<bool(const BarrierArrival &)> alwaysTaken) {
  GenerationOrder g;
  // For `must`: per arrival (k2, j), the generation of each barrier that
  // every path making it waited for before (the minimum over the paths).
  std::map<Node, std::map<unsigned, unsigned>> common;
  for (const BarrierArrival &a : paths) {
    if (a.barrier)
      continue;
    bool always = false, asked = false;
    std::map<unsigned, unsigned> waited;
    for (const BarrierEvent &e : a.events) {
      if (e.cta)
        continue;
      g.ids.insert(e.id);
      // A counted barrier's waiting arrival (bar.sync id, n) arrives and
      // waits for its own generation; an mbarrier wait only waits
      // (BarrierEvent::arrives).
      bool arrives = e.arrives;
      if (arrives) {
        Node to{e.id, e.index};
        for (auto &[id, k] : waited) {
          g.may[{id, k}].insert(to);
          if (!asked && k > 0) {
            always = alwaysTaken(a);
            asked = true;
          }
          if (always && k > 0)
            g.must[{id, k}].insert(to);
        }
        auto [it, fresh] = common.try_emplace(to, waited);
        if (!fresh)
          for (auto &[id, k] : it->second) {
            auto w = waited.find(id);
            k = w == waited.end() ? 0 : std::min(k, w->second);
          }
      }
      if (e.waits)
        waited[e.id] = std::max(waited[e.id], e.index);
    }
  }
  for (auto &[to, from] : common)
    for (auto &[id, k] : from)
      if (k > 0)
        g.must[{id, k}].insert(to);
  return g;
}

bool kproof::engine::GenerationOrder::reaches(bool mustOrder, unsigned id1,
                                              unsigned g1, unsigned id2,
                                              unsigned g2) const {
  if (id1 == id2 && g1 <= g2)
    return true;
  const std::map<Node, std::set<Node>> &edges = mustOrder ? must : may;
  // Breadth-first over the generations reached: the earliest generation
  // reached per barrier suffices (later ones of it complete after).
  std::map<unsigned, unsigned> earliest{{id1, g1}};
  std::vector<Node> work{{id1, g1}};
  while (!work.empty()) {
    auto [id, g] = work.back();
    work.pop_back();
    if (id == id2 && g <= g2)
      return true;
    // Edges leave (id, k) for every k >= g.
    for (auto it = edges.lower_bound({id, g});
         it != edges.end() && it->first.first == id; ++it)
      for (const Node &n : it->second) {
        auto e = earliest.find(n.first);
        if (e != earliest.end() && e->second <= n.second)
          continue;
        earliest[n.first] = n.second;
        work.push_back(n);
      }
  }
  return false;
}

Term kproof::engine::orderedByCountedBarriers(
    TermContext &T, llvm::ArrayRef<BarrierClock> first,
    llvm::ArrayRef<BarrierClock> second,
    llvm::function_ref<Term(unsigned id)> firstParticipates,
    const GenerationOrder *order) {
  auto arrivals = [&](unsigned id) {
    for (const BarrierClock &c : first)
      if (c.id == id)
        return c.arrivals;
    return 0u;
  };
  SmallVector<Term> orders;
  // Direct: `second` waited for generation b.lastWait, which completes
  // only after `first`'s arrival number a + 1 (the first after its
  // access). (A thread waiting at an mbarrier need not arrive at it.)
  for (const BarrierClock &b : second) {
    unsigned a = arrivals(b.id);
    if (b.lastWait <= a)
      continue;
    orders.push_back(a >= 1 ? T.boolConst(true) : firstParticipates(b.id));
  }
  // Through third threads: first's next arrival at k1 comes before a
  // generation `second` waited for.
  if (order)
    for (unsigned k1 : order->ids) {
      unsigned a = arrivals(k1);
      if (llvm::any_of(second, [&](const BarrierClock &b) {
            return b.id == k1 && b.lastWait > a;
          }))
        continue; // the direct order above
      if (llvm::any_of(second, [&](const BarrierClock &b) {
            return b.lastWait > 0 && order->reaches(/*mustOrder=*/true, k1,
                                                    a + 1, b.id, b.lastWait);
          }))
        orders.push_back(a >= 1 ? T.boolConst(true) : firstParticipates(k1));
    }
  return T.orOf(orders);
}

bool kproof::engine::mayBeOrderedByCountedBarriers(
    llvm::ArrayRef<BarrierClock> first, llvm::ArrayRef<BarrierClock> second,
    const GenerationOrder &order,
    llvm::function_ref<bool(unsigned)> firstMayTakePart) {
  std::set<unsigned> ids = order.ids;
  for (const BarrierClock &c : first)
    ids.insert(c.id);
  for (unsigned k1 : ids) {
    if (firstMayTakePart && !firstMayTakePart(k1))
      continue;
    unsigned a = 0;
    for (const BarrierClock &c : first)
      if (c.id == k1)
        a = c.arrivals;
    // Through another barrier: the direct order (k1 itself) is exact.
    for (const BarrierClock &b : second)
      if (b.lastWait > 0 && b.id != k1 &&
          order.reaches(/*mustOrder=*/false, k1, a + 1, b.id, b.lastWait))
        return true;
  }
  return false;
}

Term kproof::engine::linearThreadId(TermContext &T,
                                    const LaunchConfig &launch) {
  static const char *dims[] = {"tid.x", "tid.y", "tid.z"};
  Term lin = T.bv(0, 32), stride = T.bv(1, 32);
  for (int d = 0; d < 3; ++d) {
    Term extent = launch.extentOf(T, dims[d]);
    if (launch.block[d] > 1)
      lin = T.bvBin(Kind::BVAdd, lin,
                    T.bvBin(Kind::BVMul, T.bvVar(dims[d], 32), stride));
    stride = T.bvBin(Kind::BVMul, stride, extent);
  }
  return lin;
}

Term kproof::engine::orderedByWarpSyncs(
    TermContext &T, const std::map<uint32_t, unsigned> &first,
    const std::map<uint32_t, unsigned> &second, Term firstLin, Term secondLin) {
  auto c32 = [&](uint64_t v) { return T.bv(v, 32); };
  auto inMask = [&](uint32_t m, Term lin) {
    Term lane = T.bvBin(Kind::BVURem, lin, c32(32));
    return T.eq(
        T.bvBin(Kind::BVAnd, T.bvBin(Kind::BVLShr, c32(m), lane), c32(1)),
        c32(1));
  };
  SmallVector<Term> named;
  for (auto &[m, c2] : second) {
    auto it = first.find(m);
    if (c2 <= (it == first.end() ? 0 : it->second))
      continue;
    named.push_back(m == 0xffffffffu
                        ? T.boolConst(true)
                        : T.andOf(inMask(m, firstLin), inMask(m, secondLin)));
  }
  if (named.empty())
    return T.boolConst(false);
  return T.andOf(T.eq(T.bvBin(Kind::BVUDiv, firstLin, c32(32)),
                      T.bvBin(Kind::BVUDiv, secondLin, c32(32))),
                 T.orOf(named));
}
