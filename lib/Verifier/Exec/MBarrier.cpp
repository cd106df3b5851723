//===- MBarrier.cpp - mbarrier objects ------------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The mbarrier cases of execOp (execMBarrierOp): mbarrier.init, arrive,
// test_wait / try_wait and inval on objects in shared memory (PTX ISA
// 9.7.13.15), in a multi-thread launch.
//
// An mbarrier object is identified by its shared variable and a constant
// byte offset, and joins the counted-barrier clocks under its own id
// (kMBarrierIdBase + k): an arrival counts in BarrierClock::arrivals, a
// wait that observes phase k - 1 complete sets BarrierClock::lastWait to
// k. Every participant arriving once per phase, a thread's (a+1)-th
// arrival belongs to phase a, so an access made after a arrivals comes
// before any access of a thread that waited for phase a or later
// (orderedByCountedBarriers): the same order as a counted barrier's
// generations. The obligations that make this so (one initializer, before
// every use; the init count equals the participants; equal arrival
// counts; waits that complete; arrivals that do not run ahead into the
// phase they are still in) are discharged by checkMBarriers over the
// events recorded here (ExecutionResult::mbarrierEvents).
//
// A wait is modeled as the spin loop compilers and libraries wrap it in
// (MBarrierWaitOp::isSpinLoop): the thread goes on once the phase is
// complete. A .parity wait names the first phase the thread has not seen
// complete (its parity equals that count's): it orders the thread after
// that phase. With the other parity it names the phase before, which is
// complete: it passes at once and orders nothing new.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

