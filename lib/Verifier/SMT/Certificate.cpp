//===- Certificate.cpp - re-checkable proof certificates ------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// One certificate per proved obligation (docs/design-notes.md "Certificates
// restate the goal"): the negated goal and the ground facts the proof relies
// on, lowered by the same Z3Lowering as the solver's queries and printed by
// toSMTLIB2Benchmark, so that the file is what the engine would hand to Z3,
// plus the facts that the normalizer used implicitly:
//
//  - "exp_split_k": a ground instance of the rule of exponents for every
//    exp/exp2 term t = exp(a) whose argument the normalizer decomposes
//    into L = c0 + sum c_k m_k (integer c_k):
//      a = L  =>  t * prod_{c_k < 0} exp(m_k)^-c_k
//                 = exp(c0) * prod_{c_k > 0} exp(m_k)^c_k
//    an instance of the rule for any reals (no division; the guard is
//    left out when a is L as written, and is otherwise plain arithmetic
//    for the solver), so that the fact does not trust the normalizer.
//  - "exp_branch_k": exp pushed through max/min/ite (as the solver's
//    queries do, Query::addBranchFacts); solver proofs only.
//  - the atom facts of Z3Lowering::atomFacts() (positivity, monotonicity,
//    injectivity, function congruence, ...); for a normalizer proof only
//    the positivity of the exponentials ("exp_pos!k"), which is all the
//    normalizer uses (negative powers, cancelled exp factors).
//  - "divisor_nonzero_k": the divisor of every division in the goal is
//    non-zero; each is the claim of its own obligation ("non-zero ..." for
//    the kernel, "spec defined (...)" for the spec). Division is total in
//    SMT, so without these the normalizer's cancellations are not valid.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Certificate.h"

#include "KProof/Verifier/SMT/Z3Lowering.h"
#include "KProof/Verifier/SMT/Z3Solver.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace kproof;
using namespace kproof::engine;

CertificateWriter::CertificateWriter(std::string directory, TermContext &terms,
                                     Normalizer &normalizer)
    : directory(std::move(directory)), terms(terms), normalizer(normalizer) {}

/// The obligation name as a file name: [A-Za-z0-9_.-] only, bounded length.
static std::string sanitize(llvm::StringRef name) {
  std::string out;
  for (char c : name) {
    if (out.size() >= 96)
      break;
    out += (llvm::isAlnum(c) || c == '_' || c == '.' || c == '-') ? c : '_';
  }
  if (out.empty())
    out = "obligation";
  return out;
}

/// `s` on one line (for a comment).
static std::string oneLine(llvm::StringRef s) {
  std::string out = s.str();
  for (char &c : out)
    if (c == '\n' || c == '\r')
      c = ' ';
  return out;
}

/// A product of factors (1 when empty).
static Term product(TermContext &T, llvm::ArrayRef<Term> factors) {
  if (factors.empty())
    return T.real(1);
  if (factors.size() == 1)
    return factors.front();
  return T.mul(factors);
}

namespace {
/// The facts of one certificate, collected by a walk over the goal and,
/// to a fixpoint, over the facts themselves (a split or branch fact
/// introduces exponentials that may need facts of their own).
struct FactCollector {
  TermContext &T;
  Normalizer &N;
  std::vector<std::pair<std::string, Term>> facts;
  /// Whether the proof used the solver's facts (exp through branches);
  /// a normalizer proof uses only the rule of exponents.
  bool branchFacts = true;
  unsigned splits = 0, branches = 0, divisors = 0;
  llvm::DenseSet<Term> seen;
  llvm::DenseSet<Term> seenDivisors;
  /// Divisors that are the constant 0 (their obligation cannot hold; no
  /// fact is assumed for them).
  unsigned zeroDivisors = 0;

  Term mkExp(Kind kind, Term a) {
    return kind == Kind::Exp ? T.exp(a) : T.exp2(a);
  }

  void addFact(std::string name, Term fact,
               llvm::SmallVectorImpl<Term> &work) {
    if (!fact || (fact->getKind() == Kind::BoolConst && fact->getBoolValue()))
      return;
    facts.push_back({std::move(name), fact});
    work.push_back(fact);
  }

  /// The rule of exponents, as the normalizer applied it to t = exp(a):
  /// with L = c0 + sum c_k m_k the normal form of a,
  ///   a = L  =>  t * prod_{c_k < 0} exp(m_k)^-c_k
  ///              = exp(c0) * prod_{c_k > 0} exp(m_k)^c_k
  /// which holds for all reals (congruence and exp(u + v) = exp(u) exp(v));
  /// the guard vanishes when a is L as written, and otherwise is
  /// arithmetic the solver checks (with the divisor facts).
  Term splitFact(Term t) {
    Term a = t->getOperand(0);
    RationalFunction arg = N.normalize(a);
    std::optional<Rational> den = arg.den.asConstant();
    if (!den || den->isZero())
      return nullptr; // one atom exp(arg): nothing split
    RationalFunction f = N.normalize(t);
    if (f.den.asConstant() != std::optional<Rational>(Rational(1)) ||
        f.num.size() != 1)
      return nullptr; // not the shape expOf produces
    const auto &[mono, coeff] = *f.num.getTerms().begin();
    if (mono.size() == 1 && mono.front().first == t &&
        mono.front().second == 1 && coeff.isOne())
      return nullptr; // t is its own normal form
    Term L = N.toTerm(arg);
    if (!L)
      return nullptr;
    llvm::SmallVector<Term, 8> left{t}, right{T.real(coeff)};
    for (const auto &[atom, power] : mono)
      for (int i = 0; i < (power > 0 ? power : -power); ++i)
        (power > 0 ? right : left).push_back(atom);
    Term rule = T.eq(product(T, left), product(T, right));
    return T.implies(T.eq(a, L), rule);
  }

