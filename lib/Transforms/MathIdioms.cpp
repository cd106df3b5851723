//===- MathIdioms.cpp - the kproof-recognize-math-idioms pass -------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Recognizes the instruction sequences compilers emit for math library
// functions and tags them: the root op with `kproof.math_idiom`, the ops only
// the idiom uses with `kproof.idiom_interior`. The proof engine runs it
// before executing a kernel (engine::execute) and reads the tags; the
// interpreter ignores them and runs the instructions bit for bit.
//
//===----------------------------------------------------------------------===//

#include "KProof/Transforms/Passes.h"

#include "KProof/Dialect/KProofOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kproof {
#define GEN_PASS_DEF_KPROOFRECOGNIZEMATHIDIOMS
#include "KProof/Transforms/Passes.h.inc"
} // namespace kproof

using namespace mlir;
using namespace ::kproof;

namespace {

/// Whether `v` is an f32 immediate with exactly these IEEE bits.
bool isF32Const(Value v, uint32_t bits) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c || !c.getType().isF32())
    return false;
  auto f = dyn_cast<FloatAttr>(c.getValue());
  return f && f.getValue().bitcastToAPInt().getZExtValue() == bits;
}

/// Whether `v` is the integer immediate `k`.
bool isIntConst(Value v, uint64_t k) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return false;
  auto i = dyn_cast<IntegerAttr>(c.getValue());
  return i && i.getValue().getZExtValue() == k;
}

/// An f32 fma `x * C + c` (either product operand order) whose product has
/// the constant `bits`; gives x and c.
bool matchFmaConst(Value v, uint32_t bits, FloatMode mode, Value &x,
                   Value &c, SmallVectorImpl<Operation *> &ops) {
  auto f = v.getDefiningOp<FmaOp>();
  if (!f || !f.getType().isF32() || f.getSat() ||
      f.getMode() != std::optional<FloatMode>(mode))
    return false;
  if (isF32Const(f.getB(), bits))
    x = f.getA();
  else if (isF32Const(f.getA(), bits))
    x = f.getB();
  else
    return false;
  c = f.getC();
  ops.push_back(f);
  return true;
}

/// The exponent-field scale of nvcc's expf: `bitcast(bitcast(j) << 23)` as
/// f32, j the rounded-down `fma.rm(s, 252, 0x4B400001)`. Gives j.
bool matchScale(Value v, Value &j, SmallVectorImpl<Operation *> &ops) {
  auto toFloat = v.getDefiningOp<BitcastOp>();
  if (!toFloat || !toFloat.getType().isF32() ||
      !toFloat.getInput().getType().isInteger(32))
    return false;
  auto shl = toFloat.getInput().getDefiningOp<ShiftOp>();
  if (!shl || shl.getKind() != ShiftKind::Shl || !isIntConst(shl.getAmount(), 23))
    return false;
  auto toBits = shl.getInput().getDefiningOp<BitcastOp>();
  if (!toBits || !toBits.getInput().getType().isF32())
    return false;
  j = toBits.getInput();
  ops.append({toFloat, shl, toBits});
  return true;
}

/// Whether `v` is the i32 immediate with these bits.
bool isI32Const(Value v, uint32_t bits) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c || !c.getType().isInteger(32))
    return false;
  auto i = dyn_cast<IntegerAttr>(c.getValue());
  return i && uint32_t(i.getValue().getZExtValue()) == bits;
}

/// `x * k` as an f32 mul (either order), k the constant `bits`.
bool isMulConst(Value v, Value x, uint32_t bits,
                SmallVectorImpl<Operation *> &ops) {
  auto m = v.getDefiningOp<FloatBinOp>();
  if (!m || m.getKind() != FloatBinKind::Mul || m.getSat() ||
      !m.getType().isF32() ||
      !((m.getLhs() == x && isF32Const(m.getRhs(), bits)) ||
        (m.getRhs() == x && isF32Const(m.getLhs(), bits))))
    return false;
  ops.push_back(m);
  return true;
}

} // namespace

