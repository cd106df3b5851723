//===- CheckerImpl.h - the checker's internals ------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Verifier/Check: the class `Checker`, which checks one
// contract (EquivalenceChecker.h's `checkEquivalence`), and `Query`, one Z3
// query over terms (the table preconditions and branch facts it asserts,
// the integer and bit-vector encodings it tries, the retry over finite
// inputs, the slices it asks when undecided), with the helpers that more
// than one file uses. The class declaration is the table of contents; its
// definitions are split by concern (README.md in this directory):
//
//   EquivalenceChecker.cpp  entry point checkEquivalence, Checker::run
//   Values.cpp              value obligations: normalizer, probes, cases
//                           of merged states, Z3, confirmed models
//   Reductions.cpp          kernel reductions matched with the spec's
//   Coverage.cpp            per-thread stores (by lane), coverage
//   SyncChecks.cpp          races, barrier divergence, shared reads,
//                           counted barriers, atomic counters
//   Verdict.cpp             the verdict as text or JSON (no Checker)
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_VERIFIER_CHECK_CHECKERIMPL_H
#define KPROOF_LIB_VERIFIER_CHECK_CHECKERIMPL_H

#include "KProof/Verifier/Check/EquivalenceChecker.h"

#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <set>

#include "KProof/Verifier/Check/Probe.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/SMT/Certificate.h"
#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/SMT/Z3Solver.h"
#include "KProof/Verifier/Specs/Contract.h"
#include "KProof/Verifier/Specs/Spec.h"
#include "KProof/Verifier/Terms/Evaluate.h"
#include "KProof/Verifier/Terms/Normalizer.h"
#include "Specs/RefSpec.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace kproof::engine::check {

using ::kproof::ContractOp;
using ::mlir::FusedLoc;
using ::mlir::Location;
using ::mlir::ModuleOp;
using ::mlir::StringAttr;
using ::llvm::APInt;
using ::llvm::ArrayRef;
using ::llvm::dyn_cast;
using ::llvm::dyn_cast_or_null;
using ::llvm::SmallVector;
using ::llvm::SmallVectorImpl;
using ::llvm::StringRef;
using ::llvm::Twine;

/// A location as the verdict prints it (Exec's `locationString`).
inline std::string locString(Location loc) { return locationString(loc); }

/// How many characters of a term KPROOF_DUMP_TERMS prints
/// (KPROOF_DUMP_TERMS_LIMIT, default 2000).
inline size_t dumpLimit() {
  if (const char *s = getenv("KPROOF_DUMP_TERMS_LIMIT"))
    return std::max<size_t>(80, strtoull(s, nullptr, 10));
  return 2000;
}

/// Lower bounds of size variables that `pc` states (Reductions.cpp).
llvm::StringMap<uint64_t> pathLowerBounds(TermContext &T, Term pc);

/// The condition under which `a` and `b` may differ, when they are the
/// same term up to bit-vector subterms (same kinds, names, attributes and
/// real or Boolean structure): the disjunction of `x != y` over the pairs
/// of outermost differing bit-vector subterms (a term is a function of
/// those, so equal pairs make equal terms). False when a == b; null when
/// they differ elsewhere or are larger than `limit` node pairs
/// (Reductions.cpp). Two threads' values of one warp reduction (the same
/// chain, each element read at an index of its own thread) become one
/// bit-vector question, which the real structure stays out of.
Term bitVectorDifference(TermContext &T, Term a, Term b, size_t limit = 200000);

/// One Z3 query over terms, with the ground facts every exp atom needs.
/// The contract's preconditions on one integer table: every element in
/// [lo, hi) (BufferBinding::range) and <= a scalar's term
/// (BufferBinding::atMost), signed.
struct TableFacts {
  std::optional<std::pair<int64_t, int64_t>> range;
  Term atMost = nullptr;
};
/// Buffer name -> its preconditions.
using TableRanges = std::map<std::string, TableFacts>;

struct Query {
  TermContext &T;
  const CheckerOptions &options;
  /// Preconditions asserted for every element of a ranged table that the
  /// query reads (they restrict the inputs, as the verdict prints).
  const TableRanges *ranges;
  SmallVector<Term> assertions;
  /// A shorter wall-clock guard for this query (seconds; 0: the option's):
  /// for the shortcuts whose failure only means asking the next question.
  unsigned guardSeconds = 0;

  /// lo <= v < hi for every element of a ranged table in `roots`: the
  /// Select reads and the constant-index elements ("idx[3]").
  void addRangeFacts(SmallVectorImpl<Term> &out, ArrayRef<Term> roots) {
    if (!ranges || ranges->empty())
      return;
    for (Term t : subterms(roots)) {
      std::optional<StringRef> buffer = intElementTable(t);
      if (!buffer)
        continue;
      auto it = ranges->find(buffer->str());
      if (it == ranges->end())
        continue;
      appendTableFacts(T, t, it->second.range, it->second.atMost, out);
    }
  }

  /// exp(max(a, b)) = ite(b <= a, exp(a), exp(b)) (and min, ite alike):
  /// exp pushed through the branch, as ground facts for every such atom.
  void addBranchFacts() { ::kproof::engine::addBranchFacts(T, assertions); }

