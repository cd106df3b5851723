//===- Launch.cpp - concrete and symbolic launch geometry -----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The launch extents as terms (docs/verify-sync.md "The model"): a concrete
// extent is a constant; a symbolic one is the variable `ntid.d` / `nctaid.d`,
// bounded by the contract and by the CUDA launch limits.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Exec/Executor.h"

#include "llvm/ADT/StringExtras.h"

using namespace kproof::engine;
using llvm::StringRef;

static int dimIndex(char c) { return c - 'x'; }

Term LaunchConfig::extent(TermContext &T, StringRef name) const {
  bool ofBlock;
  if (name.consume_front("ntid."))
    ofBlock = true;
  else if (name.consume_front("nctaid."))
    ofBlock = false;
  else
    return nullptr;
  if (name.size() != 1 || name[0] < 'x' || name[0] > 'z')
    return nullptr;
  int d = dimIndex(name[0]);
  bool symbolic = ofBlock ? blockSymbolic[d] : gridSymbolic[d];
  int64_t v = ofBlock ? block[d] : grid[d];
  if (!symbolic || v == 1)
    return T.bv(v, 32);
  return T.bvVar((ofBlock ? "ntid." : "nctaid.") + name.str(), 32);
}

Term LaunchConfig::extentOf(TermContext &T, StringRef var) const {
  if (var.consume_front("tid."))
    return extent(T, ("ntid." + var).str());
  if (var.consume_front("ctaid."))
    return extent(T, ("nctaid." + var).str());
  return nullptr;
}

Term LaunchConfig::sizeTerm(TermContext &T, const SizeParam &p) const {
  if (p.value)
    return T.bv(llvm::APInt(p.width, uint64_t(*p.value), /*isSigned=*/true));
  return T.bvVar(p.name, p.width);
}

Term LaunchConfig::facts(TermContext &T) const {
  llvm::SmallVector<Term> cs;
  for (const SizeParam &p : sizes) {
    if (p.value)
      continue;
    Term v = sizeTerm(T, p);
    cs.push_back(
        T.bvSle(T.bv(llvm::APInt(p.width, uint64_t(p.lo), true)), v));
    cs.push_back(
        T.bvSle(v, T.bv(llvm::APInt(p.width, uint64_t(p.hi), true))));
  }
  if (!isSymbolic())
    return cs.empty() ? T.boolConst(true) : T.andOf(cs);
  static const char *names[2][3] = {{"ntid.x", "ntid.y", "ntid.z"},
                                    {"nctaid.x", "nctaid.y", "nctaid.z"}};
  // The product of the extents, zero-extended to a width where it cannot
  // wrap: each factor is below 2^32, and at most six of them.
  unsigned width = 64;
  {
    llvm::APInt bound(200, 1);
    for (int d = 0; d < 3; ++d)
      bound *= llvm::APInt(200, block[d]) * llvm::APInt(200, grid[d]);
    if (bound.getActiveBits() >= 64)
      width = 128;
  }
  auto product = [&](llvm::ArrayRef<Term> fs) {
    Term p = T.bv(1, width);
    for (Term f : fs)
      p = T.bvBin(Kind::BVMul, p, T.bvZExt(f, width));
    return p;
  };
  llvm::SmallVector<Term> blockDims, all;
  for (int g = 0; g < 2; ++g)
    for (int d = 0; d < 3; ++d) {
      Term e = extent(T, names[g][d]);
      (g == 0 ? blockDims : all).push_back(e);
      bool symbolic = g == 0 ? blockSymbolic[d] : gridSymbolic[d];
      if (!symbolic || e->isConstant())
        continue;
      int64_t bound = g == 0 ? block[d] : grid[d];
      cs.push_back(T.notOf(T.eq(e, T.bv(0, 32))));
      cs.push_back(T.bvUle(e, T.bv(bound, 32)));
    }
  all.append(blockDims.begin(), blockDims.end());
  cs.push_back(T.bvUle(product(blockDims), T.bv(1024, width)));
  if (maxThreads)
    cs.push_back(T.bvUle(product(all), T.bv(maxThreads, width)));
  return T.andOf(cs);
}

Term kproof::engine::launchProduct(TermContext &T, const LaunchConfig &launch,
                                   StringRef expr, std::string *error,
                                   int64_t *bound) {
  Term p = T.bv(1, 64);
  int64_t b = 1;
  llvm::SmallVector<StringRef> factors;
  expr.split(factors, '*');
  for (StringRef f : factors) {
    f = f.trim();
    uint64_t c;
    if (!f.getAsInteger(10, c) && c >= 1) {
      p = T.bvBin(Kind::BVMul, p, T.bv(c, 64));
      b *= int64_t(c);
      continue;
    }
    Term e = launch.extent(T, f);
    if (!e)
      if (const LaunchConfig::SizeParam *sp = launch.size(f)) {
        b *= sp->value ? *sp->value : sp->hi;
        // lo >= 1 (ContractOp::verify): the sign extension is the value.
        p = T.bvBin(Kind::BVMul, p, T.bvSExt(launch.sizeTerm(T, *sp), 64));
        continue;
      }
    if (!e) {
      if (error)
        *error = "'" + f.str() +
                 "' is neither a positive integer, a launch extent "
                 "(ntid.x, ntid.y, ntid.z, nctaid.x, nctaid.y, nctaid.z), "
                 "nor a size parameter (an integer scalar with a range)";
      return nullptr;
    }
    int d = dimIndex(f.back());
    b *= f.starts_with("ntid.") ? launch.block[d] : launch.grid[d];
    p = T.bvBin(Kind::BVMul, p, T.bvZExt(e, 64));
  }
  if (bound)
    *bound = b;
  return p;
}

Term BufferBinding::extent(TermContext &T, const LaunchConfig &launch,
                           unsigned d) const {
  if (d < symbolicDims.size() && !symbolicDims[d].empty())
    if (Term t = launchProduct(T, launch, symbolicDims[d]))
      return t;
  return T.bv(shape[d], 64);
}

Term BufferBinding::numElementsTerm(TermContext &T,
                                    const LaunchConfig &launch) const {
  Term n = T.bv(1, 64);
  for (unsigned d = 0; d < shape.size(); ++d)
    n = T.bvBin(Kind::BVMul, n, extent(T, launch, d));
  return n;
}

std::string BufferBinding::extentText() const {
  if (!isSymbolic())
    return std::to_string(numElements());
  std::string s;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d)
      s += "*";
    s += symbolicDims[d].empty() ? std::to_string(shape[d]) : symbolicDims[d];
  }
  return s;
}

std::string LaunchConfig::describe() const {
  std::string s = "symbolic launch:";
  static const char *xyz = "xyz";
  bool first = true;
  for (int g = 0; g < 2; ++g)
    for (int d = 0; d < 3; ++d) {
      bool symbolic = g == 0 ? blockSymbolic[d] : gridSymbolic[d];
      int64_t v = g == 0 ? block[d] : grid[d];
      std::string name = (g == 0 ? "ntid." : "nctaid.") + std::string(1, xyz[d]);
      if (v == 1)
        continue;
      s += first ? " " : ", ";
      first = false;
      s += symbolic ? name + " in [1, " + std::to_string(v) + "]"
                    : name + " = " + std::to_string(v);
    }
  s += first ? " one thread" : "";
  s += "; at most 1024 threads per CTA";
  if (maxThreads)
    s += "; at most " + std::to_string(maxThreads) + " threads in all";
  return s;
}
