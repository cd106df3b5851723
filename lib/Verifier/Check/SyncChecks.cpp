//===- SyncChecks.cpp - races, barriers, shared reads ---------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Synchronization obligations of a multi-thread launch (docs/verify-sync.md
// "The model"): `checkSync` asks, of two copies of the representative thread
// renamed apart (`ThreadPair`), whether two accesses race (distinct threads,
// one phase or two CTAs, overlapping bytes, a write, not both morally strong
// atomics), whether two threads of a CTA wait at different barriers, and
// the side conditions of resolving shared reads to their writers; the
// atomic counters (`counterRegions`, `collectCounters`,
// `counterRangeFacts`) give distinct old values to two atomics of one
// location. `checkCountedBarriers`: the obligations of counted barriers
// (bar.sync / bar.arrive id, n), per id, and deadlock freedom across them.
//
//===----------------------------------------------------------------------===//

#include "CheckerImpl.h"

#include "KProof/Verifier/Terms/ThreadLinear.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::check {

namespace {

/// Two copies of the representative thread, t1 and t2: thread-id and fresh
/// variables renamed apart ("t1.tid.x", ...).
struct ThreadPair {
  TermContext &T;
  const ExecutionResult &ex;
  const LaunchConfig &launch;
  llvm::DenseMap<Term, Term> a, b;
  ThreadPair(TermContext &T, const ExecutionResult &ex,
             const LaunchConfig &launch)
      : T(T), ex(ex), launch(launch) {
    for (auto &[name, extent] : ex.threadVars) {
      Term v = T.bvVar(name, 32);
      a[v] = T.bvVar("t1." + name, 32);
      b[v] = T.bvVar("t2." + name, 32);
    }
  }
  /// Renames the fresh ('#') variables of `t` apart per copy.
  Term rename(Term t, llvm::DenseMap<Term, Term> &map, StringRef prefix) {
    llvm::DenseSet<Term> seen;
    SmallVector<Term> work{t};
    while (!work.empty()) {
      Term x = work.pop_back_val();
      if (!seen.insert(x).second)
        continue;
      for (Term o : x->getOperands())
        work.push_back(o);
      bool isVar = x->getKind() == Kind::RealVar ||
                   x->getKind() == Kind::BVVar ||
                   x->getKind() == Kind::BoolVar;
      if (!isVar || map.count(x) || !x->getName().contains('#'))
        continue;
      std::string n = (prefix + x->getName()).str();
      map[x] = x->getKind() == Kind::RealVar  ? T.realVar(n)
               : x->getKind() == Kind::BVVar ? T.bvVar(n, x->getWidth())
                                             : T.boolVar(n);
    }
    return T.substitute(t, map);
  }
  /// The renamings are the same for every pair of accesses (names derive
  /// from the variables'), so one ThreadPair serves many pairs and keeps
  /// each term's copies.
  Term first(Term t) {
    Term &r = firstMemo[t];
    return r ? r : (r = rename(t, a, "t1."));
  }
  Term second(Term t) {
    Term &r = secondMemo[t];
    return r ? r : (r = rename(t, b, "t2."));
  }
  llvm::DenseMap<Term, Term> firstMemo, secondMemo;
  /// Both threads inside the launch; `sameCta`: in one CTA and distinct,
  /// else in two distinct CTAs.
  Term frame(bool sameCta) {
    SmallVector<Term> cs, tidDiffer, ctaDiffer;
    for (auto &[name, extent] : ex.threadVars) {
      Term v = T.bvVar(name, 32);
      // The extents (launch variables under a symbolic launch) are shared
      // by both threads: one launch.
      Term ext = launch.extentOf(T, name);
      cs.push_back(T.bvUlt(a[v], ext));
      cs.push_back(T.bvUlt(b[v], ext));
      bool isTid = StringRef(name).starts_with("tid.");
      Term differ = T.notOf(T.eq(a[v], b[v]));
      if (isTid)
        tidDiffer.push_back(differ);
      else if (sameCta)
        cs.push_back(T.eq(a[v], b[v]));
      else
        ctaDiffer.push_back(differ);
    }
    cs.push_back(T.orOf(sameCta ? tidDiffer : ctaDiffer));
    cs.push_back(launch.facts(T));
    return T.andOf(cs);
  }
  /// The two threads are in the same warp (linear thread id / 32,
  /// docs/verify-sync.md "The model") of a block of `block` threads per
  /// dimension.
  Term sameWarp() {
    auto linear = [&](llvm::DenseMap<Term, Term> &m) {
      Term lin = T.bv(0, 32);
      Term stride = T.bv(1, 32);
      static const char *dims[] = {"tid.x", "tid.y", "tid.z"};
      for (int d = 0; d < 3; ++d) {
        Term v = T.bvVar(dims[d], 32);
        if (m.count(v))
          lin = T.bvBin(Kind::BVAdd, lin, T.bvBin(Kind::BVMul, m[v], stride));
        stride = T.bvBin(Kind::BVMul, stride, launch.extentOf(T, dims[d]));
      }
      return T.bvBin(Kind::BVUDiv, lin, T.bv(32, 32));
    };
    return T.eq(linear(a), linear(b));
  }
  /// "(tid.x=3, ctaid.x=0)" of copy `which` in `model`.
  std::string describe(const Assignment &model, StringRef which) {
    std::string s;
    for (auto &[name, extent] : ex.threadVars) {
      auto it = model.bitvectors.find((which + "." + name).str());
      s += (s.empty() ? "" : ", ") + name + "=" +
           (it == model.bitvectors.end()
                ? std::string("0")
                : std::to_string(it->second.getZExtValue()));
    }
    return "(" + (s.empty() ? std::string("the only thread") : s) + ")";
  }
};

} // namespace

/// Regions used as atomic counters: every access is an atomic add of a
/// positive constant of one width, and the sum of every addend over the
/// whole launch stays below 2^width. The atomics of one location are
/// totally ordered (PTX ISA 8.x, memory consistency model: morally strong
/// read-modify-writes), so there the old values two atomics return are
/// distinct: old_k = init + (sum of the addends before k) mod 2^width, and
/// those partial sums are distinct and below 2^width.
static llvm::StringSet<> counterRegions(const ExecutionResult &ex,
                                        const LaunchConfig &launch,
                                        llvm::StringMap<APInt> &totals) {
  llvm::StringMap<bool> ok;
  llvm::StringMap<unsigned> width;
  llvm::StringMap<APInt> sum;
  for (const MemoryAccess &m : ex.accesses) {
    auto [it, fresh] = ok.try_emplace(m.region, true);
    if (!it->second)
      continue;
    unsigned &w = width[m.region];
    if (fresh)
      w = m.bytes;
    if (!m.atomic || !m.atomicAddend || *m.atomicAddend == 0 ||
        m.bytes != w || m.bytes > 8) {
      it->second = false;
      continue;
    }
    APInt &total = sum.try_emplace(m.region, APInt(128, 0)).first->second;
    total += APInt(128, *m.atomicAddend);
  }
  llvm::StringSet<> regions;
  for (auto &[region, good] : ok) {
    if (!good)
      continue;
    APInt total = sum.lookup(region.str()) * APInt(128, launch.totalThreads());
    if (total.ule(APInt(128, 1).shl(8 * width.lookup(region.str())))) {
      regions.insert(region.str());
      totals.insert({region.str(), total});
    }
  }
  return regions;
}

void Checker::collectCounters(const ExecutionResult &ex,
                              const LaunchConfig &launch) {
  llvm::StringSet<> counters = counterRegions(ex, launch, counterTotals);
  for (const MemoryAccess &m : ex.accesses)
    if (m.atomicOld && counters.contains(m.region))
      counterAtomics.push_back(&m);
}

Term Checker::counterRangeFacts(Term cond) {
  if (counterAtomics.empty())
    return nullptr;
  SmallVector<Term> facts;
  SmallVector<Term> all = subterms({cond});
  llvm::DenseSet<Term> vars(all.begin(), all.end());
  for (const MemoryAccess *m : counterAtomics) {
    if (!m->atomicInit || !vars.count(m->atomicOld))
      continue;
    // old = init + (the addends before it) mod 2^w, a sum below total.
    unsigned w = m->atomicOld->getWidth();
    const APInt &total = counterTotals.find(m->region)->second;
    if (total.getActiveBits() > w)
      continue; // total == 2^w: every value is possible
    facts.push_back(T.bvUlt(T.bvBin(Kind::BVSub, m->atomicOld, m->atomicInit),
                            T.bv(total.trunc(w))));
  }
  return facts.empty() ? Term() : T.andOf(facts);
}

