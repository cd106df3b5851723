//===- Z3Lowering.cpp - engine terms to Z3 expressions --------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Uses only kproof's Z3 wrapper (Z3Solver.h); no Z3 header is included here.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Z3Lowering.h"

#include "KProof/Verifier/Terms/Evaluate.h"

#include "llvm/ADT/DenseSet.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <optional>

using namespace kproof;
using namespace kproof::engine;

static std::string reductionFunctionName(Term t);
using smt::Expr;

Z3Lowering::Z3Lowering(smt::Context &z3, TermContext &terms)
    : z3(z3), terms(terms) {}

Expr Z3Lowering::fail(std::string why) {
  if (error.empty())
    error = std::move(why);
  return Expr();
}

bool Z3Lowering::declare(const std::string &name,
                         const std::string &signature) {
  auto [it, inserted] = declared.emplace(name, signature);
  if (inserted || it->second == signature)
    return true;
  fail("the symbol '" + name + "' is used both as " + it->second + " and as " +
       signature);
  return false;
}

std::string Z3Lowering::freshName(llvm::StringRef base, unsigned k) {
  std::string name = base.str() + "!" + std::to_string(k);
  while (declared.count(name))
    name += "_";
  return name;
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

Expr Z3Lowering::lower(Term root) {
  if (!root)
    return fail("cannot lower a null term (a failed term construction)");
  auto found = memo.find(root);
  if (found != memo.end())
    return found->second;

  // Iterative post-order walk: operands first, each term once.
  llvm::SmallVector<std::pair<Term, bool>, 32> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.back();
    if (memo.count(t)) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      // Reversed, so operands lower left to right (atoms are numbered in
      // reading order).
      // A reduction's body is not lowered: the reduction is an atom, a
      // function of its bounds (lowerReduction).
      auto ops = t->getOperands();
      if (t->isReduction())
        ops = ops.take_front(2);
      for (Term op : llvm::reverse(ops))
        if (op && !memo.count(op))
          stack.push_back({op, false});
      continue;
    }
    stack.pop_back();
    Expr e = lowerNode(t);
    memo[t] = e;
  }
  return memo.lookup(root);
}

/// Whether `e` has the Z3 sort that `t`'s sort lowers to.
static bool sortMatches(Term t, const Expr &e, bool bvAsInt) {
  switch (t->getSort()) {
  case Sort::Bool:
    return e.isBool();
  case Sort::Real:
    return e.isReal();
  case Sort::BV:
    return bvAsInt ? e.isInt() : e.isBV() && e.getBVWidth() == t->getWidth();
  }
  return false;
}

Expr Z3Lowering::lowerNode(Term t) {
  llvm::SmallVector<Expr, 4> ops;
  // A reduction is an atom over its bounds; its body is not lowered.
  auto operands = t->isReduction() ? t->getOperands().take_front(2)
                                   : t->getOperands();
  for (Term op : operands) {
    if (!op)
      return fail("a term has a null operand: " + t->toBriefString());
    Expr e = memo.lookup(op);
    if (!e.isValid())
      return fail("cannot lower an operand of " + t->toBriefString());
    ops.push_back(e);
  }
  auto arity = [&](unsigned n) { return ops.size() == n; };
  bool hadZ3Error = z3.hasError();

  Expr result;
  if (bvAsInt) {
    bool overBV = t->getSort() == Sort::BV || t->getKind() == Kind::BVToReal;
    for (Term op : t->getOperands())
      overBV |= op->getSort() == Sort::BV && t->getKind() != Kind::Eq &&
                t->getKind() != Kind::Ite && t->getKind() != Kind::Select;
    if (t->getKind() == Kind::FloatBits)
      return arity(1) ? lowerFloatBits(t, ops[0]) : Expr();
    if (overBV && t->getKind() != Kind::BVVar &&
        t->getKind() != Kind::Select && !t->isReduction()) {
      result = lowerAsInt(t, ops);
      if (!result.isValid())
        return result; // lowerAsInt recorded why
      if (!hadZ3Error && z3.hasError())
        return fail("Z3 rejected the lowering of " + t->toBriefString() + ": " +
                    z3.getError());
      return result;
    }
  }
  switch (t->getKind()) {
  // --- Bool ---
  case Kind::BoolConst:
    result = z3.boolVal(t->getBoolValue());
    break;
  case Kind::BoolVar:
  case Kind::RealVar:
  case Kind::BVVar:
    result = lowerVar(t); // on failure, declare() recorded why
    break;
  case Kind::Not:
    if (arity(1))
      result = !ops[0];
    break;
  case Kind::And:
    result = z3.mkAnd(ops);
    break;
  case Kind::Or:
    result = z3.mkOr(ops);
    break;
  case Kind::RealLt:
    if (arity(2))
      result = ops[0] < ops[1];
    break;
  case Kind::RealLe:
    if (arity(2))
      result = ops[0] <= ops[1];
    break;
  case Kind::Eq:
    if (arity(2))
      result = ops[0] == ops[1];
    break;
  case Kind::BVUlt:
    if (arity(2))
      result = ops[0].ult(ops[1]);
    break;
  case Kind::BVUle:
    if (arity(2))
      result = ops[0].ule(ops[1]);
    break;
  case Kind::BVSlt: // the wrapper's < is signed on bit-vectors
    if (arity(2))
      result = ops[0] < ops[1];
    break;
  case Kind::BVSle:
    if (arity(2))
      result = ops[0] <= ops[1];
    break;
  case Kind::Ite:
    if (arity(3))
      result = ops[0].ite(ops[1], ops[2]);
    break;

  // --- Real ---
  case Kind::RealConst:
    result = z3.realVal(t->getRational().toString());
    break;
  case Kind::NegInf:
  case Kind::PosInf:
  case Kind::NaN:
    return fail(std::string("an extended value (") +
                (t->getKind() == Kind::NegInf   ? "-inf"
                 : t->getKind() == Kind::PosInf ? "+inf"
                                                : "NaN") +
                ") reached the solver as a real: the reals model has no "
                "infinite values, so it must be folded into a comparison "
                "before lowering");
  case Kind::Add:
    result = z3.sum(ops);
    break;
  case Kind::Mul:
    result = z3.product(ops);
    break;
  case Kind::Div:
    if (arity(2))
      result = ops[0] / ops[1];
    break;
  case Kind::Exp:
  case Kind::Exp2:
  case Kind::RealFn:
    result = lowerAtom(t, ops);
    break;
  case Kind::Max:
    if (arity(2))
      result = (ops[0] < ops[1]).ite(ops[1], ops[0]);
    break;
  case Kind::Min:
    if (arity(2))
      result = (ops[0] < ops[1]).ite(ops[0], ops[1]);
    break;
  case Kind::Select:
    if (arity(1))
      result = lowerSelect(t, ops[0]);
    break;
  case Kind::SumOver:
  case Kind::MaxOver:
  case Kind::MinOver: {
    std::string name = freshName(reductionFunctionName(t), atoms.size());
    declare(name, "Real");
    result = z3.realVar(name);
    if (result.isValid())
      atoms.push_back({t, result});
    break;
  }
  case Kind::BVToReal:
    if (arity(1))
      result = ops[0].bv2int(t->isSigned()).toReal();
    break;

  // --- BV ---
  case Kind::BVConst:
    result = z3.bvVal(t->getAPInt());
    break;
  case Kind::BVAdd:
    if (arity(2))
      result = ops[0] + ops[1];
    break;
  case Kind::BVSub:
    if (arity(2))
      result = ops[0] - ops[1];
    break;
  case Kind::BVMul:
    if (arity(2))
      result = ops[0] * ops[1];
    break;
  case Kind::BVUDiv:
    if (arity(2))
      result = ops[0].udiv(ops[1]);
    break;
  case Kind::BVSDiv:
    if (arity(2))
      result = ops[0].sdiv(ops[1]);
    break;
  case Kind::BVURem:
    if (arity(2))
      result = ops[0].urem(ops[1]);
    break;
  case Kind::BVSRem:
    if (arity(2))
      result = ops[0].srem(ops[1]);
    break;
  case Kind::BVAnd:
    if (arity(2))
      result = ops[0].bvand(ops[1]);
    break;
  case Kind::BVOr:
    if (arity(2))
      result = ops[0].bvor(ops[1]);
    break;
  case Kind::BVXor:
    if (arity(2))
      result = ops[0].bvxor(ops[1]);
    break;
  case Kind::BVNot:
    if (arity(1))
      result = ops[0].bvnot();
    break;
  case Kind::BVShl:
    if (arity(2))
      result = ops[0].shl(ops[1]);
    break;
  case Kind::BVLShr:
    if (arity(2))
      result = ops[0].lshr(ops[1]);
    break;
  case Kind::BVAShr:
    if (arity(2))
      result = ops[0].ashr(ops[1]);
    break;
  case Kind::BVZExt:
    if (arity(1))
      result = ops[0].zext(t->getWidth());
    break;
  case Kind::BVSExt:
    if (arity(1))
      result = ops[0].sext(t->getWidth());
    break;
  case Kind::BVExtract:
    if (arity(1) && t->getWidth() > 0)
      result = ops[0].extract(t->getExtractLow() + t->getWidth() - 1,
                              t->getExtractLow());
    break;
  case Kind::BVConcat:
    if (arity(2))
      result = ops[0].concat(ops[1]);
    break;
  case Kind::FloatBits:
    if (arity(1))
      result = lowerFloatBits(t, ops[0]);
    break;
  }

  if (!hadZ3Error && z3.hasError())
    return fail("Z3 rejected the lowering of " + t->toBriefString() + ": " +
                z3.getError());
  if (!result.isValid())
    return fail("cannot lower the malformed term " + t->toBriefString());
  if (!sortMatches(t, result, bvAsInt))
    return fail("the lowering of " + t->toBriefString() +
                " has the wrong sort: " + result.getSort().toString());
  return result;
}

