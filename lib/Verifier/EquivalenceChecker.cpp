//===- EquivalenceChecker.cpp - kernel == spec, or a counterexample -------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/EquivalenceChecker.h"

#include "KProof/Verifier/Evaluate.h"
#include "KProof/Verifier/Executor.h"
#include "KProof/Verifier/Normalizer.h"
#include "KProof/Verifier/Z3Lowering.h"
#include "KProof/Verifier/Z3Solver.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::kproof;
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

static std::string locString(Location loc) {
  std::string s;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      if (s.empty())
        s = (f.getFilename().getValue() + ":" + Twine(f.getLine()) + ":" +
             Twine(f.getColumn()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return s.empty() ? "<unknown location>" : s;
}

void Verdict::print(llvm::raw_ostream &os) const {
  os << "kproof: " << kernelName << " against " << specDescription
     << " (mode reals)\n";
  for (const std::string &a : assumptions)
    os << "  assuming: " << a << "\n";
  for (const std::string &i : idioms)
    os << "  idiom: " << i << "\n";
  for (const std::string &w : warnings)
    os << "  warning: " << w << "\n";
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
    for (auto &[name, v] : c.inputs.reals)
      if (name.find('#') == std::string::npos)
        os << "  " << name << " = " << v.toString() << "\n";
    for (auto &[name, v] : c.inputs.bitvectors)
      if (name.find('#') == std::string::npos)
        os << "  " << name << " = " << v.getZExtValue() << "\n";
    os << "\nKernel value: " << c.kernelValue << "\n";
    os << "Spec value:   " << c.specValue << "\n";
    os << "(values with the true exp, MPFR interval arithmetic; they "
          "differ)\n";
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
    for (auto &[name, v] : counterexample->inputs.bitvectors)
      if (name.find('#') == std::string::npos)
        inputs[name] = std::to_string(v.getZExtValue());
    root["counterexample"] = llvm::json::Object{
        {"property", counterexample->property},
        {"location", counterexample->location},
        {"inputs", std::move(inputs)},
        {"kernel_value", counterexample->kernelValue},
        {"spec_value", counterexample->specValue}};
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

//===----------------------------------------------------------------------===//
// Spec lowering
//===----------------------------------------------------------------------===//

namespace {

/// The element-wise meaning of a built-in spec (DESIGN.md §5): the term of
/// each output element, over the same input element terms the executor
/// reads, never a materialized tensor.
struct SpecLowering {
  std::string builtin;
  const BufferBinding *input = nullptr;
  const BufferBinding *output = nullptr;

  std::string describe() const {
    return builtin + "(" + input->name + ") -> " + output->name;
  }

  Term in(TermContext &T, uint64_t i) const {
    if (isa<FloatType>(input->elemType))
      return T.element(input->name, T.bv(i, 64));
    return T.bvVar(input->name + "[" + std::to_string(i) + "]",
                   input->elemType.getIntOrFloatBitWidth());
  }

  /// Output element `index` (row-major); null if not defined.
  Term element(TermContext &T, uint64_t index) const {
    uint64_t cols = input->shape.back();
    if (builtin == "copy")
      return in(T, index);
    if (builtin == "softmax") {
      uint64_t row = index / cols, col = index % cols;
      Term m = in(T, row * cols);
      for (uint64_t j = 1; j < cols; ++j)
        m = T.max(m, in(T, row * cols + j));
      SmallVector<Term> terms;
      for (uint64_t j = 0; j < cols; ++j)
        terms.push_back(T.exp(T.sub(in(T, row * cols + j), m)));
      return T.div(T.exp(T.sub(in(T, row * cols + col), m)), T.add(terms));
    }
    if (builtin == "sum" || builtin == "max") {
      Term acc = in(T, index * cols);
      for (uint64_t j = 1; j < cols; ++j)
        acc = builtin == "sum" ? T.add(acc, in(T, index * cols + j))
                               : T.max(acc, in(T, index * cols + j));
      return acc;
    }
    return nullptr;
  }
};

/// One Z3 query over terms, with the ground facts every exp atom needs.
struct Query {
  TermContext &T;
  const CheckerOptions &options;
  SmallVector<Term> assertions;

  /// exp(max(a, b)) = ite(b <= a, exp(a), exp(b)) (and min, ite alike):
  /// exp pushed through the branch, as ground facts for every such atom.
  void addBranchFacts() {
    llvm::DenseSet<Term> seen;
    SmallVector<Term> work(assertions.begin(), assertions.end());
    SmallVector<Term> facts;
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (!seen.insert(t).second)
        continue;
      for (Term o : t->getOperands())
        work.push_back(o);
      if (t->getKind() != Kind::Exp && t->getKind() != Kind::Exp2)
        continue;
      Term x = t->getOperand(0);
      auto mk = [&](Term a) {
        return t->getKind() == Kind::Exp ? T.exp(a) : T.exp2(a);
      };
      Term fact = nullptr;
      if (x->getKind() == Kind::Max)
        fact = T.eq(t, T.ite(T.realLe(x->getOperand(1), x->getOperand(0)),
                             mk(x->getOperand(0)), mk(x->getOperand(1))));
      else if (x->getKind() == Kind::Min)
        fact = T.eq(t, T.ite(T.realLe(x->getOperand(0), x->getOperand(1)),
                             mk(x->getOperand(0)), mk(x->getOperand(1))));
      else if (x->getKind() == Kind::Ite)
        fact = T.eq(t, T.ite(x->getOperand(0), mk(x->getOperand(1)),
                             mk(x->getOperand(2))));
      if (fact) {
        facts.push_back(fact);
        work.push_back(fact);
      }
    }
    assertions.append(facts.begin(), facts.end());
  }

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
  };

  /// Checks the conjunction; on sat returns the model. `extra` are
  /// additional constraints (model blocking, shrinking).
  Outcome check(ArrayRef<Term> extra = {}) {
    smt::SolverOptions so;
    so.rlimit = options.rlimit;
    smt::Context z3(so);
    Z3Lowering lowering(z3, T);
    smt::Solver solver(z3);
    for (Term a : assertions) {
      smt::Expr e = lowering.lower(a);
      if (!e.isValid())
        return {smt::CheckResult::Error, std::nullopt,
                "cannot lower to Z3: " + lowering.getError()};
      solver.add(e);
    }
    for (Term a : extra) {
      smt::Expr e = lowering.lower(a);
      if (!e.isValid())
        return {smt::CheckResult::Error, std::nullopt,
                "cannot lower to Z3: " + lowering.getError()};
      solver.add(e);
    }
    for (auto &[name, fact] : lowering.atomFacts())
      solver.add(fact);
    smt::CheckResult r = solver.check();
    if (r != smt::CheckResult::Sat)
      return {r, std::nullopt, solver.getReason()};
    std::optional<Assignment> m = lowering.extractModel(solver.getModel());
    if (!m)
      return {r, std::nullopt,
              "model not exact: " + lowering.getModelError()};
    return {r, std::move(m), ""};
  }
};

class Checker {
public:
  Checker(ModuleOp module, ContractOp contract, const CheckerOptions &options)
      : module(module), contract(contract), options(options), N(T) {}

  std::optional<Verdict> run();

private:
  ModuleOp module;
  ContractOp contract;
  const CheckerOptions &options;
  TermContext T;
  Normalizer N;
  Verdict verdict;
  std::vector<std::optional<BufferBinding>> buffers;
  std::vector<Term> scalars;

  LogicalResult bindParams(KernelOp kernel);
  void record(std::string name, VerdictKind k, std::string how) {
    verdict.obligations.push_back({std::move(name), k, std::move(how)});
  }
  /// Proves `pc => lhs == rhs` or finds a confirmed counterexample.
  void checkValue(const std::string &name, Term pc, Term lhs, Term rhs,
                  Location loc);
  /// Proves `pc => !bad` for a Bool `bad` (a violation), or refutes it.
  void checkNever(const std::string &name, Term pc, Term bad, Location loc,
                  Term witnessA = nullptr, Term witnessB = nullptr);
};

LogicalResult Checker::bindParams(KernelOp kernel) {
  ArrayRef<Type> args = kernel.getArgumentTypes();
  ArrayAttr params = contract.getParams();
  if (args.size() != params.size())
    return contract.emitError("kernel '")
           << kernel.getSymName() << "' has " << args.size()
           << " parameter(s) but the contract binds " << params.size();
  for (auto [i, a] : llvm::enumerate(params)) {
    auto d = cast<DictionaryAttr>(a);
    std::string name = d.getAs<StringAttr>("name").getValue().str();
    Type argType = args[i];
    if (auto role = d.getAs<StringAttr>("buffer")) {
      if (!argType.isInteger(64) && !argType.isInteger(32))
        return contract.emitError("param #")
               << i << " '" << name << "' is a buffer, but kernel parameter #"
               << i << " has type " << argType << ", not an address";
      BufferBinding b;
      b.name = name;
      b.role = role.getValue() == "in"    ? BufferBinding::Role::In
               : role.getValue() == "out" ? BufferBinding::Role::Out
                                          : BufferBinding::Role::InOut;
      b.elemType = d.getAs<TypeAttr>("type").getValue();
      for (int64_t e : d.getAs<DenseI64ArrayAttr>("shape").asArrayRef())
        b.shape.push_back(e);
      buffers.push_back(b);
      scalars.push_back(nullptr);
      continue;
    }
    Type t = d.getAs<TypeAttr>("scalar").getValue();
    bool compatible = t == argType || (isa<IntegerType>(t) &&
                                       isa<IntegerType>(argType) &&
                                       t.getIntOrFloatBitWidth() ==
                                           argType.getIntOrFloatBitWidth());
    if (!compatible)
      return contract.emitError("param #")
             << i << " '" << name << "' has type " << t
             << " but kernel parameter #" << i << " has type " << argType;
    Term v;
    if (Attribute value = d.get("value")) {
      if (auto ia = dyn_cast<IntegerAttr>(value))
        v = T.bv(ia.getValue());
      else if (auto fa = dyn_cast<FloatAttr>(value))
        v = T.real(*Rational::fromAPFloat(fa.getValue()));
    } else {
      v = isa<FloatType>(t) ? T.realVar(name)
                            : T.bvVar(name, t.getIntOrFloatBitWidth());
    }
    buffers.push_back(std::nullopt);
    scalars.push_back(v);
  }
  return success();
}

void Checker::checkValue(const std::string &name, Term pc, Term lhs, Term rhs,
                         Location loc) {
  if (N.provesEqual(lhs, rhs)) {
    record(name, VerdictKind::Proved, "normalizer");
    return;
  }
  // Residue to Z3: normalized forms (exp of sums split into products).
  Term nl = N.toTerm(N.normalize(lhs)), nr = N.toTerm(N.normalize(rhs));
  Query q{T, options, {pc, T.notOf(T.eq(nl, nr))}};
  q.addBranchFacts();
  SmallVector<Term> vars = q.inputVars();
  SmallVector<Term> blocked;
  for (unsigned attempt = 0; attempt < options.maxModels; ++attempt) {
    // Shrinking: first look for a model over small integers.
    SmallVector<Term> extra(blocked.begin(), blocked.end());
    bool shrinking = attempt == 0 && vars.size() <= 16;
    if (shrinking)
      for (Term v : vars) {
        SmallVector<Term> choices;
        for (int k = -2; k <= 2; ++k)
          choices.push_back(T.eq(v, T.real(k)));
        extra.push_back(T.orOf(choices));
      }
    Query::Outcome out = q.check(extra);
    if (out.result == smt::CheckResult::Unsat && shrinking)
      continue; // no small model; search the whole space
    if (out.result == smt::CheckResult::Unsat) {
      record(name, VerdictKind::Proved, "z3 (unsat)");
      return;
    }
    if (out.result != smt::CheckResult::Sat || !out.model) {
      if (shrinking)
        continue;
      record(name, VerdictKind::Unknown, "solver: " + out.reason);
      return;
    }
    // Confirm with the true functions before calling it a counterexample.
    std::string err;
    std::optional<bool> differ =
        definitelyDiffer(lhs, rhs, *out.model, options.mpfrBits, &err);
    if (differ && *differ) {
      Evaluator ev(*out.model, options.mpfrBits);
      Counterexample c;
      c.property = "value mismatch at " + name.substr(name.find(' ') + 1);
      c.inputs = *out.model;
      std::optional<Interval> kv = ev.real(lhs);
      std::optional<Interval> sv = ev.real(rhs);
      c.kernelValue = kv ? kv->toString(12) : "?";
      c.specValue = sv ? sv->toString(12) : "?";
      c.location = locString(loc);
      if (!verdict.counterexample)
        verdict.counterexample = c;
      record(name, VerdictKind::Refuted, "counterexample confirmed");
      return;
    }
    // Not confirmed: block this model and search again.
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
  record(name, VerdictKind::Unknown,
         "no counterexample confirmed with the true exp");
}

void Checker::checkNever(const std::string &name, Term pc, Term bad,
                         Location loc, Term witnessA, Term witnessB) {
  Term cond = T.andOf(pc, bad);
  if (cond->getKind() == Kind::BoolConst && !cond->getBoolValue()) {
    record(name, VerdictKind::Proved, "normalizer");
    return;
  }
  Query q{T, options, {cond}};
  q.addBranchFacts();
  Query::Outcome out = q.check();
  if (out.result == smt::CheckResult::Unsat) {
    record(name, VerdictKind::Proved, "z3 (unsat)");
    return;
  }
  if (out.result == smt::CheckResult::Sat && out.model) {
    Evaluator ev(*out.model, options.mpfrBits);
    if (ev.boolean(cond) == Truth::True) {
      Counterexample c;
      c.property = name;
      c.inputs = *out.model;
      c.location = locString(loc);
      if (witnessA) {
        std::optional<Interval> a = ev.real(witnessA);
        c.kernelValue = a ? a->toString(12) : "?";
      }
      if (!verdict.counterexample)
        verdict.counterexample = c;
      record(name, VerdictKind::Refuted, "counterexample confirmed");
      return;
    }
    record(name, VerdictKind::Unknown,
           "solver model not confirmed with the true functions");
    return;
  }
  record(name, VerdictKind::Unknown, "solver: " + out.reason);
}

std::optional<Verdict> Checker::run() {
  KernelOp kernel = lookupKernel(module, contract.getKernel());
  if (!kernel || !kernel.isEntry() || kernel.getBody().empty()) {
    contract.emitError("no kernel (.entry with a body) named '")
        << contract.getKernel() << "'";
    return std::nullopt;
  }
  verdict.kernelName = kernel.getSymName().str();
  if (failed(bindParams(kernel)))
    return std::nullopt;

  DictionaryAttr specAttr = contract.getSpec();
  SpecLowering spec;
  spec.builtin = specAttr.getAs<StringAttr>("builtin").getValue().str();
  StringRef inName = specAttr.getAs<StringAttr>("input").getValue();
  StringRef outName = specAttr.getAs<StringAttr>("output").getValue();
  for (const std::optional<BufferBinding> &b : buffers) {
    if (b && b->name == inName)
      spec.input = &*b;
    if (b && b->name == outName)
      spec.output = &*b;
  }
  if (!spec.input || !spec.output) {
    contract.emitError("spec input and output must be buffers");
    return std::nullopt;
  }
  uint64_t rows = spec.input->numElements() / spec.input->shape.back();
  uint64_t expectedOut = (spec.builtin == "sum" || spec.builtin == "max")
                             ? rows
                             : spec.input->numElements();
  if (spec.output->numElements() != expectedOut) {
    contract.emitError("spec shape mismatch: ")
        << spec.builtin << " of '" << inName << "' has " << expectedOut
        << " element(s) but '" << outName << "' has "
        << spec.output->numElements();
    return std::nullopt;
  }
  verdict.specDescription = spec.describe();
  if (std::optional<ArrayAttr> assume = contract.getAssume())
    for (Attribute a : *assume)
      verdict.assumptions.push_back(cast<StringAttr>(a).getValue().str());
  verdict.assumptions.push_back(
      "floats are exact reals; inputs are finite (no NaN or infinity)");

  LaunchConfig launch;
  for (int d = 0; d < 3; ++d) {
    launch.grid[d] = contract.getGrid()[d];
    launch.block[d] = contract.getBlock()[d];
  }

  ExecutionResult ex = execute(kernel, launch, buffers, scalars, T, N);
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

  // Obligations per path.
  for (const PathResult &p : ex.paths) {
    if (p.trapped) {
      checkNever("no trap (kernel aborts)", p.pathCondition, T.boolConst(true),
                 p.trapLoc.value_or(kernel.getLoc()));
      continue;
    }
    for (const std::string &v : p.violations)
      checkNever(v, p.pathCondition, T.boolConst(true), kernel.getLoc());
    auto outIt = p.stores.find(spec.output->name);
    for (uint64_t e = 0; e < spec.output->numElements(); ++e) {
      std::string elemName =
          spec.output->name + "[" + std::to_string(e) + "]";
      const FinalStore *st = nullptr;
      if (outIt != p.stores.end()) {
        auto it = outIt->second.find(e);
        if (it != outIt->second.end())
          st = &it->second;
      }
      if (!st) {
        checkNever("coverage: " + elemName + " is never written",
                   p.pathCondition, T.boolConst(true), kernel.getLoc());
        continue;
      }
      Term specValue = spec.element(T, e);
      if (!specValue) {
        record("value " + elemName, VerdictKind::Unknown,
               "spec does not define this element");
        continue;
      }
      checkValue("value " + elemName, p.pathCondition, st->value, specValue,
                 st->loc);
    }
  }
  for (const DivisorObligation &d : ex.divisors) {
    std::string name = "non-zero " + d.what + " at " + locString(d.loc);
    if (N.provesNonZero(d.divisor)) {
      record(name, VerdictKind::Proved, "normalizer");
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
(::kproof::engine::checkEquivalence)(ModuleOp module, ContractOp contract,
                                     const CheckerOptions &options) {
  Checker checker(module, contract, options);
  return checker.run();
}