void Checker::checkSync(const ExecutionResult &ex,
                        const LaunchConfig &launch) {
  // The counter facts of one race query: two atomics of a counter region
  // that hit one location return distinct old values (counterRegions),
  // for the atomics whose old values the query mentions.
  auto counterFacts = [&](ThreadPair &p, Term cond) {
    SmallVector<Term> facts;
    if (counterAtomics.empty())
      return facts;
    SmallVector<Term> all = subterms({cond});
  llvm::DenseSet<Term> vars(all.begin(), all.end());
    struct Copy {
      const MemoryAccess *m;
      bool first;
    };
    auto get = [&](const Copy &c, Term t) {
      return c.first ? p.first(t) : p.second(t);
    };
    for (size_t i = 0; i < counterAtomics.size(); ++i)
      for (size_t j = 0; j < counterAtomics.size(); ++j)
        for (auto [fa, fb] : {std::pair{true, false}, std::pair{true, true},
                              std::pair{false, false}}) {
          // One atomic record of one thread is one op instance.
          if (fa == fb && i >= j)
            continue;
          if (facts.size() >= 64)
            return facts;
          Copy a{counterAtomics[i], fa}, b{counterAtomics[j], fb};
          if (a.m->region != b.m->region)
            continue;
          Term oa = get(a, a.m->atomicOld), ob = get(b, b.m->atomicOld);
          if (!vars.count(oa) && !vars.count(ob))
            continue;
          facts.push_back(T.orOf(
              {T.notOf(get(a, a.m->pathCondition)),
               T.notOf(get(b, b.m->pathCondition)),
               T.notOf(T.eq(get(a, a.m->byteOffset), get(b, b.m->byteOffset))),
               T.notOf(T.eq(oa, ob))}));
        }
    return facts;
  };
  // 1. Data races: two distinct threads, one phase (same CTA) or any phase
  // (two CTAs, global memory), aliasing bytes, at least one write, not both
  // atomic.
  bool manyCtas = llvm::any_of(ex.threadVars, [](auto &v) {
    return StringRef(v.first).starts_with("ctaid.");
  });
  unsigned races = 0;
  // Race obligations the solver did not decide, and pairs of accesses left
  // unchecked after 8 of them.
  unsigned undecided = 0, unchecked = 0;
  // Accesses of two threads may be ordered through a third thread
  // (t1 -> barrier 1 -> t3 -> barrier 2 -> t2): the race condition uses the
  // orders every execution has (GenerationOrder::must); a race found is
  // REFUTED only when no chain of generations any path makes could order
  // the two (GenerationOrder::may), and, when lanes also synchronize with
  // bar.warp.sync, never (an order through a lane's bar.warp.sync and a
  // barrier is not followed).
  // A cp.async that no wait completes is performed at an unknown time
  // after its issue: no barrier orders it before anything.
  auto never = [](const MemoryAccess &m) {
    return m.async && m.lastPhase() >= MemoryAccess::kNotYetCompleted;
  };
  // With the race's model: a chain can start only at a barrier the
  // earlier thread may arrive at (its participation is not false there).
  auto bridged = [&](const MemoryAccess &x, const MemoryAccess &y,
                     ThreadPair &p, const Assignment &model) {
    if (x.clock.empty() && y.clock.empty())
      return false;
    if (!ex.warpSyncMasks.empty())
      return true;
    Evaluator ev(model);
    auto mayTakePart = [&](bool firstCopy) {
      return [&, firstCopy](unsigned id) {
        Term q = participation(T, ex, id);
        return ev.boolean(firstCopy ? p.first(q) : p.second(q)) != Truth::False;
      };
    };
    return (!never(x) &&
            mayBeOrderedByCountedBarriers(x.clock, y.clock, ex.generations,
                                          mayTakePart(true))) ||
           (!never(y) &&
            mayBeOrderedByCountedBarriers(y.clock, x.clock, ex.generations,
                                          mayTakePart(false)));
  };
  // Ops that ran more than once on a path (inside a loop).
  llvm::DenseSet<Operation *> repeated;
  for (const MemoryAccess &m : ex.accesses)
    if (m.occurrence > 0)
      repeated.insert(m.op);
  // Row-major offsets: an access at c * n * R + W with 0 <= W and W + bytes
  // <= c * n on its path (n a size, R a thread's row: y[row * n + j] with
  // j < n, unrolled or not) stays in the block [c n R, c n (R + 1)). Two
  // such accesses overlap only when their R agree: the lemma the race
  // query gets, which is implied by the query (so adding it is sound) and
  // spares Z3 the nonlinear n * R terms.
  llvm::DenseMap<const MemoryAccess *, TermContext::ProductSplit> rowSplits;
  std::set<std::string> writtenRegions;
  for (const MemoryAccess &m : ex.accesses)
    if (m.write)
      writtenRegions.insert(m.region);
  for (const MemoryAccess &m : ex.accesses) {
    if (!writtenRegions.count(m.region))
      continue; // no write there: no race to ask about
    // Read under the bounds the access's path states (n >= 4 in the
    // remainder loop of a loop unrolled by 4): the lemma is used only in
    // queries that assert this path condition.
    auto saved = T.saveBounds();
    for (auto &[v, l] : pathLowerBounds(T, m.pathCondition))
      T.setLowerBound(v, l);
    std::optional<TermContext::ProductSplit> sp =
        T.splitByProduct(m.byteOffset);
    llvm::scope_exit restore([&] { T.restoreBounds(std::move(saved)); });
    if (!sp) {
      if (getenv("KPROOF_DUMP_TERMS") && m.write)
        llvm::errs() << "; no row split of "
                     << m.byteOffset->toBriefString(400) << " under "
                     << m.pathCondition->toBriefString(dumpLimit()) << "\n";
      continue;
    }
    unsigned w = m.byteOffset->getWidth();
    Term size = sp->size->getWidth() < w ? T.bvZExt(sp->size, w) : sp->size;
    if (sp->size->getWidth() > w)
      continue;
    // No wrap-around in c * n or W + bytes.
    std::optional<uint64_t> nMax = T.upperBound(sp->size->getName());
    std::optional<std::pair<uint64_t, uint64_t>> wRange =
        T.indexInterval(sp->rest);
    if (!nMax || !wRange || w != 64 || *nMax >= (uint64_t(1) << 40) ||
        sp->coeff >= (uint64_t(1) << 20) ||
        wRange->second >= (uint64_t(1) << 62))
      continue;
    Term block = T.bvBin(Kind::BVMul, T.bv(sp->coeff, w), size);
    Term end = T.bvBin(Kind::BVAdd, sp->rest, T.bv(m.bytes, w));
    // Asked in bit-vectors, where c * n and W + bytes are exact: both stay
    // below 2^w under the declared bounds (the split's form fits).
    Term outside = T.andOf(m.pathCondition, T.notOf(T.bvUle(end, block)));
    bool inBlock = shortcutUnsat(outside, 2'000'000, /*bitVectorsFirst=*/true);
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; row split of " << m.byteOffset->toBriefString(200)
                   << ": " << (inBlock ? "in its row" : "not proved") << "\n";
    if (inBlock)
      rowSplits[&m] = *sp;
  }
  // bar.warp.sync (PTX ISA 9.7.13.3) orders access a (thread A) before
  // access b (thread B) of one warp when B executed, before b, a k-th
  // bar.warp.sync of a mask M naming both lanes with k at least A's count
  // of M at a: the pairing obligation (finishShuffles) makes A execute its
  // k-th one with M too, after a. The masks whose counts allow it:
  auto warpSyncMasks = [](const MemoryAccess &a, const MemoryAccess &b) {
    SmallVector<uint32_t> masks;
    for (auto &[m, cb] : b.warpSyncs) {
      auto it = a.warpSyncs.find(m);
      if (cb > (it == a.warpSyncs.end() ? 0 : it->second))
        masks.push_back(m);
    }
    return masks;
  };
  // bar.warp.sync masks in use: with two or more, lanes may be ordered
  // through a third lane, which the direct pairing does not see.
  size_t warpSyncMaskCount = ex.warpSyncMasks.size();
  Term linear = linearThreadId(T, launch);
  // Whether a (by the first copy when aFirst) is ordered before b (by the
  // other copy) through bar.warp.sync. A cp.async write is performed after
  // its issue, up to its completing wait: it is ordered after what comes
  // before its issue, and before nothing here.
  auto warpOrdered = [&](ThreadPair &p, const MemoryAccess &a,
                         const MemoryAccess &b, bool aFirst) -> Term {
    if (a.async)
      return T.boolConst(false);
    Term la = aFirst ? p.first(linear) : p.second(linear);
    Term lb = aFirst ? p.second(linear) : p.first(linear);
    return orderedByWarpSyncs(T, a.warpSyncs, b.warpSyncs, la, lb);
  };
  // The race condition of accesses x (thread t1) and y (thread t2): both
  // run, the threads differ (same CTA or two CTAs), their bytes overlap,
  // and no counted barrier (nor, with `warpSync`, bar.warp.sync) orders
  // them.
  auto raceCondition = [&](ThreadPair &p, const MemoryAccess &x,
                           const MemoryAccess &y, bool sameCta, Term &o1,
                           bool warpSync = true) {
    o1 = p.first(x.byteOffset);
    Term o2 = p.second(y.byteOffset);
    Term overlap = T.andOf(
        T.bvUlt(o1, T.bvBin(Kind::BVAdd, o2, T.bv(y.bytes, 64))),
        T.bvUlt(o2, T.bvBin(Kind::BVAdd, o1, T.bv(x.bytes, 64))));
    auto sx = rowSplits.find(&x), sy = rowSplits.find(&y);
    if (sx != rowSplits.end() && sy != rowSplits.end() &&
        sx->second.size == sy->second.size &&
        sx->second.coeff == sy->second.coeff &&
        sx->second.factor->getWidth() == sy->second.factor->getWidth())
      overlap = T.andOf(overlap, T.eq(p.first(sx->second.factor),
                                      p.second(sy->second.factor)));
    Term cond = T.andOf({p.first(x.pathCondition),
                         p.second(y.pathCondition), p.frame(sameCta),
                         overlap});
    if (sameCta && (!x.clock.empty() || !y.clock.empty())) {
      // Counted barriers order accesses of one phase by generation.
      auto participates = [&](bool firstCopy) {
        return [&, firstCopy](unsigned id) {
          Term q = participation(T, ex, id);
          return firstCopy ? p.first(q) : p.second(q);
        };
      };
      cond = T.andOf(
          {cond,
           never(x)
               ? T.boolConst(true)
               : T.notOf(orderedByCountedBarriers(
                     T, x.clock, y.clock, participates(true), &ex.generations)),
           never(y) ? T.boolConst(true)
                    : T.notOf(orderedByCountedBarriers(T, y.clock, x.clock,
                                                       participates(false),
                                                       &ex.generations))});
    }
    if (sameCta && warpSync)
      cond = T.andOf({cond, T.notOf(warpOrdered(p, x, y, true)),
                      T.notOf(warpOrdered(p, y, x, false))});
    return cond;
  };
  // Which pairs may race: every pair of the region with a write, in one
  // phase of one CTA or across CTAs, not both morally strong atomics.
  auto mayRace = [&](const MemoryAccess &x, const MemoryAccess &y,
                     bool sameCta) {
    if (x.region != y.region || (!x.write && !y.write))
      return false;
    if (!sameCta && (x.shared || !manyCtas))
      return false;
    if (sameCta && !x.phasesOverlap(y))
      return false;
    // Two atomics are morally strong when their scope includes both
    // threads: any scope within a CTA, not .cta across CTAs.
    return !(x.atomic && y.atomic &&
             (sameCta || (x.scope != "cta" && y.scope != "cta")));
  };
  // Most pairs of a thread's unrolled accesses (a tile row of D stores per
  // thread) are race-free by their offsets' linear forms in the thread
  // ids alone (disjointForDistinctThreads), decided on integers before any
  // query is built: the pairs grow as the square of the stores.
  VarExtents idExtents;
  SmallVector<Term> tidIds, ctaIds;
  for (auto &[name, extent] : ex.threadVars) {
    Term v = T.bvVar(name, 32);
    idExtents[v] = extent;
    (StringRef(name).starts_with("tid.") ? tidIds : ctaIds).push_back(v);
  }
  std::vector<std::optional<LinearForm>> linearOffsets(ex.accesses.size());
  for (auto [k, m] : llvm::enumerate(ex.accesses)) {
    Term o = m.byteOffset;
    if (o->getSort() != Sort::BV || o->getWidth() != 64)
      continue;
    LinearForm f;
    if (!linearizeOver(o, idExtents, 1, f)) {
      f = LinearForm();
      if (!linearizeOver(T.canonicalIndex(o), idExtents, 1, f))
        continue;
    }
    // The offset's exact value, and offset + bytes, below 2^64 (the race
    // condition compares them as 64-bit sums).
    auto [lo, hi] = rangeOver(f, idExtents);
    if (lo < 0 || hi + m.bytes >= (__int128(1) << 64))
      continue;
    linearOffsets[k] = std::move(f);
  }
  auto disjointByLinearForms = [&](size_t i, size_t j, bool sameCta) {
    const std::optional<LinearForm> &fx = linearOffsets[i],
                                    &fy = linearOffsets[j];
    return fx && fy &&
           disjointForDistinctThreads(
               *fx, ex.accesses[i].bytes, *fy, ex.accesses[j].bytes, idExtents,
               sameCta ? ArrayRef<Term>(ctaIds) : ArrayRef<Term>(),
               sameCta ? ArrayRef<Term>(tidIds) : ArrayRef<Term>(ctaIds));
  };
  std::set<std::tuple<size_t, size_t, bool>> raceFreeLinear;
  // Most pairs are race-free: asked together first (provedTogether).
  std::set<std::tuple<size_t, size_t, bool>> raceFreeTogether;
  {
    SmallVector<Term> conds;
    SmallVector<std::tuple<size_t, size_t, bool>> keys;
    ThreadPair p(T, ex, launch);
    for (size_t i = 0; i < ex.accesses.size(); ++i)
      for (size_t j = i; j < ex.accesses.size(); ++j)
        for (bool sameCta : {true, false}) {
          const MemoryAccess &x = ex.accesses[i], &y = ex.accesses[j];
          if (!mayRace(x, y, sameCta))
            continue;
          if (disjointByLinearForms(i, j, sameCta)) {
            raceFreeLinear.insert({i, j, sameCta});
            continue;
          }
          Term o1;
          Term cond = raceCondition(p, x, y, sameCta, o1);
          if (cond->getKind() == Kind::BoolConst)
            continue;
          SmallVector<Term> counted = counterFacts(p, cond);
          if (!counted.empty())
            continue; // asked alone, with its counter facts
          conds.push_back(cond);
          keys.push_back({i, j, sameCta});
        }
    std::vector<bool> done = provedTogether(conds);
    for (auto [k, key] : llvm::enumerate(keys))
      if (done[k])
        raceFreeTogether.insert(key);
  }
  ThreadPair pair(T, ex, launch);
  for (size_t i = 0; i < ex.accesses.size(); ++i)
    for (size_t j = i; j < ex.accesses.size(); ++j) {
      const MemoryAccess &x = ex.accesses[i], &y = ex.accesses[j];
      if (x.region != y.region || (!x.write && !y.write))
        continue;
      for (bool sameCta : {true, false}) {
        if (!sameCta && (x.shared || !manyCtas))
          continue;
        if (sameCta && !x.phasesOverlap(y))
          continue;
        // Two atomics are morally strong when their scope includes both
        // threads: any scope within a CTA, not .cta across CTAs.
        if (x.atomic && y.atomic &&
            (sameCta || (x.scope != "cta" && y.scope != "cta")))
          continue;
        if (races >= 8)
          continue; // enough to act on; the rest is noise
        if (undecided >= 8) {
          // The verdict is UNKNOWN already; the rest is not checked (and
          // counted, so nothing is passed over in silence).
          ++unchecked;
          continue;
        }
        ThreadPair &p = pair;
        Term o1;
        Term cond = raceCondition(p, x, y, sameCta, o1);
        std::string what = std::string(x.shared ? "shared" : "global") +
                           " '" + displayVariable(x.region) + "'";
        std::string name =
            "race-free: " + what +
            (sameCta ? ", one CTA, phase " +
                           std::to_string(std::max(x.phase, y.phase)) +
                           (x.async || y.async ? " (a cp.async in flight)" : "")
                     : std::string(", two CTAs")) +
            ": " + (x.write ? "write" : "read") + " at " + locString(x.loc) +
            " / " + (y.write ? "write" : "read") + " at " + locString(y.loc);
        if (cond->getKind() == Kind::BoolConst && !cond->getBoolValue()) {
          proved(name, cond, "normalizer");
          continue;
        }
        if (raceFreeLinear.count({i, j, sameCta})) {
          crossCheckUnsat(cond, "race condition of disjoint linear offsets");
          proved(name, cond,
                 "linear forms of the thread ids: the offsets never overlap");
          continue;
        }
        if (raceFreeTogether.count({i, j, sameCta})) {
          proved(name, cond, "z3 (unsat, asked together with others)");
          continue;
        }
        SmallVector<Term> counted = counterFacts(p, cond);
        if (!counted.empty()) {
          counted.push_back(cond);
          cond = T.andOf(counted);
        }
        Query q{T, options, &tableRanges, {cond}};
        Query::Outcome out = q.check();
        if (out.result == smt::CheckResult::Unsat) {
          proved(name, cond,
                 counted.empty()
                     ? "z3 (unsat)"
                     : "z3 (unsat), with the distinct old values of atomic "
                       "counters");
          continue;
        }
        // Only non-finite inputs reach it: UNKNOWN, with the model kept as
        // the candidate that the replay tries concrete values for.
        bool onlyNonFinite = out.result == smt::CheckResult::Unknown &&
                             out.nonFiniteModel.has_value();
        if ((out.result != smt::CheckResult::Sat || !out.model) &&
            !onlyNonFinite) {
          record(name, VerdictKind::Unknown, "solver: " + out.reason);
          ++undecided;
          continue;
        }
        if (onlyNonFinite)
          out.model = out.nonFiniteModel;
        if (sameCta && warpSyncMaskCount > 1 &&
            (!x.warpSyncs.empty() || !y.warpSyncs.empty())) {
          // t1 -> bar.warp.sync of one mask -> t3 -> another mask -> t2
          // may order them.
          record(name, VerdictKind::Unknown,
                 "no bar.warp.sync both lanes execute orders the accesses; an "
                 "order through a third lane's bar.warp.sync of two masks is "
                 "not modeled");
          ++undecided;
          continue;
        }
        if (sameCta && ((x.async && !warpSyncMasks(x, y).empty()) ||
                        (y.async && !warpSyncMasks(y, x).empty()))) {
          // A cp.async write is performed up to its completing wait, which
          // may come before the bar.warp.sync between the two.
          record(name, VerdictKind::Unknown,
                 "the order of a cp.async write through bar.warp.sync is "
                 "not modeled");
          ++undecided;
          continue;
        }
        if (sameCta && bridged(x, y, p, *out.model)) {
          // t1 -> barrier 1 -> t3 -> barrier 2 -> t2 may order them.
          record(name, VerdictKind::Unknown,
                 "no barrier both threads take part in orders the accesses; "
                 "an order through a third thread's barriers of two ids is "
                 "not modeled");
          continue;
        }
        Assignment model = *out.model;
        std::string t1 = p.describe(model, "t1"), t2 = p.describe(model, "t2");
        // Two writes of one value are still a data race (PTX ISA, Memory
        // Consistency Model: conflicting, unordered, not morally strong);
        // only a contract with tolerate_equal_writes accepts them.
        bool equalValues = false;
        if (x.write && y.write && x.value && y.value && !onlyNonFinite) {
          Term v1 = p.first(x.value), v2 = p.second(y.value);
          // The same term up to bit-vector subterms (a warp reduction's
          // value at two lanes of one warp): a bit-vector question first.
          if (Term bvDiffer = bitVectorDifference(T, v1, v2)) {
            Query bv{T, options, &tableRanges, {cond, bvDiffer}};
            equalValues = bv.check().result == smt::CheckResult::Unsat;
          }
          Query::Outcome differ{smt::CheckResult::Unsat, std::nullopt, "", std::nullopt};
          if (!equalValues) {
            Query same{T, options, &tableRanges,
                       {cond, T.notOf(T.eq(v1, v2))}};
            differ = same.check();
            equalValues = differ.result == smt::CheckResult::Unsat;
          }
          if (!equalValues && tolerateEqualWrites) {
            // Tolerated unless the values differ: the counterexample is a
            // model where they do, confirmed with the true functions.
            if (differ.result != smt::CheckResult::Sat || !differ.model) {
              record(name, VerdictKind::Unknown,
                     "whether the two writes store the same value "
                     "(tolerate_equal_writes) is not decided: solver: " +
                         differ.reason);
              ++undecided;
              continue;
            }
            std::optional<bool> d =
                definitelyDiffer(v1, v2, *differ.model, options.mpfrBits);
            if (!d || !*d) {
              record(name, VerdictKind::Unknown,
                     "the solver's model of two different written values "
                     "(tolerate_equal_writes) is not confirmed with the true "
                     "functions");
              ++undecided;
              continue;
            }
            model = *differ.model;
            t1 = p.describe(model, "t1");
            t2 = p.describe(model, "t2");
          }
          if (equalValues && tolerateEqualWrites) {
            verdict.warnings.push_back(
                "tolerated race (both threads write the same value): " + what +
                ", thread " + t1 + " at " + locString(x.loc) + " and thread " +
                t2 + " at " + locString(y.loc));
            record(name, VerdictKind::Proved,
                   "tolerated: the same value is written "
                   "(tolerate_equal_writes)");
            continue;
          }
        }
        Evaluator ev(model, options.mpfrBits);
        std::optional<APInt> off = ev.bv(o1);
        std::string where =
            "byte " +
            (off ? std::to_string(off->getZExtValue()) : std::string("?"));
        bool inFlight = x.async || y.async;
        bool loopCarried = !inFlight && repeated.count(x.op) &&
                           repeated.count(y.op) && x.occurrence != y.occurrence;
        Counterexample c;
        auto verb = [](const MemoryAccess &m) {
          return m.atomic  ? "updates atomically (scope ." + m.scope + ")"
                 : m.async ? std::string("writes (cp.async, in flight until a "
                                         "cp.async.wait completes it)")
                           : std::string(m.write ? "writes" : "reads");
        };
        c.property =
            std::string(loopCarried ? "loop-carried " : "") + "data race on " +
            what + " (" + where + "): thread " + t1 + " " + verb(x) + " at " +
            locString(x.loc) + ", thread " + t2 + " " + verb(y) + " at " +
            locString(y.loc) +
            (!sameCta   ? " (two CTAs: no barrier orders them)"
             : inFlight ? " while the copy may be in flight (no "
                          "cp.async.wait and barrier between)"
             : x.clock.empty() && y.clock.empty()
                 ? " in the same barrier phase"
                 : " in the same barrier phase, not ordered by a "
                   "counted barrier or an mbarrier phase") +
            (loopCarried ? " (iterations " + std::to_string(x.occurrence) +
                               " and " + std::to_string(y.occurrence) +
                               " of a loop without a barrier between)"
                         : std::string()) +
            (equalValues ? " (both write the same value: still a data race; "
                           "the contract may tolerate it with "
                           "tolerate_equal_writes = true)"
                         : std::string());
        c.inputs = model;
        c.location = locString(x.loc);
        if (onlyNonFinite) {
          nonFiniteCandidate(name, c);
          record(name, VerdictKind::Unknown, "solver: " + out.reason);
          ++undecided;
          continue;
        }
        refutedAt(x.loc, c);
        record(name, VerdictKind::Refuted, "race: " + c.property);
        ++races;
      }
    }

  if (unchecked)
    record("race-free: " + Twine(unchecked).str() +
               " further pairs of accesses",
           VerdictKind::Unknown,
           "not checked: 8 race obligations were undecided already");

  // The value proof reads memory by phases: a read sees the writes of
  // earlier phases (one writer per element) and its own thread's. Two
  // lanes' accesses of one element in one phase that only bar.warp.sync
  // orders (a write another lane reads, or two writers) break that: the
  // values that pass through such a region are UNKNOWN.
  for (size_t i = 0; i < ex.accesses.size(); ++i)
    for (size_t j = i; j < ex.accesses.size(); ++j) {
      const MemoryAccess &x = ex.accesses[i], &y = ex.accesses[j];
      if (!mayRace(x, y, /*sameCta=*/true) ||
          warpOrderedRegions.count(x.region) ||
          (warpSyncMasks(x, y).empty() && warpSyncMasks(y, x).empty()))
        continue;
      ThreadPair p(T, ex, launch);
      Term o1;
      Term cond = raceCondition(p, x, y, true, o1, /*warpSync=*/false);
      if (cond->getKind() == Kind::BoolConst && !cond->getBoolValue())
        continue;
      Query q{T, options, &tableRanges, {cond}};
      if (q.check().result != smt::CheckResult::Unsat)
        warpOrderedRegions.emplace(x.region, x.loc);
    }

  // 2. Barrier divergence: in one phase, two threads of a CTA at different
  // barriers, or one at a barrier while the other exited.
  std::map<unsigned, std::vector<const BarrierArrival *>> byPhase;
  for (const BarrierArrival &a : ex.arrivals)
    byPhase[a.phase].push_back(&a);
  for (auto &[phase, list] : byPhase)
    for (size_t i = 0; i < list.size(); ++i)
      for (size_t j = i + 1; j < list.size(); ++j) {
        const BarrierArrival *x = list[i], *y = list[j];
        if (x->barrier == y->barrier)
          continue;
        if (!x->barrier)
          std::swap(x, y);
        if (x->barrier && y->barrier && !x->aligned && !y->aligned &&
            x->id == y->id)
          continue; // barrier.sync (not .aligned): same id, any place
        ThreadPair p(T, ex, launch);
        Term cond = T.andOf({p.first(x->pathCondition),
                             p.second(y->pathCondition), p.frame(true)});
        std::string name =
            y->barrier ? "barrier convergence: " + locString(x->loc) +
                             " / " + locString(y->loc)
                       : "no thread exits while others wait at the barrier at " +
                             locString(x->loc);
        Query q{T, options, &tableRanges, {cond}};
        Query::Outcome out =
            cond->getKind() == Kind::BoolConst && !cond->getBoolValue()
                ? Query::Outcome{smt::CheckResult::Unsat, std::nullopt, ""}
                : q.check();
        if (out.result == smt::CheckResult::Unsat) {
          proved(name, cond, "z3 (unsat)");
          continue;
        }
        bool onlyNonFinite = out.result == smt::CheckResult::Unknown &&
                             out.nonFiniteModel.has_value() && y->barrier;
        if ((out.result != smt::CheckResult::Sat || !out.model) &&
            !onlyNonFinite) {
          record(name, VerdictKind::Unknown, "solver: " + out.reason);
          continue;
        }
        if (onlyNonFinite)
          out.model = out.nonFiniteModel;
        std::string t1 = p.describe(*out.model, "t1"),
                    t2 = p.describe(*out.model, "t2");
        if (!y->barrier && x->aligned) {
          // An .aligned barrier that part of a warp skips (the rest of the
          // warp waits): divergence, not a clean exit (PTX ISA 9.7.13.4).
          Term warpCond = T.andOf(cond, p.sameWarp());
          Query wq{T, options, &tableRanges, {warpCond}};
          Query::Outcome wout = wq.check();
          if (wout.result == smt::CheckResult::Sat && wout.model) {
            std::string w1 = p.describe(*wout.model, "t1"),
                        w2 = p.describe(*wout.model, "t2");
            Counterexample c;
            c.property = "barrier divergence: thread " + w2 +
                         " skips the .aligned barrier at " +
                         locString(x->loc) + " (it exits at " +
                         locString(y->loc) + ") while thread " + w1 +
                         " of the same warp waits at it";
            c.inputs = *wout.model;
            c.location = locString(x->loc);
            refutedAt(x->loc, c);
            record(name, VerdictKind::Refuted, "divergent barrier");
            continue;
          }
        }
        if (!y->barrier) {
          verdict.warnings.push_back(
              "thread " + t2 + " exits (at " + locString(y->loc) +
              ") before the barrier at " + locString(x->loc) +
              " that thread " + t1 + " waits at");
          record(name, VerdictKind::Proved,
                 "warning: exited threads do not take part");
          continue;
        }
        Counterexample c;
        c.property = "barrier divergence: thread " + t1 + " waits at the "
                     "barrier at " + locString(x->loc) + ", thread " + t2 +
                     " of the same CTA at the barrier at " +
                     locString(y->loc) + " (an .aligned barrier must be "
                     "reached by every thread of the CTA at the same place)";
        c.inputs = *out.model;
        c.location = locString(x->loc);
        if (onlyNonFinite) {
          nonFiniteCandidate(name, c);
          record(name, VerdictKind::Unknown, "solver: " + out.reason);
          continue;
        }
        refutedAt(x->loc, c);
        record(name, VerdictKind::Refuted, "divergent barrier");
      }

  if (!ex.countedArrivals.empty() || !ex.mbarrierEvents.empty())
    checkBarrierCycles(ex);
  checkCountedBarriers(ex, launch);
  checkMBarriers(ex, launch);

  // 3. Shared reads resolved to their writers. Most of these hold: asked
  // together first (provedTogether), one by one where that fails.
  // A writer-uniqueness obligation is asked by its address part first
  // (ResolutionObligation::addressOnly): unsat there is unsat for the
  // whole, without the two writers' values.
  auto firstAsked = [](const ResolutionObligation &r) {
    return r.addressOnly ? r.addressOnly : r.condition;
  };
  SmallVector<Term> batch;
  SmallVector<const ResolutionObligation *> batched;
  for (const ResolutionObligation &r : ex.resolutions)
    if (!(r.condition->getKind() == Kind::BoolConst &&
          !r.condition->getBoolValue()) &&
        !(r.addressOnly && r.onlyWriter)) {
      batch.push_back(firstAsked(r));
      batched.push_back(&r);
    }
  std::vector<bool> together = provedTogether(batch);
  llvm::DenseSet<const ResolutionObligation *> provedInBatch;
  for (auto [k, r] : llvm::enumerate(batched))
    if (together[k])
      provedInBatch.insert(r);
  for (const ResolutionObligation &r : ex.resolutions) {
    if (provedInBatch.count(&r)) {
      std::string name =
          r.uninitialized
              ? "initialized: " + r.what + " (at " + locString(r.loc) + ")"
              : r.what + " (read at " + locString(r.loc) + ")";
      proved(name, firstAsked(r), "z3 (unsat, asked together with others)");
      continue;
    }
    if (r.uninitialized) {
      checkNever("initialized: " + r.what + " (at " + locString(r.loc) + ")",
                 r.condition, T.boolConst(true), r.loc);
      continue;
    }
    std::string name = r.what + " (read at " + locString(r.loc) + ")";
    if (r.addressOnly && r.onlyWriter) {
      crossCheckUnsat(r.addressOnly, "writer uniqueness of a one-to-one "
                                     "address layout");
      proved(name, r.addressOnly,
             "the write's address is one-to-one in the thread ids (mixed "
             "radix): no other writer");
      continue;
    }
    if (r.condition->getKind() == Kind::BoolConst &&
        !r.condition->getBoolValue()) {
      proved(name, r.condition, "normalizer");
      continue;
    }
    if (r.addressOnly) {
      Query qa{T, options, &tableRanges, {r.addressOnly}};
      if (qa.check().result == smt::CheckResult::Unsat) {
        proved(name, r.addressOnly, "z3 (unsat: no other writer)");
        continue;
      }
      // Other writers store the same term up to bit-vector subterms (the
      // lanes of one warp, each holding the warp's reduction): equal
      // wherever those are.
      if (r.otherValue && r.witnessValue)
        if (Term bvDiffer =
                bitVectorDifference(T, r.otherValue, r.witnessValue)) {
          // Asked in two parts (each smaller): the witness misses nowhere
          // another writer hits, and the values agree at equal indices.
          Term cond = T.andOf(
              r.addressOnly,
              r.witnessMissed ? T.orOf(bvDiffer, r.witnessMissed) : bvDiffer);
          auto unsatPart = [&](Term part) {
            Query qp{T, options, &tableRanges, {T.andOf(r.addressOnly, part)}};
            return qp.check().result == smt::CheckResult::Unsat;
          };
          if ((!r.witnessMissed || unsatPart(r.witnessMissed)) &&
              unsatPart(bvDiffer)) {
            proved(name, cond,
                   "z3 (unsat: every other writer writes the same term at "
                   "equal indices)");
            continue;
          }
        }
    }
    Query q{T, options, &tableRanges, {r.condition}};
    Query::Outcome out = q.check();
    if (out.result == smt::CheckResult::Unsat)
      proved(name, r.condition, "z3 (unsat)");
    else
      record(name, VerdictKind::Unknown,
             out.result == smt::CheckResult::Sat
                 ? (!r.whyUnknown.empty()
                        ? r.whyUnknown
                        : "another thread may write the same element in "
                          "that phase (see the race checks); the value read "
                          "is not determined")
                 : "solver: " + out.reason);
  }

}

