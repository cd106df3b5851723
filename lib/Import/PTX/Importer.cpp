//===- Importer.cpp - import a PTX syntax tree into kproof ----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Turns the syntax tree of Parser.cpp into kproof ops with PTX's exact
// semantics (docs/PTXImport.md). PTX registers become SSA values by the
// on-the-fly construction of Braun et al., "Simple and Efficient Construction
// of Static Single Assignment Form" (CC 2013), with MLIR block arguments as
// phis. Control flow becomes cf.br/cf.cond_br; a predicated instruction other
// than a branch becomes a conditional branch around it, so a false guard leaves
// every destination (and memory) unchanged (PTX ISA 9.3).
//
//===----------------------------------------------------------------------===//

#include "KProof/Import/PTX/PTXImporter.h"

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Import/PTX/PTXParser.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"

using namespace mlir;
using namespace ::kproof;
namespace ptx = ::kproof::ptx;

namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The MLIR type of a PTX fundamental type name (without the dot), or null.
Type getPTXType(MLIRContext *ctx, StringRef name) {
  if (name == "pred")
    return IntegerType::get(ctx, 1);
  if (name.size() >= 2 && (name[0] == 'b' || name[0] == 'u' || name[0] == 's') &&
      name != "bf16" && name != "bf16x2") {
    unsigned bits = 0;
    if (name.drop_front().getAsInteger(10, bits) ||
        (bits != 8 && bits != 16 && bits != 32 && bits != 64))
      return Type();
    return IntegerType::get(ctx, bits);
  }
  if (name == "f16")
    return Float16Type::get(ctx);
  if (name == "bf16")
    return BFloat16Type::get(ctx);
  if (name == "f32")
    return Float32Type::get(ctx);
  if (name == "f64")
    return Float64Type::get(ctx);
  if (name == "f16x2")
    return VectorType::get({2}, Float16Type::get(ctx));
  if (name == "bf16x2")
    return VectorType::get({2}, BFloat16Type::get(ctx));
  return Type();
}

bool isTypeName(StringRef m) {
  return llvm::is_contained(
      ArrayRef<StringRef>{
          "pred",   "b8",     "u8",     "s8",     "b16",    "u16",  "s16",
          "b32",    "u32",    "s32",    "b64",    "u64",    "s64",  "f16",
          "bf16",   "f32",    "f64",    "f16x2",  "bf16x2", "b128", "tf32",
          "e4m3",   "e5m2",   "e4m3x2", "e5m2x2", "s4",     "u4",   "e2m1x2",
          "e2m3x2", "e3m2x2", "ue8m0x2", "u16x2", "s16x2", "f32x2",
          "b16x2", "u8x4", "s8x4"},
      m);
}

bool isSignedTypeName(StringRef m) { return m.starts_with("s"); }
bool isFloatTypeName(StringRef m) {
  return m.starts_with("f") || m.starts_with("bf");
}

unsigned getWidth(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * v.getElementType().getIntOrFloatBitWidth();
  return t.getIntOrFloatBitWidth();
}
bool isFloatLike(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return isa<FloatType>(v.getElementType());
  return isa<FloatType>(t);
}

/// The special registers (PTX ISA 10) by PTX name.
std::optional<SpecialReg> lookupSpecialReg(StringRef name) {
  if (!name.consume_front("%"))
    return std::nullopt;
  return symbolizeSpecialReg(name);
}

/// Tier-2 instructions: parsed and imported, semantics not yet modeled.
bool isTier2(const ptx::Instruction &inst) {
  StringRef op = inst.opcode;
  if (llvm::is_contained(ArrayRef<StringRef>{"ldmatrix", "mma",
                                             "griddepcontrol", "setmaxnreg",
                                             "mapa", "stmatrix", "wgmma"},
                         op))
    return true;
  // cp.async (sm_80) is modeled; its bulk/tensor (TMA) and mbarrier forms
  // are not yet.
  if (op == "cp")
    return inst.modifiers.size() < 2 || inst.modifiers[0] != "async" ||
           !llvm::is_contained(ArrayRef<StringRef>{"ca", "cg", "commit_group",
                                                   "wait_group", "wait_all"},
                               inst.modifiers[1]);
  if (op == "fence" && !inst.modifiers.empty() &&
      (StringRef(inst.modifiers.front()).starts_with("proxy") ||
       inst.modifiers.front() == "mbarrier_init"))
    return true;
  if (op == "barrier" && !inst.modifiers.empty() &&
      inst.modifiers.front() == "cluster")
    return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Modifier bookkeeping
//===----------------------------------------------------------------------===//

/// The modifiers of one instruction; each handler takes the ones it models,
/// and any modifier left untaken makes the instruction unmodeled (so a
/// qualifier kproof does not know can never be silently dropped).
class Mods {
public:
  explicit Mods(const ptx::Instruction &inst)
      : mods(inst.modifiers), used(inst.modifiers.size(), false) {}

  bool take(StringRef m) {
    for (size_t i = 0; i < mods.size(); ++i)
      if (!used[i] && mods[i] == m) {
        used[i] = true;
        return true;
      }
    return false;
  }
  std::optional<std::string> takeOneOf(ArrayRef<StringRef> options) {
    for (size_t i = 0; i < mods.size(); ++i)
      if (!used[i] && llvm::is_contained(options, mods[i])) {
        used[i] = true;
        return mods[i];
      }
    return std::nullopt;
  }
  /// Takes every remaining type modifier, in order.
  SmallVector<std::string> takeTypes() {
    SmallVector<std::string> types;
    for (size_t i = 0; i < mods.size(); ++i)
      if (!used[i] && isTypeName(mods[i])) {
        used[i] = true;
        types.push_back(mods[i]);
      }
    return types;
  }
  /// Takes cache-operator and eviction-priority qualifiers (PTX ISA
  /// 9.7.9.1-2): they change no value.
  SmallVector<StringRef> takeCacheQualifiers() {
    SmallVector<StringRef> out;
    for (size_t i = 0; i < mods.size(); ++i) {
      StringRef m = mods[i];
      if (used[i])
        continue;
      if (llvm::is_contained(ArrayRef<StringRef>{"ca", "cg", "cs", "lu", "cv",
                                                 "wb", "wt", "unified"},
                             m) ||
          m.starts_with("L1::") || m.starts_with("L2::")) {
        used[i] = true;
        out.push_back(m);
      }
    }
    return out;
  }
  std::optional<std::string> firstUnused() const {
    for (size_t i = 0; i < mods.size(); ++i)
      if (!used[i])
        return mods[i];
    return std::nullopt;
  }

private:
  const std::vector<std::string> &mods;
  SmallVector<bool> used;
};

//===----------------------------------------------------------------------===//
// Module importer
//===----------------------------------------------------------------------===//

/// A register or `.param` pseudo-variable in scope.
struct VarInfo {
  unsigned id;
  Type type;
  std::string ptxType;
  /// A `.param` of array type (a struct passed or returned by value): its
  /// accesses are unmodeled.
  bool unmodeled = false;
  /// A `.param` staging slot or return parameter (not a register): the only
  /// names ld.param/st.param may address.
  bool isParamSlot = false;
};

/// A function parameter as seen from its body.
struct ParamInfo {
  Value value; ///< the block argument (scalars)
  Type type;
  bool isArray = false;
};

class ModuleImporter;

/// Imports one function body.
class FunctionImporter {
public:
  FunctionImporter(ModuleImporter &parent, KernelOp func,
                   const ptx::Function &ptxFunc);
  LogicalResult run();

private:
  friend class ModuleImporter;
  ModuleImporter &M;
  KernelOp func;
  const ptx::Function &F;
  MLIRContext *ctx;
  OpBuilder builder;
  Block *current = nullptr;
  Location curLoc;

  // Scopes: registers/params and labels, innermost last.
  SmallVector<llvm::StringMap<VarInfo>> varScopes;
  SmallVector<llvm::StringMap<Block *>> labelScopes;
  llvm::StringMap<ParamInfo> params;
  /// True if `name` is an array-typed `.param` in scope (or parameter).
  bool isUnmodeledParam(StringRef name) const {
    if (const VarInfo *var = lookupVar(name))
      return var->unmodeled;
    auto it = params.find(name);
    return it != params.end() && it->second.isArray;
  }
  /// Return parameters of a .func: written by st.param, read by ret.
  SmallVector<std::pair<std::string, VarInfo>> returnVars;
  SmallVector<Type> varTypes;
  SmallVector<Block *> labelBlocks;
  /// Ops the importer made to adjust register types (not PTX instructions).
  DenseSet<Operation *> synthetic;

  // SSA construction state.
  DenseMap<std::pair<Block *, unsigned>, Value> currentDef;
  DenseSet<Block *> sealedBlocks;
  DenseMap<Block *, SmallVector<std::pair<unsigned, BlockArgument>>>
      incompletePhis;

  // --- SSA (Braun et al. 2013) ---
  void writeVariable(unsigned var, Block *block, Value value) {
    currentDef[{block, var}] = value;
  }
  Value readVariable(unsigned var, Block *block);
  Value readVariableRecursive(unsigned var, Block *block);
  void addPhiOperands(unsigned var, BlockArgument arg);
  void sealBlock(Block *block);
  void removeTrivialBlockArguments();

  // --- scopes ---
  unsigned newVar(Type type) {
    varTypes.push_back(type);
    return varTypes.size() - 1;
  }
  const VarInfo *lookupVar(StringRef name) const {
    for (auto it = varScopes.rbegin(); it != varScopes.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end())
        return &found->second;
    }
    return nullptr;
  }
  Block *lookupLabel(StringRef name) const {
    for (auto it = labelScopes.rbegin(); it != labelScopes.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end())
        return found->second;
    }
    return nullptr;
  }

  // --- blocks and statements ---
  Block *newBlock() {
    Block *b = new Block();
    func.getBody().push_back(b);
    return b;
  }
  void setCurrent(Block *b) {
    current = b;
    builder.setInsertionPointToEnd(b);
  }
  bool isTerminated() const {
    return !current->empty() &&
           current->back().hasTrait<OpTrait::IsTerminator>();
  }
  /// After an unconditional transfer, code without a label is unreachable;
  /// it still gets a (sealed, predecessor-less) block.
  void startDeadBlock() {
    Block *b = newBlock();
    sealBlock(b);
    setCurrent(b);
  }
  LogicalResult importBlock(const ptx::Block &block);
  LogicalResult importStatement(const ptx::Statement &stmt);
  LogicalResult importInstruction(const ptx::Instruction &inst);
  LogicalResult importUnguarded(const ptx::Instruction &inst);
  LogicalResult finishFunction();

  // --- operands ---
  Location locOf(llvm::SMLoc loc);
  /// Reports an error (importInstruction keeps only the first error of an
  /// instruction: later ones would be consequences of it).
  InFlightDiagnostic error(llvm::SMLoc loc) {
    return mlir::emitError(locOf(loc));
  }
  /// ld, st and cvt may name registers wider than their type (PTX ISA
  /// 6.4.3); other instructions may not.
  bool allowWiderRegisters = false;
  Value constantInt(Type type, int64_t v) {
    return ConstantOp::create(
        builder, curLoc,
        IntegerAttr::get(type, APInt(getWidth(type), v,
                                     /*isSigned=*/true,
                                     /*implicitTrunc=*/true)));
  }
  Value reinterpret(Value v, Type type);
  Value convertForRead(Value v, Type type, bool isSigned, llvm::SMLoc loc,
                       StringRef name);
  Value convertForWrite(Value v, Type regType, bool isSigned, llvm::SMLoc loc,
                        StringRef name);
  FailureOr<Value> readRegister(const ptx::Operand &op, StringRef name,
                                Type type, bool isSigned);
  FailureOr<Value> readOperand(const ptx::Operand &op, Type type,
                               bool isSigned = false);
  LogicalResult writeOperand(const ptx::Operand &op, Value value,
                             bool isSigned = false);
  LogicalResult writeRegister(StringRef name, llvm::SMLoc loc, Value value,
                              bool isSigned);
  FailureOr<std::pair<Value, int64_t>> readAddress(const ptx::Operand &op,
                                                   StateSpace space);

  LogicalResult expectOperands(const ptx::Instruction &inst, size_t n) {
    if (inst.operands.size() == n)
      return success();
    return error(inst.loc) << "'" << inst.opcode << "' expects " << n
                           << " operand(s), got " << inst.operands.size();
  }
  LogicalResult emitOpaque(const ptx::Instruction &inst, bool tier2,
                           StringRef why = {});

  // --- instruction families ---
  LogicalResult importMov(const ptx::Instruction &inst, Mods &mods);
  /// ldmatrix and mma.sync, expanded into the warp shuffles, shared loads
  /// and multiply-adds their fragment layouts define (importWarpMatrix).
  LogicalResult importLdmatrix(const ptx::Instruction &inst, Mods &mods);
  LogicalResult importMma(const ptx::Instruction &inst, Mods &mods);
  /// shfl.sync.idx of `v` (i32 or i64: two shuffles) from lane `src` (i32)
  /// over the full warp (membermask 0xffffffff, clamp 31).
  Value shuffleFromLane(Value v, Value src);
  LogicalResult importLoadStore(const ptx::Instruction &inst, Mods &mods,
                                bool isLoad);
  LogicalResult importIntArith(const ptx::Instruction &inst, Mods &mods,
                               StringRef type);
  LogicalResult importFloatArith(const ptx::Instruction &inst, Mods &mods,
                                 StringRef type);
  LogicalResult importSetp(const ptx::Instruction &inst, Mods &mods);
  LogicalResult importCvt(const ptx::Instruction &inst, Mods &mods);
  LogicalResult importBarrier(const ptx::Instruction &inst, Mods &mods);
  LogicalResult importAtom(const ptx::Instruction &inst, Mods &mods,
                           bool isRed);
  LogicalResult importCall(const ptx::Instruction &inst, Mods &mods);
  LogicalResult importCpAsync(const ptx::Instruction &inst, Mods &mods);
  /// mbarrier.init / arrive / test_wait / try_wait / inval on .shared::cta
  /// (PTX ISA 9.7.13.15); the transaction-count, arrive_drop, .relaxed and
  /// .shared::cluster forms are tier 2.
  LogicalResult importMBarrier(const ptx::Instruction &inst, Mods &mods);
};

class ModuleImporter {
public:
  ModuleImporter(llvm::SourceMgr &sourceMgr, MLIRContext *ctx)
      : sourceMgr(sourceMgr), ctx(ctx) {}

  OwningOpRef<ModuleOp> run();

  llvm::SourceMgr &sourceMgr;
  MLIRContext *ctx;
  ptx::Module ast;
  ModuleOp module;
  StringAttr ptxFileName;
  llvm::StringMap<KernelOp> functions;
  llvm::StringMap<GlobalOp> globals;
  /// Function-scope variables, per function, by PTX name.
  llvm::StringMap<GlobalOp> *localGlobals = nullptr;
  unsigned addressSize = 64;

  Location locOf(llvm::SMLoc loc) {
    if (!loc.isValid())
      return FileLineColLoc::get(ptxFileName, 0, 0);
    auto [line, col] = sourceMgr.getLineAndColumn(loc);
    return FileLineColLoc::get(ptxFileName, line, col);
  }
  Location locOf(llvm::SMLoc loc, const std::optional<ptx::DebugLoc> &dbg) {
    Location ptxLoc = locOf(loc);
    if (!dbg || !dbg->line)
      return ptxLoc;
    auto it = ast.files.find(dbg->file);
    if (it == ast.files.end())
      return ptxLoc;
    Location src = FileLineColLoc::get(StringAttr::get(ctx, it->second),
                                       dbg->line, dbg->column);
    return FusedLoc::get(ctx, {ptxLoc, src});
  }
  FailureOr<GlobalOp> importVariable(const ptx::VarDecl &var, OpBuilder &b,
                                     StringRef symbolName);
  std::string uniqueSymbol(StringRef base) {
    std::string name = base.str();
    unsigned n = 0;
    while (functions.count(name) || globals.count(name))
      name = (base + "." + Twine(++n)).str();
    return name;
  }
};

