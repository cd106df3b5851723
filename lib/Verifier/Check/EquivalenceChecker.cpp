//===- EquivalenceChecker.cpp - kernel == spec, or a counterexample -------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

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
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

//===----------------------------------------------------------------------===//
// Verdict
//===----------------------------------------------------------------------===//

static const char *verdictName(VerdictKind k) {
  switch (k) {
  case VerdictKind::Proved:
    return "PROVED";
  case VerdictKind::Refuted:
    return "REFUTED";
  case VerdictKind::Unknown:
    return "UNKNOWN";
  }
  return "UNKNOWN";
}

int Verdict::exitCode() const {
  switch (kind) {
  case VerdictKind::Proved:
    return 0;
  case VerdictKind::Refuted:
    return 1;
  case VerdictKind::Unknown:
    return 3;
  }
  return 3;
}


static std::string locString(Location loc) { return locationString(loc); }

void Verdict::print(llvm::raw_ostream &os) const {
  os << "kproof: " << kernelName << " against " << specDescription
     << " (mode reals)\n";
  for (const std::string &a : assumptions)
    os << "  assuming: " << a << "\n";
  for (const std::string &i : idioms)
    os << "  idiom: " << i << "\n";
  for (const std::string &w : warnings)
    os << "  warning: " << w << "\n";
  if (branches)
    os << "  paths: " << paths << " (" << branches
       << " data-dependent branches, " << merges
       << " merges where their sides meet again)\n";
  unsigned proved = 0;
  for (const ObligationResult &o : obligations)
    proved += o.verdict == VerdictKind::Proved;
  os << "  obligations: " << obligations.size() << " (" << proved
     << " proved)\n";
  for (const ObligationResult &o : obligations)
    if (o.verdict != VerdictKind::Proved)
      os << "    " << verdictName(o.verdict) << ": " << o.name << " -- "
         << o.how << "\n";
  if (counterexample) {
    const Counterexample &c = *counterexample;
    os << "\nERROR: " << c.property << "\n";
    if (!c.location.empty())
      os << "  at " << c.location << "\n";
    os << "\nExample:\n";
    bool any = false;
    for (auto &[name, v] : c.inputs.reals)
      any |= name.find('#') == std::string::npos;
    any |= !c.inputs.elements.empty() || !c.inputs.elementDefaults.empty();
    for (auto &[name, v] : c.inputs.bitvectors)
      any |= name.find('#') == std::string::npos && name != "e";
    if (!any)
      os << "  (any input)\n";
    // Scalars by name; buffer elements (constant-index variables "x[3]"
    // and elements read at symbolic indices alike) by buffer, in index
    // order. A buffer with more than 8 listed elements shows only those
    // that differ from its default (0 unless the model says otherwise; the
    // replay reads the same), then "x[others] = default".
    std::map<std::string, std::map<uint64_t, const Rational *>> byBuffer;
    for (auto &[name, v] : c.inputs.reals) {
      if (name.find('#') != std::string::npos)
        continue;
      StringRef n(name);
      size_t open = n.rfind('[');
      uint64_t index;
      if (open != StringRef::npos && n.ends_with("]") &&
          !n.slice(open + 1, n.size() - 1).getAsInteger(10, index))
        byBuffer[n.take_front(open).str()][index] = &v;
      else
        os << "  " << name << " = " << v.toString() << "\n";
    }
    for (auto &[buffer, elems] : c.inputs.elements)
      for (auto &[i, v] : elems)
        byBuffer[buffer][i] = &v;
    for (auto &[buffer, v] : c.inputs.elementDefaults)
      byBuffer[buffer];
    // Buffers the replay filled with a non-finite value replace the
    // model's values.
    for (auto &[buffer, v] : c.nonFiniteInputs)
      byBuffer.erase(buffer);
    for (auto &[buffer, v] : c.nonFiniteInputs)
      os << "  " << buffer << "[all] = " << v << "\n";
    for (auto &[buffer, elems] : byBuffer) {
      auto d = c.inputs.elementDefaults.find(buffer);
      Rational def = d == c.inputs.elementDefaults.end() ? Rational(0)
                                                         : d->second;
      bool omit = elems.size() > 8;
      for (auto &[i, v] : elems)
        if (!omit || !(*v == def))
          os << "  " << buffer << "[" << i << "] = " << v->toString()
             << "\n";
      if (omit || d != c.inputs.elementDefaults.end())
        os << "  " << buffer << "[others] = " << def.toString() << "\n";
    }
    for (auto &[name, v] : c.inputs.bitvectors)
      if (name.find('#') == std::string::npos && name != "e")
        os << "  " << name << " = " << v.getZExtValue() << "\n";
    if (!c.specValue.empty()) {
      os << "\nKernel value: " << c.kernelValue << "\n";
      os << "Spec value:   " << c.specValue << "\n";
      os << "(exact values at these inputs, enclosed with MPFR using the true "
            "functions; they differ)\n";
    }
    if (!replay.empty())
      os << "Replay: " << replay << "\n";
  }
  os << "\n" << verdictName(kind);
  if (kind == VerdictKind::Unknown && !reason.empty())
    os << ": " << reason;
  os << "\n";
}

