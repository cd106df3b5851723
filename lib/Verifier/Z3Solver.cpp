//===- Z3Solver.cpp - a small wrapper over the Z3 C API -------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Z3Solver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ErrorHandling.h"

#include <mutex>
#include <z3.h>

using namespace kproof::smt;

//===----------------------------------------------------------------------===//
// Error handling
//===----------------------------------------------------------------------===//

namespace {
/// Maps each live Z3 context to its kproof Context so the C error handler can
/// record the failure where the caller will look for it.
struct ContextRegistry {
  std::mutex mutex;
  llvm::DenseMap<Z3_context, Context *> contexts;
};
ContextRegistry &getRegistry() {
  static ContextRegistry registry;
  return registry;
}
} // namespace

static void handleZ3Error(Z3_context c, Z3_error_code code) {
  ContextRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.contexts.find(c);
  std::string message = Z3_get_error_msg(c, code);
  if (it != registry.contexts.end())
    it->second->recordError(std::move(message));
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Context::Context(SolverOptions opts) : options(opts) {
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "model", "true");
  ctx = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  {
    ContextRegistry &registry = getRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.contexts[ctx] = this;
  }
  Z3_set_error_handler(ctx, handleZ3Error);
  // Fixed seeds: the same query gives the same answer on every run.
  std::string seed = std::to_string(options.seed);
  Z3_global_param_set("smt.random_seed", seed.c_str());
  Z3_global_param_set("sat.random_seed", seed.c_str());
  Z3_global_param_set("nlsat.seed", seed.c_str());
}

Context::~Context() {
  {
    ContextRegistry &registry = getRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.contexts.erase(ctx);
  }
  Z3_del_context(ctx);
}

Expr Context::wrap(Z3_ast ast) {
  if (!ast)
    return Expr();
  return Expr(this, ast);
}

Expr Context::boolVal(bool value) {
  return wrap(value ? Z3_mk_true(ctx) : Z3_mk_false(ctx));
}

static Z3_ast mkConst(Z3_context c, llvm::StringRef name, Z3_sort sort) {
  std::string n = name.str();
  return Z3_mk_const(c, Z3_mk_string_symbol(c, n.c_str()), sort);
}

Expr Context::boolVar(llvm::StringRef name) {
  return wrap(mkConst(ctx, name, Z3_mk_bool_sort(ctx)));
}
Expr Context::realVar(llvm::StringRef name) {
  return wrap(mkConst(ctx, name, Z3_mk_real_sort(ctx)));
}
Expr Context::intVar(llvm::StringRef name) {
  return wrap(mkConst(ctx, name, Z3_mk_int_sort(ctx)));
}
Expr Context::bvVar(llvm::StringRef name, unsigned width) {
  return wrap(mkConst(ctx, name, Z3_mk_bv_sort(ctx, width)));
}

Expr Context::realVal(int64_t num, int64_t den) {
  if (den == 0) {
    recordError("realVal: zero denominator");
    return Expr();
  }
  std::string text = std::to_string(num) + "/" + std::to_string(den);
  return realVal(text);
}

Expr Context::realVal(llvm::StringRef numeral) {
  std::string n = numeral.str();
  return wrap(Z3_mk_numeral(ctx, n.c_str(), Z3_mk_real_sort(ctx)));
}

Expr Context::intVal(int64_t value) {
  return wrap(Z3_mk_int64(ctx, value, Z3_mk_int_sort(ctx)));
}

Expr Context::bvVal(uint64_t value, unsigned width) {
  return wrap(Z3_mk_unsigned_int64(ctx, value, Z3_mk_bv_sort(ctx, width)));
}

//===----------------------------------------------------------------------===//
// Expr
//===----------------------------------------------------------------------===//

Expr::Expr(Context *c, Z3_ast a) : ctx(c), ast(a) {
  if (ast)
    Z3_inc_ref(ctx->raw(), ast);
}
Expr::Expr(const Expr &o) : Expr(o.ctx, o.ast) {}
Expr &Expr::operator=(const Expr &o) {
  if (this != &o) {
    Expr copy(o);
    std::swap(ctx, copy.ctx);
    std::swap(ast, copy.ast);
  }
  return *this;
}
Expr::Expr(Expr &&o) noexcept : ctx(o.ctx), ast(o.ast) {
  o.ctx = nullptr;
  o.ast = nullptr;
}
Expr &Expr::operator=(Expr &&o) noexcept {
  std::swap(ctx, o.ctx);
  std::swap(ast, o.ast);
  return *this;
}
Expr::~Expr() {
  if (ast)
    Z3_dec_ref(ctx->raw(), ast);
}

std::string Expr::toString() const {
  if (!ast)
    return "<invalid>";
  return Z3_ast_to_string(ctx->raw(), ast);
}

