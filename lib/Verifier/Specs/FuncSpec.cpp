//===- FuncSpec.cpp - specs written as func.func over tensors -------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A func.func spec over tensors (docs/contracts.md) is lowered element-wise
// (§5): the term of output element `index` is computed by a recursion over
// SSA values, `value(v, indices)`, that asks each defining op for the one
// element it needs, down to the input buffers' element terms. No tensor is
// ever materialized, so the same lowering serves concrete and symbolic
// indices. Floats are exact reals, integers bit-vectors of their width
// (index: 64 bits), i1 booleans.
//
// Results are memoized per (value, index terms): index terms are
// hash-consed, so concrete and repeated symbolic indices share the work.
//
// Tensor extents are 64-bit terms too: a static one is a constant; a
// dynamic one (`?`) is traced to where it comes from (dimOrigin): the
// launch-dependent extent of the buffer bound to a function argument
// (BufferBinding::extent), or a dynamic size operand of tensor.empty /
// tensor.splat. Flat indices split and linearize over such extents with
// bvudiv/bvurem/bvmul; what needs a concrete count over a launch-dependent
// extent (a reduction, a softmax row) is refused with a reason (UNKNOWN).
//
//===----------------------------------------------------------------------===//

#include "FuncSpec.h"

#include "KProof/Verifier/Terms/Constants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>

using namespace mlir;
using namespace ::kproof::engine;