//===----------------------------------------------------------------------===//
// SSA construction
//===----------------------------------------------------------------------===//

Value FunctionImporter::readVariable(unsigned var, Block *block) {
  auto it = currentDef.find({block, var});
  if (it != currentDef.end())
    return it->second;
  return readVariableRecursive(var, block);
}

Value FunctionImporter::readVariableRecursive(unsigned var, Block *block) {
  Value value;
  Type type = varTypes[var];
  if (!sealedBlocks.count(block)) {
    // Predecessors may still appear: an incomplete phi.
    BlockArgument arg = block->addArgument(type, curLoc);
    incompletePhis[block].push_back({var, arg});
    value = arg;
  } else if (block->hasNoPredecessors()) {
    // The entry block (or unreachable code): the register was never written.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    value = UndefOp::create(builder, curLoc, type);
  } else if (block->getSinglePredecessor()) {
    // Walk a chain of single-predecessor blocks iteratively (a long run of
    // guarded instructions makes one), then record the value along it.
    SmallVector<Block *> chain{block};
    Block *b = block->getSinglePredecessor();
    while (!currentDef.count({b, var}) && sealedBlocks.count(b) &&
           b->getSinglePredecessor() && b != block) {
      chain.push_back(b);
      b = b->getSinglePredecessor();
    }
    value = b == block ? readVariableRecursive(var, b) : readVariable(var, b);
    for (Block *c : chain)
      writeVariable(var, c, value);
  } else {
    BlockArgument arg = block->addArgument(type, curLoc);
    writeVariable(var, block, arg); // breaks cycles
    addPhiOperands(var, arg);
    value = arg;
  }
  writeVariable(var, block, value);
  return value;
}

void FunctionImporter::addPhiOperands(unsigned var, BlockArgument arg) {
  Block *block = arg.getOwner();
  for (auto it = block->pred_begin(), e = block->pred_end(); it != e; ++it) {
    Block *pred = *it;
    Value incoming = readVariable(var, pred);
    auto branch = cast<BranchOpInterface>(pred->getTerminator());
    SuccessorOperands operands =
        branch.getSuccessorOperands(it.getSuccessorIndex());
    operands.append(incoming);
  }
}

void FunctionImporter::sealBlock(Block *block) {
  if (!sealedBlocks.insert(block).second)
    return;
  auto it = incompletePhis.find(block);
  if (it == incompletePhis.end())
    return;
  auto phis = std::move(it->second);
  incompletePhis.erase(block);
  for (auto [var, arg] : phis)
    addPhiOperands(var, arg);
}

/// Drops block arguments whose incoming values are all one value (or the
/// argument itself), to a fixpoint: Braun et al.'s trivial-phi removal, done
/// after construction.
void FunctionImporter::removeTrivialBlockArguments() {
  // A worklist of blocks whose arguments may have become trivial: initially
  // all; after a removal, the successors that received the removed
  // argument through a branch (linear overall, not a whole-function
  // fixpoint).
  SmallVector<Block *> worklist;
  llvm::DenseSet<Block *> queued;
  for (Block &block : func.getBody())
    if (!block.isEntryBlock()) {
      worklist.push_back(&block);
      queued.insert(&block);
    }
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    queued.erase(block);
    for (int i = static_cast<int>(block->getNumArguments()) - 1; i >= 0;
         --i) {
      BlockArgument arg = block->getArgument(i);
      Value same;
      bool trivial = true;
      for (auto it = block->pred_begin(), e = block->pred_end(); it != e;
           ++it) {
        auto branch = cast<BranchOpInterface>((*it)->getTerminator());
        Value in = branch.getSuccessorOperands(it.getSuccessorIndex())[i];
        if (in == arg || in == same)
          continue;
        if (same) {
          trivial = false;
          break;
        }
        same = in;
      }
      if (!trivial)
        continue;
      if (!same) {
        // Only self-references (or no predecessors): never written.
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(block);
        same = UndefOp::create(builder, arg.getLoc(), arg.getType());
      }
      for (OpOperand &use : arg.getUses())
        if (use.getOwner()->hasTrait<OpTrait::IsTerminator>())
          for (Block *succ : use.getOwner()->getSuccessors())
            if (succ != block && queued.insert(succ).second)
              worklist.push_back(succ);
      arg.replaceAllUsesWith(same);
      for (auto it = block->pred_begin(), e = block->pred_end(); it != e;
           ++it) {
        auto branch = cast<BranchOpInterface>((*it)->getTerminator());
        branch.getSuccessorOperands(it.getSuccessorIndex()).erase(i);
      }
      block->eraseArgument(i);
    }
  }
}

//===----------------------------------------------------------------------===//
// Functions, blocks, statements
//===----------------------------------------------------------------------===//

FunctionImporter::FunctionImporter(ModuleImporter &parent, KernelOp func,
                                   const ptx::Function &ptxFunc)
    : M(parent), func(func), F(ptxFunc), ctx(parent.ctx), builder(parent.ctx),
      curLoc(func.getLoc()) {}

Location FunctionImporter::locOf(llvm::SMLoc loc) { return M.locOf(loc); }

LogicalResult FunctionImporter::run() {
  Block *entry = func.addEntryBlock();
  sealBlock(entry);
  setCurrent(entry);
  varScopes.emplace_back();
  labelScopes.emplace_back();
  llvm::StringSet<> paramNames;
  for (const ptx::Param &p : F.params)
    if (!paramNames.insert(p.name).second)
      return error(p.loc) << "duplicate parameter name '" << p.name << "'";
  for (const ptx::Param &r : F.returns)
    if (!paramNames.insert(r.name).second)
      return error(r.loc) << "duplicate parameter name '" << r.name << "'";
  for (auto [i, p] : llvm::enumerate(F.params)) {
    if (p.space == "reg") {
      // A `.reg` parameter of a .func is a register holding the argument.
      Type t = entry->getArgument(i).getType();
      VarInfo info{newVar(t), t, p.type};
      varScopes.back()[p.name] = info;
      writeVariable(info.id, entry, entry->getArgument(i));
      continue;
    }
    ParamInfo info;
    info.value = entry->getArgument(i);
    info.type = info.value.getType();
    info.isArray = !p.dims.empty();
    params[p.name] = info;
  }
  for (const ptx::Param &r : F.returns) {
    Type t = getPTXType(ctx, r.type);
    if (!r.dims.empty()) {
      // `.param .align 8 .b8 func_retval0[16]`: a byte array return value;
      // the function returns an opaque placeholder and every access to the
      // slot is unmodeled.
      t = IntegerType::get(ctx, M.addressSize);
    }
    VarInfo info{newVar(t), t, r.type, /*unmodeled=*/!r.dims.empty(),
                 /*isParamSlot=*/r.space != "reg"};
    varScopes.back()[r.name] = info;
    returnVars.push_back({r.name, info});
  }
  if (failed(importBlock(*F.body)))
    return failure();
  if (failed(finishFunction()))
    return failure();
  for (Block *b : labelBlocks)
    sealBlock(b);
  // Every block is now sealed; any leftover incomplete phi is a bug.
  if (!incompletePhis.empty())
    return func.emitError("internal error: unsealed blocks after import");
  removeTrivialBlockArguments();
  // Code after an unconditional transfer without a label is unreachable.
  IRRewriter rewriter(ctx);
  (void)eraseUnreachableBlocks(rewriter, func.getBody());
  // Drop the reinterpretations the importer made for register writes that
  // nothing reads; every op the PTX itself asked for stays.
  for (Block &block : llvm::reverse(func.getBody()))
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if (op.use_empty() && synthetic.contains(&op))
        op.erase();
  return success();
}

LogicalResult FunctionImporter::finishFunction() {
  if (isTerminated())
    return success();
  // Falling off the end of a function body returns (PTX ISA 9.7.12.6).
  curLoc = locOf(F.body->loc);
  SmallVector<Value> rets;
  for (auto &[name, info] : returnVars)
    rets.push_back(readVariable(info.id, current));
  ReturnOp::create(builder, curLoc, rets);
  return success();
}

LogicalResult FunctionImporter::importBlock(const ptx::Block &block) {
  varScopes.emplace_back();
  labelScopes.emplace_back();
  // Labels are visible in their whole block (forward branches), so create
  // their MLIR blocks first.
  for (const ptx::Statement &s : block.statements) {
    if (s.kind != ptx::Statement::Kind::Label)
      continue;
    if (labelScopes.back().count(s.label))
      return error(s.loc) << "redefinition of label '" << s.label << "'";
    Block *b = newBlock();
    labelScopes.back()[s.label] = b;
    labelBlocks.push_back(b);
  }
  for (const ptx::Statement &s : block.statements)
    if (failed(importStatement(s)))
      return failure();
  varScopes.pop_back();
  labelScopes.pop_back();
  return success();
}

LogicalResult FunctionImporter::importStatement(const ptx::Statement &stmt) {
  switch (stmt.kind) {
  case ptx::Statement::Kind::Label: {
    Block *target = labelScopes.back().lookup(stmt.label);
    if (!isTerminated()) {
      curLoc = locOf(stmt.loc);
      cf::BranchOp::create(builder, curLoc, target);
    }
    setCurrent(target);
    return success();
  }
  case ptx::Statement::Kind::RegDecl: {
    const ptx::RegDecl &decl = *stmt.regDecl;
    Type t = getPTXType(ctx, decl.type);
    if (!t)
      return error(decl.loc)
             << "unsupported register type '." << decl.type << "'";
    for (const std::string &name : decl.names) {
      if (varScopes.back().count(name))
        return error(decl.loc) << "redeclaration of register '" << name << "'";
      varScopes.back()[name] = VarInfo{newVar(t), t, decl.type};
    }
    return success();
  }
  case ptx::Statement::Kind::VarDecl: {
    const ptx::VarDecl &var = *stmt.varDecl;
    if (var.space == "param") {
      // A call's argument/return staging slot: a pseudo-variable.
      Type t = getPTXType(ctx, var.type);
      if (!t || !var.dims.empty()) {
        Type placeholder = IntegerType::get(ctx, M.addressSize);
        varScopes.back()[var.name] =
            VarInfo{newVar(placeholder), placeholder, var.type,
                    /*unmodeled=*/true, /*isParamSlot=*/true};
        return success();
      }
      varScopes.back()[var.name] =
          VarInfo{newVar(t), t, var.type, /*unmodeled=*/false,
                  /*isParamSlot=*/true};
      return success();
    }
    // Function-scope .shared/.local/.global/.const: a module-level symbol.
    OpBuilder b(ctx);
    b.setInsertionPoint(func);
    std::string sym =
        M.uniqueSymbol((func.getSymName() + "." + var.name).str());
    FailureOr<GlobalOp> g = M.importVariable(var, b, sym);
    if (failed(g))
      return failure();
    (*M.localGlobals)[var.name] = *g;
    return success();
  }
  case ptx::Statement::Kind::Block:
    return importBlock(*stmt.block);
  case ptx::Statement::Kind::Pragma:
    return success();
  case ptx::Statement::Kind::Instruction:
    return importInstruction(*stmt.instruction);
  }
  llvm_unreachable("covered switch");
}

LogicalResult
FunctionImporter::importInstruction(const ptx::Instruction &inst) {
  curLoc = M.locOf(inst.loc, inst.debugLoc);
  // Only the first error of one instruction reaches the user: the others
  // (a second undeclared operand, ...) are consumed here.
  bool errorSeen = false;
  ScopedDiagnosticHandler firstErrorOnly(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure(); // propagate
    if (errorSeen)
      return success(); // consumed
    errorSeen = true;
    return failure();
  });
  allowWiderRegisters = inst.opcode == "ld" || inst.opcode == "st" ||
                        inst.opcode == "cvt";
  bool isBranch = inst.opcode == "bra" || inst.opcode == "brx";
  if (!inst.guard || isBranch)
    return importUnguarded(inst);

  ptx::Operand guardOp;
  guardOp.kind = ptx::Operand::Kind::Register;
  guardOp.name = inst.guard->name;
  guardOp.loc = inst.guard->loc;
  FailureOr<Value> p =
      readOperand(guardOp, IntegerType::get(ctx, 1), /*isSigned=*/false);
  if (failed(p))
    return failure();

  // @p on a register-only instruction that raises no obligation: compute
  // it and select, d = p ? new : old. No blocks, so long runs of guarded
  // moves (Triton's masked loads set defaults this way) stay linear.
  static const llvm::StringSet<> selectable = {
      "mov", "add", "sub", "mul", "mad", "mul24", "mad24", "fma", "min",
      "max", "and", "or", "xor", "not", "cnot", "shl", "shr", "selp", "setp",
      "cvt", "cvta", "neg", "abs", "bfe", "bfi", "prmt", "lop3", "shf",
      "popc", "clz", "brev", "testp", "copysign", "ex2", "tanh", "sin",
      "cos"};
  const ptx::Operand *dest =
      inst.operands.empty() ? nullptr : &inst.operands.front();
  if (selectable.contains(inst.opcode) && dest &&
      (dest->kind == ptx::Operand::Kind::Register ||
       dest->kind == ptx::Operand::Kind::Symbol ||
       dest->kind == ptx::Operand::Kind::Vector)) {
    SmallVector<std::pair<std::string, llvm::SMLoc>> names;
    if (dest->kind == ptx::Operand::Kind::Vector) {
      for (const ptx::Operand &e : dest->elements)
        names.push_back({e.name, e.loc});
    } else {
      names.push_back({dest->name, dest->loc});
      if (!dest->secondName.empty())
        names.push_back({dest->secondName, dest->loc});
    }
    bool allRegisters = llvm::all_of(names, [&](auto &n) {
      const VarInfo *v = lookupVar(n.first);
      return v && !v->isParamSlot;
    });
    if (allRegisters) {
      SmallVector<Value> old;
      for (auto &[name, loc] : names)
        old.push_back(readVariable(lookupVar(name)->id, current));
      if (failed(importUnguarded(inst)))
        return failure();
      Value cond = *p;
      if (inst.guard->negated)
        cond = IntUnaryOp::create(builder, curLoc, cond.getType(),
                                  IntUnaryKind::Not, cond);
      for (auto [n, before] : llvm::zip(names, old)) {
        const VarInfo *v = lookupVar(n.first);
        Value after = readVariable(v->id, current);
        if (after == before)
          continue;
        writeVariable(v->id, current,
                      SelpOp::create(builder, curLoc, cond, after, before));
      }
      return success();
    }
  }

  // Any other guarded instruction: branch around it, so a false guard
  // changes nothing (a guarded load does not access memory at all).
  Block *exec = newBlock(), *cont = newBlock();
  if (inst.guard->negated)
    cf::CondBranchOp::create(builder, curLoc, *p, cont, exec);
  else
    cf::CondBranchOp::create(builder, curLoc, *p, exec, cont);
  sealBlock(exec);
  setCurrent(exec);
  if (failed(importUnguarded(inst)))
    return failure();
  if (!isTerminated())
    cf::BranchOp::create(builder, curLoc, cont);
  sealBlock(cont);
  setCurrent(cont);
  return success();
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// The same bits at another type of the same width: a bitcast (made by the
/// importer, so dropped again if unused), or the original value when `v`
/// is itself a bitcast from `type`.
Value FunctionImporter::reinterpret(Value v, Type type) {
  if (auto cast = v.getDefiningOp<BitcastOp>())
    if (cast.getInput().getType() == type)
      return cast.getInput();
  Value r = BitcastOp::create(builder, curLoc, type, v);
  synthetic.insert(r.getDefiningOp());
  return r;
}

