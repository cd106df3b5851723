//===- Coverage.cpp - per-thread stores, coverage -------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The stores of a multi-thread launch (docs/design-notes.md "Stores of one
// thread, and coverage"): `checkThreadStores` compares the representative
// thread's final stores on one path, each with its buffer's spec at its index
// (stores at fixed elements, families of a summarized loop, later stores
// superseding earlier ones at the same index term, stores at different index
// terms proved to write different elements), split over the 32 lanes of tid.x
// where the value is lane code
// (`checkByLane`: shuffle partners, lane and warp parts of tid.x).
// `checkCoverage` proves that every element the spec defines is written,
// by the witness thread found by inverting the stores' layout (a
// mixed-radix system over the thread variables, else the 1-D witness
// ctaid.x = e / ntid.x, tid.x = e % ntid.x); `coverRowSplit` decides
// one-row-per-thread layouts n * R + W row by row.
//
//===----------------------------------------------------------------------===//

#include "CheckerImpl.h"

#include "KProof/Verifier/Terms/IndexShift.h"

#include <chrono>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::check {

/// `a == b` for two BV index terms of one width, with the summands their
/// canonical forms (TermContext::canonicalIndex) have in common cancelled:
/// P + u == P + v iff u == v in modular arithmetic, so a query about two
/// stores of one row (row * n + 4 k + 1 against row * n + k2) does not
/// carry the nonlinear row offset.
static Term indexEquality(TermContext &T, Term a, Term b) {
  Term ca = T.canonicalIndex(a), cb = T.canonicalIndex(b);
  auto summands = [](Term t) {
    SmallVector<Term> out, work{t};
    while (!work.empty()) {
      Term x = work.pop_back_val();
      if (x->getKind() == Kind::BVAdd)
        work.append(x->getOperands().begin(), x->getOperands().end());
      else
        out.push_back(x);
    }
    return out;
  };
  SmallVector<Term> sa = summands(ca), sb = summands(cb);
  bool cancelled = false;
  for (auto it = sa.begin(); it != sa.end();) {
    auto jt = llvm::find(sb, *it);
    if (jt == sb.end() || (*it)->isConstant()) {
      ++it;
      continue;
    }
    sb.erase(jt);
    it = sa.erase(it);
    cancelled = true;
  }
  if (!cancelled)
    return T.eq(a, b);
  unsigned w = a->getWidth();
  auto sum = [&](ArrayRef<Term> xs) {
    Term acc = T.bv(0, w);
    for (Term x : xs)
      acc = T.bvBin(Kind::BVAdd, acc, x);
    return acc;
  };
  return T.eq(sum(sa), sum(sb));
}