namespace {

/// Most reduction points one output element may fold over.
constexpr uint64_t kMaxReductionPoints = uint64_t(1) << 22;
/// Reductions over more points than this are built as one reduction term
/// (Lowerer::symbolicReduction) when their body allows it.
constexpr uint64_t kUnfoldPoints = 4096;
/// Largest non-splat dense constant read at a symbolic index (ite chain).
constexpr int64_t kMaxConstantIteChain = 1024;

/// "file:line:col" for a file location, the printed location otherwise.
std::string locString(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" +
           std::to_string(f.getColumn());
  if (auto n = dyn_cast<NameLoc>(loc))
    return locString(n.getChildLoc());
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return locString(c.getCallee());
  if (auto f = dyn_cast<FusedLoc>(loc))
    if (!f.getLocations().empty())
      return locString(f.getLocations().front());
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

/// Bit width of an integer-like type in the model (index: 64 bits).
unsigned bitWidth(Type t) {
  if (isa<IndexType>(t))
    return 64;
  return t.getIntOrFloatBitWidth();
}

bool isBoolType(Type t) { return t.isInteger(1); }

bool isOne(Term t) {
  return t->getKind() == Kind::BVConst && t->getAPInt().isOne();
}

/// `a * b` without unit factors.
Term mulBV(TermContext &T, Term a, Term b) {
  if (isOne(a))
    return b;
  if (isOne(b))
    return a;
  return T.bvBin(Kind::BVMul, a, b);
}

/// A launch-extent product (launchProduct) without its unit factors:
/// `1 * zext(ntid.x)` -> `zext(ntid.x)`.
Term dropUnitFactors(TermContext &T, Term t) {
  if (t->getKind() != Kind::BVMul)
    return t;
  return mulBV(T, dropUnitFactors(T, t->getOperand(0)),
               dropUnitFactors(T, t->getOperand(1)));
}

/// An extent term for messages: "ntid.x", "nctaid.x*ntid.x", "256".
std::string extentText(Term t) {
  switch (t->getKind()) {
  case Kind::BVConst:
    return std::to_string(t->getAPInt().getZExtValue());
  case Kind::BVVar:
    return t->getName().str();
  case Kind::BVZExt:
    return extentText(t->getOperand(0));
  case Kind::BVMul:
    return extentText(t->getOperand(0)) + "*" + extentText(t->getOperand(1));
  default: {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  }
  }
}

/// A contract's extent expression ("ntid.x*2*nctaid.x") in a canonical
/// form under `launch`: concrete launch extents and integers multiplied
/// into one leading integer (omitted when 1), then the symbolic factors in
/// sorted order ("2*nctaid.x*ntid.x"). Two expressions with the same form
/// are the same extent.
std::string canonicalProduct(StringRef expr, const LaunchConfig &launch) {
  uint64_t c = 1;
  SmallVector<std::string> names;
  SmallVector<StringRef> factors;
  expr.split(factors, '*');
  for (StringRef f : factors) {
    f = f.trim();
    uint64_t v;
    if (!f.getAsInteger(10, v)) {
      c *= v;
      continue;
    }
    bool ofBlock = f.starts_with("ntid.");
    int d = f.empty() ? 0 : f.back() - 'x';
    if ((ofBlock || f.starts_with("nctaid.")) && d >= 0 && d < 3) {
      bool symbolic =
          ofBlock ? launch.blockSymbolic[d] : launch.gridSymbolic[d];
      int64_t bound = ofBlock ? launch.block[d] : launch.grid[d];
      if (!symbolic || bound == 1) { // a constant, as LaunchConfig::extent
        c *= uint64_t(bound);
        continue;
      }
    }
    names.push_back(f.str());
  }
  llvm::sort(names);
  std::string r = c != 1 || names.empty() ? std::to_string(c) : "";
  for (const std::string &n : names)
    r += (r.empty() ? "" : "*") + n;
  return r;
}

/// Where extent `dim` of a ranked tensor value comes from.
struct DimOrigin {
  std::optional<int64_t> constant; ///< a static extent
  BlockArgument arg;               ///< else a function argument's extent
  unsigned argDim = 0;
  Value size;                     ///< else an index value (a size operand)
  Operation *unmodeled = nullptr; ///< else the op whose extent is unknown
};

/// Follows a dynamic extent back through the ops that keep their operand's
/// shape (tensor.cast, tensor.insert, linalg ops to their `outs`,
/// element-wise arith/math) to a static extent, a function argument or a
/// dynamic size of tensor.empty / tensor.splat.
DimOrigin dimOrigin(Value v, unsigned dim) {
  DimOrigin o;
  while (true) {
    auto ty = cast<RankedTensorType>(v.getType());
    if (!ty.isDynamicDim(dim)) {
      o.constant = ty.getDimSize(dim);
      return o;
    }
    if (auto ba = dyn_cast<BlockArgument>(v)) {
      o.arg = ba;
      o.argDim = dim;
      return o;
    }
    Operation *def = v.getDefiningOp();
    if (auto e = dyn_cast<tensor::EmptyOp>(def)) {
      o.size = e.getDynamicSize(dim);
      return o;
    }
    if (auto s = dyn_cast<tensor::SplatOp>(def)) {
      o.size = s.getDynamicSizes()[ty.getDynamicDimIndex(dim)];
      return o;
    }
    if (auto c = dyn_cast<tensor::CastOp>(def)) {
      v = c.getSource();
      continue;
    }
    if (auto i = dyn_cast<tensor::InsertOp>(def)) {
      v = i.getDest();
      continue;
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
      v = dps.getDpsInitOperand(cast<OpResult>(v).getResultNumber())->get();
      continue;
    }
    if (def->hasTrait<OpTrait::Elementwise>()) {
      auto it = llvm::find_if(def->getOperands(), [](Value x) {
        return isa<RankedTensorType>(x.getType());
      });
      if (it != def->getOperands().end()) {
        v = *it;
        continue;
      }
    }
    o.unmodeled = def;
    return o;
  }
}

/// What a func argument is bound to.
struct ArgBinding {
  const BufferBinding *buffer = nullptr; ///< a tensor argument
  Term scalar = nullptr;                 ///< a scalar argument
};

class FuncSpec;

/// The state of one linalg body evaluation: the loop point and the block
/// arguments' values (computed lazily, on first use).
void collectArgs(Value v, Block *body, llvm::SmallPtrSetImpl<Operation *> &seen,
                 SmallVectorImpl<unsigned> &args);

struct BodyCtx {
  Block *block;
  ArrayRef<Term> loop;
  llvm::function_ref<Term(BlockArgument)> arg;
  DenseMap<Value, Term> memo;
};

/// One `element` query: evaluates SSA values at indices.
class Lowerer {
public:
  Lowerer(FuncSpec &spec, TermContext &T, std::string &reason)
      : spec(spec), T(T), reason(reason) {}

  Term value(Value v, ArrayRef<Term> idx, BodyCtx *ctx);

  SmallVector<Term> split(Term flat, ArrayRef<int64_t> shape);
  Term linearize(ArrayRef<Term> idx, ArrayRef<int64_t> shape);
  /// The same over extent terms; all-constant extents take the static
  /// versions above (the same terms).
  SmallVector<Term> split(Term flat, ArrayRef<Term> shape);
  Term linearize(ArrayRef<Term> idx, ArrayRef<Term> shape);
  /// The 64-bit extent of dimension `dim` of tensor `v`; null (with the
  /// reason set) where it is not modeled.
  Term extent(Value v, unsigned dim);
  /// A buffer's extents under the spec's launch.
  SmallVector<Term> bufferShape(const BufferBinding &b);

private:
  Term fail(Operation *op, const llvm::Twine &msg) {
    if (reason.empty()) {
      reason = msg.str();
      if (op)
        reason += " ('" + op->getName().getStringRef().str() + "' at " +
                  locString(op->getLoc()) + ")";
    }
    return nullptr;
  }
  /// A null term from a constructor: an infinity met where the reals model
  /// is not exact (inf - inf, 0 * inf, ...).
  Term check(Term t, Operation *op) {
    if (!t)
      return fail(op, "the spec computes an undefined value in the reals "
                      "model (an infinity meets an infinity or zero)");
    return t;
  }

  Term argument(BlockArgument a, ArrayRef<Term> idx);
  Term evalOp(Operation *op, unsigned resultNo, ArrayRef<Term> idx,
              BodyCtx *ctx);
  Term elementwise(Operation *op, llvm::function_ref<Term(Value)> get);
  Term constant(Attribute a, Operation *op);
  Term denseConstant(DenseElementsAttr d, ArrayRef<Term> idx, Operation *op);
  Term linalgOp(linalg::LinalgOp op, unsigned resultNo, ArrayRef<Term> idx);
  Term softmax(linalg::SoftmaxOp op, ArrayRef<Term> idx);
  /// The extent of loop dimension `d` of a linalg op, from an operand
  /// indexed by it.
  Term loopExtent(linalg::LinalgOp op, unsigned d);
  /// A reduction over the symbolic `extent` of loop dimension `d`, the
  /// only dimension the output does not fix, when the body yields
  /// `acc + g`, `max(acc, g)` or `min(acc, g)` for its result with `g`
  /// reading no accumulator: init + SumOver_{j in [0, extent)} g(j) (or
  /// max/min with MaxOver/MinOver). Null when the body has another shape
  /// (the caller reports it) or a lowering failed (reason set).
  Term symbolicReduction(linalg::LinalgOp op, unsigned resultNo,
                         ArrayRef<Term> idx, ArrayRef<Term> loop, unsigned d,
                         Term extent);
  /// Reductions built by symbolicReduction in this query (their variables'
  /// names).
  unsigned reductionVars = 0;
  Term affine(AffineExpr e, ArrayRef<Term> loop, Operation *op);
  SmallVector<Term> applyMap(AffineMap m, ArrayRef<Term> loop, Operation *op);
  Term toBV(Term t, unsigned width, bool isSigned);
  Term bvc(uint64_t v) { return T.bv(v, 64); }

  FuncSpec &spec;
  TermContext &T;
  std::string &reason;
};

class FuncSpec final : public Spec {
public:
  FuncSpec(func::FuncOp func, std::vector<ArgBinding> args,
           const BufferBinding *out, std::string inputsText,
           const LaunchConfig &launch, std::vector<bool> resultDimChecked,
           unsigned resultIndex)
      : func(func), args(std::move(args)), out(out),
        inputsText(std::move(inputsText)), launch(launch),
        resultDimChecked(std::move(resultDimChecked)),
        resultIndex(resultIndex) {}

  std::string describe() const override {
    return "@" + func::FuncOp(func).getSymName().str() + "(" + inputsText +
           ") -> " + out->name;
  }
  const BufferBinding &output() const override { return *out; }
  /// A reading of the lowering that is an assumption (Spec::idioms).
  void noteIdiom(const std::string &line) { addIdiom(line); }

  Term element(TermContext &T, Term index, std::string &reason) override {
    if (memoCtx != &T) {
      memo.clear();
      memoCtx = &T;
    }
    if (!index || index->getSort() != Sort::BV || index->getWidth() != 64) {
      reason = "the spec's element index must be a 64-bit bit-vector";
      return nullptr;
    }
    Lowerer L(*this, T, reason);
    auto ret = cast<func::ReturnOp>(func.front().getTerminator());
    Value result = ret.getOperand(resultIndex);
    SmallVector<Term> idx;
    if (!out->isSymbolic()) {
      idx = L.split(index, out->shape);
    } else {
      SmallVector<Term> shape = L.bufferShape(*out);
      // A dynamic result extent not related to the buffer's at build time
      // must be the same term.
      for (unsigned d = 0; d < shape.size(); ++d) {
        if (resultDimChecked[d])
          continue;
        Term e = L.extent(result, d);
        if (!e)
          return nullptr;
        if (e != shape[d]) {
          reason = "dimension #" + std::to_string(d) +
                   " of the spec's result (extent '" + extentText(e) +
                   "') is not known to equal that of output buffer '" +
                   out->name + "' ('" + out->symbolicDims[d] + "')";
          return nullptr;
        }
      }
      idx = L.split(index, shape);
    }
    Term t = L.value(result, idx, nullptr);
    if (!t && reason.empty())
      reason = "element not defined";
    return t;
  }

  func::FuncOp func;
  std::vector<ArgBinding> args;
  const BufferBinding *out;
  std::string inputsText;
  LaunchConfig launch;
  /// Per dimension of the result: related to the output buffer's extent at
  /// build time (static, or the same launch-extent expression).
  std::vector<bool> resultDimChecked;
  /// Which result of the function this spec is (several outputs).
  unsigned resultIndex = 0;
  TermContext *memoCtx = nullptr;
  std::map<std::pair<const void *, std::vector<Term>>, Term> memo;
};

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

SmallVector<Term> Lowerer::split(Term flat, ArrayRef<int64_t> shape) {
  SmallVector<Term> idx(shape.size());
  uint64_t stride = 1;
  int outermost = 0; // the outermost dimension that is not a unit one
  while (outermost + 1 < int(shape.size()) && shape[outermost] == 1)
    ++outermost;
  for (int k = int(shape.size()) - 1; k >= 0; --k) {
    Term t = flat;
    if (shape[k] == 1) {
      t = bvc(0);
    } else {
      if (stride != 1)
        t = T.bvBin(Kind::BVUDiv, t, bvc(stride));
      // The outermost index needs no wrap: the flat index is in range.
      if (k > outermost)
        t = T.bvBin(Kind::BVURem, t, bvc(shape[k]));
    }
    idx[k] = t;
    stride *= shape[k];
  }
  return idx;
}

Term Lowerer::linearize(ArrayRef<Term> idx, ArrayRef<int64_t> shape) {
  if (shape.empty())
    return bvc(0);
  // Indices that came from splitting a flat index over the same shape give
  // that index back (so the spec reads x[f], not x[(f / n) * n + f % n]).
  int last = -1;
  for (int k = int(shape.size()) - 1; k >= 0 && last < 0; --k)
    if (shape[k] != 1)
      last = k;
  if (last >= 0) {
    Term cand = idx[last];
    uint64_t stride = 1;
    for (size_t k = last + 1; k < shape.size(); ++k)
      stride *= shape[k];
    int outermost = 0;
    while (outermost + 1 < int(shape.size()) && shape[outermost] == 1)
      ++outermost;
    if (last > outermost && cand->getKind() == Kind::BVURem)
      cand = cand->getOperand(0);
    else if (last > outermost)
      cand = nullptr;
    if (cand && stride != 1) {
      if (cand->getKind() == Kind::BVUDiv &&
          cand->getOperand(1)->getKind() == Kind::BVConst &&
          cand->getOperand(1)->getAPInt() == stride)
        cand = cand->getOperand(0);
      else
        cand = nullptr;
    }
    if (cand && !cand->isConstant()) {
      SmallVector<Term> again = split(cand, shape);
      if (llvm::equal(again, idx))
        return cand;
    }
  }
  Term flat = idx[0];
  for (size_t k = 1; k < shape.size(); ++k) {
    if (shape[k] != 1)
      flat = T.bvBin(Kind::BVMul, flat, bvc(shape[k]));
    flat = T.bvBin(Kind::BVAdd, flat, idx[k]);
  }
  return flat;
}

/// The extents as integers when all are constants.
bool constantShape(ArrayRef<Term> shape, SmallVectorImpl<int64_t> &out) {
  for (Term e : shape) {
    if (e->getKind() != Kind::BVConst)
      return false;
    out.push_back(int64_t(e->getAPInt().getZExtValue()));
  }
  return true;
}

SmallVector<Term> Lowerer::split(Term flat, ArrayRef<Term> shape) {
  SmallVector<int64_t> fixed;
  if (constantShape(shape, fixed))
    return split(flat, fixed);
  SmallVector<Term> idx(shape.size());
  Term stride = bvc(1);
  int outermost = 0; // the outermost dimension not known to be a unit one
  while (outermost + 1 < int(shape.size()) && isOne(shape[outermost]))
    ++outermost;
  for (int k = int(shape.size()) - 1; k >= 0; --k) {
    Term t = flat;
    if (isOne(shape[k])) {
      t = bvc(0);
    } else {
      if (!isOne(stride))
        t = T.bvBin(Kind::BVUDiv, t, stride);
      // A symbolic extent may be 1: then the remainder is 0, as it must.
      if (k > outermost)
        t = T.bvBin(Kind::BVURem, t, shape[k]);
    }
    idx[k] = t;
    stride = mulBV(T, stride, shape[k]);
  }
  return idx;
}

Term Lowerer::linearize(ArrayRef<Term> idx, ArrayRef<Term> shape) {
  SmallVector<int64_t> fixed;
  if (constantShape(shape, fixed))
    return linearize(idx, fixed);
  // As the static version: indices split from a flat index over the same
  // extents give that index back.
  int last = -1;
  for (int k = int(shape.size()) - 1; k >= 0 && last < 0; --k)
    if (!isOne(shape[k]))
      last = k;
  if (last >= 0) {
    Term cand = idx[last];
    Term stride = bvc(1);
    for (size_t k = last + 1; k < shape.size(); ++k)
      stride = mulBV(T, stride, shape[k]);
    int outermost = 0;
    while (outermost + 1 < int(shape.size()) && isOne(shape[outermost]))
      ++outermost;
    if (last > outermost)
      cand = cand->getKind() == Kind::BVURem ? cand->getOperand(0) : nullptr;
    if (cand && !isOne(stride))
      cand = cand->getKind() == Kind::BVUDiv && cand->getOperand(1) == stride
                 ? cand->getOperand(0)
                 : nullptr;
    if (cand && !cand->isConstant()) {
      SmallVector<Term> again = split(cand, shape);
      if (llvm::equal(again, idx))
        return cand;
    }
  }
  Term flat = idx[0];
  for (size_t k = 1; k < shape.size(); ++k)
    flat = T.bvBin(Kind::BVAdd, mulBV(T, flat, shape[k]), idx[k]);
  return flat;
}

Term Lowerer::extent(Value v, unsigned dim) {
  DimOrigin o = dimOrigin(v, dim);
  if (o.constant)
    return bvc(uint64_t(*o.constant));
  if (o.arg) {
    if (o.arg.getOwner() != &spec.func.front())
      return fail(o.arg.getOwner()->getParentOp(),
                  "a block argument used outside its region");
    const ArgBinding &b = spec.args[o.arg.getArgNumber()];
    return dropUnitFactors(T, b.buffer->extent(T, spec.launch, o.argDim));
  }
  if (o.size)
    return value(o.size, {}, nullptr);
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(o.unmodeled))
    return fail(o.unmodeled, "a reshape of a tensor with a launch-dependent "
                             "extent is not modeled");
  if (isa<tensor::ExtractSliceOp>(o.unmodeled))
    return fail(o.unmodeled, "a slice of a tensor with a launch-dependent "
                             "extent is not modeled");
  return fail(o.unmodeled, "a launch-dependent extent of this op's result is "
                           "not modeled");
}

SmallVector<Term> Lowerer::bufferShape(const BufferBinding &b) {
  SmallVector<Term> shape;
  for (unsigned d = 0; d < b.shape.size(); ++d)
    shape.push_back(dropUnitFactors(T, b.extent(T, spec.launch, d)));
  return shape;
}

Term Lowerer::affine(AffineExpr e, ArrayRef<Term> loop, Operation *op) {
  switch (e.getKind()) {
  case AffineExprKind::DimId:
    return loop[cast<AffineDimExpr>(e).getPosition()];
  case AffineExprKind::Constant:
    return bvc(uint64_t(cast<AffineConstantExpr>(e).getValue()));
  case AffineExprKind::SymbolId:
    return fail(op, "affine symbols in indexing maps are not supported");
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  Term l = affine(bin.getLHS(), loop, op);
  if (!l)
    return nullptr;
  if (e.getKind() == AffineExprKind::Add ||
      e.getKind() == AffineExprKind::Mul) {
    Term r = affine(bin.getRHS(), loop, op);
    if (!r)
      return nullptr;
    return T.bvBin(
        e.getKind() == AffineExprKind::Add ? Kind::BVAdd : Kind::BVMul, l, r);
  }
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c || c.getValue() <= 0)
    return fail(op, "floordiv/ceildiv/mod by a non-constant or non-positive "
                    "value in an indexing map");
  // Indices are non-negative: floor division and mod are unsigned.
  Term r = bvc(uint64_t(c.getValue()));
  switch (e.getKind()) {
  case AffineExprKind::FloorDiv:
    return T.bvBin(Kind::BVUDiv, l, r);
  case AffineExprKind::CeilDiv:
    return T.bvBin(Kind::BVUDiv,
                   T.bvBin(Kind::BVAdd, l, bvc(uint64_t(c.getValue() - 1))), r);
  case AffineExprKind::Mod:
    return T.bvBin(Kind::BVURem, l, r);
  default:
    return fail(op, "unsupported affine expression");
  }
}

SmallVector<Term> Lowerer::applyMap(AffineMap m, ArrayRef<Term> loop,
                                    Operation *op) {
  SmallVector<Term> r;
  for (AffineExpr e : m.getResults()) {
    Term t = affine(e, loop, op);
    if (!t)
      return {};
    r.push_back(t);
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Term Lowerer::value(Value v, ArrayRef<Term> idx, BodyCtx *ctx) {
  if (!reason.empty())
    return nullptr;
  bool isTensor = isa<RankedTensorType>(v.getType());
  if (ctx && !isTensor) {
    // A scalar of the linalg body being evaluated.
    auto it = ctx->memo.find(v);
    if (it != ctx->memo.end())
      return it->second;
    Term t = nullptr;
    bool local = false;
    if (auto ba = dyn_cast<BlockArgument>(v);
        ba && ba.getOwner() == ctx->block) {
      local = true;
      t = ctx->arg(ba);
    } else if (Operation *def = v.getDefiningOp();
               def && def->getBlock() == ctx->block) {
      local = true;
      t = evalOp(def, cast<OpResult>(v).getResultNumber(), {}, ctx);
    }
    if (local) {
      if (t)
        ctx->memo[v] = t;
      return t;
    }
    // Otherwise a value of the function's body, used inside the region.
  }
  std::pair<const void *, std::vector<Term>> key{
      v.getAsOpaquePointer(), std::vector<Term>(idx.begin(), idx.end())};
  auto it = spec.memo.find(key);
  if (it != spec.memo.end())
    return it->second;
  Term t;
  if (auto ba = dyn_cast<BlockArgument>(v))
    t = argument(ba, idx);
  else
    t = evalOp(v.getDefiningOp(), cast<OpResult>(v).getResultNumber(), idx,
               nullptr);
  if (t)
    spec.memo.emplace(std::move(key), t);
  return t;
}

Term Lowerer::argument(BlockArgument a, ArrayRef<Term> idx) {
  if (a.getOwner() != &spec.func.front())
    return fail(a.getOwner()->getParentOp(),
                "a block argument used outside its region");
  const ArgBinding &b = spec.args[a.getArgNumber()];
  if (b.scalar)
    return b.scalar;
  Term flat = b.buffer->isSymbolic() ? linearize(idx, bufferShape(*b.buffer))
                                     : linearize(idx, b.buffer->shape);
  Term t = inputElement(T, *b.buffer, flat);
  if (!t)
    return fail(nullptr, "integer elements of '" + b.buffer->name +
                             "' at a symbolic index are not modeled");
  return t;
}

Term Lowerer::constant(Attribute a, Operation *op) {
  if (auto f = dyn_cast<FloatAttr>(a)) {
    const APFloat &v = f.getValue();
    if (v.isNaN())
      return fail(op, "a NaN constant has no value in the reals model");
    // As in kernels, a transcendental constant is read as its exact value
    // (Constants.h), so kernel and spec read 0f3FB8AA3B alike.
    std::optional<TranscendentalConstant> reading;
    Term t = floatConstant(T, v, &reading);
    if (!t)
      return fail(op, "float constant not representable");
    if (reading)
      spec.noteIdiom("spec: " + reading->describe() + " at " +
                     locationString(op->getLoc()));
    return t;
  }
  if (auto i = dyn_cast<IntegerAttr>(a)) {
    if (isBoolType(i.getType()))
      return T.boolConst(!i.getValue().isZero());
    APInt v = i.getValue();
    unsigned w = bitWidth(i.getType());
    if (v.getBitWidth() != w)
      v = v.sextOrTrunc(w);
    return T.bv(v);
  }
  return fail(op, "unsupported constant attribute");
}

Term Lowerer::denseConstant(DenseElementsAttr d, ArrayRef<Term> idx,
                            Operation *op) {
  if (d.isSplat())
    return constant(d.getSplatValue<Attribute>(), op);
  ArrayRef<int64_t> shape = d.getType().getShape();
  Term flat = linearize(idx, shape);
  auto values = d.getValues<Attribute>();
  auto at = [&](int64_t i) { return *(values.begin() + i); };
  if (flat->getKind() == Kind::BVConst) {
    uint64_t i = flat->getAPInt().getZExtValue();
    if (i >= uint64_t(d.getNumElements()))
      return fail(op, "constant tensor read out of bounds");
    return constant(at(i), op);
  }
  if (d.getNumElements() > kMaxConstantIteChain)
    return fail(op, "a large non-splat constant tensor read at a symbolic "
                    "index is not supported");
  int64_t n = d.getNumElements();
  Term acc = constant(at(n - 1), op);
  for (int64_t i = n - 2; i >= 0 && acc; --i) {
    Term c = constant(at(i), op);
    if (!c)
      return nullptr;
    acc = T.ite(T.eq(flat, bvc(i)), c, acc);
  }
  return acc;
}

/// A BV view of `t` (booleans become 0/1, or 0/-1 when sign-extended).
Term Lowerer::toBV(Term t, unsigned width, bool isSigned) {
  if (!t || t->getSort() != Sort::Bool)
    return t;
  return T.ite(t, T.bv(isSigned ? APInt::getAllOnes(width) : APInt(width, 1)),
               T.bv(0, width));
}

Term Lowerer::elementwise(Operation *op, llvm::function_ref<Term(Value)> get) {
  auto un = [&](auto fn) -> Term {
    Term a = get(op->getOperand(0));
    if (!a)
      return nullptr;
    return check(fn(a), op);
  };
  auto bin = [&](auto fn) -> Term {
    Term a = get(op->getOperand(0));
    if (!a)
      return nullptr;
    Term b = get(op->getOperand(1));
    if (!b)
      return nullptr;
    return check(fn(a, b), op);
  };
  auto bvOp = [&](Kind k) {
    return bin([&](Term a, Term b) { return T.bvBin(k, a, b); });
  };
  Type resElem = getElementTypeOrSelf(op->getResult(0).getType());
  auto boolOrBV = [&](Kind k, Term (TermContext::*boolFn)(Term, Term)) {
    if (isBoolType(resElem))
      return bin([&](Term a, Term b) { return (T.*boolFn)(a, b); });
    return bvOp(k);
  };

  return llvm::TypeSwitch<Operation *, Term>(op)
      // --- floats (exact reals) ---
      .Case([&](arith::AddFOp) {
        return bin([&](Term a, Term b) { return T.add(a, b); });
      })
      .Case([&](arith::SubFOp) {
        return bin([&](Term a, Term b) { return T.sub(a, b); });
      })
      .Case([&](arith::MulFOp) {
        return bin([&](Term a, Term b) { return T.mul(a, b); });
      })
      .Case([&](arith::DivFOp) {
        return bin([&](Term a, Term b) { return T.div(a, b); });
      })
      .Case([&](arith::NegFOp) { return un([&](Term a) { return T.neg(a); }); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *) {
        return bin([&](Term a, Term b) { return T.max(a, b); });
      })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *) {
        return bin([&](Term a, Term b) { return T.min(a, b); });
      })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](Operation *) { return un([](Term a) { return a; }); })
      .Case([&](arith::CmpFOp c) {
        // No NaN in the reals model: ordered and unordered agree.
        using P = arith::CmpFPredicate;
        P p = c.getPredicate();
        if (p == P::AlwaysTrue || p == P::ORD)
          return T.boolConst(true);
        if (p == P::AlwaysFalse || p == P::UNO)
          return T.boolConst(false);
        return bin([&](Term a, Term b) -> Term {
          switch (p) {
          case P::OEQ:
          case P::UEQ:
            return T.eq(a, b);
          case P::ONE:
          case P::UNE:
            return T.notOf(T.eq(a, b));
          case P::OLT:
          case P::ULT:
            return T.realLt(a, b);
          case P::OLE:
          case P::ULE:
            return T.realLe(a, b);
          case P::OGT:
          case P::UGT:
            return T.realLt(b, a);
          case P::OGE:
          case P::UGE:
            return T.realLe(b, a);
          default:
            return nullptr;
          }
        });
      })
      .Case([&](arith::SIToFPOp) {
        return un([&](Term a) { return T.bvToReal(toBV(a, 1, true), true); });
      })
      .Case([&](arith::UIToFPOp) {
        return un([&](Term a) { return T.bvToReal(toBV(a, 1, false), false); });
      })
      // --- integers (bit-vectors; i1 as booleans) ---
      .Case([&](arith::AddIOp) { return bvOp(Kind::BVAdd); })
      .Case([&](arith::SubIOp) { return bvOp(Kind::BVSub); })
      .Case([&](arith::MulIOp) { return bvOp(Kind::BVMul); })
      .Case([&](arith::DivSIOp) { return bvOp(Kind::BVSDiv); })
      .Case([&](arith::DivUIOp) { return bvOp(Kind::BVUDiv); })
      .Case([&](arith::RemSIOp) { return bvOp(Kind::BVSRem); })
      .Case([&](arith::RemUIOp) { return bvOp(Kind::BVURem); })
      .Case([&](arith::ShLIOp) { return bvOp(Kind::BVShl); })
      .Case([&](arith::ShRUIOp) { return bvOp(Kind::BVLShr); })
      .Case([&](arith::ShRSIOp) { return bvOp(Kind::BVAShr); })
      .Case([&](arith::AndIOp) {
        return boolOrBV(Kind::BVAnd,
                        static_cast<Term (TermContext::*)(Term, Term)>(
                            &TermContext::andOf));
      })
      .Case([&](arith::OrIOp) {
        return boolOrBV(
            Kind::BVOr,
            static_cast<Term (TermContext::*)(Term, Term)>(&TermContext::orOf));
      })
      .Case([&](arith::XOrIOp) {
        if (isBoolType(resElem))
          return bin([&](Term a, Term b) { return T.notOf(T.eq(a, b)); });
        return bvOp(Kind::BVXor);
      })
      .Case([&](arith::MaxSIOp) {
        return bin([&](Term a, Term b) { return T.ite(T.bvSlt(a, b), b, a); });
      })
      .Case([&](arith::MinSIOp) {
        return bin([&](Term a, Term b) { return T.ite(T.bvSlt(b, a), b, a); });
      })
      .Case([&](arith::MaxUIOp) {
        return bin([&](Term a, Term b) { return T.ite(T.bvUlt(a, b), b, a); });
      })
      .Case([&](arith::MinUIOp) {
        return bin([&](Term a, Term b) { return T.ite(T.bvUlt(b, a), b, a); });
      })
      .Case([&](arith::CmpIOp c) {
        using P = arith::CmpIPredicate;
        P p = c.getPredicate();
        return bin([&](Term a, Term b) -> Term {
          if (a->getSort() == Sort::Bool && (p != P::eq && p != P::ne)) {
            a = toBV(a, 1, false);
            b = toBV(b, 1, false);
          }
          switch (p) {
          case P::eq:
            return T.eq(a, b);
          case P::ne:
            return T.notOf(T.eq(a, b));
          case P::slt:
            return T.bvSlt(a, b);
          case P::sle:
            return T.bvSle(a, b);
          case P::sgt:
            return T.bvSlt(b, a);
          case P::sge:
            return T.bvSle(b, a);
          case P::ult:
            return T.bvUlt(a, b);
          case P::ule:
            return T.bvUle(a, b);
          case P::ugt:
            return T.bvUlt(b, a);
          case P::uge:
            return T.bvUle(b, a);
          }
          return nullptr;
        });
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp>([&](Operation *) {
        unsigned to = bitWidth(resElem);
        return un([&](Term a) {
          a = toBV(a, 1, true);
          if (a->getWidth() == to)
            return a;
          return a->getWidth() < to ? T.bvSExt(a, to) : T.bvExtract(a, 0, to);
        });
      })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp, arith::TruncIOp>(
          [&](Operation *) {
            unsigned to = bitWidth(resElem);
            return un([&](Term a) -> Term {
              if (a->getSort() == Sort::Bool)
                return toBV(a, to, false);
              if (a->getWidth() == to)
                return a;
              if (to == 1) // truncation to i1: the low bit, as a boolean
                return T.eq(T.bvExtract(a, 0, 1), T.bv(1, 1));
              return a->getWidth() < to ? T.bvZExt(a, to)
                                        : T.bvExtract(a, 0, to);
            });
          })
      .Case([&](arith::SelectOp s) {
        Term c = get(s.getCondition());
        if (!c)
          return Term(nullptr);
        Term a = get(s.getTrueValue());
        if (!a)
          return Term(nullptr);
        Term b = get(s.getFalseValue());
        if (!b)
          return Term(nullptr);
        return check(T.ite(c, a, b), op);
      })
      // --- math (exact functions, as the executor models them) ---
      .Case([&](math::ExpOp) { return un([&](Term a) { return T.exp(a); }); })
      .Case([&](math::Exp2Op) { return un([&](Term a) { return T.exp2(a); }); })
      .Case([&](math::SqrtOp) {
        return un([&](Term a) { return T.realFn("sqrt", {a}); });
      })
      .Case([&](math::RsqrtOp) {
        return un([&](Term a) { return T.realFn("rsqrt", {a}); });
      })
      .Case([&](math::Log2Op) {
        return un([&](Term a) { return T.realFn("lg2", {a}); });
      })
      .Case([&](math::LogOp) {
        return un([&](Term a) { return T.realFn("log", {a}); });
      })
      .Case([&](math::TanhOp) {
        return un([&](Term a) { return T.realFn("tanh", {a}); });
      })
      .Case([&](math::SinOp) {
        return un([&](Term a) { return T.realFn("sin", {a}); });
      })
      .Case([&](math::CosOp) {
        return un([&](Term a) { return T.realFn("cos", {a}); });
      })
      .Case([&](math::AbsFOp) {
        return un(
            [&](Term a) { return T.ite(T.realLt(a, T.real(0)), T.neg(a), a); });
      })
      .Case([&](math::FmaOp) {
        Term a = get(op->getOperand(0));
        Term b = a ? get(op->getOperand(1)) : nullptr;
        Term c = b ? get(op->getOperand(2)) : nullptr;
        if (!c)
          return Term(nullptr);
        return check(T.add(T.mul(a, b), c), op);
      })
      .Default([&](Operation *) {
        return fail(op, "unsupported op in a func.func spec");
      });
}

Term Lowerer::evalOp(Operation *op, unsigned resultNo, ArrayRef<Term> idx,
                     BodyCtx *ctx) {
  // Operands of an element-wise op: tensors at the same indices, scalars as
  // they are.
  auto get = [&](Value o) -> Term {
    if (isa<RankedTensorType>(o.getType()))
      return value(o, idx, ctx);
    return value(o, {}, ctx);
  };
  auto scalarOf = [&](Value o) { return value(o, {}, ctx); };

  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto d = dyn_cast<DenseElementsAttr>(c.getValue()))
      return denseConstant(d, idx, op);
    return constant(c.getValue(), op);
  }
  if (isa<tensor::EmptyOp>(op))
    return fail(op, "spec error: reading an uninitialized tensor element");
  if (auto s = dyn_cast<tensor::SplatOp>(op))
    return scalarOf(s.getInput());
  if (auto c = dyn_cast<tensor::CastOp>(op))
    return value(c.getSource(), idx, ctx);
  if (auto e = dyn_cast<tensor::ExtractOp>(op)) {
    SmallVector<Term> at;
    for (Value i : e.getIndices()) {
      Term t = scalarOf(i);
      if (!t)
        return nullptr;
      at.push_back(t);
    }
    return value(e.getTensor(), at, ctx);
  }
  if (auto ins = dyn_cast<tensor::InsertOp>(op)) {
    SmallVector<Term> conds;
    for (auto [k, i] : llvm::enumerate(ins.getIndices())) {
      Term t = scalarOf(i);
      if (!t)
        return nullptr;
      conds.push_back(T.eq(idx[k], t));
    }
    Term hit = conds.empty()       ? T.boolConst(true)
               : conds.size() == 1 ? conds[0]
                                   : T.andOf(conds);
    if (hit->getKind() == Kind::BoolConst)
      return hit->getBoolValue() ? scalarOf(ins.getScalar())
                                 : value(ins.getDest(), idx, ctx);
    Term a = scalarOf(ins.getScalar());
    Term b = a ? value(ins.getDest(), idx, ctx) : nullptr;
    if (!b)
      return nullptr;
    return check(T.ite(hit, a, b), op);
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    std::optional<int64_t> d = dim.getConstantIndex();
    auto ty = dyn_cast<RankedTensorType>(dim.getSource().getType());
    if (!d || !ty || *d < 0 || *d >= ty.getRank())
      return fail(op, "tensor.dim needs a constant dimension index within the "
                      "rank");
    return extent(dim.getSource(), unsigned(*d));
  }
  if (auto s = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // In bounds by the verifier only when every extent is static.
    if (!s.getSourceType().hasStaticShape() ||
        !s.getResultType().hasStaticShape())
      return fail(op, "a slice of a tensor with a launch-dependent extent is "
                      "not modeled");
    llvm::SmallBitVector dropped = s.getDroppedDims();
    ArrayRef<int64_t> offs = s.getStaticOffsets(),
                      strides = s.getStaticStrides();
    SmallVector<Term> at;
    unsigned k = 0;
    for (unsigned d = 0; d < offs.size(); ++d) {
      if (ShapedType::isDynamic(offs[d]) || ShapedType::isDynamic(strides[d]))
        return fail(op, "dynamic slice offsets or strides are not supported");
      Term i = dropped.test(d) ? bvc(0) : idx[k++];
      if (strides[d] != 1)
        i = T.bvBin(Kind::BVMul, i, bvc(strides[d]));
      at.push_back(T.bvBin(Kind::BVAdd, i, bvc(offs[d])));
    }
    return value(s.getSource(), at, ctx);
  }
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
    Value src = op->getOperand(0);
    auto resTy = cast<RankedTensorType>(op->getResult(0).getType());
    auto srcTy = cast<RankedTensorType>(src.getType());
    if (!resTy.hasStaticShape() || !srcTy.hasStaticShape())
      return fail(op, "a reshape of a tensor with a launch-dependent extent "
                      "is not modeled");
    Term flat = linearize(idx, resTy.getShape());
    return value(src, split(flat, srcTy.getShape()), ctx);
  }
  if (auto f = dyn_cast<linalg::FillOp>(op))
    return scalarOf(f.getInputs()[0]);
  if (auto s = dyn_cast<linalg::SoftmaxOp>(op))
    return softmax(s, idx);
  if (auto l = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp(l, resultNo, idx);
  if (auto i = dyn_cast<linalg::IndexOp>(op)) {
    if (!ctx || i.getDim() >= ctx->loop.size())
      return fail(op, "linalg.index outside its linalg op");
    return ctx->loop[i.getDim()];
  }
  return elementwise(op, get);
}