std::optional<LogF32Idiom> kproof::matchNvccLogF32(Operation *root) {
  // root = selp(xs == 0, -inf, v)
  auto r = dyn_cast<SelpOp>(root);
  if (!r || !r.getType().isF32() || !isF32Const(r.getTrueValue(), 0xFF800000))
    return std::nullopt;
  LogF32Idiom m;
  SmallVector<Operation *, 40> &ops = m.interior;
  SmallVector<Operation *, 4> routing;
  auto isZero = r.getCondition().getDefiningOp<CmpOp>();
  if (!isZero || isZero.getPredicate() != CmpPredicate::Eq ||
      !isF32Const(isZero.getRhs(), 0))
    return std::nullopt;
  ops.push_back(isZero);
  // xs = selp(x < 2^-126, x * 2^23, x): subnormals scaled up.
  Value xs = isZero.getLhs();
  auto scaled = xs.getDefiningOp<SelpOp>();
  if (!scaled)
    return std::nullopt;
  auto sub = scaled.getCondition().getDefiningOp<CmpOp>();
  if (!sub || sub.getPredicate() != CmpPredicate::Lt ||
      !isF32Const(sub.getRhs(), 0x00800000))
    return std::nullopt;
  Value x = sub.getLhs();
  if (scaled.getFalseValue() != x ||
      !isMulConst(scaled.getTrueValue(), x, 0x4B000000, ops))
    return std::nullopt;
  ops.append({scaled, sub});
  // v: the finite case F, or through a join the inf/NaN case for bits of xs
  // at or above 0x7F800000 (+inf, NaN, negative: fma(xs, inf, inf)).
  Value f = r.getFalseValue();
  if (auto arg = dyn_cast<BlockArgument>(f)) {
    Block *join = arg.getOwner();
    if (join != root->getBlock() || join->getNumArguments() != 1)
      return std::nullopt;
    Value finite, special;
    for (Block *pred : join->getPredecessors()) {
      Operation *term = pred->getTerminator();
      if (auto br = dyn_cast<cf::BranchOp>(term)) {
        if (br.getNumOperands() != 1 || pred->getOperations().size() > 4)
          return std::nullopt;
        special = br.getOperand(0);
        routing.push_back(br);
      } else if (auto cbr = dyn_cast<cf::CondBranchOp>(term)) {
        if (cbr.getTrueDest() != join || cbr.getTrueOperands().size() != 1 ||
            !cbr.getFalseOperands().empty())
          return std::nullopt;
        finite = cbr.getTrueOperand(0);
        auto ok = cbr.getCondition().getDefiningOp<CmpOp>();
        if (!ok || ok.getPredicate() != CmpPredicate::Lt || ok.getIsSigned() ||
            !isI32Const(ok.getRhs(), 0x7F800000))
          return std::nullopt;
        auto bits = ok.getLhs().getDefiningOp<BitcastOp>();
        if (!bits || bits.getInput() != xs)
          return std::nullopt;
        ops.push_back(ok);
        routing.push_back(cbr);
      } else {
        return std::nullopt;
      }
    }
    if (!finite || !special || join->getNumArguments() != 1 ||
        std::distance(join->getPredecessors().begin(),
                      join->getPredecessors().end()) != 2)
      return std::nullopt;
    auto inf = special.getDefiningOp<FmaOp>();
    if (!inf || inf.getA() != xs || !isF32Const(inf.getB(), 0x7F800000) ||
        !isF32Const(inf.getC(), 0x7F800000))
      return std::nullopt;
    ops.push_back(inf);
    f = finite;
  }
  // F = fma(e, ln2, p): the exponent times ln 2 plus log1p of the mantissa.
  Value e, p;
  {
    Value y;
    if (!matchFmaConst(f, 0x3F317218, FloatMode::RN, y, p, ops))
      return std::nullopt;
    e = y;
  }
  // e = fma(float(k), 2^-23, selp(sub, -23, 0)), k = (bits - 0x3F2AAAAB) &
  // 0xFF800000 (the exponent field of xs relative to 2/3).
  Value fk, adj;
  if (!matchFmaConst(e, 0x34000000, FloatMode::RN, fk, adj, ops))
    return std::nullopt;
  auto adjSel = adj.getDefiningOp<SelpOp>();
  if (!adjSel || adjSel.getCondition() != sub.getResult() ||
      !isF32Const(adjSel.getTrueValue(), 0xC1B80000) ||
      !isF32Const(adjSel.getFalseValue(), 0))
    return std::nullopt;
  ops.push_back(adjSel);
  auto cvt = fk.getDefiningOp<CvtOp>();
  if (!cvt || !cvt.getSrcSigned() || !cvt.getInput().getType().isInteger(32) ||
      !cvt.getType().isF32())
    return std::nullopt;
  ops.push_back(cvt);
  Value k = cvt.getInput();
  auto andOp = k.getDefiningOp<IntBinOp>();
  if (!andOp || andOp.getKind() != IntBinKind::And ||
      !isI32Const(andOp.getRhs(), 0xFF800000))
    return std::nullopt;
  ops.push_back(andOp);
  auto bias = andOp.getLhs().getDefiningOp<IntBinOp>();
  if (!bias || !((bias.getKind() == IntBinKind::Add &&
                  isI32Const(bias.getRhs(), 0xC0D55555)) ||
                 (bias.getKind() == IntBinKind::Sub &&
                  isI32Const(bias.getRhs(), 0x3F2AAAAB))))
    return std::nullopt;
  ops.push_back(bias);
  auto bits = bias.getLhs().getDefiningOp<BitcastOp>();
  if (!bits || bits.getInput() != xs || !bits.getType().isInteger(32))
    return std::nullopt;
  ops.push_back(bits);
  // p = fma(u * q, u, u), q the degree-8 polynomial in u = m - 1, m the
  // mantissa (bits - k) in [2/3, 4/3).
  auto fp = p.getDefiningOp<FmaOp>();
  if (!fp || fp.getSat() || fp.getMode() != std::optional<FloatMode>(FloatMode::RN))
    return std::nullopt;
  ops.push_back(fp);
  Value u = fp.getB();
  if (fp.getC() != u)
    return std::nullopt;
  auto uq = fp.getA().getDefiningOp<FloatBinOp>();
  if (!uq || uq.getKind() != FloatBinKind::Mul)
    return std::nullopt;
  ops.push_back(uq);
  Value q = uq.getLhs() == u ? uq.getRhs() : uq.getRhs() == u ? uq.getLhs()
                                                              : Value();
  if (!q)
    return std::nullopt;
  // q = ((((((( c0 u + c1) u + c2) u + c3) u + c4) u + c5) u + c6) u + c7) u + c8
  static const uint32_t coeffs[] = {0xBE055027, 0x3E1039F6, 0xBDF8CDCC,
                                    0x3E0F2955, 0xBE2AD8B9, 0x3E4CED0B,
                                    0xBE7FFF22, 0x3EAAAA78, 0xBF000000};
  Value acc = q;
  for (int i = 8; i >= 2; --i) {
    auto step = acc.getDefiningOp<FmaOp>();
    if (!step || step.getSat() ||
        step.getMode() != std::optional<FloatMode>(FloatMode::RN) ||
        step.getB() != u || !isF32Const(step.getC(), coeffs[i]))
      return std::nullopt;
    ops.push_back(step);
    acc = step.getA();
  }
  {
    auto first = acc.getDefiningOp<FmaOp>();
    if (!first || first.getSat() ||
        first.getMode() != std::optional<FloatMode>(FloatMode::RN) ||
        !isF32Const(first.getC(), coeffs[1]) ||
        !((first.getA() == u && isF32Const(first.getB(), coeffs[0])) ||
          (first.getB() == u && isF32Const(first.getA(), coeffs[0]))))
      return std::nullopt;
    ops.push_back(first);
  }
  // u = bitcast(bits - k) - 1.
  auto uOp = u.getDefiningOp<FloatBinOp>();
  if (!uOp || !((uOp.getKind() == FloatBinKind::Add &&
                 isF32Const(uOp.getRhs(), 0xBF800000)) ||
                (uOp.getKind() == FloatBinKind::Sub &&
                 isF32Const(uOp.getRhs(), 0x3F800000))))
    return std::nullopt;
  ops.push_back(uOp);
  auto mant = uOp.getLhs().getDefiningOp<BitcastOp>();
  if (!mant || !mant.getType().isF32())
    return std::nullopt;
  ops.push_back(mant);
  auto diff = mant.getInput().getDefiningOp<IntBinOp>();
  if (!diff || diff.getKind() != IntBinKind::Sub || diff.getLhs() != bits ||
      diff.getRhs() != k)
    return std::nullopt;
  ops.push_back(diff);
  m.x = x;
  // Every interior result is read only inside the idiom (the routing
  // branches pass the finite and the special case to the root's block).
  SmallPtrSet<Operation *, 32> inside(ops.begin(), ops.end());
  inside.insert(root);
  inside.insert(routing.begin(), routing.end());
  for (Operation *op : ops)
    for (Operation *user : op->getUsers())
      if (!inside.contains(user))
        return std::nullopt;
  return m;
}