  /// Input variables (names without '#': not fresh internal values).
  SmallVector<Term> inputVars() {
    llvm::DenseSet<Term> seen;
    SmallVector<Term> work(assertions.begin(), assertions.end()), vars;
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (!seen.insert(t).second)
        continue;
      if (t->getKind() == Kind::RealVar &&
          !t->getName().contains('#'))
        vars.push_back(t);
      for (Term o : t->getOperands())
        work.push_back(o);
    }
    llvm::sort(vars, [](Term a, Term b) { return a->getId() < b->getId(); });
    return vars;
  }

  struct Outcome {
    smt::CheckResult result;
    std::optional<Assignment> model;
    std::string reason;
    /// UNKNOWN because only NaN or infinite inputs satisfy the query: the
    /// model over any inputs (its finite values and the outcomes it chose
    /// for the comparisons of non-finite values), for the replay's search
    /// of concrete non-finite inputs (Verdict::nonFiniteCandidate).
    std::optional<Assignment> nonFiniteModel;
  };

  /// Checks the conjunction; on sat returns the model. `extra` are
  /// additional constraints (model blocking, shrinking).
  /// A sat answer whose model needs NaN or infinite inputs
  /// (ExecutorOptions::nonFiniteInputs) is no counterexample the engine can
  /// show: the comparisons of such values are left open. The query is asked
  /// again over finite inputs; when only non-finite inputs satisfy it, the
  /// outcome is UNKNOWN with that reason (never PROVED).
  Outcome check(ArrayRef<Term> extra = {}) {
    Outcome o = checkAnyInputs(extra);
    if (o.result == smt::CheckResult::Unknown)
      if (std::optional<Outcome> u = slicedUnsat(extra))
        return *u;
    if (o.result != smt::CheckResult::Sat || !o.model)
      return o;
    auto nf = o.model->bools.find(nonFiniteFlag().str());
    if (nf == o.model->bools.end() || !nf->second)
      return o;
    SmallVector<Term> finite(extra.begin(), extra.end());
    finite.push_back(T.notOf(T.boolVar(nonFiniteFlag())));
    Outcome f = checkAnyInputs(finite);
    if (f.result == smt::CheckResult::Unsat)
      return {smt::CheckResult::Unknown, std::nullopt,
              "possible only when some input is NaN or infinite (comparisons "
              "of such values may go either way, and the engine does not "
              "model which); over finite inputs it holds. The contract "
              "says which inputs the proof covers (finite_inputs = true: "
              "finite ones; a buffer's nonfinite: its non-finite entries)",
              o.model};
    return f;
  }

  /// A query the solver did not decide may still be unsat for a reason
  /// that few of its conjuncts carry (a merged-state case `n - E != 1`
  /// that the trip count E = n - 1 excludes, under a path condition full
  /// of nonlinear address arithmetic). Tries, for up to 8 conjuncts c over
  /// at most 4 variables (the fewest first), the slice of the conjuncts whose variables are
  /// among c's: a slice is a subset of the query, so an unsat slice makes
  /// the query unsat (a sat slice says nothing and is not used).
  std::optional<Outcome> slicedUnsat(ArrayRef<Term> extra) {
    SmallVector<Term> all;
    for (Term a : assertions)
      llvm::append_range(all, conjunctsOf(a));
    for (Term a : extra)
      llvm::append_range(all, conjunctsOf(a));
    auto varsOf = [&](Term c) {
      llvm::SmallSetVector<Term, 8> vars;
      for (Term u : subterms({c}))
        if (u->getKind() == Kind::BVVar || u->getKind() == Kind::RealVar ||
            u->getKind() == Kind::BoolVar || u->getKind() == Kind::Select ||
            u->getKind() == Kind::RealFn)
          vars.insert(u);
      return vars;
    };
    SmallVector<llvm::SmallSetVector<Term, 8>> vars;
    for (Term c : all)
      vars.push_back(varsOf(c));
    std::set<SmallVector<size_t>> tried;
    unsigned asked = 0;
    // Fewest variables first (the smallest slices); among equals the
    // later conjunct first (a path condition, then what must not hold).
    SmallVector<size_t> order;
    for (size_t i = 0; i < all.size(); ++i)
      if (!vars[i].empty() && vars[i].size() <= 4)
        order.push_back(i);
    llvm::stable_sort(order, [&](size_t a, size_t b) {
      if (vars[a].size() != vars[b].size())
        return vars[a].size() < vars[b].size();
      return a > b;
    });
    // The goal (the last conjunct: a path condition, then what must not
    // hold) seeds the first slice.
    if (auto last = llvm::find(order, all.size() - 1); last != order.end())
      std::rotate(order.begin(), last, last + 1);
    for (size_t i : order) {
      if (asked >= 8)
        break;
      SmallVector<size_t> slice;
      for (size_t j = 0; j < all.size(); ++j)
        if (llvm::all_of(vars[j], [&](Term v) { return vars[i].count(v); }))
          slice.push_back(j);
      if (slice.size() == all.size() || !tried.insert(slice).second)
        continue;
      ++asked;
      Query sub{T, options, ranges, {}};
      sub.guardSeconds = 10;
      for (size_t j : slice)
        sub.assertions.push_back(all[j]);
      Outcome o = sub.checkAnyInputs({});
      if (o.result == smt::CheckResult::Unsat)
        return o;
    }
    return std::nullopt;
  }

  Outcome checkAnyInputs(ArrayRef<Term> extraIn) {
    SmallVector<Term> extra(extraIn.begin(), extraIn.end());
    SmallVector<Term> roots(assertions.begin(), assertions.end());
    roots.append(extraIn.begin(), extraIn.end());
    addRangeFacts(extra, roots);
    // Products of two symbolic bit-vectors (ctaid.x * ntid.x under a
    // symbolic launch) defeat bit-blasting; their exact integer encoding
    // goes first, the bit-vector one when it cannot decide.
    // (Bit-blasting a product of two symbolic 32-bit values does not
    // finish either, so an undecided integer query is the answer, unless
    // the integer encoding does not cover the query.)
    // Divisions by and products with constants (element index -> row,
    // column; address scaling) bit-blast into large circuits too; over
    // the integers they are linear, so the integer encoding goes first
    // for them, with the bit-vector one behind it.
    switch (arithmeticBV(extra)) {
    case BVArith::Nonlinear: {
      Outcome o = checkIn(/*bvAsInt=*/true, extra);
      if (o.result != smt::CheckResult::Error)
        return o;
      break;
    }
    case BVArith::Division:
    case BVArith::Scaled: {
      // Under a concrete launch the thread ids are small constants' worth
      // of bits and bit-blasting decides these at once; the integer
      // encoding pays off for symbolic launch extents (rotate-by-one over
      // any launch).
      if (!mentionsLaunchExtents(extra))
        break;
      // The bit-vector encoding stands behind this attempt, so it gets a
      // share of the resource limit (not the wall clock): which encoding
      // answers is the same on every machine. (Z3 spends the full rlimit
      // on some of these in minutes; bit-blasting answers them at once.)
      Outcome o = checkIn(/*bvAsInt=*/true, extra,
                          std::max<uint64_t>(options.rlimit / 100, 1));
      if (o.result == smt::CheckResult::Sat ||
          o.result == smt::CheckResult::Unsat)
        return o;
      break;
    }
    case BVArith::Linear:
      break;
    }
    return checkIn(/*bvAsInt=*/false, extra);
  }

  /// The query mentions a symbolic launch extent (ntid.*, nctaid.*).
  bool mentionsLaunchExtents(ArrayRef<Term> extra) {
    llvm::DenseSet<Term> seen;
    SmallVector<Term> work(assertions.begin(), assertions.end());
    work.append(extra.begin(), extra.end());
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (!seen.insert(t).second)
        continue;
      if (t->getKind() == Kind::BVVar &&
          (t->getName().starts_with("ntid.") ||
           t->getName().starts_with("nctaid.")))
        return true;
      for (Term o : t->getOperands())
        work.push_back(o);
    }
    return false;
  }

  enum class BVArith { Linear, Scaled, Division, Nonlinear };
  /// Nonlinear: the query multiplies (or divides by) a symbolic
  /// bit-vector; Division: it divides by a constant; Scaled: it multiplies
  /// by a constant (a multiplier circuit when bit-blasted, linear over the
  /// integers); else Linear.
  BVArith arithmeticBV(ArrayRef<Term> extra) {
    llvm::DenseSet<Term> seen;
    SmallVector<Term> work(assertions.begin(), assertions.end());
    work.append(extra.begin(), extra.end());
    BVArith kind = BVArith::Linear;
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (!seen.insert(t).second)
        continue;
      Kind k = t->getKind();
      if ((k == Kind::BVMul && !t->getOperand(0)->isConstant() &&
           !t->getOperand(1)->isConstant()) ||
          ((k == Kind::BVUDiv || k == Kind::BVURem) &&
           !t->getOperand(1)->isConstant()))
        return BVArith::Nonlinear;
      if (k == Kind::BVUDiv || k == Kind::BVURem)
        kind = BVArith::Division;
      else if ((k == Kind::BVMul || k == Kind::BVShl) &&
               kind == BVArith::Linear)
        kind = BVArith::Scaled;
      for (Term o : t->getOperands())
        work.push_back(o);
    }
    return kind;
  }

  /// The query without the nonlinear defining facts of sqrt and rsqrt
  /// (`<fn>_square`) first, when it has such facts: fewer assumptions, so
  /// unsat is unsat of the full query too, and a model that the true
  /// functions confirm (every assertion True under exact evaluation) is a
  /// model of it. Otherwise (or when the weak query is undecided) the full
  /// query. A polynomial fact over a 128-element row (rsqrt(x)^2 * (eps +
  /// sum x_j^2 / 128) = 1) is what keeps nlsat from any model.
  Outcome checkIn(bool bvAsInt, ArrayRef<Term> extra, uint64_t rlimit = 0) {
    SmallVector<Term> all(assertions.begin(), assertions.end());
    all.append(extra.begin(), extra.end());
    bool roots = llvm::any_of(subterms(all), [](Term t) {
      return t->getKind() == Kind::RealFn &&
             (t->getName() == "sqrt" || t->getName() == "rsqrt");
    });
    if (!roots)
      return checkInWith(bvAsInt, extra, rlimit, /*weak=*/false);
    Outcome weak = checkInWith(bvAsInt, extra, rlimit, /*weak=*/true);
    if (weak.result == smt::CheckResult::Error && weak.reason == kNoWeakFacts)
      return checkInWith(bvAsInt, extra, rlimit, /*weak=*/false);
    if (weak.result == smt::CheckResult::Unsat)
      return weak;
    if (weak.result == smt::CheckResult::Sat && weak.model) {
      Evaluator ev(*weak.model, options.mpfrBits);
      bool confirmed = true;
      for (ArrayRef<Term> list : {ArrayRef<Term>(assertions), extra})
        for (Term a : list)
          confirmed &= ev.boolean(a) == Truth::True;
      if (confirmed)
        return weak;
    }
    return checkInWith(bvAsInt, extra, rlimit, /*weak=*/false);
  }
  static constexpr const char *kNoWeakFacts = "no defining facts to leave out";

  Outcome checkInWith(bool bvAsInt, ArrayRef<Term> extra, uint64_t rlimit,
                      bool weak) {
    // The memory budget: no new query once the process is past it. (Z3
    // 4.8's own memory_max_size aborts the process through an uncaught
    // out_of_memory_error, so it is not used.)
    if (options.memoryLimitMiB && residentMiB() > options.memoryLimitMiB)
      return {smt::CheckResult::Unknown, std::nullopt,
              "memory budget of " + Twine(options.memoryLimitMiB).str() +
                  " MiB exceeded (--memory-limit); the query was not run"};
    // The time limit (--timeout): no new query past it, and a running one
    // gets what remains.
    std::optional<uint64_t> remainingMs;
    if (options.deadline) {
      auto now = std::chrono::steady_clock::now();
      if (now >= *options.deadline)
        return {smt::CheckResult::Unknown, std::nullopt,
                timeLimitReason("the query was not run")};
      remainingMs = std::max<uint64_t>(
          1, std::chrono::duration_cast<std::chrono::milliseconds>(
                 *options.deadline - now)
                 .count());
    }
    smt::SolverOptions so;
    so.rlimit = rlimit ? rlimit : options.rlimit;
    // Z3 4.8's nonlinear integer arithmetic does not always heed the
    // rlimit: a wall-clock guard (an UNKNOWN, never a verdict) backs it.
    // Bit-blasting does not always heed it either (a 32-lane ballot).
    // The rlimit decides; the guard is generous so that a loaded machine
    // does not turn a decided query into UNKNOWN.
    so.timeoutMs = options.solverGuardSeconds * 1000u;
    if (guardSeconds && (!so.timeoutMs || guardSeconds * 1000u < so.timeoutMs))
      so.timeoutMs = guardSeconds * 1000u;
    if (remainingMs && (!so.timeoutMs || *remainingMs < so.timeoutMs))
      so.timeoutMs = unsigned(std::min<uint64_t>(*remainingMs, UINT32_MAX));
    // The reused context: a fresh one per query makes the model the same
    // on every run (with the reused one it varies with the process's
    // memory layout), but measured on the tiled-attention mask-bug query
    // it turned a 60 s answer into more than 6 minutes, so the reused one
    // stays until the cause is found (docs/benchmarks.md, determinism).
    smt::Context &z3 = smt::Context::reusable(so);
    Z3Lowering lowering(z3, T);
    lowering.setBitVectorsAsIntegers(bvAsInt);
    if (bvAsInt)
      lowering.assumeBoundsOf(assertions);
    smt::Solver solver(z3, /*simple=*/bvAsInt);
    for (Term a : assertions) {
      smt::Expr e = lowering.lower(a);
      if (!e.isValid()) {
        if (getenv("KPROOF_DUMP_QUERY"))
          llvm::errs() << "; query (bvAsInt=" << bvAsInt
                       << ") not lowered: " << lowering.getError() << "\n";
        return {smt::CheckResult::Error, std::nullopt,
                "cannot lower to Z3: " + lowering.getError()};
      }
      solver.add(e);
    }
    for (Term a : extra) {
      smt::Expr e = lowering.lower(a);
      if (!e.isValid())
        return {smt::CheckResult::Error, std::nullopt,
                "cannot lower to Z3: " + lowering.getError()};
      solver.add(e);
    }
    bool leftOut = false;
    for (auto &[name, fact] : lowering.atomFacts()) {
      if (weak && StringRef(name).contains("_square!")) {
        leftOut = true;
        continue;
      }
      solver.add(fact);
    }
    if (weak && !leftOut)
      return {smt::CheckResult::Error, std::nullopt, kNoWeakFacts};
    for (const smt::Expr &d : lowering.intDefinitions())
      solver.add(d);
    if (getenv("KPROOF_DUMP_SMT"))
      llvm::errs() << solver.toSMTLIB2() << "\n";
    auto t0 = std::chrono::steady_clock::now();
    smt::CheckResult r = solver.check();
    if (getenv("KPROOF_DUMP_QUERY"))
      llvm::errs() << "; query (bvAsInt=" << bvAsInt << "): " << int(r)
                   << " in "
                   << std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t0)
                          .count()
                   << "\n" << solver.toSMTLIB2() << "\n";
    double elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - t0)
                         .count();
    if (r == smt::CheckResult::Unknown && options.pastDeadline())
      return {r, std::nullopt, timeLimitReason("the query was interrupted")};
    if (r != smt::CheckResult::Sat)
      return {r, std::nullopt,
              explainReason(solver.getReason(), so, elapsed)};
    std::optional<Assignment> m = lowering.extractModel(solver.getModel());
    if (!m)
      return {r, std::nullopt,
              "model not exact: " + lowering.getModelError()};
    shrinkLaunch(m, bvAsInt, extra);
    return {r, std::move(m), ""};
  }

  /// The UNKNOWN reason of a query the time limit stopped (`what`: "the
  /// query was not run", "... was interrupted").
  std::string timeLimitReason(StringRef what) const {
    return ("time limit of " + Twine(options.timeoutSeconds) +
            " s reached (--timeout); " + what)
        .str();
  }

  /// Z3's reason for an unknown, said in the engine's terms: the resource
  /// limit (deterministic) or the wall-clock guard (machine-dependent).
  /// Z3 4.8 also says "canceled" when the rlimit stops a tactic (nlsat),
  /// so the guard is named only when the query ran about as long as it
  /// (`elapsedSeconds`).
  static std::string explainReason(const std::string &z3Reason,
                                   const smt::SolverOptions &so,
                                   double elapsedSeconds) {
    StringRef r(z3Reason);
    if (r.contains("resource limit") || r.contains("rlimit"))
      return "resource limit reached (rlimit " + Twine(so.rlimit).str() +
             ", --solver-rlimit)";
    bool cancelled =
        r == "timeout" || r == "canceled" || r.contains("timeout");
    if (cancelled &&
        (!so.timeoutMs || elapsedSeconds * 1000 < 0.9 * so.timeoutMs))
      return "resource limit reached (rlimit " + Twine(so.rlimit).str() +
             ", --solver-rlimit; Z3 said '" + z3Reason + "')";
    if (cancelled)
      return "wall-clock guard of " + Twine(so.timeoutMs / 1000).str() +
             " s fired before the resource limit (rlimit " +
             Twine(so.rlimit).str() +
             ") was reached; this depends on the machine's load "
             "(--solver-guard)";
    return z3Reason;
  }

  /// A symbolic launch or symbolic sizes: prefer a model with small
  /// extents (ntid.*, nctaid.*, and the contract's size parameters, those
  /// with a declared lower bound, at most 4, else 64), so the
  /// counterexample is readable and the interpreter can replay it (a
  /// launch at n = 524291 takes minutes). Keeps `m` when none exists.
  void shrinkLaunch(std::optional<Assignment> &m, bool bvAsInt,
                    ArrayRef<Term> extra) {
    SmallVector<std::pair<std::string, uint64_t>> extents;
    for (auto &[name, v] : m->bitvectors)
      if ((StringRef(name).starts_with("ntid.") ||
           StringRef(name).starts_with("nctaid.") ||
           (T.lowerBound(name) && v.getBitWidth() == 32)) &&
          v.getActiveBits() <= 64)
        extents.push_back({name, v.getZExtValue()});
    if (extents.empty() || shrinking)
      return;
    // A small launch is a nicety: a fresh query with a small share of the
    // budget per cap.
    shrinking = true;
    for (uint64_t cap : {4, 64}) {
      if (llvm::all_of(extents, [&](auto &e) { return e.second <= cap; }))
        break;
      SmallVector<Term> caps(extra.begin(), extra.end());
      for (auto &[name, v] : extents)
        caps.push_back(T.bvUle(T.bvVar(name, 32), T.bv(cap, 32)));
      Outcome o = checkIn(bvAsInt, caps, options.rlimit / 50);
      if (o.result == smt::CheckResult::Sat && o.model) {
        m = std::move(o.model);
        break;
      }
    }
    shrinking = false;
  }
  bool shrinking = false;
};