/// Adjusts a register value to the type an instruction reads it at (PTX ISA
/// 6.4.2-6.4.3): same width is a reinterpretation; a wider integer register
/// is truncated for bit-size instruction types. Null (with an error) if the
/// register cannot hold an operand of that type.
Value FunctionImporter::convertForRead(Value v, Type type, bool isSigned,
                                       llvm::SMLoc loc, StringRef name) {
  Type from = v.getType();
  if (from == type)
    return v;
  unsigned fw = getWidth(from), tw = getWidth(type);
  if (fw == tw)
    return reinterpret(v, type);
  if (!isFloatLike(from) && !isFloatLike(type) && fw > tw &&
      allowWiderRegisters && !type.isInteger(1) && !from.isInteger(1))
    return CvtOp::create(builder, curLoc, type, v, FloatModeAttr(),
                         /*src_signed=*/false, /*dst_signed=*/false,
                         /*ftz=*/false, /*sat=*/false);
  error(loc) << "type mismatch: register '" << name << "' holds " << fw
             << " bits but the instruction reads it as " << type;
  return Value();
}

/// Adjusts an instruction result to the destination register's type: same
/// width is a reinterpretation; a wider integer register receives the value
/// zero- or sign-extended (PTX ISA 6.4.3).
Value FunctionImporter::convertForWrite(Value v, Type regType, bool isSigned,
                                        llvm::SMLoc loc, StringRef name) {
  Type from = v.getType();
  if (from == regType)
    return v;
  unsigned fw = getWidth(from), tw = getWidth(regType);
  if (fw == tw)
    return reinterpret(v, regType);
  if (!isFloatLike(from) && !isFloatLike(regType) && tw > fw &&
      allowWiderRegisters && !regType.isInteger(1) && !from.isInteger(1))
    return CvtOp::create(builder, curLoc, regType, v, FloatModeAttr(),
                         /*src_signed=*/isSigned, /*dst_signed=*/isSigned,
                         /*ftz=*/false, /*sat=*/false);
  error(loc) << "type mismatch: the instruction writes " << from
             << " to register '" << name << "' of " << tw << " bits";
  return Value();
}

FailureOr<Value> FunctionImporter::readRegister(const ptx::Operand &op,
                                                StringRef name, Type type,
                                                bool isSigned) {
  if (const VarInfo *var = lookupVar(name)) {
    Value v = readVariable(var->id, current);
    Value r = convertForRead(v, type, isSigned, op.loc, name);
    if (!r)
      return failure();
    return r;
  }
  if (std::optional<SpecialReg> sreg = lookupSpecialReg(name)) {
    bool is64 = *sreg == SpecialReg::Clock64 ||
                *sreg == SpecialReg::GlobalTimer ||
                *sreg == SpecialReg::GridId;
    Type t = IntegerType::get(ctx, is64 ? 64 : 32);
    Value v = SRegOp::create(builder, curLoc, t, *sreg);
    Value r = getWidth(type) < getWidth(t)
                  ? convertForRead(v, type, false, op.loc, name)
                  : (getWidth(type) > getWidth(t)
                         ? convertForWrite(v, type, false, op.loc, name)
                         : convertForRead(v, type, false, op.loc, name));
    if (!r)
      return failure();
    return r;
  }
  return error(op.loc) << "use of undeclared register '" << name << "'";
}

/// Special registers the PTX ISA defines that kproof does not model.
static bool isUnmodeledSpecialRegister(StringRef name) {
  return name.starts_with("%envreg") || name.starts_with("%pm") ||
         name.starts_with("%globaltimer_") || name.starts_with("%is_") ||
         name.starts_with("%aggr_smem") ||
         name.starts_with("%reserved_smem") ||
         name.starts_with("%current_graph") || name == "%lanemask";
}

FailureOr<Value> FunctionImporter::readOperand(const ptx::Operand &op,
                                               Type type, bool isSigned) {
  switch (op.kind) {
  case ptx::Operand::Kind::Register: {
    if (!op.secondName.empty())
      return error(op.loc) << "a dual destination '" << op.name << "|"
                           << op.secondName << "' cannot be read";
    FailureOr<Value> v = readRegister(op, op.name, type, isSigned);
    if (failed(v))
      return failure();
    if (op.negated) {
      if (!type.isInteger(1))
        return error(op.loc) << "'!' negates predicates only";
      return Value(
          IntUnaryOp::create(builder, curLoc, type, IntUnaryKind::Not, *v));
    }
    return v;
  }
  case ptx::Operand::Kind::Symbol: {
    StringRef name = op.name;
    if (lookupVar(name) || lookupSpecialReg(name))
      return readRegister(op, name, type, isSigned);
    if (op.negated)
      return error(op.loc) << "'!' applies to predicate registers only";
    // A variable used as a value: its address in its own state space.
    GlobalOp g = M.localGlobals->lookup(name);
    if (!g)
      g = M.globals.lookup(name);
    if (g || M.functions.count(name)) {
      if (!isa<IntegerType>(type) || getWidth(type) < 32)
        return error(op.loc)
               << "the address of '" << name << "' cannot be used as " << type;
      StringRef sym = g ? g.getSymName() : name;
      return Value(AddressOfOp::create(builder, curLoc, type,
                                       FlatSymbolRefAttr::get(ctx, sym)));
    }
    return error(op.loc) << "use of undeclared identifier '" << name << "'";
  }
  case ptx::Operand::Kind::Integer: {
    if (type.isInteger(1)) // any nonzero integer is a true predicate
      return constantInt(type, op.intValue != 0 ? 1 : 0);
    if (isa<IntegerType>(type)) {
      // The literal must fit the instruction type: as an unsigned value
      // (0xffffffff for .s32) or as a signed one (-1 for .u32, two's
      // complement). Anything else would be truncated silently.
      unsigned w = getWidth(type);
      if (w < 64) {
        int64_t lo = -(int64_t(1) << (w - 1));
        int64_t hi = int64_t((uint64_t(1) << w) - 1);
        if (op.intValue < lo || op.intValue > hi)
          return error(op.loc)
                 << "integer immediate " << op.intValue << " does not fit "
                 << w << " bits (the instruction type " << type
                 << " takes " << lo << " to " << hi << ")";
      }
      return constantInt(type, op.intValue);
    }
    // An integer literal in a float instruction: its exact value, if exact.
    auto ft = dyn_cast<FloatType>(type);
    if (!ft)
      return error(op.loc) << "integer immediate for " << type;
    APFloat f(ft.getFloatSemantics());
    APFloat::opStatus st =
        f.convertFromAPInt(APInt(64, op.intValue, true), /*isSigned=*/true,
                           APFloat::rmNearestTiesToEven);
    if (st != APFloat::opOK)
      return error(op.loc) << "integer immediate " << op.intValue
                           << " is not exactly representable as " << type;
    return Value(ConstantOp::create(builder, curLoc, FloatAttr::get(ft, f)));
  }
  case ptx::Operand::Kind::FloatF32:
  case ptx::Operand::Kind::FloatF64: {
    bool isF32 = op.kind == ptx::Operand::Kind::FloatF32;
    APFloat f = isF32 ? APFloat(APFloat::IEEEsingle(),
                                APInt(32, op.floatBits & 0xffffffffu))
                      : APFloat(APFloat::IEEEdouble(), APInt(64, op.floatBits));
    if (auto ft = dyn_cast<FloatType>(type)) {
      bool losesInfo = false;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      return Value(ConstantOp::create(builder, curLoc, FloatAttr::get(ft, f)));
    }
    // Hex float bits in a bit-size instruction (mov.b32 %r, 0f3F800000).
    if (isa<IntegerType>(type) && getWidth(type) == (isF32 ? 32u : 64u))
      return constantInt(type, static_cast<int64_t>(op.floatBits));
    return error(op.loc) << "float immediate for " << type;
  }
  case ptx::Operand::Kind::Sink:
    return error(op.loc) << "the sink '_' cannot be read";
  case ptx::Operand::Kind::Address:
  case ptx::Operand::Kind::Vector:
  case ptx::Operand::Kind::ParenList:
    return error(op.loc) << "expected a register or immediate operand";
  }
  llvm_unreachable("covered switch");
}

LogicalResult FunctionImporter::writeRegister(StringRef name, llvm::SMLoc loc,
                                              Value value, bool isSigned) {
  const VarInfo *var = lookupVar(name);
  if (!var) {
    if (lookupSpecialReg(name))
      return error(loc) << "special register '" << name << "' is read-only";
    return error(loc) << "use of undeclared register '" << name << "'";
  }
  Value v = convertForWrite(value, var->type, isSigned, loc, name);
  if (!v)
    return failure();
  writeVariable(var->id, current, v);
  return success();
}

LogicalResult FunctionImporter::writeOperand(const ptx::Operand &op,
                                             Value value, bool isSigned) {
  switch (op.kind) {
  case ptx::Operand::Kind::Sink:
    return success();
  case ptx::Operand::Kind::Register:
  case ptx::Operand::Kind::Symbol:
    if (op.negated)
      return error(op.loc) << "a destination cannot be negated";
    return writeRegister(op.name, op.loc, value, isSigned);
  default:
    return error(op.loc) << "expected a destination register";
  }
}

/// `[reg]`, `[reg+imm]`, `[var+imm]`, `[imm]`: the base address value (the
/// target's address width, or the register's) and the byte offset.
FailureOr<std::pair<Value, int64_t>>
FunctionImporter::readAddress(const ptx::Operand &op, StateSpace space) {
  if (op.kind != ptx::Operand::Kind::Address)
    return error(op.loc) << "expected an address operand '[...]'";
  if (!op.elements.empty())
    return error(op.loc) << "tensor-map addresses are not modeled";
  Type addrTy = IntegerType::get(ctx, M.addressSize);
  if (op.name.empty())
    return std::make_pair(constantInt(addrTy, op.intValue), int64_t(0));
  if (const VarInfo *var = lookupVar(op.name)) {
    Value v = readVariable(var->id, current);
    if (!isa<IntegerType>(v.getType()) ||
        (getWidth(v.getType()) != 32 && getWidth(v.getType()) != 64))
      return error(op.loc) << "address register '" << op.name
                           << "' must be a 32- or 64-bit integer register";
    return std::make_pair(v, op.intValue);
  }
  GlobalOp g = M.localGlobals->lookup(op.name);
  if (!g)
    g = M.globals.lookup(op.name);
  if (g) {
    Type t = (space == StateSpace::Shared || space == StateSpace::Local)
                 ? Type(IntegerType::get(ctx, 32))
                 : addrTy;
    if (space == StateSpace::Generic)
      t = addrTy;
    Value a = AddressOfOp::create(builder, curLoc, t,
                                  FlatSymbolRefAttr::get(ctx, g.getSymName()));
    // A generic access through a .shared/.local/.const variable's name
    // reaches it through the generic window (PTX ISA 6.4.1).
    if (space == StateSpace::Generic && g.getSpace() != StateSpace::Global)
      a = CvtaOp::create(builder, curLoc, t, g.getSpace(), a, /*to=*/false);
    return std::make_pair(a, op.intValue);
  }
  return error(op.loc) << "use of undeclared identifier '" << op.name << "'";
}

LogicalResult FunctionImporter::emitOpaque(const ptx::Instruction &inst,
                                           bool tier2, StringRef why) {
  if (!tier2) {
    auto diag = mlir::emitWarning(curLoc)
                << "unmodeled PTX instruction '" << inst.opcode;
    for (const std::string &m : inst.modifiers)
      diag << "." << m;
    diag << "'";
    if (!why.empty())
      diag << ": " << why;
  }
  // Every register the instruction names is an input and, conservatively,
  // an output: nothing downstream may assume a value survived it.
  SmallVector<std::pair<std::string, llvm::SMLoc>> regs;
  std::function<void(const ptx::Operand &)> collect =
      [&](const ptx::Operand &op) {
        if ((op.kind == ptx::Operand::Kind::Register ||
             op.kind == ptx::Operand::Kind::Symbol ||
             op.kind == ptx::Operand::Kind::Address) &&
            lookupVar(op.name))
          regs.push_back({op.name, op.loc});
        if (op.kind == ptx::Operand::Kind::Register && !op.secondName.empty() &&
            lookupVar(op.secondName))
          regs.push_back({op.secondName, op.loc});
        for (const ptx::Operand &e : op.elements)
          collect(e);
      };
  for (const ptx::Operand &op : inst.operands)
    collect(op);
  SmallVector<Value> inputs;
  SmallVector<Type> types;
  llvm::StringSet<> seen;
  SmallVector<std::pair<std::string, llvm::SMLoc>> unique;
  for (auto &r : regs)
    if (seen.insert(r.first).second)
      unique.push_back(r);
  for (auto &[name, loc] : unique) {
    const VarInfo *var = lookupVar(name);
    inputs.push_back(readVariable(var->id, current));
    types.push_back(var->type);
  }
  // The PTX text with its whitespace runs collapsed to single spaces.
  std::string text;
  for (char c : inst.text) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      if (!text.empty() && text.back() != ' ')
        text.push_back(' ');
    } else {
      text.push_back(c);
    }
  }
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  auto op = OpaqueOp::create(builder, curLoc, types, text, inst.opcode, inputs,
                             tier2);
  for (auto [i, r] : llvm::enumerate(unique))
    writeVariable(lookupVar(r.first)->id, current, op.getResult(i));
  return success();
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

