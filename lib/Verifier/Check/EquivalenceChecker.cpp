//===- EquivalenceChecker.cpp - kernel == spec, or a counterexample -------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The engine's entry point (EquivalenceChecker.h): `checkEquivalence` runs
// a `Checker` (CheckerImpl.h) on the contract and, when the verdict is
// UNKNOWN and --small-sizes asks for it, again at small sizes for a
// counterexample. `Checker::run` binds the contract, executes the kernel
// and lowers the spec, then discharges the obligations: races and barriers
// of a multi-thread launch (SyncChecks.cpp), memory safety (alignment,
// bounds), traps and violations per path, the values (a single thread's
// element by element with `checkValue`, Values.cpp; a multi-thread
// launch's per thread, and its coverage, Coverage.cpp) and the divisors.
// The worst obligation decides the verdict.
//
//===----------------------------------------------------------------------===//

#include "CheckerImpl.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::check {

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
  // The launch and the buffers' shapes, for the report.
  {
    const LaunchConfig &l = bound->launch;
    auto dims = [](const int64_t *v, const bool *symbolic) {
      std::string s = "(";
      for (int d = 0; d < 3; ++d)
        s += (d ? ", " : "") + std::string(symbolic[d] ? "<= " : "") +
             std::to_string(v[d]);
      return s + ")";
    };
    verdict.launch = "grid " + dims(l.grid, l.gridSymbolic) + " x block " +
                     dims(l.block, l.blockSymbolic);
    for (const std::optional<BufferBinding> &b : buffers) {
      if (!b)
        continue;
      Verdict::BufferShape shape;
      shape.name = b->name;
      shape.role = b->role == BufferBinding::Role::In    ? "in"
                   : b->role == BufferBinding::Role::Out ? "out"
                                                         : "inout";
      llvm::raw_string_ostream ts(shape.type);
      ts << b->elemType;
      for (size_t d = 0; d < b->shape.size(); ++d)
        shape.dims.push_back(d < b->symbolicDims.size() &&
                                     !b->symbolicDims[d].empty()
                                 ? b->symbolicDims[d]
                                 : std::to_string(b->shape[d]));
      verdict.buffers.push_back(std::move(shape));
    }
  }
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
  if (bound->specs.empty() && !options.syncOnly) {
    contract.emitError("contract @")
        << contract.getSymName()
        << " has no 'spec': --verify-equiv compares the kernel with one "
           "(--verify-sync needs none)";
    return std::nullopt;
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
  swapHint = bound->swapHint;
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
    // The two threads of a pair query (SyncChecks' ThreadPair copies),
    // both inside the launch in every such query.
    for (const char *copy : {"t1.", "t2."}) {
      T.setUpperBound(std::string(copy) + "tid." + dims[d],
                      launch.block[d] - 1);
      T.setUpperBound(std::string(copy) + "ctaid." + dims[d],
                      launch.grid[d] - 1);
    }
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
  // (KPROOF_CROSSCHECK_BOUNDS asks Z3 about them too.)
  execOptions.otherWriterConditions =
      certificates != nullptr || getenv("KPROOF_CROSSCHECK_BOUNDS");
  execOptions.deadline = options.deadline;
  execOptions.timeoutSeconds = options.timeoutSeconds;
  progress("symbolic execution");
  ExecutionResult ex =
      execute(kernel, launch, buffers, scalars, T, N, execOptions);
  mergeGuards = &ex.mergeGuards;
  verdict.paths = ex.paths.size();
  verdict.branches = ex.forks;
  verdict.merges = ex.merges;
  multiThread = launch.totalThreads() > 1;
  // One line per idiom, with its sites (in order, without repeats; past
  // six, how many more).
  {
    std::vector<std::pair<std::string, std::vector<std::string>>> sites;
    for (const IdiomUse &i : ex.idioms) {
      auto it = llvm::find_if(sites, [&](const auto &e) {
        return e.first == i.name;
      });
      if (it == sites.end()) {
        sites.push_back({i.name, {}});
        it = std::prev(sites.end());
      }
      std::string at = locString(i.loc);
      if (!llvm::is_contained(it->second, at))
        it->second.push_back(at);
    }
    constexpr size_t kShown = 6;
    for (auto &[idiom, where] : sites) {
      std::string line = idiom + " at ";
      for (size_t k = 0; k < where.size() && k < kShown; ++k)
        line += (k ? ", " : "") + where[k];
      if (where.size() > kShown)
        line += " and " + std::to_string(where.size() - kShown) + " more";
      verdict.idioms.push_back(line);
    }
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

  auto refutedCount = [&] {
    return llvm::count_if(verdict.obligations, [](const ObligationResult &o) {
      return o.verdict == VerdictKind::Refuted;
    });
  };
  // A refuted synchronization obligation (a race, a divergent barrier)
  // makes the values read through shared memory undefined: comparing them
  // with the spec could only add findings, at the price of every value
  // obligation of the racy reads (minutes on a tile), so they are skipped.
  bool syncRefuted = false;
  if (multiThread) {
    collectCounters(ex, launch);
    progress("synchronization (races, barriers, shared reads)");
    auto before = refutedCount();
    checkSync(ex, launch);
    syncRefuted = refutedCount() > before;
  }
  if (syncRefuted && !options.syncOnly)
    record("values of the outputs", VerdictKind::Unknown,
           "not checked: the synchronization checks above found a "
           "violation (a race or a broken barrier protocol makes what the "
           "kernel reads undefined); values are compared once it is fixed");
  progress("memory safety");
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
  // A real operand that must be positive (lg2's) and whose normal form is
  // a positive combination of exponentials (a softmax denominator) is
  // positive on every path: no query.
  std::vector<bool> positiveByForm(violated.size(), false);
  for (auto [k, a] : llvm::enumerate(ex.alignments)) {
    Term c = a.condition;
    positiveByForm[k] = c->getKind() == Kind::RealLt &&
                        c->getOperand(0)->isRealConst() &&
                        c->getOperand(0)->getRational().isZero() &&
                        N.provesPositive(c->getOperand(1));
  }
  SmallVector<Term> open;
  SmallVector<size_t> openIndex;
  for (auto [k, c] : llvm::enumerate(violated))
    if (!(c->getKind() == Kind::BoolConst && !c->getBoolValue()) &&
        !positiveByForm[k]) {
      open.push_back(c);
      openIndex.push_back(k);
    }
  std::vector<bool> safeTogether(violated.size(), false);
  for (auto [k, done] : llvm::enumerate(provedTogether(open)))
    safeTogether[openIndex[k]] = done;
  for (auto [k, a] : llvm::enumerate(ex.alignments)) {
    std::string name = a.what + " at " + locString(a.loc);
    if (positiveByForm[k])
      proved(name, violated[k],
             "normalizer (a positive combination of exponentials)");
    else if (safeTogether[k])
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
  if (!options.syncOnly && !warpOrderedRegions.empty())
    record("values through bar.warp.sync", VerdictKind::Unknown,
           "values passed between lanes through memory that only "
           "bar.warp.sync (__syncwarp) orders are not yet modeled by the "
           "value proof ('" +
               displayVariable(warpOrderedRegions.begin()->first) +
               "', accessed at " +
               locString(warpOrderedRegions.begin()->second) + ")");

  // Obligations per path.
  progress("values and coverage of the outputs");
  for (const PathResult &p : ex.paths) {
    if (p.trapped) {
      checkNever("no trap (the kernel never aborts)", p.pathCondition,
                 T.boolConst(true),
                 p.trapLoc.value_or(kernel.getLoc()));
      continue;
    }
    for (auto [k, v] : llvm::enumerate(p.violations))
      checkNever("never: " + v +
                     (!swapHint.empty() &&
                              StringRef(v).starts_with("store to input buffer")
                          ? " (" + swapHint + ")"
                          : std::string()),
                 p.pathCondition, T.boolConst(true),
                 k < p.violationLocs.size() ? p.violationLocs[k]
                                            : kernel.getLoc());
    // Under counted barriers, and after a bar.warp.sync, shared reads are
    // not resolved: the values are unknown (recorded above), and comparing
    // them is meaningless.
    if (options.syncOnly || syncRefuted || ex.countedBarriers ||
        ex.warpSyncReads || !warpOrderedRegions.empty())
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
  if (multiThread && !options.syncOnly && !syncRefuted)
    for (Spec *sp : specs)
      checkCoverage(ex, sp->output(), launch);
  for (const DivisorObligation &d : ex.divisors) {
    if (options.syncOnly || syncRefuted)
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
    if (splitOnConditions(d.divisor, cases, options.maxCases, tooMany, &agreed,
                          d.pathCondition) &&
        llvm::all_of(cases, [&](const std::pair<Term, Term> &c) {
          return N.provesNonZero(c.second);
        })) {
      std::string how = "normalizer, " + Twine(cases.size()).str() +
                        " cases over the branch conditions of merged states";
      if (!prunedByBounds) {
        proved(name, T.andOf(d.pathCondition, T.eq(d.divisor, T.real(0))), how);
        continue;
      }
      // Cases the bounds exclude: a certificate of the formula alone would
      // not state them (Checker::checkValue does the same).
      record(name, VerdictKind::Proved,
             how + "; " + std::to_string(prunedByBounds) +
                 " more the thread-id and size bounds exclude");
      if (certificates)
        verdict.warnings.push_back(
            "certificate of '" + name +
            "' not written: its cases were chosen by the thread-id and size "
            "bounds, which a certificate cannot state yet");
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

  // The spec's readings (transcendental constants) are assumptions too.
  for (Spec *sp : specs)
    for (const std::string &s : sp->idioms())
      if (!llvm::is_contained(verdict.idioms, s))
        verdict.idioms.push_back(s);

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

} // namespace kproof::engine::check

std::optional<Verdict>
kproof::engine::checkEquivalence(ModuleOp module, ContractOp contract,
                                 const CheckerOptions &givenOptions) {
  // The time limit counts from here, and covers the bounded checks too.
  CheckerOptions options = givenOptions;
  if (options.timeoutSeconds && !options.deadline)
    options.deadline = std::chrono::steady_clock::now() +
                       std::chrono::seconds(options.timeoutSeconds);
  check::Checker checker(module, contract, options);
  std::optional<Verdict> verdict = checker.run();
  if (!verdict || verdict->kind != VerdictKind::Unknown ||
      !options.smallSizes || !options.sizeValues.empty())
    return verdict;
  // Bounded checks at small sizes (counterexamples come from a
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
  bool timedOut = false;
  for (const LaunchConfig::SizeParam *p : free)
    names += (names.empty() ? "" : ", ") + p->name;
  for (int64_t v = lo; v < hi && v < lo + int64_t(options.smallSizes); ++v) {
    if (options.pastDeadline()) {
      timedOut = true;
      break;
    }
    if (options.progress)
      options.progress("bounded check at " + names + " = " + std::to_string(v) +
                           " (--small-sizes)",
                       *verdict);
    CheckerOptions bounded = options;
    for (const LaunchConfig::SizeParam *p : free)
      bounded.sizeValues[p->name] = v;
    check::Checker small(module, contract, bounded);
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
  if (!tried.empty())
    verdict->warnings.push_back("bounded checks at " + names + " = " + tried +
                                " (--small-sizes) found no counterexample");
  if (timedOut)
    verdict->warnings.push_back("bounded checks at small " + names +
                                " stopped: the time limit (--timeout) was "
                                "reached");
  return verdict;
}
