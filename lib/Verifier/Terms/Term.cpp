//===- Term.cpp - the engine's hash-consed term DAG -----------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Term.h"

#include "KProof/Verifier/Terms/Constants.h"

#include "llvm/ADT/DenseSet.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <functional>

using namespace kproof;
using namespace kproof::engine;

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static const char *kindName(Kind k) {
  switch (k) {
  case Kind::BoolConst: return "bool";
  case Kind::BoolVar: return "boolvar";
  case Kind::Not: return "not";
  case Kind::And: return "and";
  case Kind::Or: return "or";
  case Kind::RealLt: return "<";
  case Kind::RealLe: return "<=";
  case Kind::Eq: return "=";
  case Kind::BVUlt: return "bvult";
  case Kind::BVUle: return "bvule";
  case Kind::BVSlt: return "bvslt";
  case Kind::BVSle: return "bvsle";
  case Kind::Ite: return "ite";
  case Kind::RealConst: return "real";
  case Kind::NegInf: return "-inf";
  case Kind::PosInf: return "+inf";
  case Kind::NaN: return "nan";
  case Kind::RealVar: return "realvar";
  case Kind::Add: return "+";
  case Kind::Mul: return "*";
  case Kind::Div: return "/";
  case Kind::Exp: return "exp";
  case Kind::Exp2: return "exp2";
  case Kind::Max: return "max";
  case Kind::Min: return "min";
  case Kind::RealFn: return "fn";
  case Kind::Select: return "select";
  case Kind::BVToReal: return "bv2real";
  case Kind::SumOver: return "sum";
  case Kind::MaxOver: return "max-over";
  case Kind::MinOver: return "min-over";
  case Kind::BVConst: return "bv";
  case Kind::BVVar: return "bvvar";
  case Kind::BVAdd: return "bvadd";
  case Kind::BVSub: return "bvsub";
  case Kind::BVMul: return "bvmul";
  case Kind::BVUDiv: return "bvudiv";
  case Kind::BVSDiv: return "bvsdiv";
  case Kind::BVURem: return "bvurem";
  case Kind::BVSRem: return "bvsrem";
  case Kind::BVAnd: return "bvand";
  case Kind::BVOr: return "bvor";
  case Kind::BVXor: return "bvxor";
  case Kind::BVNot: return "bvnot";
  case Kind::BVShl: return "bvshl";
  case Kind::BVLShr: return "bvlshr";
  case Kind::BVAShr: return "bvashr";
  case Kind::BVZExt: return "zext";
  case Kind::BVSExt: return "sext";
  case Kind::BVExtract: return "extract";
  case Kind::BVConcat: return "concat";
  case Kind::FloatBits:
    return "fbits";
  }
  llvm_unreachable("covered switch");
}

void TermNode::print(llvm::raw_ostream &os) const {
  switch (kind) {
  case Kind::BoolConst:
    os << (boolValue ? "true" : "false");
    return;
  case Kind::BoolVar:
  case Kind::RealVar:
  case Kind::BVVar:
    os << name;
    return;
  case Kind::RealConst:
    os << rational.toString();
    return;
  case Kind::NegInf:
  case Kind::PosInf:
  case Kind::NaN:
    os << kindName(kind);
    return;
  case Kind::BVConst:
    os << "#" << apint.getBitWidth() << "'" << apint.getZExtValue();
    return;
  default:
    break;
  }
  os << "(" << kindName(kind);
  if (kind == Kind::RealFn || kind == Kind::Select || isReduction() ||
      kind == Kind::FloatBits)
    os << " " << name;
  if (kind == Kind::BVZExt || kind == Kind::BVSExt)
    os << " " << width;
  if (kind == Kind::BVExtract)
    os << " " << extractLow << " " << width;
  if (kind == Kind::BVToReal)
    os << (boolValue ? " signed" : " unsigned");
  for (Term t : operands) {
    os << " ";
    t->print(os);
  }
  os << ")";
}

static void printBounded(const TermNode *t, std::string &out, size_t limit) {
  if (out.size() > limit)
    return;
  if (t->getOperands().empty()) {
    out += t->toString();
    return;
  }
  // The head as print() writes it: everything before the first operand.
  std::string head;
  {
    llvm::raw_string_ostream os(head);
    os << "(" << kindName(t->getKind());
    if (t->getKind() == Kind::RealFn || t->getKind() == Kind::Select ||
        t->isReduction() || t->getKind() == Kind::FloatBits)
      os << " " << t->getName();
    if (t->getKind() == Kind::BVZExt || t->getKind() == Kind::BVSExt)
      os << " " << t->getWidth();
    if (t->getKind() == Kind::BVExtract)
      os << " " << t->getExtractLow() << " " << t->getWidth();
    if (t->getKind() == Kind::BVToReal)
      os << (t->isSigned() ? " signed" : " unsigned");
  }
  out += head;
  for (Term o : t->getOperands()) {
    if (out.size() > limit)
      return;
    out += " ";
    printBounded(o, out, limit);
  }
  out += ")";
}

std::string TermNode::toBriefString(size_t limit) const {
  std::string s;
  printBounded(this, s, limit);
  if (s.size() > limit)
    s = s.substr(0, limit > 3 ? limit - 3 : 0) + "...";
  return s;
}

/// The infix operator toReadableString writes for `k`; empty when `k` is
/// not printed infix. Unsigned forms carry a `u`: `<u`, `/u`, `%u`, `>>u`
/// (logical shift); `/`, `%`, `>>` are the signed ones (and real `/`).
static llvm::StringRef infixOperator(Kind k) {
  switch (k) {
  case Kind::And:
    return "&&";
  case Kind::Or:
    return "||";
  case Kind::RealLt:
  case Kind::BVSlt:
    return "<";
  case Kind::RealLe:
  case Kind::BVSle:
    return "<=";
  case Kind::BVUlt:
    return "<u";
  case Kind::BVUle:
    return "<=u";
  case Kind::Eq:
    return "==";
  case Kind::Add:
  case Kind::BVAdd:
    return "+";
  case Kind::Mul:
  case Kind::BVMul:
    return "*";
  case Kind::Div:
  case Kind::BVSDiv:
    return "/";
  case Kind::BVUDiv:
    return "/u";
  case Kind::BVSub:
    return "-";
  case Kind::BVSRem:
    return "%";
  case Kind::BVURem:
    return "%u";
  case Kind::BVAnd:
    return "&";
  case Kind::BVOr:
    return "|";
  case Kind::BVXor:
    return "^";
  case Kind::BVShl:
    return "<<";
  case Kind::BVAShr:
    return ">>";
  case Kind::BVLShr:
    return ">>u";
  default:
    return {};
  }
}

/// Infix printing for toReadableString: appends `t` to `s`, parenthesized
/// when `nested` and it is an infix form; stops once `s` exceeds `limit`.
static void printReadable(Term t, std::string &s, size_t limit, bool nested) {
  if (s.size() > limit)
    return;
  auto ops = t->getOperands();
  auto infix = [&](llvm::StringRef op) {
    if (nested)
      s += "(";
    for (size_t i = 0; i < ops.size() && s.size() <= limit; ++i) {
      if (i)
        s += " " + op.str() + " ";
      printReadable(ops[i], s, limit, true);
    }
    if (nested)
      s += ")";
  };
  auto call = [&](llvm::StringRef fn) {
    s += fn.str() + "(";
    for (size_t i = 0; i < ops.size() && s.size() <= limit; ++i) {
      if (i)
        s += ", ";
      printReadable(ops[i], s, limit, false);
    }
    s += ")";
  };
  auto boundName = [](llvm::StringRef name) {
    return name.starts_with("$r") ? "j" + name.drop_front(2).str() : name.str();
  };
  if (llvm::StringRef op = infixOperator(t->getKind()); !op.empty())
    return infix(op);
  switch (t->getKind()) {
  case Kind::BoolConst:
    s += t->getBoolValue() ? "true" : "false";
    return;
  case Kind::BoolVar:
  case Kind::RealVar:
    s += t->getName().str();
    return;
  case Kind::BVVar:
    s += boundName(t->getName());
    return;
  case Kind::BVConst: {
    const llvm::APInt &v = t->getAPInt();
    // The unsigned value, in hex past 2^16 (a mask, or a negative number
    // as the bit-vector holds it: 0xfffffffc is -4 to signed operations).
    llvm::SmallString<24> digits;
    if (v.getActiveBits() > 16) {
      s += "0x";
      v.toString(digits, 16, /*Signed=*/false, /*formatAsCLiteral=*/false,
                 /*UpperCase=*/false);
    } else {
      v.toString(digits, 10, /*Signed=*/false);
    }
    s += digits.str().str();
    return;
  }
  case Kind::RealConst: {
    std::string q = t->getRational().toString();
    bool fraction = q.find('/') != std::string::npos;
    s += nested && fraction ? "(" + q + ")" : q;
    return;
  }
  case Kind::NegInf:
    s += "-inf";
    return;
  case Kind::PosInf:
    s += "inf";
    return;
  case Kind::NaN:
    s += "NaN";
    return;
  case Kind::Not:
    s += "!";
    printReadable(ops[0], s, limit, true);
    return;
  case Kind::Ite:
    s += "(";
    printReadable(ops[0], s, limit, true);
    s += " ? ";
    printReadable(ops[1], s, limit, true);
    s += " : ";
    printReadable(ops[2], s, limit, true);
    s += ")";
    return;
  case Kind::BVNot:
    s += "~";
    printReadable(ops[0], s, limit, true);
    return;
  case Kind::BVZExt:
  case Kind::BVSExt:
  case Kind::BVToReal:
    // Widths, extensions and integer-to-real conversions are not shown
    // (kproof's sizes and indices are non-negative where it reads them).
    printReadable(ops[0], s, limit, nested);
    return;
  case Kind::BVExtract: {
    // Bits [lo + w - 1 : lo]: a low part of a value that fits it is the
    // value itself (shown without the extract).
    unsigned lo = t->getExtractLow(), w = t->getWidth();
    Term x = ops[0];
    if (lo == 0 &&
        (x->getKind() == Kind::BVZExt || x->getKind() == Kind::BVSExt) &&
        x->getOperand(0)->getWidth() <= w) {
      printReadable(x, s, limit, nested);
      return;
    }
    s += "bits(";
    printReadable(x, s, limit, false);
    s += ", " + std::to_string(lo + w - 1) + ":" + std::to_string(lo) + ")";
    return;
  }
  case Kind::BVConcat:
    return call("concat");
  case Kind::FloatBits:
    return call(("bits_" + t->getName().str()));
  case Kind::Exp:
    return call("exp");
  case Kind::Exp2:
    return call("exp2");
  case Kind::Max:
    return call("max");
  case Kind::Min:
    return call("min");
  case Kind::RealFn:
    return call(t->getName());
  case Kind::Select:
    s += t->getName().str() + "[";
    printReadable(ops[0], s, limit, false);
    s += "]";
    return;
  case Kind::SumOver:
  case Kind::MaxOver:
  case Kind::MinOver: {
    if (nested)
      s += "(";
    s += t->getKind() == Kind::SumOver   ? "sum_{"
         : t->getKind() == Kind::MaxOver ? "max_{"
                                         : "min_{";
    s += boundName(t->getName()) + " in [";
    printReadable(ops[0], s, limit, false);
    s += ", ";
    printReadable(ops[1], s, limit, false);
    s += ")} ";
    printReadable(ops[2], s, limit, true);
    if (nested)
      s += ")";
    return;
  }
  default: // the infix forms, above
    break;
  }
  s += "?";
}

std::string TermNode::toReadableString(size_t limit) const {
  std::string s;
  printReadable(this, s, limit, false);
  if (s.size() > limit)
    s = s.substr(0, limit > 3 ? limit - 3 : 0) + "...";
  return s;
}

std::string TermNode::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// Interning
//===----------------------------------------------------------------------===//

