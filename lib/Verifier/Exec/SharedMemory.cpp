//===- SharedMemory.cpp - memory other threads write ----------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The model of memory other threads write (class SharedMemoryModel,
// SharedMemory.h; docs/verify-sync.md "The model"): shared loads and stores
// (`sharedLoad`, `sharedStore`) with their alignment and bounds obligations,
// every access recorded for the race checks (`recordAccess`); a shared read
// resolves against the thread's own writes of the phase, else the writes of
// earlier phases by the writer thread found by inverting the write's address
// (`writerMatch`, `warpWriter`), with obligations that the writer is unique and
// that some thread wrote the element; reads under counted barriers and reads of
// global buffers other threads write (`deferGlobalRead`) are checked when every
// path has run (`checkCountedReads`, `checkGlobalReads`). Also
// `pinnedThreadVars` and `displayVariable` (Executor.h).
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"

#include "ExecutorImpl.h"

#include "llvm/Demangle/Demangle.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

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

namespace kproof::engine::exec {

SharedMemoryModel::SharedMemoryModel(Executor &ex, TermContext &T,
                                     ExecutionResult &result,
                                     const LaunchConfig &launch)
    : ex(ex), T(T), result(result), launch(launch) {}

std::string SharedMemoryModel::unguessable(Location write) {
  return "the writer thread of the shared write at " + locationString(write) +
         " is not determined by its address (not a linear form of the "
         "thread ids): whether some thread wrote the element read is not "
         "decided";
}

std::optional<std::pair<Term, Term>>
SharedMemoryModel::warpWriter(const MemoryAccess &w, Term a, bool &guessed) {
  guessed = false;
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
  if (!lane) {
    lane = T.bv(0, x->getWidth());
    guessed = true;
  }
  // X = D * ((a - c0) / k) + c.
  unsigned wx = x->getWidth();
  Term slot = T.bvBin(Kind::BVUDiv,
                      T.bvBin(Kind::BVSub, a, T.bv(c0, a->getWidth())),
                      T.bv(k, a->getWidth()));
  Term slotX = a->getWidth() > wx ? T.bvExtract(slot, 0, wx) : slot;
  return std::make_pair(
      x, T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, slotX, d), *lane));
}

namespace {
/// One bit of a term as a GF(2)-affine function of the thread-id bits:
/// the xor of the input bits in `mask`, xor `c`.
struct AffineBit {
  uint64_t mask = 0;
  bool c = false;
  bool isZero() const { return !mask && !c; }
};
using AffineBits = SmallVector<AffineBit, 64>;

/// The bits of BV term `t` as GF(2)-affine functions of the bits of the
/// thread ids (`inputs`: each id's first input bit and bit count; an id is
/// below 2^count, its higher bits 0), through constants, and-masks, xor,
/// or and add of operands with no set bit in common (no carries), constant
/// shifts, multiplication by a power of two, extensions and extracts: the
/// XOR swizzles of shared-memory layouts. Null for any other form.
class AffineEvaluator {
public:
  explicit AffineEvaluator(
      const llvm::DenseMap<Term, std::pair<unsigned, unsigned>> &inputs)
      : inputs(inputs) {}