LogicalResult FunctionImporter::importUnguarded(const ptx::Instruction &inst) {
  StringRef op = inst.opcode;
  Mods mods(inst);

  if (op == "ldmatrix")
    return importLdmatrix(inst, mods);
  if (op == "mma")
    return importMma(inst, mods);
  if (isTier2(inst))
    return emitOpaque(inst, /*tier2=*/true);
  // An instruction reading a special register kproof does not model.
  std::function<bool(const ptx::Operand &)> namesUnmodeled =
      [&](const ptx::Operand &o) {
        if (isUnmodeledSpecialRegister(o.name) && !lookupVar(o.name))
          return true;
        return llvm::any_of(o.elements, namesUnmodeled);
      };
  if (llvm::any_of(inst.operands, namesUnmodeled))
    return emitOpaque(inst, false, "special register not modeled");
  // A kernel parameter's name used as a value (its address in the .param
  // space, as nvcc emits for __grid_constant__) is not modeled.
  if (op != "ld" && op != "st" && op != "call" &&
      llvm::any_of(inst.operands, [&](const ptx::Operand &o) {
        return o.kind == ptx::Operand::Kind::Symbol && params.count(o.name) &&
               !lookupVar(o.name);
      }))
    return emitOpaque(inst, false, "address of a kernel parameter");

  LogicalResult result = success();
  bool handled = true;
  if (op == "mov")
    result = importMov(inst, mods);
  else if (op == "ld" || op == "ldu")
    result = importLoadStore(inst, mods, /*isLoad=*/true);
  else if (op == "st")
    result = importLoadStore(inst, mods, /*isLoad=*/false);
  else if (op == "setp")
    result = importSetp(inst, mods);
  else if (op == "cvt")
    result = importCvt(inst, mods);
  else if (op == "bar" || op == "barrier")
    result = importBarrier(inst, mods);
  else if (op == "atom")
    result = importAtom(inst, mods, /*isRed=*/false);
  else if (op == "red")
    result = importAtom(inst, mods, /*isRed=*/true);
  else if (op == "call")
    result = importCall(inst, mods);
  else if (op == "cp")
    result = importCpAsync(inst, mods);
  else if (op == "mbarrier")
    result = importMBarrier(inst, mods);
  else if (op == "bra") {
    mods.take("uni");
    if (failed(expectOperands(inst, 1)))
      return failure();
    const ptx::Operand &t = inst.operands[0];
    Block *target = lookupLabel(t.name);
    if (t.kind != ptx::Operand::Kind::Symbol || !target)
      return error(t.loc) << "branch to unknown label '" << t.name << "'";
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (inst.guard) {
      ptx::Operand g;
      g.kind = ptx::Operand::Kind::Register;
      g.name = inst.guard->name;
      g.loc = inst.guard->loc;
      FailureOr<Value> p = readOperand(g, IntegerType::get(ctx, 1));
      if (failed(p))
        return failure();
      Block *fall = newBlock();
      if (inst.guard->negated)
        cf::CondBranchOp::create(builder, curLoc, *p, fall, target);
      else
        cf::CondBranchOp::create(builder, curLoc, *p, target, fall);
      sealBlock(fall);
      setCurrent(fall);
    } else {
      cf::BranchOp::create(builder, curLoc, target);
      startDeadBlock();
    }
    return success();
  } else if (op == "ret" || op == "exit") {
    mods.take("uni");
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (op == "exit") {
      ExitOp::create(builder, curLoc);
    } else {
      SmallVector<Value> rets;
      for (auto &[name, info] : returnVars)
        rets.push_back(readVariable(info.id, current));
      ReturnOp::create(builder, curLoc, rets);
    }
    startDeadBlock();
    return success();
  } else if (op == "trap") {
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    TrapOp::create(builder, curLoc);
    return success();
  } else if (op == "membar" || op == "fence") {
    std::optional<std::string> level;
    bool sc = true;
    MemScope scope;
    if (op == "membar") {
      level = mods.takeOneOf({"cta", "gl", "sys"});
      if (!level)
        return emitOpaque(inst, false, "unknown membar level");
      scope = *level == "cta"  ? MemScope::CTA
              : *level == "gl" ? MemScope::GPU
                               : MemScope::Sys;
    } else {
      std::optional<std::string> sem = mods.takeOneOf({"sc", "acq_rel"});
      // Without .sem, fence is fence.acq_rel (PTX ISA 9.7.13.4).
      sc = sem && *sem == "sc";
      std::optional<std::string> s =
          mods.takeOneOf({"cta", "cluster", "gpu", "sys"});
      if (!s)
        return emitOpaque(inst, false, "fence without a scope");
      scope = *symbolizeMemScope(*s);
    }
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    FenceOp::create(builder, curLoc, sc, scope);
    return success();
  } else if (op == "shfl") {
    if (!mods.take("sync"))
      return emitOpaque(inst, false, "shfl without .sync is not modeled");
    std::optional<std::string> mode =
        mods.takeOneOf({"up", "down", "bfly", "idx"});
    bool b32 = mods.take("b32");
    if (!mode || !b32)
      return error(inst.loc) << "shfl.sync needs a mode and the .b32 type";
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 5)))
      return failure();
    Type i32 = IntegerType::get(ctx, 32);
    SmallVector<Value> in;
    for (int k = 1; k < 5; ++k) {
      FailureOr<Value> v = readOperand(inst.operands[k], i32);
      if (failed(v))
        return failure();
      in.push_back(*v);
    }
    auto shfl = ShflOp::create(builder, curLoc, *symbolizeShflMode(*mode),
                               in[0], in[1], in[2], in[3]);
    const ptx::Operand &d = inst.operands[0];
    ptx::Operand first = d;
    first.secondName.clear();
    if (failed(writeOperand(first, shfl.getResult())))
      return failure();
    if (!d.secondName.empty() &&
        failed(writeRegister(d.secondName, d.loc, shfl.getInRange(), false)))
      return failure();
    return success();
  } else if (op == "vote") {
    if (!mods.take("sync"))
      return emitOpaque(inst, false, "vote without .sync is not modeled");
    std::optional<std::string> mode =
        mods.takeOneOf({"all", "any", "uni", "ballot"});
    std::optional<std::string> ty = mods.takeOneOf({"pred", "b32"});
    if (!mode || !ty)
      return error(inst.loc) << "vote.sync needs a mode and a type";
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 3)))
      return failure();
    FailureOr<Value> p =
        readOperand(inst.operands[1], IntegerType::get(ctx, 1));
    FailureOr<Value> mask =
        readOperand(inst.operands[2], IntegerType::get(ctx, 32));
    if (failed(p) || failed(mask))
      return failure();
    Type rt = *mode == "ballot" ? Type(IntegerType::get(ctx, 32))
                                : Type(IntegerType::get(ctx, 1));
    Value v = VoteOp::create(builder, curLoc, rt, *symbolizeVoteMode(*mode), *p,
                             *mask);
    return writeOperand(inst.operands[0], v);
  } else if (op == "activemask") {
    if (!mods.take("b32") || mods.firstUnused())
      return error(inst.loc) << "expected activemask.b32";
    if (failed(expectOperands(inst, 1)))
      return failure();
    Value v = ActiveMaskOp::create(builder, curLoc, IntegerType::get(ctx, 32));
    return writeOperand(inst.operands[0], v);
  } else if (op == "redux") {
    // redux.sync.op.type d, a, membermask (PTX ISA 9.7.13.12).
    if (!mods.take("sync"))
      return error(inst.loc) << "redux needs .sync";
    std::optional<std::string> kind =
        mods.takeOneOf({"add", "min", "max", "and", "or", "xor"});
    std::optional<std::string> ty =
        mods.takeOneOf({"u32", "s32", "b32", "f32"});
    if (!kind || !ty)
      return error(inst.loc) << "redux.sync needs an operation and a type";
    if (*ty == "f32")
      return emitOpaque(inst, false,
                        "redux.sync on .f32 (sm_100a) is not modeled");
    bool bitwise = *kind == "and" || *kind == "or" || *kind == "xor";
    if (bitwise != (*ty == "b32"))
      return error(inst.loc)
             << "redux.sync." << *kind << " takes "
             << (bitwise ? ".b32" : ".u32 or .s32") << ", not ." << *ty;
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 3)))
      return failure();
    Type i32 = IntegerType::get(ctx, 32);
    FailureOr<Value> a = readOperand(inst.operands[1], i32);
    FailureOr<Value> mask = readOperand(inst.operands[2], i32);
    if (failed(a) || failed(mask))
      return failure();
    bool isSigned = *ty == "s32" && (*kind == "min" || *kind == "max");
    Value v = ReduxOp::create(builder, curLoc, i32, *symbolizeReduxKind(*kind),
                              isSigned, *a, *mask);
    return writeOperand(inst.operands[0], v);
  } else if (op == "match") {
    // match.any.sync.type d, a, membermask; match.all.sync.type d{|p}, a,
    // membermask (PTX ISA 9.7.13.10).
    std::optional<std::string> mode = mods.takeOneOf({"any", "all"});
    bool sync = mods.take("sync");
    std::optional<std::string> ty = mods.takeOneOf({"b32", "b64"});
    if (!mode || !sync || !ty)
      return error(inst.loc)
             << "expected match.any.sync or match.all.sync with .b32 or .b64";
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 3)))
      return failure();
    const ptx::Operand &d = inst.operands[0];
    if (*mode == "any" && !d.secondName.empty())
      return error(d.loc) << "match.any.sync has no predicate destination";
    FailureOr<Value> a = readOperand(
        inst.operands[1], IntegerType::get(ctx, *ty == "b32" ? 32 : 64));
    FailureOr<Value> mask =
        readOperand(inst.operands[2], IntegerType::get(ctx, 32));
    if (failed(a) || failed(mask))
      return failure();
    auto m = MatchOp::create(builder, curLoc, IntegerType::get(ctx, 32),
                             IntegerType::get(ctx, 1),
                             *symbolizeMatchMode(*mode), *a, *mask);
    ptx::Operand first = d;
    first.secondName.clear();
    if (failed(writeOperand(first, m.getResult())))
      return failure();
    if (!d.secondName.empty() &&
        failed(writeRegister(d.secondName, d.loc, m.getAllEqual(), false)))
      return failure();
    return success();
  } else if (op == "elect") {
    // elect.sync d|p, membermask (PTX ISA 9.7.13.14); d may be the sink.
    if (!mods.take("sync"))
      return error(inst.loc) << "elect needs .sync";
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 2)))
      return failure();
    const ptx::Operand &d = inst.operands[0];
    if (d.secondName.empty())
      return error(d.loc) << "elect.sync needs a destination 'd|p'";
    FailureOr<Value> mask =
        readOperand(inst.operands[1], IntegerType::get(ctx, 32));
    if (failed(mask))
      return failure();
    auto e = ElectOp::create(builder, curLoc, IntegerType::get(ctx, 32),
                             IntegerType::get(ctx, 1), *mask);
    ptx::Operand first = d;
    first.secondName.clear();
    if (failed(writeOperand(first, e.getLeader())))
      return failure();
    return writeRegister(d.secondName, d.loc, e.getIsLeader(), false);
  } else if (op == "createpolicy") {
    if (inst.operands.empty())
      return error(inst.loc) << "createpolicy needs a destination";
    SmallVector<Value> in;
    for (size_t k = 1; k < inst.operands.size(); ++k) {
      const ptx::Operand &o = inst.operands[k];
      if (o.kind == ptx::Operand::Kind::FloatF32 ||
          o.kind == ptx::Operand::Kind::FloatF64)
        continue; // the fraction immediate: a hint
      FailureOr<Value> v = readOperand(o, IntegerType::get(ctx, 64));
      if (failed(v))
        return failure();
      in.push_back(*v);
    }
    SmallVector<StringRef> quals;
    for (const std::string &m : inst.modifiers)
      quals.push_back(m);
    Value v = CreatePolicyOp::create(builder, curLoc, IntegerType::get(ctx, 64),
                                     in, builder.getStrArrayAttr(quals));
    return writeOperand(inst.operands[0], v);
  } else {
    handled = false;
  }
  if (handled)
    return result;

  // Arithmetic: the type suffix decides integer or float.
  static const llvm::StringSet<> arith = {
      "add",  "sub", "mul",      "mad",   "mul24", "mad24", "div",
      "rem",  "min", "max",      "abs",   "neg",   "and",   "or",
      "xor",  "not", "cnot",     "shl",   "shr",   "popc",  "clz",
      "brev", "bfe", "bfi",      "prmt",  "lop3",  "shf",   "selp",
      "fma",  "rcp", "sqrt",     "rsqrt", "ex2",   "lg2",   "tanh",
      "sin",  "cos", "copysign", "testp", "cvta",  "bar"};
  if (arith.contains(op)) {
    SmallVector<std::string> types;
    for (const std::string &m : inst.modifiers)
      if (isTypeName(m))
        types.push_back(m);
    if (op == "cvta") {
      bool to = mods.take("to");
      std::optional<std::string> space = mods.takeOneOf(
          {"global", "shared", "local", "const", "param", "shared::cta"});
      std::optional<std::string> ty = mods.takeOneOf({"u32", "u64"});
      if (!space || !ty)
        return error(inst.loc) << "expected cvta{.to}.space.{u32,u64}";
      if (auto m = mods.firstUnused())
        return emitOpaque(inst, false, "unknown qualifier ." + *m);
      if (failed(expectOperands(inst, 2)))
        return failure();
      Type t = getPTXType(ctx, *ty);
      FailureOr<Value> a = readOperand(inst.operands[1], t);
      if (failed(a))
        return failure();
      StringRef sp = *space == "shared::cta" ? "shared" : StringRef(*space);
      Value v =
          CvtaOp::create(builder, curLoc, t, *symbolizeStateSpace(sp), *a, to);
      return writeOperand(inst.operands[0], v);
    }
    if (types.size() != 1)
      return emitOpaque(inst, false,
                        "a form with " + std::to_string(types.size()) +
                            " type suffixes");
    StringRef type = types[0];
    if (isFloatTypeName(type) && op != "selp" && op != "testp")
      return importFloatArith(inst, mods, type);
    return importIntArith(inst, mods, type);
  }
  return emitOpaque(inst, /*tier2=*/false);
}

LogicalResult FunctionImporter::importMov(const ptx::Instruction &inst,
                                          Mods &mods) {
  SmallVector<std::string> types = mods.takeTypes();
  if (types.size() != 1)
    return error(inst.loc) << "mov expects exactly one type suffix";
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  if (failed(expectOperands(inst, 2)))
    return failure();
  Type t = getPTXType(ctx, types[0]);
  if (!t)
    return emitOpaque(inst, false, "unsupported type ." + types[0]);
  const ptx::Operand &d = inst.operands[0], &a = inst.operands[1];
  // Unpack: mov.b32 {lo, hi}, r  (the first element gets the low bits).
  if (d.kind == ptx::Operand::Kind::Vector) {
    if (!isa<IntegerType>(t) || d.elements.empty())
      return error(d.loc) << "vector unpack needs a .b type";
    unsigned w = getWidth(t) / d.elements.size();
    if (w * d.elements.size() != getWidth(t) || (w != 8 && w != 16 && w != 32))
      return error(d.loc) << "cannot unpack " << getWidth(t) << " bits into "
                          << d.elements.size() << " registers";
    FailureOr<Value> src = readOperand(a, t);
    if (failed(src))
      return failure();
    SmallVector<Type> parts(d.elements.size(), IntegerType::get(ctx, w));
    auto unpack = UnpackOp::create(builder, curLoc, parts, *src);
    for (auto [e, v] : llvm::zip(d.elements, unpack.getResults()))
      if (failed(writeOperand(e, v)))
        return failure();
    return success();
  }
  // Pack: mov.b32 r, {lo, hi}.
  if (a.kind == ptx::Operand::Kind::Vector) {
    if (!isa<IntegerType>(t) || a.elements.empty())
      return error(a.loc) << "vector pack needs a .b type";
    unsigned w = getWidth(t) / a.elements.size();
    if (w * a.elements.size() != getWidth(t) || (w != 8 && w != 16 && w != 32))
      return error(a.loc) << "cannot pack " << a.elements.size()
                          << " registers into " << getWidth(t) << " bits";
    SmallVector<Value> parts;
    for (const ptx::Operand &e : a.elements) {
      FailureOr<Value> v = readOperand(e, IntegerType::get(ctx, w));
      if (failed(v))
        return failure();
      parts.push_back(*v);
    }
    Value v = PackOp::create(builder, curLoc, t, parts);
    return writeOperand(d, v);
  }
  FailureOr<Value> v = readOperand(a, t, isSignedTypeName(types[0]));
  if (failed(v))
    return failure();
  return writeOperand(d, *v, isSignedTypeName(types[0]));
}