static Z3_sort_kind sortKind(const Expr &e) {
  if (!e.isValid())
    return Z3_UNKNOWN_SORT;
  Z3_context c = e.getContext()->raw();
  return Z3_get_sort_kind(c, Z3_get_sort(c, e.getAST()));
}

bool Expr::isBool() const { return sortKind(*this) == Z3_BOOL_SORT; }
bool Expr::isReal() const { return sortKind(*this) == Z3_REAL_SORT; }
bool Expr::isInt() const { return sortKind(*this) == Z3_INT_SORT; }
bool Expr::isBV() const { return sortKind(*this) == Z3_BV_SORT; }
unsigned Expr::getBVWidth() const {
  if (!isBV())
    return 0;
  Z3_context c = ctx->raw();
  return Z3_get_bv_sort_size(c, Z3_get_sort(c, ast));
}

namespace {
/// Applies a binary Z3 constructor when both operands are valid and belong to
/// one context; otherwise records the misuse and returns an invalid Expr.
template <typename Fn>
Expr binary(const Expr &a, const Expr &b, Fn fn) {
  if (!a.isValid() || !b.isValid())
    return Expr();
  Context *c = a.getContext();
  if (b.getContext() != c) {
    c->recordError("operands from different Z3 contexts");
    return Expr();
  }
  return c->wrap(fn(c->raw(), a.getAST(), b.getAST()));
}
template <typename Fn>
Expr nary(const Expr &a, const Expr &b, Fn fn) {
  return binary(a, b, [&](Z3_context c, Z3_ast x, Z3_ast y) {
    Z3_ast args[2] = {x, y};
    return fn(c, 2, args);
  });
}
} // namespace

namespace kproof::smt {
Expr operator+(const Expr &a, const Expr &b) {
  if (a.isBV())
    return binary(a, b, Z3_mk_bvadd);
  return nary(a, b, Z3_mk_add);
}
Expr operator-(const Expr &a, const Expr &b) {
  if (a.isBV())
    return binary(a, b, Z3_mk_bvsub);
  return nary(a, b, Z3_mk_sub);
}
Expr operator*(const Expr &a, const Expr &b) {
  if (a.isBV())
    return binary(a, b, Z3_mk_bvmul);
  return nary(a, b, Z3_mk_mul);
}
Expr operator/(const Expr &a, const Expr &b) {
  if (!a.isReal()) {
    if (a.isValid())
      a.getContext()->recordError("operator/ is real division only");
    return Expr();
  }
  return binary(a, b, Z3_mk_div);
}
Expr operator<(const Expr &a, const Expr &b) {
  return binary(a, b, a.isBV() ? Z3_mk_bvslt : Z3_mk_lt);
}
Expr operator<=(const Expr &a, const Expr &b) {
  return binary(a, b, a.isBV() ? Z3_mk_bvsle : Z3_mk_le);
}
Expr operator>(const Expr &a, const Expr &b) {
  return binary(a, b, a.isBV() ? Z3_mk_bvsgt : Z3_mk_gt);
}
Expr operator>=(const Expr &a, const Expr &b) {
  return binary(a, b, a.isBV() ? Z3_mk_bvsge : Z3_mk_ge);
}
Expr operator==(const Expr &a, const Expr &b) {
  return binary(a, b, Z3_mk_eq);
}
Expr operator!=(const Expr &a, const Expr &b) { return !(a == b); }
Expr operator&&(const Expr &a, const Expr &b) {
  return nary(a, b, Z3_mk_and);
}
Expr operator||(const Expr &a, const Expr &b) { return nary(a, b, Z3_mk_or); }
} // namespace kproof::smt

Expr Expr::operator-() const {
  if (!ast)
    return Expr();
  return ctx->wrap(isBV() ? Z3_mk_bvneg(ctx->raw(), ast)
                          : Z3_mk_unary_minus(ctx->raw(), ast));
}
Expr Expr::ult(const Expr &b) const { return binary(*this, b, Z3_mk_bvult); }
Expr Expr::ule(const Expr &b) const { return binary(*this, b, Z3_mk_bvule); }
Expr Expr::operator!() const {
  if (!ast)
    return Expr();
  return ctx->wrap(Z3_mk_not(ctx->raw(), ast));
}
Expr Expr::implies(const Expr &b) const {
  return binary(*this, b, Z3_mk_implies);
}
Expr Expr::ite(const Expr &t, const Expr &e) const {
  if (!ast || !t.isValid() || !e.isValid())
    return Expr();
  return ctx->wrap(Z3_mk_ite(ctx->raw(), ast, t.getAST(), e.getAST()));
}

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

struct Model::Impl {
  Context *ctx = nullptr;
  Z3_model model = nullptr;
  ~Impl() {
    if (model)
      Z3_model_dec_ref(ctx->raw(), model);
  }
};

