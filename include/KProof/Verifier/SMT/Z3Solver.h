//===- Z3Solver.h - a small wrapper over the Z3 C API -----------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// kproof's only door to Z3. MLIR and LLVM build with -fno-exceptions, which
// silently turns z3++'s error reporting into no-ops, so this wrapper uses the
// Z3 C API with an error handler (as Alive2's smt/ does): every failing call
// is recorded on the context and surfaces as SolverResult::Error, never as a
// crash or a silently wrong answer. Z3 headers do not leak out of this file.
//
// Determinism: every context is created with a fixed random seed, and the
// default resource bound is Z3's rlimit (a count of solver steps), so a
// verdict does not depend on the speed of the machine. A wall-clock timeout
// is available only as an outer guard.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_SMT_Z3SOLVER_H
#define KPROOF_VERIFIER_SMT_Z3SOLVER_H

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

typedef struct _Z3_context *Z3_context;
typedef struct _Z3_ast *Z3_ast;
typedef struct _Z3_sort *Z3_sort;
typedef struct _Z3_func_decl *Z3_func_decl;

namespace kproof::smt {

class Context;
class Sort;

/// Solver settings. `rlimit` is Z3's resource limit (0 = unlimited);
/// `timeoutMs` is the wall-clock guard in milliseconds (0 = none).
struct SolverOptions {
  uint64_t rlimit = 20'000'000;
  unsigned timeoutMs = 0;
  unsigned seed = 0;
};

/// A Z3 term (Bool, Real, Int or bit-vector sort), reference-counted. A
/// default-constructed Expr is invalid; operations on an invalid Expr give an
/// invalid Expr, and an API error leaves the context in an error state.
class Expr {
public:
  Expr() = default;
  Expr(const Expr &other);
  Expr &operator=(const Expr &other);
  Expr(Expr &&other) noexcept;
  Expr &operator=(Expr &&other) noexcept;
  ~Expr();

  bool isValid() const { return ast != nullptr; }
  Context *getContext() const { return ctx; }
  Z3_ast getAST() const { return ast; }
  /// The term in SMT-LIB2 syntax (shared subterms let-bound as `a!k`).
  std::string toString() const;

  bool isBool() const;
  bool isReal() const;
  bool isInt() const;
  bool isBV() const;
  /// The width of a bit-vector term; 0 otherwise.
  unsigned getBVWidth() const;

  // Arithmetic on Real/Int terms and modular arithmetic on equal-width
  // bit-vectors (PTX wrap-around).
  friend Expr operator+(const Expr &a, const Expr &b);
  friend Expr operator-(const Expr &a, const Expr &b);
  friend Expr operator*(const Expr &a, const Expr &b);
  /// Real division (Real sort only; the caller owns the b != 0 obligation:
  /// SMT division is total).
  friend Expr operator/(const Expr &a, const Expr &b);
  Expr operator-() const;

  // Comparisons: Real/Int ordering, or signed/unsigned bit-vector ordering.
  friend Expr operator<(const Expr &a, const Expr &b);
  friend Expr operator<=(const Expr &a, const Expr &b);
  friend Expr operator>(const Expr &a, const Expr &b);
  friend Expr operator>=(const Expr &a, const Expr &b);
  Expr ult(const Expr &b) const;
  Expr ule(const Expr &b) const;
  friend Expr operator==(const Expr &a, const Expr &b);
  friend Expr operator!=(const Expr &a, const Expr &b);

  // Boolean connectives.
  friend Expr operator&&(const Expr &a, const Expr &b);
  friend Expr operator||(const Expr &a, const Expr &b);
  Expr operator!() const;
  Expr implies(const Expr &b) const;
  /// if-then-else; `this` must be Bool.
  Expr ite(const Expr &thenE, const Expr &elseE) const;

  /// The sort of the term (invalid Sort for an invalid Expr).
  Sort getSort() const;