LogicalResult FunctionImporter::importLoadStore(const ptx::Instruction &inst,
                                                Mods &mods, bool isLoad) {
  bool nc = isLoad && inst.opcode != "ldu" && mods.take("nc");
  if (inst.opcode == "ldu")
    return emitOpaque(inst, false, "ldu is not modeled");
  std::optional<std::string> spaceName = mods.takeOneOf(
      {"global", "shared", "shared::cta", "shared::cluster", "local", "param",
       "const", "param::entry", "param::func"});
  MemSemantics sem = MemSemantics::Weak;
  if (mods.take("volatile"))
    sem = MemSemantics::Volatile;
  else if (auto s = mods.takeOneOf(
               {"relaxed", "acquire", "release", "weak", "mmio"})) {
    if (*s == "mmio")
      return emitOpaque(inst, false, ".mmio is not modeled");
    sem = *symbolizeMemSemantics(*s);
  }
  std::optional<MemScope> scope;
  if (auto s = mods.takeOneOf({"cta", "cluster", "gpu", "sys"}))
    scope = *symbolizeMemScope(*s);
  unsigned vec = 1;
  if (mods.take("v2"))
    vec = 2;
  else if (mods.take("v4"))
    vec = 4;
  else if (mods.take("v8"))
    return emitOpaque(inst, false, ".v8 accesses are not modeled");
  SmallVector<StringRef> cache = mods.takeCacheQualifiers();
  bool hasPolicy = llvm::is_contained(cache, "L2::cache_hint");
  SmallVector<std::string> types = mods.takeTypes();
  if (types.size() != 1)
    return error(inst.loc) << (isLoad ? "ld" : "st")
                           << " expects exactly one type suffix";
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  Type t = getPTXType(ctx, types[0]);
  if (!t || t.isInteger(1))
    return emitOpaque(inst, false, "unsupported type ." + types[0]);
  bool isSigned = isSignedTypeName(types[0]);
  size_t expected = hasPolicy ? 3 : 2;
  if (failed(expectOperands(inst, expected)))
    return failure();

  StateSpace space = StateSpace::Generic;
  if (spaceName) {
    StringRef s = *spaceName;
    if (s == "shared::cta")
      s = "shared";
    else if (s == "shared::cluster")
      s = "shared_cluster";
    else if (s.starts_with("param"))
      s = "param";
    space = *symbolizeStateSpace(s);
  }
  const ptx::Operand &addrOp = inst.operands[isLoad ? 1 : 0];
  const ptx::Operand &dataOp = inst.operands[isLoad ? 0 : 1];

  // .param accesses: kernel/function parameters and call staging slots.
  if (space == StateSpace::Param) {
    if (addrOp.kind != ptx::Operand::Kind::Address || addrOp.name.empty())
      return emitOpaque(inst, false, "indirect .param access");
    // Only parameter names and .param slots: a register as the address is
    // an indirect access (a pointer into the parameter space).
    const VarInfo *slot = lookupVar(addrOp.name);
    if ((slot && !slot->isParamSlot) ||
        (!slot && !params.count(addrOp.name)))
      return emitOpaque(inst, false, "indirect .param access");
    if (sem != MemSemantics::Weak || nc || !cache.empty() || hasPolicy)
      return emitOpaque(inst, false,
                        "qualifiers on a .param access are not modeled");
    if (isUnmodeledParam(addrOp.name))
      return emitOpaque(inst, false, "array-typed .param '" + addrOp.name +
                                         "'");
    if (vec != 1 || addrOp.intValue != 0)
      return emitOpaque(inst, false,
                        "a .param access at an offset or of a vector is not "
                        "modeled");
    if (isLoad) {
      auto pit = params.find(addrOp.name);
      if (pit != params.end()) {
        if (pit->second.isArray)
          return emitOpaque(inst, false, "array-typed parameter");
        Value v = pit->second.value;
        Value r = convertForRead(v, t, isSigned, addrOp.loc, addrOp.name);
        if (!r)
          return failure();
        return writeOperand(dataOp, r, isSigned);
      }
      const VarInfo *var = lookupVar(addrOp.name);
      if (!var)
        return error(addrOp.loc)
               << "use of undeclared parameter '" << addrOp.name << "'";
      Value v = readVariable(var->id, current);
      Value r = convertForRead(v, t, isSigned, addrOp.loc, addrOp.name);
      if (!r)
        return failure();
      return writeOperand(dataOp, r, isSigned);
    }
    const VarInfo *var = lookupVar(addrOp.name);
    if (!var) {
      if (params.count(addrOp.name))
        return emitOpaque(inst, false, "a store to a function parameter");
      return error(addrOp.loc)
             << "use of undeclared parameter '" << addrOp.name << "'";
    }
    FailureOr<Value> v = readOperand(dataOp, t, isSigned);
    if (failed(v))
      return failure();
    Value w = convertForWrite(*v, var->type, isSigned, dataOp.loc, addrOp.name);
    if (!w)
      return failure();
    writeVariable(var->id, current, w);
    return success();
  }

  FailureOr<std::pair<Value, int64_t>> addr = readAddress(addrOp, space);
  if (failed(addr))
    return failure();
  Value policy;
  if (hasPolicy) {
    FailureOr<Value> p =
        readOperand(inst.operands[2], IntegerType::get(ctx, 64));
    if (failed(p))
      return failure();
    policy = *p;
  }
  ArrayAttr cacheAttr =
      cache.empty() ? ArrayAttr() : builder.getStrArrayAttr(cache);
  MemScopeAttr scopeAttr =
      scope ? MemScopeAttr::get(ctx, *scope) : MemScopeAttr();

  // The data: one register or a brace list of `vec` registers.
  SmallVector<const ptx::Operand *> elems;
  if (dataOp.kind == ptx::Operand::Kind::Vector) {
    for (const ptx::Operand &e : dataOp.elements)
      elems.push_back(&e);
  } else {
    elems.push_back(&dataOp);
  }
  if (elems.size() != vec)
    return error(dataOp.loc) << "expected " << vec << " register(s) for a "
                             << (vec == 1 ? "scalar" : "vector")
                             << " access, got " << elems.size();
  if (isLoad) {
    SmallVector<Type> resultTypes(vec, t);
    auto ld = LoadOp::create(builder, curLoc, resultTypes, addr->first, policy,
                             StateSpaceAttr::get(ctx, space),
                             builder.getI64IntegerAttr(addr->second),
                             MemSemanticsAttr::get(ctx, sem), scopeAttr, nc ? builder.getUnitAttr() : UnitAttr(),
                             cacheAttr);
    for (auto [e, v] : llvm::zip(elems, ld.getResults()))
      if (failed(writeOperand(*e, v, isSigned)))
        return failure();
    return success();
  }
  SmallVector<Value> values;
  for (const ptx::Operand *e : elems) {
    FailureOr<Value> v = readOperand(*e, t, isSigned);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  StoreOp::create(builder, curLoc, addr->first, values, policy,
                  StateSpaceAttr::get(ctx, space),
                  builder.getI64IntegerAttr(addr->second),
                  MemSemanticsAttr::get(ctx, sem), scopeAttr, cacheAttr);
  return success();
}

//===----------------------------------------------------------------------===//
// Warp-level matrix instructions: ldmatrix and mma.sync
//===----------------------------------------------------------------------===//
//
// Both are collectives of the 32 lanes of a warp (.sync.aligned: every lane
// executes the same instruction, convergently) whose results are fixed
// functions of the other lanes' operands, given by the fragment layouts of
// PTX ISA 9.7.14.5.8 (mma.m16n8k8 / m16n8k16 with .f16/.bf16 inputs) and
// 9.7.14.5.15 (ldmatrix). Each is imported as that function: shfl.sync.idx
// over the full warp brings a named lane's register (which carries the
// convergence obligations of a full-warp collective), ld.shared reads a row
// element, fma accumulates. With g = laneid >> 2 and t = laneid & 3:
//
//  - ldmatrix.m8n8.xN.b16: lanes 8i..8i+7 give the row addresses of matrix
//    i (16-byte aligned rows of 16 bytes: each is read whole once, for the
//    alignment, bounds and race obligations); lane l receives, in its register
//    i, the 32-bit word at byte 4t of row g (two b16 elements, column 2t in the
//    low half). With .trans the halves are rows 2t and 2t + 1 of column g (byte
//    2g of those rows, read as half g & 1 of the 32-bit word at byte 4 (g >>
//    1)).
//  - mma.m16n8kK.row.col.f32.T.T.f32 (T = f16 or bf16): register r of A
//    holds A[g + 8 (r & 1)][2t + h + 8 (r >> 1)] in its half h; register r
//    of B holds B[2t + h + 8r][g]; accumulator element i is
//    C[g + 8 (i >> 1)][2t + (i & 1)]. D = A B + C, the products summed in
//    order of k (exact in the reals model; the tensor core's internal
//    rounding is the interpreter's IEEE approximation).

Value FunctionImporter::shuffleFromLane(Value v, Value src) {
  Type i32 = IntegerType::get(ctx, 32);
  Value clamp = constantInt(i32, 0x1f), mask = constantInt(i32, -1);
  auto one = [&](Value x) {
    return ShflOp::create(builder, curLoc, ShflMode::Idx, x, src, clamp, mask)
        .getResult();
  };
  if (v.getType().isInteger(32))
    return one(v);
  // A 64-bit address: its two halves.
  auto parts = UnpackOp::create(builder, curLoc, TypeRange{i32, i32}, v);
  Value lo = one(parts.getResult(0)), hi = one(parts.getResult(1));
  return PackOp::create(builder, curLoc, v.getType(), ValueRange{lo, hi});
}

LogicalResult FunctionImporter::importLdmatrix(const ptx::Instruction &inst,
                                               Mods &mods) {
  // ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 d, [a]
  if (!mods.take("sync") || !mods.take("aligned") || !mods.take("m8n8"))
    return emitOpaque(inst, /*tier2=*/true);
  std::optional<std::string> num = mods.takeOneOf({"x1", "x2", "x4"});
  bool trans = mods.take("trans");
  std::optional<std::string> spaceName =
      mods.takeOneOf({"shared", "shared::cta"});
  if (!num || !mods.take("b16"))
    return emitOpaque(inst, /*tier2=*/true);
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  if (failed(expectOperands(inst, 2)))
    return failure();
  unsigned n = (*num)[1] - '0';
  SmallVector<const ptx::Operand *> dests;
  if (inst.operands[0].kind == ptx::Operand::Kind::Vector)
    for (const ptx::Operand &e : inst.operands[0].elements)
      dests.push_back(&e);
  else
    dests.push_back(&inst.operands[0]);
  if (dests.size() != n)
    return error(inst.operands[0].loc)
           << "ldmatrix ." << *num << " expects " << n
           << " destination register(s), got " << dests.size();
  StateSpace space = spaceName ? StateSpace::Shared : StateSpace::Generic;
  FailureOr<std::pair<Value, int64_t>> addr =
      readAddress(inst.operands[1], space);
  if (failed(addr))
    return failure();
  Type i16 = IntegerType::get(ctx, 16), i32 = IntegerType::get(ctx, 32);
  Type at = addr->first.getType();
  auto c32 = [&](int64_t v) { return constantInt(i32, v); };
  auto bin = [&](IntBinKind k, Value a, Value b) -> Value {
    return IntBinOp::create(builder, curLoc, a.getType(), k, a, b, false,
                            false);
  };
  auto shl = [&](Value a, unsigned k) -> Value {
    return ShiftOp::create(builder, curLoc, a.getType(), ShiftKind::Shl, a,
                           c32(k), false);
  };
  auto shr = [&](Value a, unsigned k) -> Value {
    return ShiftOp::create(builder, curLoc, a.getType(), ShiftKind::Shr, a,
                           c32(k), false);
  };
  // `bytes` (i32) added to a row address of the address type.
  auto offsetBy = [&](Value rowAddr, Value bytes) -> Value {
    if (at.isInteger(64))
      bytes = CvtOp::create(builder, curLoc, at, bytes, FloatModeAttr(),
                            /*src_signed=*/false, /*dst_signed=*/false,
                            /*ftz=*/false, /*sat=*/false);
    return bin(IntBinKind::Add, rowAddr, bytes);
  };
  auto load = [&](Value a, Type t) -> Value {
    return LoadOp::create(builder, curLoc, TypeRange{t}, a, Value(),
                          StateSpaceAttr::get(ctx, space),
                          builder.getI64IntegerAttr(addr->second),
                          MemSemanticsAttr::get(ctx, MemSemantics::Weak),
                          MemScopeAttr(), UnitAttr(), ArrayAttr())
        .getResult(0);
  };
  Value lane = SRegOp::create(builder, curLoc, i32, SpecialReg::LaneId);
  Value g = shr(lane, 2), t = bin(IntBinKind::And, lane, c32(3));
  // Each row is read whole, 16 bytes at a 16-byte aligned address: the
  // lane giving a row address reads its row (for .x1/.x2 the other lanes
  // read the row of lane laneid % (8 N)); the alignment, bounds and race
  // obligations are those of that read, its value unused.
  Value own = n == 4 ? addr->first
                     : shuffleFromLane(addr->first, bin(IntBinKind::And, lane,
                                                        c32(8 * n - 1)));
  LoadOp::create(builder, curLoc, TypeRange{i32, i32, i32, i32}, own, Value(),
                 StateSpaceAttr::get(ctx, space),
                 builder.getI64IntegerAttr(addr->second),
                 MemSemanticsAttr::get(ctx, MemSemantics::Weak), MemScopeAttr(),
                 UnitAttr(), ArrayAttr());
  for (unsigned i = 0; i < n; ++i) {
    Value d;
    if (!trans) {
      Value row =
          shuffleFromLane(addr->first, bin(IntBinKind::Add, g, c32(8 * i)));
      d = load(offsetBy(row, shl(t, 2)), i32);
    } else {
      // Element g of a row is half g & 1 of its 32-bit word g >> 1 (rows
      // are 16-byte aligned, checked by the row read above), so that a row
      // stored in 32-bit words is read at their width.
      Value odd =
          CmpOp::create(builder, curLoc, CmpPredicate::Ne,
                        bin(IntBinKind::And, g, c32(1)), c32(0), false, false);
      Value word = shl(shr(g, 1), 2);
      SmallVector<Value, 2> halves;
      for (unsigned h = 0; h < 2; ++h) {
        Value row = shuffleFromLane(
            addr->first, bin(IntBinKind::Add, shl(t, 1), c32(8 * i + h)));
        auto parts = UnpackOp::create(builder, curLoc, TypeRange{i16, i16},
                                      load(offsetBy(row, word), i32));
        halves.push_back(SelpOp::create(
            builder, curLoc, i16, odd, parts.getResult(1), parts.getResult(0)));
      }
      d = PackOp::create(builder, curLoc, i32, halves);
    }
    if (failed(writeOperand(*dests[i], d)))
      return failure();
  }
  return success();
}

LogicalResult FunctionImporter::importMma(const ptx::Instruction &inst,
                                          Mods &mods) {
  // mma.sync.aligned.m16n8k{8,16}.row.col.f32.{f16,bf16}.{f16,bf16}.f32
  //   {d0..d3}, {a..}, {b..}, {c0..c3}
  if (!mods.take("sync") || !mods.take("aligned"))
    return emitOpaque(inst, /*tier2=*/true);
  std::optional<std::string> shape = mods.takeOneOf({"m16n8k8", "m16n8k16"});
  bool rowCol = mods.take("row") && mods.take("col");
  SmallVector<std::string> types = mods.takeTypes();
  if (!shape || !rowCol || types.size() != 4 || types[0] != "f32" ||
      types[3] != "f32" || types[1] != types[2] ||
      (types[1] != "f16" && types[1] != "bf16"))
    return emitOpaque(inst, /*tier2=*/true);
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, /*tier2=*/true);
  if (failed(expectOperands(inst, 4)))
    return failure();
  unsigned kDim = *shape == "m16n8k8" ? 8 : 16;
  unsigned aRegs = kDim / 4, bRegs = kDim / 8;
  auto list =
      [&](const ptx::Operand &o, unsigned want,
          StringRef what) -> FailureOr<SmallVector<const ptx::Operand *>> {
    SmallVector<const ptx::Operand *> out;
    if (o.kind == ptx::Operand::Kind::Vector)
      for (const ptx::Operand &e : o.elements)
        out.push_back(&e);
    if (out.size() != want)
      return error(o.loc) << "mma." << *shape << " expects " << want
                          << " registers for " << what << ", got "
                          << out.size();
    return out;
  };
  auto dOps = list(inst.operands[0], 4, "D");
  auto aOps = list(inst.operands[1], aRegs, "A");
  auto bOps = list(inst.operands[2], bRegs, "B");
  auto cOps = list(inst.operands[3], 4, "C");
  if (failed(dOps) || failed(aOps) || failed(bOps) || failed(cOps))
    return failure();
  Type i16 = IntegerType::get(ctx, 16), i32 = IntegerType::get(ctx, 32),
       f32 = Float32Type::get(ctx);
  Type elem = types[1] == "bf16" ? Type(BFloat16Type::get(ctx))
                                 : Type(Float16Type::get(ctx));
  SmallVector<Value> a, b, c;
  for (const ptx::Operand *o : *aOps) {
    FailureOr<Value> v = readOperand(*o, i32);
    if (failed(v))
      return failure();
    a.push_back(*v);
  }
  for (const ptx::Operand *o : *bOps) {
    FailureOr<Value> v = readOperand(*o, i32);
    if (failed(v))
      return failure();
    b.push_back(*v);
  }
  for (const ptx::Operand *o : *cOps) {
    FailureOr<Value> v = readOperand(*o, f32);
    if (failed(v))
      return failure();
    c.push_back(*v);
  }
  auto c32 = [&](int64_t v) { return constantInt(i32, v); };
  auto bin = [&](IntBinKind k, Value x, Value y) -> Value {
    return IntBinOp::create(builder, curLoc, i32, k, x, y, false, false);
  };
  auto shl = [&](Value x, unsigned k) -> Value {
    return ShiftOp::create(builder, curLoc, i32, ShiftKind::Shl, x, c32(k),
                           false);
  };
  // The two elements of a packed register, as f32.
  auto halves = [&](Value packed) {
    auto parts = UnpackOp::create(builder, curLoc, TypeRange{i16, i16}, packed);
    std::array<Value, 2> out;
    for (unsigned h = 0; h < 2; ++h) {
      Value e = BitcastOp::create(builder, curLoc, elem, parts.getResult(h));
      out[h] = CvtOp::create(builder, curLoc, f32, e, FloatModeAttr(), false,
                             false, false, false);
    }
    return out;
  };
  Value lane = SRegOp::create(builder, curLoc, i32, SpecialReg::LaneId);
  Value quad = bin(IntBinKind::And, lane, c32(~3));
  Value t8 = shl(bin(IntBinKind::And, lane, c32(3)), 3);
  // A's register r of lane 4g + tp (this lane's row group), as halves.
  SmallVector<std::array<std::array<Value, 2>, 4>> aFrom(aRegs);
  for (unsigned r = 0; r < aRegs; ++r)
    for (unsigned tp = 0; tp < 4; ++tp)
      aFrom[r][tp] =
          halves(shuffleFromLane(a[r], bin(IntBinKind::Or, quad, c32(tp))));
  // B's register r of lane 4 (2t + j) + tp (this lane's column 2t + j).
  SmallVector<std::array<std::array<std::array<Value, 2>, 4>, 2>> bFrom(bRegs);
  for (unsigned r = 0; r < bRegs; ++r)
    for (unsigned j = 0; j < 2; ++j)
      for (unsigned tp = 0; tp < 4; ++tp)
        bFrom[r][j][tp] = halves(
            shuffleFromLane(b[r], bin(IntBinKind::Add, t8, c32(4 * j + tp))));
  FloatModeAttr rn = FloatModeAttr::get(ctx, FloatMode::RN);
  for (unsigned i = 0; i < 4; ++i) {
    unsigned rowHalf = i >> 1, j = i & 1;
    Value acc = c[i];
    for (unsigned k = 0; k < kDim; ++k) {
      unsigned tp = (k & 7) >> 1, h = k & 1;
      Value x = aFrom[rowHalf + 2 * (k >> 3)][tp][h];
      Value y = bFrom[k >> 3][j][tp][h];
      acc = FmaOp::create(builder, curLoc, f32, x, y, acc, rn, false, false);
    }
    if (failed(writeOperand(*(*dOps)[i], acc)))
      return failure();
  }
  return success();
}

