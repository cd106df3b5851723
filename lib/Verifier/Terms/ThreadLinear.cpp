//===- ThreadLinear.cpp - offsets as linear forms of thread ids -----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/ThreadLinear.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace kproof;
using namespace kproof::engine;

std::pair<__int128, __int128> engine::rangeOver(const LinearForm &f,
                                                const VarExtents &extents) {
  __int128 lo = f.c0, hi = f.c0;
  for (auto &[v, c] : f.coeffs) {
    auto it = extents.find(v);
    if (it == extents.end())
      continue;
    __int128 span = c * __int128(it->second - 1);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

/// The form of `t` on its own, checked to lie in [0, 2^width) over the
/// ranges (so that the operation above it reads t's exact value).
static bool linearizeInRange(Term t, unsigned width, const VarExtents &extents,
                             LinearForm &out) {
  if (!linearizeOver(t, extents, 1, out))
    return false;
  auto [lo, hi] = rangeOver(out, extents);
  return lo >= 0 && width < 127 && hi < (__int128(1) << width);
}

bool engine::linearizeOver(Term t, const VarExtents &extents, __int128 scale,
                           LinearForm &out) {
  auto addScaled = [&](const LinearForm &f, __int128 m) {
    out.c0 += scale * m * f.c0;
    for (auto &[v, c] : f.coeffs)
      out.coeffs[v] += scale * m * c;
  };
  switch (t->getKind()) {
  case Kind::BVConst:
    if (t->getAPInt().getSignificantBits() > 63)
      return false;
    out.c0 += scale * __int128(t->getAPInt().getSExtValue());
    return true;
  case Kind::BVVar: {
    auto it = extents.find(t);
    if (it == extents.end() || it->second < 1)
      return false;
    out.coeffs[t] += scale;
    return true;
  }
  case Kind::BVAdd:
    return linearizeOver(t->getOperand(0), extents, scale, out) &&
           linearizeOver(t->getOperand(1), extents, scale, out);
  case Kind::BVSub:
    return linearizeOver(t->getOperand(0), extents, scale, out) &&
           linearizeOver(t->getOperand(1), extents, -scale, out);
  case Kind::BVMul:
  case Kind::BVShl: {
    Term k = t->getOperand(1), x = t->getOperand(0);
    if (k->getKind() != Kind::BVConst && t->getKind() == Kind::BVMul)
      std::swap(k, x);
    if (k->getKind() != Kind::BVConst || k->getAPInt().getActiveBits() > 20 ||
        (t->getKind() == Kind::BVShl &&
         k->getAPInt().getZExtValue() >= t->getWidth()))
      return false;
    __int128 m = t->getKind() == Kind::BVMul
                     ? __int128(k->getAPInt().getZExtValue())
                     : (__int128(1) << k->getAPInt().getZExtValue());
    // The operand on its own, so that its wrap-around at this width (as
    // well as the product's) is checked.
    LinearForm f;
    if (!linearizeInRange(x, t->getWidth(), extents, f))
      return false;
    LinearForm scaled;
    scaled.c0 = f.c0 * m;
    for (auto &[v, c] : f.coeffs)
      scaled.coeffs[v] = c * m;
    auto [lo, hi] = rangeOver(scaled, extents);
    if (lo < 0 || hi >= (__int128(1) << t->getWidth()))
      return false;
    addScaled(f, m);
    return true;
  }
  case Kind::BVZExt: {
    LinearForm f;
    if (!linearizeInRange(t->getOperand(0), t->getOperand(0)->getWidth(),
                          extents, f))
      return false;
    addScaled(f, 1);
    return true;
  }
  case Kind::BVExtract: {
    // The low w bits of an operand whose exact value lies in [0, 2^w)
    // (a 64-bit index truncated by cvt.u32.u64): that value itself.
    if (t->getExtractLow() != 0)
      return false;
    LinearForm f;
    if (!linearizeInRange(t->getOperand(0), t->getWidth(), extents, f))
      return false;
    addScaled(f, 1);
    return true;
  }
  default:
    return false;
  }
}

static __int128 absOf(__int128 x) { return x < 0 ? -x : x; }

static __int128 gcdOf(__int128 a, __int128 b) {
  a = absOf(a);
  b = absOf(b);
  while (b != 0) {
    __int128 r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/// The least x >= lo with x = r (mod g), g > 0.
static __int128 firstCongruent(__int128 lo, __int128 r, __int128 g) {
  __int128 d = (r - lo) % g;
  if (d < 0)
    d += g;
  return lo + d;
}

bool engine::disjointForDistinctThreads(const LinearForm &x, uint64_t xBytes,
                                        const LinearForm &y, uint64_t yBytes,
                                        const VarExtents &extents,
                                        llvm::ArrayRef<Term> shared,
                                        llvm::ArrayRef<Term> mustDiffer) {
  if (xBytes == 0 || yBytes == 0)
    return true;
  // diff = x(t1) - y(t2): per variable v, a coefficient on t1's copy and
  // one on t2's (one on the common value for a shared variable).
  auto isShared = [&](Term v) { return llvm::is_contained(shared, v); };
  __int128 c0 = x.c0 - y.c0, lo = c0, hi = c0, g = 0;
  auto add = [&](Term v, __int128 c) {
    if (c == 0)
      return true;
    auto it = extents.find(v);
    if (it == extents.end() || it->second < 1)
      return false;
    __int128 span = c * __int128(it->second - 1);
    (span < 0 ? lo : hi) += span;
    g = gcdOf(g, c);
    return true;
  };
  std::map<Term, __int128, TermIdLess> sharedCoeff;
  for (auto &[v, c] : x.coeffs) {
    if (isShared(v))
      sharedCoeff[v] += c;
    else if (!add(v, c))
      return false;
  }
  for (auto &[v, c] : y.coeffs) {
    if (isShared(v))
      sharedCoeff[v] -= c;
    else if (!add(v, -c))
      return false;
  }
  for (auto &[v, c] : sharedCoeff)
    if (!add(v, c))
      return false;
  // Overlap: diff in [wlo, whi].
  __int128 wlo = 1 - __int128(xBytes), whi = __int128(yBytes) - 1;
  wlo = std::max(wlo, lo);
  whi = std::min(whi, hi);
  if (wlo > whi)
    return true;
  // Candidate differences: c0 + (a multiple of g) in the window.
  llvm::SmallVector<__int128> candidates;
  if (g == 0) {
    if (c0 >= wlo && c0 <= whi)
      candidates.push_back(c0);
  } else {
    for (__int128 d = firstCongruent(wlo, c0, g); d <= whi; d += g) {
      candidates.push_back(d);
      if (candidates.size() > 64)
        return false;
    }
  }
  if (candidates.empty())
    return true;
  // One layout L for both (outside the shared variables): for two
  // distinct threads, L(t1) - L(t2) is 0 only where they agree on L's
  // variables, and at least the smallest |coefficient| otherwise.
  std::map<Term, __int128, TermIdLess> lx, ly;
  for (auto &[v, c] : x.coeffs)
    if (c != 0 && !isShared(v))
      lx[v] = c;
  for (auto &[v, c] : y.coeffs)
    if (c != 0 && !isShared(v))
      ly[v] = c;
  if (lx.empty() || lx != ly)
    return false;
  for (Term v : mustDiffer) {
    auto it = extents.find(v);
    if (it != extents.end() && it->second > 1 && !lx.count(v))
      return false; // the threads may differ only outside L
  }
  llvm::SmallVector<std::pair<__int128, int64_t>> order; // |c|, extent
  for (auto &[v, c] : lx)
    order.push_back({absOf(c), extents.lookup(v)});
  llvm::sort(order, [](auto &a, auto &b) { return a.first > b.first; });
  for (size_t k = 0; k + 1 < order.size(); ++k)
    if (order[k].first < order[k + 1].first * __int128(order[k + 1].second))
      return false;
  __int128 smallest = order.back().first;
  // diff = c0 + (L(t1) - L(t2)) + (shared part, equal in both: 0 when the
  // shared coefficients agree, which lx == ly does not imply).
  for (auto &[v, c] : sharedCoeff)
    if (c != 0)
      return false;
  // A candidate needs L(t1) - L(t2) = d - c0, which is neither 0 nor
  // below the smallest |coefficient| in magnitude.
  return llvm::none_of(candidates, [&](__int128 d) {
    return d != c0 && absOf(d - c0) >= smallest;
  });
}