Term Lowerer::softmax(linalg::SoftmaxOp op, ArrayRef<Term> idx) {
  Value in = op.getInput();
  int64_t d = op.getDimension();
  int64_t n = cast<RankedTensorType>(in.getType()).getShape()[d];
  if (ShapedType::isDynamic(n)) {
    Term e = extent(in, unsigned(d));
    if (!e)
      return nullptr;
    if (e->getKind() != Kind::BVConst)
      return fail(op, "linalg.softmax over the launch-dependent extent '" +
                          extentText(e) + "' is not modeled");
    n = int64_t(e->getAPInt().getZExtValue());
  }
  SmallVector<Term> at(idx.begin(), idx.end());
  auto col = [&](int64_t j) {
    at[d] = bvc(j);
    return value(in, at, nullptr);
  };
  // m = max_j x[.., j, ..], folded left like the built-in softmax.
  Term m = col(0);
  for (int64_t j = 1; j < n && m; ++j) {
    Term x = col(j);
    m = x ? T.max(m, x) : nullptr;
  }
  if (!m)
    return reason.empty() ? check(m, op) : nullptr;
  SmallVector<Term> exps;
  for (int64_t j = 0; j < n; ++j) {
    Term x = col(j);
    if (!x)
      return nullptr;
    exps.push_back(T.exp(T.sub(x, m)));
  }
  Term mine = value(in, idx, nullptr);
  if (!mine)
    return nullptr;
  return check(T.div(T.exp(T.sub(mine, m)), T.add(exps)), op);
}

