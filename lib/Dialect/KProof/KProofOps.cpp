//===- KProofOps.cpp - kproof operations ----------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::kproof;

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
      (reg == SpecialReg::Clock64 || reg == SpecialReg::GlobalTimer) ? 64 : 32;
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

#define GET_OP_CLASSES
#include "KProof/Dialect/KProofOps.cpp.inc"
