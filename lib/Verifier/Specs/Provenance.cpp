//===- Provenance.cpp - which pointer parameters a kernel loads and stores -===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A static def-use analysis over a kproof.kernel: the pointer parameters an
// address may derive from (through integer arithmetic, cvta, cvt, selp and
// block arguments), and so which parameters some load reads through and
// some store (st, atom, red) writes through. It over-approximates
// derivation (any op's result derives from every parameter its operands
// derive from), and gives up (std::nullopt) where a store's address could
// come from elsewhere: a value loaded from memory (a spilled or tabled
// pointer, an index table), a parameter-derived value stored to memory, or
// one passed to a call or an unmodeled instruction. The contract checks use it
// to tell a contract whose buffers are swapped from a kernel bug.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Specs/Contract.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

/// Bit 63: "may come from memory or an op not followed".
static constexpr uint64_t kUnknown = uint64_t(1) << 63;

std::optional<std::vector<ParamAccess>>
kproof::engine::paramAccesses(KernelOp kernel, ArrayRef<bool> tracked) {
  Region &body = kernel.getBody();
  if (body.empty())
    return std::nullopt;
  Block &entry = body.front();
  unsigned numParams = entry.getNumArguments();
  if (numParams >= 63)
    return std::nullopt;
  llvm::DenseMap<Value, uint64_t> prov;
  // Only the tracked parameters (the contract's buffers): a scalar's value
  // stored to memory (a scale, an epsilon) is no pointer escaping.
  for (unsigned i = 0; i < numParams; ++i)
    if (i >= tracked.size() || tracked[i])
      prov[entry.getArgument(i)] = uint64_t(1) << i;
  auto of = [&](Value v) -> uint64_t {
    auto it = prov.find(v);
    return it == prov.end() ? 0 : it->second;
  };
  bool escaped = false;
  // Fixpoint over the body: each value's parameters only grow.
  bool changed = true;
  while (changed) {
    changed = false;
    auto join = [&](Value v, uint64_t bits) {
      uint64_t &slot = prov[v];
      if ((slot | bits) != slot) {
        slot |= bits;
        changed = true;
      }
    };
    body.walk([&](Operation *op) {
      uint64_t in = 0;
      for (Value o : op->getOperands())
        in |= of(o);
      if (isa<LoadOp, AtomOp>(op)) {
        // A loaded value may be (part of) a pointer, whatever its type: a
        // u64, a v2.u32 packed back, an f64 bitcast, a u32 under
        // .address_size 32. A store whose address reads one is not followed.
        for (Value r : op->getResults())
          join(r, kUnknown);
      } else if (isa<CallOp, OpaqueOp>(op)) {
        if (in & ~kUnknown)
          escaped = true; // a parameter's pointer goes where we do not look
        for (Value r : op->getResults())
          join(r, kUnknown);
      } else if (!isa<StoreOp>(op)) {
        for (Value r : op->getResults())
          join(r, in);
      }
      if (auto br = dyn_cast<BranchOpInterface>(op))
        for (unsigned s = 0; s < op->getNumSuccessors(); ++s) {
          SuccessorOperands forwarded = br.getSuccessorOperands(s);
          Block *succ = op->getSuccessor(s);
          for (unsigned k = 0; k < forwarded.size(); ++k)
            if (Value v = forwarded[k]; v && k < succ->getNumArguments())
              join(succ->getArgument(k), of(v));
        }
    });
  }
  if (escaped)
    return std::nullopt;
  std::vector<ParamAccess> access(numParams);
  bool unknownStore = false;
  auto mark = [&](uint64_t bits, bool store) {
    if (bits & kUnknown)
      unknownStore |= store;
    for (unsigned i = 0; i < numParams; ++i)
      if (bits & (uint64_t(1) << i))
        (store ? access[i].stored : access[i].loaded) = true;
  };
  body.walk([&](Operation *op) {
    if (auto ld = dyn_cast<LoadOp>(op)) {
      mark(of(ld.getAddr()), /*store=*/false);
    } else if (auto st = dyn_cast<StoreOp>(op)) {
      mark(of(st.getAddr()), /*store=*/true);
      for (Value v : st.getValues())
        if (of(v) & ~kUnknown)
          escaped = true; // a pointer stored to memory
    } else if (auto at = dyn_cast<AtomOp>(op)) {
      mark(of(at.getAddr()), /*store=*/false);
      mark(of(at.getAddr()), /*store=*/true);
      // Both the value and a cas's swap operand are written to memory.
      for (Value v : op->getOperands())
        if (v != at.getAddr() && (of(v) & ~kUnknown))
          escaped = true;
    }
  });
  if (escaped || unknownStore)
    return std::nullopt;
  return access;
}