Term Lowerer::loopExtent(linalg::LinalgOp op, unsigned d) {
  for (OpOperand &o : op->getOpOperands()) {
    if (!isa<RankedTensorType>(o.get().getType()))
      continue;
    for (auto [k, e] :
         llvm::enumerate(op.getMatchingIndexingMap(&o).getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e); dim && dim.getPosition() == d)
        return extent(o.get(), unsigned(k));
  }
  return fail(op, "a loop dimension that indexes no operand");
}

Term Lowerer::symbolicReduction(linalg::LinalgOp op, unsigned resultNo,
                                ArrayRef<Term> idx, ArrayRef<Term> loop,
                                unsigned d, Term extent) {
  Operation *raw = op.getOperation();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  unsigned numIn = op.getNumDpsInputs();
  Block *body = op.getBlock();
  // d must be the only reduction dimension (every other one is parallel,
  // fixed by the output's indices): the caller has already set the other
  // reduction dimensions it walked to 0, so `loop` cannot tell.
  for (unsigned k = 0; k < iters.size(); ++k)
    if (k != d && (iters[k] != utils::IteratorType::parallel || !loop[k]))
      return nullptr;
  if (body->getNumArguments() != numIn + op.getNumDpsInits())
    return nullptr;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *combine = yield.getOperand(resultNo).getDefiningOp();
  if (!combine || combine->getBlock() != body || combine->getNumOperands() != 2)
    return nullptr;
  Kind kind;
  if (isa<arith::AddFOp>(combine))
    kind = Kind::SumOver;
  else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combine))
    kind = Kind::MaxOver;
  else if (isa<arith::MinimumFOp, arith::MinNumFOp>(combine))
    kind = Kind::MinOver;
  else
    return nullptr;
  BlockArgument acc = body->getArgument(numIn + resultNo);
  Value g;
  if (combine->getOperand(0) == acc)
    g = combine->getOperand(1);
  else if (combine->getOperand(1) == acc)
    g = combine->getOperand(0);
  else
    return nullptr;
  // g reads no accumulator (of any output).
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<unsigned> used;
  collectArgs(g, body, seen, used);
  if (llvm::any_of(used, [&](unsigned a) { return a >= numIn; }) ||
      g == Value(acc))
    return nullptr;
  // The bound variable, bounded by the extent's largest value (so index
  // terms of the body fold as linear forms), a name per bound.
  // A name of its own per reduction of this query: a body that reads a
  // producer which is itself such a reduction must not share its variable.
  std::string name = "spec.rj" + std::to_string(++reductionVars);
  if (std::optional<std::pair<uint64_t, uint64_t>> iv =
          T.indexInterval(extent);
      iv && iv->second >= 1) {
    name += "<" + std::to_string(iv->second);
    if (T.upperBound(name) != iv->second - 1)
      T.setUpperBound(name, iv->second - 1);
  }
  Term j = T.bvVar(name, extent->getWidth());
  SmallVector<Term> at(loop.begin(), loop.end());
  at[d] = j;
  auto argValue = [&](BlockArgument a) -> Term {
    OpOperand *in = op.getDpsInputOperand(a.getArgNumber());
    if (!isa<RankedTensorType>(in->get().getType()))
      return value(in->get(), {}, nullptr);
    AffineMap map = op.getMatchingIndexingMap(in);
    SmallVector<Term> where = applyMap(map, at, raw);
    if (where.size() != map.getNumResults())
      return nullptr;
    return value(in->get(), where, nullptr);
  };
  BodyCtx ctx{body, at, argValue, DenseMap<Value, Term>()};
  Term gj = value(g, {}, &ctx);
  if (!gj)
    return nullptr;
  Term r = T.reduce(kind, j, T.bv(0, extent->getWidth()), extent, gj);
  OpOperand *init = op.getDpsInitOperand(resultNo);
  Term i0 = value(init->get(), idx, nullptr);
  if (!r || !i0)
    return nullptr;
  // PTX-free semantics of linalg: the accumulator starts at the init value
  // and combines every point of [0, extent) in order; + is exact over the
  // reals, max/min are associative and commutative.
  return kind == Kind::SumOver   ? T.add(i0, r)
         : kind == Kind::MaxOver ? T.max(i0, r)
                                 : T.min(i0, r);
}