void Checker::checkThreadStores(const PathResult &p, ArrayRef<Spec *> specs) {
  auto specOf = [&](StringRef name) -> Spec * {
    for (Spec *s : specs)
      if (s->output().name == name)
        return s;
    return nullptr;
  };
  auto noSpec = [&](StringRef name) {
    record("store to '" + name.str() + "'", VerdictKind::Unknown,
           "no spec defines '" + name.str() +
               "': every buffer the kernel writes needs one (a func spec "
               "with 'outputs' defines several)");
  };
  // Under a path condition that pins the thread (tid.x == 0), its values
  // are those of that thread: substituting makes witness indices concrete.
  llvm::DenseMap<Term, Term> pins = pinnedThreadVars(T, p.pathCondition);
  Term pc = T.substitute(p.pathCondition, pins);
  for (auto &[v, c] : pins)
    pc = T.andOf(pc, T.eq(v, c));
  if (memorySafe)
    pc = T.andOf(pc, T.substitute(memorySafe, pins));
  // Stores at fixed elements (thread 0 writes y[0]): other threads writing
  // the same element are write-write races (checkSync).
  for (auto &[name, cells] : p.stores) {
    if (cells.empty())
      continue;
    Spec *specP = specOf(name);
    if (!specP) {
      noSpec(name);
      return;
    }
    Spec &spec = *specP;
    const BufferBinding &out = spec.output();
    for (auto &[e, st] : cells) {
      std::string elemName = out.name + "[" + std::to_string(e) + "]";
      std::string why;
      Term specValue = spec.element(T, T.bv(e, 64), why);
      if (!specValue) {
        record("value " + elemName, VerdictKind::Unknown,
               "spec: " + (why.empty() ? "element not defined" : why));
        continue;
      }
      checkSpecDefined(elemName, pc, specValue);
      checkValue("value " + elemName, pc, T.substitute(st.value, pins),
                 specValue, st.loc, T.bv(e, 64), out.name);
    }
  }
  // Stores at thread-dependent indices: each one that no later store of
  // the thread overwrites is final, and its value must be the spec's at its
  // index. A later store at the same index term supersedes an earlier one;
  // stores at different index terms must be proved to write different
  // elements (else which one is final depends on the inputs: UNKNOWN).
  for (const SymbolicStore &st : p.symbolicStores)
    if (!specOf(st.buffer)) {
      noSpec(st.buffer);
      return;
    }
  for (Spec *specP : specs) {
  Spec &spec = *specP;
  const BufferBinding &out = spec.output();
  SmallVector<const SymbolicStore *> finals;
  for (const SymbolicStore &st : p.symbolicStores) {
    if (st.buffer != out.name)
      continue;
    // A family (one store per iteration of a summarized loop) is never
    // superseded by an index term: it stores at each iteration's index.
    if (!st.isFamily())
      llvm::erase_if(finals, [&](const SymbolicStore *f) {
        return !f->isFamily() && f->index == st.index;
      });
    finals.push_back(&st);
  }
  if (finals.empty())
    continue; // this path writes nothing (e.g. a thread past the bound)
  bool families = llvm::any_of(
      finals, [](const SymbolicStore *f) { return f->isFamily(); });
  if (finals.size() > 1 || families) {
    std::string name = "stores of one thread to '" + out.name +
                       "' write distinct elements";
    // Store j at its iteration k and store m at its own iteration k2 (a
    // fresh copy of the loop's k when both come from one loop; k != k2
    // for two iterations of one family) write one element.
    auto renamed = [&](const SymbolicStore *f) {
      llvm::DenseMap<Term, Term> r;
      r[f->iteration] =
          T.bvVar(f->iteration->getName().str() + ".2",
                  f->iteration->getWidth());
      return r;
    };
    SmallVector<Term> clash;
    for (size_t j = 0; j < finals.size(); ++j)
      for (size_t m = j; m < finals.size(); ++m) {
        const SymbolicStore *a = finals[j], *b = finals[m];
        if (j == m && !a->isFamily())
          continue;
        Term ia = a->index, ib = b->index;
        SmallVector<Term> both;
        if (a->isFamily())
          both.push_back(a->guard);
        if (b->isFamily()) {
          if (a->iteration == b->iteration) {
            llvm::DenseMap<Term, Term> r = renamed(b);
            ib = T.substitute(ib, r);
            both.push_back(T.substitute(b->guard, r));
            if (j == m)
              both.push_back(T.notOf(T.eq(a->iteration,
                                          r[b->iteration])));
          } else {
            both.push_back(b->guard);
          }
        }
        {
          // The index terms read under the bounds this pair's path and
          // guards state (n >= 4 in a loop unrolled by 4): the equality
          // is used only conjoined with them.
          auto saved = T.saveBounds();
          for (auto &[v, l] : pathLowerBounds(T, T.andOf(pc, T.andOf(both))))
            T.setLowerBound(v, l);
          both.push_back(indexEquality(T, ia, ib));
          T.restoreBounds(std::move(saved));
        }
        clash.push_back(T.andOf(both));
      }
    Term cond = T.andOf(pc, T.orOf(clash));
    if (getenv("KPROOF_DUMP_TERMS"))
      for (const SymbolicStore *f : finals)
        llvm::errs() << "; final store to " << out.name << " at "
                     << f->index->toBriefString(dumpLimit()) << " = "
                     << T.canonicalIndex(f->index)->toBriefString(dumpLimit())
                     << "\n";
    if (getenv("KPROOF_DUMP_TERMS"))
      for (Term c : clash)
        llvm::errs() << ";   may write one element when "
                     << c->toBriefString(dumpLimit()) << "\n";
    if (cond->getKind() == Kind::BoolConst && !cond->getBoolValue()) {
      proved(name, cond, "normalizer");
    } else {
      Query q{T, options, &tableRanges, {cond}};
      Query::Outcome o = q.check();
      if (o.result == smt::CheckResult::Unsat) {
        proved(name, cond, "z3 (unsat)");
      } else {
        record(name, VerdictKind::Unknown,
               o.result == smt::CheckResult::Sat
                   ? std::string("two stores of one thread may write the same "
                                 "element (which is final then depends on "
                                 "the inputs; not yet modeled)")
                   : "solver: " + o.reason);
        continue;
      }
    }
  }
  // Their bounds are ExecutionResult::alignments (the executor records
  // them at each store, for --verify-sync too).
  std::optional<size_t> refutedStore;
  // Stores before familyEnd are proved as one column family; none is
  // tried again from a store before noFamilyBefore (a failed attempt's
  // members are checked one by one).
  size_t familyEnd = 0, noFamilyBefore = 0;
  for (auto [k, st] : llvm::enumerate(finals)) {
    if (k < familyEnd)
      continue;
    if (!refutedStore && !certificates && !options.pastDeadline() &&
        k >= noFamilyBefore) {
      size_t members = 0;
      size_t n = proveColumnFamily(spec, finals, k, pc, pins, members);
      if (n) {
        familyEnd = k + n;
        continue;
      }
      noFamilyBefore = k + std::max<size_t>(members, 1);
    }
    if (refutedStore) {
      // One refuted store is the counterexample; the others of this thread
      // are not checked (each may cost a solver query per lane).
      record("value " + out.name + "[i] written by the representative "
             "thread (store " + std::to_string(k + 1) + " of " +
             std::to_string(finals.size()) + ")",
             VerdictKind::Unknown,
             "not checked: store " + std::to_string(*refutedStore + 1) +
                 " of this thread is REFUTED");
      continue;
    }
    size_t before = verdict.obligations.size();
    auto noteRefuted = [&] {
      for (size_t i = before; i < verdict.obligations.size(); ++i)
        if (verdict.obligations[i].verdict == VerdictKind::Refuted)
          refutedStore = k;
    };
    std::string why;
    Term specValue = spec.element(T, st->index, why);
    std::string name =
        "value " + out.name + "[i] written by the representative thread" +
        (finals.size() == 1 ? std::string()
                            : " (store " + std::to_string(k + 1) + " of " +
                                  std::to_string(finals.size()) + ", at " +
                                  locString(st->loc) + ")");
    if (!specValue) {
      record(name, VerdictKind::Unknown, "spec: " + why);
      continue;
    }
    if (options.pastDeadline()) {
      // Normalizing a value can take seconds: past the limit, not begun.
      record(name, VerdictKind::Unknown,
             "not checked: time limit of " +
                 std::to_string(options.timeoutSeconds) +
                 " s reached (--timeout)");
      continue;
    }
    progress(name);
    // A family's value is checked at an arbitrary iteration k that
    // stores (its guard).
    Term spc = st->isFamily() ? T.andOf(pc, T.substitute(st->guard, pins))
                              : pc;
    checkSpecDefined(out.name + "[i]", spc, specValue);
    Term kernelValue = T.substitute(st->value, pins);
    specValue = T.substitute(specValue, pins);
    Term index = T.substitute(st->index, pins);
    checkStoreValue(name, spc, kernelValue, specValue, st->loc, index,
                    out.name);
    noteRefuted();
  }
  } // each spec
}

void Checker::checkStoreValue(const std::string &name, Term pc,
                              Term kernelValue, Term specValue, Location loc,
                              Term index, StringRef buffer) {
  specValue = splitDivisions(pc, specValue);
  // Max (min) reductions of more than 64 elements as canonical chains:
  // the kernel's tree and the spec's fold of one row are one term.
  kernelValue = T.canonicalChains(kernelValue);
  specValue = T.canonicalChains(specValue);
  bool closed = N.provesEqual(kernelValue, specValue);
  if (!closed && getenv("KPROOF_DUMP_TERMS"))
    llvm::errs() << "; not closed: " << name
                 << "\n;   kernel: " << kernelValue->toBriefString(dumpLimit())
                 << "\n;   spec: " << specValue->toBriefString(dumpLimit())
                 << "\n";
  // Testing before proving: a probe that refutes (draws inside the path,
  // a row template's column k within its range too) ends it.
  if (!closed &&
      (probeValue(name, pc, kernelValue, specValue, loc, index, buffer) ||
       checkByLane(name, pc, kernelValue, specValue, loc, index, buffer)))
    return;
  checkValue(name, pc, kernelValue, specValue, loc, index, buffer);
}