bool Checker::threadsOfCta(const ExecutionResult &ex,
                           const LaunchConfig &launch, Term cond,
                           std::vector<char> &holds, std::string &undecidedAt) {
  uint64_t bx = launch.block[0], by = launch.block[1],
           cta = bx * by * launch.block[2];
  holds.assign(cta, 0);
  // What is left after fixing the thread id (the CTA's range facts, the
  // data): decided with Z3 over every CTA and input, once per residue.
  SmallVector<Term> ctaFacts{launch.facts(T)};
  for (auto &[name, extent] : ex.threadVars)
    if (StringRef(name).starts_with("ctaid."))
      ctaFacts.push_back(T.bvUlt(T.bvVar(name, 32), launch.extentOf(T, name)));
  Term ctaRange = T.andOf(ctaFacts);
  llvm::DenseMap<Term, std::optional<bool>> residues;
  auto constantOver = [&](Term v) -> std::optional<bool> {
    auto it = residues.find(v);
    if (it != residues.end())
      return it->second;
    std::optional<bool> r;
    for (bool value : {true, false}) {
      Query q{T, options, &tableRanges, {ctaRange, value ? T.notOf(v) : v}};
      if (q.check().result == smt::CheckResult::Unsat) {
        r = value;
        break;
      }
    }
    residues[v] = r;
    return r;
  };
  for (uint64_t lin = 0; lin < cta; ++lin) {
    llvm::DenseMap<Term, Term> sub;
    uint64_t xyz[3] = {lin % bx, (lin / bx) % by, lin / (bx * by)};
    static const char *names[] = {"tid.x", "tid.y", "tid.z"};
    for (int d = 0; d < 3; ++d)
      if (launch.block[d] > 1)
        sub[T.bvVar(names[d], 32)] = T.bv(xyz[d], 32);
    Term v = T.substitute(cond, sub);
    std::optional<bool> value;
    if (v->getKind() == Kind::BoolConst)
      value = v->getBoolValue();
    else
      value = constantOver(v);
    if (!value || residues.size() > 64) {
      undecidedAt = std::to_string(lin);
      return false;
    }
    holds[lin] = *value;
  }
  return true;
}