TermContext::TermContext() = default;
TermContext::~TermContext() = default;

Term TermContext::intern(Kind kind, Sort sort, unsigned width,
                         llvm::ArrayRef<Term> ops, const Rational *q,
                         const llvm::APInt *ap, llvm::StringRef name,
                         bool boolValue, unsigned extractLow) {
  size_t h = llvm::hash_combine(static_cast<unsigned>(kind),
                                static_cast<unsigned>(sort), width, boolValue,
                                extractLow, name);
  for (Term t : ops)
    h = llvm::hash_combine(h, t);
  if (q)
    h = llvm::hash_combine(h, q->hash());
  if (ap)
    h = llvm::hash_combine(h, llvm::hash_value(*ap));
  auto range = table.equal_range(h);
  for (auto it = range.first; it != range.second; ++it) {
    TermNode *n = it->second;
    if (n->kind != kind || n->sort != sort || n->width != width ||
        n->boolValue != boolValue || n->extractLow != extractLow ||
        n->name != name || n->operands.size() != ops.size())
      continue;
    if (!std::equal(ops.begin(), ops.end(), n->operands.begin()))
      continue;
    if (q && n->rational != *q)
      continue;
    if (ap && (n->apint.getBitWidth() != ap->getBitWidth() || n->apint != *ap))
      continue;
    return n;
  }
  auto node = std::make_unique<TermNode>();
  node->kind = kind;
  node->sort = sort;
  node->width = width;
  node->boolValue = boolValue;
  node->extractLow = extractLow;
  node->operands.assign(ops.begin(), ops.end());
  if (q)
    node->rational = *q;
  if (ap)
    node->apint = *ap;
  node->name = name.str();
  node->id = nodes.size();
  switch (kind) {
  case Kind::NegInf:
    node->extended = TermNode::kExtendedNegInf;
    break;
  case Kind::PosInf:
    node->extended = TermNode::kExtendedPosInf;
    break;
  case Kind::NaN:
    node->extended = TermNode::kExtendedNaN;
    break;
  case Kind::Ite:
    if (sort == Sort::Real &&
        (ops[1]->mayBeNonFinite() || ops[2]->mayBeNonFinite())) {
      node->extended = ops[1]->getExtended() | ops[2]->getExtended();
      node->extendedLeaves =
          ops[1]->getExtendedLeaves() + ops[2]->getExtendedLeaves();
    }
    break;
  default:
    break;
  }
  TermNode *raw = node.get();
  nodes.push_back(std::move(node));
  table.emplace(h, raw);
  return raw;
}

static bool byId(Term a, Term b) { return a->getId() < b->getId(); }
static bool isInf(Term t) {
  return t && (t->getKind() == Kind::NegInf || t->getKind() == Kind::PosInf);
}
static bool isNaN(Term t) { return t && t->getKind() == Kind::NaN; }
/// An ite with an extended leaf: what liftExtended distributes over.
static bool isExtendedIte(Term t) {
  return t && t->getKind() == Kind::Ite && t->mayBeNonFinite();
}

/// A MaxOver (MinOver) is -inf (+inf) exactly when its range is empty (its
/// body is finite: TermContext::reduce); every other non-constant real term
/// except an extended ite is finite. For a comparison of `inf` (an
/// infinity constant) with `r`: the range of r that makes r equal to inf,
/// when r is the reduction that can be that infinity; null otherwise.
static Term emptyReductionEqualTo(TermContext &T, Term inf, Term r) {
  if (!isInf(inf) || !r->isReduction())
    return nullptr;
  Kind k = inf->getKind() == Kind::NegInf ? Kind::MaxOver : Kind::MinOver;
  if (r->getKind() != k)
    return nullptr;
  return T.bvSle(r->getOperand(1), r->getOperand(0));
}

Term TermContext::decideExtendedCases(Term t, Term c, bool value) {
  if (!t || !isExtendedIte(t))
    return t;
  Term cond = t->getOperand(0);
  // c itself, a disjunction with c as a disjunct (c true), a conjunction
  // with c as a conjunct (c false): the condition is decided.
  if (cond == c ||
      (value && cond->getKind() == Kind::Or &&
       llvm::is_contained(cond->getOperands(), c)) ||
      (!value && cond->getKind() == Kind::And &&
       llvm::is_contained(cond->getOperands(), c)))
    return decideExtendedCases(t->getOperand(value ? 1 : 2), c, value);
  return ite(t->getOperand(0),
             decideExtendedCases(t->getOperand(1), c, value),
             decideExtendedCases(t->getOperand(2), c, value));
}

std::optional<Term> TermContext::liftExtended(
    llvm::ArrayRef<Term> ops,
    llvm::function_ref<Term(llvm::ArrayRef<Term>)> build) {
  size_t at = ops.size();
  uint64_t cases = 1;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i])
      return Term(nullptr);
    if (isExtendedIte(ops[i])) {
      if (at == ops.size())
        at = i;
      cases *= ops[i]->getExtendedLeaves();
    }
  }
  if (at == ops.size())
    return std::nullopt;
  if (cases > kMaxExtendedCases)
    return Term(nullptr); // too many cases of extended values: refused
  Term c = ops[at]->getOperand(0);
  llvm::SmallVector<Term, 4> thenOps, elseOps;
  for (size_t i = 0; i < ops.size(); ++i) {
    thenOps.push_back(i == at ? ops[i]->getOperand(1)
                              : decideExtendedCases(ops[i], c, true));
    elseOps.push_back(i == at ? ops[i]->getOperand(2)
                              : decideExtendedCases(ops[i], c, false));
  }
  Term t = build(thenOps), e = build(elseOps);
  if (!t || !e)
    return Term(nullptr);
  return ite(c, t, e);
}

//===----------------------------------------------------------------------===//
// Bool
//===----------------------------------------------------------------------===//

Term TermContext::boolConst(bool v) {
  return intern(Kind::BoolConst, Sort::Bool, 0, {}, nullptr, nullptr, {}, v);
}
Term TermContext::boolVar(llvm::StringRef name) {
  return intern(Kind::BoolVar, Sort::Bool, 0, {}, nullptr, nullptr, name);
}

Term TermContext::notOf(Term a) {
  if (!a)
    return nullptr;
  if (a->getKind() == Kind::BoolConst)
    return boolConst(!a->getBoolValue());
  if (a->getKind() == Kind::Not)
    return a->getOperand(0);
  return intern(Kind::Not, Sort::Bool, 0, {a});
}

/// And/Or: flatten, drop the neutral element, short-circuit on the absorbing
/// one, deduplicate, order by id.
static Term naryBool(TermContext &ctx, Kind kind, llvm::ArrayRef<Term> in,
                     llvm::function_ref<Term(llvm::ArrayRef<Term>)> make) {
  bool absorbing = kind == Kind::Or; // true absorbs Or, false absorbs And
  llvm::SmallVector<Term, 8> ops;
  llvm::SmallVector<Term, 8> work(in.begin(), in.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!t)
      return nullptr;
    if (t->getKind() == kind) {
      work.append(t->getOperands().begin(), t->getOperands().end());
      continue;
    }
    if (t->getKind() == Kind::BoolConst) {
      if (t->getBoolValue() == absorbing)
        return ctx.boolConst(absorbing);
      continue;
    }
    ops.push_back(t);
  }
  llvm::sort(ops, byId);
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  if (ops.empty())
    return ctx.boolConst(!absorbing);
  if (ops.size() == 1)
    return ops.front();
  return make(ops);
}

Term TermContext::andOf(llvm::ArrayRef<Term> ops) {
  return naryBool(*this, Kind::And, ops, [&](llvm::ArrayRef<Term> o) {
    return intern(Kind::And, Sort::Bool, 0, o);
  });
}
Term TermContext::orOf(llvm::ArrayRef<Term> ops) {
  return naryBool(*this, Kind::Or, ops, [&](llvm::ArrayRef<Term> o) {
    return intern(Kind::Or, Sort::Bool, 0, o);
  });
}

Term TermContext::realLt(Term a, Term b) {
  if (!a || !b)
    return nullptr;
  if (std::optional<Term> l = liftExtended(
          {a, b}, [&](llvm::ArrayRef<Term> o) { return realLt(o[0], o[1]); }))
    return *l;
  if (isNaN(a) || isNaN(b))
    return boolConst(false); // ordered comparisons with NaN are false
  if (a == b)
    return boolConst(false);
  // -inf < max over R and min over R < +inf: R is not empty.
  if (Term e = emptyReductionEqualTo(*this, a, b);
      e && a->getKind() == Kind::NegInf)
    return notOf(e);
  if (Term e = emptyReductionEqualTo(*this, b, a);
      e && b->getKind() == Kind::PosInf)
    return notOf(e);
  if (a->isRealConst() && b->isRealConst())
    return boolConst(a->getRational() < b->getRational());
  // Every non-constant real term is finite in the reals model.
  if (a->getKind() == Kind::NegInf || b->getKind() == Kind::PosInf)
    return boolConst(true);
  if (a->getKind() == Kind::PosInf || b->getKind() == Kind::NegInf)
    return boolConst(false);
  return intern(Kind::RealLt, Sort::Bool, 0, {a, b});
}

Term TermContext::realLe(Term a, Term b) {
  if (!a || !b)
    return nullptr;
  if (std::optional<Term> l = liftExtended(
          {a, b}, [&](llvm::ArrayRef<Term> o) { return realLe(o[0], o[1]); }))
    return *l;
  if (isNaN(a) || isNaN(b))
    return boolConst(false);
  if (a == b)
    return boolConst(true);
  // max over R <= -inf and +inf <= min over R: R is empty.
  if (Term e = emptyReductionEqualTo(*this, a, b);
      e && b->getKind() == Kind::MinOver)
    return e;
  if (Term e = emptyReductionEqualTo(*this, b, a);
      e && a->getKind() == Kind::MaxOver)
    return e;
  if (a->isRealConst() && b->isRealConst())
    return boolConst(a->getRational() <= b->getRational());
  if (a->getKind() == Kind::NegInf || b->getKind() == Kind::PosInf)
    return boolConst(true);
  if (a->getKind() == Kind::PosInf || b->getKind() == Kind::NegInf)
    return boolConst(false);
  return intern(Kind::RealLe, Sort::Bool, 0, {a, b});
}

Term TermContext::eq(Term a, Term b) {
  if (!a || !b)
    return nullptr;
  if (a->getSort() == Sort::Real) {
    if (std::optional<Term> l = liftExtended(
            {a, b}, [&](llvm::ArrayRef<Term> o) { return eq(o[0], o[1]); }))
      return *l;
    if (isNaN(a) || isNaN(b))
      return boolConst(false); // NaN equals nothing, itself included
  }
  if (a == b)
    return boolConst(true);
  if (a->isConstant() && b->isConstant())
    return boolConst(false); // distinct interned constants differ
  // ite(c, k1, k2) == k over constants (a predicate through selp and
  // setp): c, not c, or a constant.
  for (int k = 0; k < 2 && a->getSort() == Sort::BV; ++k) {
    Term i = k ? b : a, o = k ? a : b;
    if (i->getKind() != Kind::Ite || o->getKind() != Kind::BVConst ||
        i->getOperand(1)->getKind() != Kind::BVConst ||
        i->getOperand(2)->getKind() != Kind::BVConst)
      continue;
    bool onTrue = i->getOperand(1) == o, onFalse = i->getOperand(2) == o;
    if (onTrue && onFalse)
      return boolConst(true);
    if (onTrue)
      return i->getOperand(0);
    if (onFalse)
      return notOf(i->getOperand(0));
    return boolConst(false);
  }
  if (Term e = emptyReductionEqualTo(*this, a, b))
    return e; // max over an empty range is -inf (min: +inf)
  if (Term e = emptyReductionEqualTo(*this, b, a))
    return e;
  if (isInf(a) || isInf(b))
    return boolConst(false); // a finite term never equals an infinity
  if (b->getId() < a->getId())
    std::swap(a, b);
  return intern(Kind::Eq, Sort::Bool, 0, {a, b});
}