/// Block arguments reached backwards from `v` inside `body`.
void collectArgs(Value v, Block *body, llvm::SmallPtrSetImpl<Operation *> &seen,
                 SmallVectorImpl<unsigned> &args) {
  if (auto ba = dyn_cast<BlockArgument>(v)) {
    if (ba.getOwner() == body && !llvm::is_contained(args, ba.getArgNumber()))
      args.push_back(ba.getArgNumber());
    return;
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != body || !seen.insert(def).second)
    return;
  for (Value o : def->getOperands())
    collectArgs(o, body, seen, args);
}

Term Lowerer::linalgOp(linalg::LinalgOp op, unsigned resultNo,
                       ArrayRef<Term> idx) {
  Operation *raw = op.getOperation();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  unsigned numIn = op.getNumDpsInputs(), numInit = op.getNumDpsInits();
  Block *body = op.getBlock();
  bool hasOutArgs = body->getNumArguments() == numIn + numInit;
  if (!hasOutArgs && body->getNumArguments() != numIn)
    return fail(raw, "unexpected number of body arguments");

  // The loop point: parallel dimensions from the output indices.
  SmallVector<Term> loop(ranges.size(), nullptr);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(resultNo));
  for (auto [k, e] : llvm::enumerate(outMap.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || iters[dim.getPosition()] != utils::IteratorType::parallel)
      return fail(raw, "the output indexing map must be a projection of the "
                       "parallel dimensions");
    loop[dim.getPosition()] = idx[k];
  }
  SmallVector<unsigned> redDims;
  uint64_t points = 1;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (loop[d])
      continue;
    if (iters[d] != utils::IteratorType::reduction)
      return fail(raw, "a parallel dimension missing from the output map");
    if (ShapedType::isDynamic(ranges[d])) {
      // Unfolding needs a count: only a launch extent fixed by the launch.
      Term e = loopExtent(op, d);
      if (!e)
        return nullptr;
      if (e->getKind() != Kind::BVConst) {
        // Over a symbolic extent: a reduction term, when the body has the
        // shape of one (symbolicReduction).
        if (Term r = symbolicReduction(op, resultNo, idx, loop, d, e))
          return r;
        if (!reason.empty())
          return nullptr;
        return fail(raw, "a reduction over the launch-dependent extent '" +
                             extentText(e) +
                             "' is modeled only as the single reduction "
                             "dimension of a body that yields acc + g, "
                             "max(acc, g) or min(acc, g) (g not reading acc)");
      }
      ranges[d] = int64_t(e->getAPInt().getZExtValue());
    }
    redDims.push_back(d);
    points *= uint64_t(ranges[d]);
    if (points > kMaxReductionPoints)
      return fail(raw, "reduction too large to unfold");
    loop[d] = bvc(0);
  }
  // A large reduction (a replay at the counterexample's sizes, a spec over
  // a long concrete row) as one reduction term rather than a sum of
  // `points` terms, when its body has that shape; unfolded otherwise.
  if (redDims.size() == 1 && points > kUnfoldPoints)
    if (Term r = symbolicReduction(op, resultNo, idx, loop, redDims[0],
                                   T.bv(uint64_t(ranges[redDims[0]]), 64)))
      return r;
  if (!reason.empty())
    return nullptr;

  // The outputs whose yields this result needs (a yield that reads out
  // argument j needs yield j of the previous iteration).
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<unsigned> needed{resultNo};
  for (unsigned i = 0; i < needed.size(); ++i) {
    llvm::SmallPtrSet<Operation *, 16> seen;
    SmallVector<unsigned> used;
    collectArgs(yield.getOperand(needed[i]), body, seen, used);
    for (unsigned a : used)
      if (a >= numIn && !llvm::is_contained(needed, a - numIn))
        needed.push_back(a - numIn);
  }

  std::vector<Term> acc(numInit, nullptr);
  auto argValue = [&](BlockArgument a) -> Term {
    unsigned n = a.getArgNumber();
    if (n < numIn) {
      OpOperand *in = op.getDpsInputOperand(n);
      if (!isa<RankedTensorType>(in->get().getType()))
        return value(in->get(), {}, nullptr);
      SmallVector<Term> at = applyMap(op.getMatchingIndexingMap(in), loop, raw);
      if (at.size() != op.getMatchingIndexingMap(in).getNumResults())
        return nullptr;
      return value(in->get(), at, nullptr);
    }
    unsigned j = n - numIn;
    if (acc[j])
      return acc[j];
    OpOperand *init = op.getDpsInitOperand(j);
    SmallVector<Term> at = applyMap(op.getMatchingIndexingMap(init), loop, raw);
    if (at.size() != op.getMatchingIndexingMap(init).getNumResults())
      return nullptr;
    return value(init->get(), at, nullptr);
  };

  for (uint64_t p = 0; p < points; ++p) {
    // Reduction dimensions in loop order, the last one fastest.
    uint64_t rest = p;
    for (int k = int(redDims.size()) - 1; k >= 0; --k) {
      uint64_t r = uint64_t(ranges[redDims[k]]);
      loop[redDims[k]] = bvc(rest % r);
      rest /= r;
    }
    BodyCtx ctx{body, loop, argValue, DenseMap<Value, Term>()};
    std::vector<Term> next(numInit, nullptr);
    for (unsigned j : needed) {
      next[j] = value(yield.getOperand(j), {}, &ctx);
      if (!next[j])
        return nullptr;
    }
    for (unsigned j : needed)
      acc[j] = next[j];
  }
  if (points == 0) {
    // An empty reduction: the init value.
    OpOperand *init = op.getDpsInitOperand(resultNo);
    return value(init->get(), idx, nullptr);
  }
  return acc[resultNo];
}

