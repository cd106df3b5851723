//===- Contract.cpp - a kproof.contract bound to its kernel ---------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Contract.h"

#include "KProof/Verifier/Rational.h"

using namespace mlir;
using namespace mlir::kproof;
using namespace ::kproof;
using namespace ::kproof::engine;

/// Binds the contract's parameters to the kernel's, by position.
static LogicalResult bindParams(ContractOp contract, KernelOp kernel,
                                TermContext &T, BoundContract &bc) {
  ArrayRef<Type> args = kernel.getArgumentTypes();
  ArrayAttr params = contract.getParams();
  if (args.size() != params.size())
    return contract.emitError("kernel '")
           << kernel.getSymName() << "' has " << args.size()
           << " parameter(s) but the contract binds " << params.size();
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
      for (int64_t e : d.getAs<DenseI64ArrayAttr>("shape").asArrayRef())
        b.shape.push_back(e);
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
    } else {
      v = isa<FloatType>(t) ? T.realVar(name)
                            : T.bvVar(name, t.getIntOrFloatBitWidth());
    }
    bc.buffers.push_back(std::nullopt);
    bc.scalars.push_back(v);
  }
  return success();
}

std::optional<BoundContract>
(::kproof::engine::bindContract)(ModuleOp module, ContractOp contract,
                                 TermContext &T) {
  BoundContract bc;
  bc.kernel = lookupKernel(module, contract.getKernel());
  if (!bc.kernel || !bc.kernel.isEntry() || bc.kernel.getBody().empty()) {
    contract.emitError("no kernel (.entry with a body) named '")
        << contract.getKernel() << "'";
    return std::nullopt;
  }
  if (failed(bindParams(contract, bc.kernel, T, bc)))
    return std::nullopt;

  SpecEnvironment env;
  for (const std::optional<BufferBinding> &b : bc.buffers)
    if (b)
      env.buffers[b->name] = &*b;
  for (auto [i, name] : llvm::enumerate(bc.names))
    if (bc.scalars[i])
      env.scalars[name] = bc.scalars[i];
  bc.spec = buildSpec(contract, contract.getSpec(), env);
  if (!bc.spec)
    return std::nullopt;
  if (std::optional<ArrayAttr> assume = contract.getAssume())
    for (Attribute a : *assume)
      bc.assumptions.push_back(cast<StringAttr>(a).getValue().str());
  bc.launch.dynamicShared = contract.getDynamicShared().value_or(0);
  for (int d = 0; d < 3; ++d) {
    bc.launch.grid[d] = contract.getGrid()[d];
    bc.launch.block[d] = contract.getBlock()[d];
  }
  return bc;
}