std::optional<ExpF32Idiom> kproof::matchNvccExpF32(Operation *root) {
  // The product ex2(l) * scale: a mul, or an fma adding it to c.
  Value lhs, rhs, addend;
  if (auto m = dyn_cast<FloatBinOp>(root)) {
    if (m.getKind() != FloatBinKind::Mul || m.getSat() || !m.getType().isF32())
      return std::nullopt;
    lhs = m.getLhs();
    rhs = m.getRhs();
  } else if (auto f = dyn_cast<FmaOp>(root)) {
    if (f.getSat() || !f.getType().isF32() ||
        (f.getMode() && *f.getMode() != FloatMode::RN))
      return std::nullopt;
    lhs = f.getA();
    rhs = f.getB();
    addend = f.getC();
  } else {
    return std::nullopt;
  }
  ExpF32Idiom m;
  m.addend = addend;
  SmallVector<Operation *, 12> &ops = m.interior;
  Value j;
  auto e = lhs.getDefiningOp<FloatUnaryOp>();
  if (e && matchScale(rhs, j, ops)) {
  } else if ((e = rhs.getDefiningOp<FloatUnaryOp>()) && matchScale(lhs, j, ops)) {
  } else {
    return std::nullopt;
  }
  if (e.getKind() != FloatUnaryKind::Ex2 || e.getSat())
    return std::nullopt;
  ops.push_back(e);
  // l = fma.rn(x, 0x32A57060, h); h = fma.rn(x, 0x3FB8AA3B, -k): x * log2(e)
  // in two parts (hi + lo = log2(e) to about 2^-48), less k.
  Value x, xHi, h, negK;
  if (!matchFmaConst(e.getInput(), 0x32A57060, FloatMode::RN, x, h, ops) ||
      !matchFmaConst(h, 0x3FB8AA3B, FloatMode::RN, xHi, negK, ops) || xHi != x)
    return std::nullopt;
  auto neg = negK.getDefiningOp<FloatUnaryOp>();
  if (!neg || neg.getKind() != FloatUnaryKind::Neg)
    return std::nullopt;
  ops.push_back(neg);
  // k = j - (1.5 * 2^23 + 127): `add j, 0xCB40007F` or `sub j, 0x4B40007F`.
  auto k = neg.getInput().getDefiningOp<FloatBinOp>();
  if (!k || k.getSat() || k.getLhs() != j ||
      !((k.getKind() == FloatBinKind::Add && isF32Const(k.getRhs(), 0xCB40007F)) ||
        (k.getKind() == FloatBinKind::Sub && isF32Const(k.getRhs(), 0x4B40007F))))
    return std::nullopt;
  ops.push_back(k);
  // j = fma.rm(s, 252, 1.5 * 2^23 + 1), s = cvt.sat(fma.rn(x, log2(e)/256, 0.5)):
  // the integer n in [1, 253] in j's low mantissa bits, 2^(n - 127) the scale.
  Value s, one;
  if (!matchFmaConst(j, 0x437C0000, FloatMode::RM, s, one, ops) ||
      !isF32Const(one, 0x4B400001))
    return std::nullopt;
  auto sat = s.getDefiningOp<CvtOp>();
  if (!sat || !sat.getSat() || !sat.getType().isF32() ||
      !sat.getInput().getType().isF32() || sat.getMode())
    return std::nullopt;
  ops.push_back(sat);
  Value xLow, half;
  if (!matchFmaConst(sat.getInput(), 0x3BBB989D, FloatMode::RN, xLow, half, ops) ||
      xLow != x || !isF32Const(half, 0x3F000000))
    return std::nullopt;
  m.x = x;
  // Every interior result is read only inside the idiom, and the fused
  // addend comes from outside it (a review found `fma(ex2(l), scale,
  // ex2(l))` read as exp(x) + the placeholder of a skipped op: a false
  // PROVED).
  SmallPtrSet<Operation *, 16> inside(ops.begin(), ops.end());
  if (addend && addend.getDefiningOp() &&
      inside.contains(addend.getDefiningOp()))
    return std::nullopt;
  inside.insert(root);
  for (Operation *op : ops)
    for (Operation *user : op->getUsers())
      if (!inside.contains(user))
        return std::nullopt;
  return m;
}