//===----------------------------------------------------------------------===//
// Building (static checks)
//===----------------------------------------------------------------------===//

bool isSupportedOp(Operation *op) {
  if (isa<linalg::LinalgOp>(op))
    return true;
  return isa<
      // arith
      arith::ConstantOp, arith::AddFOp, arith::SubFOp, arith::MulFOp,
      arith::DivFOp, arith::NegFOp, arith::MaximumFOp, arith::MaxNumFOp,
      arith::MinimumFOp, arith::MinNumFOp, arith::ExtFOp, arith::TruncFOp,
      arith::CmpFOp, arith::SIToFPOp, arith::UIToFPOp, arith::AddIOp,
      arith::SubIOp, arith::MulIOp, arith::DivSIOp, arith::DivUIOp,
      arith::RemSIOp, arith::RemUIOp, arith::ShLIOp, arith::ShRUIOp,
      arith::ShRSIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
      arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
      arith::CmpIOp, arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
      arith::ExtUIOp, arith::TruncIOp, arith::SelectOp,
      // math
      math::ExpOp, math::Exp2Op, math::SqrtOp, math::RsqrtOp, math::Log2Op,
      math::LogOp, math::TanhOp, math::SinOp, math::CosOp, math::AbsFOp, math::FmaOp,
      // tensor
      tensor::EmptyOp, tensor::SplatOp, tensor::CastOp, tensor::DimOp,
      tensor::ExtractOp, tensor::InsertOp, tensor::ExtractSliceOp,
      tensor::ExpandShapeOp, tensor::CollapseShapeOp,
      // linalg
      linalg::SoftmaxOp, linalg::IndexOp, linalg::YieldOp, func::ReturnOp>(op);
}