void Verdict::printJSON(llvm::raw_ostream &os) const {
  llvm::json::Object root;
  root["verdict"] = verdictName(kind);
  root["kernel"] = kernelName;
  root["spec"] = specDescription;
  root["mode"] = "reals";
  root["assumptions"] = llvm::json::Array(assumptions);
  root["idioms"] = llvm::json::Array(idioms);
  root["warnings"] = llvm::json::Array(warnings);
  root["paths"] = int64_t(paths);
  root["branches"] = int64_t(branches);
  root["merges"] = int64_t(merges);
  if (!reason.empty())
    root["reason"] = reason;
  llvm::json::Array obs;
  for (const ObligationResult &o : obligations)
    obs.push_back(llvm::json::Object{{"name", o.name},
                                     {"verdict", verdictName(o.verdict)},
                                     {"how", o.how}});
  root["obligations"] = std::move(obs);
  if (counterexample) {
    llvm::json::Object inputs;
    for (auto &[name, v] : counterexample->inputs.reals)
      if (name.find('#') == std::string::npos)
        inputs[name] = v.toString();
    for (auto &[buffer, elems] : counterexample->inputs.elements)
      for (auto &[i, v] : elems)
        inputs[buffer + "[" + std::to_string(i) + "]"] = v.toString();
    for (auto &[buffer, v] : counterexample->inputs.elementDefaults)
      inputs[buffer + "[others]"] = v.toString();
    for (auto &[buffer, v] : counterexample->nonFiniteInputs) {
      // The replay's non-finite fill replaces the model's values.
      std::vector<std::string> stale;
      for (auto &kv : inputs)
        if (llvm::StringRef(kv.first).starts_with(buffer + "["))
          stale.push_back(kv.first.str());
      for (const std::string &k : stale)
        inputs.erase(k);
      inputs[buffer + "[all]"] = v;
    }
    for (auto &[name, v] : counterexample->inputs.bitvectors)
      if (name.find('#') == std::string::npos && name != "e")
        inputs[name] = std::to_string(v.getZExtValue());
    root["counterexample"] = llvm::json::Object{
        {"property", counterexample->property},
        {"location", counterexample->location},
        {"inputs", std::move(inputs)},
        {"kernel_value", counterexample->kernelValue},
        {"spec_value", counterexample->specValue}};
    if (!counterexample->outputBuffer.empty()) {
      (*root.getObject("counterexample"))["buffer"] =
          counterexample->outputBuffer;
      (*root.getObject("counterexample"))["index"] =
          int64_t(*counterexample->outputIndex);
    }
    if (!replay.empty())
      (*root.getObject("counterexample"))["replay"] = replay;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

//===----------------------------------------------------------------------===//
// Spec lowering
//===----------------------------------------------------------------------===//

namespace {

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

  /// A symbolic launch: prefer a model with small extents (ntid.*,
  /// nctaid.* at most 4, else 64), so the counterexample is readable and
  /// the interpreter can replay it. Keeps `m` when none exists.
  void shrinkLaunch(std::optional<Assignment> &m, bool bvAsInt,
                    ArrayRef<Term> extra) {
    SmallVector<std::pair<std::string, uint64_t>> extents;
    for (auto &[name, v] : m->bitvectors)
      if (StringRef(name).starts_with("ntid.") ||
          StringRef(name).starts_with("nctaid."))
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
  /// output) at its index (DESIGN.md §4-§5). A store to a buffer no spec
  /// defines is UNKNOWN with that reason.
  void checkThreadStores(const PathResult &p, ArrayRef<Spec *> specs);
  /// Coverage with an explicit witness: the thread that should write
  /// element e of a 1-D launch is ctaid.x = e / ntid.x, tid.x = e % ntid.x.
  void checkCoverage(const ExecutionResult &ex, const BufferBinding &out,
                     const LaunchConfig &launch);
  /// Multi-thread launches: data races, barrier divergence, and the side
  /// conditions of resolving shared reads to their writers (DESIGN.md §4).
  void checkSync(const ExecutionResult &ex, const LaunchConfig &launch);
  /// The obligations of counted barriers (bar.sync id, n; bar.arrive id,
  /// n; DESIGN.md §4), per id: one thread count, a multiple of the warp
  /// size; every participant arrives equally often; the participants are
  /// whole warps (.aligned) and exactly `n` threads.
  void checkCountedBarriers(const ExecutionResult &ex,
                            const LaunchConfig &launch);

  void record(std::string name, VerdictKind k, std::string how) {
    verdict.obligations.push_back({std::move(name), k, std::move(how)});
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
    // Few obligations are asked alone: joining a handful of hard ones only
    // makes one harder query (measured on the padded transpose).
    if (conds.size() < kBatchFrom)
      return done;
    for (size_t lo = 0; lo < conds.size(); lo += kBatch) {
      size_t hi = std::min(conds.size(), lo + kBatch);
      if (hi - lo < 2)
        continue;
      SmallVector<Term> chunk(conds.begin() + lo, conds.begin() + hi);
      Query q{T, options, &tableRanges, {T.orOf(chunk)}};
      q.addBranchFacts();
      if (q.check().result == smt::CheckResult::Unsat)
        for (size_t i = lo; i < hi; ++i)
          done[i] = true;
    }
    return done;
  }
  std::set<std::string> refutedDiagnostics;
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
      mlir::emitError(loc) << "REFUTED: " << c.property;
    if (!verdict.counterexample)
      verdict.counterexample = c;
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
  bool splitOnConditions(Term value,
                         SmallVectorImpl<std::pair<Term, Term>> &cases,
                         unsigned limit, bool &tooMany, unsigned *agreed);
  /// `t` with its max/min/ite folded where the conjunction of literals
  /// `lits` decides them (max(x, 0) is 0 under x < 0): the spec within one
  /// case of a value of merged states.
  Term foldUnder(Term t, Term lits);
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
  llvm::DenseSet<Term> checkedSpecDivisors;
  /// Proves `pc => !bad` for a Bool `bad` (a violation), or refutes it.
  /// `element` names the output element a coverage obligation is about
  /// (the replay then checks that the kernel never writes it).
  void checkNever(
      const std::string &name, Term pc, Term bad, Location loc,
      Term witnessA = nullptr, Term witnessB = nullptr,
      std::optional<std::pair<std::string, uint64_t>> element = std::nullopt);
};

Term Checker::splitDivisions(Term pc, Term value) {
  llvm::DenseMap<Term, Term> map;
  llvm::DenseSet<Term> seen;
  for (Term u : subterms({value})) {
    if ((u->getKind() != Kind::BVUDiv && u->getKind() != Kind::BVURem) ||
        u->getWidth() > 64 || u->getOperand(1)->getKind() == Kind::BVConst)
      continue;
    Term x = u->getOperand(0), d = u->getOperand(1);
    if (!seen.insert(u).second)
      continue;
    unsigned w = u->getWidth();
    // The canonical linear form of x, its addends c * atom (+ constant).
    Term xc = T.canonicalIndex(x);
    if (!T.indexInterval(xc))
      continue;
    SmallVector<Term> work{xc}, quotient, rest;
    bool ok = true;
    while (!work.empty() && ok) {
      Term a = work.pop_back_val();
      if (a->getKind() == Kind::BVAdd) {
        work.push_back(a->getOperand(0));
        work.push_back(a->getOperand(1));
        continue;
      }
      // c * P with P = d * y (or y * d): contributes c * y to the quotient.
      Term p = a, c = nullptr;
      if (a->getKind() == Kind::BVMul &&
          a->getOperand(1)->getKind() == Kind::BVConst &&
          a->getOperand(0)->getKind() == Kind::BVMul)
        p = a->getOperand(0), c = a->getOperand(1);
      Term y = nullptr;
      if (p->getKind() == Kind::BVMul) {
        if (p->getOperand(0) == d)
          y = p->getOperand(1);
        else if (p->getOperand(1) == d)
          y = p->getOperand(0);
      }
      if (!y) {
        rest.push_back(a);
        continue;
      }
      // The product must not wrap (then P = d * y as integers), and c
      // must be a positive coefficient.
      auto id = T.indexInterval(d), iy = T.indexInterval(y);
      if (!id || !iy ||
          (unsigned __int128)id->second * iy->second >=
              ((unsigned __int128)1 << w) ||
          (c && c->getAPInt().isNegative()))
        ok = false;
      quotient.push_back(c ? T.bvBin(Kind::BVMul, y, c) : y);
    }
    if (!ok || quotient.empty())
      continue;
    Term q = quotient[0];
    for (size_t i = 1; i < quotient.size(); ++i)
      q = T.bvBin(Kind::BVAdd, q, quotient[i]);
    Term r = rest.empty() ? T.bv(0, w) : rest[0];
    for (size_t i = 1; i < rest.size(); ++i)
      r = T.bvBin(Kind::BVAdd, r, rest[i]);
    // x = q * d + r exactly (x's form does not wrap, nor does any product
    // d * y, and r, as part of that form, is its value); it is the
    // division when r < d on every execution the path condition allows.
    if (!T.indexInterval(r))
      continue;
    if (!shortcutUnsat(T.andOf(pc, T.notOf(T.bvUlt(r, d))), 3'000'000))
      continue;
    // As written (not re-canonicalized): q * d then spells the kernel's
    // own product atom.
    map[u] = u->getKind() == Kind::BVUDiv ? q : r;
  }
  return map.empty() ? value : T.substitute(value, map);
}

bool Checker::shortcutUnsat(Term bad, uint64_t rlimit, bool bitVectorsFirst) {
  Query q{T, options, &tableRanges, {bad}};
  // The contract's table preconditions restrict the inputs here too.
  SmallVector<Term> facts;
  q.addRangeFacts(facts, {bad});
  llvm::append_range(q.assertions, facts);
  q.addBranchFacts();
  // The integer encoding first (products of sizes and thread ids), under a
  // short wall-clock guard, as nlsat does not always heed the resource
  // limit; then bit-vectors.
  q.guardSeconds = 20;
  auto o = q.checkIn(/*bvAsInt=*/!bitVectorsFirst, {}, rlimit);
  if (bitVectorsFirst && o.result == smt::CheckResult::Sat)
    return false;
  if (o.result == smt::CheckResult::Error ||
      o.result == smt::CheckResult::Unknown)
    o = q.checkIn(/*bvAsInt=*/bitVectorsFirst, {}, rlimit);
  if (o.result == smt::CheckResult::Unknown)
    if (std::optional<Query::Outcome> u = q.slicedUnsat({}))
      o = *u;
  return o.result == smt::CheckResult::Unsat;
}

/// Whether `a` and `b` are the same term up to the index terms of the
/// buffer elements they read (same kinds, names and operands elsewhere):
/// the pairs of differing indices go to `indices`. Then a == b wherever
/// every pair is equal, a bit-vector question (the real parts, possibly
/// nonlinear, stay out of the solver).
static bool matchUpToIndices(Term a, Term b,
                             SmallVectorImpl<std::pair<Term, Term>> &indices,
                             llvm::DenseSet<std::pair<Term, Term>> &seen) {
  if (a == b)
    return true;
  if (!seen.insert({a, b}).second)
    return true;
  // Every attribute of the node, not only its kind: BVToReal's
  // signedness, widths, extract positions (a review found unsigned and
  // signed conversions of one integer matched: a false PROVED).
  if (a->getKind() != b->getKind() || a->getSort() != b->getSort() ||
      a->getNumOperands() != b->getNumOperands() ||
      a->getName() != b->getName() || a->isSigned() != b->isSigned() ||
      a->getWidth() != b->getWidth() ||
      a->getExtractLow() != b->getExtractLow() || a->isConstant() ||
      b->isConstant() || a->isReduction() || seen.size() > 4096)
    return false;
  if (a->getKind() == Kind::Select) {
    indices.push_back({a->getOperand(0), b->getOperand(0)});
    return true;
  }
  if (a->getSort() != Sort::Real)
    return false; // conditions and integers: equal terms only
  for (auto [x, y] : llvm::zip(a->getOperands(), b->getOperands()))
    if (!matchUpToIndices(x, y, indices, seen))
      return false;
  return true;
}

/// Whether `t` multiplies (or divides by) non-constant real terms: a
/// nonlinear real question, which Z3's nlsat may not stop on.
static bool nonlinearReal(Term t) {
  for (Term u : subterms({t})) {
    if (u->getKind() == Kind::Div && !u->getOperand(1)->isConstant())
      return true;
    if (u->getKind() == Kind::Mul &&
        llvm::count_if(u->getOperands(),
                       [](Term o) { return !o->isConstant(); }) > 1)
      return true;
  }
  return false;
}

/// The reductions of `t`, outermost only (not those inside a body).
static SmallVector<Term> outerReductions(Term t) {
  SmallVector<Term> out, work{t};
  llvm::DenseSet<Term> seen;
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (u->isReduction()) {
      out.push_back(u);
      work.push_back(u->getOperand(0));
      work.push_back(u->getOperand(1));
      continue;
    }
    work.append(u->getOperands().begin(), u->getOperands().end());
  }
  return out;
}

/// For each subterm of `root` (a DAG of at most `limit` nodes), the
/// condition under which its value reaches root's: the disjunction, over
/// its occurrences, of the ite conditions on the way down (the then-side
/// of ite(c, a, b) under c, the else-side under not c). Empty when the DAG
/// is larger than `limit` (the caller then uses true).
static llvm::DenseMap<Term, Term> reachingConditions(TermContext &T, Term root,
                                                     size_t limit) {
  // Parents before children: reverse post-order of a DFS.
  SmallVector<Term> post;
  llvm::DenseSet<Term> seen;
  SmallVector<std::pair<Term, unsigned>> stack{{root, 0}};
  seen.insert(root);
  while (!stack.empty()) {
    auto &[u, i] = stack.back();
    if (i < u->getOperands().size()) {
      Term c = u->getOperand(i++);
      if (seen.insert(c).second) {
        if (seen.size() > limit)
          return {};
        stack.push_back({c, 0});
      }
      continue;
    }
    post.push_back(u);
    stack.pop_back();
  }
  llvm::DenseMap<Term, SmallVector<Term, 2>> ways;
  llvm::DenseMap<Term, Term> ctx;
  ways[root].push_back(T.boolConst(true));
  for (Term u : llvm::reverse(post)) {
    Term c = T.orOf(ways[u]);
    ctx[u] = c;
    auto add = [&](Term child, Term cond) {
      SmallVector<Term, 2> &w = ways[child];
      if (w.size() < 8)
        w.push_back(cond);
      else
        w.assign(1, T.boolConst(true)); // too many ways: any
    };
    if (u->getKind() == Kind::Ite) {
      add(u->getOperand(0), c);
      add(u->getOperand(1), T.andOf(c, u->getOperand(0)));
      add(u->getOperand(2), T.andOf(c, T.notOf(u->getOperand(0))));
      continue;
    }
    for (Term o : u->getOperands())
      add(o, c);
  }
  return ctx;
}

Term Checker::unifyReductions(const std::string &name, Term pc, Term lhs,
                              Term rhs, unsigned depth) {
  SmallVector<Term> mine = outerReductions(lhs), theirs = outerReductions(rhs);
  if (mine.empty() || theirs.empty() || depth > 3)
    return lhs;
  llvm::DenseSet<Term> specSide(theirs.begin(), theirs.end());
  llvm::DenseMap<Term, Term> map;
  // A reduction of the kernel matters only where its value reaches lhs (a
  // loop summary under the guard that the loop runs at all): a and b must
  // agree there only, as substituting b for a changes nothing elsewhere.
  llvm::DenseMap<Term, Term> reaching = reachingConditions(T, lhs, 20000);
  const Term outerPc = pc;
  for (Term a : mine) {
    if (specSide.count(a))
      continue;
    Term pc = outerPc;
    if (Term r = reaching.lookup(a))
      pc = T.andOf(outerPc, r);
    for (Term b : theirs) {
      if (a->getKind() != b->getKind() ||
          a->getOperand(0)->getWidth() != b->getOperand(0)->getWidth())
        continue;
      unsigned w = a->getOperand(0)->getWidth();
      Term lo = a->getOperand(0), hi = a->getOperand(1);
      // j < hi: bounded by hi's largest value when the index form knows it
      // (a size's upper bound), so that the bodies' index terms fold as
      // linear forms (TermContext::canonicalIndex). A name per bound.
      // The range is signed (lo <=s j <s hi): with lo >= 0 and hi below
      // 2^(w-1), j is that unsigned bound too.
      std::string jName = "reduce.j" + std::to_string(depth);
      std::optional<std::pair<uint64_t, uint64_t>> ivLo = T.indexInterval(lo);
      if (std::optional<std::pair<uint64_t, uint64_t>> iv =
              T.indexInterval(hi);
          iv && ivLo && iv->second >= 1 && w <= 64 &&
          iv->second < (uint64_t(1) << (w - 1)) &&
          ivLo->second < (uint64_t(1) << (w - 1))) {
        jName += "<" + std::to_string(iv->second);
        if (T.upperBound(jName) != iv->second - 1)
          T.setUpperBound(jName, iv->second - 1);
      }
      Term j = T.bvVar(jName, w);
      Term inRange = T.andOf({pc, T.bvSle(lo, j), T.bvSlt(j, hi)});
      Term bodyA = T.substitute(a->getOperand(2), {{T.boundVar(a), j}});
      Term bodyB = T.substitute(b->getOperand(2), {{T.boundVar(b), j}});
      // Reductions inside the bodies first (a softmax's max inside its sum).
      bodyA = unifyReductions(name, inRange, bodyA, bodyB, depth + 1);
      // Bodies that read different numbers of elements of some buffer are
      // not asked (a body of four strided elements against one: the
      // question has no cheap answer, and the answer is no).
      auto reads = [](Term t) {
        std::map<std::string, unsigned> n;
        for (Term u : subterms({t}))
          if (u->getKind() == Kind::Select && u->getSort() == Sort::Real)
            ++n[u->getName().str()];
        return n;
      };
      if (getenv("KPROOF_DUMP_TERMS"))
        llvm::errs() << "; unify " << a->toBriefString(300) << "\n;  with "
                     << b->toBriefString(300) << "\n";
      if (reads(bodyA) != reads(bodyB))
        continue;
      // Two empty ranges give the same value (0, -inf or +inf) whatever
      // their bounds: a top-tested loop's trip count ite(e - s <= 0, 0,
      // e - s) meets a spec's [max(0, s), min(n, e)) when s >= e.
      Term boundsDiffer = T.andOf(
          T.orOf(T.notOf(T.eq(lo, b->getOperand(0))),
                 T.notOf(T.eq(hi, b->getOperand(1)))),
          T.notOf(T.andOf(T.bvSle(hi, lo),
                          T.bvSle(b->getOperand(1), b->getOperand(0)))));
      Term bodiesDiffer = nullptr;
      SmallVector<std::pair<Term, Term>> indexPairs;
      llvm::DenseSet<std::pair<Term, Term>> matched;
      if (N.provesEqual(bodyA, bodyB)) {
        bodiesDiffer = T.boolConst(false);
      } else if ((nonlinearReal(bodyA) || nonlinearReal(bodyB)) &&
                 matchUpToIndices(bodyA, bodyB, indexPairs, matched)) {
        // Nonlinear bodies (x[a]^2 w): equal wherever the elements they
        // read are the same elements, asked over the index terms alone
        // (the real question ran past 13 minutes in nlsat).
        SmallVector<Term> differ;
        for (auto &[ia, ib] : indexPairs)
          differ.push_back(T.notOf(T.eq(ia, ib)));
        bodiesDiffer = T.andOf(inRange, T.orOf(differ));
      } else {
        bodiesDiffer = T.andOf(inRange, T.notOf(T.eq(bodyA, bodyB)));
      }
      Term bad = T.andOf(pc, T.orOf(boundsDiffer, bodiesDiffer));
      // A bounded effort: this is a shortcut, the value query follows.
      constexpr uint64_t kUnifyRlimit = 3'000'000;
      // Bit-vectors only: the integer encoding (nlsat) does not heed the
      // resource limit.
      auto unsat = [&](Term t) {
        return shortcutUnsat(t, kUnifyRlimit, /*bitVectorsFirst=*/true);
      };
      bool boundsOk = unsat(T.andOf(pc, boundsDiffer));
      bool allOk = boundsOk && unsat(bad);
      if (getenv("KPROOF_DUMP_TERMS"))
        llvm::errs() << ";  bounds " << (boundsOk ? "equal" : "not proved equal")
                     << ", bodies " << (allOk ? "equal" : "not proved equal")
                     << "\n";
      if (!allOk)
        continue;
      proved(name + " (" + std::string(a->getKind() == Kind::SumOver ? "sum"
                                       : a->getKind() == Kind::MaxOver
                                           ? "max"
                                           : "min") +
                 " over equal bounds of equal elements)",
             bad, "z3 (unsat)");
      map[a] = b;
      // A max (min) over a range that may be empty stands in an ite
      // ite(lo < hi, R, -inf) (TermContext::reduce). The kernel's such
      // ite is the spec's where its emptiness agrees with the spec's,
      // asked where it reaches.
      if (a->getKind() != Kind::SumOver) {
        Term neutral = a->getKind() == Kind::MaxOver ? T.negInf() : T.posInf();
        Term ca = T.bvSlt(lo, hi);
        Term cb = T.bvSlt(b->getOperand(0), b->getOperand(1));
        Term wa = T.ite(ca, a, neutral), wb = T.ite(cb, b, neutral);
        if (wa != a && reaching.count(wa)) {
          Term pw = T.andOf(outerPc, reaching.lookup(wa));
          Term differ = T.orOf(T.andOf(ca, T.notOf(cb)),
                               T.andOf(cb, T.notOf(ca)));
          if (unsat(T.andOf(pw, differ))) {
            proved(name + " (emptiness of equal reductions)",
                   T.andOf(pw, differ), "z3 (unsat)");
            map[wa] = wb;
          }
        }
      }
      break;
    }
  }
  return map.empty() ? lhs : T.substitute(lhs, map);
}

Term Checker::positiveUnderGuards(Term t) {
  SmallVector<Term> addends;
  if (t->getKind() == Kind::Add)
    llvm::append_range(addends, t->getOperands());
  else
    addends.push_back(t);
  SmallVector<Term> guards;
  for (Term a : addends) {
    if (N.provesPositive(a))
      return T.boolConst(true);
    if (a->getKind() == Kind::Ite) {
      Term c = a->getOperand(0), x = a->getOperand(1), y = a->getOperand(2);
      auto isZero = [](Term u) {
        return u->isRealConst() && u->getRational().isZero();
      };
      if (isZero(y) && N.provesPositive(x)) {
        guards.push_back(c);
        continue;
      }
      if (isZero(x) && N.provesPositive(y)) {
        guards.push_back(T.notOf(c));
        continue;
      }
    }
    if (!N.provesNonNegative(a))
      return nullptr;
  }
  if (guards.empty())
    return nullptr;
  // Guards over real values are left to the case split.
  for (Term g : guards)
    for (Term u : subterms({g}))
      if (u->getSort() == Sort::Real)
        return nullptr;
  return T.orOf(guards);
}

/// How many characters of a term KPROOF_DUMP_TERMS prints
/// (KPROOF_DUMP_TERMS_LIMIT, default 2000).
static size_t dumpLimit() {
  if (const char *s = getenv("KPROOF_DUMP_TERMS_LIMIT"))
    return std::max<size_t>(80, strtoull(s, nullptr, 10));
  return 2000;
}

/// The elements of buffers read by real Selects in `t`, per buffer.
static std::map<std::string, unsigned> selectReads(Term t) {
  std::map<std::string, unsigned> n;
  for (Term u : subterms({t}))
    if (u->getKind() == Kind::Select && u->getSort() == Sort::Real)
      ++n[u->getName().str()];
  return n;
}

/// Lower bounds of size variables that `pc` states: `K <=s v`, `K <s v`
/// and their negations, and nvcc's unrolling guard `!(v + K1 <u K2)` with
/// K1 = -m (v - m >= K2 when v >= m is already known, so the subtraction
/// does not wrap). Only variables with a declared upper bound below 2^(w-1)
/// (their signed and unsigned values agree).
static llvm::StringMap<uint64_t> pathLowerBounds(TermContext &T, Term pc) {
  llvm::StringMap<uint64_t> lb;
  auto known = [&](Term v) -> std::optional<uint64_t> {
    if (v->getKind() != Kind::BVVar || v->getWidth() > 63)
      return std::nullopt;
    std::optional<uint64_t> hi = T.upperBound(v->getName());
    if (!hi || *hi >= (uint64_t(1) << (v->getWidth() - 1)))
      return std::nullopt;
    uint64_t l = T.lowerBound(v->getName()).value_or(0);
    auto it = lb.find(v->getName());
    return it != lb.end() ? std::max(l, it->second) : l;
  };
  auto note = [&](Term v, int64_t k) {
    std::optional<uint64_t> cur = known(v);
    if (!cur || k <= 0 || uint64_t(k) <= *cur)
      return;
    lb[v->getName()] = uint64_t(k);
  };
  auto sconst = [](Term c) -> std::optional<int64_t> {
    if (c->getKind() != Kind::BVConst || c->getWidth() > 64)
      return std::nullopt;
    return c->getAPInt().getSExtValue();
  };
  for (int round = 0; round < 2; ++round)
    for (Term c : conjunctsOf(pc)) {
      bool neg = c->getKind() == Kind::Not;
      Term e = neg ? c->getOperand(0) : c;
      if (e->getNumOperands() != 2)
        continue;
      Term a = e->getOperand(0), b = e->getOperand(1);
      Kind k = e->getKind();
      if (!neg && (k == Kind::BVSle || k == Kind::BVSlt))
        if (std::optional<int64_t> x = sconst(a))
          note(b, *x + (k == Kind::BVSlt)); // x <= v, x < v
      if (neg && (k == Kind::BVSle || k == Kind::BVSlt))
        if (std::optional<int64_t> x = sconst(b))
          note(a, *x + (k == Kind::BVSle)); // !(v <= x), !(v < x)
      if (neg && k == Kind::BVUlt && a->getKind() == Kind::BVAdd)
        if (std::optional<int64_t> k2 = sconst(b); k2 && *k2 >= 0)
          for (int i = 0; i < 2; ++i) {
            Term v = a->getOperand(i);
            std::optional<int64_t> k1 = sconst(a->getOperand(1 - i));
            std::optional<uint64_t> cur = known(v);
            if (k1 && cur && *k1 < 0 && uint64_t(-*k1) <= *cur)
              note(v, *k2 - *k1); // v - m >= k2
          }
    }
  return lb;
}

Term Checker::tileReductions(const std::string &name, Term pc, Term lhs,
                             Term rhs) {
  // Index terms read under the bounds this case's path states (n >= 4 past
  // an unrolled loop's guard): the element variables' forms are exact where
  // the query looks (it is asked under pc). Restored on return.
  // Products of sizes and thread ids multiplied out, so the kernel's
  // n * row and the spec's (4 row / 4) * n meet as one form.
  auto saved = T.saveBounds();
  T.setMultiplyOutProducts(true);
  for (auto &[v, l] : pathLowerBounds(T, pc)) {
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; tile: " << v << " >= " << l << " on this path\n";
    T.setLowerBound(v, l);
  }
  Term result = tileReductionsUnder(name, pc, lhs, rhs);
  T.restoreBounds(std::move(saved));
  return result;
}

Term Checker::tileReductionsUnder(const std::string &name, Term pc, Term lhs,
                                  Term rhs) {
  // The spec's reduction Q = R_{i in [lo, hi)} f(i), the whole of rhs.
  if (!rhs->isReduction() || rhs->getKind() == Kind::MinOver)
    return lhs;
  Kind kind = rhs->getKind();
  Kind combine = kind == Kind::SumOver ? Kind::Add : Kind::Max;
  // The kernel's value: a sum (max chain) of reductions of the same kind.
  SmallVector<Term> parts, rest, work{lhs};
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (u->getKind() == combine) {
      for (Term o : u->getOperands())
        work.push_back(o);
      continue;
    }
    if (u->getKind() == kind)
      parts.push_back(u);
    else
      rest.push_back(u);
  }
  if (parts.empty() || parts.size() > 3)
    return lhs;
  // What remains must be the neutral element (0 for sums, -inf for max).
  for (Term r : rest)
    if (!(kind == Kind::SumOver ? r == T.real(0)
                                : r->getKind() == Kind::NegInf))
      return lhs;
  Term f = rhs->getOperand(2), fvar = T.boundVar(rhs);
  unsigned w = fvar->getWidth();
  auto fRead = selectReads(f);
  if (fRead.size() != 1)
    return lhs;
  const auto &[buf, per] = *fRead.begin();
  SmallVector<unsigned> strides;
  for (Term p : parts) {
    if (p->getOperand(0)->getWidth() != w)
      return lhs;
    auto reads = selectReads(p->getOperand(2));
    if (reads.size() != 1 || !reads.count(buf) || reads[buf] % per)
      return lhs;
    strides.push_back(reads[buf] / per);
  }
  // Each order of the parts: the blocks tile [lo, hi) one after another.
  // The widest stride first (an unrolled loop before its remainder loop),
  // then the other orders.
  SmallVector<unsigned> order;
  for (unsigned k = 0; k < parts.size(); ++k)
    order.push_back(k);
  SmallVector<SmallVector<unsigned>> orders;
  do
    orders.push_back(order);
  while (std::next_permutation(order.begin(), order.end()));
  std::stable_sort(orders.begin(), orders.end(),
                   [&](const SmallVector<unsigned> &a,
                       const SmallVector<unsigned> &b) {
                     for (unsigned k = 0; k < a.size(); ++k)
                       if (strides[a[k]] != strides[b[k]])
                         return strides[a[k]] > strides[b[k]];
                     return false;
                   });
  for (const SmallVector<unsigned> &order : orders) {
    SmallVector<Term> conds;
    Term c = rhs->getOperand(0);
    Term limit = T.bv(uint64_t(1) << 32, w);
    for (unsigned k : order) {
      Term p = parts[k];
      Term lo = p->getOperand(0), hi = p->getOperand(1);
      unsigned st = strides[k];
      // j in [lo, hi): where the index form bounds hi (and lo is not
      // negative), j gets that bound as its declared range, so the body's
      // byte offsets scaled back to elements read as linear forms; the
      // rewrite is exact for every j the implication below reaches.
      Term j = T.bvVar("tile.j" + std::to_string(tileVars++), w);
      if (auto hiRange = T.indexInterval(hi))
        if (auto loRange = T.indexInterval(lo);
            loRange && hiRange->second >= 1 &&
            loRange->second < (uint64_t(1) << (w - 1)) &&
            hiRange->second <= (uint64_t(1) << (w - 1)))
          T.setUpperBound(j->getName(), hiRange->second - 1);
      Term body = T.substitute(p->getOperand(2), {{T.boundVar(p), j}});
      // sum_{r < st} f(c + st * (j - lo) + r)
      Term base = T.bvBin(Kind::BVAdd, c,
                          T.bvBin(Kind::BVMul, T.bv(st, w),
                                  T.bvBin(Kind::BVSub, j, lo)));
      Term expect = nullptr;
      for (unsigned r = 0; r < st; ++r) {
        Term fr = T.substitute(
            f, {{fvar, T.bvBin(Kind::BVAdd, base, T.bv(r, w))}});
        expect = !expect ? fr
                 : kind == Kind::SumOver ? T.add(expect, fr)
                                         : T.max(expect, fr);
      }
      Term count = T.bvBin(Kind::BVSub, hi, lo);
      Term next = T.bvBin(Kind::BVAdd, c, T.bvBin(Kind::BVMul, T.bv(st, w),
                                                  count));
      conds.push_back(T.bvSle(lo, hi));
      conds.push_back(T.bvUle(count, limit));
      conds.push_back(T.bvSle(c, next));
      conds.push_back(T.implies(T.andOf(T.bvSle(lo, j), T.bvSlt(j, hi)),
                                T.eq(body, expect)));
      c = next;
    }
    conds.push_back(T.eq(c, rhs->getOperand(1)));
    Term bad = T.andOf(pc, T.notOf(T.andOf(conds)));
    constexpr uint64_t kTileRlimit = 5'000'000;
    bool tiled = shortcutUnsat(bad, kTileRlimit, /*bitVectorsFirst=*/true);
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; tile " << parts.size() << " parts (strides "
                   << strides.size() << "): "
                   << (tiled ? "proved" : "not proved") << "\n"
                   << ";   " << T.andOf(conds)->toBriefString(dumpLimit())
                   << "\n";
    if (tiled) {
      proved(name + " (" + std::to_string(parts.size()) + " " +
                 (kind == Kind::SumOver ? "sums" : "maxima") +
                 " of the kernel tile the spec's range)",
             bad, "z3 (unsat)");
      return rhs;
    }
  }
  return lhs;
}

/// Bit-vector variables that `cond` pins to one value by a signed lower
/// and upper bound (`1 <=s n` from the contract, `n <=s 1` from a merged
/// state's case): v -> that constant. Substituting them is an equivalence
/// under `cond`, and folds reductions over [0, n) to their elements.
static llvm::DenseMap<Term, Term> pinnedByBounds(TermContext &T, Term cond) {
  llvm::DenseMap<Term, std::pair<APInt, APInt>> bounds; // signed [lo, hi]
  auto note = [&](Term v, Term c, bool upper, int adjust) {
    if (v->getKind() != Kind::BVVar || c->getKind() != Kind::BVConst ||
        v->getWidth() > 64)
      return;
    unsigned w = v->getWidth();
    APInt x = c->getAPInt();
    // c - 1 or c + 1 past the signed range: leave it.
    if ((adjust < 0 && x.isMinSignedValue()) ||
        (adjust > 0 && x.isMaxSignedValue()))
      return;
    if (adjust)
      x = adjust < 0 ? x - 1 : x + 1;
    auto [it, fresh] = bounds.try_emplace(
        v, APInt::getSignedMinValue(w), APInt::getSignedMaxValue(w));
    (void)fresh;
    if (upper && x.slt(it->second.second))
      it->second.second = x;
    if (!upper && x.sgt(it->second.first))
      it->second.first = x;
  };
  for (Term c : conjunctsOf(cond)) {
    bool neg = c->getKind() == Kind::Not;
    Term e = neg ? c->getOperand(0) : c;
    if (e->getKind() != Kind::BVSle && e->getKind() != Kind::BVSlt)
      continue;
    bool strict = e->getKind() == Kind::BVSlt;
    Term a = e->getOperand(0), b = e->getOperand(1);
    if (!neg) {
      // a <= b (a < b): an upper bound of a, a lower bound of b.
      note(a, b, /*upper=*/true, strict ? -1 : 0);
      note(b, a, /*upper=*/false, strict ? 1 : 0);
    } else {
      // not (a <= b): b < a; not (a < b): b <= a.
      note(a, b, /*upper=*/false, strict ? 0 : 1);
      note(b, a, /*upper=*/true, strict ? 0 : -1);
    }
  }
  llvm::DenseMap<Term, Term> pins;
  for (auto &[v, lh] : bounds)
    if (lh.first == lh.second)
      pins[v] = T.bv(lh.first);
  return pins;
}

void Checker::checkValue(const std::string &name, Term pc, Term lhs, Term rhs,
                         Location loc, Term index, StringRef buffer) {
  // Debugging aid: the two sides as the checker receives them.
  if (getenv("KPROOF_DUMP_TERMS"))
    llvm::errs() << "; value " << name << "\n;   pc:     "
                 << pc->toBriefString(dumpLimit()) << "\n;   kernel: "
                 << lhs->toBriefString(dumpLimit()) << "\n;   spec:   "
                 << rhs->toBriefString(dumpLimit()) << "\n";
  Term negatedGoal = T.andOf(pc, T.notOf(T.eq(lhs, rhs)));
  if (N.provesEqual(lhs, rhs)) {
    proved(name, negatedGoal, "normalizer");
    return;
  }
  // A reduction of the kernel's (a summarized loop) equal to one of the
  // spec's, element by element: the same term from here on.
  if (Term unified = unifyReductions(name, pc, lhs, rhs, 0);
      unified != lhs) {
    lhs = unified;
    negatedGoal = T.andOf(pc, T.notOf(T.eq(lhs, rhs)));
    if (N.provesEqual(lhs, rhs)) {
      proved(name, negatedGoal, "normalizer, after equal reductions");
      return;
    }
  }
  if (Term t = tileReductions(name, pc, lhs, rhs);
      t != lhs && N.provesEqual(t, rhs)) {
    proved(name, T.andOf(pc, T.notOf(T.eq(t, rhs))),
           "normalizer, after reductions that tile the spec's");
    return;
  }
  // Testing before proving: a few concrete inputs find most wrong values
  // at once (Probe.h); only a value none of them refutes goes on.
  if (probeValue(name, pc, lhs, rhs, loc, index, buffer))
    return;
  // A value of merged states (an ite over branch conditions): prove it case
  // by case, each case the value one path computed, so the normalizer sees
  // the straight-line terms it closes; a case it does not close goes to Z3
  // under its conditions.
  SmallVector<std::pair<Term, Term>> cases;
  bool tooMany = false;
  unsigned agreed = 0;
  // Cases whose bounds pin a size variable (pinnedByBounds).
  unsigned pinnedCases = 0;
  bool split =
      splitOnConditions(lhs, cases, options.maxCases, tooMany, &agreed);
  // The cases the normalizer does not close.
  SmallVector<std::pair<Term, Term>> open;
  auto findOpen = [&] {
    open.clear();
    pinnedCases = 0;
    for (auto &[lits, caseValue] : cases) {
      Term value = caseValue;
      Term expected = foldUnder(rhs, lits);
      // A case that pins a size (n <= 1 under 1 <= n): its reductions
      // over [0, n) fold to their one element.
      if (llvm::DenseMap<Term, Term> pins =
              pinnedByBounds(T, T.andOf(pc, lits));
          !pins.empty()) {
        value = T.substitute(value, pins);
        expected = T.substitute(expected, pins);
        ++pinnedCases;
      }
      if (N.provesEqual(value, expected))
        continue;
      // A case whose reductions tile the spec's (a loop unrolled by 4 and
      // its remainder loop).
      if (Term t = tileReductions(name, T.andOf(pc, lits), value, expected);
          t != value && N.provesEqual(t, expected))
        continue;
      open.push_back({lits, value});
    }
  };
  findOpen();
  if (split && agreed && !open.empty()) {
    // Arms that agree are interchangeable only in a chain of formal
    // identities: a case left to Z3 must be the value of its own path.
    cases.clear();
    agreed = 0;
    split = splitOnConditions(lhs, cases, options.maxCases, tooMany, nullptr);
    findOpen();
  }
  if (split) {
    std::string how =
        (Twine(cases.size()) + " case" + (cases.size() == 1 ? "" : "s") +
         " over the branch conditions of merged states" +
         (agreed ? " (" + Twine(agreed) + " conditions under which both " +
                       "values agree)"
                 : Twine()))
            .str();
    bool solver = false;
    for (auto &[lits, value] : open) {
      // The spec folded under the case's literals, as the case's value is
      // (the same reductions meet as the same atoms).
      Term caseRhs = foldUnder(rhs, lits);
      if (llvm::DenseMap<Term, Term> pins =
              pinnedByBounds(T, T.andOf(pc, lits));
          !pins.empty())
        caseRhs = T.substitute(rhs, pins);
      ValueOutcome o = solveValue(name, T.andOf(pc, lits), value, caseRhs, lhs,
                                  loc, index, buffer);
      if (o.kind == VerdictKind::Proved) {
        solver = true;
        continue;
      }
      if (getenv("KPROOF_DUMP_TERMS"))
        llvm::errs() << "; open case " << lits->toBriefString(1500)
                     << "\n;   kernel: " << value->toBriefString(1500)
                     << "\n;   spec:   " << caseRhs->toBriefString(1500)
                     << "\n";
      record(name, o.kind, o.how + " (in one of " + how + ")");
      return;
    }
    how = (solver ? "normalizer and z3 (unsat), " : "normalizer, ") + how;
    record(name, VerdictKind::Proved, how);
    if (certificates && pinnedCases)
      verdict.warnings.push_back(
          "certificate of '" + name + "' not written: " +
          Twine(pinnedCases).str() +
          " of its cases pin a size by its bounds and fold reductions "
          "over it, which a certificate cannot state yet");
    else if (certificates)
      certifyCases(name, pc, negatedGoal, lhs, rhs, cases, open);
    return;
  }
  if (tooMany && containsExp(lhs)) {
    // Z3 does not prove these within any useful time (exp is
    // uninterpreted; its rules are instantiated per case).
    record(name, VerdictKind::Unknown,
           "the value depends on more than " + Twine(options.maxCases).str() +
               " cases of merged branch conditions, and on exp");
    return;
  }
  ValueOutcome o = solveValue(name, pc, lhs, rhs, lhs, loc, index, buffer);
  if (o.kind == VerdictKind::Proved)
    proved(name, negatedGoal, o.how);
  else
    record(name, o.kind, o.how);
}

bool Checker::splitOnConditions(Term value,
                                SmallVectorImpl<std::pair<Term, Term>> &cases,
                                unsigned limit, bool &tooMany,
                                unsigned *agreed) {
  tooMany = false;
  agreements.clear();
  splitSteps.clear();
  // The condition of an ite nearest the root (breadth first).
  // A condition inside a reduction's body that mentions its bound
  // variable ("$r<level>", TermContext::reduce) differs per element: it is
  // not one boolean of the whole value, so it is never split on.
  auto mentionsBoundVariable = [](Term c) {
    for (Term s : subterms({c}))
      if (s->getKind() == Kind::BVVar && s->getName().starts_with("$r"))
        return true;
    return false;
  };
  auto firstCondition = [&](Term t) -> Term {
    llvm::DenseSet<Term> seen{t};
    std::deque<Term> queue{t};
    while (!queue.empty()) {
      Term u = queue.front();
      queue.pop_front();
      if (u->getKind() == Kind::Ite && !mentionsBoundVariable(u->getOperand(0)))
        return u->getOperand(0);
      for (Term o : u->getOperands())
        if (seen.insert(o).second)
          queue.push_back(o);
    }
    return nullptr;
  };
  if (!firstCondition(value))
    return false;
  SmallVector<std::pair<Term, Term>> work{{T.boolConst(true), value}};
  while (!work.empty()) {
    auto [lits, t] = work.pop_back_val();
    Term c = firstCondition(t);
    if (!c) {
      cases.push_back({lits, t});
    } else {
      Term arm[2] = {assuming(t, c, false), assuming(t, c, true)};
      splitSteps.push_back({t, c});
      if (agreed && N.provesEqual(arm[0], arm[1])) {
        ++*agreed;
        agreements.push_back({arm[0], arm[1]});
        // The condition does not matter: both arms are one rational
        // function (the online softmax's d * exp(m) whether or not the
        // running max moved), so either stands for `t`.
        work.push_back({lits, arm[1]});
      } else {
        work.push_back({T.andOf(lits, c), arm[1]});
        work.push_back({T.andOf(lits, T.notOf(c)), arm[0]});
      }
    }
    if (cases.size() + work.size() > limit) {
      tooMany = true;
      cases.clear();
      return false;
    }
  }
  return true;
}

Term Checker::foldUnder(Term t, Term lits) {
  llvm::DenseMap<Term, bool> known;
  SmallVector<Term> conj;
  if (lits->getKind() == Kind::And)
    conj.append(lits->getOperands().begin(), lits->getOperands().end());
  else
    conj.push_back(lits);
  for (Term l : conj) {
    if (l->getKind() == Kind::Not)
      known[l->getOperand(0)] = false;
    else
      known[l] = true;
  }
  auto truth = [&](Term c) -> std::optional<bool> {
    auto it = known.find(c);
    if (it == known.end())
      return std::nullopt;
    return it->second;
  };
  // Whether a <= b follows from one literal.
  auto atMost = [&](Term a, Term b) {
    return truth(T.realLt(a, b)) == std::optional<bool>(true) ||
           truth(T.realLe(a, b)) == std::optional<bool>(true) ||
           truth(T.realLt(b, a)) == std::optional<bool>(false) ||
           truth(T.realLe(b, a)) == std::optional<bool>(false);
  };
  llvm::DenseMap<Term, Term> memo;
  std::function<Term(Term)> fold = [&](Term u) -> Term {
    auto it = memo.find(u);
    if (it != memo.end())
      return it->second;
    SmallVector<Term, 4> ops;
    bool changed = false;
    for (Term o : u->getOperands()) {
      ops.push_back(fold(o));
      changed |= ops.back() != o;
    }
    Term r = changed ? T.rebuild(u, ops) : u;
    if (r && (r->getKind() == Kind::Max || r->getKind() == Kind::Min)) {
      Term a = r->getOperand(0), b = r->getOperand(1);
      bool isMax = r->getKind() == Kind::Max;
      if (atMost(a, b))
        r = isMax ? b : a;
      else if (atMost(b, a))
        r = isMax ? a : b;
    } else if (r && r->getKind() == Kind::Ite) {
      if (std::optional<bool> c = truth(r->getOperand(0)))
        r = *c ? r->getOperand(1) : r->getOperand(2);
    }
    memo[u] = r ? r : u;
    return memo[u];
  };
  return fold(t);
}

void Checker::certifyCases(const std::string &name, Term pc, Term negatedGoal,
                           Term lhs, Term rhs,
                           ArrayRef<std::pair<Term, Term>> cases,
                           ArrayRef<std::pair<Term, Term>> solved) {
  // One certificate per case (the value of one path, as without merging),
  // one per pair of arms that agreed, and one that they imply the goal:
  // under a case's literals the merged value is the case's value (ite
  // evaluation), the spec its folded form, and arms that agree are equal.
  SmallVector<Term> hypotheses{negatedGoal};
  auto write = [&](const std::string &what, Term goal, StringRef how) {
    if (!certificates->write(name + " " + what, goal, how))
      verdict.warnings.push_back("certificate of '" + name + " " + what +
                                 "' not written: " + certificates->getError());
  };
  for (auto [k, c] : llvm::enumerate(cases)) {
    auto &[lits, value] = c;
    Term spec = foldUnder(rhs, lits);
    Term casePc = T.andOf(pc, lits);
    bool bySolver = llvm::is_contained(solved, c);
    write("case " + std::to_string(k + 1),
          T.andOf(casePc, T.notOf(T.eq(value, spec))),
          bySolver ? "z3 (unsat)" : "normalizer");
    hypotheses.push_back(T.orOf(T.notOf(casePc), T.eq(value, spec)));
  }
  // Each split, as the checker applied it: where c holds, t is t with c
  // true, else t with c false (ground instances of ite evaluation; the
  // exponentials are uninterpreted constants in a certificate, so the
  // solver could not see through exp(f(ite(c, a, b))) itself).
  for (auto &[t, c] : splitSteps)
    for (bool b : {true, false})
      hypotheses.push_back(
          T.orOf(b ? T.notOf(c) : c, T.eq(t, assuming(t, c, b))));
  for (auto [k, a] : llvm::enumerate(agreements)) {
    write("arms agree " + std::to_string(k + 1),
          T.notOf(T.eq(a.first, a.second)), "normalizer");
    hypotheses.push_back(T.eq(a.first, a.second));
  }
  write("by cases", T.andOf(hypotheses), "cases");
}

bool Checker::containsExp(Term t) {
  llvm::DenseSet<Term> seen{t};
  SmallVector<Term> work{t};
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (u->getKind() == Kind::Exp || u->getKind() == Kind::Exp2)
      return true;
    for (Term o : u->getOperands())
      if (seen.insert(o).second)
        work.push_back(o);
  }
  return false;
}

Checker::ValueOutcome Checker::solveValue(const std::string &name, Term pc,
                                          Term lhs, Term rhs, Term kernelValue,
                                          Location loc, Term index,
                                          StringRef buffer) {
  // Residue to Z3: normalized forms (exp of sums split into products).
  Term nl = N.toTerm(N.normalize(lhs)), nr = N.toTerm(N.normalize(rhs));
  Query q{T, options, &tableRanges, {pc, T.notOf(T.eq(nl, nr))}};
  q.addBranchFacts();
  SmallVector<Term> vars = q.inputVars();
  SmallVector<Term> blocked;
  // Distinct exp atoms of the goal: with many of them, nonlinear real
  // arithmetic over small-integer models can take Z3 far longer than the
  // unrestricted goal (a 16-atom attention tile: minutes against 0.4 s),
  // so the small model is sought only after the goal is shown sat.
  unsigned expAtoms = 0;
  for (Term u : subterms({nl, nr}))
    expAtoms += u->getKind() == Kind::Exp || u->getKind() == Kind::Exp2;
  bool smallFirst = expAtoms <= 12;
  // Every input variable in {-2, ..., 2}: a model that reads well.
  auto addSmallInputs = [&](SmallVector<Term> &constraints) {
    for (Term v : vars) {
      SmallVector<Term> choices;
      for (int k = -2; k <= 2; ++k)
        choices.push_back(T.eq(v, T.real(k)));
      constraints.push_back(T.orOf(choices));
    }
  };
  // A model was blocked that is not shown to be no counterexample.
  bool setAside = false;
  for (unsigned attempt = 0; attempt < options.maxModels; ++attempt) {
    // Shrinking: first look for a model over small integers.
    SmallVector<Term> extra(blocked.begin(), blocked.end());
    bool shrinking = smallFirst && attempt == 0 && vars.size() <= 16;
    if (shrinking)
      addSmallInputs(extra);
    Query::Outcome out = q.check(extra);
    if (out.result == smt::CheckResult::Unsat && shrinking)
      continue; // no small model; search the whole space
    if (out.result == smt::CheckResult::Unsat && setAside)
      return {VerdictKind::Unknown,
              "no counterexample confirmed with the true functions (a model was set "
              "aside whose kernel and spec values the true functions did not "
              "show equal; the rest of the space is unsat)"};
    if (out.result == smt::CheckResult::Unsat)
      return {VerdictKind::Proved, "z3 (unsat)"};
    if (out.result != smt::CheckResult::Sat || !out.model) {
      if (shrinking)
        continue;
      return {VerdictKind::Unknown, "solver: " + out.reason};
    }
    // Many exp atoms: the goal is sat; now a small model, if there is one.
    if (!smallFirst && attempt == 0 && vars.size() <= 16) {
      SmallVector<Term> small(extra.begin(), extra.end());
      addSmallInputs(small);
      Query::Outcome smallOut = q.check(small);
      if (smallOut.result == smt::CheckResult::Sat && smallOut.model)
        out = std::move(smallOut);
    }
    // Confirm with the true functions before calling it a counterexample:
    // the kernel's value itself (all its branches), at the model.
    if (confirmValue(name, pc, kernelValue, rhs, *out.model, loc, index,
                     buffer))
      return {VerdictKind::Refuted, "counterexample confirmed"};
    // Not confirmed: block this model and search again. Blocking is sound
    // for a later unsat only when the model is no counterexample: the
    // kernel and the spec are equal at its inputs (the normalizer proves
    // it with the inputs substituted), or its path condition is false.
    // Otherwise (the true values only "may be equal" at MPFR's precision,
    // or the model names elements at symbolic indices) a later unsat is
    // UNKNOWN, not PROVED.
    {
      llvm::DenseMap<Term, Term> at;
      for (Term v : vars)
        if (auto it = out.model->reals.find(v->getName().str());
            it != out.model->reals.end())
          at[v] = T.real(it->second);
      Term k = T.substitute(kernelValue, at), r = T.substitute(rhs, at);
      Term p = T.substitute(pc, at);
      bool closed = (p->getKind() == Kind::BoolConst && !p->getBoolValue()) ||
                    (k && r && N.provesEqual(k, r));
      if (!closed)
        setAside = true;
    }
    SmallVector<Term> diff;
    for (Term v : vars) {
      auto it = out.model->reals.find(v->getName().str());
      if (it != out.model->reals.end())
        diff.push_back(T.notOf(T.eq(v, T.real(it->second))));
    }
    if (diff.empty())
      break;
    blocked.push_back(T.orOf(diff));
  }
  return {VerdictKind::Unknown,
          "no counterexample confirmed with the true functions"};
}

bool Checker::confirmValue(const std::string &name, Term pc, Term kernelValue,
                           Term rhs, const Assignment &model, Location loc,
                           Term index, StringRef buffer) {
  // A shared read that no modeled write matches is an arbitrary value
  // ("@uninit", SharedMemoryModel::resolveSharedRead; its own obligation says
  // whether that can happen). A difference that depends on that value is
  // the modeling gap, not a counterexample: the kernel's value must be the
  // same with every such value moved.
  llvm::DenseMap<Term, Term> moved;
  for (Term t : subterms({kernelValue})) {
    if ((t->getKind() != Kind::RealVar && t->getKind() != Kind::BVVar) ||
        !t->getName().contains("@uninit#"))
      continue;
    moved[t] = t->getSort() == Sort::Real
                   ? T.add(t, T.real(1))
                   : T.bvBin(Kind::BVXor, t, T.bv(1, t->getWidth()));
  }
  Term kernelMoved = moved.empty() ? nullptr : T.substitute(kernelValue, moved);
  auto refutes = [&](const Assignment &a) {
    std::string err;
    std::optional<bool> differ =
        definitelyDiffer(kernelValue, rhs, a, options.mpfrBits, &err);
    if (!differ || !*differ ||
        Evaluator(a, options.mpfrBits).boolean(pc) != Truth::True)
      return false;
    if (!kernelMoved)
      return true;
    std::optional<bool> depends =
        definitelyDiffer(kernelValue, kernelMoved, a, options.mpfrBits);
    return depends && !*depends;
  };
  if (!refutes(model))
    return false;
  // Shrinking: every real input that can be 0 (else +-1) while the
  // difference stays confirmed is set so, one at a time, in name order: the
  // counterexample shows the inputs that matter. Bounded (inputs times
  // terms), since each try evaluates the kernel's value once.
  Assignment m = model;
  size_t termCount = subterms({kernelValue, rhs, pc}).size();
  {
    SmallVector<Rational *> values;
    for (auto &[name, v] : m.reals)
      if (name.find('#') == std::string::npos)
        values.push_back(&v);
    for (auto &[buffer, elements] : m.elements)
      for (auto &[i, v] : elements)
        values.push_back(&v);
    if (values.size() * termCount <= 2'000'000)
      for (Rational *v : values) {
        Rational old = *v;
        if (old == Rational(0))
          continue;
        int unit = old < Rational(0) ? -1 : 1;
        for (int target : {0, unit}) {
          if (old == Rational(target))
            continue;
          *v = Rational(target);
          if (refutes(m))
            break;
          *v = old;
        }
      }
  }
  // Elements equal to their buffer's default are the default ("x[others]").
  for (auto &[buffer, elements] : m.elements) {
    auto d = m.elementDefaults.find(buffer);
    if (d != m.elementDefaults.end())
      for (auto it = elements.begin(); it != elements.end();)
        it = it->second == d->second ? elements.erase(it) : std::next(it);
  }
  Evaluator ev(m, options.mpfrBits);
  Counterexample c;
  c.property = "value mismatch at " + name.substr(name.find(' ') + 1);
  if (index)
    if (std::optional<APInt> i = ev.bv(index)) {
      c.property = "value mismatch at " + buffer.str() + "[" +
                   std::to_string(i->getZExtValue()) + "]";
      c.outputBuffer = buffer.str();
      c.outputIndex = i->getZExtValue();
    }
  c.inputs = m;
  if (kernelValue->getSort() == Sort::BV) {
    // Integer outputs: the exact values, signed decimal.
    auto text = [&](Term t) -> std::string {
      std::optional<APInt> v = ev.bv(t);
      return v ? llvm::toString(*v, 10, /*Signed=*/true) : "?";
    };
    c.kernelValue = text(kernelValue);
    c.specValue = text(rhs);
  } else {
    std::optional<Interval> kv = ev.real(kernelValue);
    std::optional<Interval> sv = ev.real(rhs);
    c.kernelValue = kv ? kv->toString(12) : "?";
    c.specValue = sv ? sv->toString(12) : "?";
  }
  // A store of merged states: the side the counterexample takes.
  Location at = resolveMerged(loc, ev);
  c.location = locString(at);
  refutedAt(at, c);
  return true;
}

bool Checker::probeValue(const std::string &name, Term pc, Term lhs, Term rhs,
                         Location loc, Term index, StringRef buffer) {
  if (!options.probes || !probed.insert({pc, lhs, rhs}).second)
    return false;
  // The seed is the obligation's name (FNV-1a): the same draws on every
  // run, different draws for different elements. File names in it count
  // without their directories, so a checkout elsewhere (or a relative
  // path) draws the same inputs.
  std::string key;
  size_t segment = 0;
  for (char ch : name) {
    if (ch == '/') {
      key.resize(segment);
      continue;
    }
    key.push_back(ch);
    if (ch == ' ' || ch == '(')
      segment = key.size();
  }
  uint64_t seed = 0xcbf29ce484222325ull;
  for (char ch : key)
    seed = (seed ^ uint8_t(ch)) * 0x100000001b3ull;
  InputSampler sampler(T, seed);
  for (auto &[table, facts] : tableRanges)
    if (facts.range)
      sampler.setIntRange(table, facts.range->first, facts.range->second);
  Term roots[] = {lhs, rhs};
  // A draw must meet the contract's table preconditions (those the
  // sampler cannot draw by construction: `at_most`), like the path.
  SmallVector<Term> facts{pc};
  Query{T, options, &tableRanges, {}}.addRangeFacts(facts, {pc, lhs, rhs});
  pc = T.andOf(facts);
  for (unsigned k = 0; k < options.probes; ++k) {
    Assignment m = sampler.draw(roots, {pc}, k);
    if (confirmValue(name, pc, lhs, rhs, m, loc, index, buffer)) {
      record(name, VerdictKind::Refuted,
             "counterexample confirmed (random input " + std::to_string(k + 1) +
                 " of " + std::to_string(options.probes) + ")");
      return true;
    }
  }
  return false;
}

void Checker::checkSpecDefined(const std::string &name, Term pc, Term spec) {
  llvm::DenseSet<Term> seen;
  SmallVector<Term> work{spec};
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!seen.insert(t).second)
      continue;
    for (Term o : t->getOperands())
      work.push_back(o);
    if (t->getKind() != Kind::Div)
      continue;
    Term den = t->getOperand(1);
    if (!checkedSpecDivisors.insert(den).second || N.provesNonZero(den))
      continue;
    Query q{T, options, &tableRanges, {pc, T.eq(den, T.real(0))}};
    q.addBranchFacts();
    Query::Outcome out = q.check();
    if (out.result == smt::CheckResult::Unsat) {
      proved("spec defined (" + name + ")",
             T.andOf(pc, T.eq(den, T.real(0))), "z3 (unsat)");
      continue;
    }
    record("spec defined (" + name + ")", VerdictKind::Unknown,
           "the spec may divide by zero: " + den->toString());
  }
}