size_t Checker::proveColumnFamily(Spec &spec,
                                  ArrayRef<const SymbolicStore *> finals,
                                  size_t first, Term pc,
                                  const llvm::DenseMap<Term, Term> &pins,
                                  size_t &members) {
  members = 0;
  constexpr size_t kMinFamily = 4;
  if (finals.size() < first + kMinFamily)
    return 0;
  auto plain = [&](size_t i) { return !finals[i]->isFamily(); };
  if (!plain(first) || !plain(first + 1))
    return 0;
  const BufferBinding &out = spec.output();
  auto valueOf = [&](size_t i) { return T.substitute(finals[i]->value, pins); };
  auto indexOf = [&](size_t i) { return T.substitute(finals[i]->index, pins); };
  // The template over a fresh column variable k: store `first` is k = 0,
  // the next k = 1 (IndexShift.h).
  std::string kName = "k.column" + std::to_string(columnFamilies++);
  Term kv = T.bvVar(kName, 32);
  Term index = antiUnifyByIndexShift(T, indexOf(first), indexOf(first + 1), kv);
  bool dump = getenv("KPROOF_DUMP_TERMS");
  if (!index) {
    if (dump)
      llvm::errs() << "; no column family: indices "
                   << indexOf(first)->toBriefString(300) << ", "
                   << indexOf(first + 1)->toBriefString(300) << "\n";
    return 0;
  }
  Term value = antiUnifyByIndexShift(T, valueOf(first), valueOf(first + 1), kv);
  if (!value) {
    if (dump)
      llvm::errs() << "; no column family: values of stores " << first + 1
                   << " and " << first + 2 << " differ otherwise\n";
    return 0;
  }
  // Members: the stores that are the template at k = 0, 1, 2, ... in order.
  size_t count = 0;
  llvm::DenseMap<std::pair<Term, Term>, bool> memo;
  for (size_t i = first; i < finals.size() && plain(i); ++i) {
    llvm::DenseMap<Term, Term> at{{kv, T.bv(i - first, 32)}};
    if (!equalUpToIndexForms(T, T.substitute(index, at), indexOf(i), memo) ||
        !equalUpToIndexForms(T, T.substitute(value, at), valueOf(i), memo))
      break;
    ++count;
  }
  if (dump)
    llvm::errs() << "; column family of " << count << " stores from store "
                 << first + 1 << "\n";
  if (count < kMinFamily)
    return 0;
  members = count;
  // One proof for every k < count, kept only when every obligation it
  // records is proved; else undone, and the stores are checked one by one
  // (their own counterexamples and reasons).
  T.setUpperBound(kName, count - 1);
  Term spc = T.andOf(pc, T.bvUlt(kv, T.bv(count, 32)));
  std::string why;
  Term specValue = spec.element(T, index, why);
  if (!specValue)
    return 0;
  size_t obligations = verdict.obligations.size(),
         warnings = verdict.warnings.size(),
         sites = verdict.refutedSites.size();
  std::optional<Counterexample> counterexample = verdict.counterexample;
  std::optional<NonFiniteCandidate> nonFinite = verdict.nonFiniteCandidate;
  std::set<std::string> diagnostics = refutedDiagnostics;
  llvm::DenseSet<std::pair<Term, Term>> specDivisors = checkedSpecDivisors;
  const SymbolicStore *st = finals[first];
  std::string name =
      "value " + out.name +
      "[i] written by the representative thread (stores " +
      std::to_string(first + 1) + "-" + std::to_string(first + count) + " of " +
      std::to_string(finals.size()) + ", from " + locString(st->loc) +
      ", as one store at a column k < " + std::to_string(count) + ")";
  progress(name);
  checkSpecDefined(out.name + "[i]", spc, specValue);
  checkStoreValue(name, spc, value, T.substitute(specValue, pins), st->loc,
                  index, out.name);
  bool allProved =
      std::all_of(verdict.obligations.begin() + obligations,
                  verdict.obligations.end(), [](const ObligationResult &o) {
                    return o.verdict == VerdictKind::Proved;
                  });
  if (allProved && verdict.obligations.size() > obligations)
    return count;
  verdict.obligations.erase(verdict.obligations.begin() + obligations,
                            verdict.obligations.end());
  verdict.warnings.resize(warnings);
  verdict.refutedSites.erase(verdict.refutedSites.begin() + sites,
                             verdict.refutedSites.end());
  verdict.counterexample = std::move(counterexample);
  verdict.nonFiniteCandidate = std::move(nonFinite);
  refutedDiagnostics = std::move(diagnostics);
  checkedSpecDivisors = std::move(specDivisors);
  return 0;
}

/// Whether `t` computes with a part of tid.x (tid.x ^ m, tid.x & m,
/// tid.x >> k, ...): a shuffle partner's lane, a lane or warp index.
static bool usesLaneBits(Term t) {
  for (Term x : subterms({t})) {
    switch (x->getKind()) {
    case Kind::BVXor:
    case Kind::BVOr:
    case Kind::BVAnd:
    case Kind::BVLShr:
    case Kind::BVUDiv:
    case Kind::BVURem:
      for (Term o : x->getOperands())
        if (o->getKind() == Kind::BVVar && o->getName() == "tid.x")
          return true;
      break;
    default:
      break;
    }
  }
  return false;
}

/// Whether `t` has an ite whose condition depends on tid.x alone: a value
/// chosen by thread (the writer of a shared element read at a
/// thread-dependent offset, among several store sites), which a case per
/// tid.x decides.
static bool hasThreadCondition(Term t) {
  Term tid = nullptr;
  for (Term x : subterms({t}))
    if (x->getKind() == Kind::BVVar && x->getName() == "tid.x")
      tid = x;
  if (!tid)
    return false;
  // Conditions over thread ids and constants only (not over data): each
  // thread's case decides them.
  auto threadOnly = [&](Term c) {
    bool hasTid = false;
    for (Term u : subterms({c})) {
      if (u == tid)
        hasTid = true;
      else if (u->getKind() == Kind::Select || u->getKind() == Kind::RealVar ||
               u->getKind() == Kind::BVVar)
        return false;
    }
    return hasTid;
  };
  for (Term x : subterms({t}))
    if (x->getKind() == Kind::Ite && threadOnly(x->getOperand(0)))
      return true;
  return false;
}

