//===- IndexForm.cpp - canonical linear forms of index terms --------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Buffer elements are named by their index term (a Select of the buffer at
// the index), and the normalizer identifies two reads only when their index
// terms are the same hash-consed term. Kernels and specs compute the same
// index in different ways: nvcc scales to bytes and divides back
// (4 * sext(i) / 4), packs a row and a lane with bfi, splits a flat index
// into a row and a column that the spec multiplies out again. This file
// reads an index term as an exact linear form over the integers,
//
//   value(t) = c0 + sum_i c_i * value(a_i),
//
// with an interval [lo, hi] of the value computed from the atoms' ranges
// (their widths, and the upper bounds the checker declares for the thread
// ids). An operation is read into the form only when the interval shows
// that it does not wrap, so the form is exact on every execution within
// the declared bounds; anything else becomes an atom. The form is rebuilt
// with its atoms in creation order, so equal forms give one term.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Terms/Term.h"

#include <map>
#include <numeric>

using namespace ::kproof::engine;

namespace {

using Int = __int128;

/// Values beyond this magnitude are not tracked (the form gives up).
constexpr Int kLimit = Int(1) << 100;

Int pow2(unsigned k) { return Int(1) << k; }

/// a * b and a + b, or nullopt past kLimit in magnitude (or on __int128
/// overflow): the forms give up there rather than wrap (a review found
/// `(x * 0xFFFFFFFFFFFFFFFF) >> 2` read as 0 through a wrapped interval).
std::optional<Int> mulChecked(Int a, Int b) {
  Int r;
  if (__builtin_mul_overflow(a, b, &r) || r > kLimit || r < -kLimit)
    return std::nullopt;
  return r;
}
std::optional<Int> addChecked(Int a, Int b) {
  Int r;
  if (__builtin_add_overflow(a, b, &r) || r > kLimit || r < -kLimit)
    return std::nullopt;
  return r;
}

struct Form {
  unsigned width = 0;
  Int c0 = 0;
  std::map<Term, Int, TermIdLess> coeffs; ///< keyed by term; rebuilt by creation order
  Int lo = 0, hi = 0;         ///< interval of the value
  /// Some coefficient or bound left the tracked range: not exact.
  bool overflow = false;
  bool fits() const {
    return !overflow && lo >= 0 && hi < pow2(width) && hi < kLimit;
  }
  /// x += a * b, recording an overflow.
  void accumulate(Int &x, Int a, Int b) {
    std::optional<Int> m = mulChecked(a, b);
    std::optional<Int> r = m ? addChecked(x, *m) : std::nullopt;
    if (!r) {
      overflow = true;
      return;
    }
    x = *r;
  }
};

class Reader {
public:
  explicit Reader(TermContext &T) : T(T) {}

  /// The form of `t`; an atom when no rule applies.
  Form read(Term t) {
    auto it = memo.find(t);
    if (it != memo.end())
      return it->second;
    Form f = compute(t);
    memo.try_emplace(t, f);
    return f;
  }

  /// The term of a form at width w: c0 + sum c_i * a_i, atoms in creation
  /// order, modulo 2^w (canonicalIndex's spelling; exact when it fits).
  Term rebuild(const Form &f, unsigned w) {
    std::vector<std::pair<Term, Int>> atoms(f.coeffs.begin(), f.coeffs.end());
    std::sort(atoms.begin(), atoms.end(), [](auto &a, auto &b) {
      return a.first->getId() < b.first->getId();
    });
    auto bits = [&](Int v) {
      Int m = v % pow2(w);
      if (m < 0)
        m += pow2(w);
      return llvm::APInt(w, uint64_t(m));
    };
    Term result = nullptr;
    for (auto &[a, c] : atoms) {
      Term x = a->getWidth() == w ? a
               : a->getWidth() < w ? T.bvZExt(a, w)
                                   : T.bvExtract(a, 0, w);
      Term term = c == 1 ? x : T.bvBin(Kind::BVMul, x, T.bv(bits(c)));
      result = result ? T.bvBin(Kind::BVAdd, result, term) : term;
    }
    Term k = T.bv(bits(f.c0));
    return result ? T.bvBin(Kind::BVAdd, result, k) : k;
  }

private:
  TermContext &T;
  llvm::DenseMap<Term, Form> memo;

  /// Intervals of atoms known tighter than their width (a quotient or
  /// remainder of a bounded value: tid.x / 32 <= 1 for tid.x <= 63).
  llvm::DenseMap<Term, std::pair<Int, Int>> atomRanges;

  Form atom(Term t) {
    Form f;
    f.width = t->getWidth();
    f.coeffs[t] = 1;
    f.lo = 0;
    f.hi = t->getWidth() >= 100 ? kLimit : pow2(t->getWidth()) - 1;
    if (t->getKind() == Kind::BVVar) {
      if (std::optional<uint64_t> b = T.upperBound(t->getName()))
        f.hi = std::min<Int>(f.hi, Int(*b));
      if (std::optional<uint64_t> b = T.lowerBound(t->getName()))
        f.lo = std::max<Int>(f.lo, Int(*b));
    }
    auto r = atomRanges.find(t);
    if (r != atomRanges.end()) {
      f.lo = std::max(f.lo, r->second.first);
      f.hi = std::min(f.hi, r->second.second);
    }
    return f;
  }

  /// An atom whose value lies in [lo, hi] (within its width).
  Form boundedAtom(Term t, Int lo, Int hi) {
    // A quotient or remainder its operand's interval pins ((255 - t) / 16
    // = 15 for t <= 15) is that constant.
    if (lo == hi)
      return constant(t->getWidth(), lo);
    atomRanges[t] = {lo, hi};
    return atom(t);
  }

  static Form constant(unsigned width, Int v) {
    Form f;
    f.width = width;
    f.c0 = v;
    f.lo = f.hi = v;
    return f;
  }

  static Form add(const Form &a, const Form &b, Int scaleB) {
    Form f = a;
    f.overflow = a.overflow || b.overflow;
    f.accumulate(f.c0, scaleB, b.c0);
    for (auto &[t, c] : b.coeffs) {
      Int &x = f.coeffs[t];
      f.accumulate(x, scaleB, c);
      if (x == 0)
        f.coeffs.erase(t);
    }
    if (scaleB >= 0) {
      f.accumulate(f.lo, scaleB, b.lo);
      f.accumulate(f.hi, scaleB, b.hi);
    } else {
      f.accumulate(f.lo, scaleB, b.hi);
      f.accumulate(f.hi, scaleB, b.lo);
    }
    return f;
  }

