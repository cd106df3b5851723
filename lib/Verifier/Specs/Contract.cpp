//===- Contract.cpp - a kproof.contract bound to its kernel ---------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Specs/Contract.h"

#include "FuncSpec.h"
#include "KProof/Verifier/Terms/Rational.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

/// Binds the contract's parameters to the kernel's, by position.
static LogicalResult
bindParams(ContractOp contract, KernelOp kernel, TermContext &T,
           BoundContract &bc,
           const std::map<std::string, int64_t> *launchValues) {
  ArrayRef<Type> args = kernel.getArgumentTypes();
  ArrayAttr params = contract.getParams();
  if (args.size() != params.size())
    return contract.emitError("kernel '")
           << kernel.getSymName() << "' has " << args.size()
           << " parameter(s) but the contract binds " << params.size();
  // Symbolic sizes first: buffer shapes may name them, before or after.
  for (Attribute a : params) {
    auto d = cast<DictionaryAttr>(a);
    auto r = d.getAs<DenseI64ArrayAttr>("range");
    auto sc = d.getAs<TypeAttr>("scalar");
    if (!r || !sc)
      continue;
    LaunchConfig::SizeParam p;
    p.name = d.getAs<StringAttr>("name").getValue().str();
    p.width = sc.getValue().getIntOrFloatBitWidth();
    p.lo = r[0];
    p.hi = r[1] - 1;
    if (launchValues) {
      auto it = launchValues->find(p.name);
      if (it != launchValues->end()) {
        if (it->second < p.lo || it->second > p.hi)
          return contract.emitError("scalar '")
                 << p.name << "' = " << it->second
                 << " is outside the contract's range [" << r[0] << ", "
                 << r[1] << ")";
        p.value = it->second;
      }
    }
    if (!p.value)
      bc.assumptions.push_back("precondition: '" + p.name + "' is in [" +
                               std::to_string(r[0]) + ", " +
                               std::to_string(r[1]) + ") (contract: range)");
    bc.launch.sizes.push_back(p);
  }
  for (auto [i, a] : llvm::enumerate(params)) {
    auto d = cast<DictionaryAttr>(a);
    std::string name = d.getAs<StringAttr>("name").getValue().str();
    bc.names.push_back(name);
    Type argType = args[i];
    if (auto role = d.getAs<StringAttr>("buffer")) {
      if (!argType.isInteger(64) && !argType.isInteger(32))
        return contract.emitError("param #")
               << i << " '" << name << "' is a buffer, but kernel parameter #"
               << i << " has type " << argType << ", not an address";
      BufferBinding b;
      b.name = name;
      b.role = role.getValue() == "in"    ? BufferBinding::Role::In
               : role.getValue() == "out" ? BufferBinding::Role::Out
                                          : BufferBinding::Role::InOut;
      b.elemType = d.getAs<TypeAttr>("type").getValue();
      if (auto list = d.getAs<ArrayAttr>("shape")) {
        // Launch-dependent extents (verified by ContractOp::verify); the
        // concrete shape holds their upper bounds.
        for (Attribute e : list) {
          if (auto i = dyn_cast<IntegerAttr>(e)) {
            b.shape.push_back(i.getInt());
            b.symbolicDims.push_back("");
            continue;
          }
          StringRef expr = cast<StringAttr>(e).getValue();
          int64_t bound = 1;
          std::string error;
          if (!launchProduct(T, bc.launch, expr, &error, &bound))
            return contract.emitError("param '") << name << "': " << error;
          b.shape.push_back(bound);
          b.symbolicDims.push_back(expr.str());
        }
      } else {
        for (int64_t e : d.getAs<DenseI64ArrayAttr>("shape").asArrayRef())
          b.shape.push_back(e);
      }
      if (auto r = d.getAs<DenseI64ArrayAttr>("range")) {
        b.range = {r[0], r[1]};
        bc.assumptions.push_back(
            "precondition: every element of '" + name + "' is in [" +
            std::to_string(r[0]) + ", " + std::to_string(r[1]) +
            ") (contract: range)");
      }
      if (auto am = d.getAs<StringAttr>("at_most")) {
        b.atMost = am.getValue().str();
        bc.assumptions.push_back("precondition: every element of '" + name +
                                 "' is <= " + b.atMost +
                                 " (contract: at_most)");
      }
      if (auto nf = d.getAs<ArrayAttr>("nonfinite")) {
        std::string list;
        for (Attribute e : nf) {
          b.nonFinite.push_back(cast<StringAttr>(e).getValue().str());
          list += (list.empty() ? "" : ", ") + b.nonFinite.back();
        }
        bc.assumptions.push_back("'" + name + "' may hold " + list +
                                 " entries (contract: nonfinite)");
      }
      bc.buffers.push_back(b);
      bc.scalars.push_back(nullptr);
      continue;
    }
    Type t = d.getAs<TypeAttr>("scalar").getValue();
    bool compatible = t == argType || (isa<IntegerType>(t) &&
                                       isa<IntegerType>(argType) &&
                                       t.getIntOrFloatBitWidth() ==
                                           argType.getIntOrFloatBitWidth());
    if (!compatible)
      return contract.emitError("param #")
             << i << " '" << name << "' has type " << t
             << " but kernel parameter #" << i << " has type " << argType;
    Term v;
    if (Attribute value = d.get("value")) {
      if (auto ia = dyn_cast<IntegerAttr>(value))
        v = T.bv(ia.getValue());
      else if (auto fa = dyn_cast<FloatAttr>(value))
        v = T.real(*Rational::fromAPFloat(fa.getValue()));
      else if (auto sa = dyn_cast<StringAttr>(value)) {
        // The value of a symbolic size (ContractOp::verify), at the
        // scalar's width.
        const LaunchConfig::SizeParam *p = bc.launch.size(sa.getValue());
        if (!p)
          return contract.emitError("param '")
                 << name << "': value \"" << sa.getValue()
                 << "\" names no symbolic size";
        v = bc.launch.sizeTerm(T, *p);
        unsigned w = t.getIntOrFloatBitWidth();
        if (v->getWidth() < w)
          v = T.bvSExt(v, w);
        else if (v->getWidth() > w)
          v = T.bvExtract(v, 0, w);
      }
    } else if (const LaunchConfig::SizeParam *p = bc.launch.size(name)) {
      v = bc.launch.sizeTerm(T, *p);
    } else {
      v = isa<FloatType>(t) ? T.realVar(name)
                            : T.bvVar(name, t.getIntOrFloatBitWidth());
    }
    bc.buffers.push_back(std::nullopt);
    bc.scalars.push_back(v);
  }
  return success();
}