/// Checks a type the lowering can represent: int/float/index scalars and
/// ranked tensors of them (dynamic extents are traced when an element
/// needs them).
LogicalResult checkType(Operation *contract, func::FuncOp f, Type t,
                        Location loc) {
  auto bad = [&](StringRef why) {
    contract->emitError("spec @") << f.getSymName() << ": " << why << " (" << t
                                  << " at " << locString(loc) << ")";
    return failure();
  };
  if (auto r = dyn_cast<RankedTensorType>(t))
    t = r.getElementType();
  else if (isa<ShapedType>(t))
    return bad("only ranked tensors are supported");
  if (!t.isIntOrIndexOrFloat())
    return bad("unsupported element type");
  return success();
}

/// Whether tensor type `r` binds buffer `b`: a `?` for each
/// launch-dependent extent, the extent itself for each concrete one.
bool bindsBuffer(RankedTensorType r, const BufferBinding &b) {
  if (size_t(r.getRank()) != b.shape.size())
    return false;
  for (unsigned d = 0; d < b.shape.size(); ++d) {
    bool symbolic = d < b.symbolicDims.size() && !b.symbolicDims[d].empty();
    if (r.isDynamicDim(d) != symbolic)
      return false;
    if (!symbolic && r.getDimSize(d) != b.shape[d])
      return false;
  }
  return true;
}

/// "[4x?]" for a tensor type's shape.
std::string typeShapeString(ArrayRef<int64_t> s) {
  std::string r = "[";
  for (auto [i, e] : llvm::enumerate(s))
    r += (i ? "x" : "") +
         (ShapedType::isDynamic(e) ? std::string("?") : std::to_string(e));
  return r + "]";
}

/// "[4x4]" for a concrete buffer shape, the contract's spelling
/// (`["nctaid.x", 256]`) for a launch-dependent one.
std::string bufferShapeString(const BufferBinding &b) {
  if (!b.isSymbolic())
    return typeShapeString(b.shape);
  std::string r = "[";
  for (unsigned d = 0; d < b.shape.size(); ++d) {
    r += d ? ", " : "";
    if (d < b.symbolicDims.size() && !b.symbolicDims[d].empty())
      r += "\"" + b.symbolicDims[d] + "\"";
    else
      r += std::to_string(b.shape[d]);
  }
  return r + "]";
}

/// The contract expression of extent `dim` of tensor `v` ("ntid.x",
/// "2*ntid.x"), when it can be traced statically to the bound buffers'
/// extents and constants (through tensor.dim and arith.muli of index
/// values); std::nullopt otherwise.
std::optional<std::string>
dimExpression(Value v, unsigned dim, ArrayRef<ArgBinding> args, Block *body);

std::optional<std::string> indexExpression(Value s, ArrayRef<ArgBinding> args,
                                           Block *body) {
  Operation *def = s.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto dim = dyn_cast<tensor::DimOp>(def)) {
    std::optional<int64_t> d = dim.getConstantIndex();
    auto ty = dyn_cast<RankedTensorType>(dim.getSource().getType());
    if (!d || !ty || *d < 0 || *d >= ty.getRank())
      return std::nullopt;
    return dimExpression(dim.getSource(), unsigned(*d), args, body);
  }
  if (auto c = dyn_cast<arith::ConstantIndexOp>(def))
    return std::to_string(c.value());
  if (auto m = dyn_cast<arith::MulIOp>(def)) {
    std::optional<std::string> a = indexExpression(m.getLhs(), args, body);
    std::optional<std::string> b =
        a ? indexExpression(m.getRhs(), args, body) : std::nullopt;
    if (b)
      return *a + "*" + *b;
  }
  return std::nullopt;
}

std::optional<std::string>
dimExpression(Value v, unsigned dim, ArrayRef<ArgBinding> args, Block *body) {
  DimOrigin o = dimOrigin(v, dim);
  if (o.constant)
    return std::to_string(*o.constant);
  if (o.arg) {
    if (o.arg.getOwner() != body)
      return std::nullopt;
    const BufferBinding &b = *args[o.arg.getArgNumber()].buffer;
    if (o.argDim < b.symbolicDims.size() && !b.symbolicDims[o.argDim].empty())
      return b.symbolicDims[o.argDim];
    return std::to_string(b.shape[o.argDim]);
  }
  if (o.size)
    return indexExpression(o.size, args, body);
  return std::nullopt;
}

} // namespace

namespace kproof::engine {

std::unique_ptr<Spec> buildFuncSpec(Operation *contract, DictionaryAttr spec,
                                    const SpecEnvironment &env,
                                    unsigned resultIndex) {
  auto ref = dyn_cast_or_null<FlatSymbolRefAttr>(spec.get("func"));
  if (!ref) {
    contract->emitError("spec 'func' must be a symbol reference (@name)");
    return nullptr;
  }
  auto f = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupNearestSymbolFrom(contract, ref));
  if (!f || f.isExternal()) {
    contract->emitError("spec function ")
        << ref
        << " not found (expected a func.func with a body in the "
           "contract's module)";
    return nullptr;
  }
  StringRef fname = f.getSymName();
  auto inputs = spec.getAs<ArrayAttr>("inputs");
  // One output (`output`), or one per result (`outputs`, in order).
  StringAttr outName = spec.getAs<StringAttr>("output");
  auto outputs = spec.getAs<ArrayAttr>("outputs");
  if (outputs && !outName && resultIndex < outputs.size())
    outName = dyn_cast<StringAttr>(outputs[resultIndex]);
  if (!inputs || !outName || (outputs && spec.get("output"))) {
    contract->emitError(
        "a func spec needs 'inputs' and either 'output' (one result) or "
        "'outputs' (a list of buffer names, one per result)");
    return nullptr;
  }
  if (!llvm::hasSingleElement(f.getBody())) {
    contract->emitError("spec @") << fname << " must have a single block";
    return nullptr;
  }
  FunctionType fty = f.getFunctionType();
  if (fty.getNumInputs() != inputs.size()) {
    contract->emitError("spec @")
        << fname << " takes " << fty.getNumInputs()
        << " argument(s) but the spec lists " << inputs.size() << " input(s)";
    return nullptr;
  }
  unsigned wanted = outputs ? outputs.size() : 1;
  if (fty.getNumResults() != wanted ||
      !llvm::all_of(fty.getResults(), llvm::IsaPred<RankedTensorType>)) {
    contract->emitError("spec @")
        << fname << " must return " << wanted << " tensor(s), one per "
        << (outputs ? "name in 'outputs'" : "'output'") << "; it returns "
        << fty.getNumResults() << " result(s)";
    return nullptr;
  }

  // Scalar params' types, from the contract.
  llvm::StringMap<Type> scalarTypes;
  if (auto params = contract->getAttrOfType<ArrayAttr>("params"))
    for (Attribute a : params)
      if (auto d = dyn_cast<DictionaryAttr>(a))
        if (auto n = d.getAs<StringAttr>("name"))
          if (auto s = d.getAs<TypeAttr>("scalar"))
            scalarTypes[n.getValue()] = s.getValue();