  /// exp(max(a, b)) = ite(b <= a, exp(a), exp(b)), min and ite alike.
  Term branchFact(Term t) {
    Term x = t->getOperand(0);
    Kind kind = t->getKind();
    if (x->getKind() == Kind::Max)
      return T.eq(t, T.ite(T.realLe(x->getOperand(1), x->getOperand(0)),
                           mkExp(kind, x->getOperand(0)),
                           mkExp(kind, x->getOperand(1))));
    if (x->getKind() == Kind::Min)
      return T.eq(t, T.ite(T.realLe(x->getOperand(0), x->getOperand(1)),
                           mkExp(kind, x->getOperand(0)),
                           mkExp(kind, x->getOperand(1))));
    if (x->getKind() == Kind::Ite)
      return T.eq(t, T.ite(x->getOperand(0), mkExp(kind, x->getOperand(1)),
                           mkExp(kind, x->getOperand(2))));
    return nullptr;
  }

  /// Walks `root`; divisions count as divisor facts only when `fromGoal`.
  void walk(Term root, bool fromGoal, llvm::SmallVectorImpl<Term> &next) {
    llvm::SmallVector<Term, 64> work{root};
    while (!work.empty()) {
      Term t = work.pop_back_val();
      if (!seen.insert(t).second)
        continue;
      for (Term o : llvm::reverse(t->getOperands()))
        work.push_back(o);
      if (t->getKind() == Kind::Div && fromGoal) {
        Term d = t->getOperand(1);
        if (!seenDivisors.insert(d).second)
          continue;
        if (d->isRealConst() && d->getRational().isZero()) {
          ++zeroDivisors;
          continue;
        }
        addFact("divisor_nonzero_" + std::to_string(divisors++),
                T.notOf(T.eq(d, T.real(0))), next);
        continue;
      }
      if (t->getKind() != Kind::Exp && t->getKind() != Kind::Exp2)
        continue;
      if (Term s = splitFact(t))
        addFact("exp_split_" + std::to_string(splits++), s, next);
      if (!branchFacts)
        continue;
      if (Term b = branchFact(t))
        addFact("exp_branch_" + std::to_string(branches++), b, next);
    }
  }

  void collect(Term goal) {
    llvm::SmallVector<Term, 16> next;
    walk(goal, /*fromGoal=*/true, next);
    // Facts introduce new exponentials (the split atoms, the branch arms):
    // give them their facts too, until nothing new appears.
    while (!next.empty()) {
      llvm::SmallVector<Term, 16> round;
      round.swap(next);
      for (Term f : round)
        walk(f, /*fromGoal=*/false, next);
    }
  }
};
} // namespace

/// Every variable and buffer name of `root` (symbols of the benchmark).
static std::set<std::string> symbolNames(Term root) {
  std::set<std::string> names;
  for (Term t : subterms({root})) {
    switch (t->getKind()) {
    case Kind::RealVar:
    case Kind::BVVar:
    case Kind::BoolVar:
    case Kind::Select:
      names.insert(t->getName().str());
      break;
    default:
      break;
    }
  }
  return names;
}