/// Where the contract's source spells param `param` (`name = "y"`): the
/// field a contract error is about. The contract's own location when its
/// file cannot be read or does not show the field.
static Location paramLoc(ContractOp contract, StringRef param) {
  Location fallback = contract.getLoc();
  auto fl = dyn_cast<FileLineColLoc>(fallback);
  if (!fl)
    return fallback;
  auto buffer = llvm::MemoryBuffer::getFile(fl.getFilename().getValue());
  if (!buffer)
    return fallback;
  StringRef text = (*buffer)->getBuffer();
  size_t at = 0;
  for (unsigned line = 1; line < fl.getLine() && at < text.size(); ++at)
    line += text[at] == '\n';
  at = std::min(text.size(), at + fl.getColumn() - 1);
  // Within this contract: up to the next one.
  StringRef rest = text.drop_front(at);
  // (Past the op's own name: the generic form starts `"kproof.contract"`.)
  size_t next = rest.find("kproof.contract", 20);
  if (next != StringRef::npos)
    rest = rest.take_front(next);
  llvm::Regex field("name[ \t\n]*=[ \t\n]*\"" + llvm::Regex::escape(param) +
                    "\"");
  SmallVector<StringRef> match;
  if (!field.match(rest, &match))
    return fallback;
  size_t offset = match[0].data() - text.data();
  unsigned line = 1, col = 1;
  for (size_t k = 0; k < offset; ++k) {
    col = text[k] == '\n' ? 1 : col + 1;
    line += text[k] == '\n';
  }
  return FileLineColLoc::get(fl.getFilename(), line, col);
}