Expr Z3Lowering::lowerVar(Term t) {
  std::string name = t->getName().str();
  Expr e;
  switch (t->getSort()) {
  case Sort::Bool:
    if (!declare(name, "Bool"))
      return Expr();
    e = z3.boolVar(name);
    break;
  case Sort::Real:
    if (!declare(name, "Real"))
      return Expr();
    e = z3.realVar(name);
    break;
  case Sort::BV:
    if (t->getWidth() == 0)
      return fail("the bit-vector variable '" + name + "' has width 0");
    if (bvAsInt) {
      if (!declare(name, "Int"))
        return Expr();
      e = z3.intVar(name);
      intDefs.push_back(z3.intVal(0) <= e && e < pow2(t->getWidth()));
      {
        llvm::APInt hi = llvm::APInt::getLowBitsSet(256, t->getWidth());
        auto b = varBounds.find(t);
        if (b != varBounds.end() && b->second.ult(hi))
          hi = b->second;
        // An asserted non-negative lower bound (1 <=s n): n - 1 does not
        // wrap.
        llvm::APInt lo(256, 0);
        auto l = varLowerBounds.find(t);
        if (l != varLowerBounds.end() && l->second.ule(hi))
          lo = l->second;
        ranges[t] = {lo, hi};
      }
      break;
    }
    if (!declare(name, "BV" + std::to_string(t->getWidth())))
      return Expr();
    e = z3.bvVar(name, t->getWidth());
    break;
  }
  if (e.isValid())
    vars.emplace_back(t, e);
  return e;
}

Expr Z3Lowering::lowerAtom(Term t, llvm::ArrayRef<Expr> args) {
  std::string fn = t->getKind() == Kind::Exp    ? "exp"
                   : t->getKind() == Kind::Exp2 ? "exp2"
                                                : t->getName().str();
  if (fn.empty())
    return fail("a real function without a name: " + t->toBriefString());
  for (const Expr &a : args)
    if (!a.isReal())
      return fail("a real function applied to a non-real argument: " +
                  t->toBriefString());
  std::string name = freshName(fn, atoms.size());
  declare(name, "Real");
  Expr e = z3.realVar(name);
  if (e.isValid())
    atoms.push_back({t, e});
  return e;
}

Expr Z3Lowering::lowerFloatBits(Term t, const Expr &real) {
  // An uninterpreted function per format, Real -> bits (an Int in
  // [0, 2^width) over the integers): equal reals give equal bits, nothing
  // else is known of the encoding (the true one is among its models).
  if (!real.isReal())
    return fail("float bits of a non-real argument: " + t->toBriefString());
  std::string name = "fbits." + t->getName().str();
  unsigned w = t->getWidth();
  auto it = floatBitsFns.find(name);
  if (it == floatBitsFns.end()) {
    if (!declare(name, "(Real) " + (bvAsInt ? std::string("Int")
                                            : "BV" + std::to_string(w))))
      return Expr();
    smt::FuncDecl f = z3.function(name, {z3.realSort()},
                                  bvAsInt ? z3.intSort() : z3.bvSort(w));
    if (!f.isValid())
      return Expr();
    it = floatBitsFns.emplace(name, f).first;
  }
  Expr value = it->second(real);
  if (value.isValid() && bvAsInt) {
    intDefs.push_back(z3.intVal(0) <= value && value < pow2(w));
    ranges[t] = {llvm::APInt(256, 0), llvm::APInt::getLowBitsSet(256, w)};
  }
  return value;
}