namespace {
/// A float op of kind `kind` on f32 without .sat (any .ftz), and its
/// operands.
template <typename Op, typename Kind> Op floatOp(Value v, Kind kind) {
  auto op = v.getDefiningOp<Op>();
  if (!op || op.getKind() != kind || op.getSat() || !op.getType().isF32())
    return Op();
  return op;
}

/// An f32 fma.rn without .sat (any .ftz).
FmaOp fmaRn(Value v) {
  auto f = v.getDefiningOp<FmaOp>();
  if (!f || f.getSat() || !f.getType().isF32() ||
      f.getMode() != std::optional<FloatMode>(FloatMode::RN))
    return FmaOp();
  return f;
}

/// `setp.ge.f32 p, a, c` with c the constant `bits`; gives a.
bool matchGeConst(Value p, uint32_t bits, Value &a,
                  SmallVectorImpl<Operation *> &ops) {
  auto c = p.getDefiningOp<CmpOp>();
  if (!c || c.getPredicate() != CmpPredicate::Ge ||
      !c.getLhs().getType().isF32() || !isF32Const(c.getRhs(), bits))
    return false;
  a = c.getLhs();
  ops.push_back(c);
  return true;
}
} // namespace

namespace {
/// Reads the dataflow of a sequence as both -O3 and -G code give it:
/// through block arguments that every predecessor passes one value to
/// (-G's forwarding blocks), and a join of the two sides of one cond_br as a
/// select (-G branches where -O3 has selp). Records the terminators and the
/// block arguments it reads through, for the interior-use check.
struct DataflowReader {
  SmallVector<Operation *, 8> routing;
  SmallVector<BlockArgument, 8> args;