void Checker::checkNever(
    const std::string &name, Term pc, Term bad, Location loc, Term witnessA,
    Term witnessB, std::optional<std::pair<std::string, uint64_t>> element) {
  Term cond = T.andOf(pc, bad);
  if (cond->getKind() == Kind::BoolConst && !cond->getBoolValue()) {
    proved(name, cond, "normalizer");
    return;
  }
  Query q{T, options, &tableRanges, {cond}};
  q.addBranchFacts();
  Query::Outcome out = q.check();
  if (out.result == smt::CheckResult::Unsat) {
    proved(name, cond, "z3 (unsat)");
    return;
  }
  if (out.result == smt::CheckResult::Sat && out.model) {
    Evaluator ev(*out.model, options.mpfrBits);
    if (ev.boolean(cond) == Truth::True) {
      Counterexample c;
      c.property = "violated: " + name;
      if (element) {
        c.outputBuffer = element->first;
        c.outputIndex = element->second;
      }
      c.inputs = *out.model;
      c.location = locString(loc);
      if (witnessA) {
        std::optional<Interval> a = ev.real(witnessA);
        c.kernelValue = a ? a->toString(12) : "?";
      }
      refutedAt(loc, c);
      record(name, VerdictKind::Refuted, "counterexample confirmed");
      return;
    }
    record(name, VerdictKind::Unknown,
           "solver model not confirmed with the true functions" +
               (ev.getError().empty() ? std::string()
                                      : " (" + ev.getError() + ")"));
    return;
  }
  record(name, VerdictKind::Unknown, "solver: " + out.reason);
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
        both.push_back(T.eq(ia, ib));
        clash.push_back(T.andOf(both));
      }
    Term cond = T.andOf(pc, T.orOf(clash));
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
  for (auto [k, st] : llvm::enumerate(finals)) {
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
    // A family's value is checked at an arbitrary iteration k that
    // stores (its guard).
    Term spc = st->isFamily() ? T.andOf(pc, T.substitute(st->guard, pins))
                              : pc;
    checkSpecDefined(out.name + "[i]", spc, specValue);
    Term kernelValue = T.substitute(st->value, pins);
    specValue = T.substitute(specValue, pins);
    Term index = T.substitute(st->index, pins);
    specValue = splitDivisions(spc, specValue);
    bool closed = N.provesEqual(kernelValue, specValue);
    if (!closed && probeValue(name, spc, kernelValue, specValue, st->loc,
                              index, out.name)) {
      noteRefuted();
      continue;
    }
    if (!closed &&
        checkByLane(name, spc, kernelValue, specValue, st->loc, index,
                    out.name)) {
      noteRefuted();
      continue;
    }
    checkValue(name, spc, kernelValue, specValue, st->loc, index, out.name);
    noteRefuted();
  }
  } // each spec
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
    lanes.push_back({l, r, T.substitute(index, sigma), sigma[tid]});
    // A lane whose path condition folds to false does not store here.
    Term pcLane = T.substitute(pc, sigma);
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


