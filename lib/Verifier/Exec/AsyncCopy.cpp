//===- AsyncCopy.cpp - cp.async and its groups
//-----------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The asynchronous-copy cases of execOp (execAsyncCopyOp): cp.async,
// cp.async.commit_group and cp.async.wait_group / wait_all (PTX ISA:
// cp.async, sm_80), in a multi-thread launch.
//
// A cp.async copies elements of an input buffer into shared memory: its
// writes are recorded at issue, with the values of the source elements
// (zeros past src-size, or all zeros under ignore-src), as accesses that
// may be performed in any phase from the issue until the issuing thread's
// cp.async.wait that completes the copy (MemoryAccess::async, phaseEnd):
// the race checks pair them with every other thread's access of those
// phases. Until then the thread's own accesses of the destination bytes
// are data races too (SharedMemoryModel::recordAccess adds the
// obligation); after the wait its own reads see the copied values
// (State::sharedWrites), and other threads' reads in a later phase resolve
// to them as to any shared write.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

bool Executor::completeAsyncCopy(State &s, const State::AsyncCopy &c,
                                 unsigned phase, Location loc) {
  for (size_t i = c.firstAccess; i < c.firstAccess + c.numAccesses; ++i) {
    MemoryAccess &a = result.accesses[i];
    if (a.phaseEnd != MemoryAccess::kNotYetCompleted && a.phaseEnd != phase) {
      unknown(loc, "the cp.async at " + locString(c.loc) +
                       " completes in different barrier phases on different "
                       "paths: not modeled");
      return false;
    }
    a.phaseEnd = phase;
    // The write is ordered by counted barriers as of its issue (its
    // clock): one passed while it is in flight would order it wrongly.
    if (phase != MemoryAccess::kNeverCompleted &&
        a.clock != s.clock) {
      unknown(loc, "a cp.async (at " + locString(c.loc) +
                       ") in flight across a counted barrier (bar.sync or "
                       "bar.arrive with a thread count) is not modeled");
      return false;
    }
  }
  if (phase == MemoryAccess::kNeverCompleted)
    return true;
  for (State::SharedWrite w : c.writes) {
    w.phase = s.phase;
    s.sharedWrites.push_back(std::move(w));
  }
  return true;
}

