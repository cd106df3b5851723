//===- RefSpec.cpp - specs written as a second, naive kernel --------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The reference kernel runs once through the symbolic executor, in a term
// context owned by the spec (so that building the spec needs no checker and
// its errors are contract errors). Its final stores to the output buffer are
// the spec's elements; element() copies them into the caller's context,
// where the reference's input terms ("x[i]", Select x i, scalar variables)
// are the kernel's own, so kernel and spec values compare exactly.
//
//===----------------------------------------------------------------------===//

#include "RefSpec.h"

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Dialect/PreParseCheck.h"
#include "KProof/Import/PTX/PTXImporter.h"
#include "KProof/Import/PTX/PTXParser.h"
#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/SMT/Z3Solver.h"
#include "KProof/Verifier/Terms/Normalizer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <set>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

/// "file:line:col" of the first file location in `loc`.
std::string locString(Location loc) {
  std::string out = "<unknown location>";
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      out = (f.getFilename().getValue() + ":" + Twine(f.getLine()) + ":" +
             Twine(f.getColumn()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Copying terms between contexts
//===----------------------------------------------------------------------===//

/// Copies terms of one TermContext (any: only payloads are read) into
/// another, through the target's
/// folding constructors (so a copy may fold further, never change meaning).
/// `holes` are variables of the source that copy() may replace; copies of
/// terms that contain no hole are memoized across calls. Variables whose
/// name holds '#' (fresh values of one executor run: "undef#3") get the
/// prefix "ref:", so that they never meet the kernel's fresh values of the
/// same name.
class TermCopier {
public:
  TermCopier(TermContext &to, llvm::DenseSet<Term> holes, bool renameFresh)
      : to(to), holes(std::move(holes)), renameFresh(renameFresh) {}

  /// `root` (a term of the source context) in `to`, with each key of `subst` (a hole)
  /// replaced by its value (a term of `to`).
  Term copy(Term root) { return copy(root, llvm::DenseMap<Term, Term>()); }
  Term copy(Term root, const llvm::DenseMap<Term, Term> &subst) {
    llvm::DenseMap<Term, Term> local(subst);
    auto done = [&](Term t) -> Term {
      if (Term r = local.lookup(t))
        return r;
      return dependsOnHole(t) ? nullptr : memo.lookup(t);
    };
    SmallVector<std::pair<Term, bool>, 32> stack{{root, false}};
    while (!stack.empty()) {
      auto [t, expanded] = stack.pop_back_val();
      if (done(t))
        continue;
      if (!expanded) {
        stack.push_back({t, true});
        for (Term op : t->getOperands())
          if (!done(op))
            stack.push_back({op, false});
        continue;
      }
      Term r;
      if (t->getNumOperands() == 0) {
        r = leaf(t);
      } else {
        SmallVector<Term, 4> ops;
        for (Term op : t->getOperands())
          ops.push_back(done(op));
        // An operand the target's constructors refused (null): no term.
        r = llvm::is_contained(ops, nullptr) ? nullptr : to.rebuild(t, ops);
      }
      (dependsOnHole(t) ? local : memo)[t] = r;
    }
    return done(root);
  }

private:
  Term leaf(Term t) {
    std::string name = t->getName().str();
    if (renameFresh && name.find('#') != std::string::npos)
      name = "ref:" + name;
    switch (t->getKind()) {
    case Kind::BoolConst:
      return to.boolConst(t->getBoolValue());
    case Kind::BoolVar:
      return to.boolVar(name);
    case Kind::RealConst:
      return to.real(t->getRational());
    case Kind::NegInf:
      return to.negInf();
    case Kind::PosInf:
      return to.posInf();
    case Kind::NaN:
      return to.nan();
    case Kind::RealVar:
      return to.realVar(name);
    case Kind::BVConst:
      return to.bv(t->getAPInt());
    case Kind::BVVar:
      return to.bvVar(name, t->getWidth());
    default:
      llvm_unreachable("a term without operands is a constant or variable");
    }
  }

  bool dependsOnHole(Term root) {
    if (holes.empty())
      return false;
    auto it = depends.find(root);
    if (it != depends.end())
      return it->second;
    SmallVector<std::pair<Term, bool>, 32> stack{{root, false}};
    while (!stack.empty()) {
      auto [t, expanded] = stack.pop_back_val();
      if (depends.count(t))
        continue;
      if (!expanded) {
        stack.push_back({t, true});
        for (Term op : t->getOperands())
          if (!depends.count(op))
            stack.push_back({op, false});
        continue;
      }
      bool d = holes.contains(t);
      for (Term op : t->getOperands())
        d = d || depends.lookup(op);
      depends[t] = d;
    }
    return depends.lookup(root);
  }

  TermContext &to;
  llvm::DenseSet<Term> holes;
  bool renameFresh;
  llvm::DenseMap<Term, Term> memo;
  llvm::DenseMap<Term, bool> depends;
};

//===----------------------------------------------------------------------===//
// Layout inversion (as EquivalenceChecker's coverage witness)
//===----------------------------------------------------------------------===//


//===----------------------------------------------------------------------===//
// The spec
//===----------------------------------------------------------------------===//

class RefSpec final : public Spec {
public:
  RefSpec(std::string refName, std::vector<std::string> paramNames,
          const BufferBinding *out, const LaunchConfig &launch,
          bool mergeStates)
      : refName(std::move(refName)), paramNames(std::move(paramNames)),
        out(out), launch(launch), mergeStates(mergeStates) {}

  std::string describe() const override {
    std::string s = "reference " + refName + "(";
    for (auto [i, n] : llvm::enumerate(paramNames))
      s += (i ? ", " : "") + n;
    return s + ") -> " + out->name;
  }
  const BufferBinding &output() const override { return *out; }
  Term element(TermContext &T, Term index, std::string &why) override;

  /// Runs the reference and records its meaning (or why it stays open).
  /// A store to an input buffer is a contract error (emitted at
  /// `contract`): failure.
  LogicalResult lower(Operation *contract, KernelOp kernel,
             const std::vector<std::optional<BufferBinding>> &buffers,
             const std::vector<Term> &scalars);

  /// The private context (the scalars' terms are copied into it).
  TermContext &terms() { return P; }

  /// Keeps the module (and its source) that holds the reference alive.
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  OwningOpRef<ModuleOp> module;

private:
  bool multiThread() const { return launch.totalThreads() > 1; }
  /// Whether `bad` (a Bool of P) is unsatisfiable: folded to false, or Z3
  /// answers unsat. On sat, `model` receives Z3's model when it is exact.
  bool unsat(Term bad, std::optional<Assignment> *model = nullptr);
  /// The first variable of `t` that stands for a fresh value of the run
  /// (its name holds '#'), or null.
  Term firstFresh(Term t);
  /// Why `what` (an element, a buffer) has no term: the reference stores
  /// -inf or +inf on some paths only (or at some indices only), which the
  /// reals model does not represent (Term.h).
  std::string infiniteOnSomePaths(const std::string &what) const {
    return "reference kernel '" + refName + "': " + what +
           " is infinite on some paths or elements only (a value that is "
           "-inf or +inf on some inputs only is not modeled)";
  }
  /// Element i of a one-thread reference, in P; null with `why`.
  Term singleElement(uint64_t i, std::string &why);
  void lowerMeaning(const ExecutionResult &ex);
  void lowerSingle(const ExecutionResult &ex);
  void lowerMulti(const ExecutionResult &ex);

  std::string refName;
  std::vector<std::string> paramNames;
  const BufferBinding *out;
  LaunchConfig launch;
  bool mergeStates;

  TermContext P;
  Normalizer PN{P};
  /// Non-empty: the reference does not define the output (every element()
  /// answers null with this reason).
  std::string reason;

  // One thread: per path, its condition and final stores to the output.
  struct Path {
    Term pc;
    std::map<uint64_t, Term> stores;
  };
  std::vector<Path> paths;
  std::map<uint64_t, Term> singleCache;
  /// Paths of the run proven infeasible (a trap or violation under an
  /// unsatisfiable condition): they define nothing.
  llvm::DenseSet<const PathResult *> infeasible;

  // The element at the index variable E, in P: the store's value at the
  // witness thread (many threads), or the lifted family of a one-thread
  // reference's elements (liftSingle).
  Term indexVar = nullptr;
  Term elementOfE = nullptr;
  bool liftTried = false;
  /// One thread: a term G(E) with G(k) identical (hash-consed) to element
  /// k for every k, found by anti-unifying the elements at the origin and
  /// one step along each dimension; null if there is none.
  Term liftSingle();
  Term antiUnify(Term base, ArrayRef<Term> steps, ArrayRef<Term> coords,
                 std::map<std::vector<Term>, Term> &memo);

  // The caller's context and the copier into it.
  TermContext *target = nullptr;
  std::unique_ptr<TermCopier> copier;
  llvm::DenseMap<Term, Term> chainCache; // symbolic index -> ite chain
  llvm::DenseMap<Term, Term> freshMemo;
};

bool RefSpec::unsat(Term bad, std::optional<Assignment> *model) {
  if (bad->getKind() == Kind::BoolConst)
    return !bad->getBoolValue();
  SmallVector<Term> assertions{bad};
  addBranchFacts(P, assertions);
  smt::Context z3;
  Z3Lowering lowering(z3, P);
  smt::Solver solver(z3);
  for (Term a : assertions) {
    smt::Expr e = lowering.lower(a);
    if (!e.isValid())
      return false;
    solver.add(e);
  }
  for (auto &[name, fact] : lowering.atomFacts())
    solver.add(fact);
  smt::CheckResult r = solver.check();
  if (r == smt::CheckResult::Sat && model)
    *model = lowering.extractModel(solver.getModel());
  return r == smt::CheckResult::Unsat;
}

Term RefSpec::firstFresh(Term root) {
  SmallVector<std::pair<Term, bool>, 32> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.pop_back_val();
    if (freshMemo.count(t))
      continue;
    if (!expanded) {
      stack.push_back({t, true});
      for (Term op : t->getOperands())
        if (!freshMemo.count(op))
          stack.push_back({op, false});
      continue;
    }
    Term found = nullptr;
    if ((t->getKind() == Kind::RealVar || t->getKind() == Kind::BVVar ||
         t->getKind() == Kind::BoolVar) &&
        t->getName().contains('#'))
      found = t;
    for (Term op : t->getOperands())
      if (!found)
        found = freshMemo.lookup(op);
    freshMemo[t] = found;
  }
  return freshMemo.lookup(root);
}

/// The first op of `kernel`, or of a function it calls, by which threads
/// may communicate: a barrier, an atomic, a warp collective, a fence, or a
/// shared-memory access. Null when there is none.
static Operation *firstCrossThreadOp(KernelOp kernel) {
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  SmallVector<KernelOp> work{kernel};
  llvm::DenseSet<Operation *> visited;
  while (!work.empty()) {
    KernelOp k = work.pop_back_val();
    if (!visited.insert(k).second)
      continue;
    Operation *found = nullptr;
    k.walk([&](Operation *op) {
      bool shared = false;
      if (auto space = op->getAttrOfType<StateSpaceAttr>("space"))
        shared = space.getValue() == StateSpace::Shared ||
                 space.getValue() == StateSpace::SharedCluster;
      if (auto a = dyn_cast<AddressOfOp>(op))
        if (auto g = module.lookupSymbol<GlobalOp>(a.getName()))
          shared |= g.getSpace() == StateSpace::Shared ||
                    g.getSpace() == StateSpace::SharedCluster;
      if (shared || isa<BarrierOp, AtomOp, ShflOp, VoteOp, ActiveMaskOp,
                        WarpSyncOp, ReduxOp, MatchOp, ElectOp, FenceOp>(op)) {
        found = op;
        return WalkResult::interrupt();
      }
      if (auto call = dyn_cast<CallOp>(op))
        if (auto callee = module.lookupSymbol<KernelOp>(call.getCallee()))
          work.push_back(callee);
      return WalkResult::advance();
    });
    if (found)
      return found;
  }
  return nullptr;
}

LogicalResult
RefSpec::lower(Operation *contract, KernelOp kernel,
               const std::vector<std::optional<BufferBinding>> &buffers,
               const std::vector<Term> &scalars) {
  std::string who = "reference kernel '" + refName + "'";
  // A multi-thread reference is read one thread at a time: its threads
  // must not communicate (whatever the executor may resolve).
  if (multiThread())
    if (Operation *op = firstCrossThreadOp(kernel)) {
      reason = who + ": its threads communicate ('" +
               op->getName().getStringRef().str() + "' at " +
               locString(op->getLoc()) +
               "); a multi-thread reference must compute each element in "
               "its writer thread";
      return success();
    }
  ExecutorOptions execOptions;
  execOptions.mergeStates = mergeStates;
  ExecutionResult ex =
      execute(kernel, launch, buffers, scalars, P, PN, execOptions);
  // A reference that writes its inputs is wrong on any path, feasible or
  // not: the kernel reads the very same buffers.
  for (const PathResult &p : ex.paths)
    for (const std::string &v : p.violations)
      if (StringRef(v).starts_with("store to input buffer"))
        return contract->emitError(who) << " must not write its inputs: "
                                        << v;
  // The reference's readings (constants, idioms) are assumptions too.
  for (const IdiomUse &i : ex.idioms)
    addIdiom("reference: " + i.name + " at " + locString(i.loc));
  lowerMeaning(ex);
  return success();
}

void RefSpec::lowerMeaning(const ExecutionResult &ex) {
  std::string who = "reference kernel '" + refName + "'";
  if (!ex.unknownReason.empty()) {
    reason = who + ": " + ex.unknownReason +
             (ex.unknownLoc ? " (at " + locString(*ex.unknownLoc) + ")"
                            : std::string());
    return;
  }
  if (ex.paths.empty()) {
    reason = who + ": no path reaches the end of the kernel";
    return;
  }
  // Reads resolved to another thread's write (shared memory, shuffles):
  // excluded above by firstCrossThreadOp; should the executor resolve more,
  // the reference's meaning would rest on obligations not checked here.
  if (!ex.resolutions.empty()) {
    reason = who + ": reads values other threads wrote (" +
             ex.resolutions.front().what + "), which a reference may not";
    return;
  }
  // Whatever makes the reference itself undefined somewhere leaves the
  // spec open: a reachable trap, a store outside a buffer, an obligation of
  // its own (divisor, alignment, extent, domain) that does not hold.
  // A trapping or violating path whose condition is unsatisfiable is
  // infeasible: it is left out below.
  for (const PathResult &p : ex.paths) {
    if (!p.trapped && p.violations.empty())
      continue;
    if (!unsat(p.pathCondition)) {
      reason = p.trapped ? who + " may trap" +
                               (p.trapLoc ? " (at " + locString(*p.trapLoc) +
                                                ")"
                                          : std::string())
                         : who + ": " + p.violations.front();
      return;
    }
    infeasible.insert(&p);
  }
  for (const PathObligation &a : ex.alignments)
    if (!unsat(P.andOf(a.pathCondition, P.notOf(a.condition)))) {
      reason = who + ": " + a.what + " at " + locString(a.loc) +
               " is not proven";
      return;
    }
  for (const DivisorObligation &d : ex.divisors)
    if (!PN.provesNonZero(d.divisor) &&
        !unsat(P.andOf(d.pathCondition, P.eq(d.divisor, P.real(0))))) {
      reason = who + ": non-zero " + d.what + " at " + locString(d.loc) +
               " is not proven";
      return;
    }
  if (multiThread())
    lowerMulti(ex);
  else
    lowerSingle(ex);
}

void RefSpec::lowerSingle(const ExecutionResult &ex) {
  for (const PathResult &p : ex.paths) {
    if (infeasible.contains(&p))
      continue;
    for (const SymbolicStore &st : p.symbolicStores)
      if (st.buffer == out->name) {
        reason = "reference kernel '" + refName + "' stores to '" +
                 out->name + "' at a data-dependent index (at " +
                 locString(st.loc) + "): not modeled";
        return;
      }
    Path path{p.pathCondition, {}};
    auto it = p.stores.find(out->name);
    if (it != p.stores.end())
      for (auto &[i, st] : it->second)
        path.stores[i] = st.value;
    paths.push_back(std::move(path));
  }
  if (paths.empty())
    reason = "reference kernel '" + refName + "' has no feasible path";
}

Term RefSpec::singleElement(uint64_t i, std::string &why) {
  auto cached = singleCache.find(i);
  if (cached != singleCache.end())
    return cached->second;
  std::string elem = out->name + "[" + std::to_string(i) + "]";
  // ite(pc_0, v_0, ite(pc_1, v_1, ... v_n)): the executor's path conditions
  // partition the inputs (each fork splits on c and !c), so the last path
  // needs no test.
  Term acc = nullptr;
  for (size_t k = paths.size(); k-- > 0;) {
    auto it = paths[k].stores.find(i);
    if (it == paths[k].stores.end()) {
      why = "reference kernel '" + refName + "' does not write " + elem +
            (paths.size() > 1 ? " on the path where " +
                                    paths[k].pc->toString()
                              : std::string());
      return nullptr;
    }
    acc = acc ? P.ite(paths[k].pc, it->second, acc) : it->second;
    // The constructors give no term for a value that is infinite on some
    // paths only (Term.h: infinities exist only as constants).
    if (!acc) {
      why = infiniteOnSomePaths(elem);
      return nullptr;
    }
  }
  if (Term f = firstFresh(acc)) {
    why = "reference kernel '" + refName + "': " + elem +
          " depends on a value it does not define (" + f->getName().str() +
          ")";
    return nullptr;
  }
  singleCache[i] = acc;
  return acc;
}

/// "buf[12]" -> ("buf", 12); false for any other name.
static bool parseElementName(StringRef name, StringRef &buffer,
                             uint64_t &index) {
  if (!name.ends_with("]"))
    return false;
  size_t open = name.rfind('[');
  if (open == StringRef::npos || open == 0)
    return false;
  buffer = name.take_front(open);
  return !name.slice(open + 1, name.size() - 1).getAsInteger(10, index);
}

Term RefSpec::antiUnify(Term base, ArrayRef<Term> steps, ArrayRef<Term> coords,
                        std::map<std::vector<Term>, Term> &memo) {
  if (llvm::all_of(steps, [&](Term t) { return t == base; }))
    return base; // the same in every element
  std::vector<Term> key{base};
  key.insert(key.end(), steps.begin(), steps.end());
  auto hit = memo.find(key);
  if (hit != memo.end())
    return hit->second;
  // c0 + sum_d (c_d - c0) * coord_d over 64 bits, for an index that moves
  // by a constant step along each dimension.
  auto affine = [&](const APInt &c0, ArrayRef<APInt> cs) {
    Term acc = P.bv(c0);
    for (auto [d, c] : llvm::enumerate(cs))
      if (c != c0)
        acc = P.bvBin(Kind::BVAdd, acc,
                      P.bvBin(Kind::BVMul, P.bv(c - c0), coords[d]));
    return acc;
  };
  Term result = nullptr;
  StringRef buf;
  uint64_t i0;
  if (base->getKind() == Kind::RealVar &&
      parseElementName(base->getName(), buf, i0) &&
      llvm::all_of(steps, [&](Term t) {
        StringRef b;
        uint64_t i;
        return t->getKind() == Kind::RealVar &&
               parseElementName(t->getName(), b, i) && b == buf;
      })) {
    // Input elements x[i0], x[i1], ...: x[affine index].
    SmallVector<APInt> cs;
    for (Term t : steps) {
      StringRef b;
      uint64_t i;
      parseElementName(t->getName(), b, i);
      cs.push_back(APInt(64, i));
    }
    result = P.element(buf, affine(APInt(64, i0), cs));
  } else if (base->getKind() == Kind::BVConst &&
             llvm::all_of(steps, [&](Term t) {
               return t->getKind() == Kind::BVConst &&
                      t->getWidth() == base->getWidth();
             })) {
    SmallVector<APInt> cs;
    for (Term t : steps)
      cs.push_back(t->getAPInt().zextOrTrunc(64));
    Term v = affine(base->getAPInt().zextOrTrunc(64), cs);
    result = base->getWidth() == 64 ? v : P.bvExtract(v, 0, base->getWidth());
  } else if (base->getNumOperands() > 0 &&
             llvm::all_of(steps, [&](Term t) {
               return t->getKind() == base->getKind() &&
                      t->getNumOperands() == base->getNumOperands() &&
                      t->getName() == base->getName() &&
                      t->getWidth() == base->getWidth() &&
                      t->getExtractLow() == base->getExtractLow() &&
                      t->isSigned() == base->isSigned();
             })) {
    SmallVector<Term, 4> ops;
    for (unsigned k = 0; k < base->getNumOperands(); ++k) {
      SmallVector<Term, 4> opSteps;
      for (Term t : steps)
        opSteps.push_back(t->getOperand(k));
      Term op = antiUnify(base->getOperand(k), opSteps, coords, memo);
      if (!op)
        break;
      ops.push_back(op);
    }
    if (ops.size() == base->getNumOperands())
      result = P.rebuild(base, ops);
  }
  memo[key] = result;
  return result;
}

Term RefSpec::liftSingle() {
  if (liftTried)
    return elementOfE;
  liftTried = true;
  indexVar = P.bvVar("ref:element", 64);
  // Row-major coordinates of E, and the flat index of one step along each
  // dimension of extent > 1.
  size_t rank = out->shape.size();
  SmallVector<Term> coords;
  SmallVector<uint64_t> stepIndex;
  uint64_t stride = 1;
  Term rest = indexVar;
  for (size_t d = rank; d-- > 0;) {
    uint64_t extent = out->shape[d];
    Term coord = d == 0 ? rest
                        : P.bvBin(Kind::BVURem, rest, P.bv(extent, 64));
    if (extent > 1) {
      coords.push_back(coord);
      stepIndex.push_back(stride);
    }
    rest = P.bvBin(Kind::BVUDiv, rest, P.bv(extent, 64));
    stride *= extent;
  }
  std::string why;
  Term base = singleElement(0, why);
  SmallVector<Term> steps;
  for (uint64_t i : stepIndex)
    if (Term t = singleElement(i, why))
      steps.push_back(t);
  if (!base || steps.size() != stepIndex.size())
    return nullptr;
  std::map<std::vector<Term>, Term> memo;
  Term g = antiUnify(base, steps, coords, memo);
  if (!g)
    return nullptr;
  // G(k) must be element k itself, for every k.
  for (uint64_t k = 0, n = out->numElements(); k < n; ++k) {
    Term e = singleElement(k, why);
    llvm::DenseMap<Term, Term> at;
    at[indexVar] = P.bv(k, 64);
    if (!e || P.substitute(g, at) != e)
      return nullptr;
  }
  elementOfE = g;
  return g;
}

void RefSpec::lowerMulti(const ExecutionResult &ex) {
  std::string who = "reference kernel '" + refName + "'";
  struct Writer {
    Term pc, index, value;
  };
  std::vector<Writer> writers;
  for (const PathResult &p : ex.paths) {
    if (infeasible.contains(&p))
      continue;
    auto fixed = p.stores.find(out->name);
    if (fixed != p.stores.end() && !fixed->second.empty()) {
      reason = who + " stores to a fixed element of '" + out->name +
               "' in a launch of " + std::to_string(launch.totalThreads()) +
               " threads (every thread would write it)";
      return;
    }
    const SymbolicStore *last = nullptr;
    for (const SymbolicStore &st : p.symbolicStores) {
      if (st.buffer != out->name)
        continue;
      if (st.isFamily()) {
        reason = who + " stores to '" + out->name + "' in a summarized "
                 "loop (at " + locString(st.loc) + "): not modeled";
        return;
      }
      if (last && last->index != st.index) {
        reason = who + " stores to several elements of '" + out->name +
                 "' per thread: not modeled";
        return;
      }
      last = &st;
    }
    if (last)
      writers.push_back({p.pathCondition, last->index, last->value});
  }
  if (writers.empty()) {
    reason = who + " never stores to '" + out->name + "'";
    return;
  }

  // The thread variables and their ranges.
  static const char *const kVars[] = {"tid.x",   "tid.y",   "tid.z",
                                      "ctaid.x", "ctaid.y", "ctaid.z"};
  auto range = [&](StringRef var) -> int64_t {
    int d = var.back() - 'x';
    return var.starts_with("tid.") ? launch.block[d] : launch.grid[d];
  };
  // Invert the layout of the first writer: index = constant + sum c_k v_k
  // with mixed-radix coefficients (1, r0, r0 r1, ...) gives
  // v_k = (e - constant) / c_k % r_k (no % for the most significant one).
  indexVar = P.bvVar("ref:element", 64);
  Term E = indexVar;
  llvm::DenseMap<Term, Term> w;
  std::map<std::string, int64_t> coeffs;
  int64_t constant = 0;
  if (readLinearForm(writers[0].index, 1, coeffs, constant)) {
    SmallVector<std::pair<int64_t, std::string>> order;
    for (auto &[var, c] : coeffs)
      if (c != 0)
        order.push_back({c, var});
    llvm::sort(order);
    int64_t expected = 1;
    bool mixedRadix = !order.empty();
    for (auto &[c, var] : order) {
      mixedRadix &= c == expected;
      expected *= range(var);
    }
    if (mixedRadix) {
      Term base = constant == 0
                      ? E
                      : P.bvBin(Kind::BVSub, E, P.bv(APInt(64, constant, true)));
      for (auto [k, cv] : llvm::enumerate(order)) {
        auto &[c, var] = cv;
        Term v = c == 1 ? base : P.bvBin(Kind::BVUDiv, base, P.bv(c, 64));
        if (k + 1 < order.size())
          v = P.bvBin(Kind::BVURem, v, P.bv(range(var), 64));
        w[P.bvVar(var, 32)] = P.bvExtract(v, 0, 32);
      }
    }
  }
  if (w.empty()) {
    if (launch.block[1] != 1 || launch.block[2] != 1 || launch.grid[1] != 1 ||
        launch.grid[2] != 1) {
      reason = who + ": its store index " + writers[0].index->toString() +
               " is not a mixed-radix linear form of the thread indices (no "
               "writer thread per element)";
      return;
    }
    Term block = P.bv(launch.block[0], 64);
    w[P.bvVar("tid.x", 32)] =
        P.bvExtract(P.bvBin(Kind::BVURem, E, block), 0, 32);
    w[P.bvVar("ctaid.x", 32)] =
        P.bvExtract(P.bvBin(Kind::BVUDiv, E, block), 0, 32);
  }
  SmallVector<Term> inRange;
  for (const char *name : kVars) {
    if (range(name) == 1)
      continue;
    Term v = P.bvVar(name, 32);
    inRange.push_back(P.bvUlt(v, P.bv(range(name), 32)));
    if (!w.count(v))
      w[v] = P.bv(0, 32); // not in the layout: only thread 0 may write
  }
  Term n = P.bv(out->numElements(), 64);

  // Uniqueness and extent: every writing thread t stores inside the output,
  // at an element whose witness is t itself.
  for (const Writer &wr : writers) {
    llvm::DenseMap<Term, Term> at{{E, wr.index}};
    SmallVector<Term> bad{P.notOf(P.bvUlt(wr.index, n))};
    for (auto &[var, wit] : w)
      bad.push_back(P.notOf(P.eq(var, P.substitute(wit, at))));
    SmallVector<Term> query(inRange.begin(), inRange.end());
    query.push_back(wr.pc);
    query.push_back(P.orOf(bad));
    std::optional<Assignment> model;
    if (!unsat(P.andOf(query), &model)) {
      std::string detail;
      if (model)
        for (const char *name : kVars) {
          auto it = model->bitvectors.find(name);
          if (it != model->bitvectors.end())
            detail += std::string(detail.empty() ? " (for instance " : ", ") +
                      name + " = " + std::to_string(it->second.getZExtValue());
        }
      reason = who + ": a thread stores outside '" + out->name +
               "' or to an element another thread writes, or the layout "
               "could not be inverted" +
               (detail.empty() ? "" : detail + ")");
      return;
    }
  }
  // Coverage: the witness of every element writes it.
  SmallVector<Term> conds, values;
  for (const Writer &wr : writers) {
    conds.push_back(P.substitute(P.andOf(wr.pc, P.eq(wr.index, E)), w));
    values.push_back(P.substitute(wr.value, w));
  }
  std::optional<Assignment> model;
  if (!unsat(P.andOf(P.bvUlt(E, n), P.notOf(P.orOf(conds))), &model)) {
    std::string detail;
    if (model) {
      auto it = model->bitvectors.find("ref:element");
      if (it != model->bitvectors.end())
        detail = " (for instance " + out->name + "[" +
                 std::to_string(it->second.getZExtValue()) + "])";
    }
    reason = who + " does not write every element of '" + out->name +
             "' (or its writer thread is not proven)" + detail;
    return;
  }
  // The element at E: the value of the writing path of its witness (the
  // path conditions of one thread are disjoint; coverage proved that one
  // holds below the extent).
  Term acc = values.back();
  for (size_t k = values.size() - 1; acc && k-- > 0;)
    acc = P.ite(conds[k], values[k], acc);
  if (!acc) {
    reason = infiniteOnSomePaths("'" + out->name + "'");
    return;
  }
  if (Term f = firstFresh(acc)) {
    reason = who + ": '" + out->name +
             "' depends on a value it does not define (" +
             f->getName().str() + ")";
    return;
  }
  elementOfE = acc;
}

Term RefSpec::element(TermContext &T, Term index, std::string &why) {
  if (!reason.empty()) {
    why = reason;
    return nullptr;
  }
  bool symbolic = index->getKind() != Kind::BVConst;
  uint64_t n = out->numElements();
  if (!symbolic && index->getAPInt().getZExtValue() >= n) {
    why = "element " + std::to_string(index->getAPInt().getZExtValue()) +
          " is outside '" + out->name + "' (" + std::to_string(n) +
          " elements)";
    return nullptr;
  }
  if (symbolic && !multiThread() && !liftTried) {
    liftSingle();
    target = nullptr; // the copier must know the index variable
  }
  if (target != &T) {
    target = &T;
    llvm::DenseSet<Term> holes;
    if (indexVar)
      holes.insert(indexVar);
    copier = std::make_unique<TermCopier>(T, std::move(holes),
                                          /*renameFresh=*/true);
    chainCache.clear();
  }
  auto copied = [&](Term c) {
    if (!c) // the caller's constructors may refuse a term (infinities)
      why = infiniteOnSomePaths("the element of '" + out->name + "'");
    return c;
  };
  if (multiThread() || (symbolic && elementOfE))
    return copied(copier->copy(
        elementOfE, llvm::DenseMap<Term, Term>{{indexVar, index}}));
  if (!symbolic) {
    Term e = singleElement(index->getAPInt().getZExtValue(), why);
    return e ? copied(copier->copy(e)) : nullptr;
  }
  if (Term cached = chainCache.lookup(index))
    return cached;
  if (n > kMaxSymbolicElements) {
    why = "a one-thread reference answers a symbolic index of '" + out->name +
          "' only up to " + std::to_string(kMaxSymbolicElements) +
          " elements (it has " + std::to_string(n) + ")";
    return nullptr;
  }
  // ite(index == 0, y[0], ite(index == 1, y[1], ... y[n - 1])).
  Term acc = nullptr;
  for (uint64_t i = n; i-- > 0;) {
    Term e = singleElement(i, why);
    if (!e)
      return nullptr;
    Term c = copier->copy(e);
    acc = c && acc ? T.ite(T.eq(index, T.bv(i, 64)), c, acc) : c;
    if (!acc) {
      why = infiniteOnSomePaths("'" + out->name + "'");
      return nullptr;
    }
  }
  chainCache[index] = acc;
  return acc;
}

//===----------------------------------------------------------------------===//
// Building: the contract's `spec = {reference = ...}`
//===----------------------------------------------------------------------===//

/// Loads `file` (relative to the contract's file) as PTX or MLIR.
LogicalResult loadReferenceFile(Operation *contract, StringRef file,
                                RefSpec &spec) {
  SmallString<256> path(file);
  if (llvm::sys::path::is_relative(path)) {
    std::string dir;
    contract->getLoc()->walk([&](Location l) {
      if (auto f = dyn_cast<FileLineColLoc>(l)) {
        dir = llvm::sys::path::parent_path(f.getFilename().getValue()).str();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!dir.empty()) {
      path = dir;
      llvm::sys::path::append(path, file);
    }
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return contract->emitError("cannot read reference file '")
           << path << "': " << buffer.getError().message();
  bool isPTX = StringRef(path).ends_with(".ptx") ||
               ptx::looksLikePTX((*buffer)->getBuffer());
  spec.sourceMgr = std::make_unique<llvm::SourceMgr>();
  spec.sourceMgr->AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  MLIRContext *ctx = contract->getContext();
  if (isPTX)
    spec.module = importPTX(*spec.sourceMgr, ctx);
  else if (succeeded(checkBeforeParsing(*spec.sourceMgr, ctx)))
    spec.module = parseSourceFile<ModuleOp>(*spec.sourceMgr, ctx);
  if (!spec.module)
    return contract->emitError("reference file '")
           << path << "' is not valid " << (isPTX ? "PTX" : "MLIR");
  return success();
}

} // namespace

std::unique_ptr<Spec> kproof::engine::buildRefSpec(Operation *contract,
                                                   DictionaryAttr spec,
                                                   const SpecEnvironment &env) {
  auto refAttr = spec.getAs<StringAttr>("reference");
  if (!refAttr) {
    contract->emitError("spec 'reference' must name a kernel (a string)");
    return nullptr;
  }
  StringRef refName = refAttr.getValue();

  // The contract's params, by name and in order.
  std::vector<std::string> contractOrder;
  std::map<std::string, DictionaryAttr> contractParams;
  if (auto c = dyn_cast<ContractOp>(contract))
    for (Attribute a : c.getParams()) {
      auto d = cast<DictionaryAttr>(a);
      std::string name = d.getAs<StringAttr>("name").getValue().str();
      contractOrder.push_back(name);
      contractParams[name] = d;
    }
  std::vector<std::string> names;
  if (Attribute p = spec.get("params")) {
    auto list = dyn_cast<ArrayAttr>(p);
    if (!list) {
      contract->emitError("spec 'params' must be a list of param names");
      return nullptr;
    }
    for (Attribute a : list) {
      auto s = dyn_cast<StringAttr>(a);
      if (!s) {
        contract->emitError("spec 'params' must be a list of param names");
        return nullptr;
      }
      names.push_back(s.getValue().str());
    }
  } else {
    names = contractOrder;
  }

  auto outName = spec.getAs<StringAttr>("output");
  auto outIt = outName ? env.buffers.find(outName.getValue().str())
                       : env.buffers.end();
  if (outIt == env.buffers.end()) {
    contract->emitError("spec output ")
        << (outName ? "'" + outName.getValue().str() + "'" : "")
        << " is not a buffer param of the contract";
    return nullptr;
  }
  const BufferBinding *out = outIt->second;

  LaunchConfig launch;
  for (auto [key, dims] : {std::pair{"grid", launch.grid},
                           std::pair{"block", launch.block}}) {
    Attribute a = spec.get(key);
    if (!a)
      continue;
    auto arr = dyn_cast<DenseI64ArrayAttr>(a);
    if (!arr || arr.size() != 3 ||
        llvm::any_of(arr.asArrayRef(), [](int64_t d) { return d < 1; })) {
      contract->emitError("spec '")
          << key << "' must be array<i64: x, y, z> with each entry >= 1";
      return nullptr;
    }
    for (int d = 0; d < 3; ++d)
      dims[d] = arr[d];
  }

  auto result = std::make_unique<RefSpec>(refName.str(), names, out, launch,
                                          env.mergeStates);
  ModuleOp module = contract->getParentOfType<ModuleOp>();
  std::string where = "the contract's module";
  if (Attribute f = spec.get("file")) {
    auto file = dyn_cast<StringAttr>(f);
    if (!file) {
      contract->emitError("spec 'file' must be a file name (a string)");
      return nullptr;
    }
    if (failed(loadReferenceFile(contract, file.getValue(), *result)))
      return nullptr;
    module = *result->module;
    where = "'" + file.getValue().str() + "'";
  }
  KernelOp kernel = module ? lookupKernel(module, refName) : KernelOp();
  if (!kernel || !kernel.isEntry() || kernel.getBody().empty()) {
    contract->emitError("no reference kernel (.entry with a body) named '")
        << refName << "' in " << where;
    return nullptr;
  }

  ArrayRef<Type> args = kernel.getArgumentTypes();
  if (args.size() != names.size()) {
    contract->emitError("reference kernel '")
        << kernel.getSymName() << "' has " << args.size()
        << " parameter(s) but the spec binds " << names.size();
    return nullptr;
  }
  std::vector<std::optional<BufferBinding>> buffers;
  std::vector<Term> scalars;
  // Scalars are constants or variables of the checker's context: the same
  // ones, by value and name, in the reference's context.
  TermCopier toPrivate(result->terms(), {}, /*renameFresh=*/false);
  std::set<std::string> seen;
  bool takesOutput = false;
  for (auto [i, name] : llvm::enumerate(names)) {
    auto it = contractParams.find(name);
    if (it == contractParams.end()) {
      contract->emitError("reference param #")
          << i << " '" << name << "' is not a param of the contract";
      return nullptr;
    }
    if (!seen.insert(name).second) {
      contract->emitError("reference param '")
          << name << "' is bound twice (buffers do not alias)";
      return nullptr;
    }
    Type argType = args[i];
    if (auto b = env.buffers.find(name); b != env.buffers.end()) {
      if (!argType.isInteger(64) && !argType.isInteger(32)) {
        contract->emitError("reference param #")
            << i << " '" << name
            << "' is a buffer, but reference kernel parameter #" << i
            << " has type " << argType << ", not an address";
        return nullptr;
      }
      takesOutput |= b->second == out;
      buffers.push_back(*b->second);
      scalars.push_back(nullptr);
      continue;
    }
    Type t = it->second.getAs<TypeAttr>("scalar").getValue();
    bool compatible =
        t == argType ||
        (isa<IntegerType>(t) && isa<IntegerType>(argType) &&
         t.getIntOrFloatBitWidth() == argType.getIntOrFloatBitWidth());
    auto s = env.scalars.find(name);
    if (!compatible || s == env.scalars.end()) {
      contract->emitError("reference param #")
          << i << " '" << name << "' has type " << t
          << " but reference kernel parameter #" << i << " has type "
          << argType;
      return nullptr;
    }
    buffers.push_back(std::nullopt);
    scalars.push_back(toPrivate.copy(s->second));
  }
  if (!takesOutput) {
    contract->emitError("reference kernel '")
        << kernel.getSymName() << "' does not take the output buffer '"
        << out->name << "'";
    return nullptr;
  }
  if (failed(result->lower(contract, kernel, buffers, scalars)))
    return nullptr;
  return result;
}

/// Reads `t` (a BV index term) as sum(coeff * thread variable) + constant
/// over tid.* / ctaid.*; false for anything else. It only proposes a
/// witness: RefSpec proves the witness with Z3 in the exact BV semantics.
bool kproof::engine::readLinearForm(Term t, int64_t scale,
                                    std::map<std::string, int64_t> &coeffs,
                                    int64_t &constant, bool splitIds) {
  auto recurse = [&](Term u, int64_t k) {
    return readLinearForm(u, k, coeffs, constant, splitIds);
  };
  auto isThreadVar = [](Term u) {
    return u->getKind() == Kind::BVVar &&
           (u->getName().starts_with("tid.") ||
            u->getName().starts_with("ctaid."));
  };
  switch (t->getKind()) {
  case Kind::BVAnd:
    // tid.x & (2^j - 1): the pseudo-variable "tid.x%2^j".
    for (int k = 0; splitIds && k < 2; ++k) {
      Term m = t->getOperand(k), x = t->getOperand(1 - k);
      if (m->getKind() != Kind::BVConst || !isThreadVar(x))
        continue;
      const llvm::APInt &c = m->getAPInt();
      if (!(c + 1).isPowerOf2() || c.getActiveBits() > 31)
        continue;
      coeffs[x->getName().str() + "%" +
             std::to_string(c.getZExtValue() + 1)] += scale;
      return true;
    }
    return false;
  case Kind::BVURem: {
    // tid.x % 2^j: the pseudo-variable "tid.x%2^j".
    Term x = t->getOperand(0), m = t->getOperand(1);
    if (!splitIds || !isThreadVar(x) || m->getKind() != Kind::BVConst ||
        !m->getAPInt().isPowerOf2() || m->getAPInt().getActiveBits() > 31)
      return false;
    coeffs[x->getName().str() + "%" +
           std::to_string(m->getAPInt().getZExtValue())] += scale;
    return true;
  }
  case Kind::BVLShr: {
    // tid.x >> j: the pseudo-variable "tid.x/2^j".
    Term x = t->getOperand(0), j = t->getOperand(1);
    if (!splitIds || j->getKind() != Kind::BVConst ||
        j->getAPInt().getZExtValue() >= 31 || j->getAPInt().getZExtValue() == 0)
      return false;
    int64_t d = int64_t(1) << j->getAPInt().getZExtValue();
    if (isThreadVar(x)) {
      coeffs[x->getName().str() + "/" + std::to_string(d)] += scale;
      return true;
    }
    // (d * A + X) >> j with one thread id X of coefficient 1:
    // A + "X/d" (the global warp index (ctaid.x * ntid.x + tid.x) >> 5).
    std::map<std::string, int64_t> inner;
    int64_t c = 0;
    if (!readLinearForm(x, 1, inner, c, splitIds) || c % d)
      return false;
    bool split = false;
    for (auto &[var, k] : inner) {
      if (k % d == 0) {
        coeffs[var] += scale * (k / d);
        continue;
      }
      if (k != 1 || split ||
          StringRef(var).find_first_of("%/") != StringRef::npos)
        return false;
      coeffs[var + "/" + std::to_string(d)] += scale;
      split = true;
    }
    constant += scale * (c / d);
    return true;
  }
  case Kind::BVAdd:
    return recurse(t->getOperand(0), scale) &&
           recurse(t->getOperand(1), scale);
  case Kind::BVMul:
    for (int k = 0; k < 2; ++k)
      if (t->getOperand(k)->getKind() == Kind::BVConst)
        return recurse(t->getOperand(1 - k),
                       scale * t->getOperand(k)->getAPInt().getSExtValue());
    return false;
  case Kind::BVShl:
    if (t->getOperand(1)->getKind() != Kind::BVConst ||
        t->getOperand(1)->getAPInt().getZExtValue() > 32)
      return false;
    return recurse(t->getOperand(0),
                   scale << t->getOperand(1)->getAPInt().getZExtValue());
  case Kind::BVZExt:
  case Kind::BVSExt:
    return recurse(t->getOperand(0), scale);
  case Kind::BVUDiv: {
    if (t->getOperand(1)->getKind() != Kind::BVConst)
      return false;
    int64_t d = t->getOperand(1)->getAPInt().getSExtValue();
    // tid.x / 2^j: the pseudo-variable "tid.x/2^j".
    if (splitIds && isThreadVar(t->getOperand(0)) && d > 1 &&
        llvm::isPowerOf2_64(uint64_t(d))) {
      coeffs[t->getOperand(0)->getName().str() + "/" + std::to_string(d)] +=
          scale;
      return true;
    }
    std::map<std::string, int64_t> inner;
    int64_t c = 0;
    if (d <= 0 || !readLinearForm(t->getOperand(0), 1, inner, c, splitIds) || c % d)
      return false;
    for (auto &[var, k] : inner) {
      if (k % d)
        return false;
      coeffs[var] += scale * (k / d);
    }
    constant += scale * (c / d);
    return true;
  }
  case Kind::BVConst:
    constant += scale * t->getAPInt().getSExtValue();
    return true;
  case Kind::BVVar:
    if (t->getName().starts_with("tid.") ||
        t->getName().starts_with("ctaid.")) {
      coeffs[t->getName().str()] += scale;
      return true;
    }
    return false;
  default:
    return false;
  }
}