/// The comparisons a constant at the end of the order decides: 0 <=u x,
/// x <=u UMAX, INT_MIN <=s x, x <=s INT_MAX are true; x <u 0, UMAX <u x,
/// x <s INT_MIN, INT_MAX <s x are false (a causal mask's `0 <= i`).
static std::optional<bool> boundFold(Kind kind, Term a, Term b) {
  bool isSigned = kind == Kind::BVSle || kind == Kind::BVSlt;
  bool strict = kind == Kind::BVUlt || kind == Kind::BVSlt;
  auto isMin = [&](Term t) {
    return t->getKind() == Kind::BVConst &&
           (isSigned ? t->getAPInt().isMinSignedValue()
                     : t->getAPInt().isMinValue());
  };
  auto isMax = [&](Term t) {
    return t->getKind() == Kind::BVConst &&
           (isSigned ? t->getAPInt().isMaxSignedValue()
                     : t->getAPInt().isMaxValue());
  };
  if (!strict && (isMin(a) || isMax(b)))
    return true;
  if (strict && (isMin(b) || isMax(a)))
    return false;
  return std::nullopt;
}

#define BV_CMP(NAME, KIND, FOLD)                                               \
  Term TermContext::NAME(Term a, Term b) {                                     \
    if (!a || !b)                                                              \
      return nullptr;                                                          \
    if (a->getKind() == Kind::BVConst && b->getKind() == Kind::BVConst)        \
      return boolConst(a->getAPInt().FOLD(b->getAPInt()));                     \
    if (std::optional<bool> f = boundFold(Kind::KIND, a, b))                   \
      return boolConst(*f);                                                    \
    return intern(Kind::KIND, Sort::Bool, 0, {a, b});                          \
  }
BV_CMP(bvUlt, BVUlt, ult)
BV_CMP(bvUle, BVUle, ule)
BV_CMP(bvSlt, BVSlt, slt)
BV_CMP(bvSle, BVSle, sle)
#undef BV_CMP

Term TermContext::ite(Term c, Term t, Term e) {
  if (!c || !t || !e)
    return nullptr;
  if (c->getKind() == Kind::BoolConst)
    return c->getBoolValue() ? t : e;
  if (t == e)
    return t;
  if (c->getKind() == Kind::Not)
    return ite(c->getOperand(0), e, t);
  if (t->getSort() == Sort::Bool) {
    if (t->getKind() == Kind::BoolConst && e->getKind() == Kind::BoolConst)
      return t->getBoolValue() ? c : notOf(c);
  }
  return intern(Kind::Ite, t->getSort(), t->getWidth(), {c, t, e});
}

//===----------------------------------------------------------------------===//
// Real
//===----------------------------------------------------------------------===//

Term TermContext::real(const Rational &q) {
  return intern(Kind::RealConst, Sort::Real, 0, {}, &q);
}
Term TermContext::negInf() { return intern(Kind::NegInf, Sort::Real, 0, {}); }
Term TermContext::posInf() { return intern(Kind::PosInf, Sort::Real, 0, {}); }
Term TermContext::nan() { return intern(Kind::NaN, Sort::Real, 0, {}); }
Term TermContext::realVar(llvm::StringRef name) {
  return intern(Kind::RealVar, Sort::Real, 0, {}, nullptr, nullptr, name);
}

Term TermContext::add(llvm::ArrayRef<Term> in) {
  if (in.size() == 2)
    if (Term r = mergeRanges(Kind::SumOver, in[0], in[1]))
      return r;
  if (std::optional<Term> l = liftExtended(
          in, [&](llvm::ArrayRef<Term> o) { return add(o); }))
    return *l;
  Rational constant(0);
  bool negInfSeen = false, posInfSeen = false;
  llvm::SmallVector<Term, 8> ops;
  llvm::SmallVector<Term, 8> work(in.begin(), in.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!t)
      return nullptr;
    switch (t->getKind()) {
    case Kind::Add:
      work.append(t->getOperands().begin(), t->getOperands().end());
      break;
    case Kind::RealConst:
      constant = constant + t->getRational();
      break;
    case Kind::NegInf:
      negInfSeen = true;
      break;
    case Kind::PosInf:
      posInfSeen = true;
      break;
    case Kind::NaN:
      return t;
    default:
      ops.push_back(t);
    }
  }
  if (negInfSeen && posInfSeen)
    return nan(); // inf - inf
  if (negInfSeen)
    return negInf();
  if (posInfSeen)
    return posInf();
  llvm::sort(ops, byId);
  // x + x = 2 * x: an operand that occurs k times becomes k * x, so that a
  // chain of doublings (add %f1, %f1, %f1, 26 times) stays one product
  // instead of flattening into 2^26 operands.
  {
    llvm::SmallVector<Term, 8> grouped;
    for (size_t i = 0; i < ops.size();) {
      size_t j = i + 1;
      while (j < ops.size() && ops[j] == ops[i])
        ++j;
      grouped.push_back(j - i == 1
                            ? ops[i]
                            : mul({real(Rational(int64_t(j - i))), ops[i]}));
      i = j;
    }
    if (grouped.size() != ops.size()) {
      // A grouped product may itself be a constant times a term already
      // present: sort again for the canonical order.
      llvm::sort(grouped, byId);
      ops = std::move(grouped);
    }
  }
  if (!constant.isZero() || ops.empty())
    ops.insert(ops.begin(), real(constant));
  if (ops.size() == 1)
    return ops.front();
  return intern(Kind::Add, Sort::Real, 0, ops);
}

Term TermContext::neg(Term a) {
  if (!a)
    return nullptr;
  if (std::optional<Term> l = liftExtended(
          {a}, [&](llvm::ArrayRef<Term> o) { return neg(o[0]); }))
    return *l;
  if (isNaN(a))
    return a;
  if (a->getKind() == Kind::NegInf)
    return posInf();
  if (a->getKind() == Kind::PosInf)
    return negInf();
  return mul(real(-1), a);
}

Term TermContext::sub(Term a, Term b) { return add(a, neg(b)); }

/// The sign of a closed term of known sign: a rational constant, a
/// positive constant atom (log(2), sqrt(2), pi(): Constants.h), and
/// products and quotients of those; 0 when unknown (or zero).
static int constantSign(Term t) {
  switch (t->getKind()) {
  case Kind::RealConst:
    return t->getRational().sign();
  case Kind::RealFn:
    return isPositiveConstantAtom(t) ? 1 : 0;
  case Kind::Mul:
  case Kind::Div: {
    int s = 1;
    for (Term op : t->getOperands())
      s *= constantSign(op);
    return s;
  }
  default:
    return 0;
  }
}

Term TermContext::mul(llvm::ArrayRef<Term> in) {
  if (std::optional<Term> l = liftExtended(
          in, [&](llvm::ArrayRef<Term> o) { return mul(o); }))
    return *l;
  Rational constant(1);
  int infSign = 0; // 0: none; +1/-1: an infinity of that sign seen
  llvm::SmallVector<Term, 8> ops;
  llvm::SmallVector<Term, 8> work(in.begin(), in.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!t)
      return nullptr;
    switch (t->getKind()) {
    case Kind::Mul:
      work.append(t->getOperands().begin(), t->getOperands().end());
      break;
    case Kind::RealConst:
      constant = constant * t->getRational();
      break;
    case Kind::NegInf:
    case Kind::PosInf: {
      int s = t->getKind() == Kind::NegInf ? -1 : 1;
      infSign = infSign ? infSign * s : s;
      break;
    }
    case Kind::NaN:
      return t;
    default:
      ops.push_back(t);
    }
  }
  if (infSign) {
    // inf times a constant of known sign (0 * inf is NaN; log2(e) read as
    // 1 / log(2) is positive); inf times a term of unknown sign is not
    // modeled.
    if (constant.isZero())
      return nan();
    int sign = infSign * constant.sign();
    for (Term op : ops)
      sign *= constantSign(op);
    if (sign == 0)
      return nullptr;
    return sign < 0 ? negInf() : posInf();
  }
  if (constant.isZero())
    return real(0); // every non-constant term is finite
  llvm::sort(ops, byId);
  if (!constant.isOne() || ops.empty())
    ops.insert(ops.begin(), real(constant));
  if (ops.size() == 1)
    return ops.front();
  return intern(Kind::Mul, Sort::Real, 0, ops);
}

Term TermContext::div(Term a, Term b) {
  if (!a || !b)
    return nullptr;
  if (std::optional<Term> l = liftExtended(
          {a, b}, [&](llvm::ArrayRef<Term> o) { return div(o[0], o[1]); }))
    return *l;
  if (isNaN(a) || isNaN(b))
    return nan();
  if (isInf(b))
    // finite / inf = 0 (the finite term may be 0: still 0); inf / inf NaN.
    return isInf(a) ? nan() : real(0);
  if (b->isRealConst()) {
    if (b->getRational().isZero())
      return intern(Kind::Div, Sort::Real, 0, {a, b}); // obligation fails
    if (isInf(a))
      return b->getRational().sign() > 0 ? a : neg(a);
    return mul(a, real(Rational(1) / b->getRational()));
  }
  if (isInf(a)) {
    int sign = constantSign(b);
    if (sign == 0)
      return nullptr;
    return sign > 0 ? a : neg(a);
  }
  if (a->isRealConst() && a->getRational().isZero())
    return a;
  return intern(Kind::Div, Sort::Real, 0, {a, b});
}

Term TermContext::exp(Term a) {
  if (!a)
    return nullptr;
  if (std::optional<Term> l = liftExtended(
          {a}, [&](llvm::ArrayRef<Term> o) { return exp(o[0]); }))
    return *l;
  if (isNaN(a))
    return a;
  if (a->getKind() == Kind::NegInf)
    return real(0);
  if (a->getKind() == Kind::PosInf)
    return posInf();
  if (a->isRealConst() && a->getRational().isZero())
    return real(1);
  return intern(Kind::Exp, Sort::Real, 0, {a});
}

Term TermContext::exp2(Term a) {
  if (!a)
    return nullptr;
  if (std::optional<Term> l = liftExtended(
          {a}, [&](llvm::ArrayRef<Term> o) { return exp2(o[0]); }))
    return *l;
  if (isNaN(a))
    return a;
  if (a->getKind() == Kind::NegInf)
    return real(0);
  if (a->getKind() == Kind::PosInf)
    return posInf();
  if (a->isRealConst() && a->getRational().isInteger() &&
      mpz_fits_slong_p(mpq_numref(a->getRational().get()))) {
    // 2^k exactly for small integers (only those: a huge k must not be
    // truncated into a small one).
    long k = mpz_get_si(mpq_numref(a->getRational().get()));
    if (k >= -64 && k <= 64) {
      Rational r(1);
      Rational two(k >= 0 ? 2 : 1, k >= 0 ? 1 : 2);
      for (long i = 0; i < (k >= 0 ? k : -k); ++i)
        r = r * two;
      return real(r);
    }
  }
  return intern(Kind::Exp2, Sort::Real, 0, {a});
}

/// max and min are associative, commutative and idempotent: a nest of them
/// is kept as one canonical chain, its operands flattened, deduplicated and
/// sorted by term id, nested to the right (op(t1, op(t2, ... op(tn-1, tn))))
/// with the constants folded into one. Two nests of the same operands (the
/// butterfly trees of 32 lanes' shuffle reductions, each lane's in another
/// order) are then one term, so exp(x - m) cancels between them. Nests of
/// more than 64 operands stay binary, as written.
Term TermContext::maxMinChain(Kind kind, Term a, Term b) {
  Term items[] = {a, b};
  if (Term r = maxMinChainOf(kind, items))
    return r;
  return intern(kind, Sort::Real, 0, llvm::ArrayRef<Term>{a, b});
}