void Checker::checkCoverage(const ExecutionResult &ex,
                            const BufferBinding &out,
                            const LaunchConfig &launch) {
  std::string name = "coverage: every element of '" + out.name +
                     "' is written";
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
  Term e = T.bvVar("e", 64);
  llvm::DenseMap<Term, Term> w;
  std::string witness;
  for (const PathResult &p : ex.paths) {
    // The stores of one path: one linear form over the thread variables,
    // offset by constants c_0 < ... < c_{K-1} (one per store site or
    // unrolled iteration). When the constants step evenly by s, the
    // layout is the linear form plus s * k over a store counter k in
    // [0, K), which joins the mixed-radix system as a variable of its own.
    std::map<std::string, int64_t> coeffs;
    std::set<int64_t> constants;
    bool linear = true, any = false;
    for (const SymbolicStore &st : p.symbolicStores) {
      if (st.buffer != out.name)
        continue;
      if (st.isFamily()) {
        // Its index has the iteration k in it: the witnesses below.
        linear = false;
        any = true;
        break;
      }
      std::map<std::string, int64_t> c;
      int64_t constant = 0;
      if (!readLinearForm(T.canonicalIndex(st.index), 1, c, constant,
                          /*splitIds=*/true)) {
        linear = false;
        break;
      }
      for (auto it = c.begin(); it != c.end();)
        it = it->second == 0 ? c.erase(it) : std::next(it);
      if (any && c != coeffs) {
        linear = false;
        break;
      }
      coeffs = c;
      constants.insert(constant);
      any = true;
    }
    if (!any)
      continue;
    if (!linear)
      break;
    int64_t constant = *constants.begin();
    int64_t step = constants.size() > 1 ? *std::next(constants.begin()) -
                                              constant
                                        : 0;
    for (auto [k, c] : llvm::enumerate(constants))
      if (c != constant + int64_t(k) * step) {
        linear = false;
        break;
      }
    if (!linear)
      break;
    // The store counter's pseudo-variable; never substituted (the writes
    // below disjoin over every store).
    const char *kCounter = "store.k";
    SmallVector<std::pair<int64_t, std::string>> order;
    for (auto &[var, c] : coeffs)
      order.push_back({c, var});
    if (constants.size() > 1)
      order.push_back({step, kCounter});
    llvm::sort(order);
    auto rangeOf = [&](StringRef var) -> std::optional<int64_t> {
      if (var == kCounter)
        return int64_t(constants.size());
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
      mixedRadix &= c == expected;
      std::optional<int64_t> r = rangeOf(var);
      if (k + 1 < order.size() && !r)
        mixedRadix = false;
      if (k + 1 < order.size() && r && c > 0 && var != kCounter) {
        int64_t next = order[k + 1].first;
        if (next % c == 0 && next / c < *r && next / c > 0) {
          narrowed[var] = next / c;
          r = next / c;
        }
      }
      expected *= r.value_or(1);
    }
    if (!mixedRadix)
      break;
    Term base = T.bvBin(Kind::BVSub, e, T.bv(APInt(64, constant, true)));
    // Lane and warp parts recombine: v = (v/2^j) * 2^j + v%2^j.
    std::map<std::string, std::pair<Term, Term>> parts;
    std::map<std::string, uint64_t> radix;
    for (auto &[c, var] : order) {
      std::optional<int64_t> r = rangeOf(var);
      if (narrowed.count(var))
        r = narrowed[var];
      witness += (witness.empty() ? "" : ", ") + var + " = (e - " +
                 std::to_string(constant) + ") / " + std::to_string(c) +
                 " % " +
                 (r ? std::to_string(*r) : range(var)->toString());
      if (var == kCounter)
        continue;
      Term v = T.bvBin(Kind::BVURem, T.bvBin(Kind::BVUDiv, base, T.bv(c, 64)),
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
      Term hi = hl.first ? T.bvBin(Kind::BVMul, hl.first,
                                   T.bv(radix[var], 64))
                         : T.bv(0, 64);
      Term lo = hl.second ? hl.second : T.bv(0, 64);
      w[key] = T.bvExtract(T.bvBin(Kind::BVAdd, hi, lo), 0, 32);
    }
    if (!mixedRadix) {
      w.clear();
      witness.clear();
    }
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
      for (const SymbolicStore &st : p.symbolicStores) {
        if (st.buffer != out.name)
          continue;
        if (!st.isFamily()) {
          writes.push_back(T.substitute(
              T.andOf(p.pathCondition, T.eq(st.index, e)), sigma));
          continue;
        }
        // A family writes e at iteration k_w = (e - index(0)) / step when
        // its index steps by a positive constant over the iterations (and
        // k_w is an iteration that stores: its guard). Any other family
        // is left out, which only makes coverage harder to prove.
        auto at = [&](Term k) {
          llvm::DenseMap<Term, Term> m = sigma;
          m[st.iteration] = k;
          return m;
        };
        Term i0 = T.canonicalIndex(T.substitute(st.index, at(T.bv(0, 64))));
        Term i1 = T.canonicalIndex(T.substitute(st.index, at(T.bv(1, 64))));
        Term step = T.canonicalIndex(T.bvBin(Kind::BVSub, i1, i0));
        if (step->getKind() != Kind::BVConst) {
          // The step the index takes where nothing wraps (a byte offset
          // 4 * (s + k) divided by 4 does not cancel as bit-vectors): the
          // difference at small values of the other variables. Only the
          // choice of k_w rests on it; the solver checks what it gives.
          Assignment small;
          for (Term u : subterms({i0, i1}))
            if (u->getKind() == Kind::BVVar)
              small.bitvectors[u->getName().str()] =
                  APInt(u->getWidth(), 1);
          Evaluator ev(small);
          std::optional<APInt> v0 = ev.bv(i0), v1 = ev.bv(i1);
          if (!v0 || !v1)
            continue;
          step = T.bv(*v1 - *v0);
        }
        if (!step->getAPInt().isStrictlyPositive())
          continue;
        Term kw = T.bvBin(Kind::BVUDiv, T.bvBin(Kind::BVSub, e, i0), step);
        llvm::DenseMap<Term, Term> mw = at(kw);
        writes.push_back(T.andOf({T.substitute(p.pathCondition, sigma),
                                  T.substitute(st.guard, mw),
                                  T.eq(T.substitute(st.index, mw), e)}));
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
  Term missed = missedUnder(w, launchedThread(w));
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
  // Elements the witnesses miss, from their models: candidates for an
  // element no thread writes.
  SmallVector<Assignment, 2> candidates;
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
  record(name, VerdictKind::Unknown,
         "the witness thread (" + witness + ") does not write every element" +
             detail);
}

//===----------------------------------------------------------------------===//
// Synchronization (DESIGN.md §4): races, barrier divergence, resolution of
// shared reads to their writers
//===----------------------------------------------------------------------===//

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
  Term first(Term t) { return rename(t, a, "t1."); }
  Term second(Term t) { return rename(t, b, "t2."); }
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
  /// DESIGN.md §4) of a block of `block` threads per dimension.
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
  // Some path passes counted barriers of two ids: accesses of two threads
  // may be ordered through it (t1 -> barrier 1 -> t3 -> barrier 2 -> t2).
  bool bridged = llvm::any_of(ex.arrivals, [](const BarrierArrival &a) {
    return !a.barrier && a.clock.size() > 1;
  });
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
                     << m.byteOffset->toBriefString(400) << "\n";
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
  // The race condition of accesses x (thread t1) and y (thread t2): both
  // run, the threads differ (same CTA or two CTAs), their bytes overlap,
  // and no counted barrier orders them.
  auto raceCondition = [&](ThreadPair &p, const MemoryAccess &x,
                           const MemoryAccess &y, bool sameCta, Term &o1) {
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
      cond = T.andOf({cond,
                      T.notOf(orderedByCountedBarriers(T, x.clock, y.clock,
                                                       participates(true))),
                      T.notOf(orderedByCountedBarriers(
                          T, y.clock, x.clock, participates(false)))});
    }
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
    if (sameCta && x.phase != y.phase)
      return false;
    // Two atomics are morally strong when their scope includes both
    // threads: any scope within a CTA, not .cta across CTAs.
    return !(x.atomic && y.atomic &&
             (sameCta || (x.scope != "cta" && y.scope != "cta")));
  };
  // Most pairs are race-free: asked together first (provedTogether).
  std::set<std::tuple<size_t, size_t, bool>> raceFreeTogether;
  {
    SmallVector<Term> conds;
    SmallVector<std::tuple<size_t, size_t, bool>> keys;
    for (size_t i = 0; i < ex.accesses.size(); ++i)
      for (size_t j = i; j < ex.accesses.size(); ++j)
        for (bool sameCta : {true, false}) {
          const MemoryAccess &x = ex.accesses[i], &y = ex.accesses[j];
          if (!mayRace(x, y, sameCta))
            continue;
          ThreadPair p(T, ex, launch);
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
  for (size_t i = 0; i < ex.accesses.size(); ++i)
    for (size_t j = i; j < ex.accesses.size(); ++j) {
      const MemoryAccess &x = ex.accesses[i], &y = ex.accesses[j];
      if (x.region != y.region || (!x.write && !y.write))
        continue;
      for (bool sameCta : {true, false}) {
        if (!sameCta && (x.shared || !manyCtas))
          continue;
        if (sameCta && x.phase != y.phase)
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
        ThreadPair p(T, ex, launch);
        Term o1;
        Term cond = raceCondition(p, x, y, sameCta, o1);
        std::string what = std::string(x.shared ? "shared" : "global") +
                           " '" + displayVariable(x.region) + "'";
        std::string name =
            "race-free: " + what + (sameCta ? ", one CTA, phase " +
                                                  std::to_string(x.phase)
                                            : std::string(", two CTAs")) +
            ": " + (x.write ? "write" : "read") + " at " + locString(x.loc) +
            " / " + (y.write ? "write" : "read") + " at " + locString(y.loc);
        if (cond->getKind() == Kind::BoolConst && !cond->getBoolValue()) {
          proved(name, cond, "normalizer");
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
        if (sameCta && bridged && (!x.clock.empty() || !y.clock.empty())) {
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
          Query same{T, options, &tableRanges, {cond, T.notOf(T.eq(v1, v2))}};
          Query::Outcome differ = same.check();
          equalValues = differ.result == smt::CheckResult::Unsat;
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
        bool loopCarried = repeated.count(x.op) && repeated.count(y.op) &&
                           x.occurrence != y.occurrence;
        Counterexample c;
        auto verb = [](const MemoryAccess &m) {
          return m.atomic ? "updates atomically (scope ." + m.scope + ")"
                          : std::string(m.write ? "writes" : "reads");
        };
        c.property =
            std::string(loopCarried ? "loop-carried " : "") + "data race on " +
            what + " (" + where + "): thread " + t1 + " " + verb(x) + " at " +
            locString(x.loc) + ", thread " + t2 + " " + verb(y) + " at " +
            locString(y.loc) +
            (!sameCta ? " (two CTAs: no barrier orders them)"
             : x.clock.empty() && y.clock.empty()
                 ? " in the same barrier phase"
                 : " in the same barrier phase, not ordered by a "
                   "counted barrier") +
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

  checkCountedBarriers(ex, launch);

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
          !r.condition->getBoolValue())) {
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

void Checker::checkCountedBarriers(const ExecutionResult &ex,
                                   const LaunchConfig &launch) {
  if (ex.countedArrivals.empty())
    return;
  std::map<unsigned, std::vector<const CountedArrival *>> byId;
  for (const CountedArrival &a : ex.countedArrivals)
    byId[a.id].push_back(&a);
  auto refuteAt = [&](const std::string &name, Location loc,
                      const std::string &property, Assignment model) {
    Counterexample c;
    c.property = property;
    c.inputs = std::move(model);
    c.location = locString(loc);
    refutedAt(loc, c);
    record(name, VerdictKind::Refuted, property);
  };
  auto clockOf = [](const BarrierArrival &a, unsigned id) {
    for (const BarrierClock &c : a.clock)
      if (c.id == id)
        return c;
    return BarrierClock{id, 0, 0};
  };

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
      refuteAt(countName, other->loc,
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
      refuteAt(countName, first->loc,
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
        refuteAt(sameName, y->loc,
                 "barrier divergence: thread " + p.describe(*out.model, "t1") +
                     " arrives at the .aligned " + bar + " at " +
                     locString(x->loc) + ", thread " +
                     p.describe(*out.model, "t2") + " of the same warp at " +
                     locString(y->loc) +
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
        BarrierClock cx = clockOf(x, id), cy = clockOf(y, id);
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
        refuteAt(equalName, first->loc,
                 "unequal arrival counts: thread " +
                     p.describe(*out.model, "t1") + " arrives at " + bar + " " +
                     times(cx.arrivals) + ", thread " +
                     p.describe(*out.model, "t2") + " of the same CTA " +
                     times(cy.arrivals) +
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
    Term part = participation(T, ex, id);
    uint64_t bx = launch.block[0], by = launch.block[1],
             cta = bx * by * launch.block[2];
    std::vector<char> takesPart(cta, 0);
    bool decided = true;
    std::string undecidedAt;
    // What is left after fixing the thread id (the CTA's range facts, the
    // data): decided with Z3 over every CTA and input, once per residue.
    SmallVector<Term> ctaFacts{launch.facts(T)};
    for (auto &[name, extent] : ex.threadVars)
      if (StringRef(name).starts_with("ctaid."))
        ctaFacts.push_back(
            T.bvUlt(T.bvVar(name, 32), launch.extentOf(T, name)));
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
    for (uint64_t lin = 0; lin < cta && decided; ++lin) {
      llvm::DenseMap<Term, Term> sub;
      uint64_t xyz[3] = {lin % bx, (lin / bx) % by, lin / (bx * by)};
      static const char *names[] = {"tid.x", "tid.y", "tid.z"};
      for (int d = 0; d < 3; ++d)
        if (launch.block[d] > 1)
          sub[T.bvVar(names[d], 32)] = T.bv(xyz[d], 32);
      Term v = T.substitute(part, sub);
      std::optional<bool> value;
      if (v->getKind() == Kind::BoolConst)
        value = v->getBoolValue();
      else
        value = constantOver(v);
      if (!value || residues.size() > 64) {
        decided = false;
        undecidedAt = std::to_string(lin);
        break;
      }
      takesPart[lin] = *value;
    }
    if (!decided) {
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
          refuteAt(partName, first->loc,
                   "barrier divergence: thread " + threadName(in) +
                       " arrives at the .aligned " + bar + " and thread " +
                       threadName(out) + " of the same warp never does",
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
      refuteAt(partName, first->loc,
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

std::optional<Verdict> Checker::run() {
  std::optional<BoundContract> bound = bindContract(
      module, contract, T,
      options.sizeValues.empty() ? nullptr : &options.sizeValues,
      options.mergeStates);
  if (!bound)
    return std::nullopt;
  KernelOp kernel = bound->kernel;
  kernelLoc = kernel.getLoc();
  verdict.kernelName = kernel.getSymName().str();
  buffers = bound->buffers;
  scalars = bound->scalars;
  for (const std::optional<BufferBinding> &b : buffers) {
    if (b && b->range)
      tableRanges[b->name].range = *b->range;
    if (b && !b->atMost.empty())
      for (auto [i, p] : llvm::enumerate(contract.getParams()))
        if (auto d = dyn_cast<DictionaryAttr>(p);
            d && d.getAs<StringAttr>("name") &&
            d.getAs<StringAttr>("name").getValue() == b->atMost &&
            i < scalars.size() && scalars[i])
          tableRanges[b->name].atMost = scalars[i];
  }
  std::vector<std::unique_ptr<Spec>> ownedSpecs = std::move(bound->specs);
  SmallVector<Spec *> specs;
  std::string described;
  for (const std::unique_ptr<Spec> &sp : ownedSpecs) {
    specs.push_back(sp.get());
    described += (described.empty() ? "" : "; ") + sp->describe();
  }
  verdict.specDescription =
      options.syncOnly ? "synchronization (races, barrier divergence, "
                         "shared-memory reads, bounds)"
                       : described;
  verdict.assumptions = bound->assumptions;
  tolerateEqualWrites = bound->tolerateEqualWrites;
  // --verify-sync covers NaN and infinite inputs too (their comparisons
  // may go either way), unless the contract restricts it to finite ones.
  bool nonFinite = options.syncOnly && !bound->finiteInputs;
  // Buffers the contract says may hold -inf, +inf or NaN entries.
  std::vector<std::string> nonFiniteBuffers;
  for (const std::optional<BufferBinding> &b : bound->buffers)
    if (b && !b->nonFinite.empty())
      nonFiniteBuffers.push_back(b->name);
  std::string except =
      nonFiniteBuffers.empty() ? ""
      : options.syncOnly
          ? ", except the non-finite entries the contract states above"
          : "; the non-finite entries the contract states above are not "
            "modeled (UNKNOWN)";
  verdict.assumptions.push_back(
      nonFinite ? "floats are exact reals; inputs may be NaN or infinite "
                  "(a comparison of such values may go either way)"
      : bound->finiteInputs && options.syncOnly
          ? "floats are exact reals; inputs are finite (no NaN or "
            "infinity; contract: finite_inputs)" +
                except
          : "floats are exact reals; inputs are finite (no NaN or "
            "infinity)" +
                except);
  // Every address is resolved to one contract buffer: distinct buffers are
  // distinct memory (a store to one never changes another).
  std::string bufferNames;
  unsigned numBuffers = 0;
  for (const std::optional<BufferBinding> &b : bound->buffers)
    if (b) {
      bufferNames += (numBuffers++ ? ", " : "") + b->name;
    }
  if (numBuffers > 1)
    verdict.assumptions.push_back("the buffers " + bufferNames +
                                  " do not overlap in memory");
  launch = bound->launch;
  if (launch.isSymbolic())
    verdict.assumptions.push_back(launch.describe());

  if (!options.certificateDir.empty())
    certificates = std::make_unique<CertificateWriter>(options.certificateDir,
                                                       T, N);
  // Thread ids stay below their launch extents on every execution: index
  // terms are read as exact linear forms within these bounds
  // (TermContext::canonicalIndex).
  static const char *dims[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    T.setUpperBound(std::string("tid.") + dims[d], launch.block[d] - 1);
    T.setUpperBound(std::string("ctaid.") + dims[d], launch.grid[d] - 1);
    T.setUpperBound(std::string("ntid.") + dims[d], launch.block[d]);
    T.setUpperBound(std::string("nctaid.") + dims[d], launch.grid[d]);
  }
  // Symbolic sizes stay in their contract range (lo >= 1 for a size a
  // shape names, so the unsigned bound is the value): every path starts
  // from lo <= n <= hi (LaunchConfig::facts).
  for (const LaunchConfig::SizeParam &p : launch.sizes)
    if (!p.value && p.lo >= 0) {
      T.setUpperBound(p.name, uint64_t(p.hi));
      T.setLowerBound(p.name, uint64_t(p.lo));
    }
  ExecutorOptions execOptions;
  execOptions.mergeStates = options.mergeStates;
  execOptions.nonFiniteInputs = nonFinite;
  if (options.syncOnly)
    execOptions.nonFiniteBuffers = nonFiniteBuffers;
  // The reals model of --verify-equiv has no values for them: its proof
  // would cover finite inputs only, fewer than the contract's.
  for (const std::string &b : nonFiniteBuffers)
    if (!options.syncOnly)
      record("inputs as the contract states them: '" + b +
                 "' may hold non-finite entries (contract: nonfinite)",
             VerdictKind::Unknown,
             "--verify-equiv models float inputs as finite exact reals; "
             "non-finite input values are not modeled there (--verify-sync "
             "covers them)");
  execOptions.memoryLimitMiB = options.memoryLimitMiB;
  ExecutionResult ex =
      execute(kernel, launch, buffers, scalars, T, N, execOptions);
  mergeGuards = &ex.mergeGuards;
  verdict.paths = ex.paths.size();
  verdict.branches = ex.forks;
  verdict.merges = ex.merges;
  multiThread = launch.totalThreads() > 1;
  for (const IdiomUse &i : ex.idioms) {
    std::string s = i.name + " at " + locString(i.loc);
    if (!llvm::is_contained(verdict.idioms, s))
      verdict.idioms.push_back(s);
  }
  bool downgradeFailure = false;
  for (auto &[what, loc] : ex.downgrades) {
    verdict.warnings.push_back("precision downgrade: " + what + " at " +
                               locString(loc));
    downgradeFailure |= options.strictPrecision;
  }
  if (!ex.unknownReason.empty()) {
    verdict.kind = VerdictKind::Unknown;
    verdict.reason = ex.unknownReason +
                     (ex.unknownLoc ? " (at " + locString(*ex.unknownLoc) + ")"
                                    : std::string());
    return verdict;
  }

  if (multiThread) {
    collectCounters(ex, launch);
    checkSync(ex, launch);
  }
  // Memory safety (alignment, bounds) before values, as Alive2 checks UB
  // before refinement: its counterexample is the one printed.
  SmallVector<Term> safe;
  // Asked together first (provedTogether), one by one where that fails.
  SmallVector<Term> violated;
  for (const PathObligation &a : ex.alignments) {
    Term pc = a.pathCondition;
    if (Term range = counterRangeFacts(T.andOf(pc, a.condition)))
      pc = T.andOf(pc, range);
    violated.push_back(T.andOf(pc, T.notOf(a.condition)));
  }
  SmallVector<Term> open;
  SmallVector<size_t> openIndex;
  for (auto [k, c] : llvm::enumerate(violated))
    if (!(c->getKind() == Kind::BoolConst && !c->getBoolValue())) {
      open.push_back(c);
      openIndex.push_back(k);
    }
  std::vector<bool> safeTogether(violated.size(), false);
  for (auto [k, done] : llvm::enumerate(provedTogether(open)))
    safeTogether[openIndex[k]] = done;
  for (auto [k, a] : llvm::enumerate(ex.alignments)) {
    std::string name = a.what + " at " + locString(a.loc);
    if (safeTogether[k])
      proved(name, violated[k], "z3 (unsat, asked together with others)");
    else
      checkNever(name, violated[k], T.boolConst(true), a.loc);
    safe.push_back(T.implies(a.pathCondition, a.condition));
  }
  // Values are compared where every access is in bounds and aligned: an
  // input that breaks one is that obligation's counterexample (above), and
  // outside a buffer neither the kernel nor the spec has a value.
  memorySafe = T.andOf(safe);
  if (!options.syncOnly && !ex.valueUnknownReason.empty())
    record("values of the outputs", VerdictKind::Unknown,
           ex.valueUnknownReason);

  // Obligations per path.
  for (const PathResult &p : ex.paths) {
    if (p.trapped) {
      checkNever("no trap (the kernel never aborts)", p.pathCondition,
                 T.boolConst(true),
                 p.trapLoc.value_or(kernel.getLoc()));
      continue;
    }
    for (auto [k, v] : llvm::enumerate(p.violations))
      checkNever("never: " + v, p.pathCondition, T.boolConst(true),
                 k < p.violationLocs.size() ? p.violationLocs[k]
                                            : kernel.getLoc());
    // Under counted barriers shared reads are not resolved: the values
    // are unknown (recorded above), and comparing them is meaningless.
    if (options.syncOnly || ex.countedBarriers)
      continue;
    if (multiThread) {
      checkThreadStores(p, specs);
      continue;
    }
    if (!p.symbolicStores.empty()) {
      record("stores at data-dependent indices", VerdictKind::Unknown,
             "a single thread storing at symbolic indices is not yet "
             "modeled");
      continue;
    }
    for (auto &[name, cells] : p.stores)
      if (!cells.empty() &&
          llvm::none_of(specs, [&, &name = name](Spec *sp) {
            return sp->output().name == name;
          }))
        record("store to '" + name + "'", VerdictKind::Unknown,
               "no spec defines '" + name +
                   "': every buffer the kernel writes needs one (a func "
                   "spec with 'outputs' defines several)");
    for (Spec *specP : specs) {
      Spec &spec = *specP;
      const BufferBinding &out = spec.output();
      auto outIt = p.stores.find(out.name);
      for (uint64_t e = 0; e < out.numElements(); ++e) {
        std::string elemName = out.name + "[" + std::to_string(e) + "]";
        const FinalStore *st = nullptr;
        if (outIt != p.stores.end()) {
          auto it = outIt->second.find(e);
          if (it != outIt->second.end())
            st = &it->second;
        }
        if (!st) {
          checkNever("coverage: " + elemName + " is written", p.pathCondition,
                     T.boolConst(true), kernel.getLoc(), nullptr, nullptr,
                     std::make_pair(out.name, e));
          continue;
        }
        std::string why;
        Term specValue = spec.element(T, T.bv(e, 64), why);
        if (!specValue) {
          record("value " + elemName, VerdictKind::Unknown,
                 "spec: " + (why.empty() ? "element not defined" : why));
          continue;
        }
        checkSpecDefined(elemName, p.pathCondition, specValue);
        checkValue("value " + elemName, T.andOf(p.pathCondition, memorySafe),
                   st->value, specValue,
                   st->loc, T.bv(e, 64), out.name);
      }
    }
  }
  if (multiThread && !options.syncOnly)
    for (Spec *sp : specs)
      checkCoverage(ex, sp->output(), launch);
  for (const DivisorObligation &d : ex.divisors) {
    if (options.syncOnly)
      break;
    std::string name = "non-zero " + d.what + " at " + locString(d.loc);
    if (N.provesNonZero(d.divisor)) {
      proved(name, T.andOf(d.pathCondition, T.eq(d.divisor, T.real(0))),
             "normalizer");
      continue;
    }
    if (getenv("KPROOF_DUMP_TERMS"))
      llvm::errs() << "; divisor " << name << "\n;   "
                   << d.divisor->toBriefString(3000) << "\n";
    // A sum of non-negative terms some of which are positive under a guard
    // (masked lanes' exp terms, ite(g, exp(..), 0)): positive when the path
    // implies that some guard holds (Z3 on the guards alone).
    if (Term someGuard = positiveUnderGuards(d.divisor)) {
      Term bad = T.andOf(d.pathCondition, T.notOf(someGuard));
      if (shortcutUnsat(bad, 3'000'000)) {
        proved(name, bad,
               "normalizer (a sum of non-negative terms) and z3 (unsat: "
               "some positive term's guard holds)");
        continue;
      }
    }
    // A divisor of merged states: non-zero in every case.
    SmallVector<std::pair<Term, Term>> cases;
    bool tooMany = false;
    unsigned agreed = 0;
    if (splitOnConditions(d.divisor, cases, options.maxCases, tooMany,
                          &agreed) &&
        llvm::all_of(cases, [&](const std::pair<Term, Term> &c) {
          return N.provesNonZero(c.second);
        })) {
      proved(name, T.andOf(d.pathCondition, T.eq(d.divisor, T.real(0))),
             "normalizer, " + Twine(cases.size()).str() +
                 " cases over the branch conditions of merged states");
      continue;
    }
    if (tooMany && containsExp(d.divisor)) {
      record(name, VerdictKind::Unknown,
             "the divisor depends on more than " +
                 Twine(options.maxCases).str() +
                 " cases of merged branch conditions, and on exp");
      continue;
    }
    checkNever(name, d.pathCondition, T.eq(d.divisor, T.real(0)), d.loc);
  }

  // The worst obligation decides.
  verdict.kind = VerdictKind::Proved;
  for (const ObligationResult &o : verdict.obligations) {
    if (o.verdict == VerdictKind::Refuted)
      verdict.kind = VerdictKind::Refuted;
    else if (o.verdict == VerdictKind::Unknown &&
             verdict.kind == VerdictKind::Proved) {
      verdict.kind = VerdictKind::Unknown;
      verdict.reason = o.name + ": " + o.how;
    }
  }
  if (downgradeFailure && verdict.kind == VerdictKind::Proved) {
    verdict.kind = VerdictKind::Refuted;
    verdict.reason = "precision downgrade under --precision=strict";
  }
  if (ex.paths.empty() && verdict.kind == VerdictKind::Proved) {
    verdict.kind = VerdictKind::Unknown;
    verdict.reason = "no path reached the end of the kernel";
  }
  return verdict;
}

} // namespace

std::optional<Verdict>
kproof::engine::checkEquivalence(ModuleOp module, ContractOp contract,
                                 const CheckerOptions &options) {
  Checker checker(module, contract, options);
  std::optional<Verdict> verdict = checker.run();
  if (!verdict || verdict->kind != VerdictKind::Unknown ||
      !options.smallSizes || !options.sizeValues.empty())
    return verdict;
  // Bounded checks at small sizes (DESIGN: counterexamples come from a
  // bounded unrolling at small n): every free size at lo, lo + 1, ...
  const LaunchConfig &launch = checker.getLaunch();
  if (launch.isSymbolic())
    return verdict;
  std::vector<const LaunchConfig::SizeParam *> free;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (const LaunchConfig::SizeParam &p : launch.sizes)
    if (!p.value) {
      free.push_back(&p);
      lo = std::max(lo, p.lo);
      hi = std::min(hi, p.hi);
    }
  if (free.empty())
    return verdict;
  std::string names, tried;
  for (const LaunchConfig::SizeParam *p : free)
    names += (names.empty() ? "" : ", ") + p->name;
  for (int64_t v = lo; v < hi && v < lo + int64_t(options.smallSizes); ++v) {
    CheckerOptions bounded = options;
    for (const LaunchConfig::SizeParam *p : free)
      bounded.sizeValues[p->name] = v;
    Checker small(module, contract, bounded);
    std::optional<Verdict> at = small.run();
    tried += (tried.empty() ? "" : ", ") + std::to_string(v);
    if (!at || at->kind != VerdictKind::Refuted)
      continue;
    // The counterexample names the sizes (the replay binds them).
    if (at->counterexample)
      for (const LaunchConfig::SizeParam *p : free)
        at->counterexample->inputs.bitvectors[p->name] =
            APInt(p->width, uint64_t(v), /*isSigned=*/true);
    at->warnings.push_back(
        "the proof over every " + names + " in the contract's range is " +
        "UNKNOWN (" + verdict->reason + "); this REFUTED is the kernel at " +
        names + " = " + std::to_string(v) +
        " (a bounded check at small sizes, --small-sizes)");
    return at;
  }
  verdict->warnings.push_back("bounded checks at " + names + " = " + tried +
                              " (--small-sizes) found no counterexample");
  return verdict;
}
