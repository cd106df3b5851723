//===- Threads.cpp - thread ids, special registers, feasibility -----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The representative thread and the others (docs/verify-sync.md "The model"):
// special registers (PTX ISA 10) as terms over the thread-id variables tid.*
// and ctaid.* with their ranges, the linear thread id and the substitution that
// makes the representative thread another thread of the CTA (`threadAt`),
// threads per CTA; exact linear forms of addresses over the thread ids and
// their ranges
// (`linearize`, `rangeOf`), renaming fresh variables apart, and `mayHold`:
// whether a path condition over thread ids is satisfiable (Z3), to prune
// branches no thread takes.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "KProof/Verifier/Terms/ThreadLinear.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

//===----------------------------------------------------------------------===//
// Special registers and thread ids
//===----------------------------------------------------------------------===//

Term Executor::specialRegister(State &s, SpecialReg reg, Location loc,
                               bool freshPerRead) {
  auto dim = [&](StringRef name) { return launch.extent(T, name); };
  auto idx = [&](StringRef name, int64_t bound) -> Term {
    if (bound == 1)
      return T.bv(0, 32);
    Term v = T.bvVar(name, 32);
    s.pc = T.andOf(s.pc, T.bvUlt(v, launch.extentOf(T, name)));
    return v;
  };
  switch (reg) {
  case SpecialReg::TidX: return idx("tid.x", launch.block[0]);
  case SpecialReg::TidY: return idx("tid.y", launch.block[1]);
  case SpecialReg::TidZ: return idx("tid.z", launch.block[2]);
  case SpecialReg::NtidX: return dim("ntid.x");
  case SpecialReg::NtidY: return dim("ntid.y");
  case SpecialReg::NtidZ: return dim("ntid.z");
  case SpecialReg::CtaidX: return idx("ctaid.x", launch.grid[0]);
  case SpecialReg::CtaidY: return idx("ctaid.y", launch.grid[1]);
  case SpecialReg::CtaidZ: return idx("ctaid.z", launch.grid[2]);
  case SpecialReg::NctaidX: return dim("nctaid.x");
  case SpecialReg::NctaidY: return dim("nctaid.y");
  case SpecialReg::NctaidZ: return dim("nctaid.z");
  case SpecialReg::LaneId:
    // execute() ran kproof::symbolizeLanes, which rewrites every %laneid
    // read through the thread ids: one is left only if that did not run.
    unknown(loc, "%laneid was not symbolized (kproof-symbolize-lanes did "
                 "not run on this kernel)");
    return nullptr;
  default:
    break;
  }
  // A physical slot or a time (PTX ISA 10.x): an arbitrary value at each
  // read, as kproof-symbolize-lanes tagged it.
  if (freshPerRead)
    return fresh(stringifySpecialReg(reg), Sort::BV,
                 reg == SpecialReg::GridId || reg == SpecialReg::Clock64 ||
                         reg == SpecialReg::GlobalTimer
                     ? 64
                     : 32);
  unknown(loc, "special register %" + stringifySpecialReg(reg) +
                   " is not modeled");
  return nullptr;
}

Term Executor::linearTid(State &s) {
  static const char *dims[] = {"tid.x", "tid.y", "tid.z"};
  Term lin = T.bv(0, 32);
  Term stride = T.bv(1, 32);
  for (int d = 0; d < 3; ++d) {
    Term extent = launch.extentOf(T, dims[d]);
    if (launch.block[d] > 1) {
      Term v = T.bvVar(dims[d], 32);
      s.pc = T.andOf(s.pc, T.bvUlt(v, extent));
      lin = T.bvBin(Kind::BVAdd, lin, T.bvBin(Kind::BVMul, v, stride));
    }
    stride = T.bvBin(Kind::BVMul, stride, extent);
  }
  return lin;
}

llvm::DenseMap<Term, Term> Executor::threadAt(Term lin) {
  static const char *dims[] = {"tid.x", "tid.y", "tid.z"};
  llvm::DenseMap<Term, Term> m;
  if (launch.block[1] == 1 && launch.block[2] == 1) {
    // A 1-D block: tid.x is the linear id (a lane past the block's end
    // does not exist, which the callers' obligations check).
    if (launch.block[0] > 1)
      m[T.bvVar("tid.x", 32)] = lin;
    for (auto &[v, ext] : ctaidVars)
      m[v] = v;
    return m;
  }
  Term stride = T.bv(1, 32);
  for (int d = 0; d < 3; ++d) {
    Term extent = launch.extentOf(T, dims[d]);
    if (launch.block[d] > 1)
      m[T.bvVar(dims[d], 32)] =
          T.bvBin(Kind::BVURem, T.bvBin(Kind::BVUDiv, lin, stride), extent);
    stride = T.bvBin(Kind::BVMul, stride, extent);
  }
  for (auto &[v, ext] : ctaidVars)
    m[v] = v;
  return m;
}