std::optional<bool> Executor::execMBarrierOp(State &s, Operation *op) {
  if (!isa<MBarrierInitOp, MBarrierArriveOp, MBarrierWaitOp, MBarrierInvalOp>(
          op))
    return std::nullopt;
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  auto advance = [&](State &) {
    ++f.it;
    return true;
  };
  auto bits = [&](Value v) { return bitsOperand(f, v, loc); };
  if (!isMultiThread()) {
    unknown(loc, "mbarrier operations in a launch of one thread are not "
                 "modeled");
    return false;
  }
  Value address;
  int64_t offset = 0;
  StateSpace space = StateSpace::Shared;
  llvm::TypeSwitch<Operation *>(op)
      .Case<MBarrierInitOp, MBarrierArriveOp, MBarrierWaitOp, MBarrierInvalOp>(
          [&](auto o) {
            address = o.getAddr();
            offset = o.getOffset();
            space = o.getSpace();
          });

  // The object: a shared variable and a constant byte offset.
  Term addr, off;
  std::string name;
  if (!resolveAccess(f, address, offset, space, loc, addr, name, off))
    return false;
  Region *r = *regionOf("&" + name);
  if (r->space != StateSpace::Shared) {
    s.violations.push_back("mbarrier object in '" + displayVariable(name) +
                           "', which is not shared memory");
    s.violationLocs.push_back(loc);
    return advance(s);
  }
  if (off->getKind() != Kind::BVConst) {
    unknown(loc, "an mbarrier object at an address that is not a constant "
                 "(an array of mbarriers indexed by a thread id or data) is "
                 "not modeled");
    return false;
  }
  uint64_t o = off->getAPInt().getZExtValue();
  if (o % 8 != 0 || (r->bytes && o + 8 > r->bytes)) {
    s.violations.push_back(
        "the 8-byte mbarrier object at byte " + std::to_string(o) + " of '" +
        displayVariable(name) + "' is " +
        (o % 8 != 0 ? "not 8-byte aligned" : "out of bounds"));
    s.violationLocs.push_back(loc);
    return advance(s);
  }
  unsigned id = mbarrierIds
                    .try_emplace({name, o},
                                 kMBarrierIdBase + unsigned(mbarrierIds.size()))
                    .first->second;
  result.mbarrierNames[id] = "mbarrier shared '" + displayVariable(name) + "'" +
                             (o ? " + " + std::to_string(o) : "");
  result.mbarrierObjects[id] = {name, o};
  if (result.valueUnknownReason.empty())
    result.valueUnknownReason =
        "values passed between threads through mbarriers are not yet "
        "modeled by the value proof";

  MBarrierEvent e(loc);
  e.id = id;
  e.phase = s.phase;
  e.pathCondition = s.pc;
  e.clock = s.clock;
  auto init = s.mbarrierInits.find(id);
  e.ownInit = init != s.mbarrierInits.end() && init->second == s.phase;
  auto entry = [&]() -> BarrierClock & {
    auto it = llvm::find_if(s.clock,
                            [&](const BarrierClock &c) { return c.id >= id; });
    if (it == s.clock.end() || it->id != id)
      it = s.clock.insert(it, BarrierClock{id, 0, 0});
    return *it;
  };
  auto constant = [&](Value v, StringRef what) -> std::optional<uint64_t> {
    Term t = bits(v);
    if (!t)
      return std::nullopt;
    if (t->getKind() != Kind::BVConst) {
      unknown(loc, what + Twine(" that is not a constant (after unrolling) "
                                "is not modeled"));
      return std::nullopt;
    }
    return t->getAPInt().getZExtValue();
  };

  if (auto in = dyn_cast<MBarrierInitOp>(op)) {
    e.kind = MBarrierEvent::Kind::Init;
    if (init != s.mbarrierInits.end()) {
      s.violations.push_back("the live " + result.mbarrierNames[id] +
                             " initialized again by the same thread (no "
                             "mbarrier.inval between)");
      s.violationLocs.push_back(loc);
      return advance(s);
    }
    // A second lifetime (init after inval): the phases start again, which
    // the clocks of the threads that used the first one do not model.
    if (llvm::any_of(s.clock,
                     [&](const BarrierClock &c) { return c.id == id; }) ||
        s.mbarrierInvals.count(id) ||
        llvm::any_of(result.mbarrierEvents, [&](const MBarrierEvent &o) {
          return o.id == id && o.kind == MBarrierEvent::Kind::Inval;
        })) {
      unknown(loc, "an mbarrier initialized again after it was used or "
                   "invalidated (a second lifetime) is not modeled");
      return false;
    }
    if (s.mbarrierUses.count(id)) {
      s.violations.push_back("the " + result.mbarrierNames[id] +
                             " used by this thread before its init");
      s.violationLocs.push_back(loc);
      return advance(s);
    }
    e.count = bits(in.getCount());
    if (!e.count)
      return false;
    s.mbarrierInits[id] = s.phase;
    s.mbarrierInvals.erase(id);
    result.mbarrierEvents.push_back(std::move(e));
    return advance(s);
  }
  if (s.mbarrierInvals.count(id)) {
    s.violations.push_back("the " + result.mbarrierNames[id] +
                           " used by this thread after its mbarrier.inval");
    s.violationLocs.push_back(loc);
    return advance(s);
  }
  s.mbarrierUses.insert(id);
  if (isa<MBarrierInvalOp>(op)) {
    e.kind = MBarrierEvent::Kind::Inval;
    s.mbarrierInits.erase(id);
    s.mbarrierUses.erase(id);
    s.mbarrierInvals.insert(id);
    result.mbarrierEvents.push_back(std::move(e));
    return advance(s);
  }
  if (auto ar = dyn_cast<MBarrierArriveOp>(op)) {
    if (Value c = ar.getCount()) {
      std::optional<uint64_t> n = constant(c, "an mbarrier.arrive count");
      if (!n)
        return false;
      if (*n != 1) {
        unknown(loc, "mbarrier.arrive with a count other than 1 is not "
                     "modeled yet");
        return false;
      }
    }
    e.kind = MBarrierEvent::Kind::Arrive;
    BarrierClock &c = entry();
    e.generation = ++c.arrivals;
    s.events.push_back({false, id, c.arrivals, false, loc});
    if (Value st = ar.getState()) {
      Term token = fresh("mbarrier.state", Sort::BV, 64);
      mbarrierTokens[token] = {id, c.arrivals};
      set(f, st, token);
    }
    result.mbarrierEvents.push_back(std::move(e));
    return advance(s);
  }
  auto wait = cast<MBarrierWaitOp>(op);
  if (!wait.isSpinLoop()) {
    unknown(loc, "an mbarrier test_wait/try_wait whose result is not the "
                 "exit test of a spin loop (retrying until the phase "
                 "completes) is not modeled");
    return false;
  }
  e.kind = MBarrierEvent::Kind::Wait;
  BarrierClock &c = entry();
  e.generation = c.lastWait;
  unsigned seen = c.lastWait;
  if (wait.getParity()) {
    std::optional<uint64_t> p =
        constant(wait.getPhase(), "an mbarrier wait parity");
    if (!p)
      return false;
    // The parity of the first phase not seen complete (phase `seen`):
    // wait for it; the other parity names phase seen - 1, complete.
    if ((*p & 1) == (seen & 1))
      seen += 1;
    else
      e.passesEarly = true;
  } else {
    Term t = bits(wait.getPhase());
    if (!t)
      return false;
    auto it = mbarrierTokens.find(t);
    if (it == mbarrierTokens.end() || it->second.first != id) {
      unknown(loc, "an mbarrier wait on a state that is not the result of "
                   "an mbarrier.arrive on the same object (on this path) is "
                   "not modeled");
      return false;
    }
    // The phase of the thread's own arrival (its number - 1) completes;
    // the state names that phase (it must be the current or the one
    // before: checkMBarriers asks as for a parity).
    seen = std::max(seen, it->second.second);
    e.generation = it->second.second - 1;
  }
  if (seen > c.lastWait) {
    c.lastWait = seen;
    s.events.push_back({false, id, seen, /*waits=*/true, loc,
                        /*arrives=*/false});
  }
  result.mbarrierEvents.push_back(std::move(e));
  set(f, wait.getComplete(), T.boolConst(true));
  return advance(s);
}