std::optional<bool> Executor::execAsyncCopyOp(State &s, Operation *op) {
  if (!isa<CpAsyncOp, CpAsyncCommitOp, CpAsyncWaitOp>(op))
    return std::nullopt;
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  if (!isMultiThread()) {
    unknown(loc, "cp.async in a launch of one thread is not modeled");
    return false;
  }
  // The copies not yet in a group form the newest group (maybe empty).
  auto commitGroup = [&] {
    for (State::AsyncCopy &c : s.asyncCopies)
      if (c.group < 0)
        c.group = s.asyncGroups;
    ++s.asyncGroups;
  };
  if (isa<CpAsyncCommitOp>(op)) {
    commitGroup();
    ++f.it;
    return true;
  }
  if (auto w = dyn_cast<CpAsyncWaitOp>(op)) {
    // wait_all is commit_group + wait_group 0.
    if (w.getAll())
      commitGroup();
    // Groups older than the newest `pending` ones are complete.
    int64_t pending = w.getAll() ? 0 : int64_t(*w.getPending());
    int64_t completeBelow = s.asyncGroups - pending;
    std::vector<State::AsyncCopy> inFlight;
    for (State::AsyncCopy &c : s.asyncCopies) {
      if (c.group < 0 || c.group >= completeBelow) {
        inFlight.push_back(std::move(c));
        continue;
      }
      if (!completeAsyncCopy(s, c, s.phase, loc))
        return false;
    }
    s.asyncCopies = std::move(inFlight);
    ++f.it;
    return true;
  }

  auto cp = cast<CpAsyncOp>(op);
  Term dAddr, sAddr, dOff, sOff;
  std::string dName, sName;
  if (!resolveAccess(f, cp.getDst(), cp.getDstOffset(), StateSpace::Shared, loc,
                     dAddr, dName, dOff) ||
      !resolveAccess(f, cp.getSrc(), cp.getSrcOffset(), StateSpace::Global, loc,
                     sAddr, sName, sOff))
    return false;
  Region *dr = *regionOf("&" + dName);
  Region *sr = *regionOf("&" + sName);
  if (dr->space != StateSpace::Shared) {
    unknown(loc, "cp.async to '" + dName + "', which is not shared memory");
    return false;
  }
  if (!dr->bytes) {
    unknown(loc, "dynamic shared memory '" + dName +
                     "': its size is not in the contract (dynamic_shared)");
    return false;
  }
  if (!sr->buffer || sr->buffer->role != BufferBinding::Role::In) {
    unknown(loc, "cp.async from '" + sName +
                     "', which is not an input buffer of the contract, is "
                     "not modeled");
    return false;
  }
  uint64_t size = cp.getSize();
  unsigned e = sr->buffer->elemBytes();
  if (size % e != 0) {
    unknown(loc, "a cp.async of " + Twine(size) + " bytes from '" + sName +
                     "', whose elements have " + Twine(e) + " bytes");
    return false;
  }
  unsigned lanes = size / e;
  // Which source elements are read: all, the first src-size bytes, or none
  // under ignore-src; the others are filled with zeros.
  SmallVector<Term, 4> present(lanes, T.boolConst(true));
  if (Value n = cp.getSrcSize()) {
    Term bytes = bitsOperand(f, n, loc);
    if (!bytes)
      return false;
    // PTX ISA (cp.async): a src-size larger than cp-size is undefined.
    result.alignments.push_back(
        {s.pc, T.bvUle(bytes, T.bv(size, 32)), loc,
         "src-size of the cp.async at most its cp-size of " +
             Twine(size).str() + " bytes (larger is undefined behaviour)"});
    Term partial = T.boolConst(false);
    for (unsigned k = 0; k < lanes; ++k) {
      present[k] = T.bvUle(T.bv((k + 1) * e, 32), bytes);
      if (e > 1)
        partial =
            T.orOf(partial, T.andOf(T.bvUlt(T.bv(k * e, 32), bytes),
                                    T.bvUlt(bytes, T.bv((k + 1) * e, 32))));
    }
    if (partial->getKind() != Kind::BoolConst &&
        mayHold(T.andOf(s.pc, partial))) {
      unknown(loc, "a cp.async whose src-size may end inside an element of '" +
                       sName + "' is not modeled");
      return false;
    }
    if (partial->getKind() == Kind::BoolConst && partial->getBoolValue()) {
      unknown(loc, "a cp.async whose src-size ends inside an element of '" +
                       sName + "' is not modeled");
      return false;
    }
  } else if (Value ig = cp.getIgnoreSrc()) {
    Term p = bitsOperand(f, ig, loc);
    if (!p)
      return false;
    Term read = T.notOf(p);
    for (Term &t : present)
      t = read;
  }
  Term anyRead = T.orOf(ArrayRef<Term>(present));
  // Both addresses are aligned to cp-size; the destination lies inside its
  // variable, each element read inside the source buffer.
  sharedMemory.sharedBounds(s, "cp.async to", dName, dOff, size, dr->bytes,
                            loc);
  result.alignments.push_back(
      {T.andOf(s.pc, anyRead),
       T.eq(T.bvBin(Kind::BVURem, sOff, T.bv(size, 64)), T.bv(0, 64)), loc,
       "alignment of the cp.async source in " + sName});
  Term index = T.bvBin(Kind::BVUDiv, sOff, T.bv(e, 64));
  bool isFloat = isa<FloatType>(sr->elemType);
  unsigned bits = sr->elemType.getIntOrFloatBitWidth();
  size_t firstAccess = result.accesses.size();
  State::AsyncCopy copy{dName, dOff,        unsigned(size), -1,
                        loc,   firstAccess, lanes,          {}};
  for (unsigned k = 0; k < lanes; ++k) {
    Term at = T.bvBin(Kind::BVAdd, index, T.bv(k, 64));
    result.alignments.push_back(
        {T.andOf(s.pc, present[k]),
         T.bvUlt(at, sr->buffer->numElementsTerm(T, launch)), loc,
         "cp.async source inside " + sName + "'s extent of " +
             sr->buffer->extentText() + " elements"});
    Term v = isFloat ? T.element(sName, at) : T.intElement(sName, at, bits);
    Term zero = isFloat ? T.real(0) : T.bv(0, bits);
    v = T.ite(present[k], v, zero);
    Term o = T.bvBin(Kind::BVAdd, dOff, T.bv(k * e, 64));
    sharedMemory.recordAccess(s, op, /*write=*/true, dName, /*shared=*/true, o,
                              e, v, loc);
    MemoryAccess &a = result.accesses.back();
    a.async = true;
    a.phaseEnd = MemoryAccess::kNotYetCompleted; // not yet completed
    copy.writes.push_back({s.phase, dName, o, e, v, false});
  }
  copy.numAccesses = result.accesses.size() - firstAccess;
  s.asyncCopies.push_back(std::move(copy));
  ++s.occurrences[op];
  ++f.it;
  return true;
}

} // namespace kproof::engine::exec