std::optional<std::string> Model::eval(const Expr &e) const {
  if (!impl || !impl->model || !e.isValid())
    return std::nullopt;
  Z3_context c = impl->ctx->raw();
  Z3_ast value = nullptr;
  if (!Z3_model_eval(c, impl->model, e.getAST(), /*model_completion=*/true,
                     &value) ||
      !value)
    return std::nullopt;
  Expr held = impl->ctx->wrap(value);
  if (Z3_is_numeral_ast(c, value))
    return std::string(Z3_get_numeral_string(c, value));
  return held.toString();
}

std::optional<std::pair<std::string, std::string>>
Model::evalRational(const Expr &e) const {
  if (!impl || !impl->model || !e.isValid())
    return std::nullopt;
  Z3_context c = impl->ctx->raw();
  Z3_ast value = nullptr;
  if (!Z3_model_eval(c, impl->model, e.getAST(), true, &value) || !value)
    return std::nullopt;
  Expr held = impl->ctx->wrap(value);
  // Algebraic (irrational) values of nonlinear models are not rationals.
  if (!Z3_is_numeral_ast(c, value))
    return std::nullopt;
  Expr num = impl->ctx->wrap(Z3_get_numerator(c, value));
  Expr den = impl->ctx->wrap(Z3_get_denominator(c, value));
  if (!num.isValid() || !den.isValid())
    return std::nullopt;
  return std::make_pair(std::string(Z3_get_numeral_string(c, num.getAST())),
                        std::string(Z3_get_numeral_string(c, den.getAST())));
}

//===----------------------------------------------------------------------===//
// Solver
//===----------------------------------------------------------------------===//

struct Solver::Impl {
  Z3_solver solver = nullptr;
};

Solver::Solver(Context &c) : ctx(c), impl(std::make_unique<Impl>()) {
  Z3_context z = ctx.raw();
  impl->solver = Z3_mk_solver(z);
  Z3_solver_inc_ref(z, impl->solver);
  Z3_params params = Z3_mk_params(z);
  Z3_params_inc_ref(z, params);
  const SolverOptions &o = ctx.getOptions();
  if (o.rlimit)
    Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "rlimit"),
                       static_cast<unsigned>(std::min<uint64_t>(o.rlimit,
                                                                UINT32_MAX)));
  if (o.timeoutMs)
    Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "timeout"),
                       o.timeoutMs);
  Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "random_seed"), o.seed);
  Z3_solver_set_params(z, impl->solver, params);
  Z3_params_dec_ref(z, params);
}

Solver::~Solver() { Z3_solver_dec_ref(ctx.raw(), impl->solver); }

void Solver::add(const Expr &assertion) {
  if (!assertion.isValid() || !assertion.isBool()) {
    ctx.recordError("assertion is not a valid Bool term");
    return;
  }
  Z3_solver_assert(ctx.raw(), impl->solver, assertion.getAST());
}

void Solver::push() { Z3_solver_push(ctx.raw(), impl->solver); }
void Solver::pop() { Z3_solver_pop(ctx.raw(), impl->solver, 1); }

CheckResult Solver::check() {
  reason.clear();
  if (ctx.hasError()) {
    reason = ctx.getError();
    return CheckResult::Error;
  }
  Z3_lbool r = Z3_solver_check(ctx.raw(), impl->solver);
  if (ctx.hasError()) {
    reason = ctx.getError();
    return CheckResult::Error;
  }
  switch (r) {
  case Z3_L_TRUE:
    return CheckResult::Sat;
  case Z3_L_FALSE:
    return CheckResult::Unsat;
  case Z3_L_UNDEF:
    reason = Z3_solver_get_reason_unknown(ctx.raw(), impl->solver);
    return CheckResult::Unknown;
  }
  llvm_unreachable("Z3_lbool has three values");
}

Model Solver::getModel() const {
  Model m;
  Z3_model model = Z3_solver_get_model(ctx.raw(), impl->solver);
  if (!model)
    return m;
  Z3_model_inc_ref(ctx.raw(), model);
  m.impl = std::make_shared<Model::Impl>();
  m.impl->ctx = &ctx;
  m.impl->model = model;
  return m;
}

std::string Solver::toSMTLIB2() const {
  std::string text = Z3_solver_to_string(ctx.raw(), impl->solver);
  return text + "(check-sat)\n";
}

std::string kproof::smt::solveSMTLIB2(llvm::StringRef script,
                                      SolverOptions options) {
  Context c(options);
  std::string text = script.str();
  Z3_string out = Z3_eval_smtlib2_string(c.raw(), text.c_str());
  if (c.hasError())
    return "error: " + c.getError();
  std::string result = out ? out : "";
  while (!result.empty() && (result.back() == '\n' || result.back() == ' '))
    result.pop_back();
  return result;
}
