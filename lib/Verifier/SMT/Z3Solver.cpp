//===- Z3Solver.cpp - a small wrapper over the Z3 C API -------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Solver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <mutex>
#include <set>
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
  // Print terms as standard SMT-LIB2 with shared subterms let-bound: the
  // default mode prints a DAG as a tree (exponential for shared terms).
  Z3_set_ast_print_mode(ctx, Z3_PRINT_SMTLIB2_COMPLIANT);
  // Fixed seeds: the same query gives the same answer on every run.
  std::string seed = std::to_string(options.seed);
  Z3_global_param_set("smt.random_seed", seed.c_str());
  Z3_global_param_set("sat.random_seed", seed.c_str());
  Z3_global_param_set("nlsat.seed", seed.c_str());
}

Context &Context::reusable(const SolverOptions &options) {
  // Never replaced: a caller may still hold terms of it (a query that
  // re-queries while its model is open). A failed API call leaves no
  // damage in Z3, only the recorded message, which is cleared.
  thread_local std::unique_ptr<Context> shared;
  if (!shared)
    shared = std::make_unique<Context>(options);
  shared->clearError();
  shared->setOptions(options);
  return *shared;
}

void Context::interruptAll() {
  ContextRegistry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (auto &entry : registry.contexts)
    Z3_interrupt(entry.first);
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

Expr Context::intVal(llvm::StringRef decimal) {
  std::string n = decimal.str();
  return wrap(Z3_mk_numeral(ctx, n.c_str(), Z3_mk_int_sort(ctx)));
}

Expr Context::bvVal(uint64_t value, unsigned width) {
  return wrap(Z3_mk_unsigned_int64(ctx, value, Z3_mk_bv_sort(ctx, width)));
}

Expr Context::bvVal(const llvm::APInt &value) {
  unsigned width = value.getBitWidth();
  if (width == 0) {
    recordError("bvVal: zero width");
    return Expr();
  }
  if (width <= 64)
    return bvVal(value.getZExtValue(), width);
  std::string text = llvm::toString(value, 10, /*Signed=*/false);
  return wrap(Z3_mk_numeral(ctx, text.c_str(), Z3_mk_bv_sort(ctx, width)));
}

Sort Context::boolSort() {
  Sort s;
  s.sort = Z3_mk_bool_sort(ctx);
  s.ref = wrap(Z3_sort_to_ast(ctx, s.sort));
  return s;
}
Sort Context::realSort() {
  Sort s;
  s.sort = Z3_mk_real_sort(ctx);
  s.ref = wrap(Z3_sort_to_ast(ctx, s.sort));
  return s;
}
Sort Context::intSort() {
  Sort s;
  s.sort = Z3_mk_int_sort(ctx);
  s.ref = wrap(Z3_sort_to_ast(ctx, s.sort));
  return s;
}
Sort Context::bvSort(unsigned width) {
  Sort s;
  if (width == 0) {
    recordError("bvSort: zero width");
    return s;
  }
  s.sort = Z3_mk_bv_sort(ctx, width);
  if (s.sort)
    s.ref = wrap(Z3_sort_to_ast(ctx, s.sort));
  return s;
}

Expr Context::constant(llvm::StringRef name, const Sort &sort) {
  if (!sort.isValid()) {
    recordError("constant: invalid sort");
    return Expr();
  }
  return wrap(mkConst(ctx, name, sort.getZ3Sort()));
}

FuncDecl Context::function(llvm::StringRef name, llvm::ArrayRef<Sort> domain,
                           const Sort &range) {
  FuncDecl f;
  llvm::SmallVector<Z3_sort, 4> sorts;
  for (const Sort &s : domain) {
    if (!s.isValid()) {
      recordError("function: invalid domain sort");
      return f;
    }
    sorts.push_back(s.getZ3Sort());
  }
  if (!range.isValid()) {
    recordError("function: invalid range sort");
    return f;
  }
  std::string n = name.str();
  f.decl = Z3_mk_func_decl(ctx, Z3_mk_string_symbol(ctx, n.c_str()),
                           sorts.size(), sorts.data(), range.getZ3Sort());
  if (f.decl)
    f.ref = wrap(Z3_func_decl_to_ast(ctx, f.decl));
  if (!f.ref.isValid())
    f.decl = nullptr;
  return f;
}

/// Checks that every operand is valid and of this context.
static bool validOperands(Context &c, llvm::ArrayRef<Expr> ops,
                          llvm::SmallVectorImpl<Z3_ast> &raw) {
  for (const Expr &e : ops) {
    if (!e.isValid())
      return false;
    if (e.getContext() != &c) {
      c.recordError("operands from different Z3 contexts");
      return false;
    }
    raw.push_back(e.getAST());
  }
  return true;
}

Expr Context::mkAnd(llvm::ArrayRef<Expr> ops) {
  if (ops.empty())
    return boolVal(true);
  if (ops.size() == 1)
    return ops.front();
  llvm::SmallVector<Z3_ast, 8> raw;
  if (!validOperands(*this, ops, raw))
    return Expr();
  return wrap(Z3_mk_and(ctx, raw.size(), raw.data()));
}
Expr Context::mkOr(llvm::ArrayRef<Expr> ops) {
  if (ops.empty())
    return boolVal(false);
  if (ops.size() == 1)
    return ops.front();
  llvm::SmallVector<Z3_ast, 8> raw;
  if (!validOperands(*this, ops, raw))
    return Expr();
  return wrap(Z3_mk_or(ctx, raw.size(), raw.data()));
}
Expr Context::sum(llvm::ArrayRef<Expr> ops) {
  if (ops.empty())
    return realVal(0);
  if (ops.size() == 1)
    return ops.front();
  llvm::SmallVector<Z3_ast, 8> raw;
  if (!validOperands(*this, ops, raw))
    return Expr();
  return wrap(Z3_mk_add(ctx, raw.size(), raw.data()));
}
Expr Context::product(llvm::ArrayRef<Expr> ops) {
  if (ops.empty())
    return realVal(1);
  if (ops.size() == 1)
    return ops.front();
  llvm::SmallVector<Z3_ast, 8> raw;
  if (!validOperands(*this, ops, raw))
    return Expr();
  return wrap(Z3_mk_mul(ctx, raw.size(), raw.data()));
}

//===----------------------------------------------------------------------===//
// FuncDecl
//===----------------------------------------------------------------------===//

std::string FuncDecl::getName() const {
  if (!decl)
    return "";
  Z3_context c = getContext()->raw();
  Z3_symbol sym = Z3_get_decl_name(c, decl);
  if (Z3_get_symbol_kind(c, sym) == Z3_INT_SYMBOL)
    return std::to_string(Z3_get_symbol_int(c, sym));
  return Z3_get_symbol_string(c, sym);
}

unsigned FuncDecl::getArity() const {
  if (!decl)
    return 0;
  return Z3_get_arity(getContext()->raw(), decl);
}

Expr FuncDecl::operator()(llvm::ArrayRef<Expr> args) const {
  if (!decl)
    return Expr();
  Context &c = *getContext();
  llvm::SmallVector<Z3_ast, 4> raw;
  if (!validOperands(c, args, raw))
    return Expr();
  if (raw.size() != getArity()) {
    c.recordError("function " + getName() + " applied to " +
                  std::to_string(raw.size()) + " arguments");
    return Expr();
  }
  return c.wrap(Z3_mk_app(c.raw(), decl, raw.size(), raw.data()));
}

std::string FuncDecl::toString() const {
  if (!decl)
    return "<invalid>";
  return Z3_func_decl_to_string(getContext()->raw(), decl);
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

Sort Expr::getSort() const {
  Sort s;
  if (!ast)
    return s;
  // Sort's fields are private to Context; build it there.
  Z3_sort raw = Z3_get_sort(ctx->raw(), ast);
  if (!raw)
    return s;
  switch (Z3_get_sort_kind(ctx->raw(), raw)) {
  case Z3_BOOL_SORT:
    return ctx->boolSort();
  case Z3_REAL_SORT:
    return ctx->realSort();
  case Z3_INT_SORT:
    return ctx->intSort();
  case Z3_BV_SORT:
    return ctx->bvSort(Z3_get_bv_sort_size(ctx->raw(), raw));
  default:
    ctx->recordError("getSort: a sort kproof does not use");
    return s;
  }
}

/// A binary bit-vector operation: both operands bit-vectors of one width.
template <typename Fn>
static Expr bvBinary(const Expr &a, const Expr &b, const char *what, Fn fn) {
  if (!a.isValid() || !b.isValid())
    return Expr();
  if (!a.isBV() || !b.isBV() || a.getBVWidth() != b.getBVWidth()) {
    a.getContext()->recordError(std::string(what) +
                                ": operands are not bit-vectors of one width");
    return Expr();
  }
  return binary(a, b, fn);
}

Expr Expr::udiv(const Expr &b) const {
  return bvBinary(*this, b, "udiv", Z3_mk_bvudiv);
}
Expr Expr::sdiv(const Expr &b) const {
  return bvBinary(*this, b, "sdiv", Z3_mk_bvsdiv);
}
Expr Expr::urem(const Expr &b) const {
  return bvBinary(*this, b, "urem", Z3_mk_bvurem);
}
Expr Expr::srem(const Expr &b) const {
  return bvBinary(*this, b, "srem", Z3_mk_bvsrem);
}
Expr Expr::bvand(const Expr &b) const {
  return bvBinary(*this, b, "bvand", Z3_mk_bvand);
}
Expr Expr::bvor(const Expr &b) const {
  return bvBinary(*this, b, "bvor", Z3_mk_bvor);
}
Expr Expr::bvxor(const Expr &b) const {
  return bvBinary(*this, b, "bvxor", Z3_mk_bvxor);
}
Expr Expr::shl(const Expr &b) const {
  return bvBinary(*this, b, "shl", Z3_mk_bvshl);
}
Expr Expr::lshr(const Expr &b) const {
  return bvBinary(*this, b, "lshr", Z3_mk_bvlshr);
}
Expr Expr::ashr(const Expr &b) const {
  return bvBinary(*this, b, "ashr", Z3_mk_bvashr);
}
Expr Expr::concat(const Expr &lo) const {
  if (!ast || !lo.isValid())
    return Expr();
  if (!isBV() || !lo.isBV()) {
    ctx->recordError("concat: operands are not bit-vectors");
    return Expr();
  }
  return binary(*this, lo, Z3_mk_concat);
}

Expr Expr::bvnot() const {
  if (!ast)
    return Expr();
  if (!isBV()) {
    ctx->recordError("bvnot: not a bit-vector");
    return Expr();
  }
  return ctx->wrap(Z3_mk_bvnot(ctx->raw(), ast));
}

Expr Expr::zext(unsigned toWidth) const {
  if (!ast)
    return Expr();
  unsigned w = getBVWidth();
  if (!w || toWidth < w) {
    ctx->recordError("zext: not a bit-vector narrower than the target");
    return Expr();
  }
  if (toWidth == w)
    return *this;
  return ctx->wrap(Z3_mk_zero_ext(ctx->raw(), toWidth - w, ast));
}

Expr Expr::sext(unsigned toWidth) const {
  if (!ast)
    return Expr();
  unsigned w = getBVWidth();
  if (!w || toWidth < w) {
    ctx->recordError("sext: not a bit-vector narrower than the target");
    return Expr();
  }
  if (toWidth == w)
    return *this;
  return ctx->wrap(Z3_mk_sign_ext(ctx->raw(), toWidth - w, ast));
}

Expr Expr::extract(unsigned hi, unsigned lo) const {
  if (!ast)
    return Expr();
  unsigned w = getBVWidth();
  if (!w || hi < lo || hi >= w) {
    ctx->recordError("extract: bits out of range");
    return Expr();
  }
  return ctx->wrap(Z3_mk_extract(ctx->raw(), hi, lo, ast));
}

Expr Expr::bv2int(bool isSigned) const {
  if (!ast)
    return Expr();
  if (!isBV()) {
    ctx->recordError("bv2int: not a bit-vector");
    return Expr();
  }
  Z3_context c = ctx->raw();
  if (!isSigned)
    return ctx->wrap(Z3_mk_bv2int(c, ast, false));
  // Two's complement, spelled out so the benchmark text stays plain
  // SMT-LIB: ite(msb = 1, bv2int(x) - 2^w, bv2int(x)).
  unsigned w = getBVWidth();
  Expr unsignedValue = ctx->wrap(Z3_mk_bv2int(c, ast, false));
  Expr msb = extract(w - 1, w - 1);
  std::string pow = llvm::toString(llvm::APInt::getOneBitSet(w + 1, w), 10,
                                   /*Signed=*/false);
  Expr bound = ctx->wrap(Z3_mk_numeral(c, pow.c_str(), Z3_mk_int_sort(c)));
  return (msb == ctx->bvVal(1, 1)).ite(unsignedValue - bound, unsignedValue);
}

Expr Expr::toReal() const {
  if (!ast)
    return Expr();
  if (isReal())
    return *this;
  if (!isInt()) {
    ctx->recordError("toReal: not an Int term");
    return Expr();
  }
  return ctx->wrap(Z3_mk_int2real(ctx->raw(), ast));
}

bool Expr::isNumeral() const {
  return ast && Z3_is_numeral_ast(ctx->raw(), ast);
}

bool Expr::isAlgebraicNumber() const {
  return ast && Z3_is_algebraic_number(ctx->raw(), ast);
}

std::optional<std::pair<std::string, std::string>> Expr::getRational() const {
  if (!isNumeral() || !(isReal() || isInt()))
    return std::nullopt;
  Z3_context c = ctx->raw();
  Expr num = ctx->wrap(Z3_get_numerator(c, ast));
  Expr den = ctx->wrap(Z3_get_denominator(c, ast));
  if (!num.isValid() || !den.isValid())
    return std::nullopt;
  return std::make_pair(std::string(Z3_get_numeral_string(c, num.getAST())),
                        std::string(Z3_get_numeral_string(c, den.getAST())));
}

std::optional<std::string> Expr::getNumeralString() const {
  if (!isNumeral())
    return std::nullopt;
  Z3_string text = Z3_get_numeral_string(ctx->raw(), ast);
  if (!text)
    return std::nullopt;
  return std::string(text);
}

std::optional<llvm::APInt> Expr::getBVValue() const {
  unsigned w = getBVWidth();
  if (!w)
    return std::nullopt;
  std::optional<std::string> text = getNumeralString();
  if (!text || text->empty() ||
      !std::all_of(text->begin(), text->end(),
                   [](char ch) { return ch >= '0' && ch <= '9'; }))
    return std::nullopt;
  // Parse into a wider APInt first: APInt's constructor asserts that the
  // value fits, and a malformed numeral must not crash.
  unsigned bits = std::max<unsigned>(w, text->size() * 4 + 1);
  llvm::APInt wide(bits, *text, 10);
  if (wide.getActiveBits() > w)
    return std::nullopt;
  return wide.trunc(w);
}

std::optional<bool> Expr::getBoolValue() const {
  if (!ast)
    return std::nullopt;
  switch (Z3_get_bool_value(ctx->raw(), ast)) {
  case Z3_L_TRUE:
    return true;
  case Z3_L_FALSE:
    return false;
  default:
    return std::nullopt;
  }
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

Expr Model::evaluate(const Expr &e) const {
  if (!impl || !impl->model || !e.isValid())
    return Expr();
  Z3_context c = impl->ctx->raw();
  Z3_ast value = nullptr;
  if (!Z3_model_eval(c, impl->model, e.getAST(), /*model_completion=*/true,
                     &value) ||
      !value)
    return Expr();
  return impl->ctx->wrap(value);
}

std::optional<FunctionInterp>
Model::getFunctionInterp(const FuncDecl &f) const {
  if (!impl || !impl->model || !f.isValid() ||
      f.getContext() != impl->ctx)
    return std::nullopt;
  Context &ctx = *impl->ctx;
  Z3_context c = ctx.raw();
  Z3_func_interp interp =
      Z3_model_get_func_interp(c, impl->model, f.getZ3Decl());
  if (!interp)
    return std::nullopt;
  Z3_func_interp_inc_ref(c, interp);
  FunctionInterp result;
  unsigned n = Z3_func_interp_get_num_entries(c, interp);
  for (unsigned i = 0; i < n; ++i) {
    Z3_func_entry entry = Z3_func_interp_get_entry(c, interp, i);
    if (!entry)
      continue;
    Z3_func_entry_inc_ref(c, entry);
    std::vector<Expr> args;
    unsigned arity = Z3_func_entry_get_num_args(c, entry);
    for (unsigned j = 0; j < arity; ++j)
      args.push_back(ctx.wrap(Z3_func_entry_get_arg(c, entry, j)));
    Expr value = ctx.wrap(Z3_func_entry_get_value(c, entry));
    result.entries.emplace_back(std::move(args), std::move(value));
    Z3_func_entry_dec_ref(c, entry);
  }
  result.elseValue = ctx.wrap(Z3_func_interp_get_else(c, interp));
  Z3_func_interp_dec_ref(c, interp);
  return result;
}

//===----------------------------------------------------------------------===//
// Solver
//===----------------------------------------------------------------------===//

struct Solver::Impl {
  Z3_solver solver = nullptr;
};

Solver::Solver(Context &c, bool simple)
    : ctx(c), impl(std::make_unique<Impl>()) {
  Z3_context z = ctx.raw();
  impl->solver = simple ? Z3_mk_simple_solver(z) : Z3_mk_solver(z);
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

void Solver::setRLimit(uint64_t rlimit) {
  Z3_context z = ctx.raw();
  Z3_params params = Z3_mk_params(z);
  Z3_params_inc_ref(z, params);
  Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "rlimit"),
                     static_cast<unsigned>(std::min<uint64_t>(rlimit,
                                                              UINT32_MAX)));
  Z3_solver_set_params(z, impl->solver, params);
  Z3_params_dec_ref(z, params);
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

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

std::string kproof::smt::quoteSymbol(llvm::StringRef name) {
  static const char *const reserved[] = {
      "!",      "_",       "as",         "let",           "exists",
      "forall", "match",   "par",        "BINARY",        "DECIMAL",
      "HEXADECIMAL", "NUMERAL", "STRING", "assert",       "check-sat",
      "declare-fun", "define-fun", "set-logic", "set-option", "set-info"};
  bool simple = !name.empty() && !llvm::isDigit(name.front());
  for (char ch : name)
    if (!llvm::isAlnum(ch) && !llvm::StringRef("~!@$%^&*_-+=<>.?/").contains(ch))
      simple = false;
  for (const char *r : reserved)
    if (name == r)
      simple = false;
  if (simple)
    return name.str();
  return "|" + name.str() + "|";
}

std::string kproof::smt::toSMTLIB2Benchmark(
    llvm::ArrayRef<std::pair<std::string, Expr>> named,
    llvm::ArrayRef<Expr> unnamed, const BenchmarkOptions &options) {
  // Find the context and check every assertion.
  Context *ctx = nullptr;
  auto check = [&](const Expr &e) {
    if (!e.isValid())
      return false;
    if (!ctx)
      ctx = e.getContext();
    if (e.getContext() != ctx) {
      ctx->recordError("benchmark: assertions from different Z3 contexts");
      return false;
    }
    if (!e.isBool()) {
      ctx->recordError("benchmark: an assertion is not a Bool term");
      return false;
    }
    return true;
  };
  std::set<std::string> names;
  for (const auto &[name, fact] : named) {
    if (!check(fact))
      return "";
    if (name.empty() || !names.insert(name).second ||
        name.find('|') != std::string::npos ||
        name.find('\\') != std::string::npos) {
      ctx->recordError("benchmark: empty, repeated or unquotable name '" +
                       name + "'");
      return "";
    }
  }
  for (const Expr &e : unnamed)
    if (!check(e))
      return "";

  std::string out;
  if (!options.comment.empty()) {
    llvm::SmallVector<llvm::StringRef, 8> lines;
    llvm::StringRef(options.comment).split(lines, '\n');
    for (llvm::StringRef line : lines)
      out += "; " + line.str() + "\n";
  }
  if (options.unsatCore)
    out += "(set-option :produce-unsat-cores true)\n";
  if (!options.logic.empty())
    out += "(set-logic " + options.logic + ")\n";
  if (!options.status.empty())
    out += "(set-info :status " + options.status + ")\n";
  if (!ctx)
    return out + "(check-sat)\n";

  // Declarations: every uninterpreted symbol, in first-use order (walked
  // iteratively: terms can be deep).
  Z3_context c = ctx->raw();
  llvm::DenseSet<unsigned> seenAst, seenDecl;
  std::vector<Expr> decls; // keeps the declarations' ASTs alive
  auto collect = [&](const Expr &root) {
    llvm::SmallVector<Z3_ast, 64> stack{root.getAST()};
    while (!stack.empty()) {
      Z3_ast a = stack.pop_back_val();
      if (!seenAst.insert(Z3_get_ast_id(c, a)).second)
        continue;
      if (Z3_get_ast_kind(c, a) != Z3_APP_AST)
        continue;
      Z3_app app = Z3_to_app(c, a);
      Z3_func_decl d = Z3_get_app_decl(c, app);
      if (Z3_get_decl_kind(c, d) == Z3_OP_UNINTERPRETED) {
        Z3_ast dAst = Z3_func_decl_to_ast(c, d);
        if (seenDecl.insert(Z3_get_ast_id(c, dAst)).second)
          decls.push_back(ctx->wrap(dAst));
      }
      unsigned n = Z3_get_app_num_args(c, app);
      // Push in reverse so the first argument is visited first.
      for (unsigned i = n; i-- > 0;)
        stack.push_back(Z3_get_app_arg(c, app, i));
    }
  };
  for (const auto &nf : named)
    collect(nf.second);
  for (const Expr &e : unnamed)
    collect(e);

  for (const Expr &d : decls) {
    out += Z3_func_decl_to_string(c, Z3_to_func_decl(c, d.getAST()));
    out += "\n";
  }
  for (const auto &[name, fact] : named)
    out += "(assert (! " + fact.toString() + " :named " + quoteSymbol(name) +
           "))\n";
  for (const Expr &e : unnamed)
    out += "(assert " + e.toString() + ")\n";
  out += "(check-sat)\n";
  if (options.unsatCore)
    out += "(get-unsat-core)\n";
  if (ctx->hasError())
    return "";
  return out;
}

std::string kproof::smt::solveSMTLIB2(llvm::StringRef script,
                                      SolverOptions options) {
  std::string text = script.str();
  // A script from an API context cannot set :produce-unsat-cores (Z3 counts
  // the context as initialized); enable cores through the context's
  // parameters instead, for this context only.
  static const char kCores[] = "(set-option :produce-unsat-cores true)";
  size_t at = text.find(kCores);
  bool cores = at != std::string::npos;
  if (cores) {
    text.erase(at, sizeof(kCores) - 1);
    Z3_global_param_set("unsat_core", "true");
  }
  Context c(options);
  Z3_string out = Z3_eval_smtlib2_string(c.raw(), text.c_str());
  if (cores)
    Z3_global_param_set("unsat_core", "false");
  if (c.hasError())
    return "error: " + c.getError();
  std::string result = out ? out : "";
  while (!result.empty() && (result.back() == '\n' || result.back() == ' '))
    result.pop_back();
  return result;
}

//===----------------------------------------------------------------------===//
// Proof objects
//===----------------------------------------------------------------------===//

/// Errors of the proof context are read back with Z3_get_error_code; the
/// handler only keeps Z3 from aborting.
static void ignoreZ3Error(Z3_context, Z3_error_code) {}

std::optional<std::string>
kproof::smt::proveUnsatWithProof(llvm::StringRef smtlib2,
                                 SolverOptions options) {
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "proof", "true");
  Z3_set_param_value(cfg, "model", "false");
  Z3_context c = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  if (!c)
    return std::nullopt;
  Z3_set_error_handler(c, ignoreZ3Error);
  Z3_set_ast_print_mode(c, Z3_PRINT_SMTLIB2_COMPLIANT);
  std::string seed = std::to_string(options.seed);
  Z3_global_param_set("smt.random_seed", seed.c_str());
  Z3_global_param_set("sat.random_seed", seed.c_str());
  Z3_global_param_set("nlsat.seed", seed.c_str());

  std::optional<std::string> result;
  std::string text = smtlib2.str();
  Z3_ast_vector assertions = Z3_parse_smtlib2_string(
      c, text.c_str(), 0, nullptr, nullptr, 0, nullptr, nullptr);
  if (assertions && Z3_get_error_code(c) == Z3_OK) {
    Z3_ast_vector_inc_ref(c, assertions);
    Z3_solver solver = Z3_mk_solver(c);
    if (solver && Z3_get_error_code(c) == Z3_OK) {
      Z3_solver_inc_ref(c, solver);
      Z3_params params = Z3_mk_params(c);
      Z3_params_inc_ref(c, params);
      if (options.rlimit)
        Z3_params_set_uint(
            c, params, Z3_mk_string_symbol(c, "rlimit"),
            static_cast<unsigned>(std::min<uint64_t>(options.rlimit,
                                                     UINT32_MAX)));
      if (options.timeoutMs)
        Z3_params_set_uint(c, params, Z3_mk_string_symbol(c, "timeout"),
                           options.timeoutMs);
      Z3_solver_set_params(c, solver, params);
      Z3_params_dec_ref(c, params);
      unsigned n = Z3_ast_vector_size(c, assertions);
      for (unsigned i = 0; i < n; ++i)
        Z3_solver_assert(c, solver, Z3_ast_vector_get(c, assertions, i));
      if (Z3_get_error_code(c) == Z3_OK &&
          Z3_solver_check(c, solver) == Z3_L_FALSE &&
          Z3_get_error_code(c) == Z3_OK) {
        Z3_ast proof = Z3_solver_get_proof(c, solver);
        if (proof && Z3_get_error_code(c) == Z3_OK) {
          Z3_inc_ref(c, proof);
          Z3_string s = Z3_ast_to_string(c, proof);
          if (s && Z3_get_error_code(c) == Z3_OK)
            result = std::string(s);
          Z3_dec_ref(c, proof);
        }
      }
      Z3_solver_dec_ref(c, solver);
    }
    Z3_ast_vector_dec_ref(c, assertions);
  }
  Z3_del_context(c);
  return result;
}