Expr Z3Lowering::lowerSelect(Term t, const Expr &index) {
  std::string buffer = t->getName().str();
  if (buffer.empty())
    return fail("a buffer read without a buffer name: " + t->toBriefString());
  unsigned w = bvAsInt ? 1 : index.getBVWidth();
  if (w == 0 || w > kIndexWidth)
    return fail("the index of " + t->toBriefString() +
                " is not a bit-vector of at most " +
                std::to_string(kIndexWidth) + " bits");
  // Integer elements (a BV-sorted Select) map to bit-vectors of their
  // width; in integer mode to Ints in [0, 2^width).
  bool integer = t->getSort() == Sort::BV;
  std::string range = !integer ? "Real"
                      : bvAsInt ? "Int"
                                : "BV" + std::to_string(t->getWidth());
  auto it = buffers.find(buffer);
  if (it == buffers.end()) {
    // Integer mode: the index is the Int of the 64-bit index.
    if (!declare(buffer, (bvAsInt ? std::string("(Int) ")
                                  : "(BV" + std::to_string(kIndexWidth) +
                                        ") ") +
                             range))
      return Expr();
    smt::FuncDecl f = z3.function(
        buffer, {bvAsInt ? z3.intSort() : z3.bvSort(kIndexWidth)},
        !integer  ? z3.realSort()
        : bvAsInt ? z3.intSort()
                  : z3.bvSort(t->getWidth()));
    if (!f.isValid())
      return Expr();
    it = buffers.emplace(buffer, f).first;
    bufferOrder.push_back(buffer);
    if (integer)
      intBufferWidths[buffer] = t->getWidth();
  } else if (integer != intBufferWidths.count(buffer) ||
             (integer && intBufferWidths[buffer] != t->getWidth())) {
    return fail("buffer '" + buffer +
                "' is read with two element sorts: " + t->toBriefString());
  }
  Expr index64 = bvAsInt ? index : index.zext(kIndexWidth);
  Expr value = it->second(index64);
  if (value.isValid()) {
    selects.push_back({t, index64, value});
    if (integer && bvAsInt) {
      intDefs.push_back(z3.intVal(0) <= value && value < pow2(t->getWidth()));
      ranges[t] = {llvm::APInt(256, 0),
                   llvm::APInt::getLowBitsSet(256, t->getWidth())};
    }
  }
  return value;
}

std::optional<llvm::APInt> Z3Lowering::readBits(const smt::Model &model,
                                                const Expr &e, unsigned width,
                                                llvm::StringRef what) {
  Expr v = model.evaluate(e);
  std::optional<llvm::APInt> bits;
  if (v.isValid()) {
    if (bvAsInt) {
      if (auto text = v.getNumeralString();
          text && !text->empty() && (*text)[0] != '-') {
        llvm::APInt big(width + 1, *text, 10);
        if (big.getActiveBits() <= width)
          bits = big.trunc(width);
      }
    } else {
      bits = v.getBVValue();
    }
  }
  if (!bits)
    modelError = "the model gives no bit-vector value for " + what.str();
  return bits;
}

//===----------------------------------------------------------------------===//
// Facts
//===----------------------------------------------------------------------===//

/// If `name` is "buffer[k]" with a decimal k, returns (buffer, k).
static std::optional<std::pair<std::string, uint64_t>>
parseElementName(llvm::StringRef name) {
  if (!name.ends_with("]"))
    return std::nullopt;
  size_t open = name.rfind('[');
  if (open == llvm::StringRef::npos || open == 0)
    return std::nullopt;
  llvm::StringRef digits = name.slice(open + 1, name.size() - 1);
  if (digits.empty() || !llvm::all_of(digits, llvm::isDigit))
    return std::nullopt;
  uint64_t k;
  if (digits.getAsInteger(10, k))
    return std::nullopt;
  return std::make_pair(name.take_front(open).str(), k);
}

/// The uninterpreted function a reduction stands for: one per kind and
/// body ("sum#<id>" for SumOver of the body term with that id), applied to
/// the bounds. Sound for unsat: the true reduction is such a function (its
/// body's other free variables and buffers are fixed within one query), so
/// every fact the solver may use (congruence over equal bounds) holds of it.
/// A model is used only after exact evaluation confirms it.
static std::string reductionFunctionName(Term t) {
  const char *kind = t->getKind() == Kind::SumOver   ? "sum"
                     : t->getKind() == Kind::MaxOver ? "maxover"
                                                     : "minover";
  return std::string(kind) + "#" + std::to_string(t->getOperand(2)->getId());
}