  // Bit-vector operations (equal widths where binary; SMT-LIB semantics:
  // division by zero is total, shifts by >= width give 0 / the sign fill).
  Expr udiv(const Expr &b) const;
  Expr sdiv(const Expr &b) const;
  Expr urem(const Expr &b) const;
  Expr srem(const Expr &b) const;
  Expr bvand(const Expr &b) const;
  Expr bvor(const Expr &b) const;
  Expr bvxor(const Expr &b) const;
  Expr bvnot() const;
  Expr shl(const Expr &amount) const;
  Expr lshr(const Expr &amount) const;
  Expr ashr(const Expr &amount) const;
  /// Zero/sign extension to `toWidth` bits (>= the current width).
  Expr zext(unsigned toWidth) const;
  Expr sext(unsigned toWidth) const;
  /// Bits [hi:lo] (inclusive) of a bit-vector.
  Expr extract(unsigned hi, unsigned lo) const;
  /// `this` as the high bits, `lo` as the low bits.
  Expr concat(const Expr &lo) const;
  /// The integer value of a bit-vector (Int sort): unsigned, or two's
  /// complement when `isSigned`.
  Expr bv2int(bool isSigned) const;
  /// An Int term as a Real (int2real / to_real).
  Expr toReal() const;

  // Values (what Model::evaluate returns). A numeral is an integer,
  // rational or bit-vector literal; an algebraic number is an irrational
  // root of a polynomial (nonlinear real models), which is not a numeral.
  bool isNumeral() const;
  bool isAlgebraicNumber() const;
  /// The numerator and denominator (decimal) of an Int/Real numeral.
  std::optional<std::pair<std::string, std::string>> getRational() const;
  /// The decimal text of a numeral; for a bit-vector, its unsigned value.
  std::optional<std::string> getNumeralString() const;
  /// The value of a bit-vector numeral.
  std::optional<llvm::APInt> getBVValue() const;
  /// The value of `true`/`false`; std::nullopt for any other term.
  std::optional<bool> getBoolValue() const;

private:
  friend class Context;
  Expr(Context *ctx, Z3_ast ast);
  Context *ctx = nullptr;
  Z3_ast ast = nullptr;
};

/// A Z3 sort, reference-counted. A default-constructed Sort is invalid.
class Sort {
public:
  Sort() = default;
  bool isValid() const { return sort != nullptr; }
  Z3_sort getZ3Sort() const { return sort; }
  std::string toString() const { return ref.toString(); }

private:
  friend class Context;
  Expr ref; ///< holds a reference on the sort's AST
  Z3_sort sort = nullptr;
};

/// An uninterpreted function symbol (Context::function), reference-counted.
/// Applications are ground terms: kproof never builds quantifiers.
class FuncDecl {
public:
  FuncDecl() = default;
  bool isValid() const { return decl != nullptr; }
  Context *getContext() const { return ref.getContext(); }
  Z3_func_decl getZ3Decl() const { return decl; }
  std::string getName() const;
  unsigned getArity() const;
  /// The application f(args); invalid if an argument is invalid or of the
  /// wrong sort (the error is recorded on the context).
  Expr operator()(llvm::ArrayRef<Expr> args) const;
  Expr operator()(const Expr &arg) const { return (*this)(llvm::ArrayRef<Expr>(arg)); }
  /// The declaration in SMT-LIB2, e.g. "(declare-fun a ((_ BitVec 64)) Real)".
  std::string toString() const;

private:
  friend class Context;
  friend class Model;
  Expr ref; ///< holds a reference on the declaration's AST
  Z3_func_decl decl = nullptr;
};

/// The interpretation of an uninterpreted function in a model: a finite
/// table of points and a value elsewhere.
struct FunctionInterp {
  /// (argument values, value) for each explicit point.
  std::vector<std::pair<std::vector<Expr>, Expr>> entries;
  /// The value at every other point. Usually a numeral; Z3 may also give a
  /// term over the arguments (then it is not a numeral).
  Expr elseValue;
};

/// The answer of a check. `Unknown` carries Z3's reason (e.g.
/// "max. resource limit exceeded", "timeout", "incomplete"); `Error` the
/// error recorded by the error handler.
enum class CheckResult { Sat, Unsat, Unknown, Error };

/// A satisfying assignment; values print as exact SMT-LIB2 numerals
/// (rationals as `(/ 1.0 3.0)`-free strings like "1/3").
class Model {
public:
  /// The value of `e` under the model (model completion on), in exact form:
  /// "true"/"false", an integer or rational "p/q", or "#x..." for
  /// bit-vectors. std::nullopt when evaluation fails.
  std::optional<std::string> eval(const Expr &e) const;
  /// The value of a Real/Int term as numerator/denominator strings.
  std::optional<std::pair<std::string, std::string>>
  evalRational(const Expr &e) const;
  /// The value of `e` under the model (model completion on) as a term: a
  /// numeral, an algebraic number, true/false. Invalid when evaluation fails.
  Expr evaluate(const Expr &e) const;
  /// The interpretation of `f`; std::nullopt when the model does not mention
  /// f (no application of it constrained the answer).
  std::optional<FunctionInterp> getFunctionInterp(const FuncDecl &f) const;

private:
  friend class Solver;
  struct Impl;
  std::shared_ptr<Impl> impl;
};

/// One Z3 context with kproof's fixed settings and its error handler.
class Context {
public:
  explicit Context(SolverOptions options = {});
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  Z3_context raw() const { return ctx; }
  const SolverOptions &getOptions() const { return options; }
  /// The settings that solvers created from now on get.
  void setOptions(const SolverOptions &o) { options = o; }