/// Contract mistakes the kernel's code shows (paramAccesses): an `out`
/// buffer no store of the kernel can write through, but that the kernel
/// loads from, is a contract error at the param's field. (One it neither
/// loads nor stores is a kernel that never writes its output: REFUTED by
/// coverage.) When the kernel
/// stores through an `in` buffer instead, the buffers may be swapped, but a
/// kernel that writes its input is also a real bug: the engine refutes that
/// store, and BoundContract::swapHint adds the suggestion to its message.
static LogicalResult checkBufferRoles(ContractOp contract,
                                      BoundContract &bc) {
  SmallVector<bool> isBuffer;
  for (const std::optional<BufferBinding> &b : bc.buffers)
    isBuffer.push_back(b.has_value());
  std::optional<std::vector<ParamAccess>> access =
      paramAccesses(bc.kernel, isBuffer);
  if (!access)
    return success(); // the analysis cannot tell: no claim
  std::string storedInputs;
  for (auto [i, b] : llvm::enumerate(bc.buffers))
    if (b && b->role == BufferBinding::Role::In && i < access->size() &&
        (*access)[i].stored)
      storedInputs += (storedInputs.empty() ? "'" : ", '") + b->name + "'";
  for (auto [i, b] : llvm::enumerate(bc.buffers)) {
    if (!b || b->role != BufferBinding::Role::Out || i >= access->size() ||
        (*access)[i].stored)
      continue;
    // Without a sign of a mix-up (an input stored through, or this output
    // read), a kernel that never writes its output is a kernel bug: the
    // coverage obligation refutes it.
    if (storedInputs.empty() && !(*access)[i].loaded)
      continue;
    if (!storedInputs.empty()) {
      // A kernel that writes an input is a bug class of its own: the
      // engine refutes the store, and its message carries this hint.
      bc.swapHint = "the contract may have the buffers swapped: the kernel "
                    "stores through " +
                    storedInputs + ", declared 'in', and no store writes '" +
                    b->name + "', declared 'out'";
      return success();
    }
    auto diag = mlir::emitError(paramLoc(contract, b->name))
                << "param '" << b->name
                << "' is an 'out' buffer, but no store of kernel '"
                << bc.kernel.getSymName() << "' writes through it"
                << ((*access)[i].loaded ? " (the kernel only loads from it)"
                                        : "");
    diag << "; declare it 'in' if the kernel only reads it, or check the "
            "order of the params (they bind to the kernel's by position)";
    return failure();
  }
  return success();
}

