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

} // namespace

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
  // Every interior result is read only inside the idiom.
  SmallPtrSet<Operation *, 16> inside(ops.begin(), ops.end());
  inside.insert(root);
  for (Operation *op : ops)
    for (Operation *user : op->getUsers())
      if (!inside.contains(user))
        return std::nullopt;
  return m;
}

unsigned kproof::recognizeMathIdioms(Operation *scope) {
  SmallVector<std::pair<Operation *, ExpF32Idiom>> found;
  scope->walk([&](Operation *op) {
    if (op->hasAttr(kMathIdiomAttr))
      return;
    if (std::optional<ExpF32Idiom> m = matchNvccExpF32(op))
      found.push_back({op, std::move(*m)});
  });
  Builder b(scope->getContext());
  for (auto &[root, m] : found) {
    root->setAttr(kMathIdiomAttr, b.getStringAttr("expf"));
    for (Operation *op : m.interior)
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