LogicalResult FunctionImporter::importIntArith(const ptx::Instruction &inst,
                                               Mods &mods, StringRef typeName) {
  StringRef op = inst.opcode;
  Type t = getPTXType(ctx, typeName);
  if (!t)
    return emitOpaque(inst, false, "unsupported type ." + typeName.str());
  mods.take(typeName);
  bool isSigned = isSignedTypeName(typeName);
  auto operand = [&](size_t i, Type ty) {
    return readOperand(inst.operands[i], ty, isSigned);
  };
  auto finish = [&](Value v) {
    return writeOperand(inst.operands[0], v, isSigned);
  };
  auto unknown = [&]() -> std::optional<std::string> {
    return mods.firstUnused();
  };

  // Binary ops of one width.
  auto binary = [&](IntBinKind kind, bool sat = false) -> LogicalResult {
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 3)))
      return failure();
    FailureOr<Value> a = operand(1, t), b = operand(2, t);
    if (failed(a) || failed(b))
      return failure();
    // Signedness matters only for these; add/sub/and/or/xor wrap alike.
    bool signedMatters = kind == IntBinKind::Div || kind == IntBinKind::Rem ||
                         kind == IntBinKind::Min || kind == IntBinKind::Max ||
                         sat;
    return finish(IntBinOp::create(builder, curLoc, t, kind, *a, *b,
                                   isSigned && signedMatters, sat));
  };

  if (op == "add" || op == "sub") {
    if (mods.take("cc"))
      return emitOpaque(inst, false, "carry (.cc) is not modeled");
    bool sat = mods.take("sat");
    return binary(op == "add" ? IntBinKind::Add : IntBinKind::Sub, sat);
  }
  if (op == "and" || op == "or" || op == "xor")
    return binary(op == "and"  ? IntBinKind::And
                  : op == "or" ? IntBinKind::Or
                               : IntBinKind::Xor);
  if (op == "min" || op == "max") {
    if (mods.take("relu"))
      return emitOpaque(inst, false, ".relu is not modeled");
    return binary(op == "min" ? IntBinKind::Min : IntBinKind::Max);
  }
  if (op == "div" || op == "rem")
    return binary(op == "div" ? IntBinKind::Div : IntBinKind::Rem);
  if (op == "mul" || op == "mad" || op == "mul24" || op == "mad24") {
    bool isMad = op == "mad" || op == "mad24";
    bool is24 = op == "mul24" || op == "mad24";
    std::optional<std::string> part = mods.takeOneOf({"lo", "hi", "wide"});
    if (!part)
      return error(inst.loc) << "'" << op << "' needs .lo, .hi or .wide";
    if (mods.take("cc") || mods.take("sat"))
      return emitOpaque(inst, false, ".cc/.sat forms are not modeled");
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, isMad ? 4 : 3)))
      return failure();
    FailureOr<Value> a = operand(1, t), b = operand(2, t);
    if (failed(a) || failed(b))
      return failure();
    Value prod;
    Type rt = t;
    if (*part == "wide") {
      if (is24)
        return error(inst.loc) << "mul24 has no .wide form";
      rt = IntegerType::get(ctx, 2 * getWidth(t));
      prod = MulWideOp::create(builder, curLoc, rt, *a, *b, isSigned);
    } else {
      IntBinKind kind =
          is24 ? (*part == "lo" ? IntBinKind::Mul24Lo : IntBinKind::Mul24Hi)
               : (*part == "lo" ? IntBinKind::MulLo : IntBinKind::MulHi);
      prod =
          IntBinOp::create(builder, curLoc, t, kind, *a, *b,
                           isSigned && (*part == "hi" || is24), false);
    }
    if (isMad) {
      FailureOr<Value> c = operand(3, rt);
      if (failed(c))
        return failure();
      prod = IntBinOp::create(builder, curLoc, rt, IntBinKind::Add, prod, *c,
                              false, false);
    }
    return finish(prod);
  }
  if (op == "abs" || op == "neg" || op == "not" || op == "cnot" ||
      op == "popc" || op == "clz" || op == "brev") {
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 2)))
      return failure();
    FailureOr<Value> a = operand(1, t);
    if (failed(a))
      return failure();
    IntUnaryKind kind = *symbolizeIntUnaryKind(op);
    Type rt =
        (op == "popc" || op == "clz") ? Type(IntegerType::get(ctx, 32)) : t;
    return finish(IntUnaryOp::create(builder, curLoc, rt, kind, *a));
  }
  if (op == "shl" || op == "shr") {
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 3)))
      return failure();
    FailureOr<Value> a = operand(1, t);
    FailureOr<Value> n =
        readOperand(inst.operands[2], IntegerType::get(ctx, 32));
    if (failed(a) || failed(n))
      return failure();
    return finish(ShiftOp::create(builder, curLoc,
                                  op == "shl" ? ShiftKind::Shl : ShiftKind::Shr,
                                  *a, *n, isSigned && op == "shr"));
  }
  Type i32 = IntegerType::get(ctx, 32);
  if (op == "bfe") {
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 4)))
      return failure();
    FailureOr<Value> a = operand(1, t),
                     pos = readOperand(inst.operands[2], i32),
                     len = readOperand(inst.operands[3], i32);
    if (failed(a) || failed(pos) || failed(len))
      return failure();
    return finish(BfeOp::create(builder, curLoc, *a, *pos, *len, isSigned));
  }
  if (op == "bfi") {
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 5)))
      return failure();
    FailureOr<Value> a = operand(1, t), b = operand(2, t),
                     pos = readOperand(inst.operands[3], i32),
                     len = readOperand(inst.operands[4], i32);
    if (failed(a) || failed(b) || failed(pos) || failed(len))
      return failure();
    return finish(BfiOp::create(builder, curLoc, *a, *b, *pos, *len));
  }
  if (op == "prmt") {
    std::optional<std::string> mode =
        mods.takeOneOf({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"});
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 4)))
      return failure();
    FailureOr<Value> a = operand(1, i32), b = operand(2, i32),
                     c = operand(3, i32);
    if (failed(a) || failed(b) || failed(c))
      return failure();
    return finish(
        PrmtOp::create(builder, curLoc, i32, *a, *b, *c,
                       mode ? builder.getStringAttr(*mode) : StringAttr()));
  }
  if (op == "lop3") {
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 5)))
      return failure();
    const ptx::Operand &lut = inst.operands[4];
    if (lut.kind != ptx::Operand::Kind::Integer)
      return error(lut.loc) << "lop3's immLut must be an immediate";
    FailureOr<Value> a = operand(1, i32), b = operand(2, i32),
                     c = operand(3, i32);
    if (failed(a) || failed(b) || failed(c))
      return failure();
    return finish(Lop3Op::create(builder, curLoc, i32, *a, *b, *c,
                                 builder.getI32IntegerAttr(lut.intValue)));
  }
  if (op == "shf") {
    std::optional<std::string> dir = mods.takeOneOf({"l", "r"});
    std::optional<std::string> clamp = mods.takeOneOf({"wrap", "clamp"});
    if (!dir || !clamp)
      return error(inst.loc) << "shf needs .l/.r and .wrap/.clamp";
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 4)))
      return failure();
    FailureOr<Value> a = operand(1, i32), b = operand(2, i32),
                     c = operand(3, i32);
    if (failed(a) || failed(b) || failed(c))
      return failure();
    return finish(ShfOp::create(builder, curLoc, i32, *a, *b, *c, *dir == "l",
                                *clamp == "clamp"));
  }
  if (op == "selp") {
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 4)))
      return failure();
    FailureOr<Value> a = operand(1, t), b = operand(2, t),
                     c = readOperand(inst.operands[3],
                                     IntegerType::get(ctx, 1));
    if (failed(a) || failed(b) || failed(c))
      return failure();
    return finish(SelpOp::create(builder, curLoc, *c, *a, *b));
  }
  if (op == "testp") {
    std::optional<std::string> kind = mods.takeOneOf(
        {"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
    if (!kind)
      return error(inst.loc) << "testp needs a test";
    if (auto m = unknown())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 2)))
      return failure();
    FailureOr<Value> a = operand(1, t);
    if (failed(a))
      return failure();
    return finish(
        TestpOp::create(builder, curLoc, *symbolizeTestpKind(*kind), *a));
  }
  return emitOpaque(inst, false, "no integer form");
}

LogicalResult FunctionImporter::importFloatArith(const ptx::Instruction &inst,
                                                 Mods &mods,
                                                 StringRef typeName) {
  StringRef op = inst.opcode;
  Type t = getPTXType(ctx, typeName);
  if (!t)
    return emitOpaque(inst, false, "unsupported type ." + typeName.str());
  mods.take(typeName);
  std::optional<std::string> modeName =
      mods.takeOneOf({"rn", "rz", "rm", "rp", "approx", "full"});
  FloatModeAttr mode =
      modeName ? FloatModeAttr::get(ctx, *symbolizeFloatMode(*modeName))
               : FloatModeAttr();
  bool ftz = mods.take("ftz");
  bool sat = mods.take("sat");
  // .NaN exists for min/max only; elsewhere it stays untaken (unmodeled).
  bool nan = (op == "min" || op == "max") && mods.take("NaN");
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  auto finish = [&](Value v) { return writeOperand(inst.operands[0], v); };
  // Operands 1..n-1 of an n-operand instruction, all read at type t.
  auto sources = [&](size_t n) -> FailureOr<SmallVector<Value, 3>> {
    if (failed(expectOperands(inst, n)))
      return failure();
    SmallVector<Value, 3> values;
    for (size_t i = 1; i < n; ++i) {
      FailureOr<Value> v = readOperand(inst.operands[i], t);
      if (failed(v))
        return failure();
      values.push_back(*v);
    }
    return values;
  };

  std::optional<FloatBinKind> bin =
      llvm::StringSwitch<std::optional<FloatBinKind>>(op)
          .Case("add", FloatBinKind::Add)
          .Case("sub", FloatBinKind::Sub)
          .Case("mul", FloatBinKind::Mul)
          .Case("div", FloatBinKind::Div)
          .Case("min", FloatBinKind::Min)
          .Case("max", FloatBinKind::Max)
          .Case("copysign", FloatBinKind::CopySign)
          .Default(std::nullopt);
  if (bin) {
    FailureOr<SmallVector<Value, 3>> v = sources(3);
    if (failed(v))
      return failure();
    auto r = FloatBinOp::create(builder, curLoc, t, *bin, (*v)[0], (*v)[1],
                                mode, ftz, sat, nan);
    if (failed(verify(r)))
      return failure();
    return finish(r);
  }
  if (op == "fma" || op == "mad") {
    FailureOr<SmallVector<Value, 3>> v = sources(4);
    if (failed(v))
      return failure();
    auto r = FmaOp::create(builder, curLoc, t, (*v)[0], (*v)[1], (*v)[2], mode,
                           ftz, sat);
    if (failed(verify(r)))
      return failure();
    return finish(r);
  }
  std::optional<FloatUnaryKind> un =
      llvm::StringSwitch<std::optional<FloatUnaryKind>>(op)
          .Case("neg", FloatUnaryKind::Neg)
          .Case("abs", FloatUnaryKind::Abs)
          .Case("rcp", FloatUnaryKind::Rcp)
          .Case("sqrt", FloatUnaryKind::Sqrt)
          .Case("rsqrt", FloatUnaryKind::Rsqrt)
          .Case("ex2", FloatUnaryKind::Ex2)
          .Case("lg2", FloatUnaryKind::Lg2)
          .Case("tanh", FloatUnaryKind::Tanh)
          .Case("sin", FloatUnaryKind::Sin)
          .Case("cos", FloatUnaryKind::Cos)
          .Default(std::nullopt);
  if (un) {
    FailureOr<SmallVector<Value, 3>> v = sources(2);
    if (failed(v))
      return failure();
    auto r =
        FloatUnaryOp::create(builder, curLoc, t, *un, (*v)[0], mode, ftz, sat);
    if (failed(verify(r)))
      return failure();
    return finish(r);
  }
  return emitOpaque(inst, false, "no float form");
}

