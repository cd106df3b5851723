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

#ifndef KPROOF_VERIFIER_Z3SOLVER_H
#define KPROOF_VERIFIER_Z3SOLVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

typedef struct _Z3_context *Z3_context;
typedef struct _Z3_ast *Z3_ast;

namespace kproof::smt {

class Context;

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
  /// The term in SMT-LIB2 syntax.
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

private:
  friend class Context;
  Expr(Context *ctx, Z3_ast ast);
  Context *ctx = nullptr;
  Z3_ast ast = nullptr;
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

  Expr boolVal(bool value);
  Expr boolVar(llvm::StringRef name);
  Expr realVar(llvm::StringRef name);
  /// The exact rational num/den (den != 0).
  Expr realVal(int64_t num, int64_t den = 1);
  /// An exact decimal or rational numeral in SMT-LIB form ("1/3", "-2.5").
  Expr realVal(llvm::StringRef numeral);
  Expr intVar(llvm::StringRef name);
  Expr intVal(int64_t value);
  Expr bvVar(llvm::StringRef name, unsigned width);
  Expr bvVal(uint64_t value, unsigned width);

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
  explicit Solver(Context &ctx);
  ~Solver();
  Solver(const Solver &) = delete;
  Solver &operator=(const Solver &) = delete;

  void add(const Expr &assertion);
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

/// Solves a self-contained SMT-LIB2 script in a fresh context (used to
/// re-check certificates); returns "sat", "unsat", "unknown" or an error.
std::string solveSMTLIB2(llvm::StringRef script, SolverOptions options = {});

} // namespace kproof::smt

#endif // KPROOF_VERIFIER_Z3SOLVER_H