  /// The value `pred`'s terminator passes to argument `arg` of `into`
  /// (null when it is not a cf branch, or reaches `into` on both sides).
  static Value passed(Block *pred, Block *into, unsigned arg) {
    Operation *t = pred->getTerminator();
    if (auto br = dyn_cast<cf::BranchOp>(t))
      return br.getDest() == into ? br.getDestOperands()[arg] : Value();
    if (auto cbr = dyn_cast<cf::CondBranchOp>(t)) {
      if (cbr.getTrueDest() == into && cbr.getFalseDest() != into)
        return cbr.getTrueOperands()[arg];
      if (cbr.getFalseDest() == into && cbr.getTrueDest() != into)
        return cbr.getFalseOperands()[arg];
    }
    return Value();
  }

  /// `v`, through block arguments that every predecessor passes the same
  /// value to.
  Value through(Value v, unsigned depth = 0) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || depth > 16 || arg.getOwner()->isEntryBlock())
      return v;
    Block *b = arg.getOwner();
    Value same;
    SmallVector<Operation *, 2> terms;
    for (Block *p : b->getPredecessors()) {
      Value x = passed(p, b, arg.getArgNumber());
      if (!x)
        return v;
      Value r = through(x, depth + 1);
      if (same && r != same)
        return v;
      same = r;
      terms.push_back(p->getTerminator());
    }
    if (!same)
      return v;
    args.push_back(arg);
    routing.append(terms.begin(), terms.end());
    return same;
  }

  template <typename Op> Op def(Value v) {
    return through(v).getDefiningOp<Op>();
  }

  /// The cond_br the edge from `pred` into `into` comes from, through
  /// blocks that hold only constants and an unconditional branch and have a
  /// single predecessor; `side` tells which successor it took.
  cf::CondBranchOp origin(Block *pred, Block *into, bool &side) {
    for (unsigned depth = 0; depth < 8; ++depth) {
      Operation *t = pred->getTerminator();
      if (auto cbr = dyn_cast<cf::CondBranchOp>(t)) {
        if (cbr.getTrueDest() == into && cbr.getFalseDest() != into)
          side = true;
        else if (cbr.getFalseDest() == into && cbr.getTrueDest() != into)
          side = false;
        else
          return cf::CondBranchOp();
        return cbr;
      }
      Block *up = pred->getSinglePredecessor();
      if (!isa<cf::BranchOp>(t) || !up ||
          !llvm::all_of(pred->without_terminator(),
                        [](Operation &op) { return isa<ConstantOp>(op); }))
        return cf::CondBranchOp();
      routing.push_back(t);
      into = pred;
      pred = up;
    }
    return cf::CondBranchOp();
  }

  /// `v` as cond ? ifTrue : ifFalse: a selp (`op` set to it), or a block
  /// argument whose two incoming edges come from the two sides of one
  /// cond_br. A condition `not c` is read as c with the sides swapped (its
  /// op appended to `ops`).
  struct Select {
    Value cond, ifTrue, ifFalse;
    Operation *op = nullptr;
  };
  std::optional<Select> select(Value v, SmallVectorImpl<Operation *> &ops) {
    v = through(v);
    Select s;
    if (auto sel = v.getDefiningOp<SelpOp>()) {
      s = {sel.getCondition(), sel.getTrueValue(), sel.getFalseValue(), sel};
    } else if (auto arg = dyn_cast<BlockArgument>(v)) {
      Block *join = arg.getOwner();
      SmallVector<Block *, 2> preds(join->getPredecessors());
      if (preds.size() != 2 || join->isEntryBlock())
        return std::nullopt;
      bool side[2];
      cf::CondBranchOp c[2];
      Value in[2];
      for (int k = 0; k < 2; ++k) {
        in[k] = passed(preds[k], join, arg.getArgNumber());
        c[k] = origin(preds[k], join, side[k]);
        if (!in[k] || !c[k])
          return std::nullopt;
        routing.push_back(preds[k]->getTerminator());
      }
      if (c[0] != c[1] || side[0] == side[1])
        return std::nullopt;
      args.push_back(arg);
      s = {c[0].getCondition(), side[0] ? in[0] : in[1],
           side[0] ? in[1] : in[0], nullptr};
    } else {
      return std::nullopt;
    }
    if (auto n = def<IntUnaryOp>(s.cond);
        n && n.getKind() == IntUnaryKind::Not && n.getType().isInteger(1)) {
      ops.push_back(n);
      s.cond = n.getInput();
      std::swap(s.ifTrue, s.ifFalse);
    }
    return s;
  }
};
} // namespace