class Checker {
public:
  Checker(ModuleOp module, ContractOp contract, const CheckerOptions &options)
      : module(module), contract(contract), options(options), N(T) {}

  std::optional<Verdict> run();
  /// The contract's launch, once run() has bound it.
  const LaunchConfig &getLaunch() const { return launch; }

private:
  ModuleOp module;
  ContractOp contract;
  const CheckerOptions &options;
  /// BufferBinding::range of every ranged table, for Query.
  TableRanges tableRanges;
  /// The kernel's location (obligations of the whole kernel).
  std::optional<Location> kernelLoc;
  /// The memory-safety obligations (alignment, bounds) as facts: each
  /// path condition implies its condition. Value checks assume them.
  Term memorySafe = nullptr;
  TermContext T;
  Normalizer N;
  Verdict verdict;
  std::vector<std::optional<BufferBinding>> buffers;
  std::vector<Term> scalars;
  /// The contract's launch (symbolic extents are terms over ntid.*, ...).
  LaunchConfig launch;
  bool multiThread = false;
  /// The contract's tolerate_equal_writes (BoundContract).
  bool tolerateEqualWrites = false;
  /// Atomic counters (counterRegions): the atomics that return an old
  /// value, and each counter region's total of addends over the launch.
  std::vector<const MemoryAccess *> counterAtomics;
  llvm::StringMap<APInt> counterTotals;
  void collectCounters(const ExecutionResult &ex, const LaunchConfig &launch);
  /// The range of the old values of counter atomics that `cond` mentions:
  /// old - init < total (mod 2^w), where the launch contents are known;
  /// null when there is none.
  Term counterRangeFacts(Term cond);