  static Form scale(const Form &a, Int k) {
    Form f = constant(a.width, 0);
    return add(f, a, k);
  }

  /// Splits `a` as q * d + r with r's interval inside [0, d): the forms of
  /// a / d and a % d. False when the split does not exist.
  bool divide(const Form &a, Int d, Form &q, Form &r) {
    if (d <= 0 || a.lo < 0)
      return false;
    q = constant(a.width, 0);
    r = constant(a.width, 0);
    Int c0q = a.c0 >= 0 ? a.c0 / d : -((-a.c0 + d - 1) / d);
    q.c0 = c0q;
    r.c0 = a.c0 - c0q * d;
    Int rlo = r.c0, rhi = r.c0, qlo = c0q, qhi = c0q;
    for (auto &[t, c] : a.coeffs) {
      Form at = atom(t);
      // The atom's own interval, bounded as read.
      Int alo = at.lo, ahi = at.hi;
      if (c % d == 0) {
        Int k = c / d;
        q.coeffs[t] = k;
        q.accumulate(qlo, k, k >= 0 ? alo : ahi);
        q.accumulate(qhi, k, k >= 0 ? ahi : alo);
      } else {
        r.coeffs[t] = c;
        r.accumulate(rlo, c, c >= 0 ? alo : ahi);
        r.accumulate(rhi, c, c >= 0 ? ahi : alo);
      }
    }
    if (a.overflow || q.overflow || r.overflow || rlo < 0 || rhi >= d)
      return false;
    q.lo = qlo;
    q.hi = qhi;
    r.lo = rlo;
    r.hi = rhi;
    return true;
  }

  /// The quotient (or remainder) by `d` of a form that is one atom X
  /// (c0 = 0, coefficient 1), as the atom X / d (X % d) spelled with
  /// bvudiv (bvurem), nested quotients folded ((X / a) / b = X / (a b)),
  /// bounded by X's interval. Null when the form is not a bare atom.
  std::optional<Form> atomQuotient(const Form &fx, Int d, bool quotient) {
    // g x / d with g | d is x / (d / g), and g x % d = g (x % (d / g)),
    // exactly (x >= 0, an atom): the coefficient a shift or a product put
    // there, as in (2 c) & ~127 = 128 (c / 64).
    if (fx.c0 == 0 && fx.coeffs.size() == 1 && fx.coeffs.begin()->second > 1 &&
        d > 1 && d < pow2(62) && fx.fits() && fx.lo >= 0 &&
        d % fx.coeffs.begin()->second == 0) {
      Int g = fx.coeffs.begin()->second;
      Form unit = atom(fx.coeffs.begin()->first);
      unit.lo = std::max(unit.lo, fx.lo / g);
      unit.hi = std::min(unit.hi, fx.hi / g);
      if (d / g == 1)
        return quotient ? unit : constant(unit.width, 0);
      std::optional<Form> r = atomQuotient(unit, d / g, quotient);
      if (!r)
        return std::nullopt;
      return quotient ? *r : scale(*r, g);
    }
    if (fx.c0 != 0 || fx.coeffs.size() != 1 ||
        fx.coeffs.begin()->second != 1 || d <= 1 || d >= pow2(62) ||
        !fx.fits())
      return std::nullopt;
    Term x = fx.coeffs.begin()->first;
    unsigned w = x->getWidth();
    if (quotient && x->getKind() == Kind::BVUDiv)
      if (std::optional<Int> d1 = constOf(x->getOperand(1));
          d1 && *d1 > 0 && *d1 * d < pow2(std::min(w, 62u))) {
        Term y = T.bvBin(Kind::BVUDiv, x->getOperand(0),
                         T.bv(uint64_t(*d1 * d), w));
        return boundedAtom(y, fx.lo / d, fx.hi / d);
      }
    if (d >= pow2(w))
      return std::nullopt;
    Term y = T.bvBin(quotient ? Kind::BVUDiv : Kind::BVURem, x,
                     T.bv(uint64_t(d), w));
    return quotient ? boundedAtom(y, fx.lo / d, fx.hi / d)
                    : boundedAtom(y, 0, std::min(fx.hi, d - 1));
  }

  /// fa * fb as a form of width w: c0a c0b + c0a fb' + c0b fa' + the
  /// monomials ca cb (A * B), each monomial a bounded atom spelled
  /// zext(A) * zext(B) with A before B in creation order. Exact when every
  /// monomial's bound and the result's interval fit in w bits (the caller
  /// checked that the product itself does not wrap). nullopt otherwise, or
  /// past 16 monomials.
  std::optional<Form> multiplyOut(const Form &fa, const Form &fb, unsigned w) {
    if (fa.coeffs.size() * fb.coeffs.size() > 16 ||
        (fa.coeffs.empty() && fb.coeffs.empty()))
      return std::nullopt;
    if (fa.overflow || fb.overflow)
      return std::nullopt;
    std::optional<Int> c00 = mulChecked(fa.c0, fb.c0);
    if (!c00)
      return std::nullopt;
    Form f = constant(w, *c00);
    for (auto &[b, cb] : fb.coeffs) {
      if (!fa.c0)
        continue;
      std::optional<Int> k = mulChecked(fa.c0, cb);
      if (!k)
        return std::nullopt;
      f = add(f, atom(b), *k);
    }
    for (auto &[a, ca] : fa.coeffs) {
      if (!fb.c0)
        continue;
      std::optional<Int> k = mulChecked(fb.c0, ca);
      if (!k)
        return std::nullopt;
      f = add(f, atom(a), *k);
    }
    auto widen = [&](Term x) {
      return x->getWidth() == w ? x : T.bvZExt(x, w);
    };
    for (auto &[a, ca] : fa.coeffs)
      for (auto &[b, cb] : fb.coeffs) {
        Form at = atom(a), bt = atom(b);
        if (at.lo < 0 || bt.lo < 0 || at.hi >= pow2(62) || bt.hi >= pow2(62) ||
            at.hi * bt.hi >= pow2(w) || a->getWidth() > w || b->getWidth() > w)
          return std::nullopt;
        Term x = a, y = b;
        if (y->getId() < x->getId())
          std::swap(x, y);
        Term m = T.bvBin(Kind::BVMul, widen(x), widen(y));
        std::optional<Int> k = mulChecked(ca, cb);
        if (!k)
          return std::nullopt;
        f = add(f, boundedAtom(m, at.lo * bt.lo, at.hi * bt.hi), *k);
      }
    f.width = w;
    if (!f.fits())
      return std::nullopt;
    return f;
  }