LogicalResult FunctionImporter::importSetp(const ptx::Instruction &inst,
                                           Mods &mods) {
  std::optional<std::string> cmp = mods.takeOneOf(
      {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu",
       "ltu", "leu", "gtu", "geu", "num", "nan"});
  std::optional<std::string> boolOp = mods.takeOneOf({"and", "or", "xor"});
  bool ftz = mods.take("ftz");
  SmallVector<std::string> types = mods.takeTypes();
  if (!cmp || types.size() != 1)
    return error(inst.loc) << "setp needs a comparison and one type";
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  if (failed(expectOperands(inst, boolOp ? 4 : 3)))
    return failure();
  Type t = getPTXType(ctx, types[0]);
  if (!t || isa<VectorType>(t))
    return emitOpaque(inst, false, "unsupported setp type ." + types[0]);
  bool isFloat = isFloatLike(t);
  bool isSigned = isSignedTypeName(types[0]);
  StringRef c = *cmp;
  // lo/ls/hi/hs are the unsigned orderings.
  if (c == "lo" || c == "ls" || c == "hi" || c == "hs") {
    if (isFloat)
      return error(inst.loc) << "." << c << " compares unsigned integers";
    c = c == "lo" ? "lt" : c == "ls" ? "le" : c == "hi" ? "gt" : "ge";
    isSigned = false;
  }
  FailureOr<Value> a = readOperand(inst.operands[1], t, isSigned),
                   b = readOperand(inst.operands[2], t, isSigned);
  if (failed(a) || failed(b))
    return failure();
  bool ordering = c == "lt" || c == "le" || c == "gt" || c == "ge";
  auto cmpOp = CmpOp::create(builder, curLoc, *symbolizeCmpPredicate(c), *a,
                             *b, isSigned && !isFloat && ordering, ftz);
  if (failed(verify(cmpOp)))
    return failure();
  Type i1 = IntegerType::get(ctx, 1);
  Value p = cmpOp;
  Value q = IntUnaryOp::create(builder, curLoc, i1, IntUnaryKind::Not, p);
  if (boolOp) {
    FailureOr<Value> cv = readOperand(inst.operands[3], i1);
    if (failed(cv))
      return failure();
    IntBinKind k = *boolOp == "and"  ? IntBinKind::And
                   : *boolOp == "or" ? IntBinKind::Or
                                     : IntBinKind::Xor;
    p = IntBinOp::create(builder, curLoc, i1, k, p, *cv, false, false);
    q = IntBinOp::create(builder, curLoc, i1, k, q, *cv, false, false);
  }
  const ptx::Operand &d = inst.operands[0];
  if (failed(writeOperand(d, p)))
    return failure();
  if (!d.secondName.empty())
    return writeRegister(d.secondName, d.loc, q, false);
  // Without a second destination the negation is dead; drop it.
  if (q.use_empty()) {
    Operation *qop = q.getDefiningOp();
    qop->erase();
  }
  return success();
}

LogicalResult FunctionImporter::importCvt(const ptx::Instruction &inst,
                                          Mods &mods) {
  std::optional<std::string> modeName = mods.takeOneOf(
      {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna"});
  bool ftz = mods.take("ftz");
  bool sat = mods.take("sat");
  bool relu = mods.take("relu");
  bool satfinite = mods.take("satfinite");
  SmallVector<std::string> types = mods.takeTypes();
  if (types.size() != 2)
    return error(inst.loc) << "cvt expects a destination and a source type";
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  Type dt = getPTXType(ctx, types[0]), st = getPTXType(ctx, types[1]);
  if (!dt || !st || dt.isInteger(1) || st.isInteger(1))
    return emitOpaque(inst, false,
                      "conversion ." + types[0] + "." + types[1] +
                          " is not modeled");
  FloatModeAttr mode =
      modeName ? FloatModeAttr::get(ctx, *symbolizeFloatMode(*modeName))
               : FloatModeAttr();
  if (isa<VectorType>(dt)) {
    // cvt.rn.f16x2.f32 d, a, b: a to the upper half.
    if (!st.isF32() || !mode || ftz || sat)
      return emitOpaque(inst, false, "packed conversion form");
    if (failed(expectOperands(inst, 3)))
      return failure();
    FailureOr<Value> a = readOperand(inst.operands[1], st),
                     b = readOperand(inst.operands[2], st);
    if (failed(a) || failed(b))
      return failure();
    Value v = CvtPackOp::create(builder, curLoc, dt, *a, *b, mode.getValue(),
                                relu, satfinite);
    return writeOperand(inst.operands[0], v);
  }
  if (isa<VectorType>(st) || relu || satfinite)
    return emitOpaque(inst, false, "conversion form is not modeled");
  if (failed(expectOperands(inst, 2)))
    return failure();
  bool srcSigned = isSignedTypeName(types[1]) && !isFloatTypeName(types[1]);
  bool dstSigned = isSignedTypeName(types[0]) && !isFloatTypeName(types[0]);
  FailureOr<Value> a = readOperand(inst.operands[1], st, srcSigned);
  if (failed(a))
    return failure();
  // cvt.f32.f32 without a mode is a move (possibly with ftz/sat).
  auto cvt = CvtOp::create(builder, curLoc, dt, *a, mode, srcSigned, dstSigned,
                           ftz, sat);
  if (failed(verify(cvt)))
    return failure();
  return writeOperand(inst.operands[0], cvt, dstSigned);
}

LogicalResult FunctionImporter::importBarrier(const ptx::Instruction &inst,
                                              Mods &mods) {
  // bar{.cta}.{sync,arrive,red} and barrier{.cta}.{sync,arrive,red}{.aligned}
  mods.take("cta");
  std::optional<std::string> kindName =
      mods.takeOneOf({"sync", "arrive", "red"});
  bool aligned = inst.opcode == "bar" || mods.take("aligned");
  if (inst.opcode == "bar" && mods.take("warp")) {
    // bar.warp.sync membermask
    if (!mods.take("sync") && kindName != std::string("sync"))
      return error(inst.loc) << "expected bar.warp.sync";
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 1)))
      return failure();
    FailureOr<Value> mask =
        readOperand(inst.operands[0], IntegerType::get(ctx, 32));
    if (failed(mask))
      return failure();
    WarpSyncOp::create(builder, curLoc, *mask);
    return success();
  }
  if (!kindName) {
    // `bar 0` is an old spelling of bar.sync.
    return emitOpaque(inst, false, "barrier without .sync/.arrive/.red");
  }
  BarrierKind kind = *symbolizeBarrierKind(*kindName);
  Type i32 = IntegerType::get(ctx, 32), i1 = IntegerType::get(ctx, 1);
  Value id, count, pred;
  BarrierRedOpAttr redOp;
  Type resultType;
  size_t first = 0;
  if (kind == BarrierKind::Red) {
    std::optional<std::string> r = mods.takeOneOf({"popc", "and", "or"});
    std::optional<std::string> ty = mods.takeOneOf({"u32", "pred"});
    if (!r || !ty)
      return error(inst.loc)
             << "bar.red needs .popc.u32, .and.pred or .or.pred";
    redOp = BarrierRedOpAttr::get(ctx, *symbolizeBarrierRedOp(*r));
    resultType = *r == "popc" ? i32 : i1;
    first = 1;
    if (inst.operands.size() != 3 && inst.operands.size() != 4)
      return error(inst.loc) << "bar.red expects 3 or 4 operands";
  } else if (inst.operands.empty() || inst.operands.size() > 2) {
    return error(inst.loc) << "'" << inst.opcode << "." << *kindName
                           << "' expects 1 or 2 operands";
  }
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  size_t nIds = inst.operands.size() - first - (kind == BarrierKind::Red);
  FailureOr<Value> idv = readOperand(inst.operands[first], i32);
  if (failed(idv))
    return failure();
  id = *idv;
  if (nIds == 2) {
    FailureOr<Value> c = readOperand(inst.operands[first + 1], i32);
    if (failed(c))
      return failure();
    count = *c;
  }
  if (kind == BarrierKind::Red) {
    FailureOr<Value> p = readOperand(inst.operands.back(), i1);
    if (failed(p))
      return failure();
    pred = *p;
  }
  auto bar = BarrierOp::create(builder, curLoc,
                               resultType ? TypeRange{resultType} : TypeRange{},
                               kind, id, count, pred, redOp, aligned);
  if (failed(verify(bar)))
    return failure();
  if (kind == BarrierKind::Red)
    return writeOperand(inst.operands[0], bar.getResult());
  return success();
}

LogicalResult FunctionImporter::importAtom(const ptx::Instruction &inst,
                                           Mods &mods, bool isRed) {
  std::optional<std::string> spaceName =
      mods.takeOneOf({"global", "shared", "shared::cta", "shared::cluster"});
  MemSemantics sem = MemSemantics::Relaxed;
  if (auto s = mods.takeOneOf({"relaxed", "acquire", "release", "acq_rel"}))
    sem = *symbolizeMemSemantics(*s);
  MemScope scope = MemScope::GPU;
  if (auto s = mods.takeOneOf({"cta", "cluster", "gpu", "sys"}))
    scope = *symbolizeMemScope(*s);
  std::optional<std::string> kindName = mods.takeOneOf(
      {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"});
  // .noftz (f16/bf16 atom.add only) is recorded nowhere yet: leave it
  // untaken so the instruction is unmodeled rather than misread.
  SmallVector<StringRef> cache = mods.takeCacheQualifiers();
  bool hasPolicy = llvm::is_contained(cache, "L2::cache_hint");
  SmallVector<std::string> types = mods.takeTypes();
  if (!kindName || types.size() != 1)
    return error(inst.loc) << "'" << inst.opcode
                           << "' needs an operation and one type";
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  Type t = getPTXType(ctx, types[0]);
  if (!t || isa<VectorType>(t))
    return emitOpaque(inst, false, "unsupported atomic type ." + types[0]);
  AtomKind kind = *symbolizeAtomKind(*kindName);
  bool isCas = kind == AtomKind::Cas;
  size_t expected = (isRed ? 2 : 3) + (isCas ? 1 : 0) + (hasPolicy ? 1 : 0);
  if (failed(expectOperands(inst, expected)))
    return failure();
  StateSpace space = StateSpace::Generic;
  if (spaceName)
    space = *spaceName == "shared::cluster" ? StateSpace::SharedCluster
            : StringRef(*spaceName).starts_with("shared") ? StateSpace::Shared
                                                          : StateSpace::Global;
  size_t a = isRed ? 0 : 1;
  bool isSigned = isSignedTypeName(types[0]);
  FailureOr<std::pair<Value, int64_t>> addr =
      readAddress(inst.operands[a], space);
  FailureOr<Value> b = readOperand(inst.operands[a + 1], t, isSigned);
  if (failed(addr) || failed(b))
    return failure();
  Value swap;
  if (isCas) {
    FailureOr<Value> c = readOperand(inst.operands[a + 2], t, isSigned);
    if (failed(c))
      return failure();
    swap = *c;
  }
  auto atom = AtomOp::create(builder, curLoc, isRed ? Type() : t, kind, space,
                             addr->first, *b, swap, addr->second, sem, scope,
                             isSigned && !isFloatTypeName(types[0]));
  if (failed(verify(atom)))
    return failure();
  if (!isRed)
    return writeOperand(inst.operands[0], atom.getResult(), isSigned);
  return success();
}

LogicalResult FunctionImporter::importMBarrier(const ptx::Instruction &inst,
                                               Mods &mods) {
  std::optional<std::string> kind = mods.takeOneOf(
      {"init", "arrive", "test_wait", "try_wait", "inval", "arrive_drop",
       "expect_tx", "complete_tx", "pending_count"});
  if (!kind)
    return error(inst.loc) << "expected mbarrier.{init,arrive,arrive_drop,"
                              "test_wait,try_wait,inval,expect_tx,"
                              "complete_tx,pending_count}";
  if (*kind == "arrive_drop" || *kind == "expect_tx" ||
      *kind == "complete_tx" || *kind == "pending_count")
    return emitOpaque(inst, /*tier2=*/true);
  // Transaction counts (TMA), arrivals that cannot complete a phase,
  // relaxed ordering and peer CTAs' barriers are not modeled yet.
  for (StringRef m : {"expect_tx", "noComplete", "relaxed", "shared::cluster"})
    if (mods.take(m))
      return emitOpaque(inst, /*tier2=*/true);
  bool isWait = *kind == "test_wait" || *kind == "try_wait";
  bool parity = isWait && mods.take("parity");
  if (*kind == "arrive")
    mods.take("release");
  if (isWait)
    mods.take("acquire");
  MemScope scope = MemScope::CTA;
  if (*kind == "arrive" || isWait)
    if (auto s = mods.takeOneOf({"cta", "cluster"}))
      scope = *symbolizeMemScope(*s);
  if (auto bad = mods.takeOneOf({"global", "local", "const", "param"}))
    return error(inst.loc) << "an mbarrier object is in .shared memory (or a "
                              "generic address of it), not ."
                           << *bad;
  StateSpace space = mods.takeOneOf({"shared", "shared::cta"})
                         ? StateSpace::Shared
                         : StateSpace::Generic;
  SmallVector<std::string> types = mods.takeTypes();
  if (types.size() != 1 || types[0] != "b64")
    return error(inst.loc) << "mbarrier." << *kind << " needs the type .b64";
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
  auto address = [&](size_t k) { return readAddress(inst.operands[k], space); };
  if (*kind == "init" || *kind == "inval") {
    if (failed(expectOperands(inst, *kind == "init" ? 2 : 1)))
      return failure();
    FailureOr<std::pair<Value, int64_t>> a = address(0);
    if (failed(a))
      return failure();
    Operation *op;
    if (*kind == "init") {
      FailureOr<Value> n = readOperand(inst.operands[1], i32);
      if (failed(n))
        return failure();
      op = MBarrierInitOp::create(builder, curLoc, space, a->first, *n,
                                  a->second);
    } else {
      op = MBarrierInvalOp::create(builder, curLoc, space, a->first, a->second);
    }
    return verify(op);
  }
  if (*kind == "arrive") {
    if (inst.operands.size() != 2 && inst.operands.size() != 3)
      return error(inst.loc)
             << "mbarrier.arrive expects a state, an address and an "
                "optional count";
    FailureOr<std::pair<Value, int64_t>> a = address(1);
    if (failed(a))
      return failure();
    Value count;
    if (inst.operands.size() == 3) {
      FailureOr<Value> n = readOperand(inst.operands[2], i32);
      if (failed(n))
        return failure();
      count = *n;
    }
    bool sink = inst.operands[0].kind == ptx::Operand::Kind::Sink;
    auto arrive =
        MBarrierArriveOp::create(builder, curLoc, sink ? Type() : i64, space,
                                 a->first, count, a->second, scope);
    if (failed(verify(arrive)))
      return failure();
    return sink ? success() : writeOperand(inst.operands[0], arrive.getState());
  }
  // test_wait / try_wait: waitComplete, [addr], state|parity{, hint}.
  bool isTry = *kind == "try_wait";
  if (inst.operands.size() != 3 && !(isTry && inst.operands.size() == 4))
    return error(inst.loc) << "mbarrier." << *kind
                           << " expects a predicate, an address, a "
                           << (parity ? "phase parity" : "state")
                           << (isTry ? " and an optional suspend-time hint"
                                     : "");
  FailureOr<std::pair<Value, int64_t>> a = address(1);
  FailureOr<Value> phase = readOperand(inst.operands[2], parity ? i32 : i64);
  if (failed(a) || failed(phase))
    return failure();
  Value hint;
  if (inst.operands.size() == 4) {
    FailureOr<Value> h = readOperand(inst.operands[3], i32);
    if (failed(h))
      return failure();
    hint = *h;
  }
  auto wait = MBarrierWaitOp::create(builder, curLoc, space, a->first, *phase,
                                     hint, a->second, isTry, parity, scope);
  if (failed(verify(wait)))
    return failure();
  return writeOperand(inst.operands[0], wait.getComplete());
}

/// cp.async, cp.async.commit_group, cp.async.wait_group N and
/// cp.async.wait_all (PTX ISA: cp.async). isTier2 sends every other `cp`
/// form here as opaque.
LogicalResult FunctionImporter::importCpAsync(const ptx::Instruction &inst,
                                              Mods &mods) {
  mods.take("async");
  if (mods.take("commit_group")) {
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 0)))
      return failure();
    CpAsyncCommitOp::create(builder, curLoc);
    return success();
  }
  if (mods.take("wait_all")) {
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 0)))
      return failure();
    CpAsyncWaitOp::create(builder, curLoc, IntegerAttr(),
                          builder.getUnitAttr());
    return success();
  }
  if (mods.take("wait_group")) {
    if (auto m = mods.firstUnused())
      return emitOpaque(inst, false, "unknown qualifier ." + *m);
    if (failed(expectOperands(inst, 1)))
      return failure();
    const ptx::Operand &n = inst.operands[0];
    if (n.kind != ptx::Operand::Kind::Integer || n.intValue < 0)
      return error(n.loc) << "cp.async.wait_group expects a non-negative "
                             "integer constant";
    CpAsyncWaitOp::create(builder, curLoc,
                          builder.getI64IntegerAttr(n.intValue), UnitAttr());
    return success();
  }
  // The state spaces in order: destination, then source.
  const std::vector<std::string> &m = inst.modifiers;
  bool ordered = m.size() >= 4 && (m[2] == "shared" || m[2] == "shared::cta") &&
                 m[3] == "global";
  std::optional<std::string> level = mods.takeOneOf({"ca", "cg"});
  std::optional<std::string> dstSpace =
      mods.takeOneOf({"shared", "shared::cta"});
  bool srcGlobal = mods.take("global");
  if (!ordered || !level || !dstSpace || !srcGlobal)
    return error(inst.loc) << "expected cp.async.{ca,cg}.shared{::cta}.global";
  SmallVector<StringRef> cache = mods.takeCacheQualifiers();
  bool hasPolicy = llvm::is_contained(cache, "L2::cache_hint");
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  // [dst], [src], cp-size {, src-size | ignore-src} {, cache-policy}
  size_t n = inst.operands.size();
  if (n < 3 || n > 4 + (hasPolicy ? 1 : 0) || (hasPolicy && n < 4))
    return error(inst.loc) << "cp.async expects [dst], [src], cp-size"
                              "{, src-size}{, cache-policy}, got "
                           << n << " operand(s)";
  const ptx::Operand &size = inst.operands[2];
  if (size.kind != ptx::Operand::Kind::Integer)
    return error(size.loc) << "cp-size must be an integer constant";
  FailureOr<std::pair<Value, int64_t>> dst =
      readAddress(inst.operands[0], StateSpace::Shared);
  FailureOr<std::pair<Value, int64_t>> src =
      readAddress(inst.operands[1], StateSpace::Global);
  if (failed(dst) || failed(src))
    return failure();
  Value srcSize, ignoreSrc, policy;
  size_t policyAt = n;
  if (hasPolicy)
    policyAt = n - 1;
  if (n - (hasPolicy ? 1 : 0) == 4) {
    // src-size (an integer) or ignore-src (a predicate register).
    const ptx::Operand &o = inst.operands[3];
    bool isPred = false;
    if (o.kind == ptx::Operand::Kind::Register)
      if (const VarInfo *v = lookupVar(o.name))
        isPred = v->type.isInteger(1);
    FailureOr<Value> v = readOperand(o, isPred ? IntegerType::get(ctx, 1)
                                               : IntegerType::get(ctx, 32));
    if (failed(v))
      return failure();
    (isPred ? ignoreSrc : srcSize) = *v;
  }
  if (hasPolicy) {
    FailureOr<Value> p =
        readOperand(inst.operands[policyAt], IntegerType::get(ctx, 64));
    if (failed(p))
      return failure();
    policy = *p;
  }
  auto cp = CpAsyncOp::create(
      builder, curLoc, dst->first, src->first, srcSize, ignoreSrc, policy,
      builder.getI64IntegerAttr(size.intValue),
      builder.getI64IntegerAttr(dst->second),
      builder.getI64IntegerAttr(src->second),
      *level == "cg" ? builder.getUnitAttr() : UnitAttr(),
      cache.empty() ? ArrayAttr() : builder.getStrArrayAttr(cache));
  if (failed(cp.verify()))
    return failure();
  return success();
}

