//===- ArithOps.cpp - integer, bit and float operations -------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The arithmetic cases of execOp (execArithOp): integer and bit operations on
// bit-vectors of their PTX width (PTX ISA 9.7.1, 9.7.8: the integer binary and
// unary ops, mul.wide, shifts, prmt, bfe, bfi, lop3, shf), testp, the
// comparison of setp and selp, cvt (9.7.9.21), and float operations as exact
// reals (9.7.3, 9.7.4: add, sub, mul, div, min, max, fma, neg, abs, rcp, sqrt,
// rsqrt, ex2, lg2, ...), with the divisor and domain obligations they raise. A
// float result folded to a constant although an operand may be NaN or infinite
// stays open (`keepNonFinite`).
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "KProof/Verifier/Terms/Evaluate.h"

#include <functional>

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

/// f32 log2(e) = 0f3FB8AA3B = 12102203 / 2^23, the constant of the ex2 idiom.
static Rational log2eF32() { return Rational(12102203, 8388608); }

/// f32 ln(2) = 0f3F317218 = 11629080 / 2^24 as a rational: the constant of
/// `__logf` when it reaches the product from memory or a contract value
/// rather than as an immediate (which is read as the atom log(2)).
static Rational ln2F32() { return Rational(11629080, 16777216); }

/// `__logf(x)` as nvcc emits it, lg2.approx(x) * ln(2) (either order): the
/// term log(x) (what a spec's math.log gives). With ln(2) the atom log(2)
/// (Constants.h) this is exact; with the rational 0f3F317218 it is an
/// idiom, and `idiom` is set. Null for any other product.
static Term naturalLog(TermContext &T, Term a, Term b, bool &idiom) {
  for (int k = 0; k < 2; ++k, std::swap(a, b)) {
    if (a->getKind() != Kind::RealFn || a->getName() != "lg2" ||
        a->getNumOperands() != 1)
      continue;
    idiom = b->isRealConst() && b->getRational() == ln2F32();
    if (idiom || b == ln2Atom(T))
      return T.realFn("log", {a->getOperand(0)});
  }
  return nullptr;
}