Term TermContext::maxMinChainOf(Kind kind, llvm::ArrayRef<Term> items) {
  bool isMax = kind == Kind::Max;
  Kind absorbing = isMax ? Kind::PosInf : Kind::NegInf;
  Kind neutral = isMax ? Kind::NegInf : Kind::PosInf;
  llvm::SmallVector<Term, 8> ops, work(items.rbegin(), items.rend());
  Term bestConst = nullptr;
  // Past kMaxChain operands the nest stays as written (binary): rebuilding a
  // sorted chain costs its length per node, so substituting into chains of
  // a 1024-element reduction would cost n^2 terms.
  size_t seen = 0;
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (++seen > 2 * kMaxChain)
      return nullptr;
    if (t->getKind() == kind) {
      work.push_back(t->getOperand(1));
      work.push_back(t->getOperand(0));
      continue;
    }
    if (t->getKind() == absorbing)
      return t;
    if (t->getKind() == neutral)
      continue;
    if (t->isRealConst()) {
      if (!bestConst ||
          (isMax ? bestConst->getRational() < t->getRational()
                 : t->getRational() < bestConst->getRational()))
        bestConst = t;
      continue;
    }
    ops.push_back(t);
  }
  if (bestConst)
    ops.push_back(bestConst);
  if (ops.empty())
    return isMax ? negInf() : posInf();
  llvm::sort(ops, [](Term x, Term y) { return x->getId() < y->getId(); });
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  Term r = ops.back();
  for (size_t k = ops.size() - 1; k-- > 0;)
    r = intern(kind, Sort::Real, 0, llvm::ArrayRef<Term>{ops[k], r});
  return r;
}

Term TermContext::canonicalChains(Term root) {
  // Nothing to do unless some max (min) node has an operand of its own kind
  // that is not a canonical chain's tail: cheap first pass.
  llvm::DenseMap<Term, Term> memo;
  std::function<Term(Term)> walk = [&](Term t) -> Term {
    if (auto it = memo.find(t); it != memo.end())
      return it->second;
    Term r = t;
    if (t->getKind() == Kind::Max || t->getKind() == Kind::Min) {
      Kind kind = t->getKind();
      bool isMax = kind == Kind::Max;
      // The leaves of the maximal nest, rewritten.
      llvm::SmallVector<Term> leaves, work{t};
      llvm::DenseSet<Term> visited;
      while (!work.empty()) {
        Term u = work.pop_back_val();
        if (u->getKind() == kind) {
          if (visited.insert(u).second)
            for (Term o : llvm::reverse(u->getOperands()))
              work.push_back(o);
          continue;
        }
        leaves.push_back(walk(u));
      }
      if (leaves.size() <= kMaxChain) {
        // Within the limit construction already canonicalizes; only the
        // rewritten leaves may differ.
        r = leaves.size() == 1 ? leaves.front()
                               : (isMax ? max(leaves.front(), leaves[1])
                                        : min(leaves.front(), leaves[1]));
        for (Term l : llvm::ArrayRef<Term>(leaves).drop_front(2))
          r = r ? (isMax ? max(r, l) : min(r, l)) : nullptr;
        if (!r)
          r = t;
      } else {
        Kind absorbing = isMax ? Kind::PosInf : Kind::NegInf;
        Kind neutral = isMax ? Kind::NegInf : Kind::PosInf;
        llvm::SmallVector<Term> ops;
        Term bestConst = nullptr, absorbed = nullptr;
        bool plain = true;
        for (Term l : leaves) {
          if (l->mayBeNonFinite() && l->getKind() != absorbing &&
              l->getKind() != neutral)
            plain = false; // an extended ite leaf: left as written
          if (l->getKind() == absorbing)
            absorbed = l;
          else if (l->getKind() == neutral)
            continue;
          else if (l->isRealConst()) {
            if (!bestConst ||
                (isMax ? bestConst->getRational() < l->getRational()
                       : l->getRational() < bestConst->getRational()))
              bestConst = l;
          } else
            ops.push_back(l);
        }
        if (!plain) {
          r = t;
        } else if (absorbed) {
          r = absorbed;
        } else {
          if (bestConst)
            ops.push_back(bestConst);
          if (ops.empty()) {
            r = isMax ? negInf() : posInf();
          } else {
            llvm::sort(ops, [](Term x, Term y) { return x->getId() < y->getId(); });
            ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
            r = ops.back();
            for (size_t k = ops.size() - 1; k-- > 0;)
              r = intern(kind, Sort::Real, 0, llvm::ArrayRef<Term>{ops[k], r});
          }
        }
      }
    } else if (t->getNumOperands() && !t->isReduction()) {
      llvm::SmallVector<Term, 4> ops;
      bool changed = false;
      for (Term o : t->getOperands()) {
        ops.push_back(walk(o));
        changed |= ops.back() != o;
      }
      if (changed)
        if (Term b = rebuild(t, ops))
          r = b;
    }
    memo[t] = r;
    return r;
  };
  return walk(root);
}

std::optional<Term> TermContext::guardedMaxMin(bool isMax, Term a, Term b) {
  unsigned neutralBit =
      isMax ? TermNode::kExtendedNegInf : TermNode::kExtendedPosInf;
  Kind neutral = isMax ? Kind::NegInf : Kind::PosInf;
  if (!isExtendedIte(a) && !isExtendedIte(b))
    return std::nullopt;
  for (Term t : {a, b})
    if (t->getExtended() & ~neutralBit)
      return std::nullopt;
  // A value that is the neutral infinity on some inputs, as (g, v): it is
  // v where g holds, the infinity elsewhere (v arbitrary there). Linear in
  // the ite spine.
  std::function<std::pair<Term, Term>(Term)> guarded =
      [&](Term t) -> std::pair<Term, Term> {
    if (t->getKind() == neutral)
      return {boolConst(false), nullptr};
    if (!isExtendedIte(t))
      return {boolConst(true), t};
    auto [g1, v1] = guarded(t->getOperand(1));
    auto [g2, v2] = guarded(t->getOperand(2));
    Term c = t->getOperand(0);
    Term v = !v1 ? v2 : !v2 ? v1 : ite(c, v1, v2);
    return {ite(c, g1, g2), v};
  };
  auto [ga, va] = guarded(a);
  auto [gb, vb] = guarded(b);
  if (!va)
    return b;
  if (!vb)
    return a;
  // Where some operand is finite, the max of the finite ones: each operand
  // that is the infinity is replaced by a finite operand (w), which leaves
  // the max unchanged; where none is, the infinity.
  Term w = ite(ga, va, vb);
  Term ia = ite(ga, va, w), ib = ite(gb, vb, w);
  Term m = isMax ? max(ia, ib) : min(ia, ib);
  return ite(orOf(ga, gb), m, isMax ? negInf() : posInf());
}

Term TermContext::max(Term a, Term b) {
  if (!a || !b)
    return nullptr;
  if (isNaN(a) || isNaN(b))
    return nullptr; // PTX max.f32 and max.NaN.f32 differ on NaN
  if (Term r = mergeRanges(Kind::MaxOver, a, b))
    return r;
  if (std::optional<Term> g = guardedMaxMin(true, a, b))
    return *g;
  if (std::optional<Term> l = liftExtended(
          {a, b}, [&](llvm::ArrayRef<Term> o) { return max(o[0], o[1]); }))
    return *l;
  if (a == b || b->getKind() == Kind::NegInf || a->getKind() == Kind::PosInf)
    return a;
  if (a->getKind() == Kind::NegInf || b->getKind() == Kind::PosInf)
    return b;
  if (a->isRealConst() && b->isRealConst())
    return a->getRational() < b->getRational() ? b : a;
  return maxMinChain(Kind::Max, a, b);
}

Term TermContext::min(Term a, Term b) {
  if (!a || !b)
    return nullptr;
  if (isNaN(a) || isNaN(b))
    return nullptr;
  if (Term r = mergeRanges(Kind::MinOver, a, b))
    return r;
  if (std::optional<Term> g = guardedMaxMin(false, a, b))
    return *g;
  if (std::optional<Term> l = liftExtended(
          {a, b}, [&](llvm::ArrayRef<Term> o) { return min(o[0], o[1]); }))
    return *l;
  if (a == b || b->getKind() == Kind::PosInf || a->getKind() == Kind::NegInf)
    return a;
  if (a->getKind() == Kind::PosInf || b->getKind() == Kind::NegInf)
    return b;
  if (a->isRealConst() && b->isRealConst())
    return a->getRational() < b->getRational() ? a : b;
  return maxMinChain(Kind::Min, a, b);
}

Term TermContext::realFn(llvm::StringRef fn, llvm::ArrayRef<Term> args) {
  for (Term t : args)
    if (!t || t->mayBeNonFinite())
      return nullptr; // no true function of an extended value is modeled
  return intern(Kind::RealFn, Sort::Real, 0, args, nullptr, nullptr, fn);
}

Term TermContext::element(llvm::StringRef buffer, Term index) {
  if (!index)
    return nullptr;
  index = canonicalIndex(index);
  if (index->getKind() == Kind::BVConst)
    return realVar(buffer.str() + "[" +
                   std::to_string(index->getAPInt().getZExtValue()) + "]");
  return intern(Kind::Select, Sort::Real, 0, {index}, nullptr, nullptr,
                buffer);
}

Term TermContext::intElement(llvm::StringRef buffer, Term index,
                             unsigned width) {
  if (!index || width == 0)
    return nullptr;
  index = canonicalIndex(index);
  if (index->getKind() == Kind::BVConst)
    return bvVar(buffer.str() + "[" +
                     std::to_string(index->getAPInt().getZExtValue()) + "]",
                 width);
  return intern(Kind::Select, Sort::BV, width, {index}, nullptr, nullptr,
                buffer);
}

Term TermContext::bvToReal(Term a, bool isSigned) {
  if (!a)
    return nullptr;
  if (a->getKind() == Kind::BVConst)
    return real(Rational::fromAPInt(a->getAPInt(), isSigned));
  return intern(Kind::BVToReal, Sort::Real, 0, {a}, nullptr, nullptr, {},
                isSigned);
}

/// The nesting level of reduction `t`, read from its bound variable's name
/// ("$r<level>").
static unsigned reductionLevel(Term t) {
  unsigned level = 0;
  llvm::StringRef(t->getName()).drop_front(2).getAsInteger(10, level);
  return level;
}

Term TermContext::boundVar(Term t) {
  return bvVar(t->getName(), t->getOperand(0)->getWidth());
}

Term TermContext::renameBound(Term root, Term from, Term to) {
  llvm::DenseMap<Term, Term> memo{{from, to}};
  llvm::SmallVector<std::pair<Term, bool>, 32> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.pop_back_val();
    if (memo.count(t))
      continue;
    // A reduction that binds `from` itself: its occurrences are its own.
    if (t->isReduction() && t->getName() == from->getName()) {
      memo[t] = t;
      continue;
    }
    if (!expanded) {
      stack.push_back({t, true});
      for (Term op : t->getOperands())
        if (!memo.count(op))
          stack.push_back({op, false});
      continue;
    }
    llvm::SmallVector<Term, 4> ops;
    bool changed = false;
    for (Term op : t->getOperands()) {
      Term n = memo.lookup(op);
      ops.push_back(n);
      changed |= n != op;
    }
    memo[t] = changed ? rebuild(t, ops) : t;
  }
  return memo.lookup(root);
}

/// Whether the signed value of BV term `t` is always in
/// [-2^(k-1), 2^(k-1)], read from its structure: a constant, a sign
/// extension of at most k bits, a zero extension of fewer, an ite or
/// signed max/min of such terms.
static bool fitsSignedBits(Term t, unsigned k) {
  switch (t->getKind()) {
  case Kind::BVConst: {
    const llvm::APInt &v = t->getAPInt();
    return v.getBitWidth() <= k ||
           (v.sge(-(llvm::APInt(v.getBitWidth(), 1) << (k - 1))) &&
            v.sle(llvm::APInt(v.getBitWidth(), 1) << (k - 1)));
  }
  case Kind::BVSExt:
    return t->getOperand(0)->getWidth() <= k;
  case Kind::BVZExt:
    return t->getOperand(0)->getWidth() < k;
  case Kind::Ite:
    return fitsSignedBits(t->getOperand(1), k) &&
           fitsSignedBits(t->getOperand(2), k);
  default:
    return false;
  }
}