  /// This thread's long-lived context, with `options` for the solvers
  /// created next. Creating a Z3 context costs milliseconds (more than most
  /// of kproof's queries), so one-shot queries share this one: each gets a
  /// fresh solver, and Z3's rlimit counts per check, so a query's verdict
  /// does not depend on the queries before it (only Z3's internal term
  /// numbering may). The error state is cleared on every call; the seed is
  /// the first caller's (every solver also gets `options.seed`).
  static Context &reusable(const SolverOptions &options);

  /// Interrupts every check running in any live context (Z3_interrupt, which
  /// another thread may call): the check answers unknown. For an outer time
  /// limit (kproof-opt --timeout), since Z3 4.8 does not always heed a
  /// check's own timeout. A check that starts later is not affected.
  static void interruptAll();

  Expr boolVal(bool value);
  Expr boolVar(llvm::StringRef name);
  Expr realVar(llvm::StringRef name);
  /// The exact rational num/den (den != 0).
  Expr realVal(int64_t num, int64_t den = 1);
  /// An exact decimal or rational numeral in SMT-LIB form ("1/3", "-2.5").
  Expr realVal(llvm::StringRef numeral);
  Expr intVar(llvm::StringRef name);
  Expr intVal(int64_t value);
  /// An integer numeral of any size, in decimal.
  Expr intVal(llvm::StringRef decimal);
  Expr bvVar(llvm::StringRef name, unsigned width);
  Expr bvVal(uint64_t value, unsigned width);
  /// A bit-vector literal of any width.
  Expr bvVal(const llvm::APInt &value);

  // Sorts, constants of any sort and uninterpreted functions.
  Sort boolSort();
  Sort realSort();
  Sort intSort();
  Sort bvSort(unsigned width);
  /// The constant `name` of `sort` (the same name and sort give the same
  /// constant).
  Expr constant(llvm::StringRef name, const Sort &sort);
  /// The uninterpreted function `name : domain -> range`.
  FuncDecl function(llvm::StringRef name, llvm::ArrayRef<Sort> domain,
                    const Sort &range);

  // N-ary connectives and arithmetic (empty: true / false / 0 / 1).
  Expr mkAnd(llvm::ArrayRef<Expr> ops);
  Expr mkOr(llvm::ArrayRef<Expr> ops);
  /// Sum / product of Real (or Int) terms.
  Expr sum(llvm::ArrayRef<Expr> ops);
  Expr product(llvm::ArrayRef<Expr> ops);

