//===- KProofOps.cpp - kproof operations ----------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ::kproof;

#include "KProof/Dialect/KProofEnums.cpp.inc"

/// The size in bytes of a PTX register type as stored in memory; i1 (.pred)
/// has no memory form and counts as one byte.
static uint64_t getStoreSizeInBytes(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getNumElements() * getStoreSizeInBytes(vec.getElementType());
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits <= 8 ? 1 : bits / 8;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionKind kind, FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getKindAttrName(state.name),
                     FunctionKindAttr::get(builder.getContext(), kind));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

// kproof.kernel (entry|func) @name(%a: T {attrs}, ...) [-> (T)] [attributes {..}] [{ body }]
ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringRef kindKeyword;
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kindKeyword))
    return failure();
  std::optional<FunctionKind> kind = symbolizeFunctionKind(kindKeyword);
  if (!kind)
    return parser.emitError(kindLoc, "expected 'entry' or 'func', got '")
           << kindKeyword << "'";
  result.addAttribute(getKindAttrName(result.name),
                      FunctionKindAttr::get(parser.getContext(), *kind));
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyFunctionKind(getKind()) << ' ';
  if (std::optional<StringRef> visibility = getSymVisibility())
    p << *visibility << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getKindAttrName(), getFunctionTypeAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName(), SymbolTable::getVisibilityAttrName()});
  Region &body = getBody();
  if (!body.empty()) {
    p << ' ';
    p.printRegion(body, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
}

LogicalResult KernelOp::verify() {
  if (isEntry() && !getResultTypes().empty())
    return emitOpError("a kernel (.entry) cannot return values, but has ")
           << getResultTypes().size() << " result(s)";
  return success();
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  ArrayRef<Type> expected = kernel.getResultTypes();
  if (getOperands().size() != expected.size())
    return emitOpError("returns ")
           << getOperands().size() << " value(s) but the enclosing "
           << stringifyFunctionKind(kernel.getKind()) << " @"
           << kernel.getSymName() << " declares " << expected.size();
  for (auto [i, value, type] : llvm::enumerate(getOperands(), expected))
    if (value.getType() != type)
      return emitOpError("return value #")
             << i << " has type " << value.getType() << " but @"
             << kernel.getSymName() << " declares " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstantOp::verify() {
  Attribute value = getValue();
  if (!isa<IntegerAttr, FloatAttr, DenseElementsAttr>(value))
    return emitOpError("value must be an integer, float or dense vector "
                       "attribute, got ")
           << value;
  return success();
}

//===----------------------------------------------------------------------===//
// GlobalOp
//===----------------------------------------------------------------------===//

uint64_t GlobalOp::getElementSizeInBytes() {
  return getStoreSizeInBytes(getElemType());
}

LogicalResult GlobalOp::verify() {
  switch (getSpace()) {
  case StateSpace::Global:
  case StateSpace::Shared:
  case StateSpace::Const:
  case StateSpace::Local:
    break;
  default:
    return emitOpError("a module-scope variable lives in .global, .shared, "
                       ".const or .local, not .")
           << stringifyStateSpace(getSpace());
  }
  Type elem = getElemType();
  if (!elem.isIntOrFloat())
    return emitOpError("element type must be an integer or float type, got ")
           << elem;
  int64_t align = getAlign();
  if (align <= 0 || !llvm::isPowerOf2_64(align))
    return emitOpError("alignment must be a positive power of two, got ")
           << align;
  std::optional<uint64_t> count = getCount();
  if (!count && !getExternal())
    return emitOpError("only an .extern variable may have an unsized array "
                       "type (dynamic shared memory)");
  if (std::optional<ArrayAttr> init = getInit()) {
    if (!count)
      return emitOpError("an unsized variable cannot have an initializer");
    if (getExternal())
      return emitOpError("an .extern variable cannot have an initializer");
    if (init->size() > *count)
      return emitOpError("initializer has ")
             << init->size() << " element(s) but the variable has " << *count;
    for (Attribute a : *init) {
      auto typed = dyn_cast<TypedAttr>(a);
      if (!typed || typed.getType() != elem)
        return emitOpError("initializer element ")
               << a << " does not have the element type " << elem;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AddressOfOp
//===----------------------------------------------------------------------===//

LogicalResult
AddressOfOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *target = symbolTable.lookupNearestSymbolFrom(*this, getNameAttr());
  if (!target)
    return emitOpError("'@") << getName() << "' does not name a variable or function";
  if (!isa<GlobalOp, KernelOp>(target))
    return emitOpError("'@") << getName()
                             << "' is not a kproof.global or kproof.kernel";
  return success();
}

//===----------------------------------------------------------------------===//
// SRegOp
//===----------------------------------------------------------------------===//

bool SRegOp::isVolatileRegister() {
  switch (getReg()) {
  case SpecialReg::WarpId:
  case SpecialReg::SmId:
  case SpecialReg::Clock:
  case SpecialReg::ClockHi:
  case SpecialReg::Clock64:
  case SpecialReg::GlobalTimer:
    return true;
  default:
    return false;
  }
}

void SRegOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  // %tid.x prints as %tid_x.
  std::string name = stringifySpecialReg(getReg()).str();
  std::replace(name.begin(), name.end(), '.', '_');
  setNameFn(getResult(), name);
}

void SRegOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A register that may change between reads is modeled as a read of hidden
  // state, so that two reads are never merged.
  if (isVolatileRegister())
    effects.emplace_back(MemoryEffects::Read::get());
}

LogicalResult SRegOp::verify() {
  SpecialReg reg = getReg();
  unsigned expected =
      (reg == SpecialReg::Clock64 || reg == SpecialReg::GlobalTimer ||
       reg == SpecialReg::GridId)
          ? 64
          : 32;
  if (getType().getIntOrFloatBitWidth() != expected)
    return emitOpError("%") << stringifySpecialReg(reg) << " is a " << expected
                            << "-bit register, but the result is "
                            << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Memory ops
//===----------------------------------------------------------------------===//

/// Checks the invariants shared by ld and st (PTX ISA 9.7.9.8-10): a vector
/// width of 1, 2 or 4 elements of one type, the qualifiers the state space
/// allows, and a scope exactly on relaxed/acquire/release accesses.
static LogicalResult verifyAccess(Operation *op, StateSpace space,
                                  TypeRange types, MemSemantics sem,
                                  std::optional<MemScope> scope, bool isLoad) {
  size_t n = types.size();
  if (n != 1 && n != 2 && n != 4)
    return op->emitOpError("accesses 1, 2 or 4 elements (.v2/.v4), not ") << n;
  for (Type t : types)
    if (t != types.front())
      return op->emitOpError("all elements of a vector access must have one "
                             "type, got ")
             << types.front() << " and " << t;
  if (types.front().isInteger(1))
    return op->emitOpError(
        "a predicate (i1) cannot be loaded or stored directly");
  if (!isLoad && (space == StateSpace::Const))
    return op->emitOpError("cannot store to the .const state space");
  switch (sem) {
  case MemSemantics::Weak:
  case MemSemantics::Volatile:
    if (scope)
      return op->emitOpError("a ")
             << stringifyMemSemantics(sem) << " access takes no scope";
    break;
  case MemSemantics::Relaxed:
  case MemSemantics::Acquire:
  case MemSemantics::Release:
    if (!scope)
      return op->emitOpError(".")
             << stringifyMemSemantics(sem) << " requires a scope";
    if (isLoad && sem == MemSemantics::Release)
      return op->emitOpError("a load cannot have .release semantics");
    if (!isLoad && sem == MemSemantics::Acquire)
      return op->emitOpError("a store cannot have .acquire semantics");
    break;
  case MemSemantics::AcqRel:
    return op->emitOpError(".acq_rel applies to atomics and fences, not to ")
           << (isLoad ? "ld" : "st");
  }
  if (sem != MemSemantics::Weak &&
      (space == StateSpace::Const || space == StateSpace::Param))
    return op->emitOpError("a strong access is not allowed on ."
                           ) << stringifyStateSpace(space);
  return success();
}

LogicalResult LoadOp::verify() {
  if (getNc() && getSpace() != StateSpace::Global)
    return emitOpError(".nc (non-coherent) loads only read .global, not .")
           << stringifyStateSpace(getSpace());
  if (getNc() && getSem() != MemSemantics::Weak)
    return emitOpError(".nc cannot be combined with .")
           << stringifyMemSemantics(getSem());
  return verifyAccess(*this, getSpace(), getResultTypes(), getSem(),
                      getScope(), /*isLoad=*/true);
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  // A strong (or volatile) load also orders other accesses.
  if (getSem() != MemSemantics::Weak)
    effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getSpace(), getValues().getTypes(), getSem(),
                      getScope(), /*isLoad=*/false);
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get());
}

//===----------------------------------------------------------------------===//
// BarrierOp
//===----------------------------------------------------------------------===//

LogicalResult CpAsyncOp::verify() {
  int64_t size = getSize();
  if (size != 4 && size != 8 && size != 16)
    return emitOpError("cp-size must be 4, 8 or 16 bytes, not ") << size;
  if (getBypassL1() && size != 16)
    return emitOpError("cp.async.cg copies 16 bytes, not ") << size;
  if (getSrcSize() && getIgnoreSrc())
    return emitOpError("takes src-size or ignore-src, not both");
  // Constant operands are checked here; others are proof obligations.
  if (Value n = getSrcSize())
    if (auto c = n.getDefiningOp<ConstantOp>())
      if (auto v = dyn_cast<IntegerAttr>(c.getValue()))
        if (v.getValue().getZExtValue() > uint64_t(size))
          return emitOpError("src-size ")
                 << v.getValue().getZExtValue()
                 << " is larger than the cp-size " << size;
  return success();
}

LogicalResult CpAsyncWaitOp::verify() {
  if (getAll() == getPending().has_value())
    return emitOpError(getAll() ? "wait_all takes no group count"
                                : "needs a group count (pending N) or all");
  if (getPending() && *getPending() > 1024)
    return emitOpError("the group count ")
           << *getPending() << " is out of range";
  return success();
}

LogicalResult BarrierOp::verify() {
  bool isRed = getKind() == BarrierKind::Red;
  if (isRed != getRedOp().has_value())
    return emitOpError(isRed ? "bar.red needs a reduction (popc, and, or)"
                             : "only bar.red takes a reduction");
  if (isRed != static_cast<bool>(getPred()))
    return emitOpError(isRed ? "bar.red needs a predicate operand"
                             : "only bar.red takes a predicate operand");
  if (isRed != static_cast<bool>(getResult()))
    return emitOpError(isRed ? "bar.red produces a result"
                             : "only bar.red produces a result");
  if (isRed) {
    Type expected = *getRedOp() == BarrierRedOp::Popc
                        ? Type(IntegerType::get(getContext(), 32))
                        : Type(IntegerType::get(getContext(), 1));
    if (getResult().getType() != expected)
      return emitOpError("bar.red.")
             << stringifyBarrierRedOp(*getRedOp()) << " produces "
             << expected << ", not " << getResult().getType();
  }
  if (getKind() == BarrierKind::Arrive && !getCount())
    return emitOpError("bar.arrive requires a thread count");
  // Constant operands are checked here; others are proof obligations.
  if (Value id = getId())
    if (auto c = id.getDefiningOp<ConstantOp>())
      if (auto v = dyn_cast<IntegerAttr>(c.getValue()))
        if (v.getValue().getZExtValue() > 15)
          return emitOpError("barrier id must be in 0..15, got ")
                 << v.getValue().getZExtValue();
  if (Value count = getCount())
    if (auto c = count.getDefiningOp<ConstantOp>())
      if (auto v = dyn_cast<IntegerAttr>(c.getValue())) {
        uint64_t n = v.getValue().getZExtValue();
        if (n == 0 || n % 32 != 0)
          return emitOpError("thread count must be a positive multiple of "
                             "the warp size (32), got ")
                 << n;
      }
  return success();
}

//===----------------------------------------------------------------------===//
// Moves
//===----------------------------------------------------------------------===//

/// The width in bits of a register type (vectors: all elements).
static unsigned getBitWidth(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getNumElements() * vec.getElementType().getIntOrFloatBitWidth();
  return type.getIntOrFloatBitWidth();
}

/// True for the float register types (scalar or packed).
static bool isFloatLike(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return isa<FloatType>(vec.getElementType());
  return isa<FloatType>(type);
}

LogicalResult BitcastOp::verify() {
  if (getBitWidth(getInput().getType()) != getBitWidth(getType()))
    return emitOpError("reinterprets ")
           << getBitWidth(getInput().getType()) << " bits as "
           << getBitWidth(getType()) << " bits; widths must match";
  return success();
}

LogicalResult PackOp::verify() {
  if (getElements().empty())
    return emitOpError("needs at least one element");
  unsigned total = 0;
  for (Value v : getElements()) {
    if (v.getType() != getElements().front().getType())
      return emitOpError("all elements must have one type");
    total += getBitWidth(v.getType());
  }
  if (total != getBitWidth(getType()))
    return emitOpError("packs ") << total << " bits into a "
                                 << getBitWidth(getType()) << "-bit result";
  return success();
}

LogicalResult UnpackOp::verify() {
  if (getElements().empty())
    return emitOpError("needs at least one result");
  unsigned total = 0;
  for (Value v : getElements()) {
    if (v.getType() != getElements().front().getType())
      return emitOpError("all results must have one type");
    total += getBitWidth(v.getType());
  }
  if (total != getBitWidth(getInput().getType()))
    return emitOpError("unpacks a ")
           << getBitWidth(getInput().getType()) << "-bit value into " << total
           << " bits";
  return success();
}

//===----------------------------------------------------------------------===//
// Integer ops
//===----------------------------------------------------------------------===//

LogicalResult IntBinOp::verify() {
  bool isPred = getType().isInteger(1);
  switch (getKind()) {
  case IntBinKind::And:
  case IntBinKind::Or:
  case IntBinKind::Xor:
    break;
  default:
    if (isPred)
      return emitOpError("'") << stringifyIntBinKind(getKind())
                              << "' is not defined on predicates (i1)";
  }
  if (getType().isInteger(8))
    return emitOpError("PTX integer arithmetic has no 8-bit form");
  if (getSat() && !(getKind() == IntBinKind::Add ||
                    getKind() == IntBinKind::Sub) )
    return emitOpError(".sat applies to add and sub only");
  if (getSat() && !(getIsSigned() && getType().isInteger(32)))
    return emitOpError(".sat is defined for .s32 only");
  bool is24 = getKind() == IntBinKind::Mul24Lo ||
              getKind() == IntBinKind::Mul24Hi;
  if (is24 && !getType().isInteger(32))
    return emitOpError("mul24 is defined for 32-bit operands only");
  return success();
}

LogicalResult IntUnaryOp::verify() {
  Type in = getInput().getType(), out = getType();
  switch (getKind()) {
  case IntUnaryKind::Popc:
  case IntUnaryKind::Clz:
    if (!out.isInteger(32))
      return emitOpError("popc/clz produce a 32-bit count, not ") << out;
    if (!in.isInteger(32) && !in.isInteger(64))
      return emitOpError("popc/clz take a 32- or 64-bit input");
    return success();
  case IntUnaryKind::Not:
    break;
  default:
    if (in.isInteger(1))
      return emitOpError("'") << stringifyIntUnaryKind(getKind())
                              << "' is not defined on predicates (i1)";
  }
  if (in != out)
    return emitOpError("result type ")
           << out << " must equal the input type " << in;
  return success();
}

LogicalResult MulWideOp::verify() {
  Type a = getLhs().getType();
  if (getRhs().getType() != a)
    return emitOpError("operands must have one type");
  if (!a.isInteger(16) && !a.isInteger(32))
    return emitOpError("mul.wide takes 16- or 32-bit operands, not ") << a;
  if (getBitWidth(getType()) != 2 * getBitWidth(a))
    return emitOpError("result must be twice as wide as the operands");
  return success();
}

LogicalResult PrmtOp::verify() {
  if (std::optional<StringRef> mode = getMode())
    if (!llvm::is_contained(
            ArrayRef<StringRef>{"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"},
            *mode))
      return emitOpError("unknown prmt mode '") << *mode << "'";
  return success();
}

LogicalResult Lop3Op::verify() {
  int64_t lut = getLut();
  if (lut < 0 || lut > 255)
    return emitOpError("immLut must be in 0..255, got ") << lut;
  return success();
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

LogicalResult CmpOp::verify() {
  Type t = getLhs().getType();
  bool isFloat = isFloatLike(t);
  switch (getPredicate()) {
  case CmpPredicate::Eq:
  case CmpPredicate::Ne:
  case CmpPredicate::Lt:
  case CmpPredicate::Le:
  case CmpPredicate::Gt:
  case CmpPredicate::Ge:
    break;
  default:
    if (!isFloat)
      return emitOpError("'") << stringifyCmpPredicate(getPredicate())
                              << "' compares floats only";
  }
  if (isFloat && getIsSigned())
    return emitOpError("a float comparison has no signedness");
  if (!isFloat && getFtz())
    return emitOpError(".ftz applies to float comparisons only");
  if (isa<VectorType>(t))
    return emitOpError("packed comparisons are not supported by cmp");
  return success();
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

static bool isIntegerRounding(FloatMode m) {
  return m == FloatMode::RNI || m == FloatMode::RZI || m == FloatMode::RMI ||
         m == FloatMode::RPI;
}
static bool isFloatRounding(FloatMode m) {
  return m == FloatMode::RN || m == FloatMode::RZ || m == FloatMode::RM ||
         m == FloatMode::RP || m == FloatMode::RNA;
}

LogicalResult CvtOp::verify() {
  Type in = getInput().getType(), out = getType();
  if (isa<VectorType>(in) || isa<VectorType>(out))
    return emitOpError("packed conversions use kproof.cvt_pack");
  if (in.isInteger(1) || out.isInteger(1))
    return emitOpError("predicates (i1) cannot be converted; use selp");
  bool inFloat = isa<FloatType>(in), outFloat = isa<FloatType>(out);
  std::optional<FloatMode> mode = getMode();
  if (mode && (*mode == FloatMode::Approx || *mode == FloatMode::Full))
    return emitOpError("cvt has no .") << stringifyFloatMode(*mode) << " mode";
  if (inFloat && !outFloat) {
    if (!mode || !isIntegerRounding(*mode))
      return emitOpError("float -> integer conversion requires an integer "
                         "rounding mode (rni, rzi, rmi, rpi)");
  } else if (!inFloat && outFloat) {
    if (!mode || !isFloatRounding(*mode))
      return emitOpError("integer -> float conversion requires a rounding "
                         "mode (rn, rz, rm, rp)");
  } else if (inFloat && outFloat) {
    unsigned inBits = getBitWidth(in), outBits = getBitWidth(out);
    bool narrowing = outBits < inBits || (in.isF16() && out.isBF16()) ||
                     (in.isBF16() && out.isF16());
    if (narrowing && (!mode || !isFloatRounding(*mode)))
      return emitOpError("a narrowing float conversion requires a rounding "
                         "mode (rn, rz, rm, rp)");
    if (!narrowing && mode && isFloatRounding(*mode))
      return emitOpError("a widening float conversion is exact and takes no "
                         "rounding mode");
  } else {
    if (mode)
      return emitOpError("an integer -> integer conversion takes no rounding "
                         "mode");
  }
  if (getSrcSigned() && inFloat)
    return emitOpError("src_signed applies to integer sources only");
  if (getDstSigned() && outFloat)
    return emitOpError("dst_signed applies to integer results only");
  return success();
}

//===----------------------------------------------------------------------===//
// Float ops
//===----------------------------------------------------------------------===//

/// Shared checks of the float ops: float operands, and modes the op allows.
static LogicalResult verifyFloatOp(Operation *op, Type type,
                                   std::optional<FloatMode> mode,
                                   bool allowApprox, bool allowFull,
                                   bool requireApproxForF32 = false) {
  if (!isFloatLike(type))
    return op->emitOpError("operates on float registers, not ") << type;
  if (!mode)
    return success();
  if (isIntegerRounding(*mode) || *mode == FloatMode::RNA)
    return op->emitOpError("mode '")
           << stringifyFloatMode(*mode) << "' is not a float operation mode";
  if (*mode == FloatMode::Approx && !allowApprox)
    return op->emitOpError("has no .approx form");
  if (*mode == FloatMode::Full && !allowFull)
    return op->emitOpError("has no .full form");
  (void)requireApproxForF32;
  return success();
}

LogicalResult FloatBinOp::verify() {
  bool isDiv = getKind() == FloatBinKind::Div;
  if (getNan() && getKind() != FloatBinKind::Min &&
      getKind() != FloatBinKind::Max)
    return emitOpError(".NaN applies to min and max only");
  if (isDiv && !getMode())
    return emitOpError("div requires a mode (rn, rz, rm, rp, approx, full)");
  return verifyFloatOp(*this, getType(), getMode(), /*allowApprox=*/isDiv,
                       /*allowFull=*/isDiv);
}

LogicalResult FmaOp::verify() {
  return verifyFloatOp(*this, getType(), getMode(), false, false);
}

LogicalResult FloatUnaryOp::verify() {
  switch (getKind()) {
  case FloatUnaryKind::Neg:
  case FloatUnaryKind::Abs:
    if (getMode())
      return emitOpError("neg/abs are exact and take no mode");
    break;
  case FloatUnaryKind::Rcp:
  case FloatUnaryKind::Sqrt:
    if (!getMode())
      return emitOpError("rcp/sqrt require a mode (rn, rz, rm, rp, approx)");
    break;
  default:
    if (getMode() != FloatMode::Approx)
      return emitOpError("'") << stringifyFloatUnaryKind(getKind())
                              << "' exists only as .approx";
  }
  return verifyFloatOp(*this, getType(), getMode(), /*allowApprox=*/true,
                       /*allowFull=*/false);
}

//===----------------------------------------------------------------------===//
// Atomics and warp ops
//===----------------------------------------------------------------------===//

LogicalResult AtomOp::verify() {
  bool isCas = getKind() == AtomKind::Cas;
  if (isCas != static_cast<bool>(getSwap()))
    return emitOpError(isCas ? "cas needs a compare and a swap value"
                             : "only cas takes a second value");
  if (getSwap() && getSwap().getType() != getValue().getType())
    return emitOpError("cas values must have one type");
  if (getResult() && getResult().getType() != getValue().getType())
    return emitOpError("the old value has the operand type ")
           << getValue().getType() << ", not " << getResult().getType();
  switch (getSpace()) {
  case StateSpace::Global:
  case StateSpace::Shared:
  case StateSpace::SharedCluster:
  case StateSpace::Generic:
    break;
  default:
    return emitOpError("atomics operate on .global, .shared or generic "
                       "addresses, not .")
           << stringifyStateSpace(getSpace());
  }
  if (getSem() == MemSemantics::Weak || getSem() == MemSemantics::Volatile)
    return emitOpError("an atomic is strong: .relaxed, .acquire, .release "
                       "or .acq_rel");
  if (getValue().getType().isInteger(1))
    return emitOpError("atomics do not operate on predicates");
  return success();
}

void AtomOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult VoteOp::verify() {
  Type expected = getMode() == VoteMode::Ballot
                      ? Type(IntegerType::get(getContext(), 32))
                      : Type(IntegerType::get(getContext(), 1));
  if (getType() != expected)
    return emitOpError("vote.")
           << stringifyVoteMode(getMode()) << " produces " << expected;
  return success();
}

LogicalResult ReduxOp::verify() {
  if (getIsSigned() && getKind() != ReduxKind::Min &&
      getKind() != ReduxKind::Max)
    return emitOpError("'signed' applies to min and max only (redux.sync.")
           << stringifyReduxKind(getKind()) << " is .b32 or .u32)";
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("'@") << getCallee() << "' is not a kproof.kernel";
  if (callee.isEntry())
    return emitOpError("cannot call the kernel (.entry) '@")
           << getCallee() << "'";
  FunctionType type = callee.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(getArgs().getTypes()))
    return emitOpError("argument types do not match @") << getCallee();
  if (TypeRange(type.getResults()) != TypeRange(getResultTypes()))
    return emitOpError("result types do not match @") << getCallee();
  return success();
}

//===----------------------------------------------------------------------===//
// ContractOp
//===----------------------------------------------------------------------===//

/// CUDA's launch limits on `grid` x `block` (named `gridName`,
/// `blockName` in the errors): grid dimensions at most 2^31-1 x 65535 x
/// 65535, block dimensions at most 1024 x 1024 x 64; a concrete block has
/// at most 1024 threads, and a launch whose grid and block are both
/// concrete at most 2^63 - 1 threads in all (docs/contracts.md).
static LogicalResult verifyLaunchLimits(Operation *op, ArrayRef<int64_t> grid,
                                        ArrayRef<int64_t> block,
                                        StringRef gridName,
                                        StringRef blockName, bool concreteGrid,
                                        bool concreteBlock) {
  const int64_t blockLim[3] = {1024, 1024, 64};
  const int64_t gridLim[3] = {2147483647, 65535, 65535};
  for (int d = 0; d < 3; ++d) {
    if (block[d] > blockLim[d])
      return op->emitOpError("'")
             << blockName << "' dimension " << "xyz"[d]
             << " exceeds the CUDA limit of " << blockLim[d];
    if (grid[d] > gridLim[d])
      return op->emitOpError("'")
             << gridName << "' dimension " << "xyz"[d]
             << " exceeds the CUDA limit of " << gridLim[d];
  }
  // Within the per-dimension limits the block product is at most 2^26.
  int64_t perCta = block[0] * block[1] * block[2];
  if (concreteBlock && perCta > 1024)
    return op->emitOpError("'")
           << blockName << "' has " << perCta
           << " threads; a CTA has at most 1024 (PTX ISA 5.2.2)";
  if (concreteGrid && concreteBlock) {
    int64_t total = perCta;
    for (int64_t e : grid)
      if (llvm::MulOverflow(total, e, total))
        return op->emitOpError("the launch has more than 2^63 - 1 threads "
                               "(grid ")
               << grid[0] << " x " << grid[1] << " x " << grid[2]
               << ", block " << block[0] << " x " << block[1] << " x "
               << block[2] << ")";
  }
  return success();
}

/// The contract's preconditions on integer tables must admit an input:
/// a table element in [lo, hi) (`range`) that is also <= a scalar
/// (`at_most`) exists only when lo is at most the scalar's largest value
/// (its `value`, the top of its `range`, or of the named size's range; a
/// scalar without either is any value of its type). A contradictory set
/// would make every proof under it vacuous (no input satisfies it), so it
/// is an error at the table's param, never a PROVED. Comparisons are
/// signed, as the facts are (appendTableFacts). Called after each param
/// was verified on its own.
static LogicalResult verifyPreconditionsSatisfiable(ContractOp op) {
  // The largest value each integer scalar takes, where bounded.
  llvm::StringMap<int64_t> scalarMax;
  llvm::StringMap<int64_t> sizeMax;
  for (Attribute a : op.getParams()) {
    auto d = cast<DictionaryAttr>(a);
    auto sc = d.getAs<TypeAttr>("scalar");
    if (!sc || !isa<IntegerType>(sc.getValue()))
      continue;
    StringRef name = d.getAs<StringAttr>("name").getValue();
    unsigned w = sc.getValue().getIntOrFloatBitWidth();
    if (auto r = d.getAs<DenseI64ArrayAttr>("range")) {
      scalarMax[name] = r[1] - 1;
      sizeMax[name] = r[1] - 1;
    } else if (auto v = d.getAs<IntegerAttr>("value")) {
      scalarMax[name] = v.getValue().getSExtValue();
    } else if (!d.get("value")) {
      // Any value of its type: the facts sign-extend both sides to the
      // wider width, so a wider table can still ask for more.
      scalarMax[name] = llvm::maxIntN(std::min(w, 64u));
    }
  }
  for (Attribute a : op.getParams()) {
    auto d = cast<DictionaryAttr>(a);
    auto sc = d.getAs<TypeAttr>("scalar");
    auto v = d.getAs<StringAttr>("value");
    if (!sc || !v || !sizeMax.count(v.getValue()))
      continue;
    // The size's value at the scalar's width (the binding truncates it):
    // its largest value when it fits, at most the type's largest else.
    int64_t top =
        llvm::maxIntN(std::min(sc.getValue().getIntOrFloatBitWidth(), 64u));
    scalarMax[d.getAs<StringAttr>("name").getValue()] =
        std::min(sizeMax[v.getValue()], top);
  }
  for (Attribute a : op.getParams()) {
    auto d = cast<DictionaryAttr>(a);
    auto range = d.getAs<DenseI64ArrayAttr>("range");
    auto atMost = d.getAs<StringAttr>("at_most");
    if (!d.get("buffer") || !range || !atMost)
      continue;
    auto it = scalarMax.find(atMost.getValue());
    if (it == scalarMax.end() || range[0] <= it->second)
      continue;
    return op.emitOpError("param '")
           << d.getAs<StringAttr>("name").getValue()
           << "': the preconditions contradict each other: 'range' ["
           << range[0] << ", " << range[1]
           << ") puts every element at >= " << range[0] << ", but 'at_most = \""
           << atMost.getValue() << "\"' puts it at <= " << atMost.getValue()
           << ", which is at most " << it->second
           << "; no input satisfies both, so a proof under them would be "
              "vacuous (lower the range or raise "
           << atMost.getValue() << ")";
  }
  return success();
}

LogicalResult ContractOp::verify() {
  auto dims = [&](ArrayRef<int64_t> d, StringRef what) -> LogicalResult {
    if (d.size() != 3)
      return emitOpError("'") << what << "' needs 3 dimensions (x, y, z), got "
                              << d.size();
    for (int64_t v : d)
      if (v < 1)
        return emitOpError("'") << what << "' dimensions must be >= 1";
    return success();
  };
  // A launch is concrete (`grid`, `block`) or symbolic per part
  // (`grid_max`, `block_max`: each extent any value in [1, max]).
  for (auto [exact, max, what] :
       {std::tuple{getGridAttr(), getGridMaxAttr(), "grid"},
        std::tuple{getBlockAttr(), getBlockMaxAttr(), "block"}}) {
    if (!exact == !max)
      return emitOpError("needs exactly one of '")
             << what << "' (a concrete launch) and '" << what
             << "_max' (a symbolic one)";
    if (exact && failed(dims(exact.asArrayRef(), what)))
      return failure();
    if (max && failed(dims(max.asArrayRef(), (Twine(what) + "_max").str())))
      return failure();
  }
  // CUDA's launch limits (CUDA C++ Programming Guide, compute capability
  // table), for a concrete launch and for a symbolic one's bounds alike: a
  // launch beyond them cannot exist. A concrete launch also has at most
  // 1024 threads per CTA and at most 2^63 - 1 threads in all (its thread
  // count is computed without wrapping).
  auto b = getBlockAttr() ? getBlockAttr() : getBlockMaxAttr();
  auto g = getGridAttr() ? getGridAttr() : getGridMaxAttr();
  if (failed(verifyLaunchLimits(*this, g.asArrayRef(), b.asArrayRef(),
                                getGridAttr() ? "grid" : "grid_max",
                                getBlockAttr() ? "block" : "block_max",
                                /*concreteGrid=*/bool(getGridAttr()),
                                /*concreteBlock=*/bool(getBlockAttr()))))
    return failure();
  if (std::optional<int64_t> m = getMaxThreads()) {
    if (*m < 1)
      return emitOpError("'max_threads' must be >= 1");
    if (!getGridMaxAttr() && !getBlockMaxAttr())
      return emitOpError("'max_threads' bounds a symbolic launch; the launch "
                         "is concrete");
  }
  bool symbolicLaunch = getGridMaxAttr() || getBlockMaxAttr();
  if (std::optional<int64_t> dyn = getDynamicShared(); dyn && *dyn < 0)
    return emitOpError("'dynamic_shared' (bytes of dynamic shared memory) "
                       "must be >= 0");
  // A misspelled field must not be ignored silently.
  for (NamedAttribute a : (*this)->getDiscardableAttrs())
    return emitOpError("unknown contract field '")
           << a.getName().getValue()
           << "' (fields: kernel, grid, block, grid_max, block_max, "
              "max_threads, params, spec, assume, mode, dynamic_shared, "
              "tolerate_equal_writes, finite_inputs)";
  auto checkKeys = [&](DictionaryAttr d, ArrayRef<StringRef> allowed,
                       StringRef what) -> LogicalResult {
    for (NamedAttribute a : d)
      if (!llvm::is_contained(allowed, a.getName().getValue()))
        return emitOpError("unknown key '")
               << a.getName().getValue() << "' in " << what;
    return success();
  };
  if (getMode() != "reals")
    return emitOpError("unsupported mode '")
           << getMode() << "' (supported: reals)";
  llvm::StringSet<> names;
  // Integer scalars with a `range` (lo >= 1): symbolic sizes, which a
  // buffer's `shape` may name.
  llvm::StringSet<> sizeNames;
  // Integer scalars of any kind: what a table's `at_most` may name.
  llvm::StringSet<> intScalarNames;
  for (Attribute a : getParams())
    if (auto d = dyn_cast<DictionaryAttr>(a)) {
      auto n = d.getAs<StringAttr>("name");
      auto sc = d.getAs<TypeAttr>("scalar");
      auto r = d.getAs<DenseI64ArrayAttr>("range");
      if (n && sc && isa<IntegerType>(sc.getValue()))
        intScalarNames.insert(n.getValue());
      if (n && sc && isa<IntegerType>(sc.getValue()) && r && r.size() == 2 &&
          r[0] >= 1 && !d.get("value"))
        sizeNames.insert(n.getValue());
    }
  for (auto [i, a] : llvm::enumerate(getParams())) {
    auto d = dyn_cast<DictionaryAttr>(a);
    if (!d)
      return emitOpError("param #") << i << " must be a dictionary";
    auto name = d.getAs<StringAttr>("name");
    if (!name)
      return emitOpError("param #") << i << " needs a 'name'";
    if (failed(checkKeys(d,
                         {"name", "buffer", "space", "type", "shape",
                          "scalar", "value", "range", "at_most", "nonfinite"},
                         ("param '" + name.getValue() + "'").str())))
      return failure();
    if (!names.insert(name.getValue()).second)
      return emitOpError("duplicate param name '") << name.getValue() << "'";
    auto buffer = d.getAs<StringAttr>("buffer");
    auto scalar = d.getAs<TypeAttr>("scalar");
    if (!buffer == !scalar)
      return emitOpError("param '")
             << name.getValue() << "' must be either a buffer or a scalar";
    if (buffer) {
      StringRef role = buffer.getValue();
      if (role != "in" && role != "out" && role != "inout")
        return emitOpError("param '") << name.getValue()
                                      << "': buffer must be in, out or inout";
      auto type = d.getAs<TypeAttr>("type");
      if (!type || !type.getValue().isIntOrFloat())
        return emitOpError("param '")
               << name.getValue() << "' needs an element 'type'";
      if (auto list = d.getAs<ArrayAttr>("shape")) {
        // A launch-dependent shape: each extent an integer or a product of
        // launch extents and integers ("nctaid.x*ntid.x").
        if (list.empty())
          return emitOpError("param '")
                 << name.getValue() << "' needs a non-empty 'shape'";
        for (Attribute e : list) {
          if (auto i = dyn_cast<IntegerAttr>(e)) {
            if (i.getInt() < 1)
              return emitOpError("param '")
                     << name.getValue() << "' has a non-positive extent";
            continue;
          }
          auto str = dyn_cast<StringAttr>(e);
          if (!str)
            return emitOpError("param '")
                   << name.getValue()
                   << "': a shape entry must be an integer or a string";
          SmallVector<StringRef> factors;
          str.getValue().split(factors, '*');
          for (StringRef f : factors) {
            f = f.trim();
            uint64_t c;
            bool extent =
                llvm::is_contained({"ntid.x", "ntid.y", "ntid.z", "nctaid.x",
                                    "nctaid.y", "nctaid.z"},
                                   f);
            bool ok = (!f.getAsInteger(10, c) && c >= 1) || extent ||
                      sizeNames.contains(f);
            if (!ok)
              return emitOpError("param '")
                     << name.getValue() << "': shape factor '" << f
                     << "' is neither a positive integer, a launch extent "
                        "(ntid.x, ntid.y, ntid.z, nctaid.x, nctaid.y, "
                        "nctaid.z), nor an integer scalar param with a "
                        "'range' whose lower bound is >= 1";
            if (extent && !symbolicLaunch)
              return emitOpError("param '")
                     << name.getValue()
                     << "': a 'shape' naming launch extents needs a symbolic "
                        "launch (grid_max or block_max); give array<i64: ...>";
          }
        }
      } else {
        auto shape = d.getAs<DenseI64ArrayAttr>("shape");
        if (!shape || shape.empty())
          return emitOpError("param '")
                 << name.getValue() << "' needs a non-empty 'shape'";
        for (int64_t e : shape.asArrayRef())
          if (e < 1)
            return emitOpError("param '")
                   << name.getValue() << "' has a non-positive extent";
      }
      if (Attribute r = d.get("range")) {
        // A precondition on an integer table: every element in [lo, hi).
        auto range = dyn_cast<DenseI64ArrayAttr>(r);
        if (!range || range.size() != 2)
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'range' must be array<i64: lo, hi> (every element "
                    "in [lo, hi))";
        if (!isa<IntegerType>(type.getValue()) || role == "out")
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'range' applies to an in or inout buffer of integers";
        int64_t lo = range[0], hi = range[1];
        unsigned w = type.getValue().getIntOrFloatBitWidth();
        int64_t minV = llvm::minIntN(std::min(w, 64u));
        int64_t maxV = llvm::maxIntN(std::min(w, 64u));
        if (lo >= hi)
          return emitOpError("param '")
                 << name.getValue() << "': 'range' [" << lo << ", " << hi
                 << ") is empty: no input satisfies it";
        if (lo < minV || hi - 1 > maxV)
          return emitOpError("param '")
                 << name.getValue() << "': 'range' [" << lo << ", " << hi
                 << ") does not fit the signed " << w << "-bit elements";
      }
      if (Attribute am = d.get("at_most")) {
        // A precondition relating a table to a size: every element <= the
        // value of an integer scalar (cu_seqlens[b] <= total).
        auto scalarName = dyn_cast<StringAttr>(am);
        if (!scalarName || !intScalarNames.contains(scalarName.getValue()))
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'at_most' must name an integer scalar param of this "
                    "contract";
        if (!isa<IntegerType>(type.getValue()) || role == "out")
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'at_most' applies to an in or inout buffer of "
                    "integers";
      }
      if (Attribute nf = d.get("nonfinite")) {
        // The non-finite values a float input may hold ("-inf" mask
        // entries): --verify-sync covers them even with finite_inputs.
        auto list = dyn_cast<ArrayAttr>(nf);
        bool ok = list && !list.empty();
        llvm::StringSet<> seen;
        for (Attribute e : ok ? list.getValue() : ArrayRef<Attribute>()) {
          auto str = dyn_cast<StringAttr>(e);
          if (!str || !llvm::is_contained({"-inf", "inf", "nan"},
                                          str.getValue()) ||
              !seen.insert(str.getValue()).second)
            ok = false;
        }
        if (!ok)
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'nonfinite' must be a non-empty list of distinct "
                    "\"-inf\", \"inf\", \"nan\"";
        if (!isa<FloatType>(type.getValue()) || role == "out")
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'nonfinite' applies to an in or inout buffer of floats";
      }
      if (auto space = d.getAs<StringAttr>("space"))
        if (space.getValue() != "global")
          return emitOpError("param '") << name.getValue()
                                        << "': only global buffers are supported";
    } else {
      if (!scalar.getValue().isIntOrFloat())
        return emitOpError("param '")
               << name.getValue() << "': scalar type must be int or float";
      if (auto v = d.get("value")) {
        // A string value names a symbolic size: the scalar is that size (a
        // row stride equal to the row length).
        if (auto sv = dyn_cast<StringAttr>(v)) {
          if (!isa<IntegerType>(scalar.getValue()) ||
              !sizeNames.contains(sv.getValue()))
            return emitOpError("param '")
                   << name.getValue() << "': value \"" << sv.getValue()
                   << "\" must name a symbolic size (an integer scalar "
                      "param with a 'range' from 1), and the scalar must be "
                      "an integer";
        } else {
          auto typed = dyn_cast<TypedAttr>(v);
          if (!typed || typed.getType() != scalar.getValue())
            return emitOpError("param '")
                   << name.getValue() << "': value must have the scalar type";
        }
      }
      if (Attribute r = d.get("range")) {
        // A symbolic size: the scalar is any value in [lo, hi).
        auto range = dyn_cast<DenseI64ArrayAttr>(r);
        if (!range || range.size() != 2)
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'range' must be array<i64: lo, hi> (the scalar in "
                    "[lo, hi))";
        if (!isa<IntegerType>(scalar.getValue()) || d.get("value"))
          return emitOpError("param '")
                 << name.getValue()
                 << "': 'range' applies to an integer scalar without a "
                    "'value'";
        int64_t lo = range[0], hi = range[1];
        unsigned w = scalar.getValue().getIntOrFloatBitWidth();
        int64_t maxV = llvm::maxIntN(std::min(w, 64u));
        int64_t minV = llvm::minIntN(std::min(w, 64u));
        if (lo >= hi)
          return emitOpError("param '")
                 << name.getValue() << "': 'range' [" << lo << ", " << hi
                 << ") is empty: no input satisfies it";
        if (lo < minV || hi - 1 > maxV)
          return emitOpError("param '")
                 << name.getValue() << "': 'range' [" << lo << ", " << hi
                 << ") does not fit the signed " << w << "-bit scalar";
      }
    }
  }
  if (failed(verifyPreconditionsSatisfiable(*this)))
    return failure();
  // No spec: a contract for --verify-sync only (the checker says so when
  // --verify-equiv is asked).
  DictionaryAttr spec = getSpecAttr();
  if (!spec)
    return success();
  if (failed(
          checkKeys(spec,
                    {"builtin", "input", "output", "outputs", "func", "inputs",
                     "q", "k", "v", "scale", "mask", "offset", "lse", "perm",
                     "reference", "params", "grid", "block", "file"},
                    "spec")))
    return failure();
  auto isParam = [&](Attribute a) {
    auto n = dyn_cast_or_null<StringAttr>(a);
    return n && names.contains(n.getValue());
  };
  if (auto outputs = spec.getAs<ArrayAttr>("outputs")) {
    // Several outputs: a func spec returning one tensor per name.
    if (!spec.get("func") || spec.get("output"))
      return emitOpError("spec 'outputs' (several output buffers) needs a "
                         "'func' spec and no 'output'");
    if (outputs.empty())
      return emitOpError("spec 'outputs' must name at least one param");
    for (Attribute a : outputs)
      if (!isParam(a))
        return emitOpError("spec output ") << a << " is not a param";
  } else if (!isParam(spec.get("output"))) {
    return emitOpError("spec needs an 'output' naming a param");
  }
  if (spec.get("func")) {
    if (!isa<FlatSymbolRefAttr>(spec.get("func")))
      return emitOpError("spec 'func' must be a symbol reference (@name)");
    auto inputs = spec.getAs<ArrayAttr>("inputs");
    if (!inputs)
      return emitOpError("a func spec needs 'inputs' (param names)");
    for (Attribute a : inputs)
      if (!isParam(a))
        return emitOpError("spec input ") << a << " is not a param";
    return success();
  }
  if (spec.get("reference")) {
    // A reference kernel (docs/contracts.md); its binding is checked when
    // the spec is built (lib/Verifier/Specs/RefSpec.cpp).
    if (!isa<StringAttr>(spec.get("reference")))
      return emitOpError("spec 'reference' must be a kernel name (a string)");
    if (auto params = spec.get("params")) {
      auto list = dyn_cast<ArrayAttr>(params);
      if (!list || !llvm::all_of(list, [](Attribute a) {
            return isa<StringAttr>(a);
          }))
        return emitOpError("spec 'params' must be a list of param names");
    }
    int64_t refLaunch[2][3] = {{1, 1, 1}, {1, 1, 1}};
    for (int i = 0; i < 2; ++i) {
      StringRef key = i ? "block" : "grid";
      if (Attribute a = spec.get(key)) {
        auto dims = dyn_cast<DenseI64ArrayAttr>(a);
        if (!dims || dims.size() != 3 ||
            llvm::any_of(dims.asArrayRef(), [](int64_t d) { return d < 1; }))
          return emitOpError("spec '")
                 << key << "' must be array<i64: x, y, z> with entries >= 1";
        llvm::copy(dims.asArrayRef(), refLaunch[i]);
      }
    }
    if (failed(verifyLaunchLimits(*this, refLaunch[0], refLaunch[1],
                                  "spec grid", "spec block",
                                  /*concreteGrid=*/true,
                                  /*concreteBlock=*/true)))
      return failure();
    if (spec.get("file") && !isa<StringAttr>(spec.get("file")))
      return emitOpError("spec 'file' must be a file name (a string)");
    return success();
  }
  auto builtin = spec.getAs<StringAttr>("builtin");
  if (!builtin)
    return emitOpError("spec needs a 'builtin' name, a 'func' or a "
                       "'reference'");
  if (builtin.getValue() == "attention") {
    for (StringRef key : {"q", "k", "v"})
      if (!isParam(spec.get(key)))
        return emitOpError("attention spec needs '") << key
                                                     << "' naming a param";
    if (Attribute lse = spec.get("lse"); lse && !isParam(lse))
      return emitOpError("attention spec 'lse' must name a param (the "
                         "logsumexp output)");
    return success();
  }
  if (!llvm::is_contained(
          ArrayRef<StringRef>{"softmax", "copy", "sum", "max", "permute"},
          builtin.getValue()))
    return emitOpError("unknown builtin spec '")
           << builtin.getValue()
           << "' (builtins: softmax, copy, permute, sum, max, attention)";
  if (!isParam(spec.get("input")))
    return emitOpError("spec needs an 'input' naming a param");
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel lookup
//===----------------------------------------------------------------------===//

KernelOp kproof::lookupKernel(ModuleOp module, StringRef name) {
  KernelOp found;
  unsigned matches = 0;
  for (auto k : module.getOps<KernelOp>()) {
    StringRef ptxName = k.getSymName();
    std::string demangled = llvm::demangle(ptxName.str());
    StringRef base = StringRef(demangled).split('(').first;
    if (ptxName == name || demangled == name || base == name) {
      found = k;
      ++matches;
    }
  }
  return matches == 1 ? found : KernelOp();
}

#define GET_OP_CLASSES
#include "KProof/Dialect/KProofOps.cpp.inc"

const std::array<std::array<int, 4>, 4> *
kproof::prmtModeTable(llvm::StringRef mode) {
  static const std::pair<const char *, std::array<std::array<int, 4>, 4>>
      tables[] = {
          {"f4e", {{{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}}},
          {"b4e", {{{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}}},
          {"rc8", {{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}}},
          {"ecl", {{{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}}},
          {"ecr", {{{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}}},
          {"rc16", {{{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}}},
      };
  for (const auto &[name, table] : tables)
    if (mode == name)
      return &table;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// mbarrier objects (PTX ISA 9.7.13.15)
//===----------------------------------------------------------------------===//

/// mbarrier objects live in shared memory: `.shared{::cta}` or a generic
/// address of it; the offset keeps the 8-byte object aligned.
static LogicalResult verifyMBarrierAddress(Operation *op, StateSpace space,
                                           int64_t offset) {
  if (space != StateSpace::Shared && space != StateSpace::Generic)
    return op->emitOpError("an mbarrier object is in .shared memory (or a "
                           "generic address of it), not .")
           << stringifyStateSpace(space);
  if (offset % 8 != 0)
    return op->emitOpError("the offset ")
           << offset << " of an 8-byte mbarrier object is not a multiple of 8";
  return success();
}

LogicalResult MBarrierInitOp::verify() {
  return verifyMBarrierAddress(*this, getSpace(), getOffset());
}

LogicalResult MBarrierArriveOp::verify() {
  if (getScope() != MemScope::CTA && getScope() != MemScope::Cluster)
    return emitOpError("mbarrier.arrive has scope .cta or .cluster");
  return verifyMBarrierAddress(*this, getSpace(), getOffset());
}

LogicalResult MBarrierWaitOp::verify() {
  if (getScope() != MemScope::CTA && getScope() != MemScope::Cluster)
    return emitOpError("mbarrier waits have scope .cta or .cluster");
  if (getParity() != getPhase().getType().isInteger(32))
    return emitOpError(getParity()
                           ? "the phase parity of a .parity wait is an i32"
                           : "the state of a wait (an mbarrier_arrive "
                             "result) is an i64");
  if (getHint() && !getTryWait())
    return emitOpError("only try_wait takes a suspend-time hint");
  return verifyMBarrierAddress(*this, getSpace(), getOffset());
}

LogicalResult MBarrierInvalOp::verify() {
  return verifyMBarrierAddress(*this, getSpace(), getOffset());
}

/// Whether `op` has no effect a retry of a spin loop could observe: a pure
/// op, a branch, or a call of a function whose body is made of such ops
/// (nvcc -G's __cvta_generic_to_shared).
static bool effectFree(Operation *op, unsigned depth = 0) {
  if (isPure(op) ||
      isa<cf::BranchOp, cf::CondBranchOp, ConstantOp, AddressOfOp, ReturnOp>(
          op))
    return true;
  auto call = dyn_cast<CallOp>(op);
  if (!call || depth > 4)
    return false;
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<KernelOp>(op, call.getCalleeAttr());
  if (!callee || callee.getBody().empty())
    return false;
  bool ok = true;
  callee.getBody().walk([&](Operation *o) { ok &= effectFree(o, depth + 1); });
  return ok;
}

/// The blocks a spin loop runs through, and how each block argument on the
/// way receives its value: for a block entered by a `cf.br` of the loop,
/// the branch operand.
struct SpinPath {
  llvm::SmallPtrSet<Block *, 8> blocks;
  llvm::DenseMap<Value, Value> forwarded;
  /// Follows `cf.br`s from `from` (inclusive) for at most 8 blocks until
  /// `stop` or a block ending in anything else; false when a block on the
  /// way has an op with effects (other than `skip`).
  bool follow(Block *from, Block *stop, Operation *skip, Block *&end) {
    Block *b = from;
    for (int n = 0; n < 8; ++n) {
      blocks.insert(b);
      for (Operation &o : *b)
        if (&o != skip && !effectFree(&o))
          return false;
      auto br = dyn_cast<cf::BranchOp>(b->getTerminator());
      if (b == stop || !br) {
        end = b;
        return true;
      }
      for (auto [arg, v] :
           llvm::zip(br.getDest()->getArguments(), br.getDestOperands()))
        forwarded[arg] = v;
      b = br.getDest();
    }
    return false;
  }
};

/// The value of `v` when the wait's result is `complete`, for the few pure
/// ops compilers put between a try_wait and its branch (selp of the
/// result, setp against 0, not/and/or/xor of predicates); none when `v`
/// depends on anything else.
static std::optional<APInt>
spinValue(Value v, MBarrierWaitOp wait, bool complete, const SpinPath &path,
          llvm::DenseMap<Value, std::optional<APInt>> &memo) {
  if (v == wait.getComplete())
    return APInt(1, complete);
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  std::optional<APInt> r;
  Operation *op = v.getDefiningOp();
  auto get = [&](Value x) { return spinValue(x, wait, complete, path, memo); };
  if (auto f = path.forwarded.find(v); f != path.forwarded.end()) {
    r = get(f->second);
  } else if (!op || !path.blocks.count(op->getBlock())) {
    // Defined outside the loop: only constants are known.
  } else if (auto c = dyn_cast<ConstantOp>(op)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      r = i.getValue();
  } else if (auto s = dyn_cast<SelpOp>(op)) {
    if (auto c = get(s.getCondition()))
      r = get(c->isOne() ? s.getTrueValue() : s.getFalseValue());
  } else if (auto c = dyn_cast<CmpOp>(op)) {
    auto a = get(c.getLhs()), b = get(c.getRhs());
    if (a && b && isa<IntegerType>(c.getLhs().getType())) {
      if (c.getPredicate() == CmpPredicate::Eq)
        r = APInt(1, *a == *b);
      else if (c.getPredicate() == CmpPredicate::Ne)
        r = APInt(1, *a != *b);
    }
  } else if (auto u = dyn_cast<IntUnaryOp>(op)) {
    if (auto a = get(u.getInput()); a && u.getKind() == IntUnaryKind::Not)
      r = ~*a;
  } else if (auto b = dyn_cast<IntBinOp>(op)) {
    auto x = get(b.getLhs()), y = get(b.getRhs());
    if (x && y) {
      if (b.getKind() == IntBinKind::And)
        r = *x & *y;
      else if (b.getKind() == IntBinKind::Or)
        r = *x | *y;
      else if (b.getKind() == IntBinKind::Xor)
        r = *x ^ *y;
    }
  }
  memo[v] = r;
  return r;
}

bool MBarrierWaitOp::isSpinLoop() {
  Block *block = (*this)->getBlock();
  // From the wait forward to the exit test (a cf.cond_br), through blocks
  // without effects.
  SpinPath path;
  Block *testBlock = nullptr;
  if (!path.follow(block, nullptr, *this, testBlock))
    return false;
  auto br = dyn_cast<cf::CondBranchOp>(testBlock->getTerminator());
  if (!br)
    return false;
  std::optional<bool> taken[2];
  for (bool complete : {false, true}) {
    llvm::DenseMap<Value, std::optional<APInt>> memo;
    if (auto c = spinValue(br.getCondition(), *this, complete, path, memo))
      taken[complete] = c->isOne();
  }
  if (!taken[0] || !taken[1] || *taken[0] == *taken[1])
    return false;
  // Not complete: back to a block H that leads to the wait's block, with
  // H's own arguments (what reaches H again is what reached it first:
  // nothing changes between two tries); complete: out of the loop.
  Block *again = *taken[0] ? br.getTrueDest() : br.getFalseDest();
  OperandRange againArgs =
      *taken[0] ? br.getTrueDestOperands() : br.getFalseDestOperands();
  Block *out = *taken[1] ? br.getTrueDest() : br.getFalseDest();
  SpinPath back;
  Block *reached = nullptr;
  if (again != block && !back.follow(again, block, *this, reached))
    return false;
  if (again != block && reached != block)
    return false;
  if (path.blocks.count(out) || back.blocks.count(out))
    return false;
  // Trace each value the retry passes back to H's arguments.
  llvm::DenseMap<Value, Value> through = back.forwarded;
  for (auto &[arg, v] : path.forwarded)
    through[arg] = v;
  for (auto [arg, v] : llvm::zip(again->getArguments(), againArgs)) {
    Value x = v;
    for (int n = 0; n < 32 && x != arg; ++n) {
      auto f = through.find(x);
      if (f == through.end())
        break;
      x = f->second;
    }
    if (x != arg)
      return false;
  }
  return true;
}