/// The progress of a path (its clock) at barrier `id`: none when it never
/// passed it.
static BarrierClock clockAt(ArrayRef<BarrierClock> clock, unsigned id) {
  for (const BarrierClock &c : clock)
    if (c.id == id)
      return c;
  return BarrierClock{id, 0, 0};
}

void Checker::checkBarrierCycles(const ExecutionResult &ex) {
  // Deadlock freedom: a thread that waits at one barrier (a CTA phase or
  // a generation of a counted barrier) arrives at the next ones only after
  // it completes, so "completes before" runs from each wait to every later
  // barrier of the path. A cycle over the paths (two groups taking two
  // counted barriers in opposite orders; a counted barrier one group
  // reaches before __syncthreads and another after it) may deadlock.
  {
    using Node = std::tuple<bool, unsigned, unsigned>;
    std::map<Node, std::set<Node>> after;
    std::map<Node, Location> where;
    for (const BarrierArrival &a : ex.arrivals) {
      if (a.barrier)
        continue;
      for (size_t i = 0; i < a.events.size(); ++i) {
        Node ni{a.events[i].cta, a.events[i].id, a.events[i].index};
        where.try_emplace(ni, a.events[i].loc);
        if (!a.events[i].waits)
          continue;
        for (size_t j = i + 1; j < a.events.size(); ++j)
          after[ni].insert(
              Node{a.events[j].cta, a.events[j].id, a.events[j].index});
      }
    }
    std::map<Node, int> color; // 0 new, 1 on the stack, 2 done
    std::vector<Node> cycle;
    std::function<bool(const Node &)> dfs = [&](const Node &n) {
      color[n] = 1;
      for (const Node &m : after[n]) {
        if (color[m] == 1 || (color[m] == 0 && dfs(m))) {
          cycle.push_back(n);
          return true;
        }
      }
      color[n] = 2;
      return false;
    };
    for (auto &[n, succ] : after)
      if (color[n] == 0 && dfs(n))
        break;
    std::string name = "barriers complete (no two barriers wait on each "
                       "other)";
    if (!cycle.empty()) {
      auto nodeName = [&](const Node &n) {
        auto [cta, id, index] = n;
        std::string s =
            cta ? "the CTA barrier ending phase " + std::to_string(index)
            : ex.mbarrierNames.count(id)
                ? "phase " + std::to_string(index - 1) + " of the " +
                      ex.mbarrierNames.at(id)
                : "arrival " + std::to_string(index) + " at barrier " +
                      std::to_string(id);
        auto it = where.find(n);
        return it == where.end() ? s : s + " (" + locString(it->second) + ")";
      };
      std::string chain;
      for (const Node &n : llvm::reverse(cycle))
        chain += (chain.empty() ? "" : ", then ") + nodeName(n);
      record(name, VerdictKind::Unknown,
             "barriers may wait on each other in a cycle (a deadlock, or "
             "one barrier id used by different groups one after the other, "
             "which is not modeled): on some paths " +
                 chain + " each wait for the other to complete first");
    } else {
      proved(name, T.boolConst(false), "normalizer");
    }
  }
}