bool CertificateWriter::write(const std::string &name, Term negatedGoal,
                              llvm::StringRef how) {
  error.clear();
  if (!negatedGoal || negatedGoal->getSort() != Sort::Bool) {
    error = "the negated goal is not a Bool term";
    return false;
  }

  // A normalizer proof uses the rule of exponents, the positivity of the
  // exponentials (negative powers, cancellations) and the non-zero
  // divisors, nothing else: its certificate asserts only those (the
  // solver's case splits on max/min would only slow a re-check down). A
  // solver proof gets every fact its query had.
  bool solverProof = how.starts_with("z3");
  FactCollector collector{terms, normalizer};
  collector.branchFacts = solverProof;
  collector.collect(negatedGoal);

  // Lower everything into one context, then add the atom facts of every
  // atom lowered (the goal's and the facts').
  smt::Context z3;
  Z3Lowering lowering(z3, terms);
  std::vector<std::pair<std::string, smt::Expr>> named;
  smt::Expr goal = lowering.lower(negatedGoal);
  if (!goal.isValid()) {
    error = "cannot lower the goal: " + lowering.getError();
    return false;
  }
  named.push_back({"goal", goal});
  for (const auto &[factName, fact] : collector.facts) {
    smt::Expr e = lowering.lower(fact);
    if (!e.isValid()) {
      error = "cannot lower fact " + factName + ": " + lowering.getError();
      return false;
    }
    named.push_back({factName, e});
  }
  std::vector<NamedFact> atomFacts = lowering.atomFacts();
  if (lowering.hasError()) {
    error = "atom facts: " + lowering.getError();
    return false;
  }
  if (!solverProof)
    llvm::erase_if(atomFacts, [](const NamedFact &f) {
      llvm::StringRef n = f.first;
      return !n.starts_with("exp_pos!") && !n.starts_with("exp2_pos!");
    });
  named.insert(named.end(), atomFacts.begin(), atomFacts.end());

  // A named assertion defines a symbol: it must not shadow a variable.
  std::set<std::string> symbols = symbolNames(negatedGoal);
  for (const auto &[factName, fact] : collector.facts) {
    std::set<std::string> more = symbolNames(fact);
    symbols.insert(more.begin(), more.end());
  }
  for (const auto &[factName, fact] : named)
    if (symbols.count(factName)) {
      error = "assertion name '" + factName + "' is also a variable name";
      return false;
    }

  std::string comment;
  llvm::raw_string_ostream cs(comment);
  cs << "kproof proof certificate\n"
     << "obligation: " << oneLine(name) << "\n"
     << "proved by: " << oneLine(how) << "\n"
     << "expected: unsat\n"
     << "exp/exp2 atoms (exp!k, exp2!k) and named real functions (<fn>!k) "
        "are uninterpreted constants,\n"
     << "constrained only by the named facts below:\n"
     << "  goal: the negation of the obligation\n";
  if (collector.splits)
    cs << "  exp_split_k: ground instances of exp(a + b) = exp(a) * exp(b) "
          "(the normalizer's rewrites)\n";
  if (collector.branches)
    cs << "  exp_branch_k: exp pushed through max/min/ite\n";
  if (!atomFacts.empty() && solverProof)
    cs << "  exp_pos!a, exp_mono!a!b, ...: ground facts of the atoms "
          "(Z3Lowering::atomFacts)\n";
  else if (!atomFacts.empty())
    cs << "  exp_pos!a: the exponentials are positive (the only atom facts "
          "a normalizer proof uses)\n";
  if (collector.divisors)
    cs << "  divisor_nonzero_k: a divisor of the goal is non-zero; each is "
          "proved by its own obligation\n"
       << "    ('non-zero ...' for the kernel, 'spec defined (...)' for the "
          "spec)\n";
  if (collector.zeroDivisors)
    cs << "  note: " << collector.zeroDivisors
       << " division(s) by the constant 0 (no fact assumed)\n";
  cs.flush();
  while (!comment.empty() && comment.back() == '\n')
    comment.pop_back();

  smt::BenchmarkOptions options;
  options.logic = "ALL";
  options.status = "unsat";
  options.comment = comment;
  std::string text = smt::toSMTLIB2Benchmark(named, {}, options);
  if (text.empty() || z3.hasError()) {
    error = "cannot print the benchmark: " +
            (z3.hasError() ? z3.getError() : std::string("empty output"));
    return false;
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
    error = "cannot create directory '" + directory + "': " + ec.message();
    return false;
  }
  size_t certificates = 0;
  for (const std::string &f : files)
    certificates += llvm::StringRef(f).ends_with(".smt2");
  char index[32];
  snprintf(index, sizeof(index), "%03zu", certificates + 1);
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, std::string(index) + "-" + sanitize(name) +
                                    ".smt2");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      error = "cannot write '" + path.str().str() + "': " + ec.message();
      return false;
    }
    os << text;
    os.close();
    if (os.has_error()) {
      error = "cannot write '" + path.str().str() + "': " +
              os.error().message();
      os.clear_error();
      return false;
    }
  }
  files.push_back(path.str().str());

  // Z3's own proof object, from a separate proof-producing context (proof
  // generation changes Z3's tactics, so never in the engine's context).
  // Skipped, not an error, when Z3 gives none within the default rlimit.
  if (how.starts_with("z3")) {
    if (std::optional<std::string> proof = smt::proveUnsatWithProof(text)) {
      llvm::SmallString<256> proofPath(path);
      llvm::sys::path::replace_extension(proofPath, "proof");
      std::error_code ec;
      llvm::raw_fd_ostream os(proofPath, ec, llvm::sys::fs::OF_Text);
      if (ec) {
        error = "cannot write '" + proofPath.str().str() + "': " +
                ec.message();
        return false;
      }
      os << "; Z3 proof object of " << llvm::sys::path::filename(path)
         << " (obligation: " << name << ")\n"
         << *proof << "\n";
      os.close();
      if (os.has_error()) {
        error = "cannot write '" + proofPath.str().str() + "': " +
                os.error().message();
        os.clear_error();
        return false;
      }
      files.push_back(proofPath.str().str());
    }
  }
  return true;
}