Term Executor::ctaThreadsTerm() {
  return T.bvBin(Kind::BVMul, launch.extent(T, "ntid.x"),
                 T.bvBin(Kind::BVMul, launch.extent(T, "ntid.y"),
                         launch.extent(T, "ntid.z")));
}

uint64_t Executor::ctaThreads() const {
  return launch.isSymbolic()
             ? 0
             : uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
}

//===----------------------------------------------------------------------===//
// Feasibility and linear forms over thread ids
//===----------------------------------------------------------------------===//

bool Executor::mayHold(Term pc) {
  if (pc->getKind() == Kind::BoolConst)
    return pc->getBoolValue();
  // Conjuncts the thread-id bounds decide (a loop's trip count over
  // `i = tid.x; i < 256; i += 16` once tid.x <= 15 is declared): no
  // solver query.
  ArrayRef<Term> conjuncts(pc);
  if (pc->getKind() == Kind::And)
    conjuncts = pc->getOperands();
  SmallVector<Term> undecided;
  for (Term c : conjuncts) {
    std::optional<bool> d = T.decideByBounds(c);
    if (d && !*d) {
      // KPROOF_CROSSCHECK_BOUNDS: a developer check that the solver
      // agrees with every such decision (run the test suite with it set).
      if (getenv("KPROOF_CROSSCHECK_BOUNDS") && mayHoldBySolver(pc))
        llvm::report_fatal_error(
            "decideByBounds refuted a satisfiable path condition: " +
            llvm::Twine(c->toBriefString(2000)));
      return false;
    }
    if (!d)
      undecided.push_back(c);
  }
  if (undecided.empty())
    return true;
  if (getenv("KPROOF_DUMP_TERMS")) {
    llvm::errs() << "; mayHold by solver:\n";
    for (Term c : undecided)
      llvm::errs() << ";   " << c->toBriefString(400) << "\n";
  }
  if (undecided.size() == conjuncts.size())
    return mayHoldBySolver(pc);
  return mayHoldBySolver(withVariableBounds(undecided));
}

Term Executor::withVariableBounds(ArrayRef<Term> conjuncts) {
  // The conjuncts the bounds decided true hold wherever the declared
  // bounds of the variables hold: the undecided ones and those bounds are
  // satisfiable exactly when the whole path condition is (a loop condition
  // `tid.x + 16 k < 2048` per unrolled iteration of a tile load: hundreds
  // of bit-blasted conjuncts the query need not carry).
  SmallVector<Term> facts(conjuncts.begin(), conjuncts.end());
  llvm::DenseSet<Term> seen;
  SmallVector<Term> work(conjuncts.begin(), conjuncts.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!seen.insert(t).second)
      continue;
    if (t->getKind() == Kind::BVVar) {
      unsigned w = t->getWidth();
      if (std::optional<uint64_t> hi = T.upperBound(t->getName());
          hi && (w >= 64 || *hi < (uint64_t(1) << w)))
        facts.push_back(T.bvUle(t, T.bv(*hi, w)));
      if (std::optional<uint64_t> lo = T.lowerBound(t->getName());
          lo && *lo > 0 && (w >= 64 || *lo < (uint64_t(1) << w)))
        facts.push_back(T.bvUle(T.bv(*lo, w), t));
    }
    for (Term o : t->getOperands())
      work.push_back(o);
  }
  return T.andOf(facts);
}