std::optional<TanhF32Idiom> kproof::matchNvccTanhF32(Operation *root) {
  // root = selp(|x| >= 0.6, big, small) at -O3; at -G the .func's
  // `bitcast` of the join of the two branches that compute big and small.
  Value top;
  if (auto r = dyn_cast<SelpOp>(root)) {
    if (!r.getType().isF32())
      return std::nullopt;
    top = r.getResult();
  } else if (auto bc = dyn_cast<BitcastOp>(root)) {
    if (!bc.getInput().getType().isF32() || !isa<BlockArgument>(bc.getInput()))
      return std::nullopt;
    top = bc.getInput();
  } else {
    return std::nullopt;
  }
  DataflowReader R;
  TanhF32Idiom m;
  SmallVector<Operation *, 24> &ops = m.interior;
  auto r = R.select(top, ops);
  if (!r || (r->op && r->op != root) || (!r->op && !isa<BitcastOp>(root)))
    return std::nullopt;
  Value a;
  if (!matchGeConst(R.through(r->cond), 0x3F19999A, a, ops))
    return std::nullopt;
  a = R.through(a);
  auto abs = floatOp<FloatUnaryOp>(a, FloatUnaryKind::Abs);
  if (!abs)
    return std::nullopt;
  ops.push_back(abs);
  Value x = R.through(abs.getInput());
  // big = copysign(x, selp(a >= 9.0109, 1, fma(rcp(ex2(a * 2 log2 e) + 1),
  // -2, 1)))
  auto sign = floatOp<FloatBinOp>(R.through(r->ifTrue), FloatBinKind::CopySign);
  if (!sign || R.through(sign.getLhs()) != x)
    return std::nullopt;
  ops.push_back(sign);
  auto sat = R.select(sign.getRhs(), ops);
  if (!sat || !isF32Const(R.through(sat->ifTrue), 0x3F800000))
    return std::nullopt;
  if (sat->op)
    ops.push_back(sat->op);
  Value a2;
  if (!matchGeConst(R.through(sat->cond), 0x41102CB4, a2, ops) ||
      R.through(a2) != a)
    return std::nullopt;
  auto t = fmaRn(R.through(sat->ifFalse));
  if (!t || !isF32Const(t.getB(), 0xC0000000) ||
      !isF32Const(t.getC(), 0x3F800000))
    return std::nullopt;
  ops.push_back(t);
  auto rcp = floatOp<FloatUnaryOp>(R.through(t.getA()), FloatUnaryKind::Rcp);
  if (!rcp)
    return std::nullopt;
  ops.push_back(rcp);
  auto plus1 =
      floatOp<FloatBinOp>(R.through(rcp.getInput()), FloatBinKind::Add);
  if (!plus1 || !isF32Const(plus1.getRhs(), 0x3F800000))
    return std::nullopt;
  ops.push_back(plus1);
  auto e =
      floatOp<FloatUnaryOp>(R.through(plus1.getLhs()), FloatUnaryKind::Ex2);
  if (!e)
    return std::nullopt;
  ops.push_back(e);
  auto scale = floatOp<FloatBinOp>(R.through(e.getInput()), FloatBinKind::Mul);
  if (!scale || !((R.through(scale.getLhs()) == a &&
                   isF32Const(scale.getRhs(), 0x4038AA3B)) ||
                  (R.through(scale.getRhs()) == a &&
                   isF32Const(scale.getLhs(), 0x4038AA3B))))
    return std::nullopt;
  ops.push_back(scale);
  // small = fma(q, x, x), q = fma(fma(fma(fma(c0, x2, c1), x2, c2), x2, c3),
  // x2, 0), x2 = x * x.
  auto small = fmaRn(R.through(r->ifFalse));
  if (!small || R.through(small.getB()) != x || R.through(small.getC()) != x)
    return std::nullopt;
  ops.push_back(small);
  static const uint32_t coeffs[] = {0x3C80F082, 0xBD563CAE, 0x3E085941,
                                    0xBEAAA9ED, 0x00000000};
  Value acc = small.getA(), x2;
  for (int i = 4; i >= 1; --i) {
    auto step = fmaRn(R.through(acc));
    if (!step || !isF32Const(step.getC(), coeffs[i]))
      return std::nullopt;
    Value b = R.through(step.getB());
    if (!x2)
      x2 = b;
    if (b != x2)
      return std::nullopt;
    ops.push_back(step);
    acc = step.getA();
  }
  if (!isF32Const(acc, coeffs[0]))
    return std::nullopt;
  auto sq = floatOp<FloatBinOp>(x2, FloatBinKind::Mul);
  if (!sq || R.through(sq.getLhs()) != x || R.through(sq.getRhs()) != x)
    return std::nullopt;
  ops.push_back(sq);
  m.x = x;
  // No interior-use check: every op of the sequence is one the engine
  // models, so none is tagged interior (recognizeMathIdioms) and each still
  // runs with its own semantics; only the root's value is read as tanh(x).
  // (Skipping them would leave placeholders for any other use, and steer
  // -G's branches by placeholder conditions.)
  return m;
}