bool Checker::checkByLane(const std::string &name, Term pc, Term lhs, Term rhs,
                          Location loc, Term index, StringRef buffer) {
  // Warp-level code reads other lanes' values (shfl partners tid.x ^ m)
  // and splits tid.x into a lane and a warp. Case by case over the lane
  // c = tid.x % 32, with tid.x = 32 q + c, those parts are linear forms
  // (TermContext::canonicalIndex) and each lane's value the normal form
  // of straight-line terms. The 32 cases cover every thread.
  // A CTA narrower than a warp (16 threads) splits over tid.x itself.
  const unsigned kWarp = launch.block[0] >= 32 ? 32 : unsigned(launch.block[0]);
  if (launch.blockSymbolic[0] || kWarp < 2 || launch.block[0] % kWarp != 0 ||
      (!usesLaneBits(lhs) &&
       !(launch.block[0] <= 32 && hasThreadCondition(lhs))))
    return false;
  Term tid = T.bvVar("tid.x", 32);
  std::string qName = "tid.x/32#lane";
  Term q = T.bvVar(qName, 32);
  uint64_t qMax = launch.block[0] / kWarp - 1;
  T.setUpperBound(qName, qMax);
  SmallVector<unsigned> open;
  std::vector<std::array<Term, 4>> lanes;
  for (unsigned c = 0; c < kWarp; ++c) {
    llvm::DenseMap<Term, Term> sigma;
    sigma[tid] =
        qMax == 0 ? T.bv(c, 32)
                  : T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, q, T.bv(kWarp, 32)),
                            T.bv(c, 32));
    Term l = T.substitute(lhs, sigma), r = T.substitute(rhs, sigma);
    // A lane without a term (an operation of infinities at that lane):
    // not proved lane by lane; the caller checks the value as a whole.
    Term pcLane = T.substitute(pc, sigma);
    Term laneIndex = T.substitute(index, sigma);
    if (!l || !r || !pcLane || !laneIndex)
      return false;
    lanes.push_back({l, r, laneIndex, sigma[tid]});
    // A lane whose path condition folds to false does not store here.
    if (pcLane->getKind() == Kind::BoolConst && !pcLane->getBoolValue())
      continue;
    if (!N.provesEqual(l, r))
      open.push_back(c);

  }
  std::string how = "normalizer, " + std::to_string(kWarp) +
                    (qMax == 0 ? " cases over tid.x"
                               : " cases over the lane tid.x % 32");
  if (open.empty()) {
    proved(name, T.andOf(pc, T.notOf(T.eq(lhs, rhs))), how);
    return true;
  }
  // The cases it does not close go to the solver one by one, with tid.x
  // kept as 32 q + c (so a counterexample names the thread).
  for (unsigned c : open) {
    auto &[l, r, idx, tidValue] = lanes[c];
    Term pcLane = T.andOf({pc, T.eq(tid, tidValue),
                           T.bvUle(q, T.bv(qMax, 32))});
    size_t before = verdict.obligations.size();
    checkValue(name + " (lane " + std::to_string(c) + ")", pcLane, l, r, loc,
               idx, buffer);
    if (verdict.obligations.size() > before &&
        verdict.obligations.back().verdict != VerdictKind::Proved)
      return true; // refuted or unknown: recorded
  }
  proved(name, T.andOf(pc, T.notOf(T.eq(lhs, rhs))),
         how + " (" + std::to_string(kWarp - open.size()) + " closed, " +
             std::to_string(open.size()) + " by the solver)");
  return true;
}


/// The condition that family `st` writes `target` through `expr` (its
/// index, or the rest W of its index) with the witness substitution
/// `sigma`: its guard and expr == target at the iteration
/// k_t = (target - expr(0)) / step, step = expr(1) - expr(0). When the step
/// does not cancel as bit-vectors (a byte offset 4 * (s + k) divided by 4)
/// it is taken at small values of the other variables: only the choice of
/// k_t rests on it, and the condition checks expr(k_t) == target exactly.
/// Null when the step is not a positive constant (the family is left out,
/// which only makes coverage harder to prove).
static Term familyWrites(TermContext &T, const SymbolicStore &st, Term expr,
                         const llvm::DenseMap<Term, Term> &sigma,
                         Term target) {
  auto at = [&](Term k) {
    llvm::DenseMap<Term, Term> m = sigma;
    m[st.iteration] = k;
    return m;
  };
  Term e0 = T.canonicalIndex(T.substitute(expr, at(T.bv(0, 64))));
  Term e1 = T.canonicalIndex(T.substitute(expr, at(T.bv(1, 64))));
  Term step = T.canonicalIndex(T.bvBin(Kind::BVSub, e1, e0));
  if (step->getKind() != Kind::BVConst) {
    Assignment small;
    for (Term u : subterms({e0, e1}))
      if (u->getKind() == Kind::BVVar)
        small.bitvectors[u->getName().str()] = APInt(u->getWidth(), 1);
    Evaluator ev(small);
    std::optional<APInt> v0 = ev.bv(e0), v1 = ev.bv(e1);
    if (!v0 || !v1)
      return nullptr;
    step = T.bv(*v1 - *v0);
  }
  if (!step->getAPInt().isStrictlyPositive())
    return nullptr;
  Term kt = T.bvBin(Kind::BVUDiv, T.bvBin(Kind::BVSub, target, e0), step);
  llvm::DenseMap<Term, Term> mt = at(kt);
  return T.andOf(T.substitute(st.guard, mt),
                 T.eq(T.substitute(expr, mt), target));
}

