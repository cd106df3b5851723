//===- Memory.cpp - regions, addresses, the thread's own memory -----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Memory as one thread sees it: regions (bound buffers, module variables) and
// addresses decomposed into a region and a byte offset (`decomposeAddress`);
// the store chains a load resolves against (`bufferChain` for a contract
// buffer, `scratchChain` for a .local array: the thread's own earlier stores,
// newest first, as a StoreChain, StoreChain.h) and `resolveChain`, which
// resolves the load with StoreChain::load and records its obligations and
// UNKNOWN reason; the obligations of a .local access (PTX ISA 5.4.5 alignment, bounds) and constant
// float bit patterns read as their float value. Shared memory and what other
// threads write are in SharedMemory.cpp.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

//===----------------------------------------------------------------------===//
// Regions and addresses
//===----------------------------------------------------------------------===//

std::optional<Region *> Executor::regionOf(StringRef base) {
  auto it = regions.find(base.str());
  if (it == regions.end())
    return std::nullopt;
  return &it->second;
}

bool Executor::decomposeAddress(Term addr, int64_t extra, std::string &region,
                                Term &byteOffset, Location loc) {
  SmallVector<Term> work{addr};
  Term base = nullptr;
  SmallVector<Term> rest;
  while (!work.empty()) {
    Term t = work.pop_back_val();
    if (t->getKind() == Kind::BVAdd) {
      work.push_back(t->getOperand(0));
      work.push_back(t->getOperand(1));
      continue;
    }
    // A narrowed address (cvta of a 64-bit shared address to 32 bits):
    // shared and local windows are below 2^32, so the low bits are it.
    if (t->getKind() == Kind::BVExtract && t->getExtractLow() == 0 &&
        t->getOperand(0)->getKind() == Kind::BVAdd) {
      work.push_back(t->getOperand(0));
      continue;
    }
    Term inner = (t->getKind() == Kind::BVZExt ||
                  (t->getKind() == Kind::BVExtract && t->getExtractLow() == 0))
                     ? t->getOperand(0)
                     : t;
    if (inner->getKind() == Kind::BVVar && inner->getName().starts_with("&")) {
      if (base) {
        unknown(loc, "address adds two base addresses: " + addr->toString());
        return false;
      }
      base = inner;
      continue;
    }
    rest.push_back(T.bvZExt(t, 64));
  }
  if (!base) {
    unknown(loc, "address does not derive from a bound buffer or variable: " +
                     addr->toString());
    return false;
  }
  Term off = T.bv(APInt(64, extra, /*isSigned=*/true));
  for (Term r : rest)
    off = T.bvBin(Kind::BVAdd, off, r);
  region = base->getName().drop_front().str();
  byteOffset = off;
  if (off->getKind() == Kind::BVConst && off->getAPInt().isNegative()) {
    unknown(loc, "negative offset from " + base->getName());
    return false;
  }
  return true;
}

bool Executor::resolveAccess(Frame &f, Value address, int64_t offset,
                             StateSpace space, Location loc, Term &addr,
                             std::string &region, Term &byteOffset) {
  (void)space;
  SymValue a = get(f, address);
  if (!a.term || a.realBits || a.term->getSort() != Sort::BV) {
    unknown(loc, "an address computed from a real value is not modeled");
    return false;
  }
  addr = a.term;
  return decomposeAddress(addr, offset, region, byteOffset, loc);
}

//===----------------------------------------------------------------------===//
// Symbolic memory: this thread's own stores
//===----------------------------------------------------------------------===//

StoreChain Executor::bufferChain(State &s, const std::string &name,
                                 unsigned elemBytes) {
  StoreChain chain(T);
  for (const SymbolicStore &st : llvm::reverse(s.symbolicStores))
    if (st.buffer == name)
      chain.appendOlder(st.index, 1, st.value, st.loc);
  // Constant-index stores all precede the symbolic ones (a constant store
  // after a symbolic one is refused), and never overlap each other.
  auto it = s.mem.find(name);
  if (it != s.mem.end())
    for (auto &[off, cell] : it->second)
      chain.appendOlder(T.bv(off / elemBytes, 64), 1, cell.value, cell.loc);
  return chain;
}

StoreChain Executor::scratchChain(State &s, const std::string &name) {
  StoreChain chain(T);
  for (const State::ScratchStore &st : llvm::reverse(s.scratchStores))
    if (st.region == name)
      chain.appendOlder(st.offset, st.bytes, st.value, st.loc);
  auto it = s.mem.find(name);
  if (it != s.mem.end())
    for (auto &[off, cell] : it->second)
      chain.appendOlder(T.bv(off, 64), cell.bytes, cell.value, cell.loc);
  return chain;
}

Term Executor::resolveChain(State &s, const StoreChain &chain, Term key,
                            unsigned bytes, Term base, StringRef what,
                            Location loc) {
  StoreChain::Load l = chain.load(key, bytes, base, what, loc, s.pc);
  for (PathObligation &o : l.obligations)
    result.alignments.push_back(std::move(o));
  if (!l.value)
    unknown(loc, l.unknownReason);
  return l.value;
}

void Executor::localBounds(State &s, bool store, const std::string &region,
                           Term o, uint64_t need, uint64_t bytes,
                           Location loc) {
  std::string access = (store ? "store to " : "load from ") + region;
  result.alignments.push_back(
      {s.pc, T.eq(T.bvBin(Kind::BVURem, o, T.bv(need, 64)), T.bv(0, 64)), loc,
       "alignment of the " + access});
  if (bytes)
    result.alignments.push_back(
        {s.pc,
         need > bytes ? T.boolConst(false) : T.bvUle(o, T.bv(bytes - need, 64)),
         loc, access + " inside its " + std::to_string(bytes) + " bytes"});
}

SymValue Executor::floatBits(const Region &r, SymValue v, Location loc) {
  auto ft = dyn_cast_or_null<FloatType>(r.elemType);
  if (ft && v.term && v.realBits && ft.getWidth() == 16 &&
      v.realType != Type(ft)) {
    // f16 bits stored into a bf16 buffer (or the converse) are another
    // value; bits of an unknown 16-bit format are not read as either.
    unknown(loc, v.realType ? "the bits of a real value of one float type "
                              "stored into a buffer of another (bf16 and "
                              "f16)"
                            : "the bits of a 16-bit real value of unknown "
                              "format (f16 or bf16) stored into a float "
                              "buffer");
    return SymValue{};
  }
  if (!ft || !v.term || v.realBits || v.term->getKind() != Kind::BVConst ||
      v.term->getWidth() != ft.getWidth())
    return v;
  APFloat f(ft.getFloatSemantics(), v.term->getAPInt());
  if (f.isInfinity())
    return {f.isNegative() ? T.negInf() : T.posInf(), true};
  if (std::optional<Rational> q = Rational::fromAPFloat(f))
    return {T.real(*q), true};
  return v;
}

SymValue Executor::storedValue(SymValue v, unsigned width, Location loc) {
  if (!v.term || !v.realBits || width != 2)
    return v;
  Term bits = bitsOf(v, 16, loc);
  return bits ? SymValue{bits} : SymValue{};
}

} // namespace kproof::engine::exec