void Executor::findUnalignedArrivals() {
  using K = MBarrierEvent::Kind;
  for (auto &[id, name] : result.mbarrierNames) {
    // A count of 1: every arrival completes its own phase.
    std::optional<uint64_t> count;
    bool oneCount = true;
    for (const MBarrierEvent &e : result.mbarrierEvents)
      if (e.id == id && e.kind == K::Init) {
        if (e.count->getKind() != Kind::BVConst ||
            (count && *count != e.count->getAPInt().getZExtValue()))
          oneCount = false;
        else
          count = e.count->getAPInt().getZExtValue();
      }
    if (oneCount && count == 1u)
      continue;
    for (const MBarrierEvent &e : result.mbarrierEvents) {
      if (e.id != id || e.kind != K::Arrive || e.generation < 2)
        continue;
      unsigned g = e.generation;
      // Ordered after generation g - 1 (the phase of the previous
      // arrival) by a wait of the thread, directly or through other
      // barriers; or every (g-1)-th arrival is in an earlier CTA phase.
      bool after = llvm::any_of(e.clock, [&](const BarrierClock &c) {
        return c.lastWait >= 1 &&
               result.generations.reaches(/*mustOrder=*/true, id, g - 1, c.id,
                                          c.lastWait);
      });
      bool earlierPhases =
          llvm::all_of(result.mbarrierEvents, [&](const MBarrierEvent &o) {
            return o.id != id || o.kind != K::Arrive || o.generation != g - 1 ||
                   o.phase < e.phase;
          });
      if (after || earlierPhases)
        continue;
      result.mbarrierUnaligned[id] =
          "the arrival at " + locString(e.loc) + " (the thread's arrival " +
          std::to_string(g) + " at the " + name +
          ") is not ordered after the completion of the phase of its "
          "previous one: it may join that phase, which is not modeled";
      break;
    }
  }
}

} // namespace kproof::engine::exec