  const AffineBits *eval(Term t) {
    auto it = memo.find(t);
    if (it != memo.end())
      return it->second ? &*it->second : nullptr;
    std::optional<AffineBits> r = compute(t);
    auto &slot = memo[t];
    slot = std::move(r);
    return slot ? &*slot : nullptr;
  }

private:
  std::optional<AffineBits> compute(Term t) {
    unsigned w = t->getWidth();
    if (t->getSort() != Sort::BV || w == 0 || w > 64)
      return std::nullopt;
    AffineBits out(w);
    auto constShift = [&](Term amt) -> std::optional<unsigned> {
      if (amt->getKind() != Kind::BVConst ||
          amt->getAPInt().getActiveBits() > 7)
        return std::nullopt;
      return amt->getAPInt().getZExtValue();
    };
    switch (t->getKind()) {
    case Kind::BVConst:
      for (unsigned i = 0; i < w; ++i)
        out[i].c = t->getAPInt()[i];
      return out;
    case Kind::BVVar: {
      auto in = inputs.find(t);
      if (in == inputs.end())
        return std::nullopt;
      for (unsigned i = 0; i < w && i < in->second.second; ++i)
        out[i].mask = uint64_t(1) << (in->second.first + i);
      return out;
    }
    case Kind::BVAnd: {
      Term x = t->getOperand(0), m = t->getOperand(1);
      if (x->getKind() == Kind::BVConst)
        std::swap(x, m);
      const AffineBits *a = m->getKind() == Kind::BVConst ? eval(x) : nullptr;
      if (!a)
        return std::nullopt;
      for (unsigned i = 0; i < w; ++i)
        if (m->getAPInt()[i])
          out[i] = (*a)[i];
      return out;
    }
    case Kind::BVXor:
    case Kind::BVOr:
    case Kind::BVAdd: {
      const AffineBits *a = eval(t->getOperand(0));
      const AffineBits *b = a ? eval(t->getOperand(1)) : nullptr;
      if (!b)
        return std::nullopt;
      for (unsigned i = 0; i < w; ++i) {
        const AffineBit &x = (*a)[i], &y = (*b)[i];
        if (t->getKind() != Kind::BVXor && !x.isZero() && !y.isZero())
          return std::nullopt; // a carry or an overlap
        out[i] = {x.mask ^ y.mask, x.c != y.c};
      }
      return out;
    }
    case Kind::BVMul: {
      Term x = t->getOperand(0), k = t->getOperand(1);
      if (x->getKind() == Kind::BVConst)
        std::swap(x, k);
      if (k->getKind() != Kind::BVConst || !k->getAPInt().isPowerOf2())
        return std::nullopt;
      const AffineBits *a = eval(x);
      if (!a)
        return std::nullopt;
      unsigned sh = k->getAPInt().logBase2();
      for (unsigned i = sh; i < w; ++i)
        out[i] = (*a)[i - sh];
      return out;
    }
    case Kind::BVShl:
    case Kind::BVLShr:
    case Kind::BVAShr: {
      std::optional<unsigned> sh = constShift(t->getOperand(1));
      const AffineBits *a = sh ? eval(t->getOperand(0)) : nullptr;
      if (!a)
        return std::nullopt;
      for (unsigned i = 0; i < w; ++i) {
        if (t->getKind() == Kind::BVShl) {
          if (i >= *sh)
            out[i] = (*a)[i - *sh];
        } else if (i + *sh < w) {
          out[i] = (*a)[i + *sh];
        } else if (t->getKind() == Kind::BVAShr) {
          out[i] = (*a)[w - 1];
        }
      }
      return out;
    }
    case Kind::BVZExt:
    case Kind::BVSExt: {
      const AffineBits *a = eval(t->getOperand(0));
      if (!a)
        return std::nullopt;
      unsigned n = a->size();
      for (unsigned i = 0; i < w; ++i)
        out[i] = i < n                          ? (*a)[i]
                 : t->getKind() == Kind::BVSExt ? (*a)[n - 1]
                                                : AffineBit{};
      return out;
    }
    case Kind::BVExtract: {
      const AffineBits *a = eval(t->getOperand(0));
      if (!a)
        return std::nullopt;
      for (unsigned i = 0; i < w; ++i)
        out[i] = (*a)[t->getExtractLow() + i];
      return out;
    }
    default:
      return std::nullopt;
    }
  }

  const llvm::DenseMap<Term, std::pair<unsigned, unsigned>> &inputs;
  llvm::DenseMap<Term, std::optional<AffineBits>> memo;
};
} // namespace

bool SharedMemoryModel::xorWriter(const MemoryAccess &w, Term a,
                                  llvm::DenseMap<Term, Term> &sigma) {
  SmallVector<std::pair<Term, int64_t>> ids(ex.threadIdVars().begin(),
                                            ex.threadIdVars().end());
  return invertXorLayout(T, w.byteOffset, a, ids, sigma);
}

const std::optional<SharedMemoryModel::LinearOffset> &
SharedMemoryModel::linearOffset(Term t) {
  auto it = linearOffsets.find(t);
  if (it != linearOffsets.end())
    return it->second;
  LinearOffset l{0, {}};
  std::optional<LinearOffset> r;
  // The offset itself, else its index normal form (equal to it within the
  // declared thread-id bounds: nvcc's `i / D`, `i % D` of a flat index).
  if (t->getSort() == Sort::BV && t->getWidth() <= 64 &&
      (ex.linearize(t, 1, l.c0, l.coeffs) ||
       (l.c0 = 0, l.coeffs.clear(),
        ex.linearize(T.canonicalIndex(t), 1, l.c0, l.coeffs))))
    r = std::move(l);
  return linearOffsets[t] = std::move(r);
}

bool SharedMemoryModel::cannotHit(const MemoryAccess &w, Term a) {
  if (a->getSort() != Sort::BV || w.byteOffset->getSort() != Sort::BV ||
      a->getWidth() != w.byteOffset->getWidth())
    return false;
  const std::optional<LinearOffset> &lw = linearOffset(w.byteOffset);
  if (!lw)
    return false;
  const std::optional<LinearOffset> &la = linearOffset(a);
  if (!la)
    return false;
  // diff = (cw0 - ca0) + sum cw_i t'_i - sum ca_j t_j, t' the writer's ids
  // and t the reader's, each within [0, extent).
  __int128 lo = lw->c0 - la->c0, hi = lo, g = 0;
  auto addTerm = [&](Term var, __int128 c) {
    if (c == 0)
      return true;
    int64_t ext = ex.threadIdVars().lookup(var);
    if (ext <= 0)
      return false;
    __int128 span = c * __int128(ext - 1);
    (span < 0 ? lo : hi) += span;
    __int128 x = c < 0 ? -c : c;
    while (x != 0) { // g = gcd(g, |c|)
      __int128 r = g % x;
      g = x;
      x = r;
    }
    return true;
  };
  for (auto &[var, c] : lw->coeffs)
    if (!addTerm(var, c))
      return false;
  for (auto &[var, c] : la->coeffs)
    if (!addTerm(var, -c))
      return false;
  __int128 modulus = __int128(1) << a->getWidth();
  if (lo <= -modulus || hi >= modulus)
    return false; // a wrapped-around equality is not ruled out here
  if (lo > 0 || hi < 0)
    return true;
  __int128 d0 = lw->c0 - la->c0;
  return g != 0 && d0 % g != 0;
}