bool Executor::mayHoldBySolver(Term pc) {
  llvm::DenseSet<Term> seen;
  SmallVector<Term> work{pc};
  bool nonlinear = false, data = false;
  // Elements of tables with a contract `range` (BufferBinding::range): the
  // precondition restricts the inputs every path is explored for, so a
  // path only inputs outside it take is not kept (a loop `i <= end` over a
  // table entry has a trip count only below INT_MAX).
  SmallVector<Term> rangeFacts;
  auto tableRange = [&](Term t) {
    std::optional<StringRef> name = intElementTable(t);
    if (!name)
      return;
    for (const std::optional<BufferBinding> &b : buffers) {
      if (!b || b->name != *name)
        continue;
      // `at_most = "n"`: the scalar n is a size parameter, the variable of
      // that name (a fixed value gives no fact: only less pruning).
      Term atMost = nullptr;
      if (!b->atMost.empty())
        for (Term sc : scalars)
          if (sc && sc->getKind() == Kind::BVVar &&
              sc->getName() == b->atMost)
            atMost = sc;
      appendTableFacts(T, t, b->range, atMost, rangeFacts);
    }
  };
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!seen.insert(t).second)
      continue;
    if (t->getSort() == Sort::Real || seen.size() > 4000)
      return true; // data-dependent: keep both sides
    Kind k = t->getKind();
    tableRange(t);
    // An integer input element (or an undefined value): data, not the
    // launch.
    if (k == Kind::Select ||
        (k == Kind::BVVar && !llvm::StringRef(t->getName()).starts_with("tid.") &&
         !llvm::StringRef(t->getName()).starts_with("ctaid.") &&
         !llvm::StringRef(t->getName()).starts_with("ntid.") &&
         !llvm::StringRef(t->getName()).starts_with("nctaid.")))
      data = true;
    nonlinear |= (k == Kind::BVMul && !t->getOperand(0)->isConstant() &&
                  !t->getOperand(1)->isConstant()) ||
                 ((k == Kind::BVUDiv || k == Kind::BVURem) &&
                  !t->getOperand(1)->isConstant());
    for (Term o : t->getOperands())
      work.push_back(o);
  }
  // A nonlinear condition over data (a product of input integers): the
  // integer encoding is for launch products, and bit-blasting a 64-bit
  // product can take minutes; keeping both sides is sound.
  if (nonlinear && data)
    return true;
  if (!rangeFacts.empty()) {
    rangeFacts.push_back(pc);
    pc = T.andOf(rangeFacts);
  }
  if (nonlinear) {
    // A symbolic launch (ctaid.x * ntid.x): the exact integer encoding,
    // which Z3's nonlinear arithmetic decides where bit-blasting does not
    // (Z3Lowering::setBitVectorsAsIntegers).
    smt::SolverOptions so;
    so.rlimit = 2'000'000;
    // The rlimit decides (deterministic); the wall-clock guard only backs
    // it where Z3 does not heed it, generously, so that a loaded machine
    // does not change which paths are kept. An undecided query keeps the
    // path (sound: more paths, never fewer).
    so.timeoutMs = 60'000;
    smt::Context &ctx = smt::Context::reusable(so);
    Z3Lowering lowering(ctx, T);
    lowering.setBitVectorsAsIntegers(true);
    lowering.assumeBoundsOf({pc});
    smt::Expr e = lowering.lower(pc);
    if (e.isValid()) {
      smt::Solver solver(ctx, /*simple=*/true);
      solver.add(e);
      for (const smt::Expr &d : lowering.intDefinitions())
        solver.add(d);
      return solver.check() != smt::CheckResult::Unsat;
    }
  }
  if (!z3) {
    smt::SolverOptions so;
    so.rlimit = 2'000'000;
    z3 = std::make_unique<smt::Context>(so);
    z3Lowering = std::make_unique<Z3Lowering>(*z3, T);
  }
  smt::Expr e = z3Lowering->lower(pc);
  if (!e.isValid())
    return true;
  smt::Solver solver(*z3);
  solver.add(e);
  return solver.check() != smt::CheckResult::Unsat;
}

bool Executor::linearize(Term t, __int128 scale, __int128 &c0,
                         std::map<Term, __int128, TermIdLess> &coeffs) {
  LinearForm f;
  if (!linearizeOver(t, tidVars, scale, f))
    return false;
  c0 += f.c0;
  for (auto &[v, c] : f.coeffs)
    coeffs[v] += c;
  return true;
}

std::pair<__int128, __int128>
Executor::rangeOf(__int128 c0, const std::map<Term, __int128, TermIdLess> &coeffs) {
  __int128 lo = c0, hi = c0;
  for (auto &[v, c] : coeffs) {
    __int128 span = c * __int128(tidVars.lookup(v) - 1);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

void Executor::renameFresh(ArrayRef<Term> terms,
                           llvm::DenseMap<Term, Term> &map) {
  llvm::DenseSet<Term> seen;
  SmallVector<Term> work(terms.begin(), terms.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!t || !seen.insert(t).second)
      continue;
    for (Term o : t->getOperands())
      work.push_back(o);
    bool isVar = t->getKind() == Kind::RealVar ||
                 t->getKind() == Kind::BVVar || t->getKind() == Kind::BoolVar;
    if (isVar && t->getName().contains('#') && !map.count(t))
      map[t] = fresh(t->getName().split('#').first, t->getSort(),
                     t->getWidth());
  }
}

Term Executor::threadRange(const llvm::DenseMap<Term, Term> &map) {
  SmallVector<Term> cs;
  for (auto &[v, ext] : tidVars)
    cs.push_back(T.bvUlt(map.lookup(v), launch.extentOf(T, v->getName())));
  return T.andOf(cs);
}

} // namespace kproof::engine::exec