std::optional<Query::Outcome>
Checker::coverRowSplit(const ExecutionResult &ex, const BufferBinding &out,
                       const LaunchConfig &launch, const std::string &name) {
  // An output [R, n] (n a size parameter) written one row per thread: every
  // store index is n * R(thread) + W(thread, k) (TermContext::
  // splitByProduct, under the lower bounds its path states), with one row
  // factor R for all stores. Element e = r * n + j is then written when the
  // thread of row r (ctaid.x = r / ntid.x, tid.x = r % ntid.x: a launched
  // thread with R = r) stores W = j on some path: j at iteration
  // k_j = (j - W(0)) / step of a family. Asked for fresh r < R and j < n,
  // which covers every e < R * n once; the row offset n * R never reaches
  // the solver.
  if (out.shape.size() != 2 || out.symbolicDims.size() != 2 ||
      out.symbolicDims[1].empty() || launch.block[1] != 1 ||
      launch.block[2] != 1 || launch.grid[1] != 1 || launch.grid[2] != 1)
    return std::nullopt;
  struct Site {
    const PathResult *path;
    const SymbolicStore *store;
    Term rest; // W
  };
  SmallVector<Site> sites;
  Term rowFactor = nullptr, size = nullptr;
  for (const PathResult &p : ex.paths)
    for (const SymbolicStore &st : p.symbolicStores) {
      if (st.buffer != out.name)
        continue;
      auto saved = T.saveBounds();
      for (auto &[v, l] : pathLowerBounds(
               T, st.isFamily() ? T.andOf(p.pathCondition, st.guard)
                                : p.pathCondition))
        T.setLowerBound(v, l);
      std::optional<TermContext::ProductSplit> sp = T.splitByProduct(st.index);
      T.restoreBounds(std::move(saved));
      if (!sp || sp->coeff != 1 ||
          sp->size->getName() != StringRef(out.symbolicDims[1]) ||
          (rowFactor && sp->factor != rowFactor))
        return std::nullopt;
      rowFactor = sp->factor;
      size = sp->size;
      sites.push_back({&p, &st, sp->rest});
    }
  if (sites.empty())
    return std::nullopt;
  Term r = T.bvVar("cov.row", 64), j = T.bvVar("cov.j", 64);
  Term block = T.bvZExt(launch.extent(T, "ntid.x"), 64);
  llvm::DenseMap<Term, Term> w;
  std::string witness = "ctaid.x = r / ntid.x, tid.x = r % ntid.x";
  // One row per CTA (R = ctaid.x, Triton's row programs): the CTA of row
  // r, and within it the thread that W's layout (several stores per
  // thread, lanes as columns) gives for column j.
  Term ctaid = T.bvVar("ctaid.x", 32);
  Term rowVar = rowFactor;
  while (rowVar->getKind() == Kind::BVZExt)
    rowVar = rowVar->getOperand(0);
  if (rowVar == ctaid) {
    // The rests W of every path's stores (a guess from their layout; the
    // query checks it).
    SmallVector<Term> rests;
    bool family = false;
    for (const Site &site : sites) {
      family |= site.store->isFamily();
      if (!llvm::is_contained(rests, site.rest))
        rests.push_back(site.rest);
    }
    llvm::DenseMap<Term, Term> inner;
    std::string how;
    if (!family && invertLayout(rests, j, "j", launch, inner, how) &&
        !inner.count(ctaid)) {
      w = std::move(inner);
      w[ctaid] = T.bvExtract(r, 0, 32);
      witness = "ctaid.x = r, " + how;
    }
  }
  if (w.empty()) {
    w[T.bvVar("tid.x", 32)] =
        T.bvExtract(T.bvBin(Kind::BVURem, r, block), 0, 32);
    w[ctaid] = T.bvExtract(T.bvBin(Kind::BVUDiv, r, block), 0, 32);
  }
  SmallVector<Term> launched{T.boolConst(true)};
  for (auto &[var, extent] : ex.threadVars) {
    auto it = w.find(T.bvVar(var, 32));
    if (it != w.end())
      launched.push_back(T.bvUlt(it->second, launch.extentOf(T, var)));
  }
  SmallVector<Term> writes;
  for (const Site &site : sites) {
    llvm::DenseMap<Term, Term> sigma =
        pinnedThreadVars(T, site.path->pathCondition);
    for (auto &[v, t] : w)
      sigma[v] = t;
    Term pc = T.substitute(site.path->pathCondition, sigma);
    const SymbolicStore &st = *site.store;
    if (!st.isFamily()) {
      writes.push_back(
          T.andOf(pc, T.eq(T.substitute(site.rest, sigma), j)));
      continue;
    }
    if (Term wr = familyWrites(T, st, site.rest, sigma, j))
      writes.push_back(T.andOf(pc, wr));
  }
  Term rows = out.extent(T, launch, 0), n = out.extent(T, launch, 1);
  Term rowOfWitness = T.substitute(rowFactor, w);
  Term missed = T.andOf(
      {launch.facts(T), T.bvUlt(r, rows), T.bvUlt(j, n),
       T.notOf(T.andOf({T.andOf(launched), T.eq(rowOfWitness, r),
                        T.orOf(writes)}))});
  if (getenv("KPROOF_DUMP_TERMS"))
    llvm::errs() << "; row-split coverage of " << out.name << " (" << size
                 << " per row): " << missed->toBriefString(dumpLimit())
                 << "\n";
  Query q{T, options, &tableRanges, {missed}};
  Query::Outcome o = q.check();
  if (o.result != smt::CheckResult::Unsat) {
    // The missed element e = r * n + j of the model (a candidate).
    if (o.model) {
      auto rv = o.model->bitvectors.find("cov.row");
      auto jv = o.model->bitvectors.find("cov.j");
      Evaluator ev(*o.model);
      std::optional<APInt> nv = ev.bv(n);
      if (rv != o.model->bitvectors.end() &&
          jv != o.model->bitvectors.end() && nv)
        o.model->bitvectors["e"] = rv->second * *nv + jv->second;
      else
        o.model.reset();
    }
    return o;
  }
  proved(name, missed,
         "z3 (unsat): each store index is " + out.symbolicDims[1] +
             " * R + W; row r is written by the thread with R = r (" + witness +
             "), element j of it at W = j");
  return o;
}