Term SharedMemoryModel::writerMatch(const MemoryAccess &w, Term a,
                                    llvm::DenseMap<Term, Term> &sigma,
                                    bool &exact, bool *injective,
                                    bool *onlyWriter) {
  // The witness: the writer thread w* with addr(w*) == a.
  if (injective)
    *injective = false;
  if (onlyWriter)
    *onlyWriter = false;
  for (auto &[var, ext] : ex.ctaIdVars())
    sigma[var] = var; // shared memory: the writer is in the same CTA
  __int128 c0 = 0;
  std::map<Term, __int128, TermIdLess> coeffs;
  llvm::DenseMap<Term, Term> pins = pinnedThreadVars(T, w.pathCondition);
  Term a64 = a;
  bool guessedLane = false;
  // The offset's index normal form: nvcc's signed `i / D` and `i % D` of
  // a flat index `i = tid + 16 k` (sign corrections, masks) read as the
  // linear form they are within the thread-id bounds. Only the witness is
  // computed from it; the match below compares the write's own offset.
  if (ex.linearize(w.byteOffset, 1, c0, coeffs) ||
      (c0 = 0, coeffs.clear(),
       ex.linearize(T.canonicalIndex(w.byteOffset), 1, c0, coeffs))) {
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
      // Injective: each coefficient at least the next smaller one times
      // that variable's (concrete) range.
      if (injective) {
        bool mixed = true;
        for (size_t k = 0; k + 1 < order.size(); ++k) {
          Term small = order[k + 1].first;
          auto ext = ex.threadIdVars().find(small);
          if (ext == ex.threadIdVars().end() || ext->second <= 0 ||
              order[k].second < order[k + 1].second * ext->second)
            mixed = false;
        }
        *injective = mixed;
        // Every thread id in the layout, whose values stay below 2^64:
        // a thread that writes at `a` has the digits the division below
        // computes (a mixed-radix representation is unique).
        __int128 top = 0;
        for (auto &[var, c] : order)
          top += c * __int128(ex.threadIdVars().lookup(var) - 1);
        if (onlyWriter)
          *onlyWriter =
              mixed && top < (__int128(1) << 64) && c0 >= 0 &&
              llvm::all_of(ex.threadIdVars(), [&](const auto &idExtent) {
                return coeffs.count(idExtent.first) &&
                       coeffs[idExtent.first] != 0;
              });
      }
      Term rem = T.bvBin(Kind::BVSub, a64, T.bv(APInt(64, uint64_t(c0), true)));
      for (auto &[var, c] : order) {
        Term cc = T.bv(uint64_t(c), 64);
        Term q = T.bvBin(Kind::BVUDiv, rem, cc);
        rem = T.bvBin(Kind::BVSub, rem, T.bvBin(Kind::BVMul, q, cc));
        sigma[var] = T.bvExtract(q, 0, 32);
      }
    }
  } else if (std::optional<std::pair<Term, Term>> lw =
                 warpWriter(w, a64, guessedLane)) {
    sigma[lw->first] = lw->second;
    if (injective)
      *injective = !guessedLane; // the elected lane writes its slot alone
  } else if (xorWriter(w, a64, sigma)) {
    // A GF(2)-affine (swizzled) layout, injective on the thread ids.
    if (injective)
      *injective = true;
  }
  exact = !guessedLane;
  llvm::DenseSet<Term> used;
  {
    SmallVector<Term> work{w.pathCondition, w.byteOffset};
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (used.insert(t).second)
        work.append(t->getOperands().begin(), t->getOperands().end());
    }
  }
  for (auto &[var, ext] : ex.threadIdVars())
    if (!sigma.count(var)) {
      auto p = pins.find(var);
      sigma[var] = p != pins.end() ? p->second : var;
      if (p == pins.end() && used.count(var))
        exact = false;
    }
  ex.renameFresh({w.pathCondition, w.byteOffset, w.value}, sigma);
  return T.andOf({T.substitute(w.pathCondition, sigma), ex.threadRange(sigma),
                  T.eq(T.substitute(w.byteOffset, sigma), a)});
}