/// Whether `v` occurs in `t`.
static bool mentions(Term t, Term v) {
  llvm::SmallVector<Term> work{t};
  llvm::DenseSet<Term> seen;
  while (!work.empty()) {
    Term u = work.pop_back_val();
    if (u == v)
      return true;
    if (!seen.insert(u).second)
      continue;
    llvm::append_range(work, u->getOperands());
  }
  return false;
}

Term TermContext::reduceMasked(Kind kind, Term var, Term lo, Term hi,
                               Term body) {
  // R_{lo <= j < hi} ite(c, f(j), e), e the reduction's neutral element
  // (0, -inf, +inf) and c a conjunction of bounds on j (A <= j, A < j,
  // j < B, j <= B) and of conditions free of j (P):
  //   = ite(P, R_{0 <= k < H - L} f(k + L), e)
  // with L = max(lo, A's), H = min(hi, B's) (exact: the terms with c false
  // add the neutral element; a range with H <= L is empty, giving e).
  // A bound may be stated on the low k bits of j (a spec's index_cast of
  // the index to i32): exact when lo and hi fit k signed bits, as j then
  // equals the sign extension of its low k bits. Every bound and lo, hi
  // must fit w - 2 signed bits, so that H - L and k + L do not wrap.
  if (body->getKind() != Kind::Ite)
    return nullptr;
  Term neutral = kind == Kind::SumOver   ? real(0)
                 : kind == Kind::MaxOver ? negInf()
                                         : posInf();
  if (body->getOperand(2) != neutral)
    return nullptr;
  unsigned w = var->getWidth();
  if (w < 4 || !fitsSignedBits(lo, w - 2) || !fitsSignedBits(hi, w - 2))
    return nullptr;
  Term cond = body->getOperand(0), f = body->getOperand(1);
  llvm::SmallVector<Term> conjuncts;
  if (cond->getKind() == Kind::And)
    llvm::append_range(conjuncts, cond->getOperands());
  else
    conjuncts.push_back(cond);
  llvm::SmallVector<Term> outer;
  Term L = lo, H = hi;
  auto one = [&]() { return bv(1, w); };
  auto smax = [&](Term a, Term b) { return ite(bvSle(a, b), b, a); };
  auto smin = [&](Term a, Term b) { return ite(bvSle(a, b), a, b); };
  // `x` is j itself or its low k bits (lo and hi fitting k signed bits);
  // the other side is lifted to w bits.
  auto isJ = [&](Term x) {
    if (x == var)
      return true;
    if (x->getKind() != Kind::BVExtract || x->getOperand(0) != var ||
        x->getExtractLow() != 0 || x->getWidth() < 2)
      return false;
    unsigned k = x->getWidth();
    return fitsSignedBits(lo, k) && fitsSignedBits(hi, k);
  };
  auto lift = [&](Term a) -> Term {
    if (mentions(a, var))
      return nullptr;
    Term l = a->getWidth() == w ? a : bvSExt(a, w);
    return fitsSignedBits(l, w - 2) ? l : nullptr;
  };
  for (Term c : conjuncts) {
    if (!mentions(c, var)) {
      outer.push_back(c);
      continue;
    }
    bool negated = c->getKind() == Kind::Not;
    Term atom = negated ? c->getOperand(0) : c;
    if (atom->getKind() != Kind::BVSle && atom->getKind() != Kind::BVSlt)
      return nullptr;
    bool strict = atom->getKind() == Kind::BVSlt;
    Term a = atom->getOperand(0), b = atom->getOperand(1);
    // not (a <= b) is b < a; not (a < b) is b <= a.
    if (negated) {
      std::swap(a, b);
      strict = !strict;
    }
    if (isJ(b)) { // a <= j or a < j: a lower bound
      Term A = lift(a);
      if (!A)
        return nullptr;
      L = smax(L, strict ? bvBin(Kind::BVAdd, A, one()) : A);
    } else if (isJ(a)) { // j < b or j <= b: an upper bound
      Term B = lift(b);
      if (!B)
        return nullptr;
      H = smin(H, strict ? B : bvBin(Kind::BVAdd, B, one()));
    } else {
      return nullptr;
    }
  }
  if (L == lo && H == hi)
    return nullptr; // no bound on j: nothing to do
  // The fresh variable of the shifted range (reduce renames it).
  // (A name no other term uses: an outer reduction's free variable in f
  // must not be captured.)
  Term k = bvVar("$shift" + std::to_string(nodes.size()), w);
  Term shifted = substitute(f, {{var, bvBin(Kind::BVAdd, k, L)}});
  Term r = reduce(kind, k, bv(0, w), bvBin(Kind::BVSub, H, L), shifted);
  if (!r)
    return nullptr;
  if (outer.empty())
    return r;
  return ite(andOf(outer), r, neutral);
}

void kproof::engine::appendTableFacts(
    TermContext &T, Term t, std::optional<std::pair<int64_t, int64_t>> range,
    Term atMost, llvm::SmallVectorImpl<Term> &out) {
  unsigned w = t->getWidth();
  if (range) {
    out.push_back(T.bvSle(T.bv(llvm::APInt(w, range->first, true)), t));
    out.push_back(T.bvSlt(t, T.bv(llvm::APInt(w, range->second, true))));
  }
  if (atMost) {
    unsigned mw = atMost->getWidth(), cw = std::max(w, mw);
    out.push_back(T.bvSle(w == cw ? t : T.bvSExt(t, cw),
                          mw == cw ? atMost : T.bvSExt(atMost, cw)));
  }
}

std::optional<llvm::StringRef> kproof::engine::intElementTable(Term t) {
  if (t->getSort() != Sort::BV)
    return std::nullopt;
  llvm::StringRef name = t->getName();
  if (t->getKind() == Kind::Select)
    return name;
  if (t->getKind() != Kind::BVVar)
    return std::nullopt;
  size_t open = name.rfind('[');
  if (open == llvm::StringRef::npos || !name.ends_with("]"))
    return std::nullopt;
  return name.take_front(open);
}

/// Signed bounds of a BV term from its constants and declared variable
/// bounds: {lower, upper}, each nullopt when unknown. Small values only (a
/// sum past 2^40 is unknown), so no wrap-around is involved.
static std::pair<std::optional<int64_t>, std::optional<int64_t>>
signedBounds(TermContext &T, Term t,
             const llvm::StringMap<uint64_t> &lowerBounds, unsigned depth) {
  constexpr int64_t kLimit = int64_t(1) << 40;
  auto small = [&](std::optional<int64_t> v) -> std::optional<int64_t> {
    if (v && (*v > kLimit || *v < -kLimit))
      return std::nullopt;
    return v;
  };
  if (depth > 8 || t->getSort() != Sort::BV || t->getWidth() > 64)
    return {std::nullopt, std::nullopt};
  switch (t->getKind()) {
  case Kind::BVConst: {
    int64_t v = t->getAPInt().getSExtValue();
    return {small(v), small(v)};
  }
  case Kind::BVVar: {
    std::optional<uint64_t> ub = T.upperBound(t->getName());
    auto it = lowerBounds.find(t->getName());
    std::optional<int64_t> lo, hi;
    if (ub && *ub < uint64_t(kLimit) && t->getWidth() > 41) {
      hi = int64_t(*ub);
      lo = 0; // a declared unsigned bound below 2^40 of a wide variable
    } else if (ub && t->getWidth() >= 2 &&
               *ub < (uint64_t(1) << (t->getWidth() - 1))) {
      hi = int64_t(*ub);
      lo = 0; // below the sign bit: the signed value is the unsigned one
    }
    if (it != lowerBounds.end() && it->second < uint64_t(kLimit) && hi)
      lo = int64_t(it->second);
    return {lo, hi};
  }
  case Kind::BVZExt:
  case Kind::BVSExt: {
    auto [l, h] = signedBounds(T, t->getOperand(0), lowerBounds, depth + 1);
    if (t->getKind() == Kind::BVZExt && !(l && *l >= 0))
      return {std::nullopt, std::nullopt};
    return {l, h};
  }
  case Kind::BVAdd: {
    // Both bounds of both operands, and sums within the width's signed
    // range: then the w-bit sum does not wrap and is the integer sum.
    auto [la, ha] = signedBounds(T, t->getOperand(0), lowerBounds, depth + 1);
    auto [lb, hb] = signedBounds(T, t->getOperand(1), lowerBounds, depth + 1);
    if (!la || !lb || !ha || !hb)
      return {std::nullopt, std::nullopt};
    unsigned w = t->getWidth();
    int64_t wMin = w >= 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
    int64_t wMax = w >= 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
    std::optional<int64_t> lo = small(*la + *lb), hi = small(*ha + *hb);
    if (!lo || !hi || *lo < wMin || *hi > wMax)
      return {std::nullopt, std::nullopt};
    return {lo, hi};
  }
  case Kind::Ite: {
    Term c = t->getOperand(0);
    // A condition the bounds decide selects its arm.
    if (c->getKind() == Kind::BVSlt &&
        T.provablyBelow(c->getOperand(0), c->getOperand(1)))
      return signedBounds(T, t->getOperand(1), lowerBounds, depth + 1);
    auto [la, ha] = signedBounds(T, t->getOperand(1), lowerBounds, depth + 1);
    auto [lb, hb] = signedBounds(T, t->getOperand(2), lowerBounds, depth + 1);
    return {la && lb ? std::optional<int64_t>(std::min(*la, *lb))
                     : std::nullopt,
            ha && hb ? std::optional<int64_t>(std::max(*ha, *hb))
                     : std::nullopt};
  }
  default:
    return {std::nullopt, std::nullopt};
  }
}

bool TermContext::provablyBelow(Term lo, Term hi) {
  if (!lo || !hi || lo->getWidth() != hi->getWidth())
    return false;
  std::optional<int64_t> loMax = signedBounds(*this, lo, lowerBounds, 0).second;
  std::optional<int64_t> hiMin = signedBounds(*this, hi, lowerBounds, 0).first;
  return loMax && hiMin && *loMax < *hiMin;
}