std::optional<BoundContract> kproof::engine::bindContract(
    ModuleOp module, ContractOp contract, TermContext &T,
    const std::map<std::string, int64_t> *launchValues, bool mergeStates) {
  BoundContract bc;
  bc.kernel = lookupKernel(module, contract.getKernel());
  if (!bc.kernel || !bc.kernel.isEntry() || bc.kernel.getBody().empty()) {
    contract.emitError("no kernel (.entry with a body) named '")
        << contract.getKernel() << "'";
    return std::nullopt;
  }
  bc.launch.dynamicShared = contract.getDynamicShared().value_or(0);
  bc.launch.maxThreads = contract.getMaxThreads().value_or(0);
  for (int d = 0; d < 3; ++d) {
    if (auto g = contract.getGridAttr()) {
      bc.launch.grid[d] = g[d];
    } else {
      bc.launch.grid[d] = contract.getGridMaxAttr()[d];
      bc.launch.gridSymbolic[d] = true;
    }
    if (auto b = contract.getBlockAttr()) {
      bc.launch.block[d] = b[d];
    } else {
      bc.launch.block[d] = contract.getBlockMaxAttr()[d];
      bc.launch.blockSymbolic[d] = true;
    }
  }
  if (launchValues && bc.launch.isSymbolic()) {
    // Instantiate: every symbolic extent takes its given value.
    for (int g = 0; g < 2; ++g)
      for (int d = 0; d < 3; ++d) {
        bool &symbolic = g ? bc.launch.gridSymbolic[d]
                           : bc.launch.blockSymbolic[d];
        int64_t &extent = g ? bc.launch.grid[d] : bc.launch.block[d];
        if (!symbolic)
          continue;
        std::string name = (g ? "nctaid." : "ntid.") + std::string(1, "xyz"[d]);
        auto it = launchValues->find(name);
        int64_t v = it == launchValues->end() ? 1 : it->second;
        if (v < 1 || v > extent) {
          contract.emitError("launch extent ")
              << name << " = " << v << " is outside the contract's range [1, "
              << extent << "]";
          return std::nullopt;
        }
        extent = v;
        symbolic = false;
      }
    // The extents are within CUDA's limits, so the block product does
    // not wrap; the launch's total saturates (LaunchConfig::totalThreads).
    uint64_t blockThreads = uint64_t(bc.launch.block[0]) * bc.launch.block[1] *
                            bc.launch.block[2];
    uint64_t total = bc.launch.totalThreads();
    if (blockThreads > 1024 ||
        (bc.launch.maxThreads && total > bc.launch.maxThreads) ||
        total > uint64_t(INT64_MAX)) {
      contract.emitError("the instantiated launch exceeds 1024 threads per "
                         "CTA, the contract's max_threads, or 2^63 - 1 "
                         "threads in all");
      return std::nullopt;
    }
  }
  if (failed(bindParams(contract, bc.kernel, T, bc, launchValues)))
    return std::nullopt;
  if (failed(checkBufferRoles(contract, bc)))
    return std::nullopt;

  SpecEnvironment env;
  env.launch = bc.launch;
  env.mergeStates = mergeStates;
  for (const std::optional<BufferBinding> &b : bc.buffers)
    if (b)
      env.buffers[b->name] = &*b;
  for (auto [i, name] : llvm::enumerate(bc.names))
    if (bc.scalars[i])
      env.scalars[name] = bc.scalars[i];
  DictionaryAttr specAttr = contract.getSpecAttr();
  if (!specAttr) {
    // A --verify-sync contract: nothing to compare (Checker::run refuses
    // --verify-equiv without a spec).
  } else if (auto outputs = specAttr.getAs<ArrayAttr>("outputs")) {
    // A func spec with several results: one spec per output buffer.
    if (!specAttr.get("func") || outputs.empty()) {
      contract.emitError("'outputs' lists the output buffers of a func spec "
                         "(one per result); use 'output' otherwise");
      return std::nullopt;
    }
    llvm::StringSet<> seen;
    for (auto [k, o] : llvm::enumerate(outputs)) {
      auto name = dyn_cast<StringAttr>(o);
      if (!name || !seen.insert(name.getValue()).second) {
        contract.emitError("spec 'outputs' must be distinct buffer names");
        return std::nullopt;
      }
      std::unique_ptr<Spec> s = buildFuncSpec(contract, specAttr, env, k);
      if (!s)
        return std::nullopt;
      bc.specs.push_back(std::move(s));
    }
  } else {
    std::vector<std::unique_ptr<Spec>> specs =
        buildSpecs(contract, specAttr, env);
    if (specs.empty())
      return std::nullopt;
    for (std::unique_ptr<Spec> &s : specs)
      bc.specs.push_back(std::move(s));
  }
  if (std::optional<ArrayAttr> assume = contract.getAssume())
    for (Attribute a : *assume)
      bc.assumptions.push_back(cast<StringAttr>(a).getValue().str());
  if (std::optional<bool> t = contract.getTolerateEqualWrites(); t && *t) {
    bc.tolerateEqualWrites = true;
    bc.assumptions.push_back(
        "write-write races that store equal values are tolerated "
        "(tolerate_equal_writes)");
  }
  if (std::optional<bool> f = contract.getFiniteInputs(); f && *f)
    bc.finiteInputs = true;
  return bc;
}