/// The witness thread of element `e` for stores at `indices` (the
/// indices of one path's stores): their layout inverted. Each index is
/// read as a linear form over the thread variables; the forms must agree
/// but for a constant c_0 < ... < c_{K-1} (one per store site or unrolled
/// iteration), and when their coefficients form a mixed-radix system
/// (1, r0, r0 r1, ...; r = each variable's range, or a store counter's
/// count), variable k of the witness is ((e - c_0) / coeff_k) % range_k.
/// `w` maps each thread variable to its witness term, `witness` describes
/// it (with `eName` for e). False when the layout is not of that shape
/// (a guess otherwise: the caller checks the witness).
bool Checker::invertLayout(
    ArrayRef<Term> indices, Term e, StringRef eName, const LaunchConfig &launch,
    llvm::DenseMap<Term, Term> &w, std::string &witness,
    llvm::DenseMap<Term, std::pair<Term, uint64_t>> *openLow) {
  // The witness thread of element e: invert the layout. Read the first
  // store's index as a linear form over the thread variables; when its
  // coefficients form a mixed-radix system (1, r0, r0 r1, ...; r = each
  // variable's range), variable k of the witness is
  // ((e - constant) / coeff_k) % range_k. Otherwise fall back to the 1-D
  // witness ctaid.x = e / ntid.x, tid.x = e % ntid.x.
  // A variable's range: its extent (a term, a variable under a symbolic
  // launch) and, when concrete, its value.
  // A lane or warp pseudo-variable of readLinearForm ("tid.x%32",
  // "tid.x/32"): its thread variable, the power of two, and which part.
  struct Part {
    std::string var;
    uint64_t radix = 0;
    bool low = false;
  };
  auto partOf = [](StringRef name) -> std::optional<Part> {
    size_t at = name.find_first_of("%/");
    if (at == StringRef::npos)
      return std::nullopt;
    Part p{name.take_front(at).str(), 0, name[at] == '%'};
    if (name.drop_front(at + 1).getAsInteger(10, p.radix) || !p.radix)
      return std::nullopt;
    return p;
  };
  auto range = [&](StringRef var) -> Term {
    if (std::optional<Part> p = partOf(var)) {
      if (p->low)
        return T.bv(p->radix, 64);
      Term ext = T.bvZExt(launch.extentOf(T, p->var), 64);
      return T.bvBin(Kind::BVUDiv,
                     T.bvBin(Kind::BVAdd, ext, T.bv(p->radix - 1, 64)),
                     T.bv(p->radix, 64));
    }
    return T.bvZExt(launch.extentOf(T, var), 64);
  };
  auto concreteRange = [&](StringRef var) -> std::optional<int64_t> {
    std::optional<Part> p = partOf(var);
    Term r = launch.extentOf(T, p ? StringRef(p->var) : var);
    if (r->getKind() != Kind::BVConst)
      return p && p->low ? std::optional<int64_t>(p->radix) : std::nullopt;
    int64_t ext = r->getAPInt().getZExtValue();
    if (!p)
      return ext;
    return p->low ? std::min<int64_t>(ext, p->radix)
                  : (ext + int64_t(p->radix) - 1) / int64_t(p->radix);
  };
  std::map<std::string, int64_t> coeffs;
  std::set<int64_t> constants;
  bool linear = true, any = false;
  for (Term index : indices) {
    std::map<std::string, int64_t> c;
    int64_t constant = 0;
    if (!readLinearForm(T.canonicalIndex(index), 1, c, constant,
                        /*splitIds=*/true))
      return false;
    for (auto it = c.begin(); it != c.end();)
      it = it->second == 0 ? c.erase(it) : std::next(it);
    if (any && c != coeffs)
      return false;
    coeffs = c;
    constants.insert(constant);
    any = true;
  }
  if (!any)
    return false;
  int64_t constant = *constants.begin();
  // The constants as a product of evenly stepping counters: {0, 1, 2, 3,
  // 512, 513, 514, 515} (four elements a thread stores, then four more
  // half a block later) is 1 * k1 + 512 * k2, k1 < 4, k2 < 2. Each
  // counter joins the mixed-radix system as a variable of its own.
  SmallVector<std::pair<int64_t, int64_t>> counters; // (step, count)
  {
    std::set<int64_t> d;
    for (int64_t c : constants)
      d.insert(c - constant);
    while (d.size() > 1 && linear) {
      int64_t step = *std::next(d.begin());
      int64_t count = 1;
      while (d.count(count * step))
        ++count;
      std::set<int64_t> starts, left = d;
      while (!left.empty() && linear) {
        int64_t first = *left.begin();
        for (int64_t k = 0; k < count && linear; ++k)
          linear = left.erase(first + k * step) == 1;
        starts.insert(first);
      }
      counters.push_back({step, count});
      d = std::move(starts);
    }
  }
  if (!linear)
    return false;
  // The store counters' pseudo-variables; never substituted (the writes
  // below disjoin over every store).
  auto isCounter = [](StringRef var) { return var.starts_with("store.k"); };
  std::map<std::string, int64_t> counterRange;
  SmallVector<std::pair<int64_t, std::string>> order;
  for (auto &[var, c] : coeffs)
    order.push_back({c, var});
  for (auto [k, sc] : llvm::enumerate(counters)) {
    std::string name = "store.k" + std::to_string(k);
    counterRange[name] = sc.second;
    order.push_back({sc.first, name});
  }
  llvm::sort(order);
  auto rangeOf = [&](StringRef var) -> std::optional<int64_t> {
    if (isCounter(var))
      return counterRange[var.str()];
    return concreteRange(var);
  };
  // Every variable but the most significant needs a concrete range. A
  // guarded writer may use fewer values of a variable than its range
  // (lanes l < 20 of 32 writing row * 20 + l): when the next
  // coefficient is a multiple c * r' of this one with r' below the
  // range, the radix is r'. (A guess: the witness is checked below.)
  std::map<std::string, int64_t> narrowed;
  int64_t expected = 1;
  bool mixedRadix = !order.empty();
  for (auto [k, cv] : llvm::enumerate(order)) {
    auto &[c, var] = cv;
    // A digit may end below its range where the next coefficient cuts it
    // (a guarded tail: elements 512 + 4 t + j of a row of 1000): the
    // digit is then (e % next) / c, which the check below confirms.
    mixedRadix &=
        c == expected || (k > 0 && c > order[k - 1].first && c < expected);
    std::optional<int64_t> r = rangeOf(var);
    if (k + 1 < order.size() && !r)
      mixedRadix = false;
    if (k + 1 < order.size() && r && c > 0 && !isCounter(var)) {
      int64_t next = order[k + 1].first;
      if (next % c == 0 && next / c < *r && next / c > 0) {
        narrowed[var] = next / c;
        r = next / c;
      }
    }
    expected = c * r.value_or(1);
  }
  if (!mixedRadix)
    return false;
  Term base = T.bvBin(Kind::BVSub, e, T.bv(APInt(64, constant, true)));
  // Lane and warp parts recombine: v = (v/2^j) * 2^j + v%2^j.
  std::map<std::string, std::pair<Term, Term>> parts;
  std::map<std::string, uint64_t> radix;
  for (auto [k, cv] : llvm::enumerate(order)) {
    auto &[c, var] = cv;
    std::optional<int64_t> r = rangeOf(var);
    if (narrowed.count(var))
      r = narrowed[var];
    // Digit k: (base / c) % r, or (base % next) / c where the next
    // coefficient is not c * r (a digit cut short by a guard).
    int64_t next = k + 1 < order.size() ? order[k + 1].first : 0;
    bool cut = next && r && next != c * *r;
    witness +=
        (witness.empty() ? "" : ", ") + var + " = (" + eName.str() + " - " +
        std::to_string(constant) + ")" +
        (cut ? " % " + std::to_string(next) : std::string()) + " / " +
        std::to_string(c) +
        (cut ? std::string()
             : " % " + (r ? std::to_string(*r) : range(var)->toString()));
    if (isCounter(var))
      continue;
    Term v =
        cut ? T.bvBin(Kind::BVUDiv, T.bvBin(Kind::BVURem, base, T.bv(next, 64)),
                      T.bv(c, 64))
            : T.bvBin(Kind::BVURem, T.bvBin(Kind::BVUDiv, base, T.bv(c, 64)),
                      narrowed.count(var) ? T.bv(narrowed[var], 64)
                                          : range(var));
    if (std::optional<Part> p = partOf(var)) {
      auto [it, fresh] = radix.emplace(p->var, p->radix);
      if (!fresh && it->second != p->radix) {
        mixedRadix = false; // two splits of one variable
        break;
      }
      (p->low ? parts[p->var].second : parts[p->var].first) = v;
      continue;
    }
    w[T.bvVar(var, 32)] = T.bvExtract(v, 0, 32);
  }
  for (auto &[var, hl] : parts) {
    Term key = T.bvVar(var, 32);
    if (w.count(key)) {
      mixedRadix = false; // the variable itself and a part of it
      break;
    }
    Term hi = hl.first ? T.bvBin(Kind::BVMul, hl.first, T.bv(radix[var], 64))
                       : T.bv(0, 64);
    Term lo = hl.second ? hl.second : T.bv(0, 64);
    w[key] = T.bvExtract(T.bvBin(Kind::BVAdd, hi, lo), 0, 32);
    if (openLow && hl.first && !hl.second)
      (*openLow)[key] = {hl.first, radix[var]};
  }
  if (!mixedRadix) {
    w.clear();
    witness.clear();
    return false;
  }
  return true;
}

Term Checker::pinnedRemainder(Term pc, Term x, uint64_t d) {
  Term rem = T.canonicalIndex(T.bvBin(Kind::BVURem, x, T.bv(d, x->getWidth())));
  auto threadFree = [&](Term t) {
    for (Term v : subterms({t}))
      if (v->getKind() == Kind::BVVar &&
          (v->getName().starts_with("tid.") ||
           v->getName().starts_with("ctaid.") || v->getName().contains('#')))
        return false;
    return true;
  };
  for (Term c : conjunctsOf(pc)) {
    if (c->getKind() != Kind::Eq)
      continue;
    for (int k = 0; k < 2; ++k) {
      Term a = c->getOperand(k), b = c->getOperand(1 - k);
      if (a->getSort() == Sort::BV && a->getWidth() == x->getWidth() &&
          T.canonicalIndex(a) == rem && threadFree(b))
        return b;
    }
  }
  return nullptr;
}