void SharedMemoryModel::checkCountedReads() {
  // Accesses may also be ordered through a third thread's barriers of
  // two ids (t1 -> barrier 1 -> t2 -> barrier 2 -> t3): the orders every
  // execution has count (GenerationOrder::must); when some path could
  // make another chain (GenerationOrder::may), an unordered write is not
  // a verdict.
  bool bridged = llvm::any_of(result.generations.may, [&](const auto &e) {
    return llvm::any_of(e.second, [&](const GenerationOrder::Node &n) {
      return n.first != e.first.first;
    });
  });
  // Likewise through a lane's bar.warp.sync and then a barrier (the
  // elected lane that arrives for its warp).
  if (!result.warpSyncMasks.empty() &&
      llvm::any_of(result.arrivals, [](const BarrierArrival &a) {
        return !a.barrier && !a.clock.empty();
      }))
    bridged = true;
  // Likewise through a third lane's bar.warp.sync of two masks.
  const std::set<uint32_t> &warpMasks = result.warpSyncMasks;
  for (const PendingRead &r : pendingReads) {
    Term any = r.ownWrite;
    std::optional<Location> guessedWriter;
    for (const MemoryAccess &w : result.accesses) {
      if (!w.write || !w.shared || w.region != r.region || w.phase > r.phase)
        continue;
      if (w.atomic) {
        ex.unknown(r.loc, "a read of shared memory that atomics update ('" +
                              displayVariable(r.region) +
                              "') is not yet modeled");
        return;
      }
      if (w.bytes != r.bytes) {
        ex.unknown(r.loc, "shared accesses of different widths to '" +
                              r.region + "' are not modeled");
        return;
      }
      if (cannotHit(w, r.offset))
        continue;
      llvm::DenseMap<Term, Term> sigma;
      bool exact = true;
      Term match = writerMatch(w, r.offset, sigma, exact);
      if (!exact &&
          !(match->getKind() == Kind::BoolConst && !match->getBoolValue()))
        guessedWriter = w.loc;
      if (w.phase == r.phase && w.async &&
          w.lastPhase() >= MemoryAccess::kNotYetCompleted) {
        // A cp.async no wait completes is ordered before nothing.
        match = T.boolConst(false);
      } else if (w.phase == r.phase) {
        // Same phase: only a write that a counted barrier or a
        // bar.warp.sync orders before the read initializes it.
        match = T.andOf(
            match,
            T.orOf(orderedByCountedBarriers(
                       T, w.clock, r.clock,
                       [&](unsigned id) {
                         Term p = participation(T, result, id);
                         ex.renameFresh({p}, sigma);
                         return T.substitute(p, sigma);
                       },
                       &result.generations),
                   w.async ? T.boolConst(false)
                           : orderedByWarpSyncs(
                                 T, w.warpSyncs, r.warpSyncs,
                                 T.substitute(linearThreadId(T, launch), sigma),
                                 linearThreadId(T, launch))));
      }
      any = T.orOf(any, match);
    }
    std::string why;
    if (guessedWriter)
      why = unguessable(*guessedWriter);
    else if (!result.mbarrierUnaligned.empty() && !r.clock.empty())
      why = "no write is ordered before the read by the modeled phases; " +
            result.mbarrierUnaligned.begin()->second;
    else if (bridged && !r.clock.empty())
      why = "no write is ordered before the read by a barrier both threads "
            "take part in; an order through a third thread's barriers of "
            "two ids is not modeled";
    else if (warpMasks.size() > 1 && !r.warpSyncs.empty())
      why = "no write is ordered before the read by a bar.warp.sync both "
            "lanes execute; an order through a third lane's bar.warp.sync "
            "of two masks is not modeled";
    // The reader's CTA is in the grid (its path condition states that only
    // once the path read %ctaid; the writers' conditions do).
    SmallVector<Term> inGrid{r.pc, T.notOf(any)};
    for (auto &[var, extent] : ex.ctaIdVars())
      inGrid.push_back(T.bvUlt(var, launch.extentOf(T, var->getName())));
    result.resolutions.push_back(
        {T.andOf(inGrid), r.loc,
         "the shared read of '" + displayVariable(r.region) +
             "' sees a value some thread wrote before it (in an earlier "
             "phase, or before a counted barrier both take part in or a "
             "bar.warp.sync both execute)",
         why.empty(), why});
  }
}