  /// k * A - k * (A % d) is k * d * (A / d): nvcc's `n - (n & 3)`, whose
  /// interval as a difference of two atoms reaches below zero, is 4 (n / 4)
  /// (exact for every value of A). The interval is recomputed from the
  /// atoms'.
  Form foldRemainders(Form f) {
    bool changed = false;
    for (auto it = f.coeffs.begin(); it != f.coeffs.end();) {
      Term u = it->first;
      Int cu = it->second;
      std::optional<Int> d =
          u->getKind() == Kind::BVURem ? constOf(u->getOperand(1)) : std::nullopt;
      if (d && *d <= 0)
        d = std::nullopt; // x % 0 is x in SMT-LIB: no remainder to fold
      Term a = d ? u->getOperand(0) : nullptr;
      auto ia = a ? f.coeffs.find(a) : f.coeffs.end();
      // A % d spelled as a mask, A & (d - 1), kept as a bounded atom when A
      // is not a lone atom (A = n - 1).
      std::optional<Int> dm = d;
      Term am = a;
      if (!dm && u->getKind() == Kind::BVAnd)
        for (int i = 0; i < 2 && !dm; ++i)
          if (std::optional<Int> m = constOf(u->getOperand(1 - i));
              m && *m > 0 && ((*m + 1) & *m) == 0) {
            dm = *m + 1;
            am = u->getOperand(i);
          }
      if (dm && am && (ia == f.coeffs.end() || ia->second != -cu)) {
        // A = v + c (the remainder of n - 1 in a loop bounded by n - 1):
        // k v - k (A % d) = k (A - c) - k (A % d) = k d (A / d) - k c.
        Form fa = read(am);
        if (fa.fits() && fa.coeffs.size() == 1 &&
            fa.coeffs.begin()->second == 1 && am->getWidth() == f.width &&
            *dm < pow2(std::min(am->getWidth(), 62u))) {
          auto iv = f.coeffs.find(fa.coeffs.begin()->first);
          if (iv != f.coeffs.end() && iv->second == -cu) {
            Int k = iv->second;
            Term quo = T.bvBin(Kind::BVUDiv, am,
                               T.bv(uint64_t(*dm), am->getWidth()));
            Form q = boundedAtom(quo, fa.lo / *dm, fa.hi / *dm);
            f.coeffs.erase(iv);
            f.coeffs.erase(f.coeffs.find(u));
            if (q.coeffs.empty()) {
              // The quotient is a constant (its interval has one value).
              std::optional<Int> kd = mulChecked(k, *dm);
              if (!kd)
                f.overflow = true;
              else
                f.accumulate(f.c0, *kd, q.c0);
            } else {
              Int &x = f.coeffs[q.coeffs.begin()->first];
              f.accumulate(x, k, *dm);
            }
            f.accumulate(f.c0, -k, fa.c0);
            changed = true;
            it = f.coeffs.begin();
            continue;
          }
        }
      }
      if (!d || ia == f.coeffs.end() || ia->second != -cu) {
        ++it;
        continue;
      }
      std::optional<Form> q = atomQuotient(atom(a), *d, true);
      if (!q || q->coeffs.size() != 1) {
        ++it;
        continue;
      }
      Int ca = ia->second;
      f.coeffs.erase(ia);
      it = f.coeffs.erase(f.coeffs.find(u));
      Int &x = f.coeffs[q->coeffs.begin()->first];
      f.accumulate(x, ca, *d);
      changed = true;
      it = f.coeffs.begin();
    }
    return changed ? withAtomInterval(std::move(f)) : f;
  }

  /// k * A - k * d * (A / d) is k * (A % d): the remainder nvcc spells as
  /// `c - (c & ~(d - 1))` (or with the sign correction of a signed `%`),
  /// whose interval as a difference of two atoms reaches below zero, is
  /// the bounded atom A % d (exact for every value of A >= 0, an atom).
  /// The interval is recomputed from the atoms'.
  Form foldQuotients(Form f) {
    bool changed = false;
    for (auto it = f.coeffs.begin(); it != f.coeffs.end();) {
      Term u = it->first;
      Int cu = it->second;
      std::optional<Int> d = u->getKind() == Kind::BVUDiv
                                 ? constOf(u->getOperand(1))
                                 : std::nullopt;
      if (!d || *d <= 1 || *d >= pow2(62)) {
        ++it;
        continue;
      }
      Term a = u->getOperand(0);
      auto ia = f.coeffs.find(a);
      std::optional<Int> kd =
          ia == f.coeffs.end() ? std::nullopt : mulChecked(ia->second, *d);
      if (!kd || *kd != -cu || a->getWidth() != u->getWidth()) {
        ++it;
        continue;
      }
      Int k = ia->second;
      Form fa = atom(a);
      Term rem = T.bvBin(Kind::BVURem, a, T.bv(uint64_t(*d), a->getWidth()));
      Form r = boundedAtom(rem, 0, std::min(fa.hi, *d - 1));
      f.coeffs.erase(ia);
      f.coeffs.erase(f.coeffs.find(u));
      if (r.coeffs.empty())
        f.accumulate(f.c0, k, r.c0);
      else
        f.accumulate(f.coeffs[r.coeffs.begin()->first], k, 1);
      changed = true;
      it = f.coeffs.begin();
    }
    return changed ? withAtomInterval(std::move(f)) : f;
  }

public:
  /// `f` with zero coefficients dropped and its interval recomputed from
  /// its atoms' intervals (after coefficients were moved or removed).
  Form withAtomInterval(Form f) {
    for (auto it = f.coeffs.begin(); it != f.coeffs.end();)
      it = it->second == 0 ? f.coeffs.erase(it) : std::next(it);
    Int lo = f.c0, hi = f.c0;
    for (auto &[t, c] : f.coeffs) {
      Form at = atom(t);
      f.accumulate(lo, c, c >= 0 ? at.lo : at.hi);
      f.accumulate(hi, c, c >= 0 ? at.hi : at.lo);
    }
    f.lo = lo;
    f.hi = hi;
    return f;
  }

private:

  static std::optional<Int> constOf(Term t) {
    if (t->getKind() != Kind::BVConst || t->getWidth() > 64)
      return std::nullopt;
    return Int(t->getAPInt().getZExtValue());
  }

  Form compute(Term t) {
    if (t->getSort() != Sort::BV)
      return atom(t);
    unsigned w = t->getWidth();
    if (std::optional<Int> c = constOf(t))
      return constant(w, *c);
    if (w > 64)
      return atom(t);
    auto exact = [&](Form f) {
      f.width = w;
      return f.fits() ? f : atom(t);
    };
    switch (t->getKind()) {
    case Kind::BVAdd:
    case Kind::BVSub: {
      Form f = add(read(t->getOperand(0)), read(t->getOperand(1)),
                   t->getKind() == Kind::BVAdd ? 1 : -1);
      f.width = w;
      if (!f.fits())
        f = foldRemainders(f);
      if (!f.fits())
        f = foldQuotients(f);
      // Constants are read unsigned (x + 0xFFFFFFFC is x - 4 + 2^32): a
      // sum whose whole interval lies in [2^w, 2^(w+1)) (or [-2^w, 0)) is
      // its value minus (plus) 2^w, exactly.
      if (w < 100 && !f.fits() && f.lo >= pow2(w) && f.hi < pow2(w + 1)) {
        f.c0 -= pow2(w);
        f.lo -= pow2(w);
        f.hi -= pow2(w);
      } else if (w < 100 && !f.fits() && f.lo >= -pow2(w) && f.hi < 0) {
        f.c0 += pow2(w);
        f.lo += pow2(w);
        f.hi += pow2(w);
      }
      return exact(f);
    }
    case Kind::BVMul:
      for (int k = 0; k < 2; ++k)
        if (std::optional<Int> c = constOf(t->getOperand(k)))
          return exact(scale(read(t->getOperand(1 - k)), *c));
      {
        // A product of two bounded values that does not wrap: the product
        // of their forms multiplied out, each product of two atoms a
        // monomial atom with its factors in creation order (n * row and
        // row * n, or (4 row / 4) * n, are one form); else an atom with
        // the product of their intervals (row * n under n's bound).
        Form fa = read(t->getOperand(0)), fb = read(t->getOperand(1));
        if (fa.fits() && fb.fits() && fa.hi < pow2(62) && fb.hi < pow2(62) &&
            fa.hi * fb.hi < pow2(w)) {
          if (T.multipliesOutProducts())
            if (std::optional<Form> p = multiplyOut(fa, fb, w))
              return *p;
          return boundedAtom(t, fa.lo * fb.lo, fa.hi * fb.hi);
        }
      }
      return atom(t);
    case Kind::Ite: {
      // A selection (min(n, 16 ctaid + 20) as `ite(32 <s x, 32, x)`): the
      // arm the bounds choose, else an atom within the hull of both arms'
      // intervals.
      if (std::optional<bool> c = decide(t->getOperand(0)))
        return read(t->getOperand(*c ? 1 : 2));
      Form a = read(t->getOperand(1)), b = read(t->getOperand(2));
      if (a.fits() && b.fits())
        return boundedAtom(t, std::min(a.lo, b.lo), std::max(a.hi, b.hi));
      return atom(t);
    }
    case Kind::BVShl:
      if (std::optional<Int> c = constOf(t->getOperand(1)); c && *c < w)
        return exact(scale(read(t->getOperand(0)), pow2(unsigned(*c))));
      return atom(t);
    case Kind::BVZExt: {
      Form f = read(t->getOperand(0));
      f.width = w;
      return f;
    }
    case Kind::BVSExt: {
      Term a = t->getOperand(0);
      unsigned aw = a->getWidth();
      Form f = read(a);
      if (f.hi < pow2(aw - 1))
        return exact(f); // non-negative: as zext
      if (f.lo >= pow2(aw - 1)) {
        // Negative throughout: the value gains 2^w - 2^aw.
        Form g = add(f, constant(w, pow2(w) - pow2(aw)), 1);
        return exact(g);
      }
      return atom(t);
    }
    case Kind::BVExtract: {
      // extract(x, lo, w) = (x / 2^lo) % 2^w; exact when the quotient fits.
      Form f = read(t->getOperand(0));
      unsigned lo = t->getExtractLow();
      if (lo == 0)
        return exact(f);
      if (lo >= 62)
        return atom(t);
      Form q, r;
      if (!divide(f, pow2(lo), q, r)) {
        std::optional<Form> a = atomQuotient(f, pow2(lo), true);
        if (!a)
          return atom(t);
        q = *a;
      }
      return exact(q);
    }
    case Kind::BVAShr: {
      // Of a non-negative value: the logical shift (tid >> 5 as s32).
      std::optional<Int> c = constOf(t->getOperand(1));
      Form fx = read(t->getOperand(0));
      if (!c || *c >= w || !fx.fits() || fx.hi >= pow2(w - 1))
        return atom(t);
      return read(T.bvBin(Kind::BVLShr, t->getOperand(0), t->getOperand(1)));
    }
    case Kind::BVSDiv:
    case Kind::BVSRem: {
      // Signed division and remainder of a non-negative operand by a
      // positive constant (both below 2^(w-1) as signed values) are the
      // unsigned ones: `-G` code divides a CTA index with div.s32.
      std::optional<Int> c = constOf(t->getOperand(1));
      Form x = read(t->getOperand(0));
      if (!c || *c <= 0 || w < 2 || w >= 100 || *c >= pow2(w - 1) ||
          !x.fits() || x.lo < 0 || x.hi >= pow2(w - 1))
        return atom(t);
      return read(
          T.bvBin(t->getKind() == Kind::BVSDiv ? Kind::BVUDiv : Kind::BVURem,
                  t->getOperand(0), t->getOperand(1)));
    }
    case Kind::BVUDiv:
    case Kind::BVURem:
    case Kind::BVLShr:
    case Kind::BVAnd: {
      Int d;
      Term x = t->getOperand(0);
      std::optional<Int> c = constOf(t->getOperand(1));
      if (t->getKind() == Kind::BVAnd && !c) {
        c = constOf(t->getOperand(0));
        x = t->getOperand(1);
      }
      if (!c)
        return atom(t);
      if (t->getKind() == Kind::BVLShr) {
        if (*c >= w)
          return atom(t);
        d = pow2(unsigned(*c));
      } else if (t->getKind() == Kind::BVAnd) {
        if (((*c + 1) & *c) != 0) {
          // A mask of the bits [i, j): 2^i * ((x / 2^i) % 2^(j - i)).
          unsigned i = 0;
          while (i < 64 && !((*c >> i) & 1))
            ++i;
          Int field = *c >> i;
          if (field == 0 || ((field + 1) & field) != 0)
            return atom(t);
          Form q1, r1, q2, r2;
          Form fx = read(x);
          if (!divide(fx, pow2(i), q1, r1)) {
            std::optional<Form> q = atomQuotient(fx, pow2(i), true);
            if (!q)
              return atom(t);
            q1 = *q;
          }
          if (!divide(q1, field + 1, q2, r2)) {
            std::optional<Form> r = atomQuotient(q1, field + 1, false);
            if (!r)
              return atom(t);
            r2 = *r;
          }
          return exact(scale(r2, pow2(i)));
        }
        d = *c + 1;
      } else {
        d = *c;
      }
      Form q, r;
      bool quotient =
          t->getKind() == Kind::BVUDiv || t->getKind() == Kind::BVLShr;
      Form fx = read(x);
      if (!divide(fx, d, q, r)) {
        if (std::optional<Form> a = atomQuotient(fx, d, quotient))
          return exact(*a);
        // Not a linear form, but bounded by the operand's interval.
        if (!fx.fits() || d <= 0)
          return atom(t);
        return quotient ? boundedAtom(t, fx.lo / d, fx.hi / d)
                        : boundedAtom(t, 0, std::min(fx.hi, d - 1));
      }
      return exact(quotient ? q : r);
    }
    case Kind::BVXor:
    case Kind::BVOr: {
      // (2^j q + r) op m with r a constant and m < 2^j: 2^j q + (r op m).
      Term x = t->getOperand(0);
      std::optional<Int> m = constOf(t->getOperand(1));
      if (!m) {
        m = constOf(t->getOperand(0));
        x = t->getOperand(1);
      }
      if (!m)
        return atom(t);
      // x op m where no bit x may set is set in m: x + m. x's bits lie in
      // [a, b): 2^a divides its constant and every coefficient, and its
      // upper bound is below 2^b ((4 t & 508) | 513 = 4 t + 513, Triton's
      // second chunk of a row).
      if (*m > 0 && *m < pow2(63)) {
        Form fx = read(x);
        if (fx.fits()) {
          uint64_t g = fx.c0 >= 0 && fx.c0 < pow2(63) ? uint64_t(fx.c0) : 1;
          for (auto &[atomTerm, c] : fx.coeffs)
            g = std::gcd(g, c >= 0 && c < pow2(63) ? uint64_t(c) : 1);
          unsigned a = g ? llvm::countr_zero(g) : 63;
          unsigned b = 0;
          while (b < 63 && pow2(b) <= fx.hi)
            ++b;
          uint64_t mayBeSet =
              a >= b ? 0 : ((uint64_t(1) << b) - 1) & ~((uint64_t(1) << a) - 1);
          if ((uint64_t(*m) & mayBeSet) == 0)
            return exact(add(fx, constant(w, *m), 1));
        }
      }
      unsigned j = 0;
      while (pow2(j) <= *m)
        ++j;
      Form q, r;
      if (!divide(read(x), pow2(j), q, r) || !r.coeffs.empty())
        return atom(t);
      uint64_t rv = uint64_t(r.c0), mv = uint64_t(*m);
      uint64_t low = t->getKind() == Kind::BVXor ? rv ^ mv : rv | mv;
      return exact(add(scale(q, pow2(j)), constant(w, Int(low)), 1));
    }
    default:
      return atom(t);
    }
  }

public:
  /// Whether the conjunction `c` is unsatisfiable within the declared
  /// bounds, by its own facts: its bounds on variables (`v < K`, `v <= K`)
  /// narrow their intervals, and its equalities that fix a variable
  /// (`4 w = 0`: w = 0) or pair two copies of variables (`64 t1 + 4 c1 =
  /// 64 t2 + 4 c2` with 4 |c1 - c2| < 64: t1 = t2 and c1 = c2, a
  /// mixed-radix form) are substituted; the result is then decided by
  /// intervals. Only `true` is a verdict (unsatisfiable): a model of `c`
  /// satisfies every fact used, so it would satisfy the rewritten
  /// conjunction too.
  bool refuteConjunction(Term c) {
    if (c->getKind() != Kind::And)
      return false;
    if (std::optional<bool> v = decide(c); v && !*v)
      return true;
    if (contradictoryBounds(c))
      return true;
    bool narrowed = false;
    if (propagateBounds(c, narrowed))
      return true;
    if (narrowed) {
      if (std::optional<bool> v = decide(c); v && !*v)
        return true;
      if (contradictoryBounds(c))
        return true;
    }
    // Equalities that fix a variable or pair variables.
    llvm::DenseMap<Term, Term> sigma;
    for (Term o : c->getOperands()) {
      if (o->getKind() != Kind::Eq)
        continue;
      Term a = o->getOperand(0), b = o->getOperand(1);
      if (a->getSort() != Sort::BV || a->getWidth() > 64)
        continue;
      Form d = add(read(a), read(b), -1);
      if (d.overflow || d.coeffs.empty())
        continue;
      if (d.coeffs.size() == 1) {
        auto [x, k] = *d.coeffs.begin();
        if (x->getKind() != Kind::BVVar || d.c0 % k != 0)
          continue;
        Int v = -d.c0 / k;
        if (v < 0 || v >= pow2(x->getWidth()))
          return true;
        sigma[x] = T.bv(uint64_t(v), x->getWidth());
        continue;
      }
      // c0 = 0 and k (x - y) pairs, each coefficient above what the
      // smaller pairs can sum to: every pair is equal.
      if (d.c0 != 0)
        continue;
      llvm::SmallVector<std::tuple<Int, Term, Term>> pairs;
      std::map<Term, Int, TermIdLess> rest = d.coeffs;
      bool ok = true;
      while (ok && !rest.empty()) {
        auto [x, k] = *rest.begin();
        rest.erase(rest.begin());
        auto y = llvm::find_if(rest, [&](auto &e) { return e.second == -k; });
        if (y == rest.end() || x->getKind() != Kind::BVVar ||
            y->first->getKind() != Kind::BVVar ||
            x->getWidth() != y->first->getWidth()) {
          ok = false;
          break;
        }
        pairs.push_back({k < 0 ? -k : k, x, y->first});
        rest.erase(y);
      }
      if (!ok)
        continue;
      llvm::sort(pairs, [](auto &p, auto &q) {
        return std::get<0>(p) > std::get<0>(q);
      });
      Int below = 0; // the most the smaller pairs' terms can sum to
      for (auto it = pairs.rbegin(); ok && it != pairs.rend(); ++it) {
        auto [k, x, y] = *it;
        if (k <= below)
          ok = false;
        Form fx = atom(x), fy = atom(y);
        Int spread = std::max(fx.hi - fy.lo, fy.hi - fx.lo);
        std::optional<Int> m = mulChecked(k, spread);
        std::optional<Int> sum = m ? addChecked(below, *m) : std::nullopt;
        if (!sum)
          ok = false;
        else
          below = *sum;
      }
      if (!ok)
        continue;
      for (auto &[k, x, y] : pairs)
        if (!sigma.count(y))
          sigma[y] = x;
    }
    if (sigma.empty())
      return false;
    Term rewritten = T.substitute(c, sigma);
    if (rewritten->getKind() == Kind::BoolConst)
      return !rewritten->getBoolValue();
    std::optional<bool> v = decide(rewritten);
    return (v && !*v) || contradictoryBounds(rewritten);
  }