namespace kproof::engine::exec {

bool Executor::readingIllConditioned(Kind op, Term a, Term b, Term c,
                                     Location loc) {
  // Closed: built from constants only; and some constant atom inside.
  bool atom = false;
  llvm::DenseSet<Term> seen;
  std::function<bool(Term)> closed = [&](Term t) -> bool {
    if (!t || !seen.insert(t).second)
      return true;
    switch (t->getKind()) {
    case Kind::RealConst:
      return true;
    case Kind::RealFn:
      atom |= isPositiveConstantAtom(t);
      break;
    case Kind::Add:
    case Kind::Mul:
    case Kind::Div:
    case Kind::Exp:
    case Kind::Exp2:
      break;
    default:
      return false;
    }
    return llvm::all_of(t->getOperands(), closed);
  };
  if (!closed(a) || !closed(b) || !closed(c) || !atom)
    return false;
  Assignment none;
  Evaluator ev(none, 128);
  ev.widenConstantAtoms(23);
  std::optional<Interval> ia = ev.real(a), ib = ev.real(b);
  std::optional<Interval> ic = c ? ev.real(c) : std::optional<Interval>();
  auto illConditioned = [&]() {
    if (!ia || !ib || (c && !ic))
      return true;
    Interval r(128);
    if (op == Kind::Add) {
      mpfr_add(r.lo(), ia->lo(), ib->lo(), MPFR_RNDD);
      mpfr_add(r.hi(), ia->hi(), ib->hi(), MPFR_RNDU);
    } else {
      // The four products of the endpoints, rounded outward.
      mpfr_t p;
      mpfr_init2(p, 128);
      bool first = true;
      for (mpfr_srcptr x : {ia->lo(), ia->hi()})
        for (mpfr_srcptr y : {ib->lo(), ib->hi()}) {
          mpfr_mul(p, x, y, MPFR_RNDD);
          if (first || mpfr_less_p(p, r.lo()))
            mpfr_set(r.lo(), p, MPFR_RNDD);
          mpfr_mul(p, x, y, MPFR_RNDU);
          if (first || mpfr_greater_p(p, r.hi()))
            mpfr_set(r.hi(), p, MPFR_RNDU);
          first = false;
        }
      mpfr_clear(p);
      if (c) {
        mpfr_add(r.lo(), r.lo(), ic->lo(), MPFR_RNDD);
        mpfr_add(r.hi(), r.hi(), ic->hi(), MPFR_RNDU);
      }
    }
    if (mpfr_zero_p(r.lo()) && mpfr_zero_p(r.hi()))
      return false; // exactly 0 whatever the readings (0 * x)
    if (mpfr_sgn(r.lo()) <= 0 && mpfr_sgn(r.hi()) >= 0)
      return true;
    // hi - lo against 2^-16 of the smaller magnitude.
    mpfr_t w, m;
    mpfr_inits2(128, w, m, (mpfr_ptr) nullptr);
    mpfr_sub(w, r.hi(), r.lo(), MPFR_RNDU);
    if (mpfr_cmpabs(r.lo(), r.hi()) < 0)
      mpfr_abs(m, r.lo(), MPFR_RNDD);
    else
      mpfr_abs(m, r.hi(), MPFR_RNDD);
    mpfr_mul_2si(m, m, -16, MPFR_RNDD);
    bool wide = mpfr_greater_p(w, m);
    mpfr_clears(w, m, (mpfr_ptr) nullptr);
    return wide;
  };
  if (!illConditioned())
    return false;
  unknown(loc, "arithmetic on constants read as transcendental values "
               "depends on the reading (the result moves by more than "
               "2^-16, or through 0, when the constants move by half an "
               "ulp): not modeled");
  return true;
}

bool Executor::mayBeNonFinite(Term t) {
  if (t->isConstant())
    return false;
  if (options.nonFiniteInputs)
    return true;
  if (options.nonFiniteBuffers.empty())
    return false;
  // Post-order over the DAG, each term once across calls (memoized).
  SmallVector<std::pair<Term, bool>> work{{t, false}};
  while (!work.empty()) {
    auto [u, expanded] = work.pop_back_val();
    if (nonFiniteMemo.count(u))
      continue;
    if (!expanded) {
      work.push_back({u, true});
      for (Term o : u->getOperands())
        if (!nonFiniteMemo.count(o))
          work.push_back({o, false});
      continue;
    }
    bool found = false;
    StringRef name = u->getName();
    if ((u->getKind() == Kind::RealVar || u->getKind() == Kind::Select) &&
        u->getSort() == Sort::Real) {
      StringRef buffer = name.take_until([](char c) { return c == '['; });
      // The value of a shared read that no write reaches stands for a
      // case the initialization obligations rule out (or report).
      found = (name.contains('#') && !sharedMemory.isUnwritten(u)) ||
              llvm::is_contained(options.nonFiniteBuffers, buffer.str());
    }
    for (Term o : u->getOperands())
      found = found || nonFiniteMemo.lookup(o);
    nonFiniteMemo[u] = found;
  }
  return nonFiniteMemo.lookup(t);
}

Term Executor::keepNonFinite(Term r, ArrayRef<Term> operands) {
  // Finite constants only: a result that is -inf or +inf in the model
  // (-inf - x from a -inf literal) stays one (ites of infinities are not
  // modeled; the NaN an infinite x would give there is not covered).
  if (!r || !r->isRealConst())
    return r;
  for (Term o : operands)
    if (mayBeNonFinite(o))
      return T.ite(T.boolVar(nonFiniteFlag()),
                   fresh("fold.nonfinite", Sort::Real), r);
  return r;
}

Term Executor::saturate(Term t) {
  return T.min(T.max(t, T.real(0)), T.real(1));
}

std::optional<bool> Executor::execArithOp(State &s, Operation *op) {
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  auto advance = [&]() {
    ++f.it;
    return true;
  };
  auto val = [&](Value v) { return get(f, v); };
  auto real = [&](Value v) { return realOperand(f, v, loc); };
  auto bits = [&](Value v) { return bitsOperand(f, v, loc); };
  auto done = [&](Term t) { return resultModeled(t, loc); };
  // The elements of packed halves (vector<2xf16>, PTX ISA 5.2.1: element 0
  // in the low bits) as reals, or of a scalar: the real itself.
  auto lanes = [&](Value v) -> SmallVector<Term, 2> {
    auto vt = dyn_cast<VectorType>(v.getType());
    if (!vt) {
      if (Term r = real(v))
        return {r};
      return {};
    }
    Term packed = val(v).term;
    if (!packed)
      return {};
    unsigned w = vt.getElementType().getIntOrFloatBitWidth();
    StringRef fmt = floatFormat(vt.getElementType());
    SmallVector<Term, 2> out;
    for (int64_t k = 0; k < vt.getNumElements(); ++k) {
      Term r = realOfBits(T.bvExtract(packed, k * w, w), fmt);
      if (!r) {
        unknown(loc, "packed " + fmt +
                         " operand whose halves are not known "
                         "as " +
                         fmt +
                         " values (bits computed by integer "
                         "operations)");
        return {};
      }
      out.push_back(r);
    }
    return out;
  };
  // Lane results into the result of `v`'s type: a real, or packed bits.
  auto setLanes = [&](Value v, ArrayRef<Term> rs) {
    auto vt = dyn_cast<VectorType>(v.getType());
    if (!vt) {
      set(f, v, rs.front());
      return;
    }
    StringRef fmt = floatFormat(vt.getElementType());
    Term packed = nullptr;
    for (Term r : rs) {
      Term b = T.floatBits(r, fmt);
      packed = packed ? T.bvConcat(b, packed) : b;
    }
    set(f, v, packed);
  };

  return llvm::TypeSwitch<Operation *, std::optional<bool>>(op)
      .Case<CvtPackOp>([&](CvtPackOp c) {
        // cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b (PTX ISA
        // 9.7.9.21): a into the upper half, b into the lower. Rounding is
        // a precision downgrade of the reals model; .relu clamps at 0 and
        // .satfinite at the format's largest finite value.
        Term hi = real(c.getHi()), lo = real(c.getLo());
        if (!hi || !lo)
          return false;
        Type elem = c.getType().getElementType();
        std::string what;
        llvm::raw_string_ostream os(what);
        os << "conversion from f32 to " << elem;
        result.downgrades.push_back({what, loc});
        auto adjust = [&](Term x) {
          if (c.getRelu())
            x = T.max(x, T.real(0));
          if (c.getSatfinite()) {
            APFloat big =
                APFloat::getLargest(cast<FloatType>(elem).getFloatSemantics());
            Term m = T.real(*Rational::fromAPFloat(big));
            x = T.max(T.min(x, m), T.neg(m));
          }
          return x;
        };
        Term r1 = settleExtended(s, adjust(lo)),
             r2 = settleExtended(s, adjust(hi));
        if (!done(r1) || !done(r2))
          return false;
        setLanes(c.getResult(), {r1, r2});
        return advance();
      })
      .Case<IntBinOp>([&](IntBinOp o) {
        Term a = bits(o.getLhs()), b = bits(o.getRhs());
        if (!a || !b)
          return false;
        Term r = nullptr;
        bool sgn = o.getIsSigned();
        if (o.getType().isInteger(1)) {
          switch (o.getKind()) {
          case IntBinKind::And:
            r = T.andOf(a, b);
            break;
          case IntBinKind::Or:
            r = T.orOf(a, b);
            break;
          case IntBinKind::Xor:
            r = T.ite(a, T.notOf(b), b);
            break;
          default:
            break;
          }
        } else {
          unsigned w = a->getWidth();
          switch (o.getKind()) {
          case IntBinKind::Add:
          case IntBinKind::Sub: {
            Kind k = o.getKind() == IntBinKind::Add ? Kind::BVAdd : Kind::BVSub;
            if (!o.getSat()) {
              r = T.bvBin(k, a, b);
              break;
            }
            // .sat (PTX ISA 9.7.1.1-2, .s32 only): the exact sum of the
            // signed operands clamped to the type's range.
            Term wide = T.bvBin(k, T.bvSExt(a, w + 1), T.bvSExt(b, w + 1));
            APInt hi = APInt::getSignedMaxValue(w), lo = APInt::getSignedMinValue(w);
            r = T.ite(T.bvSlt(T.bv(hi.sext(w + 1)), wide), T.bv(hi),
                      T.ite(T.bvSlt(wide, T.bv(lo.sext(w + 1))), T.bv(lo),
                            T.bvExtract(wide, 0, w)));
            break;
          }
          case IntBinKind::Mul24Lo:
          case IntBinKind::Mul24Hi: {
            // PTX ISA 9.7.1.5: the 48-bit product of the low 24 bits
            // (signed or unsigned); .lo its low 32 bits, .hi bits 16-47.
            Term x = T.bvExtract(a, 0, 24), y = T.bvExtract(b, 0, 24);
            Term p = T.bvBin(Kind::BVMul, sgn ? T.bvSExt(x, 64) : T.bvZExt(x, 64),
                             sgn ? T.bvSExt(y, 64) : T.bvZExt(y, 64));
            r = T.bvExtract(p, o.getKind() == IntBinKind::Mul24Lo ? 0 : 16, w);
            break;
          }
          case IntBinKind::MulLo:
            r = T.bvBin(Kind::BVMul, a, b);
            break;
          case IntBinKind::MulHi: {
            Term wa = sgn ? T.bvSExt(a, 2 * w) : T.bvZExt(a, 2 * w);
            Term wb = sgn ? T.bvSExt(b, 2 * w) : T.bvZExt(b, 2 * w);
            r = T.bvExtract(T.bvBin(Kind::BVMul, wa, wb), w, w);
            break;
          }
          case IntBinKind::And:
            r = T.bvBin(Kind::BVAnd, a, b);
            break;
          case IntBinKind::Or:
            r = T.bvBin(Kind::BVOr, a, b);
            break;
          case IntBinKind::Xor:
            r = T.bvBin(Kind::BVXor, a, b);
            break;
          case IntBinKind::Min:
            r = T.ite(sgn ? T.bvSlt(b, a) : T.bvUlt(b, a), b, a);
            break;
          case IntBinKind::Max:
            r = T.ite(sgn ? T.bvSlt(a, b) : T.bvUlt(a, b), b, a);
            break;
          case IntBinKind::Div:
          case IntBinKind::Rem: {
            // Division by zero gives an unspecified value (no trap).
            Kind k = o.getKind() == IntBinKind::Div
                         ? (sgn ? Kind::BVSDiv : Kind::BVUDiv)
                         : (sgn ? Kind::BVSRem : Kind::BVURem);
            r = T.ite(T.eq(b, T.bv(0, w)), fresh("divzero", Sort::BV, w),
                      T.bvBin(k, a, b));
            break;
          }
          default:
            break;
          }
        }
        if (!r) {
          unknown(loc, "integer operation '" +
                           stringifyIntBinKind(o.getKind()) +
                           (o.getSat() ? ".sat" : "") + "' is not modeled");
          return false;
        }
        set(f, o, r);
        return advance();
      })
      .Case<IntUnaryOp>([&](IntUnaryOp o) {
        Term a = bits(o.getInput());
        if (!a)
          return false;
        Term r = nullptr;
        if (o.getType().isInteger(1)) {
          if (o.getKind() == IntUnaryKind::Not)
            r = T.notOf(a);
        } else {
          unsigned w = a->getWidth();
          switch (o.getKind()) {
          case IntUnaryKind::Not:
            r = T.bvNot(a);
            break;
          case IntUnaryKind::Neg:
            r = T.bvBin(Kind::BVSub, T.bv(0, w), a);
            break;
          case IntUnaryKind::Abs:
            r = T.ite(T.bvSlt(a, T.bv(0, w)),
                      T.bvBin(Kind::BVSub, T.bv(0, w), a), a);
            break;
          case IntUnaryKind::CNot:
            r = T.ite(T.eq(a, T.bv(0, w)), T.bv(1, w), T.bv(0, w));
            break;
          default:
            if (o.getKind() == IntUnaryKind::Popc &&
                a->getKind() != Kind::BVConst) {
              // popc: the sum of the bits (PTX ISA 9.7.1.14). Of an OR of
              // `ite(c, 2^k, 0)` with distinct k (a vote.sync ballot): the
              // number of true c, without bit extraction.
              SmallVector<Term> leaves{a};
              // (bit, condition), summed in bit order: the order a loop
              // over the lanes counts them in.
              SmallVector<std::pair<unsigned, Term>> conds;
              APInt seen(w, 0);
              bool disjoint = true;
              while (!leaves.empty() && disjoint) {
                Term x = leaves.pop_back_val();
                if (x->getKind() == Kind::BVOr) {
                  leaves.append(x->getOperands().begin(),
                                x->getOperands().end());
                } else if (x->getKind() == Kind::BVConst &&
                           x->getAPInt().isZero()) {
                } else if (x->getKind() == Kind::Ite &&
                           x->getOperand(1)->getKind() == Kind::BVConst &&
                           x->getOperand(1)->getAPInt().isPowerOf2() &&
                           x->getOperand(2)->getKind() == Kind::BVConst &&
                           x->getOperand(2)->getAPInt().isZero() &&
                           !(seen & x->getOperand(1)->getAPInt())) {
                  seen |= x->getOperand(1)->getAPInt();
                  conds.push_back({x->getOperand(1)->getAPInt().logBase2(),
                                   x->getOperand(0)});
                } else {
                  disjoint = false;
                }
              }
              r = T.bv(0, 32);
              llvm::sort(conds,
                         [](auto &l, auto &r) { return l.first < r.first; });
              if (disjoint)
                for (auto &[bit, c] : conds)
                  r = T.bvBin(Kind::BVAdd, r,
                              T.ite(c, T.bv(1, 32), T.bv(0, 32)));
              else
                for (unsigned i = 0; i < w; ++i)
                  r = T.bvBin(Kind::BVAdd, r,
                              T.bvZExt(T.bvExtract(a, i, 1), 32));
            } else if (a->getKind() == Kind::BVConst) {
              const APInt &v = a->getAPInt();
              if (o.getKind() == IntUnaryKind::Popc)
                r = T.bv(v.popcount(), 32);
              else if (o.getKind() == IntUnaryKind::Clz)
                r = T.bv(v.countl_zero(), 32);
              else
                r = T.bv(v.reverseBits());
            } else if (o.getKind() == IntUnaryKind::Clz) {
              // PTX ISA 9.7.1.16: w when a = 0, else w - 1 - (the index of
              // the highest set bit): a select from the lowest bit up.
              r = T.bv(w, 32);
              for (unsigned i = 0; i < w; ++i)
                r = T.ite(T.eq(T.bvExtract(a, i, 1), T.bv(1, 1)),
                          T.bv(w - 1 - i, 32), r);
            } else if (o.getKind() == IntUnaryKind::Brev) {
              // PTX ISA 9.7.1.17: bit i of the result is bit w - 1 - i.
              r = T.bvExtract(a, 0, 1);
              for (unsigned i = 1; i < w; ++i)
                r = T.bvConcat(r, T.bvExtract(a, i, 1));
            }
          }
        }
        if (!r) {
          unknown(loc, "'" + stringifyIntUnaryKind(o.getKind()) +
                           "' of a symbolic value is not modeled");
          return false;
        }
        set(f, o, r);
        return advance();
      })
      .Case<ShiftOp>([&](ShiftOp o) {
        Term a = bits(o.getInput()), n = bits(o.getAmount());
        if (!a || !n)
          return false;
        unsigned w = a->getWidth();
        // PTX clamps shift amounts (PTX ISA 9.7.8.7-8): compare in 32 bits.
        Term big = T.bvUle(T.bv(w, 32), n);
        Term amt = w >= 32 ? T.bvZExt(n, w) : T.bvExtract(n, 0, w);
        Term shifted;
        if (o.getKind() == ShiftKind::Shl)
          shifted = T.ite(big, T.bv(0, w), T.bvBin(Kind::BVShl, a, amt));
        else if (o.getIsSigned())
          shifted = T.ite(big, T.bvBin(Kind::BVAShr, a, T.bv(w - 1, w)),
                          T.bvBin(Kind::BVAShr, a, amt));
        else
          shifted = T.ite(big, T.bv(0, w), T.bvBin(Kind::BVLShr, a, amt));
        set(f, o, shifted);
        return advance();
      })
      .Case<PrmtOp>([&](PrmtOp o) {
        // PTX ISA 9.7.8.9, generic mode with a constant selector: byte i of
        // the result is byte sel_i (nibble i of c) of {b, a} (a: bytes
        // 0-3, b: 4-7). Runs of result bytes taken from consecutive bytes
        // of one operand become one field (bytes 1-3 of prmt(row, lane,
        // 0x2104) are row's bytes 0-2: 256 row + (lane & 255)), so an index
        // built this way stays a linear form. Sign replication (bit 3 of a
        // nibble) and the other modes are not modeled.
        Term a = bits(o.getA()), b = bits(o.getB()), c = bits(o.getSelector());
        if (!a || !b || !c)
          return false;
        if (o.getMode() || c->getKind() != Kind::BVConst ||
            (c->getAPInt().getZExtValue() & 0x8888)) {
          // The general form, byte by byte: a mode's table row chosen by
          // c[1:0], or in the generic mode nibble i of c naming byte i's
          // source (bit 3: replicate that byte's sign). A symbolic
          // selector selects among the cases.
          auto byte = [&](unsigned k) {
            return T.bvExtract(k < 4 ? a : b, 8 * (k % 4), 8);
          };
          auto generic = [&](unsigned sel) {
            Term v = byte(sel & 7);
            if (sel & 8)
              v = T.ite(T.eq(T.bvExtract(v, 7, 1), T.bv(1, 1)), T.bv(0xff, 8),
                        T.bv(0, 8));
            return v;
          };
          const std::array<std::array<int, 4>, 4> *table = nullptr;
          if (std::optional<StringRef> m = o.getMode()) {
            table = prmtModeTable(*m);
            if (!table) {
              unknown(loc, "prmt mode '" + m->str() + "' is not modeled");
              return false;
            }
          }
          Term result = nullptr;
          for (unsigned i = 0; i < 4; ++i) {
            Term v;
            if (table) {
              Term row = T.bvExtract(c, 0, 2);
              v = byte((*table)[3][i]);
              for (unsigned k = 0; k < 3; ++k)
                v = T.ite(T.eq(row, T.bv(k, 2)), byte((*table)[k][i]), v);
            } else {
              Term nib = T.bvExtract(c, 4 * i, 4);
              v = generic(15);
              for (unsigned k = 0; k < 15; ++k)
                v = T.ite(T.eq(nib, T.bv(k, 4)), generic(k), v);
            }
            result = result ? T.bvConcat(v, result) : v;
          }
          set(f, o, result);
          return advance();
        }
        uint64_t sel = c->getAPInt().getZExtValue();
        auto source = [&](unsigned i) { return unsigned(sel >> (4 * i)) & 7; };
        Term acc = T.bv(0, 32);
        for (unsigned i = 0; i < 4;) {
          unsigned from = source(i), len = 1;
          while (i + len < 4 && source(i + len) == from + len &&
                 (from + len) / 4 == from / 4)
            ++len;
          Term src = from < 4 ? a : b;
          Term field = T.bvExtract(src, 8 * (from % 4), 8 * len);
          if (8 * len < 32)
            field = T.bvZExt(field, 32);
          acc = T.bvBin(Kind::BVAdd, acc,
                        T.bvBin(Kind::BVShl, field, T.bv(8 * i, 32)));
          i += len;
        }
        set(f, o, acc);
        return advance();
      })
      .Case<BfeOp>([&](BfeOp o) {
        // PTX ISA 9.7.8.10: bit i of the result is bit pos + i of a for
        // i < len (while pos + i is inside a), else the sign bit: 0 for
        // .u, bit min(pos + len - 1, msb) of a for .s (0 when len = 0).
        // pos and len are their low 8 bits. With constant pos and len the
        // field is an extract (and an extension); otherwise a select over
        // the w + 1 positions (and lengths) that matter.
        Term a = bits(o.getInput()), pos = bits(o.getPos()),
             len = bits(o.getLen());
        if (!a || !pos || !len)
          return false;
        unsigned w = a->getWidth();
        bool sgn = o.getIsSigned();
        auto field = [&](unsigned p, unsigned n) -> Term {
          if (n == 0 || p >= w) {
            // No bit of a below the sign: 0, or the replicated sign bit.
            if (!sgn || n == 0)
              return T.bv(0, w);
            return T.bvSExt(T.bvExtract(a, w - 1, 1), w);
          }
          unsigned k = std::min(n, w - p); // bits of a inside the field
          Term f = T.bvExtract(a, p, k);
          if (k == w)
            return f;
          if (!sgn)
            return T.bvZExt(f, w);
          // The sign bit is bit min(p + n - 1, msb) of a: the field's top
          // bit when the field fits, else a's msb (also the top bit).
          return T.bvSExt(f, w);
        };
        Term r;
        if (pos->getKind() == Kind::BVConst && len->getKind() == Kind::BVConst) {
          r = field(pos->getAPInt().getZExtValue() & 0xff,
                    len->getAPInt().getZExtValue() & 0xff);
        } else {
          Term p8 = T.bvExtract(pos, 0, 8), n8 = T.bvExtract(len, 0, 8);
          // Positions >= w and lengths >= w behave as w.
          auto clampTo = [&](Term v) {
            return T.ite(T.bvUle(T.bv(w, 8), v), T.bv(w, 8), v);
          };
          Term pc = clampTo(p8), nc = clampTo(n8);
          auto byLen = [&](unsigned p) {
            Term v = field(p, w); // len >= w
            for (unsigned n = 0; n < w; ++n)
              v = T.ite(T.eq(nc, T.bv(n, 8)), field(p, n), v);
            return v;
          };
          r = byLen(w); // pos >= w
          for (unsigned p = 0; p < w; ++p)
            r = T.ite(T.eq(pc, T.bv(p, 8)), byLen(p), r);
        }
        set(f, o, r);
        return advance();
      })
      .Case<Lop3Op>([&](Lop3Op o) {
        // PTX ISA 9.7.8.6: bit i of the result is bit (a_i b_i c_i) of the
        // 8-bit table: the OR of the minterms the table selects.
        Term a = bits(o.getA()), b = bits(o.getB()), c = bits(o.getC());
        if (!a || !b || !c)
          return false;
        uint32_t lut = o.getLut() & 0xff;
        Term r = T.bv(0, 32);
        for (unsigned m = 0; m < 8; ++m) {
          if (!((lut >> m) & 1))
            continue;
          Term ta = (m & 4) ? a : T.bvNot(a), tb = (m & 2) ? b : T.bvNot(b),
               tc = (m & 1) ? c : T.bvNot(c);
          r = T.bvBin(Kind::BVOr, r,
                      T.bvBin(Kind::BVAnd, ta, T.bvBin(Kind::BVAnd, tb, tc)));
        }
        set(f, o, r);
        return advance();
      })
      .Case<ShfOp>([&](ShfOp o) {
        // PTX ISA 9.7.8.8: the funnel {b, a} (b the high word) shifted by
        // n = min(c, 32) (.clamp) or c & 31 (.wrap); .l keeps the high
        // word of the shifted 64 bits, .r the low word.
        Term a = bits(o.getA()), b = bits(o.getB()), c = bits(o.getAmount());
        if (!a || !b || !c)
          return false;
        Term n = o.getClamp()
                     ? T.ite(T.bvUlt(T.bv(32, 32), c), T.bv(32, 32), c)
                     : T.bvBin(Kind::BVAnd, c, T.bv(31, 32));
        Term v = T.bvConcat(b, a), n64 = T.bvZExt(n, 64);
        Term r = o.getLeft()
                     ? T.bvExtract(T.bvBin(Kind::BVShl, v, n64), 32, 32)
                     : T.bvExtract(T.bvBin(Kind::BVLShr, v, n64), 0, 32);
        set(f, o, r);
        return advance();
      })
      .Case<TestpOp>([&](TestpOp o) {
        // PTX ISA 9.7.3.5. A real term is a finite number unless it is an
        // extended value (an infinity or NaN constant, an ite with such a
        // leaf, a max/min over a possibly empty range: Term.h), whose
        // cases the comparisons below decide; normal means |a| >= the
        // type's smallest normal (2^-126 for f32, 2^-1022 for f64; no
        // upper limit: reals do not overflow), subnormal 0 < |a| below it.
        // With non-finite inputs (ExecutorOptions::nonFiniteInputs) any
        // outcome is possible.
        Term a = real(o.getInput());
        if (!a)
          return false;
        unsigned e = o.getInput().getType().isF64() ? 1022 : 126;
        Rational minNormal(1);
        for (unsigned i = 0; i < e; ++i)
          minNormal = minNormal / Rational(2);
        Term absA = T.ite(T.realLt(a, T.real(0)), T.neg(a), a);
        // NaN is the value not equal to itself (a finite term equals
        // itself: false); infinite, equal to an infinity.
        Term isNaN = T.notOf(T.eq(a, a));
        Term isInf = T.orOf(T.eq(a, T.negInf()), T.eq(a, T.posInf()));
        if (!absA || !isNaN || !isInf)
          return resultModeled(nullptr, o.getLoc());
        Term r = nullptr;
        switch (o.getKind()) {
        case TestpKind::Finite:
          r = T.andOf(T.notOf(isNaN), T.notOf(isInf));
          break;
        case TestpKind::Number:
          r = T.notOf(isNaN);
          break;
        case TestpKind::Infinite:
          r = isInf;
          break;
        case TestpKind::NotANumber:
          r = isNaN;
          break;
        case TestpKind::Normal:
          r = T.andOf({T.notOf(isNaN), T.notOf(isInf),
                       T.realLe(T.real(minNormal), absA)});
          break;
        case TestpKind::Subnormal:
          r = T.andOf(T.realLt(T.real(0), absA),
                      T.realLt(absA, T.real(minNormal)));
          break;
        }
        if (mayBeNonFinite(a)) {
          Term nf = T.boolVar(nonFiniteFlag());
          r = T.orOf(T.andOf(T.notOf(nf), r),
                     T.andOf(nf, fresh("testp.nonfinite", Sort::Bool)));
        }
        set(f, o, r);
        return advance();
      })
      .Case<BfiOp>([&](BfiOp o) {
        // PTX ISA 9.7.8.11: b with bits [pos, pos + len) replaced by the
        // low len bits of a (pos, len: their low 8 bits; truncated at the
        // width). The two parts have disjoint bits, so their sum is their
        // OR, which keeps an index such as bfi(row, lane, 7, 25) a linear
        // form (row * 128 + (lane & 127)).
        Term a = bits(o.getInsert()), b = bits(o.getBase());
        Term pos = bits(o.getPos()), len = bits(o.getLen());
        if (!a || !b || !pos || !len)
          return false;
        unsigned w = a->getWidth();
        if (pos->getKind() != Kind::BVConst ||
            len->getKind() != Kind::BVConst) {
          // A symbolic field: mask = (2^len - 1) << pos over the low 8 bits
          // of pos and len (all ones for len >= w; shifts past the width
          // give 0, as the field then starts outside b).
          auto low8 = [&](Term v) { return T.bvZExt(T.bvExtract(v, 0, 8), w); };
          Term p = low8(pos), n = low8(len);
          Term ones = T.bv(APInt::getAllOnes(w));
          Term lowMask =
              T.ite(T.bvUle(T.bv(w, w), n), ones,
                    T.bvBin(Kind::BVSub, T.bvBin(Kind::BVShl, T.bv(1, w), n),
                            T.bv(1, w)));
          Term mask = T.bvBin(Kind::BVShl, lowMask, p);
          set(f, o,
              T.bvBin(Kind::BVOr, T.bvBin(Kind::BVAnd, b, T.bvNot(mask)),
                      T.bvBin(Kind::BVAnd, T.bvBin(Kind::BVShl, a, p), mask)));
          return advance();
        }
        unsigned p = pos->getAPInt().getZExtValue() & 0xff;
        unsigned n = len->getAPInt().getZExtValue() & 0xff;
        if (p >= w || n == 0) {
          set(f, o, b);
          return advance();
        }
        n = std::min(n, w - p);
        APInt mask = APInt::getBitsSet(w, p, p + n);
        Term field = T.bvBin(Kind::BVShl, a, T.bv(p, w));
        if (p + n < w) // the shift already clears the bits below p
          field = T.bvBin(Kind::BVAnd, field, T.bv(mask));
        Term rest = T.bvBin(Kind::BVAnd, b, T.bv(~mask));
        set(f, o, T.bvBin(Kind::BVAdd, rest, field));
        return advance();
      })
      .Case<MulWideOp>([&](MulWideOp o) {
        Term a = bits(o.getLhs()), b = bits(o.getRhs());
        if (!a || !b)
          return false;
        unsigned w = 2 * a->getWidth();
        bool sgn = o.getIsSigned();
        set(f, o,
            T.bvBin(Kind::BVMul, sgn ? T.bvSExt(a, w) : T.bvZExt(a, w),
                    sgn ? T.bvSExt(b, w) : T.bvZExt(b, w)));
        return advance();
      })
      .Case<CmpOp>([&](CmpOp c) {
        Type t = c.getLhs().getType();
        Term r = nullptr;
        if (isa<FloatType>(t)) {
          Term a = real(c.getLhs()), b = real(c.getRhs());
          if (!a || !b)
            return false;
          // PTX ISA 9.7.3.x (setp): the ordered comparisons are false
          // when an operand is NaN, the unordered ones (..u) true. A real
          // term is NaN only as an extended value (Term.h): NaN is the
          // value not equal to itself, so `unordered` folds to false for
          // every finite term.
          Term unordered =
              T.orOf(T.notOf(T.eq(a, a)), T.notOf(T.eq(b, b)));
          auto orUnordered = [&](Term t) { return T.orOf(unordered, t); };
          switch (c.getPredicate()) {
          case CmpPredicate::Eq:
            r = T.eq(a, b);
            break;
          case CmpPredicate::Equ:
            r = orUnordered(T.eq(a, b));
            break;
          case CmpPredicate::Ne:
            r = T.andOf(T.notOf(unordered), T.notOf(T.eq(a, b)));
            break;
          case CmpPredicate::Neu:
            r = T.notOf(T.eq(a, b));
            break;
          case CmpPredicate::Lt:
            r = T.realLt(a, b);
            break;
          case CmpPredicate::Ltu:
            r = orUnordered(T.realLt(a, b));
            break;
          case CmpPredicate::Le:
            r = T.realLe(a, b);
            break;
          case CmpPredicate::Leu:
            r = orUnordered(T.realLe(a, b));
            break;
          case CmpPredicate::Gt:
            r = T.realLt(b, a);
            break;
          case CmpPredicate::Gtu:
            r = orUnordered(T.realLt(b, a));
            break;
          case CmpPredicate::Ge:
            r = T.realLe(b, a);
            break;
          case CmpPredicate::Geu:
            r = orUnordered(T.realLe(b, a));
            break;
          case CmpPredicate::Num:
            r = T.notOf(unordered);
            break;
          case CmpPredicate::NaN:
            r = unordered;
            break;
          }
          // NaN and infinite operands (ExecutorOptions::nonFiniteInputs):
          // every outcome is possible, thread by thread.
          if (r && (mayBeNonFinite(a) || mayBeNonFinite(b))) {
            Term nf = T.boolVar(nonFiniteFlag());
            r = T.orOf(T.andOf(T.notOf(nf), r),
                       T.andOf(nf, fresh("fcmp.nonfinite", Sort::Bool)));
          }
        } else {
          Term a = bits(c.getLhs()), b = bits(c.getRhs());
          if (!a || !b)
            return false;
          bool sgn = c.getIsSigned();
          switch (c.getPredicate()) {
          case CmpPredicate::Eq:
            r = T.eq(a, b);
            break;
          case CmpPredicate::Ne:
            r = T.notOf(T.eq(a, b));
            break;
          case CmpPredicate::Lt:
            r = sgn ? T.bvSlt(a, b) : T.bvUlt(a, b);
            break;
          case CmpPredicate::Le:
            r = sgn ? T.bvSle(a, b) : T.bvUle(a, b);
            break;
          case CmpPredicate::Gt:
            r = sgn ? T.bvSlt(b, a) : T.bvUlt(b, a);
            break;
          case CmpPredicate::Ge:
            r = sgn ? T.bvSle(b, a) : T.bvUle(b, a);
            break;
          default:
            break;
          }
        }
        if (!done(r))
          return false;
        set(f, c, r);
        return advance();
      })
      .Case<SelpOp>([&](SelpOp o) {
        Term c = bits(o.getCondition());
        SymValue a = val(o.getTrueValue()), b = val(o.getFalseValue());
        if (!c || !a.term || !b.term)
          return false;
        if (a.term->getSort() != b.term->getSort() || a.realBits != b.realBits) {
          unknown(loc, "selp between a real and integer bits");
          return false;
        }
        set(f, o, T.ite(c, a.term, b.term), a.realBits,
            a.realType == b.realType ? a.realType : Type());
        return done(val(o).term) && advance();
      })
      .Case<CvtOp>([&](CvtOp c) {
        Type from = c.getInput().getType(), to = c.getType();
        bool fromF = isa<FloatType>(from), toF = isa<FloatType>(to);
        Term r = nullptr;
        if (!fromF && !toF) {
          Term a = bits(c.getInput());
          if (!a)
            return false;
          unsigned fw = a->getWidth(), tw = to.getIntOrFloatBitWidth();
          if (c.getSat()) {
            // PTX ISA 9.7.9.21: the source value (signed or unsigned)
            // clamped to the destination's range.
            unsigned ww = std::max(fw, tw) + 2;
            Term v = c.getSrcSigned() ? T.bvSExt(a, ww) : T.bvZExt(a, ww);
            APInt lo = c.getDstSigned() ? APInt::getSignedMinValue(tw).sext(ww)
                                        : APInt(ww, 0);
            APInt hi = c.getDstSigned() ? APInt::getSignedMaxValue(tw).sext(ww)
                                        : APInt::getMaxValue(tw).zext(ww);
            Term clamped = T.ite(T.bvSlt(v, T.bv(lo)), T.bv(lo),
                                 T.ite(T.bvSlt(T.bv(hi), v), T.bv(hi), v));
            r = T.bvExtract(clamped, 0, tw);
            if (!done(r))
              return false;
            set(f, c, r);
            return advance();
          }
          r = tw < fw   ? T.bvExtract(a, 0, tw)
              : tw > fw ? (c.getSrcSigned() ? T.bvSExt(a, tw)
                                            : T.bvZExt(a, tw))
                        : a;
        } else if (!fromF && toF) {
          Term a = bits(c.getInput());
          if (!a)
            return false;
          r = T.bvToReal(a, c.getSrcSigned());
        } else if (fromF && toF) {
          Term a = real(c.getInput());
          if (!a)
            return false;
          if (to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth() ||
              (from.isF16() && to.isBF16()) || (from.isBF16() && to.isF16()))
          {
            std::string what;
            llvm::raw_string_ostream os(what);
            os << "conversion from " << from << " to " << to;
            result.downgrades.push_back({what, loc});
          }
          if (c.getMode() && (*c.getMode() == FloatMode::RNI ||
                              *c.getMode() == FloatMode::RZI ||
                              *c.getMode() == FloatMode::RMI ||
                              *c.getMode() == FloatMode::RPI)) {
            unknown(loc, "rounding to an integral value is not modeled");
            return false;
          }
          r = c.getSat() ? saturate(a) : a;
        } else {
          unknown(loc, "float to integer conversion is not modeled");
          return false;
        }
        if (!done(r))
          return false;
        set(f, c, r);
        return advance();
      })
      .Case<FloatBinOp>([&](FloatBinOp o) {
        SmallVector<Term, 2> as = lanes(o.getLhs()), bs = lanes(o.getRhs());
        if (as.empty() || bs.size() != as.size())
          return false;
        SmallVector<Term, 2> rs;
        for (auto [a, b] : llvm::zip(as, bs)) {
          Term r = floatBinary(s, o, a, b, loc);
          if (!r)
            return false;
          rs.push_back(r);
        }
        setLanes(o.getResult(), rs);
        return advance();
      })
      .Case<FmaOp>([&](FmaOp o) {
        SmallVector<Term, 2> as = lanes(o.getA()), bs = lanes(o.getB()),
                             cs = lanes(o.getC());
        if (as.empty() || bs.size() != as.size() || cs.size() != as.size())
          return false;
        SmallVector<Term, 2> rs;
        for (auto [a, b, c] : llvm::zip(as, bs, cs)) {
          if (readingIllConditioned(Kind::Mul, a, b, c, loc))
            return false;
          bool idiom = false;
          Term ln = naturalLog(T, a, b, idiom);
          if (ln && idiom)
            result.idioms.push_back(
                {"lg2(f) * 0f3F317218 read as log(f) (__logf)", loc});
          Term r = T.add(ln ? ln : T.mul(a, b), c);
          if (o.getSat() && r)
            r = saturate(r);
          r = keepNonFinite(r, {a, b, c});
          if (!done(r))
            return false;
          rs.push_back(r);
        }
        setLanes(o.getResult(), rs);
        return advance();
      })
      .Default([](Operation *) { return std::nullopt; });
}

Term Executor::floatBinary(State &s, FloatBinOp o, Term a, Term b,
                           Location loc) {
  // The reals model of fbin `o` on one element (a, b).
  Term r = nullptr;
  if ((o.getKind() == FloatBinKind::Add &&
       readingIllConditioned(Kind::Add, a, b, nullptr, loc)) ||
      (o.getKind() == FloatBinKind::Sub &&
       readingIllConditioned(Kind::Add, a, T.neg(b), nullptr, loc)) ||
      (o.getKind() == FloatBinKind::Mul &&
       readingIllConditioned(Kind::Mul, a, b, nullptr, loc)))
    return nullptr;
  // A butterfly step of a warp reduction: the lane reduction.
  r = combineButterfly(s, o.getKind(), a, b);
  if (!r)
    switch (o.getKind()) {
    case FloatBinKind::Add:
      r = T.add(a, b);
      break;
    case FloatBinKind::Sub:
      r = T.sub(a, b);
      break;
    case FloatBinKind::Mul: {
      bool idiom = false;
      if (!(r = naturalLog(T, a, b, idiom)))
        r = T.mul(a, b);
      else if (idiom)
        result.idioms.push_back(
            {"lg2(f) * 0f3F317218 read as log(f) (__logf)", loc});
      break;
    }
    case FloatBinKind::Div:
      result.divisors.push_back({s.pc, b, loc, "divisor of div"});
      r = T.div(a, b);
      break;
    case FloatBinKind::Min:
      r = T.min(a, b);
      break;
    case FloatBinKind::Max:
      r = T.max(a, b);
      break;
    case FloatBinKind::CopySign: {
      Term mag = T.ite(T.realLt(b, T.real(0)), T.neg(b), b);
      r = T.ite(T.realLt(a, T.real(0)), T.neg(mag), mag);
      break;
    }
    }
  if (o.getSat() && r)
    r = saturate(r);
  r = keepNonFinite(r, {a, b});
  r = settleExtended(s, r);
  if (!resultModeled(r, loc))
    return nullptr;
  return r;
}

std::optional<bool> Executor::execFloatOp(State &s, Operation *op) {
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  auto advance = [&]() {
    ++f.it;
    return true;
  };
  auto real = [&](Value v) { return realOperand(f, v, loc); };
  auto done = [&](Term t) { return resultModeled(t, loc); };
  return llvm::TypeSwitch<Operation *, std::optional<bool>>(op)
      .Case<FloatUnaryOp>([&](FloatUnaryOp o) {
        if (auto vt = dyn_cast<VectorType>(o.getType())) {
          // neg / abs of packed halves, element by element (PTX ISA
          // 9.7.4.2, 9.7.4.3).
          if (o.getKind() != FloatUnaryKind::Neg &&
              o.getKind() != FloatUnaryKind::Abs) {
            unknown(loc, "this packed f16x2/bf16x2 operation is not modeled");
            return false;
          }
          Term packed = get(f, o.getInput()).term;
          if (!packed)
            return false;
          unsigned w = vt.getElementType().getIntOrFloatBitWidth();
          StringRef fmt = floatFormat(vt.getElementType());
          Term out = nullptr;
          for (int64_t k = 0; k < vt.getNumElements(); ++k) {
            Term x = realOfBits(T.bvExtract(packed, k * w, w), fmt);
            if (!x) {
              unknown(loc, "packed " + fmt +
                               " operand whose halves are not "
                               "known as " +
                               fmt + " values");
              return false;
            }
            Term r = o.getKind() == FloatUnaryKind::Neg
                         ? T.neg(x)
                         : T.ite(T.realLt(x, T.real(0)), T.neg(x), x);
            Term b = T.floatBits(r, fmt);
            out = out ? T.bvConcat(b, out) : b;
          }
          set(f, o.getResult(), out);
          return advance();
        }
        Term a = real(o.getInput());
        if (!a)
          return false;
        Term r = nullptr;
        switch (o.getKind()) {
        case FloatUnaryKind::Neg:
          r = T.neg(a);
          break;
        case FloatUnaryKind::Abs:
          r = T.ite(T.realLt(a, T.real(0)), T.neg(a), a);
          break;
        case FloatUnaryKind::Rcp:
          result.divisors.push_back({s.pc, a, loc, "operand of rcp"});
          r = T.div(T.real(1), a);
          break;
        case FloatUnaryKind::Sqrt:
          // sqrt of a negative number is NaN: the operand must be >= 0.
          result.alignments.push_back({s.pc, T.realLe(T.real(0), a), loc,
                                       "non-negative operand of sqrt"});
          r = T.realFn("sqrt", {a});
          break;
        case FloatUnaryKind::Rsqrt:
          result.alignments.push_back({s.pc, T.realLt(T.real(0), a), loc,
                                       "positive operand of rsqrt"});
          r = T.realFn("rsqrt", {a});
          break;
        case FloatUnaryKind::Ex2: {
          // The idiom is read arm by arm of an if-then-else (merged states,
          // selp): each path computes ex2 of its own arm, so the term is
          // the one a path-by-path execution (and the interpreter) gives.
          // Memoized: arms of merged states share sub-ites, and walking
          // the DAG as a tree would take time exponential in the merges.
          bool idiom = false;
          llvm::DenseMap<Term, Term> done;
          std::function<Term(Term)> ex2 = [&](Term x) -> Term {
            if (Term d = done.lookup(x))
              return d;
            Term r;
            if (x->getKind() == Kind::Ite) {
              r = T.ite(x->getOperand(0), ex2(x->getOperand(1)),
                        ex2(x->getOperand(2)));
            } else if (Term lifted =
                           N.matchInverseAtomScaled(x, ln2Atom(T))) {
              // ex2(f * log2(e)) = exp(f) exactly, log2(e) = 1 / log(2)
              // being the reading of the constant (reported there).
              r = T.exp(lifted);
            } else if (Term lifted = N.matchScaledLinear(x, log2eF32())) {
              idiom = true;
              r = T.exp(lifted);
            } else {
              r = T.exp2(x);
            }
            done[x] = r;
            return r;
          };
          r = ex2(a);
          if (idiom)
            result.idioms.push_back(
                {"ex2(0f3FB8AA3B * f) read as exp(f)", loc});
          break;
        }
        case FloatUnaryKind::Lg2:
          // PTX ISA 9.7.4.10: lg2 of +-0 is -inf (and ex2(-inf) = +0), a
          // value the reals model has only as a constant: a constant zero
          // operand gives -inf; any other operand must be positive.
          if (a->getKind() == Kind::RealConst && a->getRational().isZero()) {
            r = T.negInf();
            break;
          }
          result.alignments.push_back({s.pc, T.realLt(T.real(0), a), loc,
                                       "positive operand of lg2"});
          r = T.realFn("lg2", {a});
          break;
        case FloatUnaryKind::Tanh:
          r = T.realFn("tanh", {a});
          break;
        case FloatUnaryKind::Sin:
          r = T.realFn("sin", {a});
          break;
        case FloatUnaryKind::Cos:
          r = T.realFn("cos", {a});
          break;
        }
        if (o.getSat() && r)
          r = saturate(r);
        if (!done(r))
          return false;
        set(f, o, r);
        return advance();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace kproof::engine::exec