Term SharedMemoryModel::resolveSharedRead(State &s, const std::string &region,
                                          Term a, unsigned bytes, Location loc,
                                          bool wantReal, Type resultType) {
  // Nothing written: an arbitrary value (reported by the
  // initialization obligation below).
  Term v =
      ex.fresh(region + "@uninit", wantReal ? Sort::Real : Sort::BV, bytes * 8);
  unwrittenShared.insert(v);
  Term anyMatch = T.boolConst(false);
  std::optional<Location> guessedWriter;
  struct PendingWitness {
    size_t index;
    Term otherWriter, match, valueDiffers;
  };
  SmallVector<PendingWitness> pendingWitnesses;
  for (const MemoryAccess &w : result.accesses) {
    if (!w.write || !w.shared || w.region != region || w.phase >= s.phase)
      continue;
    if (w.atomic) {
      ex.unknown(loc, "a read of shared memory that atomics update ('" +
                          displayVariable(region) + "') is not yet modeled");
      return nullptr;
    }
    if (w.bytes != bytes) {
      ex.unknown(loc, "shared accesses of different widths to '" + region +
                          "' are not modeled");
      return nullptr;
    }
    if (cannotHit(w, a))
      continue;
    llvm::DenseMap<Term, Term> sigma;
    bool exact = true;
    bool injective = false, onlyWriter = false;
    Term match = writerMatch(w, a, sigma, exact, &injective, &onlyWriter);
    // A witness the address determines (an injective inversion) misses
    // `a`: no thread of this write hits it. Any other (lane 0 of a slot, a
    // non-injective inversion) may miss where another thread hits: kept,
    // so that the obligation below asks.
    if (match->getKind() == Kind::BoolConst && !match->getBoolValue() &&
        exact && injective)
      continue;
    if (!exact)
      guessedWriter = w.loc;
    Term value = T.substitute(w.value, sigma);
    if (!value) {
      // The writer's value at the witness thread has no term (an
      // operation of infinities, at a witness the writer's path may
      // exclude): not read as anything.
      ex.unknown(loc, "the value a thread writes to shared '" + region +
                          "' has no closed form at the reading thread's "
                          "writer (infinities meet)");
      return nullptr;
    }
    if (exact && onlyWriter && !ex.getOptions().otherWriterConditions) {
      // No other writer: the layout is one-to-one (writerMatch), so the
      // condition below is unsatisfiable; not built.
      pendingWitnesses.push_back({result.resolutions.size(), T.boolConst(false),
                                  match, T.boolConst(false)});
      std::string at;
      llvm::raw_string_ostream os(at);
      os << w.loc;
      result.resolutions.push_back(
          {T.boolConst(false), loc,
           "the writer of the shared read of '" + displayVariable(region) +
               "' is unique or writes the same value (the write at " +
               os.str() + ")",
           false, "", T.boolConst(false), nullptr, nullptr});
      result.resolutions.back().onlyWriter = true;
    } else {
      // Completeness: no other writer w != w* of this write hits `a`.
      llvm::DenseMap<Term, Term> tau;
      unsigned n = writerCounter++;
      SmallVector<Term> differs;
      for (auto &[var, ext] : ex.threadIdVars()) {
        tau[var] = T.bvVar(("w" + Twine(n) + "." + var->getName()).str(), 32);
        differs.push_back(T.notOf(T.eq(tau[var], sigma[var])));
      }
      for (auto &[var, ext] : ex.ctaIdVars())
        tau[var] = var;
      ex.renameFresh({w.pathCondition, w.byteOffset, w.value}, tau);
      // Another writer of the same value (a benign race) leaves the value
      // determined.
      Term otherWriter = T.andOf(
          {s.pc, T.substitute(w.pathCondition, tau), ex.threadRange(tau),
           T.eq(T.substitute(w.byteOffset, tau), a), T.orOf(differs)});
      // The condition is completed once the newer writes are known (below):
      // another writer hits `a` and either writes another value or the
      // witness misses `a` while no newer write hits it (a guessed witness,
      // lane 0 of a slot, that does not write: the read would fall through
      // to an older value).
      pendingWitnesses.push_back(
          {result.resolutions.size(), otherWriter, match,
           T.notOf(T.eq(T.substitute(w.value, tau), value))});
      result.resolutions.push_back(
          {T.andOf(otherWriter,
                   T.notOf(T.eq(T.substitute(w.value, tau), value))),
           loc,
           "the writer of the shared read of '" + displayVariable(region) +
               "' is unique or writes the same value (the " + "write at " +
               "PTX_LOC" + ")",
           false, "", otherWriter, T.substitute(w.value, tau), value});
      result.resolutions.back().onlyWriter = exact && onlyWriter;
      {
        std::string str;
        llvm::raw_string_ostream os(str);
        os << w.loc;
        std::string &what = result.resolutions.back().what;
        what.replace(what.find("PTX_LOC"), 7, os.str());
      }
    }
    value = readAs(value, wantReal, resultType, bytes);
    if ((value->getSort() == Sort::Real) != wantReal) {
      ex.unknown(loc,
                 "shared memory of '" + region +
                     "' read with another "
                     "type than written (bit reinterpretation) is not modeled");
      return nullptr;
    }
    // Recording order is program order within a phase and phases ascend:
    // wrapping in that order puts the newest write outermost.
    v = T.ite(match, value, v);
    anyMatch = T.orOf(anyMatch, match);
    // A write that every thread of this path reads (its witness writer
    // always exists and hits the address): the older writes and the
    // uninitialized value are not reached, and the value is the writer's
    // alone (which two threads' copies of it then share: their fresh
    // uninitialized values differ). The obligation below still checks
    // that some write is seen.
    if (!ex.mayHold(T.andOf(s.pc, T.notOf(match))))
      v = value;
  }
  Term newer = T.boolConst(false);
  for (const PendingWitness &p : llvm::reverse(pendingWitnesses)) {
    ResolutionObligation &r = result.resolutions[p.index];
    r.witnessMissed = T.andOf(T.notOf(p.match), T.notOf(newer));
    r.condition =
        T.andOf(p.otherWriter, T.orOf(r.witnessMissed, p.valueDiffers));
    newer = T.orOf(newer, p.match);
  }
  result.resolutions.push_back(
      {T.andOf(s.pc, T.notOf(anyMatch)), loc,
       "the shared read of '" + displayVariable(region) +
           "' sees a value some thread wrote",
       !guessedWriter, guessedWriter ? unguessable(*guessedWriter) : ""});
  return v;
}