  /// True if a Z3 API call failed since the last clearError().
  bool hasError() const { return !errorMessage.empty(); }
  const std::string &getError() const { return errorMessage; }
  void clearError() { errorMessage.clear(); }
  /// Records a failed API call (called by the Z3 error handler).
  void recordError(std::string message) {
    if (errorMessage.empty())
      errorMessage = std::move(message);
  }

  /// Wraps a raw AST (used inside the wrapper and by checked callers).
  Expr wrap(Z3_ast ast);

private:
  Z3_context ctx = nullptr;
  SolverOptions options;
  std::string errorMessage;
};

/// An incremental solver over one Context.
class Solver {
public:
  /// `simple`: Z3's plain SMT core (Z3_mk_simple_solver) instead of the
  /// default solver, whose logic-specific preprocessing (the qfnia tactic
  /// of Z3 4.8) can run unbounded on nonlinear integer queries that the
  /// core decides at once.
  explicit Solver(Context &ctx, bool simple = false);
  ~Solver();
  Solver(const Solver &) = delete;
  Solver &operator=(const Solver &) = delete;

  void add(const Expr &assertion);
  /// Replaces the resource limit of the following checks (0: none).
  void setRLimit(uint64_t rlimit);
  void push();
  void pop();
  /// Checks the current assertions under the context's rlimit and timeout.
  CheckResult check();
  /// Why the last check answered Unknown or Error.
  const std::string &getReason() const { return reason; }
  /// The model of the last Sat check.
  Model getModel() const;
  /// The assertions in SMT-LIB2 syntax, with (check-sat), re-solvable by any
  /// SMT-LIB2 solver.
  std::string toSMTLIB2() const;

private:
  Context &ctx;
  struct Impl;
  std::unique_ptr<Impl> impl;
  std::string reason;
};

/// Settings of toSMTLIB2Benchmark.
struct BenchmarkOptions {
  /// `(set-logic ...)`; empty for none.
  std::string logic = "ALL";
  /// Expected answer for `(set-info :status ...)` ("sat"/"unsat"/"unknown");
  /// empty for none.
  std::string status;
  /// Printed as `;` comment lines at the top (may hold several lines).
  std::string comment;
  /// Adds `(set-option :produce-unsat-cores true)` and `(get-unsat-core)`
  /// so that re-solving names the facts an unsat answer used.
  bool unsatCore = false;
};

/// A self-contained SMT-LIB2 benchmark (how proof certificates are written):
/// a declaration of every uninterpreted constant and function the
/// assertions use, each named assertion as `(assert (! fact :named name))`
/// (names quoted with |...| where SMT-LIB requires), then the unnamed
/// assertions, then `(check-sat)`. Names must be distinct and must not
/// collide with declared symbols. Every Expr must be a valid Bool term of
/// one context; otherwise the result is empty and the error is recorded on
/// that context.
std::string toSMTLIB2Benchmark(
    llvm::ArrayRef<std::pair<std::string, Expr>> named,
    llvm::ArrayRef<Expr> unnamed = {}, const BenchmarkOptions &options = {});

/// Quotes an SMT-LIB2 symbol when needed: `x` stays `x`, `x[2]` becomes
/// `|x[2]|`.
std::string quoteSymbol(llvm::StringRef name);

/// Solves a self-contained SMT-LIB2 script in a fresh context (used to
/// re-check certificates); returns "sat", "unsat", "unknown" or an error
/// (followed by the output of any later command, e.g. an unsat core, when
/// the script has `(set-option :produce-unsat-cores true)`).
std::string solveSMTLIB2(llvm::StringRef script, SolverOptions options = {});

/// Re-solves a self-contained SMT-LIB2 script (its declarations and
/// assertions; commands like check-sat are ignored) in a fresh context
/// created with proof generation on, and returns Z3's proof of unsat as
/// text. std::nullopt when the script does not parse, is not shown unsat
/// within `options` (the default rlimit), or Z3 gives no proof (proofs
/// change Z3's tactics, hence a separate context: proof certificates).
std::optional<std::string>
proveUnsatWithProof(llvm::StringRef smtlib2, SolverOptions options = {});

} // namespace kproof::smt

#endif // KPROOF_VERIFIER_SMT_Z3SOLVER_H