  /// The value obligation `lhs == rhs` split over the 32 lanes of tid.x
  /// (checkThreadStores); false when the split does not apply (the caller
  /// checks it whole).
  bool checkByLane(const std::string &name, Term pc, Term lhs, Term rhs,
                   Location loc, Term index, StringRef buffer);
  /// Multi-thread launch: the representative thread's final stores on path
  /// `p`, each compared with the spec of its buffer (`specs`: one per
  /// output) at its index (docs/design-notes.md "Stores of one thread, and
  /// coverage"). A store to a buffer no spec defines is UNKNOWN with that
  /// reason.
  void checkThreadStores(const PathResult &p, ArrayRef<Spec *> specs);
  /// Coverage with an explicit witness: the thread that should write
  /// element e of a 1-D launch is ctaid.x = e / ntid.x, tid.x = e % ntid.x.
  /// Coverage of an output [R, n] written one row per thread (store
  /// indices n * R(thread) + W): proved row by row for fresh r < R, j < n,
  /// so the product n * R never reaches the solver. std::nullopt when the
  /// layout has another shape; else the query's outcome (unsat: proved
  /// and recorded; sat: its model names the missed element as "e").
  std::optional<Query::Outcome> coverRowSplit(const ExecutionResult &ex, const BufferBinding &out,
                     const LaunchConfig &launch, const std::string &name);
  void checkCoverage(const ExecutionResult &ex, const BufferBinding &out,
                     const LaunchConfig &launch);
  /// The value `pc` pins X % d to, for the thread id `x`: a conjunct
  /// X % d == v with v free of thread ids and fresh variables (a constant,
  /// or the lane elect.sync elects); null when there is none.
  Term pinnedRemainder(Term pc, Term x, uint64_t d);
  /// The witness thread of element `e` (named `eName` in `witness`) for
  /// one path's stores at `indices`: their mixed-radix layout inverted
  /// (Coverage.cpp). False, with `w` empty, when the layout has another
  /// shape. A thread id whose index uses only its high part (X / D: one
  /// store per warp, `y[tid / 32]`) gets the low part 0 in `w`; with
  /// `openLow`, such ids are listed (id -> (X / D in the witness, D)) for
  /// the caller to take the low part from a path's condition instead
  /// (`if (lane == L)`, the lane elect.sync elects).
  bool invertLayout(
      ArrayRef<Term> indices, Term e, StringRef eName,
      const LaunchConfig &launch, llvm::DenseMap<Term, Term> &w,
      std::string &witness,
      llvm::DenseMap<Term, std::pair<Term, uint64_t>> *openLow = nullptr);
  /// The stores finals[first], finals[first + 1], ... that are one
  /// template at a column k = 0, 1, ... (a row of outputs per thread,
  /// unrolled: IndexShift.h), proved at once for every k below their
  /// count, with k a fresh variable of that range. Returns the count (at
  /// least 4) when every obligation of that proof is proved; else 0, with
  /// what the attempt recorded undone (the stores are then checked one by
  /// one, with their own counterexamples). Not with --proof-certificate
  /// (a certificate cannot state k's range).
  /// The value obligation of one store (or one row template): the spec's
  /// divisions split, max/min chains canonical, then the normalizer, a
  /// probe, the per-lane cases and checkValue, each only where the one
  /// before left it open.
  void checkStoreValue(const std::string &name, Term pc, Term kernelValue,
                       Term specValue, Location loc, Term index,
                       StringRef buffer);
  /// `members`: the stores found to be the template (0 when fewer than
  /// 4), proved or not: the caller does not try again inside them.
  size_t proveColumnFamily(Spec &spec, ArrayRef<const SymbolicStore *> finals,
                           size_t first, Term pc,
                           const llvm::DenseMap<Term, Term> &pins,
                           size_t &members);
  /// Column variables named so far (proveColumnFamily).
  unsigned columnFamilies = 0;
  /// Multi-thread launches: data races, barrier divergence, and the side
  /// conditions of resolving shared reads to their writers (docs/verify-sync.md
  /// "The model").
  void checkSync(const ExecutionResult &ex, const LaunchConfig &launch);
  /// Regions (with an access's location) where two lanes' accesses of one
  /// element in one phase are ordered only by bar.warp.sync: the value
  /// proof, which reads memory by phases, does not model them (checkSync).
  std::map<std::string, Location> warpOrderedRegions;
  /// The obligations of counted barriers (bar.sync id, n; bar.arrive id,
  /// n; docs/verify-sync.md "The model"), per id: one thread count, a multiple
  /// of the warp size; every participant arrives equally often; the
  /// participants are whole warps (.aligned) and exactly `n` threads.
  void checkCountedBarriers(const ExecutionResult &ex,
                            const LaunchConfig &launch);
  /// No two barriers wait on each other: the order "a wait completes
  /// before the path's later barriers" over every path has no cycle
  /// (counted barriers and mbarriers; a cycle is UNKNOWN).
  void checkBarrierCycles(const ExecutionResult &ex);
  /// The obligations of mbarrier objects (PTX ISA 9.7.13.15), per object:
  /// one initializing thread, before every use and not after an inval;
  /// exactly the init count of threads arrive; every wait completes and
  /// names the phase it is modeled to (not one two phases on); arrivals
  /// join the next phase (MBarrierChecks in SyncChecks.cpp).
  void checkMBarriers(const ExecutionResult &ex, const LaunchConfig &launch);
  /// Which threads of a (concrete) CTA satisfy `cond` (a term over the
  /// representative thread): decided with the id substituted, by the
  /// normalizer or by Z3 over every CTA and input, once per residue. False
  /// with the undecided linear thread id in `undecidedAt` when some
  /// thread's answer depends on the CTA or the data.
  bool threadsOfCta(const ExecutionResult &ex, const LaunchConfig &launch,
                    Term cond, std::vector<char> &holds,
                    std::string &undecidedAt);