void Checker::checkCoverage(const ExecutionResult &ex, const BufferBinding &out,
                            const LaunchConfig &launch) {
  std::string name = "coverage: every element of '" + out.name + "' is written";
  // The witness thread of element e: the layout of the first path with
  // stores to `out` inverted (invertLayout); else, below, the 1-D witness
  // ctaid.x = e / ntid.x, tid.x = e % ntid.x.
  Term e = T.bvVar("e", 64);
  llvm::DenseMap<Term, Term> w;
  std::string witness;
  llvm::DenseMap<Term, std::pair<Term, uint64_t>> openLow;
  for (const PathResult &p : ex.paths) {
    SmallVector<Term> indices;
    bool family = false;
    for (const SymbolicStore &st : p.symbolicStores)
      if (st.buffer == out.name) {
        // Its index has the iteration k in it: the witnesses below.
        family |= st.isFamily();
        indices.push_back(st.index);
      }
    if (indices.empty())
      continue;
    if (!family)
      invertLayout(indices, e, "e", launch, w, witness, &openLow);
    break;
  }
  bool anySymbolic = llvm::any_of(ex.paths, [&](const PathResult &p) {
    return llvm::any_of(p.symbolicStores, [&](const SymbolicStore &st) {
      return st.buffer == out.name;
    });
  });
  // The thread of a 1-D launch with flat index `flat` (64-bit):
  // ctaid.x = flat / ntid.x, tid.x = flat % ntid.x.
  auto threadOf = [&](Term flat) {
    Term block = T.bvZExt(launch.extent(T, "ntid.x"), 64);
    llvm::DenseMap<Term, Term> m;
    m[T.bvVar("tid.x", 32)] =
        T.bvExtract(T.bvBin(Kind::BVURem, flat, block), 0, 32);
    m[T.bvVar("ctaid.x", 32)] =
        T.bvExtract(T.bvBin(Kind::BVUDiv, flat, block), 0, 32);
    return m;
  };
  if (w.empty() && !anySymbolic)
    witness = "the pinned thread of each path";
  if (w.empty() && anySymbolic) {
    if (launch.block[1] != 1 || launch.block[2] != 1 ||
        launch.grid[1] != 1 || launch.grid[2] != 1) {
      record(name, VerdictKind::Unknown,
             "no witness: the layout is not a mixed-radix linear form of "
             "the thread indices");
      return;
    }
    w = threadOf(e);
    witness = "ctaid.x = e / ntid.x, tid.x = e % ntid.x";
  }
  // F(e) = OR over paths: pc(w(e)) and index(w(e)) == e.
  // Variables the witness leaves open take the value the path pins them
  // to (thread 0 writes y[ctaid.x]); any left are universally quantified
  // by the unsat check, which is sound.
  Term inRange = T.andOf(launch.facts(T),
                         T.bvUlt(e, out.numElementsTerm(T, launch)));
  auto missedUnder = [&](const llvm::DenseMap<Term, Term> &wit,
                         Term launched) {
    SmallVector<Term> writes;
    for (const PathResult &p : ex.paths) {
      llvm::DenseMap<Term, Term> sigma = pinnedThreadVars(T, p.pathCondition);
      for (auto &[v, t] : wit)
        sigma[v] = t;
      // One store per D threads (y[tid / D]): the writer is the thread of
      // its group whose X % D the path pins (`if (lane == 0)`, or the
      // lane elect.sync elects); lane 0 when none is pinned.
      // A thread id of at most 32 values that the path pins modulo 32 (a
      // one-warp CTA's `if (lane == L)`) is L.
      for (auto &[var, extent] : ex.threadVars) {
        Term v = T.bvVar(var, 32);
        Term ext = launch.extentOf(T, var);
        if (sigma.count(v) || ext->getKind() != Kind::BVConst ||
            ext->getAPInt().getZExtValue() > 32)
          continue;
        if (Term low = pinnedRemainder(p.pathCondition, v, 32))
          sigma[v] = low;
      }
      if (&wit == &w)
        for (auto &[v, hiRadix] : openLow)
          if (Term low = pinnedRemainder(p.pathCondition, v, hiRadix.second))
            sigma[v] = T.bvExtract(T.bvBin(Kind::BVAdd,
                                           T.bvBin(Kind::BVMul, hiRadix.first,
                                                   T.bv(hiRadix.second, 64)),
                                           T.bvZExt(low, 64)),
                                   0, 32);
      for (const SymbolicStore &st : p.symbolicStores) {
        if (st.buffer != out.name)
          continue;
        if (!st.isFamily()) {
          writes.push_back(T.substitute(
              T.andOf(p.pathCondition, T.eq(st.index, e)), sigma));
          continue;
        }
        // A family writes e at the iteration where its index is e
        // (familyWrites); a family without a positive constant step is
        // left out, which only makes coverage harder to prove.
        if (Term wr = familyWrites(T, st, st.index, sigma, e))
          writes.push_back(T.andOf(T.substitute(p.pathCondition, sigma), wr));
      }
      auto fixed = p.stores.find(out.name);
      if (fixed != p.stores.end())
        for (auto &[idx, st] : fixed->second)
          writes.push_back(T.andOf(T.substitute(p.pathCondition, sigma),
                                   T.eq(e, T.bv(idx, 64))));
    }
    return T.andOf(inRange, T.notOf(T.andOf(launched, T.orOf(writes))));
  };
  // A witness is a thread of the launch: each thread index it gives is
  // below its extent (the 1-D fallback's ctaid.x = e / ntid.x is not,
  // for elements past the launch).
  auto launchedThread = [&](const llvm::DenseMap<Term, Term> &wit) {
    SmallVector<Term> in{T.boolConst(true)};
    for (auto &[var, extent] : ex.threadVars) {
      auto it = wit.find(T.bvVar(var, 32));
      if (it != wit.end())
        in.push_back(T.bvUlt(it->second, launch.extentOf(T, var)));
    }
    return T.andOf(in);
  };
  // Elements the witnesses miss, from their models: candidates for an
  // element no thread writes.
  SmallVector<Assignment, 2> candidates;
  // The first witness query the solver did not decide (its reason): then a
  // miss is not shown, and the verdict says why.
  std::string undecided;
  auto noteUndecided = [&](const Query::Outcome &o) {
    if (o.result != smt::CheckResult::Unsat &&
        o.result != smt::CheckResult::Sat && undecided.empty())
      undecided = o.reason.empty() ? std::string("unknown") : o.reason;
  };
  // One row per thread (n * R + W): decided row by row. When that layout
  // is recognized, its miss is the candidate and the witnesses below
  // (which do not fit the layout, and whose queries carry the product
  // n * R) are not asked.
  std::optional<Query::Outcome> rowSplit;
  if (anySymbolic)
    rowSplit = coverRowSplit(ex, out, launch, name);
  if (rowSplit && rowSplit->result == smt::CheckResult::Unsat)
    return;
  if (rowSplit)
    noteUndecided(*rowSplit);
  if (rowSplit && rowSplit->model)
    candidates.push_back(*rowSplit->model);
  if (!rowSplit) {
  Term missed = missedUnder(w, launchedThread(w));
  if (getenv("KPROOF_DUMP_TERMS"))
    llvm::errs() << "; coverage of " << out.name << " with witness " << witness
                 << ": " << ex.paths.size()
                 << " paths; missed: " << missed->toBriefString(dumpLimit())
                 << "\n";
  if (missed->getKind() == Kind::BoolConst && !missed->getBoolValue()) {
    proved(name, missed, "witness " + witness + ", normalizer");
    return;
  }
  Query q{T, options, &tableRanges, {missed}};
  Query::Outcome outcome = q.check();
  if (outcome.result == smt::CheckResult::Unsat) {
    proved(name, missed, "z3 (unsat) with witness " + witness);
    return;
  }
  noteUndecided(outcome);
  if (outcome.model)
    candidates.push_back(*outcome.model);
  // One thread per row of a [R, n] output whose row length n is symbolic
  // (a size parameter; the thread's stores at row * n + j, from a loop
  // executed per iteration): the witness of element e is the thread of
  // row e / n under the 1-D layout. Tried when the witness above fails.
  // A witness: the thread of linear id `linear` for element e, proved when
  // no launched witness misses e (unsat); else the outcome's model is a
  // candidate missed element.
  auto tryWitness = [&](Term linear, const std::string &desc) {
    llvm::DenseMap<Term, Term> w = threadOf(linear);
    Term missed = missedUnder(w, launchedThread(w));
    Query q{T, options, &tableRanges, {missed}};
    Query::Outcome o = q.check();
    if (o.result == smt::CheckResult::Unsat)
      proved(name, missed, "z3 (unsat) with witness " + desc);
    noteUndecided(o);
    return o;
  };
  if (anySymbolic && out.shape.size() == 2 && out.symbolicDims.size() == 2 &&
      !out.symbolicDims[1].empty() && launch.block[1] == 1 &&
      launch.block[2] == 1 && launch.grid[1] == 1 && launch.grid[2] == 1) {
    Query::Outcome rowOutcome = tryWitness(
        T.bvBin(Kind::BVUDiv, e, out.extent(T, launch, 1)),
        "row = e / " + out.symbolicDims[1] +
            ", ctaid.x = row / ntid.x, tid.x = row % ntid.x");
    if (rowOutcome.result == smt::CheckResult::Unsat)
      return;
    // The row witness's miss comes first: for a launch too small for the
    // rows it is an element of an unlaunched row, which no thread writes.
    if (rowOutcome.model)
      candidates.insert(candidates.begin(), *rowOutcome.model);
  }
  // A grid-stride loop (a store family stepping by the launch's thread
  // count): the witness of element e is thread e % (ntid.x * nctaid.x).
  bool anyFamily = llvm::any_of(ex.paths, [&](const PathResult &p) {
    return llvm::any_of(p.symbolicStores, [&](const SymbolicStore &st) {
      return st.buffer == out.name && st.isFamily();
    });
  });
  if (anyFamily && launch.block[1] == 1 && launch.block[2] == 1 &&
      launch.grid[1] == 1 && launch.grid[2] == 1) {
    Term threads = T.bvBin(Kind::BVMul,
                           T.bvZExt(launch.extent(T, "ntid.x"), 64),
                           T.bvZExt(launch.extent(T, "nctaid.x"), 64));
    if (tryWitness(T.bvBin(Kind::BVURem, e, threads),
                   "t = e % (ntid.x * nctaid.x), ctaid.x = t / ntid.x, "
                   "tid.x = t % ntid.x")
            .result == smt::CheckResult::Unsat)
      return;
  }
  }
  // A candidate e0 the witness thread does not write is missed if no
  // thread of the launch writes it on any path, for any inputs: the writes
  // of an arbitrary thread at e0 are unsatisfiable.
  // Atomics write too, outside the stores listed here.
  bool atomics = llvm::any_of(ex.accesses, [&](const MemoryAccess &m) {
    return m.atomic && m.region == out.name;
  });
  std::string detail;
  for (const Assignment &model : candidates) {
    auto it = model.bitvectors.find("e");
    if (it == model.bitvectors.end())
      continue;
    uint64_t e0 = it->second.getZExtValue();
    if (detail.empty())
      detail = " (for instance " + out.name + "[" + std::to_string(e0) + "])";
    if (atomics || !ex.valueUnknownReason.empty() || e0 >= out.numElements())
      continue;
    SmallVector<Term> any;
    for (const PathResult &p : ex.paths) {
      for (const SymbolicStore &st : p.symbolicStores)
        if (st.buffer == out.name)
          any.push_back(T.andOf({p.pathCondition,
                                 st.isFamily() ? st.guard : T.boolConst(true),
                                 T.eq(st.index, T.bv(e0, 64))}));
      auto fixed = p.stores.find(out.name);
      if (fixed != p.stores.end() && fixed->second.count(e0))
        any.push_back(p.pathCondition);
    }
    SmallVector<Term> frame{launch.facts(T)};
    for (auto &[var, extent] : ex.threadVars)
      frame.push_back(T.bvUlt(T.bvVar(var, 32), launch.extentOf(T, var)));
    // The candidate is an element for the model's sizes (y[e0] with n = 1
    // is not y[e0] with n = 2): the writes are asked for under those
    // sizes, which the counterexample then gives.
    for (const LaunchConfig::SizeParam &sp : launch.sizes) {
      auto v = model.bitvectors.find(sp.name);
      if (v != model.bitvectors.end())
        frame.push_back(T.eq(T.bvVar(sp.name, v->second.getBitWidth()),
                             T.bv(v->second)));
    }
    for (auto &[name, v] : model.bitvectors)
      if (StringRef(name).starts_with("ntid.") ||
          StringRef(name).starts_with("nctaid."))
        frame.push_back(T.eq(T.bvVar(name, v.getBitWidth()), T.bv(v)));
    Term written = T.andOf(T.andOf(frame), T.orOf(any));
    Query wq{T, options, &tableRanges, {written}};
    if (wq.check().result != smt::CheckResult::Unsat)
      continue;
    Counterexample c;
    c.property = "coverage: no thread writes " + out.name + "[" +
                 std::to_string(e0) + "]";
    c.outputBuffer = out.name;
    c.outputIndex = e0;
    c.inputs = model;
    c.inputs.bitvectors.erase("e");
    c.location = locString(*kernelLoc);
    refutedAt(*kernelLoc, c);
    record(name, VerdictKind::Refuted,
           "no thread writes " + out.name + "[" + std::to_string(e0) +
               "] on any path (z3: unsat)");
    return;
  }
  if (candidates.empty() && !undecided.empty()) {
    record(name, VerdictKind::Unknown,
           "whether the witness thread (" + witness +
               ") writes every element was not decided: solver: " +
               undecided);
    return;
  }
  record(name, VerdictKind::Unknown,
         "the witness thread (" + witness + ") does not write every element" +
             detail +
             (undecided.empty() ? std::string()
                                : "; a query was not decided: solver: " +
                                      undecided));
}

} // namespace kproof::engine::check