  static Int floorDiv(Int a, Int b) {
    Int q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  static Int ceilDiv(Int a, Int b) { return -floorDiv(-a, b); }

  /// A literal of a conjunction as a bound on a linear form: the
  /// comparison a < b (a <= b, a = b, and negations) of BV terms as
  /// d = a - b in [lo, hi]; `disequality` for a != b (then lo, hi are
  /// unused). nullopt for other literals and forms that are not exact.
  struct LinearBound {
    Form d;
    Int lo = -kLimit, hi = kLimit;
    bool disequality = false;
  };
  std::optional<LinearBound> boundOf(Term o) {
    bool negated = o->getKind() == Kind::Not;
    Term cmp = negated ? o->getOperand(0) : o;
    Kind k = cmp->getKind();
    if (k != Kind::BVUlt && k != Kind::BVUle && k != Kind::BVSlt &&
        k != Kind::BVSle && k != Kind::Eq)
      return std::nullopt;
    Term a = cmp->getOperand(0), b = cmp->getOperand(1);
    if (a->getSort() != Sort::BV || a->getWidth() > 64)
      return std::nullopt;
    Form fa = read(a), fb = read(b);
    if (fa.overflow || fb.overflow)
      return std::nullopt;
    if ((k == Kind::BVSlt || k == Kind::BVSle) &&
        (fa.hi >= pow2(a->getWidth() - 1) || fb.hi >= pow2(a->getWidth() - 1)))
      return std::nullopt;
    LinearBound r;
    r.d = add(fa, fb, -1);
    if (r.d.overflow || r.d.coeffs.empty())
      return std::nullopt;
    bool strict = k == Kind::BVUlt || k == Kind::BVSlt;
    if (k == Kind::Eq && negated)
      r.disequality = true;
    else if (k == Kind::Eq)
      r.lo = r.hi = 0;
    else if (!negated)
      r.hi = strict ? -1 : 0; // a < b: d <= -1; a <= b: d <= 0
    else
      r.lo = strict ? 0 : 1; // !(a < b): d >= 0; !(a <= b): d >= 1
    return r;
  }

  /// Whether the comparisons of the conjunction `c` bound one linear
  /// combination S of atoms from both sides with an empty interval: each
  /// comparison a < b (a <= b, a = b, and negations) is a bound on
  /// a - b = c0 + g S, S the combination with coprime coefficients, the
  /// first positive (`64 t2 + 40 < 64 t1 + 16` and `64 t1 + 12 < 64 t2 +
  /// 44` give t1 - t2 >= 1 and t1 - t2 <= 0).
  bool contradictoryBounds(Term c) {
    if (c->getKind() != Kind::And)
      return false;
    std::map<ShapeKey, std::pair<Int, Int>> shapes;
    llvm::SmallVector<Form> disequalities;
    for (Term o : c->getOperands()) {
      std::optional<LinearBound> b = boundOf(o);
      if (!b)
        continue;
      const Form &d = b->d;
      if (b->disequality) {
        // a != b: checked once every interval is known (below).
        disequalities.push_back(d);
        continue;
      }
      Int dlo = b->lo, dhi = b->hi;
      auto [key, g] = shapeOf(d);
      // c0 + g S in [dlo, dhi]: S in [(dlo - c0) / g, (dhi - c0) / g].
      Int slo, shi;
      if (g > 0) {
        slo = dlo == -kLimit ? -kLimit : ceilDiv(dlo - d.c0, g);
        shi = dhi == kLimit ? kLimit : floorDiv(dhi - d.c0, g);
      } else {
        slo = dhi == kLimit ? -kLimit : ceilDiv(dhi - d.c0, g);
        shi = dlo == -kLimit ? kLimit : floorDiv(dlo - d.c0, g);
      }
      auto [it, fresh] = shapes.try_emplace(key, slo, shi);
      if (!fresh) {
        it->second.first = std::max(it->second.first, slo);
        it->second.second = std::min(it->second.second, shi);
      }
      if (it->second.first > it->second.second)
        return true;
    }
    // a != b where a - b = c0 + g S and S is pinned to the one value that
    // makes it zero.
    for (const Form &d : disequalities) {
      auto [key, g] = shapeOf(d);
      auto it = shapes.find(key);
      if (it != shapes.end() && it->second.first == it->second.second &&
          d.c0 + g * it->second.first == 0)
        return true;
    }
    return false;
  }

  /// Bound propagation over the conjunction `c`: each bound
  /// c0 + sum_i k_i x_i in [lo, hi] narrows every variable x_j to what
  /// the others' intervals leave (`v < 16` gives v <= 15; `16 ctaid + tid
  /// <= 1` with tid >= 0 gives ctaid = 0), repeated while something
  /// narrows (a few rounds).
  /// Sets `narrowed`; true when some interval becomes empty.
  bool propagateBounds(Term c, bool &narrowed) {
    narrowed = false;
    if (c->getKind() != Kind::And)
      return false;
    for (unsigned round = 0; round < 4; ++round) {
      bool changed = false;
      for (Term o : c->getOperands()) {
        std::optional<LinearBound> b = boundOf(o);
        if (!b || b->disequality)
          continue;
        // The interval of each k_i x_i, and their sums.
        Int sumLo = b->d.c0, sumHi = b->d.c0;
        bool ok = true;
        for (auto &[x, k] : b->d.coeffs) {
          Form fx = atom(x);
          std::optional<Int> p = mulChecked(k, fx.lo), q = mulChecked(k, fx.hi);
          std::optional<Int> l =
              p && q ? addChecked(sumLo, std::min(*p, *q)) : std::nullopt;
          std::optional<Int> h =
              p && q ? addChecked(sumHi, std::max(*p, *q)) : std::nullopt;
          if (!l || !h) {
            ok = false;
            break;
          }
          sumLo = *l;
          sumHi = *h;
        }
        if (!ok)
          continue;
        for (auto &[x, k] : b->d.coeffs) {
          if (x->getKind() != Kind::BVVar)
            continue;
          Form fx = atom(x);
          Int p = k * fx.lo, q = k * fx.hi; // checked above
          // The rest lies in [sumLo - min(p, q), sumHi - max(p, q)]: k x
          // lies in [lo - restHi, hi - restLo].
          Int restLo = sumLo - std::min(p, q), restHi = sumHi - std::max(p, q);
          Int kxLo = b->lo == -kLimit ? -kLimit : b->lo - restHi;
          Int kxHi = b->hi == kLimit ? kLimit : b->hi - restLo;
          Int xlo = fx.lo, xhi = fx.hi;
          if (k > 0) {
            if (kxLo != -kLimit)
              xlo = std::max(xlo, ceilDiv(kxLo, k));
            if (kxHi != kLimit)
              xhi = std::min(xhi, floorDiv(kxHi, k));
          } else {
            if (kxHi != kLimit)
              xlo = std::max(xlo, ceilDiv(kxHi, k));
            if (kxLo != -kLimit)
              xhi = std::min(xhi, floorDiv(kxLo, k));
          }
          if (xlo == fx.lo && xhi == fx.hi)
            continue;
          if (!narrow(x, xlo, xhi))
            return true;
          changed = narrowed = true;
          break; // the forms changed: read the bound again
        }
      }
      if (!changed)
        break;
    }
    return false;
  }

  using ShapeKey = std::vector<std::pair<unsigned, Int>>;
  /// The form d (with atoms) as c0 + g S: S's coprime coefficients, the
  /// first positive, keyed by atom id; and g.
  static std::pair<ShapeKey, Int> shapeOf(const Form &d) {
    Int g = 0;
    for (auto &[t, kk] : d.coeffs)
      g = std::gcd(g, kk < 0 ? -kk : kk);
    if (d.coeffs.begin()->second < 0)
      g = -g;
    ShapeKey key;
    for (auto &[t, kk] : d.coeffs)
      key.push_back({t->getId(), kk / g});
    return {key, g};
  }

  /// Narrows the interval of variable `v` to [lo, hi]; false when empty.
  bool narrow(Term v, Int lo, Int hi) {
    Form f = atom(v);
    lo = std::max(lo, f.lo);
    hi = std::min(hi, f.hi);
    if (lo > hi)
      return false;
    atomRanges[v] = {lo, hi};
    memo.clear();
    return true;
  }

  /// The value of a Bool comparison of BV forms when their intervals
  /// decide it (x ^ 1 <= 31 for a lane x <= 31).
  std::optional<bool> decide(Term c) {
    switch (c->getKind()) {
    case Kind::BoolConst:
      return c->getBoolValue();
    case Kind::Not:
      if (std::optional<bool> v = decide(c->getOperand(0)))
        return !*v;
      return std::nullopt;
    case Kind::And:
    case Kind::Or: {
      // Decided by one operand (false in a conjunction, true in a
      // disjunction), or by all.
      bool conj = c->getKind() == Kind::And;
      bool all = true;
      for (Term o : c->getOperands()) {
        std::optional<bool> v = decide(o);
        if (v && *v != conj)
          return !conj;
        all &= v.has_value();
      }
      if (all)
        return conj;
      return std::nullopt;
    }
    case Kind::Eq:
    case Kind::BVUlt:
    case Kind::BVUle:
    case Kind::BVSlt:
    case Kind::BVSle:
      break;
    default:
      return std::nullopt;
    }
    Term a = c->getOperand(0), b = c->getOperand(1);
    if (a->getSort() != Sort::BV || a->getWidth() > 64)
      return std::nullopt;
    Form fa = read(a), fb = read(b);
    if (fa.overflow || fb.overflow)
      return std::nullopt;
    bool signedCmp =
        c->getKind() == Kind::BVSlt || c->getKind() == Kind::BVSle;
    // Signed and unsigned orders agree on values below 2^(w-1).
    if (signedCmp && (fa.hi >= pow2(a->getWidth() - 1) ||
                      fb.hi >= pow2(a->getWidth() - 1)))
      return std::nullopt;
    bool strict = c->getKind() == Kind::BVUlt || c->getKind() == Kind::BVSlt;
    // Equal forms (the same atoms and constant) are equal values.
    bool same = fa.c0 == fb.c0 && fa.coeffs == fb.coeffs;
    if (c->getKind() == Kind::Eq) {
      if (same)
        return true;
      if (fa.hi < fb.lo || fb.hi < fa.lo)
        return false;
      // The difference a - b over the atoms of both: zero outside its
      // interval, or when the gcd of its coefficients does not divide its
      // constant (4 t1 - 4 t2 + 64 is never 0 for t1, t2 <= 15).
      Form d = add(fa, fb, -1);
      if (d.overflow)
        return std::nullopt;
      Int lo = d.c0, hi = d.c0, g = 0;
      for (auto &[t, k] : d.coeffs) {
        Form at = atom(t);
        d.accumulate(lo, k, k >= 0 ? at.lo : at.hi);
        d.accumulate(hi, k, k >= 0 ? at.hi : at.lo);
        g = std::gcd(g, k < 0 ? -k : k);
      }
      if (d.overflow)
        return std::nullopt;
      if (lo > 0 || hi < 0 || (g > 1 && d.c0 % g != 0))
        return false;
      return std::nullopt;
    }
    if (same)
      return !strict;
    if (strict ? fa.hi < fb.lo : fa.hi <= fb.lo)
      return true;
    if (strict ? fa.lo >= fb.hi : fa.lo > fb.hi)
      return false;
    return std::nullopt;
  }
};

} // namespace

void TermContext::setUpperBound(llvm::StringRef name, uint64_t max) {
  upperBounds[name] = max;
  canonicalCache.clear();
}

std::optional<uint64_t> TermContext::upperBound(llvm::StringRef name) const {
  auto it = upperBounds.find(name);
  if (it == upperBounds.end())
    return std::nullopt;
  return it->second;
}

std::optional<bool> TermContext::decideByBounds(Term c) {
  if (!c || c->getSort() != Sort::Bool)
    return std::nullopt;
  Reader reader(*this);
  if (std::optional<bool> d = reader.decide(c))
    return d;
  if (Reader(*this).refuteConjunction(c))
    return false;
  return std::nullopt;
}

std::optional<std::pair<uint64_t, uint64_t>>
TermContext::indexInterval(Term t) {
  if (!t || t->getSort() != Sort::BV || t->getWidth() > 64)
    return std::nullopt;
  Reader reader(*this);
  Form f = reader.read(t);
  if (!f.fits())
    return std::nullopt;
  // Arithmetic that the form could not read without wrapping is its own
  // atom over the whole width: no exact value.
  unsigned w = t->getWidth();
  bool arithmetic = t->getKind() == Kind::BVAdd ||
                    t->getKind() == Kind::BVSub ||
                    t->getKind() == Kind::BVMul ||
                    t->getKind() == Kind::BVShl;
  if (arithmetic && f.c0 == 0 && f.coeffs.size() == 1 &&
      f.coeffs.begin()->first == t && f.lo == 0 && f.hi == pow2(w) - 1)
    return std::nullopt;
  return std::make_pair(uint64_t(f.lo), uint64_t(f.hi));
}

std::optional<TermContext::ProductSplit>
TermContext::splitByProduct(Term t) {
  if (!t || t->getSort() != Sort::BV || t->getWidth() > 64)
    return std::nullopt;
  Reader reader(*this);
  Form f = reader.read(t);
  if (!f.fits())
    return std::nullopt;
  unsigned w = t->getWidth();
  auto isThreadIndex = [](Term v) {
    llvm::StringRef name = v->getName();
    return name.starts_with("tid.") || name.starts_with("ctaid.");
  };
  auto sizeOf = [&](Term x) -> Term {
    while (x->getKind() == Kind::BVZExt || x->getKind() == Kind::BVSExt)
      x = x->getOperand(0);
    return x->getKind() == Kind::BVVar && upperBound(x->getName()) ? x
                                                                   : nullptr;
  };
  std::optional<ProductSplit> found;
  Term product = nullptr;
  for (auto &[a, c] : f.coeffs) {
    // A narrower product (n * pid in 32 bits, zero-extended: Triton's row
    // offset) is the integer product when it does not wrap at its width
    // (its interval is exact); its factor is then widened unsigned.
    if (a->getKind() != Kind::BVMul || a->getWidth() > w ||
        (a->getWidth() < w && !indexInterval(a)))
      continue;
    for (int k = 0; k < 2; ++k) {
      Term n = sizeOf(a->getOperand(k));
      // The other factor must not be a size too, unless it is a thread
      // index (n * ctaid.x: ctaid.x is bounded by the launch, n is the
      // size).
      Term m = sizeOf(a->getOperand(1 - k));
      if (!n || isThreadIndex(n) || (m && !isThreadIndex(m)))
        continue;
      if (found || c <= 0 || c >= (Int(1) << 62))
        return std::nullopt; // two products of a size: not this shape
      Term factor = a->getOperand(1 - k);
      found = ProductSplit{n, a->getOperand(k),
                           factor->getWidth() < w ? bvZExt(factor, w) : factor,
                           uint64_t(c), nullptr};
      product = a;
    }
  }
  if (!found)
    return std::nullopt;
  // W: the form without c * (n * R), its interval recomputed (the atoms'
  // intervals are those the reader proved, under the declared bounds).
  Form rest = f;
  rest.coeffs.erase(product);
  rest = reader.withAtomInterval(std::move(rest));
  if (!rest.fits())
    return std::nullopt;
  found->rest = reader.rebuild(rest, w);
  return found;
}

Term TermContext::canonicalIndex(Term t) {
  if (!t || t->getSort() != Sort::BV || t->getWidth() > 64 ||
      t->getKind() == Kind::BVConst || t->getKind() == Kind::BVVar)
    return t;
  auto cached = canonicalCache.find(t);
  if (cached != canonicalCache.end())
    return cached->second;
  Reader reader(*this);
  Form f = reader.read(t);
  unsigned w = t->getWidth();
  Term result;
  if (f.coeffs.size() == 1 && f.c0 == 0 && f.coeffs.begin()->second == 1 &&
      f.coeffs.begin()->first == t) {
    result = t; // an atom: nothing to rewrite
  } else {
    // c0 + sum c_i * zext(a_i), atoms in creation order, modulo 2^w (the
    // form's value lies in [0, 2^w), so the sum does not wrap in effect).
    result = reader.rebuild(f, w);
  }
  canonicalCache[t] = result;
  return result;
}