Term TermContext::reduce(Kind kind, Term var, Term lo, Term hi, Term body,
                         bool nonEmpty) {
  if (!var || !lo || !hi || !body)
    return nullptr;
  assert((kind == Kind::SumOver || kind == Kind::MaxOver ||
          kind == Kind::MinOver) &&
         "not a reduction kind");
  assert(var->getKind() == Kind::BVVar && lo->getSort() == Sort::BV &&
         hi->getSort() == Sort::BV && lo->getWidth() == var->getWidth() &&
         hi->getWidth() == var->getWidth() && body->getSort() == Sort::Real &&
         "reduce: a BV variable and bounds of its width, a real body");
  auto empty = [&]() -> Term {
    return kind == Kind::SumOver   ? real(0)
           : kind == Kind::MaxOver ? negInf()
                                   : posInf();
  };
  if (lo->getKind() == Kind::BVConst && hi->getKind() == Kind::BVConst) {
    const llvm::APInt &l = lo->getAPInt(), &h = hi->getAPInt();
    if (h.sle(l))
      return empty();
    if ((l + 1) == h)
      return substitute(body, {{var, lo}});
  }
  if (Term masked = reduceMasked(kind, var, lo, hi, body))
    return masked;
  // A body that is extended on some elements (not only outside a mask,
  // which reduceMasked took) is not modeled.
  if (body->mayBeNonFinite())
    return nullptr;
  // sum_j c * f(j) = c * sum_j f(j) for a constant c (exact: a finite sum
  // is linear), so a body that adds an element twice meets a spec's sum.
  if (kind == Kind::SumOver && body->getKind() == Kind::Mul) {
    Term c = nullptr;
    llvm::SmallVector<Term> rest;
    for (Term o : body->getOperands())
      if (!c && o->isRealConst())
        c = o;
      else
        rest.push_back(o);
    if (c && !rest.empty())
      return mul(c, reduce(kind, var, lo, hi,
                           rest.size() == 1 ? rest[0] : mul(rest)));
  }
  // The canonical bound variable: one level above every reduction inside,
  // and above every other "$r" variable in the body (free ones are bound
  // by reductions around this one, when substitute() rebuilds a nest: the
  // new name must not capture them).
  unsigned level = 1;
  for (Term s : subterms({body})) {
    if (s->isReduction())
      level = std::max(level, reductionLevel(s) + 1);
    else if (s != var && s->getKind() == Kind::BVVar &&
             s->getName().starts_with("$r"))
      level = std::max(level, reductionLevel(s) + 1);
  }
  std::string name = "$r" + std::to_string(level);
  Term canonical = bvVar(name, var->getWidth());
  if (canonical != var)
    body = renameBound(body, var, canonical);
  if (!body)
    return nullptr;
  Term r = intern(kind, Sort::Real, 0, {lo, hi, body}, nullptr, nullptr, name);
  if (kind == Kind::SumOver || nonEmpty || provablyBelow(lo, hi))
    return r;
  // Possibly empty: -inf (max) or +inf (min) there, an extended value.
  return ite(bvSlt(lo, hi), r, empty());
}

namespace {
/// A reduction seen as the range [lo, hi) of `body` (bound variable `var`).
struct RangeView {
  Term lo, hi, body, var;
};
} // namespace

/// smin(n, x) as mergeRanges spells it: ite(n <=s x, n, x).
static std::optional<std::pair<Term, Term>> sminParts(Term h) {
  if (h->getKind() != Kind::Ite || h->getOperand(0)->getKind() != Kind::BVSle)
    return std::nullopt;
  Term c = h->getOperand(0);
  if (c->getOperand(0) != h->getOperand(1) ||
      c->getOperand(1) != h->getOperand(2))
    return std::nullopt;
  return std::make_pair(h->getOperand(1), h->getOperand(2));
}

Term TermContext::mergeRanges(Kind kind, Term a, Term b) {
  if (!a || !b || a->getSort() != Sort::Real || b->getSort() != Sort::Real)
    return nullptr;
  Term neutral = kind == Kind::SumOver   ? real(0)
                 : kind == Kind::MaxOver ? negInf()
                                         : posInf();
  constexpr uint64_t kSmall = uint64_t(1) << 61;
  // A 64-bit index term known to lie in [0, 2^61): sums of two such do not
  // wrap, nor does their difference as signed integers.
  auto small = [&](Term t) {
    std::optional<std::pair<uint64_t, uint64_t>> iv = indexInterval(t);
    return iv && iv->second < kSmall;
  };
  // y - x as a sum of y's addends less x's (both canonical index forms,
  // sums of addends and a constant), exact modulo 2^64; null when x has an
  // addend y lacks.
  auto difference = [&](Term x, Term y) -> Term {
    auto addends = [](Term t, llvm::SmallVectorImpl<Term> &out) {
      llvm::APInt c(64, 0);
      llvm::SmallVector<Term> work{t};
      while (!work.empty()) {
        Term u = work.pop_back_val();
        if (u->getKind() == Kind::BVAdd)
          llvm::append_range(work, u->getOperands());
        else if (u->getKind() == Kind::BVConst)
          c += u->getAPInt();
        else
          out.push_back(u);
      }
      return c;
    };
    llvm::SmallVector<Term> xs, ys;
    llvm::APInt cx = addends(x, xs), cy = addends(y, ys);
    for (Term u : xs) {
      auto it = llvm::find(ys, u);
      if (it == ys.end())
        return nullptr;
      ys.erase(it);
    }
    Term r = bv(cy - cx);
    for (Term u : ys)
      r = bvBin(Kind::BVAdd, r, u);
    return canonicalIndex(r);
  };
  // y - x, when it is a constant d with 0 <= d < 2^61 and both are small
  // (then y = x + d as integers).
  auto offset = [&](Term x, Term y) -> std::optional<uint64_t> {
    if (x->getWidth() != 64 || y->getWidth() != 64 || !small(x) || !small(y))
      return std::nullopt;
    x = canonicalIndex(x);
    y = canonicalIndex(y);
    Term d = difference(x, y);
    if (!d)
      d = canonicalIndex(bvBin(Kind::BVSub, y, x));
    if (d->getKind() != Kind::BVConst || d->getAPInt().uge(kSmall))
      return std::nullopt;
    return d->getAPInt().getZExtValue();
  };
  // v with each element index I of a real input buffer, outside the
  // reductions inside v, replaced by (I - c) + j, where I - c does not
  // depend on the variables of c (the elements v reads relative to c).
  auto relative = [&](Term v, Term c, Term j) -> Term {
    llvm::SmallVector<Term> cVars;
    for (Term u : subterms({c}))
      if (u->getKind() == Kind::BVVar)
        cVars.push_back(u);
    llvm::DenseMap<Term, Term> memo;
    std::function<Term(Term)> walk = [&](Term t) -> Term {
      if (auto it = memo.find(t); it != memo.end())
        return it->second;
      Term r = t;
      if (t->getKind() == Kind::Select && t->getSort() == Sort::Real &&
          t->getOperand(0)->getWidth() == 64) {
        Term rest = difference(c, t->getOperand(0));
        if (rest &&
            llvm::none_of(cVars, [&](Term x) { return mentions(rest, x); }))
          r = element(t->getName(), bvBin(Kind::BVAdd, rest, j));
      } else if (t->getNumOperands() && !t->isReduction() &&
                 t->getSort() == Sort::Real) {
        llvm::SmallVector<Term, 4> ops;
        bool changed = false;
        for (Term o : t->getOperands()) {
          ops.push_back(walk(o));
          changed |= ops.back() != o;
        }
        if (changed)
          r = rebuild(t, ops);
      }
      memo[t] = r;
      return r;
    };
    return walk(v);
  };
  auto view = [&](Term t) -> std::optional<RangeView> {
    auto bare = [&](Term r) {
      return RangeView{r->getOperand(0), r->getOperand(1), r->getOperand(2),
                       boundVar(r)};
    };
    if (t->getKind() == kind)
      return bare(t);
    if (t->getKind() != Kind::Ite || t->getOperand(2) != neutral)
      return std::nullopt;
    Term c = t->getOperand(0), v = t->getOperand(1);
    // reduce()'s ite around a possibly empty max/min.
    if (v->getKind() == kind && kind != Kind::SumOver &&
        c == bvSlt(v->getOperand(0), v->getOperand(1)))
      return bare(v);
    // An element guarded by a symbolic bound: ite(i <s n, v, neutral).
    if (c->getKind() != Kind::BVSlt || v->mayBeNonFinite() ||
        v->getSort() != Sort::Real)
      return std::nullopt;
    Term i = c->getOperand(0), n = c->getOperand(1);
    if (n->getKind() == Kind::BVConst || i->getWidth() > 64)
      return std::nullopt;
    Term lo = canonicalIndex(i->getWidth() == 64 ? i : bvSExt(i, 64));
    Term bound = n->getWidth() == 64 ? n : bvSExt(n, 64);
    if (!small(lo))
      return std::nullopt;
    Term j = bvVar("$element", 64);
    Term body = relative(v, lo, j);

    // The body at lo must be v itself: the one-element range is then v
    // where i < n and empty (the neutral element) elsewhere.
    if (!body || !mentions(body, j) || substitute(body, {{j, lo}}) != v)
      return std::nullopt;
    Term next = canonicalIndex(bvBin(Kind::BVAdd, lo, bv(1, 64)));
    Term hi = ite(bvSle(bound, next), bound, next);
    Term r = reduce(kind, j, lo, hi, body, /*nonEmpty=*/true);
    if (!r || r->getKind() != kind)
      return std::nullopt;
    return bare(r);
  };
  // Cheap shape tests first: this runs on every binary max, min and sum.
  auto candidate = [&](Term t) {
    return t->getKind() == kind ||
           (t->getKind() == Kind::Ite && t->getOperand(2) == neutral);
  };
  // Two ranges of one body that meet, as one range (reduce()); null when
  // they do not meet.
  auto join = [&](const RangeView &x, const RangeView &y) -> Term {
    if (x.body != y.body || x.var != y.var)
      return nullptr;
    for (auto [f, s] : {std::make_pair(x, y), std::make_pair(y, x)}) {
      // f = [l1, smin(n, x1)), s = [l2, smin(n, x2)), x1 = l2, l1 <= l2 <= x2:
      // if n <= l2, f is [l1, n) and s is empty; else f is [l1, l2) and s is
      // [l2, smin(n, x2)); either way the union is [l1, smin(n, x2)).
      auto pf = sminParts(f.hi), ps = sminParts(s.hi);
      if (!pf)
        continue;
      // s = [l2, n) (its smin already folded to n): the union is [l1, n)
      // (if n <= l2, f is [l1, n) and s is empty).
      if (!ps && s.hi == pf->first) {
        std::optional<uint64_t> d0 = offset(pf->second, s.lo),
                                d1 = offset(f.lo, s.lo);
        if (!d0 || *d0 != 0 || !d1)
          continue;
        return reduce(kind, f.var, canonicalIndex(f.lo), s.hi, f.body);
      }
      if (!ps || pf->first != ps->first)
        continue;
      std::optional<uint64_t> d0 = offset(pf->second, s.lo),
                              d1 = offset(f.lo, s.lo),
                              d2 = offset(s.lo, ps->second);
      if (!d0 || *d0 != 0 || !d1 || !d2)
        continue;
      Term n = ps->first, x = ps->second, hi = s.hi;
      // smin(n, x) folded where the declared bounds order n and x.
      std::optional<std::pair<uint64_t, uint64_t>> in = indexInterval(n),
                                                   ix = indexInterval(x);
      if (in && ix && in->second < kSmall && ix->second < kSmall) {
        if (in->second <= ix->first)
          hi = n;
        else if (ix->second <= in->first)
          hi = x;
      }
      return reduce(kind, f.var, canonicalIndex(f.lo), hi, f.body);
    }
    return nullptr;
  };
  // Each operand as its ranges: the parts a max, min or sum of ranges was
  // built from (rangeParts), else itself.
  if (foldingRanges)
    return nullptr;
  llvm::SmallVector<Term, 4> parts;
  for (Term t : {a, b}) {
    auto it = rangeParts.find(t);
    if (it != rangeParts.end())
      llvm::append_range(parts, it->second);
    else if (candidate(t))
      parts.push_back(t);
    else
      return nullptr;
  }
  llvm::SmallVector<RangeView, 4> views;
  for (Term p : parts) {
    std::optional<RangeView> v = view(p);
    if (!v || (!views.empty() &&
               (v->body != views[0].body || v->var != views[0].var)))
      return nullptr;
    views.push_back(*v);
  }
  // Join ranges that meet until none does.
  for (bool joined = true; joined && parts.size() > 1;) {
    joined = false;
    for (size_t i = 0; i < parts.size() && !joined; ++i)
      for (size_t k = i + 1; k < parts.size() && !joined; ++k) {
        Term m = join(views[i], views[k]);
        std::optional<RangeView> mv = m ? view(m) : std::nullopt;
        if (!mv)
          continue;
        parts[i] = m;
        views[i] = *mv;
        parts.erase(parts.begin() + k);
        views.erase(views.begin() + k);
        joined = true;
      }
  }
  if (parts.size() == 1)
    return parts.front();
  // Ranges that do not meet (a lane's two chunks 4 t + j and 512 + 4 t + j):
  // their max (min, sum) as written, with its parts kept for the joins to
  // come (the butterfly's other lanes).
  foldingRanges = true;
  Term r = parts.front();
  for (Term p : llvm::ArrayRef<Term>(parts).drop_front())
    r = kind == Kind::MaxOver   ? max(r, p)
        : kind == Kind::MinOver ? min(r, p)
                                : add(r, p);
  foldingRanges = false;
  if (r && !rangeParts.count(r))
    rangeParts[r] = llvm::SmallVector<Term, 2>(parts.begin(), parts.end());
  return r;
}