  std::vector<ArgBinding> args;
  std::string inputsText;
  for (auto [i, a] : llvm::enumerate(inputs)) {
    auto name = dyn_cast<StringAttr>(a);
    if (!name) {
      contract->emitError("spec inputs must be param names");
      return nullptr;
    }
    std::string n = name.getValue().str();
    inputsText += (i ? ", " : "") + n;
    Type t = fty.getInput(i);
    if (failed(checkType(contract, f, t, f.getArgument(i).getLoc())))
      return nullptr;
    ArgBinding b;
    if (auto r = dyn_cast<RankedTensorType>(t)) {
      auto it = env.buffers.find(n);
      if (it == env.buffers.end()) {
        contract->emitError("spec @")
            << fname << " argument #" << i << " is a tensor but input '" << n
            << "' is not a buffer param";
        return nullptr;
      }
      const BufferBinding *buf = it->second;
      if (r.getElementType() != buf->elemType) {
        contract->emitError("spec @")
            << fname << " argument #" << i << " has element type "
            << r.getElementType() << " but buffer '" << n << "' holds "
            << buf->elemType;
        return nullptr;
      }
      if (!bindsBuffer(r, *buf)) {
        contract->emitError("spec @")
            << fname << " argument #" << i << " has shape "
            << typeShapeString(r.getShape()) << " but buffer '" << n
            << "' has shape " << bufferShapeString(*buf)
            << (r.hasStaticShape() && !buf->isSymbolic()
                    ? ""
                    : " (a launch-dependent extent is bound by '?', a "
                      "concrete one by itself)");
        return nullptr;
      }
      b.buffer = buf;
    } else {
      auto it = env.scalars.find(n);
      if (it == env.scalars.end() || !it->second) {
        contract->emitError("spec @")
            << fname << " argument #" << i << " is a scalar but input '" << n
            << "' is not a scalar param";
        return nullptr;
      }
      auto st = scalarTypes.find(n);
      if (st != scalarTypes.end() && st->second != t &&
          !(t.isIndex() && st->second.isInteger(64))) {
        contract->emitError("spec @")
            << fname << " argument #" << i << " has type " << t
            << " but scalar '" << n << "' is " << st->second;
        return nullptr;
      }
      b.scalar = it->second;
    }
    args.push_back(b);
  }

  auto outIt = env.buffers.find(outName.getValue().str());
  if (outIt == env.buffers.end()) {
    contract->emitError("spec output '")
        << outName.getValue() << "' is not a buffer param";
    return nullptr;
  }
  const BufferBinding *out = outIt->second;
  auto resTy = cast<RankedTensorType>(fty.getResult(resultIndex));
  if (failed(checkType(contract, f, resTy, f.getLoc())))
    return nullptr;
  if (!bindsBuffer(resTy, *out)) {
    contract->emitError("spec @")
        << fname << " returns shape " << typeShapeString(resTy.getShape())
        << " but output buffer '" << out->name << "' has shape "
        << bufferShapeString(*out)
        << (resTy.hasStaticShape() && !out->isSymbolic()
                ? ""
                : " (a launch-dependent extent is bound by '?', a concrete "
                  "one by itself)");
    return nullptr;
  }
  if (resTy.getElementType() != out->elemType) {
    contract->emitError("spec @")
        << fname << " returns element type " << resTy.getElementType()
        << " but output buffer '" << out->name << "' holds " << out->elemType;
    return nullptr;
  }

  // Extents that must agree (the operands of an element-wise op, a linalg
  // op's operands along one loop dimension): where a `?` is involved and
  // both trace to contract expressions, they must be the same (mismatched
  // runtime shapes make the spec undefined). Static ones MLIR checks.
  auto sameExtents = [&](Operation *op,
                         ArrayRef<std::pair<Value, unsigned>> dims,
                         const llvm::Twine &where) {
    if (llvm::none_of(dims, [](std::pair<Value, unsigned> vd) {
          return cast<RankedTensorType>(vd.first.getType())
              .isDynamicDim(vd.second);
        }))
      return true;
    std::optional<std::string> first, firstCanon;
    for (auto [v, d] : dims) {
      std::optional<std::string> e = dimExpression(v, d, args, &f.front());
      if (!e)
        continue;
      std::string c = canonicalProduct(*e, env.launch);
      if (!first) {
        first = *e;
        firstCanon = c;
      } else if (c != *firstCanon) {
        contract->emitError("spec @")
            << fname << ": operands of '" << op->getName() << "' have extents '"
            << *first << "' and '" << *e << "' " << where << " (at "
            << locString(op->getLoc()) << ")";
        return false;
      }
    }
    return true;
  };
  auto consistentExtents = [&](Operation *op) {
    if (auto l = dyn_cast<linalg::LinalgOp>(op)) {
      for (unsigned d = 0; d < l.getNumLoops(); ++d) {
        SmallVector<std::pair<Value, unsigned>> dims;
        for (OpOperand &o : op->getOpOperands()) {
          if (!isa<RankedTensorType>(o.get().getType()))
            continue;
          for (auto [k, e] :
               llvm::enumerate(l.getMatchingIndexingMap(&o).getResults()))
            if (auto dim = dyn_cast<AffineDimExpr>(e);
                dim && dim.getPosition() == d)
              dims.push_back({o.get(), unsigned(k)});
        }
        if (!sameExtents(op, dims,
                         "along loop dimension #" + std::to_string(d)))
          return false;
      }
      return true;
    }
    SmallVector<Value> tensors;
    if (auto sm = dyn_cast<linalg::SoftmaxOp>(op))
      tensors = {sm.getInput(), sm.getOutput()};
    else if (op->hasTrait<OpTrait::Elementwise>())
      for (Value v : op->getOperands())
        if (isa<RankedTensorType>(v.getType()))
          tensors.push_back(v);
    if (tensors.size() < 2)
      return true;
    int64_t rank = cast<RankedTensorType>(tensors[0].getType()).getRank();
    for (int64_t d = 0; d < rank; ++d) {
      SmallVector<std::pair<Value, unsigned>> dims;
      for (Value v : tensors)
        dims.push_back({v, unsigned(d)});
      if (!sameExtents(op, dims, "in dimension #" + std::to_string(d)))
        return false;
    }
    return true;
  };

  // Every op (including linalg bodies) must be one the lowering models.
  WalkResult walk = f.getBody().walk([&](Operation *op) -> WalkResult {
    if (!isSupportedOp(op)) {
      contract->emitError("spec @")
          << fname << ": unsupported op '" << op->getName() << "' at "
          << locString(op->getLoc());
      return WalkResult::interrupt();
    }
    for (Type t : op->getResultTypes())
      if (failed(checkType(contract, f, t, op->getLoc())))
        return WalkResult::interrupt();
    if (auto l = dyn_cast<linalg::LinalgOp>(op)) {
      if (!l.hasPureTensorSemantics()) {
        contract->emitError("spec @") << fname << ": '" << op->getName()
                                      << "' must operate on tensors (at "
                                      << locString(op->getLoc()) << ")";
        return WalkResult::interrupt();
      }
      auto iters = l.getIteratorTypesArray();
      for (unsigned j = 0; j < l.getNumDpsInits(); ++j) {
        AffineMap m = l.getMatchingIndexingMap(l.getDpsInitOperand(j));
        for (AffineExpr e : m.getResults()) {
          auto d = dyn_cast<AffineDimExpr>(e);
          if (!d || iters[d.getPosition()] != utils::IteratorType::parallel) {
            contract->emitError("spec @")
                << fname << ": '" << op->getName()
                << "' has an output indexing map that is not a projection "
                   "of its parallel dimensions (at "
                << locString(op->getLoc()) << ")";
            return WalkResult::interrupt();
          }
        }
      }
    }
    if (auto dim = dyn_cast<tensor::DimOp>(op);
        dim && !dim.getConstantIndex()) {
      contract->emitError("spec @")
          << fname << ": tensor.dim needs a constant dimension index (at "
          << locString(op->getLoc()) << ")";
      return WalkResult::interrupt();
    }
    if (!consistentExtents(op))
      return WalkResult::interrupt();
    if (op->getNumRegions() && !isa<linalg::LinalgOp>(op)) {
      contract->emitError("spec @")
          << fname << ": unsupported op with a region '" << op->getName()
          << "' at " << locString(op->getLoc());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return nullptr;

  // A dynamic result extent traced to a contract expression must be the
  // output buffer's; one that cannot be traced is compared as a term when
  // an element is asked for.
  Value result =
      cast<func::ReturnOp>(f.front().getTerminator()).getOperand(resultIndex);
  std::vector<bool> resultDimChecked(resTy.getRank(), true);
  for (unsigned d = 0; d < resultDimChecked.size(); ++d) {
    if (!resTy.isDynamicDim(d))
      continue;
    std::optional<std::string> expr =
        dimExpression(result, d, args, &f.front());
    if (!expr) {
      resultDimChecked[d] = false;
      continue;
    }
    if (canonicalProduct(*expr, env.launch) !=
        canonicalProduct(out->symbolicDims[d], env.launch)) {
      contract->emitError("spec @")
          << fname << " returns a tensor whose dimension #" << d
          << " has extent '" << *expr << "' but output buffer '" << out->name
          << "' has '" << out->symbolicDims[d] << "'";
      return nullptr;
    }
  }
  return std::make_unique<FuncSpec>(f, std::move(args), out, inputsText,
                                    env.launch, std::move(resultDimChecked),
                                    resultIndex);
}

} // namespace kproof::engine