std::vector<NamedFact> Z3Lowering::atomFacts() {
  std::vector<NamedFact> facts;
  auto add = [&](std::string name, Expr fact) {
    if (fact.isValid() && fact.isBool())
      facts.emplace_back(std::move(name), std::move(fact));
  };
  auto argsOf = [&](const Atom &a) {
    llvm::SmallVector<Expr, 2> args;
    // A reduction is a function of its bounds (its body is the function).
    auto ops = a.term->getOperands();
    if (a.term->isReduction())
      ops = ops.take_front(2);
    for (Term op : ops)
      args.push_back(memo.lookup(op));
    return args;
  };
  auto fnName = [](const Atom &a) -> std::string {
    if (a.term->isReduction())
      return reductionFunctionName(a.term);
    switch (a.term->getKind()) {
    case Kind::Exp:
      return "exp";
    case Kind::Exp2:
      return "exp2";
    default:
      return a.term->getName().str();
    }
  };
  Expr zero = z3.realVal(0), one = z3.realVal(1), minusOne = z3.realVal(-1);

  // A body positive for every value of its bound variable (exp, exp2, and
  // products, sums and positive multiples of those).
  std::function<bool(Term)> positive = [&](Term b) {
    switch (b->getKind()) {
    case Kind::Exp:
    case Kind::Exp2:
      return true;
    case Kind::RealConst:
      return b->getRational().sign() > 0;
    case Kind::Mul:
    case Kind::Add:
      return llvm::all_of(b->getOperands(), positive);
    default:
      return false;
    }
  };
  // Facts about one atom.
  for (unsigned k = 0; k < atoms.size(); ++k) {
    if (atoms[k].term->getKind() == Kind::SumOver) {
      // A sum over [lo, hi): 0 when empty (hi <= lo, signed, as Evaluator
      // reads the bounds); a sum of positive terms is positive otherwise.
      Term t = atoms[k].term;
      Expr v = atoms[k].value; // lower() below may grow `atoms`
      Expr nonEmpty = lower(terms.bvSlt(t->getOperand(0), t->getOperand(1)));
      std::string id = "!" + std::to_string(k);
      if (positive(t->getOperand(2)))
        add("sum_pos" + id, nonEmpty.implies(v > zero));
      add("sum_empty" + id, (!nonEmpty).implies(v == zero));
      continue;
    }
    const Atom &a = atoms[k];
    auto args = argsOf(a);
    std::string fn = fnName(a), id = "!" + std::to_string(k);
    const Expr &v = a.value;
    Kind kind = a.term->getKind();
    if (kind == Kind::Exp || kind == Kind::Exp2) {
      const Expr &x = args[0];
      add(fn + "_pos" + id, v > zero);
      add(fn + "_lt1" + id, (x < zero) == (v < one));
      add(fn + "_gt1" + id, (zero < x) == (one < v));
      if (kind == Kind::Exp)
        add("exp_tangent" + id, v >= one + x);
      continue;
    }
    // A function of constants (the atoms of transcendental constants,
    // log(2), sqrt(2), pi(): Constants.h) lies in its MPFR enclosure.
    if (kind == Kind::RealFn &&
        llvm::all_of(a.term->getOperands(),
                     [](Term op) { return op->isRealConst(); })) {
      Assignment none;
      Evaluator ev(none, 128);
      if (std::optional<Interval> iv = ev.real(a.term); iv && iv->isValid()) {
        llvm::APFloat lo(iv->loDouble()), hi(iv->hiDouble());
        std::optional<Rational> ql = Rational::fromAPFloat(lo),
                                qh = Rational::fromAPFloat(hi);
        if (ql && qh)
          add(fn + "_enclosure" + id,
              (z3.realVal(ql->toString()) <= v) &&
                  (v <= z3.realVal(qh->toString())));
      }
    }
    if (args.size() != 1)
      continue;
    const Expr &x = args[0];
    if (fn == "sqrt") {
      add("sqrt_nonneg" + id, (x >= zero).implies(v >= zero));
      add("sqrt_square" + id, (x >= zero).implies(v * v == x));
    } else if (fn == "rsqrt") {
      add("rsqrt_pos" + id, (x > zero).implies(v > zero));
      add("rsqrt_square" + id, (x > zero).implies(v * v * x == one));
    } else if (fn == "lg2" || fn == "log") {
      add(fn + "_sign" + id, (x > zero).implies(((x < one) == (v < zero)) &&
                                              ((one < x) == (zero < v))));
    } else if (fn == "tanh") {
      add("tanh_range" + id, (minusOne < v) && (v < one));
      add("tanh_sign" + id,
          ((x < zero) == (v < zero)) && ((zero < x) == (zero < v)));
    } else if (fn == "sin" || fn == "cos") {
      add(fn + "_range" + id, (minusOne <= v) && (v <= one));
    }
  }

  // Facts about pairs of atoms of one function.
  for (unsigned i = 0; i < atoms.size(); ++i) {
    for (unsigned j = i + 1; j < atoms.size(); ++j) {
      const Atom &a = atoms[i], &b = atoms[j];
      Kind kind = a.term->getKind();
      if (kind != b.term->getKind() || fnName(a) != fnName(b) ||
          a.term->getNumOperands() != b.term->getNumOperands())
        continue;
      auto xs = argsOf(a), ys = argsOf(b);
      std::string fn = fnName(a);
      std::string ij = "!" + std::to_string(i) + "!" + std::to_string(j);
      std::string ji = "!" + std::to_string(j) + "!" + std::to_string(i);
      const Expr &u = a.value, &v = b.value;
      if (kind == Kind::Exp || kind == Kind::Exp2) {
        const Expr &x = xs[0], &y = ys[0];
        add(fn + "_mono" + ij, (x < y) == (u < v));
        add(fn + "_mono" + ji, (y < x) == (v < u));
        add(fn + "_inj" + ij, (x == y) == (u == v));
        continue;
      }
      if ((fn == "lg2" || fn == "log") && xs.size() == 1) {
        // Increasing on (0, inf).
        const Expr &x = xs[0], &y = ys[0];
        Expr pos = (x > zero) && (y > zero);
        add(fn + "_mono" + ij, pos.implies((x < y) == (u < v)));
        add(fn + "_mono" + ji, pos.implies((y < x) == (v < u)));
      }
      llvm::SmallVector<Expr, 2> equalArgs;
      for (unsigned m = 0; m < xs.size(); ++m)
        equalArgs.push_back(xs[m] == ys[m]);
      add(fn + "_cong" + ij, z3.mkAnd(equalArgs).implies(u == v));
    }
  }

  // A buffer element read both at a constant index (the RealVar
  // "buffer[k]") and through the buffer's function.
  for (const auto &[t, e] : vars) {
    if (t->getKind() != Kind::RealVar && t->getKind() != Kind::BVVar)
      continue;
    auto element = parseElementName(t->getName());
    if (!element)
      continue;
    auto it = buffers.find(element->first);
    if (it == buffers.end())
      continue;
    auto iw = intBufferWidths.find(element->first);
    bool intBuffer = iw != intBufferWidths.end();
    if (intBuffer != (t->getKind() == Kind::BVVar) ||
        (intBuffer && iw->second != t->getWidth()))
      continue;
    add("elem_link!" + t->getName().str(),
        it->second(bvAsInt ? z3.intVal(std::to_string(element->second))
                           : z3.bvVal(element->second, kIndexWidth)) == e);
  }
  return facts;
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

std::optional<Rational> Z3Lowering::readRational(const smt::Model &model,
                                                 const Expr &e,
                                                 llvm::StringRef what) {
  Expr v = model.evaluate(e);
  if (!v.isValid()) {
    modelError = "the model gives no value for " + what.str();
    return std::nullopt;
  }
  if (v.isAlgebraicNumber()) {
    modelError = "the model value of " + what.str() +
                 " is irrational (an algebraic number: " + v.toString() +
                 "); a witness needs exact rational inputs";
    return std::nullopt;
  }
  auto pq = v.getRational();
  std::optional<Rational> q;
  if (pq)
    q = Rational::parse(pq->first + "/" + pq->second);
  if (!q) {
    modelError = "the model value of " + what.str() +
                 " is not a rational number: " + v.toString();
    return std::nullopt;
  }
  return q;
}

std::optional<Assignment>
Z3Lowering::extractModel(const smt::Model &model) {
  modelError.clear();
  Assignment result;
  for (const auto &[t, e] : vars) {
    std::string name = t->getName().str();
    switch (t->getSort()) {
    case Sort::Real: {
      auto q = readRational(model, e, name);
      if (!q)
        return std::nullopt;
      result.reals.insert_or_assign(name, std::move(*q));
      break;
    }
    case Sort::BV: {
      std::optional<llvm::APInt> bits;
      if (bvAsInt) {
        if (auto text = model.evaluate(e).getNumeralString())
          bits = llvm::APInt(t->getWidth(), *text, 10);
      } else {
        bits = model.evaluate(e).getBVValue();
      }
      if (!bits) {
        modelError = "the model gives no bit-vector value for " + name;
        return std::nullopt;
      }
      result.bitvectors.insert_or_assign(name, *bits);
      break;
    }
    case Sort::Bool: {
      auto b = model.evaluate(e).getBoolValue();
      if (!b) {
        modelError = "the model gives no Boolean value for " + name;
        return std::nullopt;
      }
      result.bools[name] = *b;
      break;
    }
    }
  }

  // The elements read at symbolic indices.
  for (const SelectInfo &s : selects) {
    // Named briefly: printing the index term as a tree can take time
    // exponential in its depth (shuffle partner lanes nest).
    std::string what = "an element of " + s.term->getName().str() +
                       " read at a symbolic index";
    std::optional<llvm::APInt> index = numeralIndex(model.evaluate(s.index64));
    if (!index) {
      modelError = "the model gives no index value for " + what;
      return std::nullopt;
    }
    if (s.term->getSort() == Sort::BV) {
      auto bits = readBits(model, s.value, s.term->getWidth(), what);
      if (!bits)
        return std::nullopt;
      result.bitvectors.insert_or_assign(
          s.term->getName().str() + "[" +
              std::to_string(index->getZExtValue()) + "]",
          *bits);
      continue;
    }
    auto q = readRational(model, s.value, what);
    if (!q)
      return std::nullopt;
    result.elements[s.term->getName().str()].insert_or_assign(
        index->getZExtValue(), std::move(*q));
  }

  // Other points the model fixes, and each buffer's default: integer
  // buffers as bit-vectors ("buffer[k]"), float buffers as rationals.
  for (const std::string &buffer : bufferOrder) {
    auto interp = model.getFunctionInterp(buffers.at(buffer));
    if (!interp)
      continue;
    auto iw = intBufferWidths.find(buffer);
    bool integer = iw != intBufferWidths.end();
    // Reads `value` as element `index` (nullopt: the default); false when
    // it cannot be read (modelError says why).
    auto take = [&](const Expr &value, std::optional<uint64_t> index) {
      std::string what =
          index ? buffer + "[" + std::to_string(*index) +
                      "] (a point of the model)"
                : "the default element of " + buffer;
      if (integer) {
        auto bits = readBits(model, value, iw->second, what);
        if (!bits)
          return false;
        if (index)
          result.bitvectors.emplace(
              buffer + "[" + std::to_string(*index) + "]", *bits);
        else
          result.intElementDefaults.insert_or_assign(buffer, *bits);
        return true;
      }
      auto q = readRational(model, value, what);
      if (!q)
        return false;
      if (index)
        result.elements[buffer].emplace(*index, std::move(*q));
      else
        result.elementDefaults.insert_or_assign(buffer, std::move(*q));
      return true;
    };
    for (const auto &[args, value] : interp->entries) {
      if (args.size() != 1)
        continue;
      std::optional<llvm::APInt> index = numeralIndex(args[0]);
      if (index && !take(value, index->getZExtValue()))
        return std::nullopt;
    }
    const Expr &other = interp->elseValue;
    if ((other.isNumeral() || (!integer && other.isAlgebraicNumber())) &&
        !take(other, std::nullopt))
      return std::nullopt;
    if (auto e = result.elements.find(buffer);
        e != result.elements.end() && e->second.empty())
      result.elements.erase(e);
  }
  return result;
}

std::optional<llvm::APInt> Z3Lowering::numeralIndex(const Expr &e) const {
  if (!bvAsInt)
    return e.getBVValue();
  std::optional<std::string> text = e.getNumeralString();
  if (!text || text->empty() || (*text)[0] == '-')
    return std::nullopt;
  llvm::APInt v(kIndexWidth + 1, *text, 10);
  if (v.getActiveBits() > kIndexWidth)
    return std::nullopt;
  return v.trunc(kIndexWidth);
}

std::optional<Rational> Z3Lowering::evalReal(const smt::Model &model,
                                             Term t) {
  modelError.clear();
  if (!t || t->getSort() != Sort::Real) {
    modelError = "evalReal: not a real term";
    return std::nullopt;
  }
  Expr e = lower(t);
  if (!e.isValid()) {
    modelError = "cannot lower " + t->toBriefString() + ": " + error;
    return std::nullopt;
  }
  return readRational(model, e, t->toBriefString());
}

void kproof::engine::addBranchFacts(TermContext &T,
                                    llvm::SmallVectorImpl<Term> &assertions) {
  llvm::DenseSet<Term> seen;
  llvm::SmallVector<Term> work(assertions.begin(), assertions.end());
  llvm::SmallVector<Term> facts;
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

//===----------------------------------------------------------------------===//
// Bit-vectors as integers (setBitVectorsAsIntegers)
//===----------------------------------------------------------------------===//

Expr Z3Lowering::pow2(unsigned k) {
  return z3.intVal(llvm::toString(llvm::APInt::getOneBitSet(k + 1, k), 10, false));
}

Expr Z3Lowering::wrapInt(const Expr &x, unsigned w) {
  unsigned n = intFresh++;
  Expr r = z3.intVar(freshName("int.wrap", n));
  Expr k = z3.intVar(freshName("int.k", n));
  intDefs.push_back(z3.intVal(0) <= r && r < pow2(w) && x == r + pow2(w) * k);
  return r;
}

std::pair<Expr, Expr> Z3Lowering::divRem(const Expr &x, const Expr &y,
                                         unsigned w) {
  unsigned n = intFresh++;
  Expr q = z3.intVar(freshName("int.q", n));
  Expr r = z3.intVar(freshName("int.r", n));
  Expr zero = z3.intVal(0);
  if (!y.isNumeral())
    intProducts.push_back({q, y}); // x = q*y + r: q*y is a product
  intDefs.push_back(
      (y == zero).ite(q == pow2(w) - z3.intVal(1) && r == x,
                      x == q * y + r && zero <= r && r < y && zero <= q));
  return {q, r};
}

std::optional<std::pair<llvm::APInt, llvm::APInt>>
Z3Lowering::intervalOf(Term t, unsigned depth) const {
  using llvm::APInt;
  using Interval = std::pair<APInt, APInt>;
  if (t->getSort() != Sort::BV || t->getWidth() > 64 || depth > 16)
    return std::nullopt;
  unsigned w = t->getWidth();
  APInt top = APInt::getLowBitsSet(256, w);
  auto operand = [&](unsigned i) { return intervalOf(t->getOperand(i), depth + 1); };
  switch (t->getKind()) {
  case Kind::BVConst: {
    APInt v = t->getAPInt().zext(256);
    return Interval{v, v};
  }
  case Kind::BVVar: {
    APInt lo(256, 0), hi = top;
    if (auto it = varLowerBounds.find(t); it != varLowerBounds.end())
      lo = it->second;
    if (auto it = varBounds.find(t); it != varBounds.end() && it->second.ult(hi))
      hi = it->second;
    if (lo.ugt(hi))
      return std::nullopt;
    return Interval{lo, hi};
  }
  case Kind::BVZExt:
    return operand(0);
  case Kind::BVSExt: {
    // Exact as a zero extension while the operand's sign bit is clear.
    std::optional<Interval> a = operand(0);
    unsigned aw = t->getOperand(0)->getWidth();
    if (!a || a->second.uge(APInt::getOneBitSet(256, aw - 1)))
      return std::nullopt;
    return a;
  }
  case Kind::BVAdd: {
    std::optional<Interval> a = operand(0), b = a ? operand(1) : a;
    if (!b || (a->second + b->second).ugt(top))
      return std::nullopt;
    return Interval{a->first + b->first, a->second + b->second};
  }
  case Kind::BVSub: {
    std::optional<Interval> a = operand(0), b = a ? operand(1) : a;
    if (!b || a->first.ult(b->second))
      return std::nullopt; // may wrap below zero
    return Interval{a->first - b->second, a->second - b->first};
  }
  case Kind::Ite: {
    std::optional<Interval> a = operand(1), b = a ? operand(2) : a;
    if (!b)
      return std::nullopt;
    return Interval{llvm::APIntOps::umin(a->first, b->first),
                    llvm::APIntOps::umax(a->second, b->second)};
  }
  default:
    return std::nullopt;
  }
}

void Z3Lowering::assumeBoundsOf(llvm::ArrayRef<Term> assertions) {
  llvm::SmallVector<Term> conjuncts;
  llvm::SmallVector<Term> work(assertions.begin(), assertions.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (t->getKind() == Kind::And)
      work.append(t->getOperands().begin(), t->getOperands().end());
    else
      conjuncts.push_back(t);
  }
  auto tighten = [&](Term v, const llvm::APInt &hi) {
    auto it = varBounds.find(v);
    if (it == varBounds.end() || hi.ult(it->second))
      varBounds[v] = hi;
  };
  for (Term c : conjuncts)
    if (c->getKind() == Kind::Not) {
      Term e = c->getOperand(0);
      if (e->getKind() == Kind::Eq &&
          e->getOperand(0)->getKind() == Kind::BVVar &&
          e->getOperand(1)->getKind() == Kind::BVConst &&
          e->getOperand(1)->getAPInt().isZero())
        nonZeroVars.insert(e->getOperand(0));
    }
  // Products of two variables bounded by a constant (the launch's
  // max_threads over a 1-D symbolic launch); with `w < v`, u * w is bounded
  // too (ctaid.x * ntid.x < nctaid.x * ntid.x).
  auto pairOf = [](Term a, Term b) {
    return a->getId() < b->getId() ? std::pair{a, b} : std::pair{b, a};
  };
  for (Term c : conjuncts) {
    if (c->getKind() != Kind::BVUle ||
        c->getOperand(1)->getKind() != Kind::BVConst)
      continue;
    // The product in the fact must not wrap at any of its multiplications,
    // whatever the factors' values (each below 2^(its width)): otherwise
    // the fact bounds the product modulo 2^width only.
    llvm::SmallVector<Term> vars;
    llvm::APInt coeff(256, 1);
    std::function<std::optional<llvm::APInt>(Term)> maxOf =
        [&](Term f) -> std::optional<llvm::APInt> {
      switch (f->getKind()) {
      case Kind::BVConst:
        if (f->getAPInt().getActiveBits() > 64)
          return std::nullopt;
        coeff *= f->getAPInt().zext(256);
        return f->getAPInt().zext(512);
      case Kind::BVVar:
        if (f->getWidth() > 64)
          return std::nullopt;
        vars.push_back(f);
        return llvm::APInt::getLowBitsSet(512, f->getWidth());
      case Kind::BVZExt:
        return maxOf(f->getOperand(0));
      case Kind::BVMul: {
        std::optional<llvm::APInt> a = maxOf(f->getOperand(0));
        std::optional<llvm::APInt> b = a ? maxOf(f->getOperand(1)) : a;
        if (!b || a->getActiveBits() + b->getActiveBits() > 500)
          return std::nullopt;
        llvm::APInt m = *a * *b;
        if (m.getActiveBits() > f->getWidth())
          return std::nullopt; // this multiplication may wrap
        return m;
      }
      default:
        return std::nullopt;
      }
    };
    if (!maxOf(c->getOperand(0)) || vars.size() != 2 || coeff.isZero())
      continue;
    llvm::APInt bound = c->getOperand(1)->getAPInt().zext(256).udiv(coeff);
    productBounds[pairOf(vars[0], vars[1])] = bound;
    for (Term d : conjuncts)
      if (d->getKind() == Kind::BVUlt &&
          d->getOperand(0)->getKind() == Kind::BVVar)
        for (int i = 0; i < 2; ++i)
          if (d->getOperand(1) == vars[i])
            productBounds.try_emplace(pairOf(vars[1 - i], d->getOperand(0)),
                                      bound);
  }
  // Signed bounds of a variable that the query also bounds below by a
  // non-negative constant (a size parameter n in [1, 2^20], asserted as
  // `1 <=s n` and `n <=s 2^20`): its sign bit is clear, so the signed
  // upper bound is an unsigned one.
  {
    auto nonNegative = [](Term c) {
      return c->getKind() == Kind::BVConst && !c->getAPInt().isNegative();
    };
    // The variable's lower bound c0 (the largest asserted).
    llvm::DenseMap<Term, llvm::APInt> signedNonNegative;
    auto lowerBound = [&](Term v, Term c0) {
      llvm::APInt lo = c0->getAPInt().zext(256);
      auto [it, fresh] = signedNonNegative.try_emplace(v, lo);
      if (!fresh && it->second.ult(lo))
        it->second = lo;
    };
    for (Term c : conjuncts) {
      // c0 <=s v, or not (v <s c0), with c0 >= 0.
      if (c->getKind() == Kind::BVSle && nonNegative(c->getOperand(0)) &&
          c->getOperand(1)->getKind() == Kind::BVVar)
        lowerBound(c->getOperand(1), c->getOperand(0));
      if (c->getKind() == Kind::Not &&
          c->getOperand(0)->getKind() == Kind::BVSlt &&
          c->getOperand(0)->getOperand(0)->getKind() == Kind::BVVar &&
          nonNegative(c->getOperand(0)->getOperand(1)))
        lowerBound(c->getOperand(0)->getOperand(0),
                   c->getOperand(0)->getOperand(1));
    }
    for (auto &[v, lo] : signedNonNegative)
      varLowerBounds[v] = lo;
    for (Term c : conjuncts) {
      bool strict = c->getKind() == Kind::BVSlt;
      if (!strict && c->getKind() != Kind::BVSle)
        continue;
      Term v = c->getOperand(0), b = c->getOperand(1);
      if (v->getKind() != Kind::BVVar || !signedNonNegative.count(v) ||
          !nonNegative(b) || (strict && b->getAPInt().isZero()))
        continue;
      llvm::APInt hi = b->getAPInt().zext(256);
      if (strict)
        hi -= 1;
      tighten(v, hi);
    }
  }
  // Twice, so `tid.x < ntid.x` sees the bound of ntid.x.
  for (int round = 0; round < 2; ++round)
    for (Term c : conjuncts) {
      bool strict = c->getKind() == Kind::BVUlt;
      if (!strict && c->getKind() != Kind::BVUle)
        continue;
      Term v = c->getOperand(0), b = c->getOperand(1);
      if (v->getKind() != Kind::BVVar)
        continue;
      llvm::APInt hi;
      if (b->getKind() == Kind::BVConst) {
        hi = b->getAPInt().zext(256);
      } else if (std::optional<std::pair<llvm::APInt, llvm::APInt>> iv =
                     intervalOf(b)) {
        // A bound that is a term over bounded variables (a loop counter
        // below the trip count ite(1 < n, sext(n) - 1, 0)).
        hi = iv->second;
      } else {
        continue;
      }
      if (strict) {
        if (hi.isZero())
          continue; // unsatisfiable anyway; keep the width's range
        hi -= 1;
      }
      tighten(v, hi);
    }
}

Expr Z3Lowering::lowerAsInt(Term t, llvm::ArrayRef<Expr> ops) {
  using llvm::APInt;
  unsigned w = t->getSort() == Sort::BV ? t->getWidth() : 0;
  auto constOperand = [&](unsigned i) -> std::optional<uint64_t> {
    Term o = t->getOperand(i);
    if (o->getKind() != Kind::BVConst || o->getAPInt().getActiveBits() > 63)
      return std::nullopt;
    return o->getAPInt().getZExtValue();
  };
  auto opWidth = [&](unsigned i) { return t->getOperand(i)->getWidth(); };
  auto toSigned = [&](const Expr &x, unsigned width) {
    return (x < pow2(width - 1)).ite(x, x - pow2(width));
  };
  // Value ranges (256-bit, so sums and products of 64-bit values do not
  // overflow): an operation whose exact result stays in [0, 2^w) needs no
  // modular encoding.
  auto full = [&](unsigned width) {
    return std::pair{APInt(256, 0), APInt::getLowBitsSet(256, width)};
  };
  auto range = [&](unsigned i) {
    auto it = ranges.find(t->getOperand(i));
    return it != ranges.end() ? it->second : full(opWidth(i));
  };
  auto fits = [&](const APInt &hi) { return hi.getActiveBits() <= w; };
  Expr zero = z3.intVal(0);
  Expr result;
  std::pair<APInt, APInt> r = full(w);
  switch (t->getKind()) {
  case Kind::BVConst: {
    result = z3.intVal(llvm::toString(t->getAPInt(), 10, false));
    APInt v = t->getAPInt().zext(256);
    r = {v, v};
    break;
  }
  case Kind::BVAdd: {
    auto [a, b] = std::pair{range(0), range(1)};
    APInt hi = a.second + b.second;
    if (fits(hi)) {
      result = ops[0] + ops[1];
      r = {a.first + b.first, hi};
    } else {
      result = wrapInt(ops[0] + ops[1], w);
    }
    break;
  }
  case Kind::BVSub: {
    auto [a, b] = std::pair{range(0), range(1)};
    if (a.first.uge(b.second)) {
      result = ops[0] - ops[1];
      r = {a.first - b.second, a.second - b.first};
    } else {
      result = wrapInt(ops[0] - ops[1], w);
    }
    break;
  }
  case Kind::BVMul: {
    auto [a, b] = std::pair{range(0), range(1)};
    // x * 1 = x (the launch facts multiply by unit extents).
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<uint64_t> c = constOperand(i); c && *c == 1) {
        ranges[t] = range(1 - i);
        return ops[1 - i];
      }
    if (!constOperand(0) && !constOperand(1))
      intProducts.push_back({ops[0], ops[1]});
    bool overflow = false;
    APInt hi = a.second.umul_ov(b.second, overflow);
    // A product of two variables the query bounds (max_threads).
    Term x = t->getOperand(0), y = t->getOperand(1);
    if (x->getKind() == Kind::BVVar && y->getKind() == Kind::BVVar) {
      auto pb = productBounds.find(x->getId() < y->getId() ? std::pair{x, y}
                                                           : std::pair{y, x});
      if (pb != productBounds.end() && (overflow || pb->second.ult(hi))) {
        hi = pb->second;
        overflow = false;
      }
    }
    if (!overflow && fits(hi)) {
      result = ops[0] * ops[1];
      r = {a.first * b.first, hi};
      for (unsigned i = 0; i < 2; ++i)
        if (std::optional<uint64_t> c = constOperand(i); c && *c > 0)
          exactScaled.try_emplace(t, *c, ops[1 - i]);
    } else {
      result = wrapInt(ops[0] * ops[1], w);
    }
    break;
  }
  case Kind::BVUDiv: {
    auto scaled = exactScaled.find(t->getOperand(0));
    if (std::optional<uint64_t> c = constOperand(1);
        c && scaled != exactScaled.end() && scaled->second.first == *c) {
      // (x * c) udiv c = x when the product does not wrap.
      result = scaled->second.second;
      auto a = range(0);
      r = {a.first.udiv(*c), a.second.udiv(*c)};
      break;
    }
    result = divRem(ops[0], ops[1], w).first;
    if (std::optional<uint64_t> c = constOperand(1); c && *c > 0) {
      auto a = range(0);
      r = {a.first.udiv(*c), a.second.udiv(*c)};
    }
    break;
  }
  case Kind::BVURem: {
    auto scaled = exactScaled.find(t->getOperand(0));
    if (std::optional<uint64_t> c = constOperand(1);
        c && scaled != exactScaled.end() && scaled->second.first == *c) {
      result = zero; // (x * c) urem c = 0 when the product does not wrap
      r = {APInt(256, 0), APInt(256, 0)};
      break;
    }
    result = divRem(ops[0], ops[1], w).second;
    auto a = range(0);
    r = {APInt(256, 0), a.second};
    // A divisor the query keeps non-zero bounds the remainder.
    Term y = t->getOperand(1);
    if (nonZeroVars.count(y) || (y->getKind() == Kind::BVConst &&
                                 !y->getAPInt().isZero())) {
      APInt yHi = range(1).second;
      if (!yHi.isZero() && (yHi - 1).ult(r.second))
        r.second = yHi - 1;
    }
    if (std::optional<uint64_t> c = constOperand(1); c && *c > 0 &&
                                                     APInt(256, *c - 1).ult(a.second))
      r.second = APInt(256, *c - 1);
    break;
  }
  case Kind::BVNot: {
    auto a = range(0);
    APInt top = APInt::getLowBitsSet(256, w);
    result = pow2(w) - z3.intVal(1) - ops[0];
    r = {top - a.second, top - a.first};
    break;
  }
  case Kind::BVAnd: {
    // x & (2^k - 1) = x mod 2^k.
    for (unsigned i = 0; i < 2 && !result.isValid(); ++i) {
      Term m = t->getOperand(i);
      if (m->getKind() != Kind::BVConst || !m->getAPInt().isMask())
        continue;
      APInt mask = m->getAPInt().zext(256);
      auto a = range(1 - i);
      if (a.second.ule(mask)) {
        result = ops[1 - i];
        r = a;
      } else {
        result = divRem(ops[1 - i],
                        pow2(m->getAPInt().countTrailingOnes()), w)
                     .second;
        r = {APInt(256, 0), mask};
      }
    }
    if (!result.isValid())
      return fail("bitwise and with a value other than a low-bit mask is "
                  "not encoded over the integers: " + t->toBriefString());
    break;
  }
  case Kind::BVShl:
  case Kind::BVLShr: {
    // Shifts by a constant (PTX clamps larger amounts to a zero result).
    std::optional<uint64_t> c = constOperand(1);
    if (!c)
      return fail("a shift by a symbolic amount is not encoded over the "
                  "integers");
    if (*c >= w) {
      result = zero;
      r = {APInt(256, 0), APInt(256, 0)};
      break;
    }
    auto a = range(0);
    if (t->getKind() == Kind::BVLShr) {
      result = divRem(ops[0], pow2(*c), w).first;
      r = {a.first.lshr(*c), a.second.lshr(*c)};
      break;
    }
    APInt hi = a.second.shl(*c);
    if (a.second.getActiveBits() + *c <= 256 && fits(hi)) {
      result = ops[0] * pow2(*c);
      r = {a.first.shl(*c), hi};
      if (*c < 63)
        exactScaled.try_emplace(t, uint64_t(1) << *c, ops[0]);
    } else {
      result = wrapInt(ops[0] * pow2(*c), w);
    }
    break;
  }
  case Kind::BVZExt:
    result = ops[0];
    r = range(0);
    break;
  case Kind::BVSExt: {
    unsigned from = opWidth(0);
    auto a = range(0);
    if (a.second.getActiveBits() < from) {
      result = ops[0]; // non-negative: sign extension is the identity
      r = a;
    } else {
      result = (ops[0] < pow2(from - 1))
                   .ite(ops[0], ops[0] + pow2(w) - pow2(from));
    }
    break;
  }
  case Kind::BVExtract: {
    Expr x = ops[0];
    auto a = range(0);
    unsigned lo = t->getExtractLow();
    if (lo) {
      x = divRem(x, pow2(lo), opWidth(0)).first;
      a = {a.first.lshr(lo), a.second.lshr(lo)};
    }
    if (fits(a.second)) {
      result = x;
      r = a;
    } else {
      result = wrapInt(x, w);
    }
    break;
  }
  case Kind::BVConcat:
    result = ops[0] * pow2(opWidth(1)) + ops[1];
    break;
  case Kind::BVUlt:
    return ops[0] < ops[1];
  case Kind::BVUle:
    return ops[0] <= ops[1];
  case Kind::BVSlt:
    return toSigned(ops[0], opWidth(0)) < toSigned(ops[1], opWidth(1));
  case Kind::BVSle:
    return toSigned(ops[0], opWidth(0)) <= toSigned(ops[1], opWidth(1));
  case Kind::BVToReal:
    return (t->isSigned() ? toSigned(ops[0], opWidth(0)) : ops[0]).toReal();
  case Kind::Ite: {
    result = ops[0].ite(ops[1], ops[2]);
    auto [a, b] = std::pair{range(1), range(2)};
    r = {llvm::APIntOps::umin(a.first, b.first),
         llvm::APIntOps::umax(a.second, b.second)};
    break;
  }
  default:
    return fail("'" + t->toBriefString() +
                "' is not encoded over the integers (bit-vectors as "
                "integers)");
  }
  if (w)
    ranges[t] = r;
  return result;
}

std::vector<Expr> Z3Lowering::intDefinitions() {
  std::vector<Expr> facts = intDefs;
  // Monotonicity of the product of non-negative values, for each ordered
  // pair of products a*b, c*d (both pairings of their factors):
  //   a <= c and b <= d  ->  a*b <= c*d
  //   a <  c and b <= d  ->  a*b + d <= c*d     (a*b <= (c-1)*d)
  for (size_t i = 0; i < intProducts.size(); ++i)
    for (size_t j = 0; j < intProducts.size(); ++j) {
      if (i == j)
        continue;
      auto &[c, d] = intProducts[j];
      Expr cd = c * d;
      for (int swap = 0; swap < 2; ++swap) {
        const Expr &a = swap ? intProducts[i].second : intProducts[i].first;
        const Expr &b = swap ? intProducts[i].first : intProducts[i].second;
        Expr ab = a * b;
        facts.push_back((a <= c && b <= d).implies(ab <= cd));
        facts.push_back((a < c && b <= d).implies(ab + d <= cd));
      }
    }
  return facts;
}