LogicalResult FunctionImporter::importCall(const ptx::Instruction &inst,
                                           Mods &mods) {
  mods.take("uni");
  if (auto m = mods.firstUnused())
    return emitOpaque(inst, false, "unknown qualifier ." + *m);
  // call (ret), f, (args)  |  call f, (args)  |  call f  | + prototype
  size_t i = 0;
  const ptx::Operand *rets = nullptr, *args = nullptr;
  if (i < inst.operands.size() &&
      inst.operands[i].kind == ptx::Operand::Kind::ParenList)
    rets = &inst.operands[i++];
  if (i >= inst.operands.size())
    return error(inst.loc) << "call needs a callee";
  const ptx::Operand &calleeOp = inst.operands[i++];
  if (i < inst.operands.size() &&
      inst.operands[i].kind == ptx::Operand::Kind::ParenList)
    args = &inst.operands[i++];
  if (calleeOp.kind != ptx::Operand::Kind::Symbol || lookupVar(calleeOp.name))
    return emitOpaque(inst, false, "indirect calls are not modeled");
  KernelOp callee = M.functions.lookup(calleeOp.name);
  if (!callee)
    return error(calleeOp.loc)
           << "call to undeclared function '" << calleeOp.name << "'";
  if (callee.isEntry())
    return error(calleeOp.loc)
           << "cannot call the kernel '" << calleeOp.name << "'";
  FunctionType ft = callee.getFunctionType();
  size_t nArgs = args ? args->elements.size() : 0;
  size_t nRets = rets ? rets->elements.size() : 0;
  if (nArgs != ft.getNumInputs() || nRets != ft.getNumResults())
    return error(inst.loc) << "call to '" << calleeOp.name << "' passes "
                           << nArgs << " argument(s) and " << nRets
                           << " return slot(s); the function declares "
                           << ft.getNumInputs() << " and "
                           << ft.getNumResults();
  SmallVector<Value> argValues;
  for (size_t k = 0; k < nArgs; ++k) {
    const ptx::Operand &a = args->elements[k];
    if (isUnmodeledParam(a.name))
      return emitOpaque(inst, false, "array-typed .param argument '" + a.name +
                                         "'");
    Type want = ft.getInput(k);
    FailureOr<Value> v;
    if (const VarInfo *var = lookupVar(a.name)) {
      Value raw = readVariable(var->id, current);
      Value r = convertForRead(raw, want, false, a.loc, a.name);
      if (!r)
        return failure();
      v = r;
    } else {
      v = readOperand(a, want);
    }
    if (failed(v))
      return failure();
    argValues.push_back(*v);
  }
  auto call = CallOp::create(builder, curLoc, ft.getResults(),
                             FlatSymbolRefAttr::get(ctx, callee.getSymName()),
                             argValues, ArrayAttr(), ArrayAttr());
  for (size_t k = 0; k < nRets; ++k) {
    const ptx::Operand &r = rets->elements[k];
    if (isUnmodeledParam(r.name))
      continue; // read back only through unmodeled ld.param
    if (failed(writeOperand(r, call.getResult(k))))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

FailureOr<GlobalOp> ModuleImporter::importVariable(const ptx::VarDecl &var,
                                                   OpBuilder &b,
                                                   StringRef symbolName) {
  Location loc = locOf(var.loc);
  Type elem = getPTXType(ctx, var.type);
  if (!elem || isa<VectorType>(elem) || elem.isInteger(1))
    return mlir::emitError(loc)
               << "unsupported variable type '." << var.type << "'",
           failure();
  StringRef spaceName = var.space;
  if (spaceName == "shared::cta")
    spaceName = "shared";
  std::optional<StateSpace> space = symbolizeStateSpace(spaceName);
  if (!space || (*space != StateSpace::Global && *space != StateSpace::Shared &&
                 *space != StateSpace::Const && *space != StateSpace::Local))
    return mlir::emitError(loc) << "unsupported state space '." << var.space
                                << "' for variable '" << var.name << "'",
           failure();
  std::optional<uint64_t> count = var.vectorWidth;
  for (const std::optional<uint64_t> &d : var.dims) {
    if (!d) {
      count = std::nullopt;
      break;
    }
    *count *= *d;
  }
  bool isExtern = var.linkage == "extern";
  if (!count && !isExtern)
    return mlir::emitError(loc)
               << "unsized array '" << var.name << "' must be .extern",
           failure();
  ArrayAttr init;
  bool unmodeledInit = false;
  if (var.hasInit) {
    SmallVector<Attribute> values;
    for (const ptx::Operand &v : var.init) {
      if (v.kind == ptx::Operand::Kind::Integer && isa<IntegerType>(elem)) {
        values.push_back(IntegerAttr::get(
            elem, APInt(getWidth(elem), v.intValue, true, true)));
      } else if ((v.kind == ptx::Operand::Kind::FloatF32 ||
                  v.kind == ptx::Operand::Kind::FloatF64) &&
                 isa<FloatType>(elem)) {
        APFloat f =
            v.kind == ptx::Operand::Kind::FloatF32
                ? APFloat(APFloat::IEEEsingle(),
                          APInt(32, v.floatBits & 0xffffffffu))
                : APFloat(APFloat::IEEEdouble(), APInt(64, v.floatBits));
        bool loses = false;
        f.convert(cast<FloatType>(elem).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &loses);
        values.push_back(FloatAttr::get(elem, f));
      } else {
        unmodeledInit = true;
        break;
      }
    }
    if (!unmodeledInit)
      init = b.getArrayAttr(values);
    else
      mlir::emitWarning(loc) << "initializer of '" << var.name
                             << "' is not modeled; reads of it are unmodeled";
  }
  IntegerAttr countAttr = count ? b.getI64IntegerAttr(*count) : IntegerAttr();
  auto g =
      GlobalOp::create(b, loc, symbolName, *space, elem, countAttr,
                       var.align.value_or(elem.getIntOrFloatBitWidth() / 8
                                              ? elem.getIntOrFloatBitWidth() / 8
                                              : 1),
                       isExtern, init);
  if (unmodeledInit)
    g->setAttr("kproof.unmodeled_init", b.getUnitAttr());
  if (var.name != symbolName)
    g->setAttr("kproof.ptx_name", b.getStringAttr(var.name));
  if (failed(mlir::verify(g)))
    return failure();
  globals[symbolName] = g;
  return g;
}

OwningOpRef<ModuleOp> ModuleImporter::run() {
  unsigned bufferID = sourceMgr.getMainFileID();
  ptxFileName = StringAttr::get(
      ctx, sourceMgr.getMemoryBuffer(bufferID)->getBufferIdentifier());
  bool ok = ptx::parsePTX(sourceMgr, bufferID, ast,
                          [&](llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                              const llvm::Twine &msg) {
                            Location l = locOf(loc);
                            if (kind == llvm::SourceMgr::DK_Error)
                              mlir::emitError(l) << msg.str();
                            else if (kind == llvm::SourceMgr::DK_Warning)
                              mlir::emitWarning(l) << msg.str();
                            else
                              mlir::emitRemark(l) << msg.str();
                          });
  if (!ok)
    return nullptr;

  ctx->loadDialect<KProofDialect, cf::ControlFlowDialect>();
  OwningOpRef<ModuleOp> owned = ModuleOp::create(locOf(ast.loc));
  module = *owned;
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  module->setAttr("kproof.ptx_version", b.getStringAttr(ast.version));
  module->setAttr("kproof.target", b.getStringAttr(ast.target));
  module->setAttr("kproof.address_size", b.getI32IntegerAttr(ast.addressSize));
  if (ast.version.empty() || ast.target.empty()) {
    mlir::emitError(locOf(ast.loc))
        << "not a PTX module: missing "
        << (ast.version.empty() ? ".version" : ".target") << " directive";
    return nullptr;
  }
  addressSize = ast.addressSize;
  if (addressSize != 32 && addressSize != 64) {
    mlir::emitError(locOf(ast.loc))
        << "unsupported .address_size " << addressSize;
    return nullptr;
  }

  for (const ptx::VarDecl &var : ast.globals) {
    if (globals.count(var.name)) {
      mlir::emitError(locOf(var.loc)) << "redefinition of '" << var.name << "'";
      return nullptr;
    }
    if (failed(importVariable(var, b, var.name)))
      return nullptr;
  }

  // Declare every function first (calls may precede definitions); a
  // declaration followed by its definition is one function.
  SmallVector<std::pair<KernelOp, const ptx::Function *>> bodies;
  for (const ptx::Function &f : ast.functions) {
    SmallVector<Type> inputs, results;
    SmallVector<Attribute> argAttrs;
    bool bad = false;
    auto paramType = [&](const ptx::Param &p) -> Type {
      if (!p.dims.empty())
        return IntegerType::get(ctx, addressSize); // by-value array: opaque
      Type t = getPTXType(ctx, p.type);
      if (!t) {
        mlir::emitError(locOf(p.loc))
            << "unsupported parameter type '." << p.type << "'";
        bad = true;
        return IntegerType::get(ctx, 32);
      }
      return t;
    };
    for (const ptx::Param &p : f.params) {
      inputs.push_back(paramType(p));
      SmallVector<NamedAttribute> attrs;
      attrs.push_back(
          b.getNamedAttr("kproof.ptx_type", b.getStringAttr(p.type)));
      attrs.push_back(
          b.getNamedAttr("kproof.param_name", b.getStringAttr(p.name)));
      if (!p.dims.empty())
        attrs.push_back(b.getNamedAttr("kproof.array_bytes",
                                       b.getI64IntegerAttr(p.dims.front())));
      if (!p.ptrSpace.empty())
        attrs.push_back(
            b.getNamedAttr("kproof.ptr_space", b.getStringAttr(p.ptrSpace)));
      argAttrs.push_back(b.getDictionaryAttr(attrs));
    }
    for (const ptx::Param &p : f.returns)
      results.push_back(paramType(p));
    if (bad)
      return nullptr;
    FunctionType type = b.getFunctionType(inputs, results);
    KernelOp existing = functions.lookup(f.name);
    if (existing) {
      if (existing.getFunctionType() != type) {
        mlir::emitError(locOf(f.loc))
            << "'" << f.name << "' redeclared with a different signature";
        return nullptr;
      }
      if (f.body &&
          llvm::any_of(bodies, [&](auto &p) { return p.first == existing; })) {
        mlir::emitError(locOf(f.loc)) << "redefinition of '" << f.name << "'";
        return nullptr;
      }
      if (f.body) {
        existing->setLoc(locOf(f.loc));
        bodies.push_back({existing, &f});
        existing.setSymVisibilityAttr(StringAttr());
      }
      continue;
    }
    if (globals.count(f.name)) {
      mlir::emitError(locOf(f.loc)) << "redefinition of '" << f.name << "'";
      return nullptr;
    }
    auto func = KernelOp::create(
        b, locOf(f.loc), f.name,
        f.isEntry ? FunctionKind::Entry : FunctionKind::Func, type);
    func.setArgAttrsAttr(b.getArrayAttr(argAttrs));
    if (!f.body)
      func.setSymVisibilityAttr(b.getStringAttr("private"));
    for (auto &[name, args] : f.directives) {
      SmallVector<int32_t> vals;
      for (uint64_t v : args)
        vals.push_back(static_cast<int32_t>(v));
      func->setAttr("kproof." + name, b.getDenseI32ArrayAttr(vals));
    }
    if (!f.linkage.empty())
      func->setAttr("kproof.linkage", b.getStringAttr(f.linkage));
    std::string demangled = llvm::demangle(f.name);
    if (demangled != f.name)
      func->setAttr("kproof.demangled", b.getStringAttr(demangled));
    functions[f.name] = func;
    if (f.body)
      bodies.push_back({func, &f});
  }

  for (auto &[func, f] : bodies) {
    llvm::StringMap<GlobalOp> locals;
    localGlobals = &locals;
    FunctionImporter fi(*this, func, *f);
    if (failed(fi.run()))
      return nullptr;
  }
  localGlobals = nullptr;
  if (failed(mlir::verify(module)))
    return nullptr;
  return owned;
}

} // namespace

OwningOpRef<ModuleOp> kproof::importPTX(llvm::SourceMgr &sourceMgr,
                                        MLIRContext *context) {
  ModuleImporter importer(sourceMgr, context);
  return importer.run();
}