void SharedMemoryModel::checkGlobalReads() {
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
      for (auto &[var, ext] : ex.threadIdVars())
        renameVar(var);
      for (auto &[var, ext] : ex.ctaIdVars())
        renameVar(var);
      ex.renameFresh({w.pathCondition, w.byteOffset}, tau);
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

void SharedMemoryModel::deferGlobalRead(State &s, Operation *op,
                                        const std::string &region, Term offset,
                                        unsigned bytes, Location loc) {
  globalReads.push_back({region, offset, bytes, s.pc, loc});
  recordAccess(s, op, /*write=*/false, region, /*shared=*/false, offset, bytes,
               nullptr, loc);
}

void SharedMemoryModel::rollbackTo(const Mark &m) {
  if (globalReads.size() > m.globalReads)
    globalReads.erase(globalReads.begin() + m.globalReads, globalReads.end());
  if (pendingReads.size() > m.pendingReads)
    pendingReads.erase(pendingReads.begin() + m.pendingReads,
                       pendingReads.end());
}

//===----------------------------------------------------------------------===//
// Shared loads and stores
//===----------------------------------------------------------------------===//

bool SharedMemoryModel::sharedLoad(State &s, Frame &f, LoadOp l,
                                   const std::string &region, Term offset,
                                   Location loc) {
  Region *r = *ex.regionOf("&" + region);
  if (!r->bytes) {
    ex.unknown(loc, "dynamic shared memory '" + region +
                        "': its size is not in the contract (dynamic_shared)");
    return false;
  }
  if (summarizedRegions.count(region)) {
    ex.unknown(loc, "a read of shared '" + displayVariable(region) +
                        "' after a summarized loop that writes it (the last "
                        "iteration's writes) is not yet modeled");
    return false;
  }
  Type resultType = l.getResult(0).getType();
  unsigned width = std::max(1u, getWidthOf(resultType) / 8);
  vectorAlignment(s, "load from", region, offset, width * l.getNumResults(),
                  loc);
  for (auto [k, res] : llvm::enumerate(l.getResults())) {
    Term o = T.bvBin(Kind::BVAdd, offset, T.bv(k * width, 64));
    sharedBounds(s, "load from", region, o, width, r->bytes, loc);
    recordAccess(s, l, /*write=*/false, region, /*shared=*/true, o, width,
                 nullptr, loc);
    // The sort the memory holds: what was written to it. A variable may
    // hold reals written through integer registers (f32 accumulators
    // stored with st.b32) in one phase and bits (packed halves) in
    // another: an integer load of it then reads bits (a real writer's
    // value as its FloatBits), a float load reals (readAs).
    bool anyReal = false, anyBits = false;
    auto note = [&](Term v) {
      if (!v)
        return;
      if (v->getSort() == Sort::Real)
        anyReal = true;
      else if (!(isa<FloatType>(resultType) && floatOfBits(T, v, resultType)))
        anyBits = true;
    };
    for (const MemoryAccess &w : result.accesses)
      if (w.write && w.shared && w.region == region)
        note(w.value);
    for (const State::SharedWrite &w : s.sharedWrites)
      if (w.region == region)
        note(w.value);
    bool wantReal = isa<FloatType>(resultType) || (anyReal && !anyBits);
    if (wantReal && !isa<FloatType>(resultType) &&
        resultType.getIntOrFloatBitWidth() != width * 8) {
      ex.unknown(loc, "partial read of a real value in shared memory");
      return false;
    }
    if (!wantReal && isa<FloatType>(resultType)) {
      ex.unknown(loc, "integer data in shared memory read as a float");
      return false;
    }
    if (result.countedBarriers || s.warpSyncPhase == s.phase) {
      // Under counted barriers, or after a bar.warp.sync of this phase
      // (another lane's write of the phase may be the one seen), the
      // writer is not resolved (the value proof is UNKNOWN); the read's
      // initialization is checked once every path has run
      // (checkCountedReads).
      if (!result.countedBarriers)
        result.warpSyncReads = true;
      if (!result.countedBarriers && result.valueUnknownReason.empty())
        result.valueUnknownReason =
            "a shared read after a bar.warp.sync of its phase (at " +
            locationString(loc) +
            "): values passed between lanes through bar.warp.sync "
            "(__syncwarp) are not yet modeled by the value proof";
      Term own = T.boolConst(false);
      for (const State::SharedWrite &w : s.sharedWrites)
        if (w.phase == s.phase && w.region == region)
          own = T.orOf(own, T.andOf(w.guard ? w.guard : T.boolConst(true),
                                    T.eq(w.offset, o)));
      pendingReads.push_back(
          {region, o, s.pc, own, s.phase, width, s.clock, loc, s.warpSyncs});
      ex.set(f, res,
             ex.fresh(region + "@read", wantReal ? Sort::Real : Sort::BV,
                      width * 8),
             wantReal && !isa<FloatType>(resultType));
      continue;
    }
    Term v = resolveSharedRead(s, region, o, width, loc, wantReal, resultType);
    if (!v)
      return false;
    // This thread's own writes of the current phase come first, the newest
    // outermost (program order).
    for (const State::SharedWrite &w : s.sharedWrites) {
      if (w.phase != s.phase || w.region != region)
        continue;
      if (w.bytes != width) {
        ex.unknown(loc, "shared accesses of different widths to '" + region +
                            "' are not modeled");
        return false;
      }
      Term wv = readAs(w.value, wantReal, resultType, width);
      if ((wv->getSort() == Sort::Real) != wantReal) {
        ex.unknown(loc, "shared memory of '" + region +
                            "' read with another type than written");
        return false;
      }
      Term hit = T.eq(w.offset, o);
      v = T.ite(w.guard ? T.andOf(w.guard, hit) : hit, wv, v);
    }
    ex.set(f, res, v, wantReal && !isa<FloatType>(resultType));
  }
  ++s.occurrences[l];
  ++f.it;
  return true;
}

bool SharedMemoryModel::sharedStore(State &s, Frame &f, StoreOp st,
                                    const std::string &region, Term offset,
                                    Location loc) {
  Region *r = *ex.regionOf("&" + region);
  if (!r->bytes) {
    ex.unknown(loc, "dynamic shared memory '" + region +
                        "': its size is not in the contract (dynamic_shared)");
    return false;
  }
  unsigned width = std::max(1u, getWidthOf(st.getValues()[0].getType()) / 8);
  vectorAlignment(s, "store to", region, offset, width * st.getValues().size(),
                  loc);
  for (auto [k, v] : llvm::enumerate(st.getValues())) {
    Term o = T.bvBin(Kind::BVAdd, offset, T.bv(k * width, 64));
    sharedBounds(s, "store to", region, o, width, r->bytes, loc);
    SymValue sv = ex.storedValue(ex.get(f, v), width, loc);
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

Term SharedMemoryModel::readAs(Term v, bool wantReal, Type resultType,
                               unsigned bytes) {
  if (wantReal && v->getSort() != Sort::Real) {
    // Constant bits, or the bits of reals, read as a float of that type.
    if (Term r = floatOfBits(T, v, resultType))
      return r;
    StringRef fmt = Executor::floatFormat(resultType);
    if (Term r = fmt.empty() ? nullptr : ex.realOfBits(v, fmt))
      return r;
    return v;
  }
  // A real read through an integer register: its bits (read back as the
  // real by Executor::set).
  if (!wantReal && v->getSort() == Sort::Real && (bytes == 4 || bytes == 8))
    return T.floatBits(v, bytes == 4 ? "f32" : "f64");
  return v;
}

void SharedMemoryModel::vectorAlignment(State &s, StringRef what,
                                        const std::string &region, Term o,
                                        unsigned bytes, Location loc) {
  // PTX ISA 5.4.5: a vector access is aligned to its whole size (the
  // elements' own alignment is sharedBounds'); relative to the variable.
  if (bytes <= 1 || !llvm::isPowerOf2_32(bytes))
    return;
  result.alignments.push_back(
      {s.pc, T.eq(T.bvBin(Kind::BVURem, o, T.bv(bytes, 64)), T.bv(0, 64)), loc,
       ("alignment of the shared vector " + what + " " + region + " to " +
        Twine(bytes) + " bytes")
           .str()});
}

void SharedMemoryModel::sharedBounds(State &s, StringRef what,
                                     const std::string &region, Term o,
                                     unsigned width, uint64_t bytes,
                                     Location loc) {
  result.alignments.push_back(
      {s.pc, T.eq(T.bvBin(Kind::BVURem, o, T.bv(width, 64)), T.bv(0, 64)), loc,
       ("alignment of the shared " + what + " " + region).str()});
  result.alignments.push_back(
      {s.pc, T.bvUle(T.bvBin(Kind::BVAdd, o, T.bv(width, 64)), T.bv(bytes, 64)),
       loc,
       ("shared " + what + " " + region + " inside its " + Twine(bytes) +
        " bytes")
           .str()});
}

void SharedMemoryModel::recordAccess(State &s, Operation *op, bool write,
                                     const std::string &region, bool shared,
                                     Term offset, unsigned bytes, Term value,
                                     Location loc, bool atomic,
                                     StringRef scope) {
  if (!ex.isMultiThread())
    return;
  // The .local state space is private to each thread (PTX ISA 5.1.5):
  // its accesses never race with another thread's.
  if (std::optional<Region *> r = ex.regionOf("&" + region);
      r && (*r)->space == StateSpace::Local)
    return;
  // The thread's own cp.async copies still in flight: an access of their
  // destination bytes races with them (PTX ISA: cp.async; the copy is
  // performed by the completing cp.async.wait at the latest).
  if (shared)
    for (const State::AsyncCopy &c : s.asyncCopies) {
      if (c.region != region)
        continue;
      Term end = T.bvBin(Kind::BVAdd, offset, T.bv(bytes, 64));
      Term cEnd = T.bvBin(Kind::BVAdd, c.offset, T.bv(c.bytes, 64));
      Term overlap = T.andOf(T.bvUlt(offset, cEnd), T.bvUlt(c.offset, end));
      std::string what = isa<CpAsyncOp>(op) ? "another cp.async to"
                         : write            ? "write to"
                                            : "read of";
      result.alignments.push_back(
          {s.pc, T.notOf(overlap), loc,
           "no data race with the thread's own cp.async at " +
               locString(c.loc) +
               " (not yet completed by a "
               "cp.async.wait): " +
               what + " shared '" + displayVariable(region) + "'"});
    }
  MemoryAccess a{
      s.phase, write, atomic, scope.str(),       region, shared, offset, bytes,
      value,   s.pc,  loc,    s.occurrences[op], op,     s.clock};
  a.warpSyncs = s.warpSyncs;
  result.accesses.push_back(std::move(a));
}

} // namespace kproof::engine::exec

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

bool kproof::engine::invertXorLayout(
    TermContext &T, Term offset, Term a,
    ArrayRef<std::pair<Term, int64_t>> threadIds,
    llvm::DenseMap<Term, Term> &sigma) {
  // The thread ids' bits, in a fixed order (by term id).
  SmallVector<std::pair<Term, int64_t>> ids(threadIds.begin(), threadIds.end());
  llvm::sort(ids, [](auto &x, auto &y) {
    return x.first->getId() < y.first->getId();
  });
  llvm::DenseMap<Term, std::pair<unsigned, unsigned>> inputs;
  unsigned n = 0;
  for (auto &[var, ext] : ids) {
    if (ext <= 0)
      return false;
    unsigned bits = ext > 1 ? llvm::Log2_64_Ceil(uint64_t(ext)) : 0;
    inputs[var] = {n, bits};
    n += bits;
  }
  if (n == 0 || n > 64 || a->getWidth() != offset->getWidth())
    return false;
  exec::AffineEvaluator eval(inputs);
  const exec::AffineBits *rows = eval.eval(offset);
  if (!rows)
    return false;
  // Gauss-Jordan over GF(2): each input bit as the xor of offset bits
  // (`comb`, a set of rows) and the rows' constants.
  struct Vec {
    uint64_t mask, comb;
    bool c;
  };
  SmallVector<Vec> basis;
  for (unsigned k = 0; k < rows->size() && k < 64; ++k) {
    Vec v{(*rows)[k].mask, uint64_t(1) << k, (*rows)[k].c};
    for (const Vec &b : basis)
      if (v.mask & (b.mask & -b.mask)) {
        v.mask ^= b.mask;
        v.comb ^= b.comb;
        v.c ^= b.c;
      }
    if (!v.mask)
      continue;
    uint64_t pivot = v.mask & -v.mask;
    for (Vec &b : basis)
      if (b.mask & pivot) {
        b.mask ^= v.mask;
        b.comb ^= v.comb;
        b.c ^= v.c;
      }
    basis.push_back(v);
  }
  if (basis.size() != n)
    return false; // not injective on the ids' bits
  // Reduced: every basis vector is one input bit.
  llvm::DenseMap<unsigned, const Vec *> byBit;
  for (const Vec &b : basis) {
    if (!llvm::isPowerOf2_64(b.mask))
      return false;
    byBit[llvm::Log2_64(b.mask)] = &b;
  }
  for (auto &[var, ext] : ids) {
    auto [first, bits] = inputs[var];
    Term value = T.bv(0, var->getWidth());
    for (unsigned i = 0; i < bits; ++i) {
      const Vec *b = byBit.lookup(first + i);
      if (!b)
        return false;
      Term bit = T.bv(b->c ? 1 : 0, 1);
      for (unsigned k = 0; k < 64; ++k)
        if (b->comb & (uint64_t(1) << k))
          bit = T.bvBin(Kind::BVXor, bit, T.bvExtract(a, k, 1));
      value = T.bvBin(Kind::BVOr, value,
                      T.bvBin(Kind::BVShl, T.bvZExt(bit, var->getWidth()),
                              T.bv(i, var->getWidth())));
    }
    sigma[var] = value;
  }
  return true;
}