  void record(std::string name, VerdictKind k, std::string how) {
    std::optional<ObligationResult::Residual> residual;
    if (options.explain && k == VerdictKind::Unknown && explaining.lhs &&
        StringRef(name).starts_with(explaining.name))
      residual = ObligationResult::Residual{explaining.lhs->toReadableString(),
                                            explaining.rhs->toReadableString(),
                                            explaining.pc->toReadableString()};
    verdict.obligations.push_back(
        {std::move(name), k, std::move(how), std::move(residual)});
    if (options.progress)
      options.progress("", verdict);
  }
  /// The value obligation checkValue is deciding (--explain: an UNKNOWN
  /// recorded for it keeps these terms as its residual).
  struct {
    std::string name;
    Term pc = nullptr, lhs = nullptr, rhs = nullptr;
  } explaining;
  /// Reports the phase or obligation that starts now to the driver
  /// (CheckerOptions::progress).
  void progress(StringRef now) {
    if (options.progress)
      options.progress(now, verdict);
  }
  /// Records a proved obligation and, with --proof-certificate, writes its
  /// certificate: `negatedGoal` is what was shown unsatisfiable.
  void proved(const std::string &name, Term negatedGoal, std::string how) {
    record(name, VerdictKind::Proved, how);
    if (!certificates)
      return;
    if (!certificates->write(name, negatedGoal, how))
      verdict.warnings.push_back("certificate of '" + name +
                                 "' not written: " + certificates->getError());
  }
  std::unique_ptr<CertificateWriter> certificates;
  /// Whether the declared bounds falsify the Bool term `c`
  /// (TermContext::decideByBounds). KPROOF_CROSSCHECK_BOUNDS, a developer
  /// check run over the test suite: every such decision is asked to Z3 as
  /// well, and a satisfiable one is a fatal error naming `what`.
  bool refutedByBounds(Term c, const char *what) {
    std::optional<bool> d = T.decideByBounds(c);
    if (!d || *d)
      return false;
    if (getenv("KPROOF_CROSSCHECK_BOUNDS")) {
      Query q{T, options, &tableRanges, {c}};
      q.addBranchFacts();
      if (q.check().result == smt::CheckResult::Sat)
        llvm::report_fatal_error(llvm::Twine("decideByBounds refuted a "
                                             "satisfiable ") +
                                 what + ": " + c->toBriefString(2000));
    }
    return true;
  }
  /// KPROOF_CROSSCHECK_BOUNDS (a developer check, as in refutedByBounds):
  /// `c`, decided unsatisfiable without the solver, is asked to Z3, and a
  /// satisfiable one is a fatal error naming `what`. No-op otherwise.
  void crossCheckUnsat(Term c, const char *what) {
    if (!getenv("KPROOF_CROSSCHECK_BOUNDS"))
      return;
    Query q{T, options, &tableRanges, {c}};
    q.addBranchFacts();
    if (q.check().result == smt::CheckResult::Sat)
      llvm::report_fatal_error(
          llvm::Twine("a satisfiable ") + what +
          " was decided unsatisfiable: " + c->toBriefString(2000));
  }
  /// Conditions that must each be unsatisfiable, asked together when there
  /// are at least kBatchFrom: their disjunction, in chunks of kBatch
  /// (measured best on the tiled-attention fixture), is one query, and an
  /// unsat chunk proves each of its members (each implies the
  /// disjunction). Returns, per condition, whether a chunk proved it; the
  /// others (a chunk that is sat or undecided) are for the caller to ask
  /// one by one, for their own counterexample or reason.
  static constexpr size_t kBatch = 16, kBatchFrom = 64;
  std::vector<bool> provedTogether(ArrayRef<Term> conds) {
    std::vector<bool> done(conds.size(), false);
    // A condition the thread-id bounds falsify (two writes of a tile whose
    // offsets 4 t + 64 k lie 64 bytes apart for t <= 15) needs no query:
    // the index normal form is exact within the bounds every query
    // assumes (TermContext::decideByBounds).
    SmallVector<size_t> open;
    for (auto [i, c] : llvm::enumerate(conds)) {
      if (refutedByBounds(c, "obligation"))
        done[i] = true;
      else
        open.push_back(i);
    }
    // Few obligations are asked alone: joining a handful of hard ones only
    // makes one harder query (measured on the padded transpose).
    if (open.size() < kBatchFrom)
      return done;
    for (size_t lo = 0; lo < open.size(); lo += kBatch) {
      size_t hi = std::min(open.size(), lo + kBatch);
      if (hi - lo < 2)
        continue;
      SmallVector<Term> chunk;
      for (size_t i = lo; i < hi; ++i)
        chunk.push_back(conds[open[i]]);
      Query q{T, options, &tableRanges, {T.orOf(chunk)}};
      q.addBranchFacts();
      if (q.check().result == smt::CheckResult::Unsat)
        for (size_t i = lo; i < hi; ++i)
          done[open[i]] = true;
    }
    return done;
  }
  std::set<std::string> refutedDiagnostics;
  /// BoundContract::swapHint: added to a refuted store to an input.
  std::string swapHint;
  /// A confirmed counterexample: kept for the report (the first one) and
  /// reported as a diagnostic at the failing instruction's PTX location.
  /// Keeps the first race or barrier divergence that only non-finite
  /// inputs reach (Verdict::nonFiniteCandidate), for the replay.
  void nonFiniteCandidate(const std::string &obligation,
                          const Counterexample &c) {
    if (!verdict.nonFiniteCandidate)
      verdict.nonFiniteCandidate = {obligation, c};
  }
  void refutedAt(Location loc, const Counterexample &c) {
    // Once per instruction and property (paths repeat them).
    if (refutedDiagnostics.insert(locString(loc) + "\n" + c.property).second)
      verdict.refutedSites.push_back({loc, c.property});
    if (!verdict.counterexample)
      verdict.counterexample = c;
  }
  /// Records obligation `name` REFUTED at `loc` with `property` and the
  /// inputs and thread ids of `model` (empty for a finding that holds for
  /// every input, such as a participant count).
  void refuteObligation(const std::string &name, Location loc,
                        const std::string &property, Assignment model) {
    Counterexample c;
    c.property = property;
    c.inputs = std::move(model);
    c.location = locString(loc);
    refutedAt(loc, c);
    record(name, VerdictKind::Refuted, property);
  }
  /// `lhs` with each outermost reduction replaced by a reduction of `rhs`
  /// of the same kind that Z3 proves equal to it under `pc`: equal bounds,
  /// and equal bodies at a fresh element j of the range (quantifier-free).
  /// Each such equality is recorded as a proved obligation under `name`.
  /// Exact: equal ranges of equal elements have equal sums, maxima, minima.
  /// For a divisor that is a sum of non-negative terms (Normalizer's sign
  /// analysis), some of them ite(g, p, 0) with p provably positive: the
  /// disjunction of those guards g over bit-vectors (the sum is positive
  /// where it holds); true when some term is positive outright; null when
  /// the sum is not of that shape.
  Term positiveUnderGuards(Term t);
  /// unifyReductions' tile case: kernel reduction `a` (element `j`, body
  /// `bodyA` at j, under `inRange`) covers `st` consecutive elements of
  /// the spec's `b` per element, the last tile padded with the neutral
  /// element past b's end. True (a proved obligation recorded) when Z3 or
  /// the normalizer shows the bounds cover b's range and each body is the
  /// combination of its st elements of b.
  bool unifyStrided(const std::string &name, Term pc, Term inRange, Term a,
                    Term b, Term j, Term bodyA, uint64_t st);
  Term unifyReductions(const std::string &name, Term pc, Term lhs, Term rhs,
                       unsigned depth);
  /// `rhs` when `lhs` is a sum (max) of at most 3 reductions that Z3
  /// proves to tile the spec's reduction `rhs` = R_{i in [lo, hi)} f(i): in
  /// some order, reduction k covers the next st_k * (hi_k - lo_k) elements
  /// of f, its body at j being the st_k consecutive elements from
  /// c_k + st_k * (j - lo_k) (a loop unrolled by st_k), and the last one
  /// ends at hi (without wrapping). Else `lhs`. The tiling is recorded as
  /// a proved obligation under `name`.
  Term tileReductions(const std::string &name, Term pc, Term lhs, Term rhs);
  Term tileReductionsUnder(const std::string &name, Term pc, Term lhs,
                           Term rhs);
  /// Fresh names of tileReductions' element variables.
  unsigned tileVars = 0;
  /// Whether `bad` is unsat, asked with a bounded effort (`rlimit`, and a
  /// 20 s guard): for the shortcuts above, whose failure only means that
  /// the value query goes on as before. Unknown is no.
  /// `bad` answered unsat within `rlimit`: the integer encoding, then
  /// bit-vectors, then slices. With `bitVectorsFirst`, bit-vectors first,
  /// and a sat answer there ends it (a shortcut whose question is often
  /// false: bounds that differ, a tiling in the wrong order).
  bool shortcutUnsat(Term bad, uint64_t rlimit, bool bitVectorsFirst = false);
  /// `value` with each quotient x / d and remainder x % d by a non-constant
  /// divisor d (a row length n) replaced by q and r when x's index form is
  /// q * d + r (addends c * (d * y), no product wrapping) and Z3 proves
  /// r < d under `pc`: the spec's row `(row * n + k) / n` of the element a
  /// store family writes at iteration k is `row` (exact).
  Term splitDivisions(Term pc, Term value);
  /// Proves `pc => lhs == rhs` or finds a confirmed counterexample.
  void checkValue(const std::string &name, Term pc, Term lhs, Term rhs,
                  Location loc, Term index = nullptr,
                  StringRef buffer = {});
  struct ValueOutcome {
    VerdictKind kind;
    std::string how;
  };
  /// The solver part of checkValue: Z3 on the normalized residue of
  /// `pc => lhs == rhs`; a model counts only when `kernelValue` (the
  /// kernel's whole value, of which `lhs` is one case) and `rhs` differ
  /// under the true functions and `pc` holds there (the counterexample is
  /// reported through refutedAt).
  ValueOutcome solveValue(const std::string &name, Term pc, Term lhs, Term rhs,
                          Term kernelValue, Location loc, Term index,
                          StringRef buffer);
  /// Whether `m` is a counterexample of `pc => kernelValue == rhs`: `pc`
  /// True and the two values definitely different under the true functions
  /// (Evaluate.h). If so it is shrunk (inputs set to 0 or +-1 where the
  /// difference stays confirmed), reported (refutedAt), and true returned.
  bool confirmValue(const std::string &name, Term pc, Term kernelValue,
                    Term rhs, const Assignment &m, Location loc, Term index,
                    StringRef buffer);
  /// Testing before proving (Probe.h): up to CheckerOptions::probes seeded
  /// random inputs of `pc => lhs == rhs`, each confirmed like a solver
  /// model. Records the obligation REFUTED and returns true when one is a
  /// counterexample; otherwise records nothing (the proof goes on).
  bool probeValue(const std::string &name, Term pc, Term lhs, Term rhs,
                  Location loc, Term index, StringRef buffer);
  /// The (path condition, kernel value, spec value) triples probed already
  /// (checkThreadStores probes before checkByLane, checkValue after it).
  std::set<std::array<Term, 3>> probed;
  /// Splits `value` on the conditions of its ites (the values of merged
  /// states), outermost first, into (conjunction of the conditions' truth
  /// values, `value` under them) pairs, each free of ites. A condition under
  /// which both arms normalize to the same rational function is not split
  /// on (either arm stands for both; they agree wherever both are defined,
  /// and each case's own divisions are obligations), so a chain of merges
  /// that each preserve an invariant stays one case. False when
  /// `value` has no ite or (`tooMany`) there would be more than `limit`
  /// cases.
  /// Without `agreed`, every condition is split on; with it, the number of
  /// conditions whose arms agreed goes there.
  /// With `pc` (the value's path condition), a case whose conditions the
  /// declared thread-id and size bounds contradict under `pc`
  /// (TermContext::decideByBounds: `j <= 16 ctaid + tid - 1` false and
  /// `j + 1 <= 16 ctaid + tid - 1` true) is not a case: it is counted in
  /// `prunedByBounds` and needs no proof. A causal mask of 32 keys is then
  /// 33 cases, not 2^32.
  bool splitOnConditions(Term value,
                         SmallVectorImpl<std::pair<Term, Term>> &cases,
                         unsigned limit, bool &tooMany, unsigned *agreed,
                         Term pc = nullptr);
  /// The conjuncts of `pc` that compare integers (BV terms): what the
  /// bounds decisions of splitOnConditions and foldUnder read. Implied by
  /// `pc`, so what contradicts them contradicts `pc`.
  Term integerComparisons(Term pc);
  /// Cases the last splitOnConditions dropped as contradicting the bounds.
  unsigned prunedByBounds = 0;
  /// `t` with its max/min/ite folded where the conjunction of literals
  /// `lits` decides them (max(x, 0) is 0 under x < 0): the spec within one
  /// case of a value of merged states. With `pc`, an ite condition on
  /// integers that is not among the literals is folded too when the
  /// declared bounds decide it under `pc` and `lits` (the spec's causal
  /// mask `j <= row + 4`, with `row` read from the store's index, against
  /// the kernel's own comparisons of thread ids).
  Term foldUnder(Term t, Term lits, Term pc = nullptr);
  /// Whether the last foldUnder decided a condition by bounds.
  bool foldedByBounds = false;
  /// The guards of merged store locations (ExecutionResult::mergeGuards).
  const std::vector<Term> *mergeGuards = nullptr;
  /// `loc`, or for a store of merged states the side whose guard holds
  /// under `ev` (repeatedly); unchanged where a guard is undecided.
  Location resolveMerged(Location loc, Evaluator &ev) {
    while (auto fused = dyn_cast<FusedLoc>(loc)) {
      auto tag = dyn_cast_or_null<StringAttr>(fused.getMetadata());
      unsigned k;
      if (!tag || !mergeGuards || fused.getLocations().size() != 2 ||
          !tag.getValue().starts_with("kproof.merged.") ||
          tag.getValue().drop_front(14).getAsInteger(10, k) ||
          k >= mergeGuards->size())
        break;
      Truth side = ev.boolean((*mergeGuards)[k]);
      if (side == Truth::Unknown)
        break;
      loc = fused.getLocations()[side == Truth::True ? 0 : 1];
    }
    return loc;
  }
  /// `t` with condition `c` replaced by the constant `b` (the ites on `c`
  /// evaluated).
  Term assuming(Term t, Term c, bool b) {
    llvm::DenseMap<Term, Term> m;
    m[c] = T.boolConst(b);
    return T.substitute(t, m);
  }
  /// The (term, condition) pairs the last splitOnConditions split on.
  SmallVector<std::pair<Term, Term>> splitSteps;
  /// The (else arm, then arm) pairs the last splitOnConditions found equal.
  SmallVector<std::pair<Term, Term>> agreements;
  /// --proof-certificate for a value proved by cases: a certificate per
  /// case (`solved`: those Z3 closed), per pair of agreeing arms, and one
  /// that these imply the goal.
  void certifyCases(const std::string &name, Term pc, Term negatedGoal,
                    Term lhs, Term rhs, ArrayRef<std::pair<Term, Term>> cases,
                    ArrayRef<std::pair<Term, Term>> solved);
  /// Whether `t` has an exp or exp2 subterm.
  static bool containsExp(Term t);
  /// The spec must be defined where it is compared: every division inside
  /// `spec` has a non-zero divisor (the normalizer's cancellations rely on
  /// it, for the spec as for the kernel).
  void checkSpecDefined(const std::string &name, Term pc, Term spec);
  llvm::DenseSet<std::pair<Term, Term>> checkedSpecDivisors;
  /// Proves `pc => !bad` for a Bool `bad` (a violation), or refutes it.
  /// `element` names the output element a coverage obligation is about
  /// (the replay then checks that the kernel never writes it).
  void checkNever(
      const std::string &name, Term pc, Term bad, Location loc,
      Term witnessA = nullptr, Term witnessB = nullptr,
      std::optional<std::pair<std::string, uint64_t>> element = std::nullopt);
};

} // namespace kproof::engine::check

#endif // KPROOF_LIB_VERIFIER_CHECK_CHECKERIMPL_H