void Checker::checkCountedBarriers(const ExecutionResult &ex,
                                   const LaunchConfig &launch) {
  if (ex.countedArrivals.empty())
    return;
  std::map<unsigned, std::vector<const CountedArrival *>> byId;
  for (const CountedArrival &a : ex.countedArrivals)
    byId[a.id].push_back(&a);

  for (auto &[id, list] : byId) {
    std::string bar = "barrier " + std::to_string(id);
    // One thread count per id, a multiple of the warp size (PTX ISA
    // 9.7.13.4: "all threads ... must use the same b"; "b must be a
    // multiple of the warp size").
    std::string countName = bar + ": one thread count, a multiple of 32";
    const CountedArrival *first = list.front();
    if (llvm::any_of(list, [](const CountedArrival *a) { return !a->count; })) {
      record(countName, VerdictKind::Unknown,
             bar + " is used without a thread count (every thread of a "
                   "symbolic CTA) and with bar.arrive or a count: not "
                   "modeled");
      continue;
    }
    const CountedArrival *other = nullptr;
    for (const CountedArrival *a : list)
      if (a->count != first->count)
        other = a;
    if (other) {
      refuteObligation(countName, other->loc,
                       bar + " is used with thread counts " +
                           std::to_string(first->count) + " (at " +
                           locString(first->loc) + ") and " +
                           std::to_string(other->count) + " (at " +
                           locString(other->loc) + ")",
                       {});
      continue;
    }
    uint64_t n = first->count;
    if (n % 32 != 0) {
      refuteObligation(countName, first->loc,
                       "the thread count " + std::to_string(n) + " of " + bar +
                           " is not a positive multiple of the warp size (32)",
                       {});
      continue;
    }
    proved(countName, T.boolConst(false), "normalizer");

    // One instruction per warp: the lanes of a warp reach an .aligned
    // barrier at the same instruction (PTX ISA 9.7.13.4).
    std::string sameName = bar + ": a warp arrives at one instruction";
    bool sameOk = true;
    for (size_t i = 0; i < list.size() && sameOk; ++i)
      for (size_t j = i + 1; j < list.size() && sameOk; ++j) {
        const CountedArrival *x = list[i], *y = list[j];
        if (x->op == y->op || x->generation != y->generation ||
            !(x->aligned || y->aligned))
          continue;
        ThreadPair p(T, ex, launch);
        Term cond =
            T.andOf({p.first(x->pathCondition), p.second(y->pathCondition),
                     p.frame(true), p.sameWarp()});
        Query q{T, options, &tableRanges, {cond}};
        Query::Outcome out = q.check();
        if (out.result == smt::CheckResult::Unsat)
          continue;
        sameOk = false;
        if (out.result != smt::CheckResult::Sat || !out.model) {
          record(sameName, VerdictKind::Unknown, "solver: " + out.reason);
          break;
        }
        refuteObligation(
            sameName, y->loc,
            "barrier divergence: thread " + p.describe(*out.model, "t1") +
                " arrives at the .aligned " + bar + " at " + locString(x->loc) +
                ", thread " + p.describe(*out.model, "t2") +
                " of the same warp at " + locString(y->loc) +
                " (a warp must execute an .aligned barrier at one "
                "instruction)",
            *out.model);
      }
    if (!sameOk)
      continue;
    proved(sameName, T.boolConst(false), "normalizer");

    // Equal arrival counts: two threads whose paths arrive a different
    // number of times (both at least once) put arrivals of different
    // generations together; when the one that arrives more often waits
    // at an arrival the other never makes, that generation lacks it.
    std::string equalName = bar + ": every participant arrives equally often";
    bool equalOk = true;
    for (size_t i = 0; i < ex.arrivals.size() && equalOk; ++i)
      for (size_t j = i + 1; j < ex.arrivals.size() && equalOk; ++j) {
        const BarrierArrival &x = ex.arrivals[i], &y = ex.arrivals[j];
        if (x.barrier || y.barrier)
          continue;
        BarrierClock cx = clockAt(x.clock, id), cy = clockAt(y.clock, id);
        if (cx.arrivals == cy.arrivals || !cx.arrivals || !cy.arrivals)
          continue;
        ThreadPair p(T, ex, launch);
        Term cond = T.andOf({p.first(x.pathCondition),
                             p.second(y.pathCondition), p.frame(true)});
        Query q{T, options, &tableRanges, {cond}};
        Query::Outcome out = q.check();
        if (out.result == smt::CheckResult::Unsat)
          continue;
        equalOk = false;
        if (out.result != smt::CheckResult::Sat || !out.model) {
          record(equalName, VerdictKind::Unknown, "solver: " + out.reason);
          break;
        }
        const BarrierClock &more = cx.arrivals > cy.arrivals ? cx : cy;
        unsigned fewer = std::min(cx.arrivals, cy.arrivals);
        if (more.lastWait <= fewer) {
          record(equalName, VerdictKind::Unknown,
                 "threads arrive at " + bar + " " +
                     std::to_string(cx.arrivals) + " and " +
                     std::to_string(cy.arrivals) +
                     " times, the extra arrivals without waiting: the "
                     "generations they join are not modeled");
          break;
        }
        auto times = [](unsigned k) {
          return k == 1   ? std::string("once")
                 : k == 2 ? std::string("twice")
                          : std::to_string(k) + " times";
        };
        refuteObligation(equalName, first->loc,
                         "unequal arrival counts: thread " +
                             p.describe(*out.model, "t1") + " arrives at " +
                             bar + " " + times(cx.arrivals) + ", thread " +
                             p.describe(*out.model, "t2") +
                             " of the same CTA " + times(cy.arrivals) +
                             " (a generation it waits for "
                             "lacks the other)",
                         *out.model);
      }
    if (!equalOk)
      continue;
    proved(equalName, T.boolConst(false), "normalizer");

    // The participants: which threads of a CTA arrive at the barrier,
    // counted over the concrete CTA. The hardware counts arrivals per warp
    // ("marks warps' arrival"), so participation must be uniform per warp.
    std::string partName =
        bar + ": " + std::to_string(n) + " threads take part, whole warps";
    if (launch.isSymbolic()) {
      record(partName, VerdictKind::Unknown,
             "the participants of a counted barrier over a symbolic launch "
             "are not counted");
      continue;
    }
    uint64_t bx = launch.block[0], by = launch.block[1],
             cta = bx * by * launch.block[2];
    std::vector<char> takesPart;
    std::string undecidedAt;
    if (!threadsOfCta(ex, launch, participation(T, ex, id), takesPart,
                      undecidedAt)) {
      record(partName, VerdictKind::Unknown,
             "whether a thread takes part in " + bar +
                 " depends on the CTA or the data (linear thread " +
                 undecidedAt + "): the participants are not counted");
      continue;
    }
    auto threadName = [&](uint64_t lin) {
      std::string s = "(tid.x=" + std::to_string(lin % bx);
      if (by > 1 || launch.block[2] > 1)
        s += ", tid.y=" + std::to_string((lin / bx) % by);
      if (launch.block[2] > 1)
        s += ", tid.z=" + std::to_string(lin / (bx * by));
      return s + ")";
    };
    bool aligned =
        llvm::all_of(list, [](const CountedArrival *a) { return a->aligned; });
    uint64_t m = 0;
    bool warpsOk = true;
    for (uint64_t w = 0; w * 32 < cta && warpsOk; ++w) {
      uint64_t lo = w * 32, hi = std::min(cta, lo + 32);
      for (uint64_t t = lo; t < hi; ++t) {
        m += takesPart[t];
        if (takesPart[t] == takesPart[lo])
          continue;
        uint64_t in = takesPart[t] ? t : lo, out = takesPart[t] ? lo : t;
        if (aligned)
          refuteObligation(partName, first->loc,
                           "barrier divergence: thread " + threadName(in) +
                               " arrives at the .aligned " + bar +
                               " and thread " + threadName(out) +
                               " of the same warp never does",
                           {});
        else
          record(partName, VerdictKind::Unknown,
                 "thread " + threadName(in) + " arrives at " + bar +
                     " and thread " + threadName(out) +
                     " of the same warp never does: the hardware counts "
                     "arrivals per warp, which is not modeled");
        warpsOk = false;
        break;
      }
      if (warpsOk && takesPart[lo] && hi - lo < 32) {
        record(partName, VerdictKind::Unknown,
               "the partial warp of threads " + std::to_string(lo) + ".." +
                   std::to_string(hi - 1) + " takes part in " + bar +
                   ": how it counts is not modeled");
        warpsOk = false;
      }
    }
    if (!warpsOk)
      continue;
    uint64_t firstIn =
        std::find(takesPart.begin(), takesPart.end(), 1) - takesPart.begin();
    std::string who =
        firstIn < cta ? " (the first is " + threadName(firstIn) + ")" : "";
    if (m < n) {
      refuteObligation(partName, first->loc,
                       "wrong participant count: " + std::to_string(m) +
                           " threads of each CTA arrive at " + bar + who +
                           ", whose thread count is " + std::to_string(n) +
                           " (a generation never completes)",
                       {});
      continue;
    }
    if (m > n) {
      record(partName, VerdictKind::Unknown,
             std::to_string(m) + " threads of each CTA arrive at " + bar + who +
                 ", whose thread count is " + std::to_string(n) +
                 ": which arrivals form a generation (a wrong count, or one "
                 "id reused by groups one after the other) is not modeled");
      continue;
    }
    proved(partName, T.boolConst(false), "normalizer");
  }
}