unsigned kproof::recognizeMathIdioms(Operation *scope) {
  struct Found {
    Operation *root;
    StringRef name;
    SmallVector<Operation *, 40> interior;
  };
  SmallVector<Found, 4> found;
  scope->walk([&](Operation *op) {
    if (op->hasAttr(kMathIdiomAttr))
      return;
    if (std::optional<ExpF32Idiom> m = matchNvccExpF32(op))
      found.push_back({op, "expf", {m->interior.begin(), m->interior.end()}});
    else if (std::optional<LogF32Idiom> l = matchNvccLogF32(op))
      found.push_back({op, "logf", {l->interior.begin(), l->interior.end()}});
    else if (matchNvccTanhF32(op))
      found.push_back({op, "tanhf", {}}); // its ops are all modeled: none
                                          // is skipped
  });
  Builder b(scope->getContext());
  for (Found &f : found) {
    f.root->setAttr(kMathIdiomAttr, b.getStringAttr(f.name));
    for (Operation *op : f.interior)
      op->setAttr(kIdiomInteriorAttr, b.getUnitAttr());
  }
  return found.size();
}

namespace {
struct RecognizeMathIdiomsPass
    : public kproof::impl::KProofRecognizeMathIdiomsBase<
          RecognizeMathIdiomsPass> {
  using Base::Base;

  void runOnOperation() override { recognizeMathIdioms(getOperation()); }
};
} // namespace