//===----------------------------------------------------------------------===//
// BV
//===----------------------------------------------------------------------===//

Term TermContext::bv(const llvm::APInt &v) {
  return intern(Kind::BVConst, Sort::BV, v.getBitWidth(), {}, nullptr, &v);
}
Term TermContext::bvVar(llvm::StringRef name, unsigned width) {
  return intern(Kind::BVVar, Sort::BV, width, {}, nullptr, nullptr, name);
}

/// The low `k` bits of BV term `t` when they do not depend on its
/// variables (arithmetic mod 2^w keeps the low k <= w bits of sums,
/// differences and products as functions of the operands' low k bits):
/// x * 32 + c has low 5 bits c. nullopt when unknown.
/// Keyed by (term, k): a shift asks for fewer bits of its operand than its
/// own query (a review found one memo per term returning a (k - s)-bit
/// answer to a k-bit query: a false PROVED).
using LowBitsMemo =
    llvm::DenseMap<std::pair<Term, unsigned>, std::optional<uint64_t>>;
static std::optional<uint64_t> knownLowBitsOf(Term t, unsigned k,
                                              LowBitsMemo &memo,
                                              unsigned depth);
static std::optional<uint64_t> knownLowBits(Term t, unsigned k) {
  LowBitsMemo memo;
  return knownLowBitsOf(t, k, memo, 0);
}
static std::optional<uint64_t> knownLowBitsImpl(Term t, unsigned k,
                                                LowBitsMemo &memo,
                                                unsigned depth) {
  uint64_t mask = (uint64_t(1) << k) - 1;
  auto knownLowBits = [&](Term u, unsigned kk, unsigned d) {
    return knownLowBitsOf(u, kk, memo, d);
  };
  switch (t->getKind()) {
  case Kind::BVConst:
    return t->getAPInt().getLoBits(k).getZExtValue();
  case Kind::BVAdd:
  case Kind::BVSub: {
    std::optional<uint64_t> x = knownLowBits(t->getOperand(0), k, depth + 1);
    std::optional<uint64_t> y = knownLowBits(t->getOperand(1), k, depth + 1);
    if (!x || !y)
      return std::nullopt;
    return (t->getKind() == Kind::BVAdd ? *x + *y : *x - *y) & mask;
  }
  case Kind::BVMul: {
    std::optional<uint64_t> x = knownLowBits(t->getOperand(0), k, depth + 1);
    std::optional<uint64_t> y = knownLowBits(t->getOperand(1), k, depth + 1);
    if ((x && *x == 0) || (y && *y == 0))
      return 0; // a factor with k zero low bits
    if (!x || !y)
      return std::nullopt;
    return (*x * *y) & mask;
  }
  case Kind::BVShl: {
    Term s = t->getOperand(1);
    if (s->getKind() != Kind::BVConst)
      return std::nullopt;
    if (s->getAPInt().uge(k))
      return 0;
    // The low k bits of x << s are x's low k - s bits, shifted.
    unsigned sh = unsigned(s->getAPInt().getZExtValue());
    std::optional<uint64_t> x = knownLowBits(t->getOperand(0), k - sh, depth + 1);
    if (!x)
      return std::nullopt;
    return (*x << sh) & mask;
  }
  case Kind::BVAnd:
  case Kind::BVOr:
  case Kind::BVXor: {
    // Bitwise: each low bit of the result is a function of the operands'.
    std::optional<uint64_t> x = knownLowBits(t->getOperand(0), k, depth + 1);
    std::optional<uint64_t> y = knownLowBits(t->getOperand(1), k, depth + 1);
    if (t->getKind() == Kind::BVAnd && ((x && *x == 0) || (y && *y == 0)))
      return 0;
    if (!x || !y)
      return std::nullopt;
    return t->getKind() == Kind::BVAnd ? *x & *y
           : t->getKind() == Kind::BVOr ? *x | *y
                                        : *x ^ *y;
  }
  case Kind::BVNot: {
    std::optional<uint64_t> x = knownLowBits(t->getOperand(0), k, depth + 1);
    if (!x)
      return std::nullopt;
    return ~*x & mask;
  }
  case Kind::BVZExt:
  case Kind::BVSExt:
    return knownLowBits(t->getOperand(0), k, depth + 1);
  case Kind::BVExtract:
    if (t->getExtractLow() == 0)
      return knownLowBits(t->getOperand(0), k, depth + 1);
    return std::nullopt;
  case Kind::Ite: {
    std::optional<uint64_t> x = knownLowBits(t->getOperand(1), k, depth + 1);
    std::optional<uint64_t> y = knownLowBits(t->getOperand(2), k, depth + 1);
    if (x && y && *x == *y)
      return x;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

static std::optional<uint64_t> knownLowBitsOf(Term t, unsigned k,
                                              LowBitsMemo &memo,
                                              unsigned depth) {
  if (k == 0 || k > 63 || t->getSort() != Sort::BV || t->getWidth() < k ||
      depth > 256)
    return std::nullopt;
  auto it = memo.find({t, k});
  if (it != memo.end())
    return it->second;
  std::optional<uint64_t> r = knownLowBitsImpl(t, k, memo, depth);
  memo[{t, k}] = r;
  return r;
}

Term TermContext::bvBin(Kind kind, Term a, Term b) {
  if (!a || !b)
    return nullptr;
  unsigned w = a->getWidth();
  if (a->getKind() == Kind::BVConst && b->getKind() == Kind::BVConst) {
    const llvm::APInt &x = a->getAPInt(), &y = b->getAPInt();
    switch (kind) {
    case Kind::BVAdd: return bv(x + y);
    case Kind::BVSub: return bv(x - y);
    case Kind::BVMul: return bv(x * y);
    case Kind::BVAnd: return bv(x & y);
    case Kind::BVOr: return bv(x | y);
    case Kind::BVXor: return bv(x ^ y);
    case Kind::BVShl: return bv(y.uge(w) ? llvm::APInt(w, 0) : x.shl(y));
    case Kind::BVLShr: return bv(y.uge(w) ? llvm::APInt(w, 0) : x.lshr(y));
    case Kind::BVAShr: return bv(y.uge(w) ? x.ashr(w - 1) : x.ashr(y));
    case Kind::BVUDiv:
      if (!y.isZero())
        return bv(x.udiv(y));
      break;
    case Kind::BVURem:
      if (!y.isZero())
        return bv(x.urem(y));
      break;
    case Kind::BVSDiv:
      if (!y.isZero())
        return bv(x.sdiv(y));
      break;
    case Kind::BVSRem:
      if (!y.isZero())
        return bv(x.srem(y));
      break;
    default:
      llvm_unreachable("not a binary BV kind");
    }
  }
  // Identities that hold for every value.
  bool bZero = b->getKind() == Kind::BVConst && b->getAPInt().isZero();
  bool aZero = a->getKind() == Kind::BVConst && a->getAPInt().isZero();
  switch (kind) {
  case Kind::BVAdd:
  case Kind::BVOr:
  case Kind::BVXor:
    if (bZero)
      return a;
    if (aZero)
      return b;
    break;
  case Kind::BVSub:
  case Kind::BVShl:
  case Kind::BVLShr:
  case Kind::BVAShr:
    if (bZero)
      return a;
    break;
  case Kind::BVMul:
  case Kind::BVAnd:
    if (bZero)
      return b;
    if (aZero)
      return a;
    break;
  default:
    break;
  }
  // (x + c1) + c2 = x + (c1 + c2), modulo 2^w: nvcc's `p - 8` then `+ 8`
  // addressing of an unrolled loop body becomes one offset.
  if (kind == Kind::BVAdd) {
    if (a->getKind() == Kind::BVConst)
      std::swap(a, b);
    if (b->getKind() == Kind::BVConst && a->getKind() == Kind::BVAdd)
      for (int k = 0; k < 2; ++k)
        if (a->getOperand(k)->getKind() == Kind::BVConst)
          return bvBin(Kind::BVAdd, a->getOperand(1 - k),
                       bv(a->getOperand(k)->getAPInt() + b->getAPInt()));
  }
  if (kind == Kind::BVMul) {
    if (b->getKind() == Kind::BVConst && b->getAPInt().isOne())
      return a;
    if (a->getKind() == Kind::BVConst && a->getAPInt().isOne())
      return b;
  }
  // x & (2^k - 1) and x urem 2^k: the low k bits, when they are known.
  if ((kind == Kind::BVAnd || kind == Kind::BVURem) &&
      (b->getKind() == Kind::BVConst ||
       (kind == Kind::BVAnd && a->getKind() == Kind::BVConst))) {
    Term m = b->getKind() == Kind::BVConst ? b : a, x = m == b ? a : b;
    const llvm::APInt &c = m->getAPInt();
    unsigned k = kind == Kind::BVAnd ? (c + 1).isPowerOf2() ? c.countr_one() : 0
                 : c.isPowerOf2()    ? c.logBase2()
                                     : 0;
    if (k > 0 && k < w)
      if (std::optional<uint64_t> low = knownLowBits(x, k))
        return bv(llvm::APInt(w, *low));
    // x & c for any c whose set bits are among x's known low bits:
    // ((t & ~3) << 2) & 12 is 0.
    unsigned top = c.getActiveBits();
    if (kind == Kind::BVAnd && top > 0 && top <= std::min(w, 63u) && !k)
      if (std::optional<uint64_t> low = knownLowBits(x, top))
        return bv(llvm::APInt(w, *low) & c);
  }
  if (kind == Kind::BVAnd) {
    // x & ~0 = x; (x & c1) & c2 = x & (c1 & c2).
    if (a->getKind() == Kind::BVConst)
      std::swap(a, b);
    if (b->getKind() == Kind::BVConst) {
      if (b->getAPInt().isAllOnes())
        return a;
      if (a->getKind() == Kind::BVAnd) {
        for (int k = 0; k < 2; ++k)
          if (a->getOperand(k)->getKind() == Kind::BVConst)
            return bvBin(Kind::BVAnd, a->getOperand(1 - k),
                         bv(a->getOperand(k)->getAPInt() & b->getAPInt()));
      }
    }
  }
  bool commutative = kind == Kind::BVAdd || kind == Kind::BVMul ||
                     kind == Kind::BVAnd || kind == Kind::BVOr ||
                     kind == Kind::BVXor;
  if (commutative && b->getId() < a->getId() && a->getKind() == Kind::BVConst)
    std::swap(a, b);
  return intern(kind, Sort::BV, w, {a, b});
}

Term TermContext::bvNot(Term a) {
  if (!a)
    return nullptr;
  if (a->getKind() == Kind::BVConst)
    return bv(~a->getAPInt());
  return intern(Kind::BVNot, Sort::BV, a->getWidth(), {a});
}

Term TermContext::bvZExt(Term a, unsigned width) {
  if (!a)
    return nullptr;
  if (a->getWidth() == width)
    return a;
  if (a->getKind() == Kind::BVConst)
    return bv(a->getAPInt().zext(width));
  return intern(Kind::BVZExt, Sort::BV, width, {a});
}

Term TermContext::bvSExt(Term a, unsigned width) {
  if (!a)
    return nullptr;
  if (a->getWidth() == width)
    return a;
  if (a->getKind() == Kind::BVConst)
    return bv(a->getAPInt().sext(width));
  return intern(Kind::BVSExt, Sort::BV, width, {a});
}

Term TermContext::bvExtract(Term a, unsigned lo, unsigned width) {
  if (!a)
    return nullptr;
  if (lo == 0 && width == a->getWidth())
    return a;
  if (a->getKind() == Kind::BVConst)
    return bv(a->getAPInt().extractBits(width, lo));
  // extract of an extension that only reads the original bits.
  if ((a->getKind() == Kind::BVZExt || a->getKind() == Kind::BVSExt) &&
      lo + width <= a->getOperand(0)->getWidth())
    return bvExtract(a->getOperand(0), lo, width);
  // extract of an ite over concatenations (a packed register merged, or
  // read from memory one of several writers wrote): the ite of the parts.
  if (a->getKind() == Kind::Ite) {
    std::function<bool(Term)> packedLeaves = [&](Term u) {
      switch (u->getKind()) {
      case Kind::Ite:
        return packedLeaves(u->getOperand(1)) && packedLeaves(u->getOperand(2));
      case Kind::BVConcat:
      case Kind::BVConst:
      case Kind::BVVar:
        return true;
      default:
        return false;
      }
    };
    std::function<bool(Term)> anyConcat = [&](Term u) {
      return u->getKind() == Kind::BVConcat ||
             (u->getKind() == Kind::Ite &&
              (anyConcat(u->getOperand(1)) || anyConcat(u->getOperand(2))));
    };
    if (anyConcat(a) && packedLeaves(a))
      return ite(a->getOperand(0), bvExtract(a->getOperand(1), lo, width),
                 bvExtract(a->getOperand(2), lo, width));
  }
  // extract of a concatenation that reads one of its parts.
  if (a->getKind() == Kind::BVConcat) {
    Term hi = a->getOperand(0), low = a->getOperand(1);
    if (lo + width <= low->getWidth())
      return bvExtract(low, lo, width);
    if (lo >= low->getWidth())
      return bvExtract(hi, lo - low->getWidth(), width);
  }
  return intern(Kind::BVExtract, Sort::BV, width, {a}, nullptr, nullptr, {},
                false, lo);
}

Term TermContext::bvConcat(Term hi, Term lo) {
  if (!hi || !lo)
    return nullptr;
  if (hi->getKind() == Kind::BVConst && lo->getKind() == Kind::BVConst)
    return bv(hi->getAPInt().concat(lo->getAPInt()));
  return intern(Kind::BVConcat, Sort::BV, hi->getWidth() + lo->getWidth(),
                {hi, lo});
}

/// The IEEE semantics of a float format name, or null.
static const llvm::fltSemantics *formatSemantics(llvm::StringRef format) {
  if (format == "f16")
    return &llvm::APFloat::IEEEhalf();
  if (format == "bf16")
    return &llvm::APFloat::BFloat();
  if (format == "f32")
    return &llvm::APFloat::IEEEsingle();
  if (format == "f64")
    return &llvm::APFloat::IEEEdouble();
  return nullptr;
}

Term TermContext::floatBits(Term a, llvm::StringRef format) {
  const llvm::fltSemantics *sem = formatSemantics(format);
  if (!a || !sem)
    return nullptr;
  unsigned width = llvm::APFloat::getSizeInBits(*sem);
  if (a->getKind() == Kind::RealConst) {
    // Exactly representable constants only: every f16, bf16 and f32 value
    // is a double, and the round trip checks that nothing was rounded.
    llvm::APFloat d(a->getRational().toDouble());
    bool lost = false;
    if (d.convert(*sem, llvm::APFloat::rmNearestTiesToEven, &lost) ==
            llvm::APFloat::opOK &&
        !lost) {
      std::optional<Rational> back = Rational::fromAPFloat(d);
      if (back && *back == a->getRational() && !(d.isZero() && d.isNegative()))
        return bv(d.bitcastToAPInt());
    }
  }
  return intern(Kind::FloatBits, Sort::BV, width, {a}, nullptr, nullptr,
                format);
}

Term TermContext::realOfFloatBits(Term t, llvm::StringRef format,
                                  llvm::function_ref<Term(Term)> leaf) {
  const llvm::fltSemantics *sem = formatSemantics(format);
  if (!t || !sem || t->getSort() != Sort::BV ||
      t->getWidth() != llvm::APFloat::getSizeInBits(*sem))
    return nullptr;
  switch (t->getKind()) {
  case Kind::FloatBits:
    return t->getName() == format ? t->getOperand(0) : nullptr;
  case Kind::Ite: {
    Term a = realOfFloatBits(t->getOperand(1), format, leaf);
    Term b = a ? realOfFloatBits(t->getOperand(2), format, leaf) : nullptr;
    return b ? ite(t->getOperand(0), a, b) : nullptr;
  }
  case Kind::BVConst: {
    llvm::APFloat f(*sem, t->getAPInt());
    if (f.isNaN())
      return nan();
    if (f.isInfinity())
      return f.isNegative() ? negInf() : posInf();
    std::optional<Rational> q = Rational::fromAPFloat(f);
    return q ? real(*q) : nullptr;
  }
  default:
    return leaf ? leaf(t) : nullptr;
  }
}

//===----------------------------------------------------------------------===//
// Rebuilding and substitution
//===----------------------------------------------------------------------===//

Term TermContext::rebuild(Term t, llvm::ArrayRef<Term> o) {
  switch (t->getKind()) {
  case Kind::BoolConst:
  case Kind::BoolVar:
  case Kind::RealConst:
  case Kind::NegInf:
  case Kind::PosInf:
  case Kind::NaN:
  case Kind::RealVar:
  case Kind::BVConst:
  case Kind::BVVar:
    return t;
  case Kind::Not: return notOf(o[0]);
  case Kind::And: return andOf(o);
  case Kind::Or: return orOf(o);
  case Kind::RealLt: return realLt(o[0], o[1]);
  case Kind::RealLe: return realLe(o[0], o[1]);
  case Kind::Eq: return eq(o[0], o[1]);
  case Kind::BVUlt: return bvUlt(o[0], o[1]);
  case Kind::BVUle: return bvUle(o[0], o[1]);
  case Kind::BVSlt: return bvSlt(o[0], o[1]);
  case Kind::BVSle: return bvSle(o[0], o[1]);
  case Kind::Ite: return ite(o[0], o[1], o[2]);
  case Kind::Add: return add(o);
  case Kind::Mul: return mul(o);
  case Kind::Div: return div(o[0], o[1]);
  case Kind::Exp: return exp(o[0]);
  case Kind::Exp2: return exp2(o[0]);
  case Kind::Max: return max(o[0], o[1]);
  case Kind::Min: return min(o[0], o[1]);
  case Kind::RealFn: return realFn(t->getName(), o);
  case Kind::Select:
    return t->getSort() == Sort::BV
               ? intElement(t->getName(), o[0], t->getWidth())
               : element(t->getName(), o[0]);
  case Kind::BVToReal: return bvToReal(o[0], t->isSigned());
  case Kind::SumOver:
  case Kind::MaxOver:
  case Kind::MinOver:
    // The node's emptiness is handled where it was built (the ite around
    // a possibly empty max/min is rebuilt with it).
    return reduce(t->getKind(), boundVar(t), o[0], o[1], o[2],
                  /*nonEmpty=*/true);
  case Kind::BVNot: return bvNot(o[0]);
  case Kind::BVZExt: return bvZExt(o[0], t->getWidth());
  case Kind::BVSExt: return bvSExt(o[0], t->getWidth());
  case Kind::BVExtract:
    return bvExtract(o[0], t->getExtractLow(), t->getWidth());
  case Kind::BVConcat: return bvConcat(o[0], o[1]);
  case Kind::FloatBits:
    return floatBits(o[0], t->getName());
  default:
    return bvBin(t->getKind(), o[0], o[1]);
  }
}

Term TermContext::substitute(Term root, const llvm::DenseMap<Term, Term> &map) {
  llvm::DenseMap<Term, Term> memo(map);
  // The operands of a max/min chain (flattened, at most kMaxChain): the
  // chain is rebuilt once from its substituted operands, not node by node
  // (each node's rebuild would sort the whole rest of the chain again).
  llvm::DenseMap<Term, llvm::SmallVector<Term, 8>> chains;
  auto chainOperands = [&](Term t) -> bool {
    llvm::SmallVector<Term, 8> leaves, work{t};
    while (!work.empty()) {
      Term u = work.pop_back_val();
      if (u->getKind() == t->getKind()) {
        work.push_back(u->getOperand(1));
        work.push_back(u->getOperand(0));
      } else {
        leaves.push_back(u);
      }
      if (leaves.size() + work.size() > kMaxChain)
        return false;
    }
    chains[t] = std::move(leaves);
    return true;
  };
  // Iterative post-order: children before parents.
  llvm::SmallVector<std::pair<Term, bool>, 32> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.pop_back_val();
    if (memo.count(t))
      continue;
    bool isChain = t->getKind() == Kind::Max || t->getKind() == Kind::Min;
    if (!expanded) {
      stack.push_back({t, true});
      if (isChain && chainOperands(t)) {
        for (Term op : chains[t])
          if (!memo.count(op))
            stack.push_back({op, false});
        continue;
      }
      for (Term op : t->getOperands())
        if (!memo.count(op))
          stack.push_back({op, false});
      continue;
    }
    if (isChain) {
      auto c = chains.find(t);
      if (c != chains.end()) {
        llvm::SmallVector<Term, 8> ops;
        bool changed = false, null = false;
        for (Term op : c->second) {
          Term n = memo.lookup(op);
          null |= !n;
          ops.push_back(n);
          changed |= n != op;
        }
        Term r = t;
        if (null) {
          r = nullptr;
        } else if (changed) {
          r = maxMinChainOf(t->getKind(), ops);
          if (!r) {
            r = ops[0];
            for (size_t k = 1; k < ops.size(); ++k)
              r = t->getKind() == Kind::Max ? max(r, ops[k]) : min(r, ops[k]);
          }
        }
        memo[t] = r;
        continue;
      }
    }
    llvm::SmallVector<Term, 4> ops;
    bool changed = false;
    for (Term op : t->getOperands()) {
      Term n = memo.lookup(op);
      ops.push_back(n);
      changed |= n != op;
    }
    memo[t] = changed ? rebuild(t, ops) : t;
  }
  // A max, min or sum of ranges (mergeRanges) keeps its ranges: t = op of
  // its parts, so t[map] = op of the parts[map].
  if (!rangeParts.empty()) {
    llvm::SmallVector<std::pair<Term, Term>> withParts;
    // Only terms this walk rebuilt: a key of `map` is replaced by its
    // value, which is not the op of the key's parts (a review found a
    // false fold, and an endless recursion, from passing them on).
    for (auto &[from, to] : memo)
      if (to && to != from && !map.count(from) && rangeParts.count(from) &&
          !rangeParts.count(to))
        withParts.push_back({from, to});
    for (auto &[from, to] : withParts) {
      llvm::SmallVector<Term, 2> parts;
      for (Term part : llvm::SmallVector<Term, 2>(rangeParts[from])) {
        Term p = memo.lookup(part);
        parts.push_back(p ? p : substitute(part, map));
      }
      if (llvm::all_of(parts, [](Term p) { return p != nullptr; }))
        rangeParts[to] = std::move(parts);
    }
  }
  return memo.lookup(root);
}

llvm::SmallVector<Term> kproof::engine::subterms(llvm::ArrayRef<Term> roots) {
  llvm::DenseSet<Term> seen;
  llvm::SmallVector<Term> out, work(roots.begin(), roots.end());
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (!t || !seen.insert(t).second)
      continue;
    out.push_back(t);
    work.append(t->getOperands().begin(), t->getOperands().end());
  }
  return out;
}

llvm::SmallVector<Term> kproof::engine::conjunctsOf(Term t) {
  llvm::SmallVector<Term> out, work{t};
  while (!work.empty()) {
    Term c = work.pop_back_val();
    if (c->getKind() == Kind::And)
      work.append(c->getOperands().begin(), c->getOperands().end());
    else
      out.push_back(c);
  }
  return out;
}