//===----------------------------------------------------------------------===//
// mbarrier objects (PTX ISA 9.7.13.15)
//===----------------------------------------------------------------------===//

void Checker::checkMBarriers(const ExecutionResult &ex,
                             const LaunchConfig &launch) {
  using K = MBarrierEvent::Kind;
  std::map<unsigned, std::vector<const MBarrierEvent *>> byId;
  for (const MBarrierEvent &e : ex.mbarrierEvents)
    byId[e.id].push_back(&e);
  // Whether two distinct threads of one CTA can take paths c1 (thread t1)
  // and c2 (t2): false when not (unsat); else true, after recording the
  // obligation `name` REFUTED at `loc` with `property(pair, model)`, or
  // UNKNOWN when the solver does not decide.
  auto twoThreadsMay =
      [&](const std::string &name, Term c1, Term c2, Location loc,
          llvm::function_ref<std::string(ThreadPair &, const Assignment &)>
              property) {
        ThreadPair p(T, ex, launch);
        Query q{T,
                options,
                &tableRanges,
                {T.andOf({p.first(c1), p.second(c2), p.frame(true)})}};
        Query::Outcome out = q.check();
        if (out.result == smt::CheckResult::Unsat)
          return false;
        if (out.result != smt::CheckResult::Sat || !out.model)
          record(name, VerdictKind::Unknown, "solver: " + out.reason);
        else
          refuteObligation(name, loc, property(p, *out.model), *out.model);
        return true;
      };
  auto what = [](const MBarrierEvent &e) {
    switch (e.kind) {
    case K::Init:
      return "initializes";
    case K::Arrive:
      return "arrives at";
    case K::Wait:
      return "waits on";
    case K::Inval:
      return "invalidates";
    }
    return "uses";
  };
  // The paths that ran to their end, with their final clocks.
  SmallVector<const BarrierArrival *> exits;
  for (const BarrierArrival &a : ex.arrivals)
    if (!a.barrier)
      exits.push_back(&a);

  for (auto &[id, events] : byId) {
    std::string bar = ex.mbarrierNames.at(id);
    SmallVector<const MBarrierEvent *> inits, uses, arrives, waits, invals;
    for (const MBarrierEvent *e : events) {
      (e->kind == K::Init ? inits : uses).push_back(e);
      if (e->kind == K::Arrive)
        arrives.push_back(e);
      if (e->kind == K::Wait)
        waits.push_back(e);
      if (e->kind == K::Inval)
        invals.push_back(e);
    }

    // 1. Lifetime: exactly one thread of each CTA initializes the object,
    // every other thread uses it only in a later CTA phase (after the
    // barrier that publishes the init), and none after an inval.
    std::string lifeName = bar + ": initialized once, before every use";
    bool lifeOk = true;
    if (inits.empty()) {
      const MBarrierEvent *u = uses.front();
      ThreadPair p(T, ex, launch);
      Query q{T,
              options,
              &tableRanges,
              {T.andOf(p.first(u->pathCondition), p.frame(true))}};
      Query::Outcome out = q.check();
      if (out.result == smt::CheckResult::Sat && out.model) {
        refuteObligation(lifeName, u->loc,
                         "thread " + p.describe(*out.model, "t1") + " " +
                             what(*u) + " the " + bar + " at " +
                             locString(u->loc) +
                             ", which no thread initializes (mbarrier.init)",
                         *out.model);
      } else {
        record(lifeName, VerdictKind::Unknown,
               "the " + bar +
                   " is used and never initialized, on paths the "
                   "solver did not decide: " +
                   out.reason);
      }
      continue;
    }
    for (const MBarrierEvent *i : inits)
      for (const MBarrierEvent *u : events) {
        if (!lifeOk)
          break;
        if (u == i)
          continue;
        bool early = u->kind != K::Init && u->phase <= i->phase && !u->ownInit;
        bool twice = u->kind == K::Init;
        if (!early && !twice)
          continue;
        lifeOk = !twoThreadsMay(
            lifeName, i->pathCondition, u->pathCondition, u->loc,
            [&](ThreadPair &p, const Assignment &m) {
              std::string t1 = p.describe(m, "t1"), t2 = p.describe(m, "t2");
              return twice
                         ? "the " + bar +
                               " is initialized by two threads: " + t1 +
                               " at " + locString(i->loc) + " and " + t2 +
                               " at " + locString(u->loc) +
                               " (initializing an object in use is undefined)"
                         : "use before init: thread " + t2 + " " + what(*u) +
                               " the " + bar + " at " + locString(u->loc) +
                               " in barrier phase " + std::to_string(u->phase) +
                               ", while thread " + t1 + " initializes it at " +
                               locString(i->loc) + " in phase " +
                               std::to_string(i->phase) +
                               " (no CTA barrier between)";
            });
      }
    for (const MBarrierEvent *v : invals)
      for (const MBarrierEvent *u : events) {
        if (!lifeOk)
          break;
        if (u == v || u->phase < v->phase || u->kind == K::Init)
          continue;
        lifeOk = !twoThreadsMay(
            lifeName, v->pathCondition, u->pathCondition, u->loc,
            [&](ThreadPair &p, const Assignment &m) {
              return "use after inval: thread " + p.describe(m, "t2") + " " +
                     what(*u) + " the " + bar + " at " + locString(u->loc) +
                     " in barrier phase " + std::to_string(u->phase) +
                     ", not before thread " + p.describe(m, "t1") +
                     " invalidates it at " + locString(v->loc) + " in phase " +
                     std::to_string(v->phase);
            });
      }
    if (!lifeOk)
      continue;
    // One initializing thread per CTA (concrete launches: counted).
    std::optional<uint64_t> count;
    for (const MBarrierEvent *i : inits) {
      std::optional<uint64_t> n;
      if (i->count->getKind() == Kind::BVConst)
        n = i->count->getAPInt().getZExtValue();
      if (!n || (count && *count != *n)) {
        count.reset();
        break;
      }
      count = n;
    }
    if (launch.isSymbolic()) {
      record(lifeName, VerdictKind::Unknown,
             "the threads that initialize the " + bar +
                 " are not counted over a symbolic launch");
      continue;
    }
    SmallVector<Term> initConds;
    for (const MBarrierEvent *i : inits)
      initConds.push_back(i->pathCondition);
    std::vector<char> initializes;
    std::string undecidedAt;
    if (!threadsOfCta(ex, launch, T.orOf(initConds), initializes,
                      undecidedAt)) {
      record(lifeName, VerdictKind::Unknown,
             "whether a thread initializes the " + bar +
                 " depends on the CTA or the data (linear thread " +
                 undecidedAt + ")");
      continue;
    }
    size_t initializers = llvm::count(initializes, 1);
    if (initializers != 1) {
      auto first = llvm::find(initializes, 1) - initializes.begin();
      auto second =
          std::find(initializes.begin() + first + 1, initializes.end(), 1) -
          initializes.begin();
      refuteObligation(
          lifeName, inits.front()->loc,
          initializers == 0
              ? "no thread of a CTA initializes the " + bar +
                    ", which threads use"
              : "the " + bar + " is initialized by " +
                    std::to_string(initializers) +
                    " threads of each CTA (linear ids " +
                    std::to_string(first) + " and " + std::to_string(second) +
                    "): initializing an object in use is undefined",
          {});
      continue;
    }
    proved(lifeName, T.boolConst(false), "z3 (unsat)");
    if (!count) {
      record(bar + ": the init count", VerdictKind::Unknown,
             "the " + bar +
                 " is initialized with a count that is not one "
                 "constant");
      continue;
    }
    uint64_t n = *count;

    // Only mbarrier instructions touch the object while it is in use: a
    // plain access of its 8 bytes from the first init's barrier phase on
    // (earlier ones, such as zero-filling shared memory, are overwritten
    // by the init).
    std::string plainName = bar + ": only mbarrier instructions access it";
    {
      auto [region, offset] = ex.mbarrierObjects.at(id);
      unsigned firstInit = ~0u;
      for (const MBarrierEvent *i : inits)
        firstInit = std::min(firstInit, i->phase);
      bool plainOk = true;
      for (const MemoryAccess &a : ex.accesses) {
        if (a.region != region || a.lastPhase() < firstInit)
          continue;
        ThreadPair p(T, ex, launch);
        Term o = p.first(a.byteOffset);
        Term overlap =
            T.andOf(T.bvUlt(o, T.bv(offset + 8, 64)),
                    T.bvUlt(T.bv(offset, 64),
                            T.bvBin(Kind::BVAdd, o, T.bv(a.bytes, 64))));
        SmallVector<Term> conds{p.first(a.pathCondition), overlap,
                                launch.facts(T)};
        for (auto &[name, extent] : ex.threadVars)
          conds.push_back(
              T.bvUlt(T.bvVar("t1." + name, 32), launch.extentOf(T, name)));
        Query q{T, options, &tableRanges, {T.andOf(conds)}};
        Query::Outcome out = q.check();
        if (out.result == smt::CheckResult::Unsat)
          continue;
        plainOk = false;
        if (out.result != smt::CheckResult::Sat || !out.model) {
          record(plainName, VerdictKind::Unknown, "solver: " + out.reason);
          break;
        }
        refuteObligation(plainName, a.loc,
                         "thread " + p.describe(*out.model, "t1") + " " +
                             (a.write ? "writes" : "reads") +
                             " the bytes of the " + bar + " at " +
                             locString(a.loc) +
                             " with an ordinary access, in barrier phase " +
                             std::to_string(a.phase) +
                             " (only mbarrier instructions may access a live "
                             "object)",
                         *out.model);
        break;
      }
      if (!plainOk)
        continue;
      proved(plainName, T.boolConst(false), "z3 (unsat)");
    }

    // 4. Each arrival joins the phase after its previous one: the phase
    // of the thread's previous arrival (number g - 1) is complete before
    // arrival g, or two of its arrivals could land in one phase.
    std::string joinName = bar + ": each arrival joins the next phase";
    bool joinOk = !ex.mbarrierUnaligned.count(id);
    if (!joinOk)
      record(joinName, VerdictKind::Unknown, ex.mbarrierUnaligned.at(id));
    if (joinOk && llvm::any_of(arrives, [](const MBarrierEvent *e) {
          return e->generation >= 2;
        }))
      proved(joinName, T.boolConst(false), "normalizer");

    // 2. Participants: exactly n threads of each CTA arrive (one arrival
    // per phase each; the hardware counts each thread's arrival).
    std::string partName =
        bar + ": " + std::to_string(n) + " threads arrive per phase";
    std::vector<char> takesPart;
    if (!threadsOfCta(ex, launch, participation(T, ex, id), takesPart,
                      undecidedAt)) {
      record(partName, VerdictKind::Unknown,
             "whether a thread arrives at the " + bar +
                 " depends on the CTA or the data (linear thread " +
                 undecidedAt + "): the participants are not counted");
      continue;
    }
    uint64_t m = llvm::count(takesPart, 1);
    // Fewer arrivers than the count leave a phase incomplete when each
    // arrives once per phase (its arrivals join successive phases, or it
    // arrives once); no arrival at all leaves phase 0 incomplete.
    if (m < n && m > 0 && !joinOk) {
      record(partName, VerdictKind::Unknown,
             std::to_string(m) + " threads of each CTA arrive at the " + bar +
                 ", initialized with count " + std::to_string(n) +
                 ", some of them more than once before a phase completes: "
                 "the arrivals per phase are not counted");
      continue;
    }
    if (m < n && (!arrives.empty() || !waits.empty())) {
      // At a wait, which the phase leaves waiting (a deadlock), if any.
      refuteObligation(
          partName, (waits.empty() ? arrives : waits).front()->loc,
          "wrong arrival count: " + std::to_string(m) +
              " threads of each CTA arrive at the " + bar +
              ", initialized with count " + std::to_string(n) + " at " +
              locString(inits.front()->loc) + " (its phase never completes" +
              (waits.empty() ? "" : ": a deadlock of the waits") + ")",
          {});
      continue;
    }
    if (m > n) {
      record(partName, VerdictKind::Unknown,
             std::to_string(m) + " threads of each CTA arrive at the " + bar +
                 ", initialized with count " + std::to_string(n) +
                 ": which arrivals form a phase is not modeled");
      continue;
    }
    if (!arrives.empty())
      proved(partName, T.boolConst(false), "normalizer");

    // 3. Every wait completes: its phase needs the arrival of every
    // participant, each of which arrives that often; and the object is
    // then at that phase, not two on (the parity would name a later one).
    unsigned maxArrivals = 0;
    for (const BarrierArrival *a : exits)
      maxArrivals = std::max(maxArrivals, clockAt(a->clock, id).arrivals);
    std::string waitName = bar + ": every wait completes on its phase";
    bool waitOk = true;
    for (const BarrierArrival *x : exits) {
      unsigned w = clockAt(x->clock, id).lastWait;
      if (!w || !waitOk)
        continue;
      for (const BarrierArrival *y : exits) {
        unsigned a = clockAt(y->clock, id).arrivals;
        if (a == 0 || a >= w)
          continue;
        waitOk = !twoThreadsMay(
            waitName, x->pathCondition, y->pathCondition, x->loc,
            [&](ThreadPair &p, const Assignment &m) {
              return "deadlock: thread " + p.describe(m, "t1") +
                     " waits for phase " + std::to_string(w - 1) + " of the " +
                     bar + ", which completes after " + std::to_string(w) +
                     " arrivals of each of its " + std::to_string(n) +
                     " participants; thread " + p.describe(m, "t2") +
                     " arrives " + std::to_string(a) + " time" +
                     (a == 1 ? "" : "s");
            });
        if (!waitOk)
          break;
      }
      // Its own arrivals: a participant waiting for a phase it does not
      // arrive in.
      unsigned own = clockAt(x->clock, id).arrivals;
      if (waitOk && own > 0 && own < w) {
        waitOk = false;
        refuteObligation(waitName, x->loc,
                         "deadlock: a thread waits for phase " +
                             std::to_string(w - 1) + " of the " + bar +
                             " and arrives only " + std::to_string(own) +
                             " times itself",
                         {});
      }
    }
    if (!waitOk)
      continue;
    // Not two phases on. A wait that has seen phases 0..s-1 complete names
    // with its parity phase s (it waits for it) or phase s - 1 (complete:
    // it passes at once, passesEarly). Either is what the hardware does
    // only while phase s + 1 ... that is, while the object has not
    // completed phase s yet or just has: were phase s + 1 ... complete
    // too, the parity would name a later phase. So generation s + 2 (s + 1
    // for an early pass) must not complete before the wait: the waiting
    // thread's own next arrival at some barrier k1 comes before it
    // (GenerationOrder::must), or no path arrives that often.
    bool aheadOk = true;
    for (const MBarrierEvent *w : waits) {
      unsigned g = w->passesEarly ? w->generation + 1 : w->generation + 2;
      if (maxArrivals < g)
        continue;
      bool ordered = false;
      for (unsigned k1 : ex.generations.ids) {
        unsigned a = clockAt(w->clock, k1).arrivals;
        if (!ex.generations.reaches(/*mustOrder=*/true, k1, a + 1, id, g))
          continue;
        Term part = participation(T, ex, k1);
        SmallVector<Term> conds{w->pathCondition, T.notOf(part),
                                launch.facts(T)};
        for (auto &[name, extent] : ex.threadVars)
          if (StringRef(name).starts_with("ctaid."))
            conds.push_back(
                T.bvUlt(T.bvVar(name, 32), launch.extentOf(T, name)));
        Query q{T, options, &tableRanges, {T.andOf(conds)}};
        if (a >= 1 || q.check().result == smt::CheckResult::Unsat) {
          ordered = true;
          break;
        }
      }
      if (ordered)
        continue;
      aheadOk = false;
      record(waitName, VerdictKind::Unknown,
             "the " + bar + " may complete phase " + std::to_string(g - 1) +
                 " before the wait at " + locString(w->loc) +
                 " (nothing the waiting thread does after it is needed "
                 "for that phase): its parity would then name a later "
                 "phase than the one modeled");
      break;
    }
    if (!aheadOk)
      continue;
    if (!waits.empty())
      proved(waitName, T.boolConst(false), "normalizer");
  }
}

} // namespace kproof::engine::check
