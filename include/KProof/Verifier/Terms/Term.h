//===- Term.h - the engine's hash-consed term DAG ---------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The symbolic executor turns kproof IR into terms of three sorts
// (docs/design-notes.md): exact reals for float registers, bit-vectors of PTX
// width for integers and addresses, and booleans for predicates. Terms are
// immutable and hash-consed by a TermContext: structurally equal terms are the
// same pointer, so equality is pointer equality and shared subterms are shared.
//
// Constructors fold only what is exactly true over the reals (x + 0 = x,
// constant arithmetic, max(-inf, x) = x for finite x, exp(-inf) = 0). Every
// other simplification belongs to the normalizer (Normalizer.h).
//
// Extended values (IEEE 754's -inf, +inf and NaN) exist only as the
// constants `NegInf`, `PosInf`, `NaN` and as leaves of ites over them (a
// causal mask `j <= i ? s : -inf`, a masked load `other = -inf`): every
// other real term is finite, which the folds rely on. The constructors keep
// it so by lifting an operation over such an ite, op(ite(c, a, b), x) =
// ite(c, op(a, x|c), op(b, x|!c)), and folding the operation where it meets
// an extended constant by IEEE rules (-inf + x = -inf, exp(-inf) = 0,
// -inf - -inf = NaN, comparisons with NaN false); what has no exact fold
// (inf * x of unknown sign, a function of an infinity) is refused (null,
// UNKNOWN). A max (min) of values that are -inf (+inf) on some inputs stays
// linear in its operands (a guarded form, TermContext::max). So arithmetic
// nodes never have extended operands; the normal forms, the solver and the
// evaluator meet extended values only at ites, comparisons and equalities,
// where an obligation's `kernel == spec` becomes a boolean over the cases.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_TERM_H
#define KPROOF_VERIFIER_TERMS_TERM_H

#include "KProof/Verifier/Terms/Rational.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kproof::engine {

enum class Sort : uint8_t { Bool, Real, BV };

enum class Kind : uint8_t {
  // --- Bool ---
  BoolConst, ///< payload: boolValue
  BoolVar,   ///< payload: name
  Not,       ///< (b)
  And,       ///< n-ary, >= 2 operands
  Or,        ///< n-ary, >= 2 operands
  // Comparisons produce Bool.
  RealLt, ///< (a, b) a < b over the reals
  RealLe, ///< (a, b) a <= b
  Eq,     ///< (a, b) of one sort (Real, BV or Bool)
  BVUlt,  ///< (a, b) unsigned <
  BVUle,  ///< (a, b) unsigned <=
  BVSlt,  ///< (a, b) signed <
  BVSle,  ///< (a, b) signed <=

  // --- any sort ---
  Ite, ///< (cond: Bool, then, else), then/else of the result sort

  // --- Real ---
  RealConst, ///< payload: rational
  NegInf,    ///< -infinity (a constant or an ite leaf; see the file comment)
  PosInf,    ///< +infinity
  NaN,       ///< IEEE 754 NaN (from -inf - -inf, 0 * inf): equal to nothing
  RealVar,   ///< payload: name (an input value, e.g. "x[2]")
  Add,       ///< n-ary sum, >= 2 operands
  Mul,       ///< n-ary product, >= 2 operands
  Div,       ///< (a, b): a / b; the executor raises the b != 0 obligation
  Exp,       ///< (a): e^a (uninterpreted in the solver, see Normalizer.h)
  Exp2,      ///< (a): 2^a (uninterpreted; lifted to Exp by the ex2 idiom)
  Max,       ///< (a, b) over the reals (no NaN in the reals model)
  Min,       ///< (a, b)
  /// An uninterpreted real function of real arguments whose true function is
  /// known by name ("sqrt", "rsqrt", "lg2", "tanh", "sin", "cos"): equal
  /// arguments give equal values; MPFR evaluates the true function.
  RealFn, ///< payload: name; operands: real arguments
  /// An element of an input buffer at a symbolic index: payload name is the
  /// buffer name, operand 0 the index (BV). Concrete indices use RealVar
  /// "name[i]" instead, so that both spellings never coexist for one
  /// element (TermContext::element picks the right one).
  Select,
  BVToReal, ///< (a): the integer value of a, signed if `isSigned`
  /// Reductions over a range of integers (a loop summary, or a spec over a
  /// symbolic extent): (lo: BV, hi: BV, body: Real), payload name the bound
  /// variable, a BVVar of lo's width that occurs free in body only. The
  /// range is the signed integers lo <= j < hi; an empty range gives 0
  /// (SumOver), -inf (MaxOver), +inf (MinOver). The bound variable is
  /// named canonically by nesting level ("$r1" innermost, see
  /// TermContext::reduce), so alpha-equivalent reductions are one term.
  SumOver,
  MaxOver,
  MinOver,

  // --- BV ---
  BVConst, ///< payload: apint
  BVVar,   ///< payload: name, width
  BVAdd,
  BVSub,
  BVMul,
  BVUDiv,
  BVSDiv,
  BVURem,
  BVSRem, ///< (a, b), PTX
          ///< division by zero is
          ///< an obligation
  BVAnd,
  BVOr,
  BVXor, ///< (a, b)
  BVNot, ///< (a)
  BVShl,
  BVLShr,
  BVAShr,    ///< (a, amount) with SMT-LIB semantics (shift >=
             ///< width gives 0 / sign fill), amount same width
  BVZExt,    ///< (a) to `width`
  BVSExt,    ///< (a) to `width`
  BVExtract, ///< (a) bits [lo + width - 1 : lo], payload: lo
  BVConcat,  ///< (hi, lo)
  /// (a: Real): the bits of real `a` in the floating-point format named by
  /// the payload ("f16", "bf16", "f32", "f64"; IEEE 754 binary16/32/64 and
  /// bfloat16), `width` = the format's width. Uninterpreted in the solver
  /// (a function of the real: equal reals give equal bits), so a proof
  /// holds for the true encoding; only its inverse is folded: reading the
  /// bits back in the same format is `a` (the executor's packed halves,
  /// PTX ISA 5.2.1: f16x2 in one .b32 register).
  FloatBits,
};

class TermContext;

/// One node of the DAG. Never constructed directly: use TermContext.
class TermNode {
public:
  Kind getKind() const { return kind; }
  Sort getSort() const { return sort; }
  /// Bit width of a BV term (0 otherwise).
  unsigned getWidth() const { return width; }
  llvm::ArrayRef<const TermNode *> getOperands() const { return operands; }
  const TermNode *getOperand(unsigned i) const { return operands[i]; }
  unsigned getNumOperands() const { return operands.size(); }
  /// A stable creation index (deterministic ordering of commutative ops).
  unsigned getId() const { return id; }

  bool getBoolValue() const { return boolValue; }
  const Rational &getRational() const { return rational; }
  const llvm::APInt &getAPInt() const { return apint; }
  llvm::StringRef getName() const { return name; }
  unsigned getExtractLow() const { return extractLow; }
  /// BVToReal: whether the bit-vector is read as signed.
  bool isSigned() const { return boolValue; }

  bool isRealConst() const { return kind == Kind::RealConst; }
  /// SumOver, MaxOver or MinOver.
  bool isReduction() const {
    return kind == Kind::SumOver || kind == Kind::MaxOver ||
           kind == Kind::MinOver;
  }
  bool isConstant() const {
    return kind == Kind::RealConst || kind == Kind::BoolConst ||
           kind == Kind::BVConst || kind == Kind::NegInf ||
           kind == Kind::PosInf || kind == Kind::NaN;
  }
  /// Which extended values the term may take (kExtended* bits): nonzero
  /// only for the constants -inf, +inf, NaN and for ites with such a leaf
  /// (every other real term is finite: see the file comment).
  unsigned getExtended() const { return extended; }
  bool mayBeNonFinite() const { return extended != 0; }
  /// The number of leaves of the ite spine over extended leaves (1 for any
  /// other term): the cases that lifting an operation over it creates.
  unsigned getExtendedLeaves() const { return extendedLeaves; }
  static constexpr unsigned kExtendedNegInf = 1, kExtendedPosInf = 2,
                            kExtendedNaN = 4;

  void print(llvm::raw_ostream &os) const;
  std::string toString() const;
  /// At most about `limit` characters of toString(), ending in "..." when
  /// cut; the walk stops at the limit (toString of a DAG with shared
  /// subterms prints a tree, exponential in the sharing depth).
  std::string toBriefString(size_t limit = 160) const;
  /// The term in infix notation for people (`--explain`): `x[2*tid.x +
  /// n*ctaid.x]`, `exp(a - b)`, `max_{j1 in [0, n)} x[j1]`, `(c ? a : b)`;
  /// extensions are not shown, signed and unsigned comparisons are `<` and
  /// `<u`, bound variables `j1, j2, ...`. At most about `limit`
  /// characters, ending in "..." when cut (the walk stops there).
  std::string toReadableString(size_t limit = 2000) const;

private:
  friend class TermContext;
  Kind kind;
  Sort sort;
  unsigned width = 0;
  unsigned id = 0;
  unsigned extractLow = 0;
  bool boolValue = false;
  unsigned extended = 0;
  unsigned extendedLeaves = 1;
  llvm::SmallVector<const TermNode *, 3> operands;
  Rational rational;
  llvm::APInt apint;
  std::string name;
};

using Term = const TermNode *;

/// The input table an integer element term reads: the buffer of a
/// BV-sorted Select (`idx[e]`) or of a constant-index element BVVar
/// ("idx[3]", TermContext::intElement); none for any other term.
std::optional<llvm::StringRef> intElementTable(Term t);

/// The contract's preconditions on the integer table element `t`, appended
/// to `out`: lo <= t < hi for `range` = [lo, hi) (signed), and t <= atMost
/// (a contract `at_most`: both sign-extended to the wider width) when
/// `atMost` is not null. Used by every query that reads such an element.
void appendTableFacts(TermContext &T, Term t,
                      std::optional<std::pair<int64_t, int64_t>> range,
                      Term atMost, llvm::SmallVectorImpl<Term> &out);

/// Orders terms by creation (TermNode::getId): a deterministic order where
/// pointer order changes from run to run with the allocator's addresses.
struct TermIdLess {
  bool operator()(Term a, Term b) const { return a->getId() < b->getId(); }
};

} // namespace kproof::engine

/// Terms hash by creation id, not by address, so that every DenseMap and
/// DenseSet keyed by terms iterates in the same order on every run (the
/// pointer hash made the order of built terms, hence queries and verdicts
/// under resource limits, depend on ASLR).
template <> struct llvm::DenseMapInfo<const kproof::engine::TermNode *> {
  using Ptr = const kproof::engine::TermNode *;
  static Ptr getEmptyKey() {
    return static_cast<Ptr>(DenseMapInfo<const void *>::getEmptyKey());
  }
  static Ptr getTombstoneKey() {
    return static_cast<Ptr>(DenseMapInfo<const void *>::getTombstoneKey());
  }
  static unsigned getHashValue(Ptr p) { return p->getId() * 37u; }
  static bool isEqual(Ptr a, Ptr b) { return a == b; }
};

namespace kproof::engine {

/// Owns and hash-conses terms. Not thread-safe.
class TermContext {
public:
  TermContext();
  ~TermContext();
  TermContext(const TermContext &) = delete;
  TermContext &operator=(const TermContext &) = delete;

  // --- Bool ---
  Term boolConst(bool v);
  Term boolVar(llvm::StringRef name);
  Term notOf(Term a);
  Term andOf(llvm::ArrayRef<Term> ops);
  Term andOf(Term a, Term b) { return andOf({a, b}); }
  Term orOf(llvm::ArrayRef<Term> ops);
  Term orOf(Term a, Term b) { return orOf({a, b}); }
  Term implies(Term a, Term b) { return orOf(notOf(a), b); }
  Term realLt(Term a, Term b);
  Term realLe(Term a, Term b);
  Term eq(Term a, Term b);
  Term bvUlt(Term a, Term b);
  Term bvUle(Term a, Term b);
  Term bvSlt(Term a, Term b);
  Term bvSle(Term a, Term b);

  /// if-then-else of any sort; folds constant conditions and equal arms.
  /// Real arms may be extended values (-inf, +inf, NaN, or ites over them).
  Term ite(Term c, Term t, Term e);
  /// `t` under the assumption that `c` is `value`: every ite on `c` along
  /// the spine of extended leaves of `t` is replaced by the arm it
  /// selects (exact; used when an operation is lifted over an ite on c).
  Term decideExtendedCases(Term t, Term c, bool value);

  // --- Real ---
  Term real(const Rational &q);
  Term real(int64_t num, int64_t den = 1) { return real(Rational(num, den)); }
  Term negInf();
  Term posInf();
  /// IEEE 754 NaN (what -inf - -inf, 0 * inf, inf / inf give).
  Term nan();
  Term realVar(llvm::StringRef name);
  Term add(llvm::ArrayRef<Term> ops);
  Term add(Term a, Term b) { return add({a, b}); }
  Term sub(Term a, Term b);
  Term mul(llvm::ArrayRef<Term> ops);
  Term mul(Term a, Term b) { return mul({a, b}); }
  Term neg(Term a);
  Term div(Term a, Term b);
  Term exp(Term a);
  Term exp2(Term a);
  /// max/min of reals, kept as canonical chains (Term.cpp, maxMinChain):
  /// nests of up to 64 operands in any order and grouping are one term.
  Term max(Term a, Term b);
  Term min(Term a, Term b);
  Term realFn(llvm::StringRef fn, llvm::ArrayRef<Term> args);
  /// Element `index` of input buffer `buffer`: RealVar "buffer[i]" for a
  /// constant index, Select otherwise.
  Term element(llvm::StringRef buffer, Term index);
  /// Integer element `index` (64-bit BV) of input buffer `buffer`, whose
  /// elements have `width` bits: BVVar "buffer[i]" for a constant index,
  /// else a BV-sorted Select (an uninterpreted read `buffer[index]`, any
  /// value of its width unless the contract restricts the buffer).
  Term intElement(llvm::StringRef buffer, Term index, unsigned width);
  Term bvToReal(Term a, bool isSigned);
  /// The reduction `kind` (SumOver, MaxOver, MinOver) of `body` over the
  /// signed integers `var` in [lo, hi): `var` is a BVVar of lo's and hi's
  /// width, free in `body` (any name; it is renamed to the canonical
  /// "$r<level>", level = 1 + the deepest reduction inside `body`, so
  /// sum_j f(j) built from a kernel loop and from a spec is one term).
  /// Folds an empty constant range (0, -inf, +inf) and a one-element
  /// constant range (body at lo). A max (min) over a range that may be
  /// empty is -inf (+inf) there: unless `nonEmpty` (the caller proved the
  /// range non-empty, or rebuilds an existing reduction node whose
  /// emptiness is handled around it) or the bounds' known ranges prove
  /// lo < hi (provablyBelow), the result is ite(lo <s hi, R, -inf/+inf),
  /// an extended value, so that arithmetic on it lifts over the empty case
  /// (a reduction node itself is finite to every fold).
  Term reduce(Kind kind, Term var, Term lo, Term hi, Term body,
              bool nonEmpty = false);
  /// Whether lo <s hi follows from the constants and the declared bounds
  /// of the variables in lo and hi (setLowerBound, setUpperBound), through
  /// extensions, sums and ites of them. False when unsure.
  bool provablyBelow(Term lo, Term hi);
  /// The bound variable of reduction `t` (a BVVar, free in its body).
  Term boundVar(Term t);
  /// reduce() of a masked body, `ite(bounds on var and var-free
  /// conditions, f, neutral)`, as the reduction of f over the intersected
  /// range shifted to start at 0 (exact; see Term.cpp). Null when the body
  /// has another shape or a bound may wrap.
  Term reduceMasked(Kind kind, Term var, Term lo, Term hi, Term body);

  // --- BV ---
  Term bv(const llvm::APInt &v);
  Term bv(uint64_t v, unsigned width) { return bv(llvm::APInt(width, v)); }
  Term bvVar(llvm::StringRef name, unsigned width);
  /// Binary BV op of `kind` (BVAdd ... BVAShr) with constant folding.
  Term bvBin(Kind kind, Term a, Term b);
  Term bvNot(Term a);
  Term bvZExt(Term a, unsigned width);
  Term bvSExt(Term a, unsigned width);
  Term bvExtract(Term a, unsigned lo, unsigned width);
  Term bvConcat(Term hi, Term lo);
  /// The bits of real `a` in float format `format` ("f16", "bf16", "f32",
  /// "f64"): a FloatBits term of the format's width, or the constant
  /// bits when `a` is a constant the format holds exactly. Null for an
  /// unknown format.
  Term floatBits(Term a, llvm::StringRef format);
  /// The real whose bits `t` is in `format`: the operand of a FloatBits
  /// of that format, lifted over ites, or a constant's value; null when
  /// `t` is not such bits (another format, or bits computed otherwise).
  /// `leaf`, when given, reads the other leaves (or returns null).
  Term realOfFloatBits(Term t, llvm::StringRef format,
                       llvm::function_ref<Term(Term)> leaf = {});

  /// `t` with its operands replaced by `ops` (same kind and payload),
  /// through the folding constructors.
  Term rebuild(Term t, llvm::ArrayRef<Term> ops);
  /// `t` with every nest of max (min) of more than kMaxChain operands, which
  /// construction keeps as written (binary), rebuilt as one canonical chain
  /// (flattened, deduplicated, sorted by term id, constants folded): the
  /// value is the same (max and min are associative, commutative and
  /// idempotent), and two nests of the same operands in different orders
  /// (a kernel's reduction tree and a spec's left fold over 1000 elements)
  /// become one term. Costs the nest's size once per maximal nest; `t`
  /// itself when it has no such nest.
  Term canonicalChains(Term t);
  /// `t` with every occurrence of a key of `map` replaced by its value
  /// (variables by terms), memoized over the DAG. Null when a rebuilt
  /// operation has no term (an operation of infinities without a value,
  /// such as -inf - -inf, after a substitution made both operands
  /// infinite): callers must check.
  Term substitute(Term t, const llvm::DenseMap<Term, Term> &map);

  /// Number of distinct terms created.
  size_t size() const { return nodes.size(); }

  // --- Index normal form (IndexForm.cpp) ---

  /// Declares that the BV variable `name` never exceeds `max` (unsigned)
  /// on any execution the engine considers: thread ids below their launch
  /// extents (tid.x <= ntid.x - 1 <= block[0] - 1). Clears the cache of
  /// canonicalIndex.
  void setUpperBound(llvm::StringRef name, uint64_t max);
  /// The declared bound of a BV variable, if any.
  std::optional<uint64_t> upperBound(llvm::StringRef name) const;
  /// Declares that the BV variable `name` is at least `min` (unsigned; a
  /// size parameter's contract range), for provablyBelow and
  /// canonicalIndex. Clears the cache of canonicalIndex.
  void setLowerBound(llvm::StringRef name, uint64_t min) {
    lowerBounds[name] = min;
    canonicalCache.clear();
  }
  /// The declared lower bound of a BV variable, if any.
  std::optional<uint64_t> lowerBound(llvm::StringRef name) const {
    auto it = lowerBounds.find(name);
    if (it == lowerBounds.end())
      return std::nullopt;
    return it->second;
  }
  /// Whether canonicalIndex multiplies out products of two bounded linear
  /// forms into monomials (n * (32 c + t) = 32 n c + n t, factors in
  /// creation order), so that products spelled differently meet; off by
  /// default (a product stays one atom, which the row-of-element rules
  /// read). Set for a scope with saveBounds/restoreBounds.
  bool multipliesOutProducts() const { return multiplyOut; }
  void setMultiplyOutProducts(bool on) {
    multiplyOut = on;
    canonicalCache.clear();
  }
  /// `t` (a BV index or byte offset, at most 64 bits) as c * n * R + W,
  /// exactly on every execution within the declared bounds: its linear
  /// form has one product atom n * R (n a BV variable with a declared
  /// upper bound, a size such as a row length; R the other factor) with a
  /// positive coefficient c, and W (the rest, a linear form without that
  /// product) is non-negative. nullopt otherwise.
  struct ProductSplit {
    Term size;        ///< n, a BVVar
    Term sizeTerm;    ///< n as it appears in the product (zext/sext of n)
    Term factor;      ///< R, at t's width
    uint64_t coeff;   ///< c
    Term rest;        ///< W, at t's width
  };
  std::optional<ProductSplit> splitByProduct(Term t);
  /// The declared bounds, to restore after a scope that narrowed them
  /// under a path condition (restoreBounds clears canonicalIndex's cache).
  struct SavedBounds {
    llvm::StringMap<uint64_t> upper, lower;
    bool multiplyOut;
  };
  SavedBounds saveBounds() const {
    return {upperBounds, lowerBounds, multiplyOut};
  }
  void restoreBounds(SavedBounds b) {
    upperBounds = std::move(b.upper);
    lowerBounds = std::move(b.lower);
    multiplyOut = b.multiplyOut;
    canonicalCache.clear();
  }
  /// The canonical form of a BV index term: its exact value as a linear
  /// form c0 + sum c_i * a_i over atoms (variables, table reads, and
  /// subterms it cannot read), rebuilt in a fixed order, so that two index
  /// terms with the same value as linear forms become the same term
  /// (x[4 * sext(i) / 4] and x[sext(i)] are one element). A rewrite is
  /// used only where interval bounds (the atoms' widths and the declared
  /// upper bounds) prove that no operation wraps: ((b * 128 + l) / 128 = b
  /// for l <= 127), zero- and sign-extensions of non-negative values,
  /// masks and shifts by powers of two, xor/or with a constant below the
  /// alignment of the rest. The result equals `t` on every execution
  /// within the declared bounds; `t` itself when nothing applies.
  /// TermContext::element and intElement index through it.
  Term canonicalIndex(Term t);
  /// The unsigned interval [lo, hi] that the index normal form proves for
  /// the value of the BV term `t` (at most 64 bits) on every execution
  /// within the declared bounds, when its value is exact: its linear form
  /// does not wrap (a sum, a scaling or a product that may wrap gives
  /// nullopt; any other atom its width's range or its known bounds).
  std::optional<std::pair<uint64_t, uint64_t>> indexInterval(Term t);
  /// The value of the Bool term `c` when the index normal form decides it
  /// on every execution within the declared bounds: a comparison (=, <, <=,
  /// signed where both sides are below 2^(w-1)) of two BV terms whose
  /// intervals do not overlap or whose forms are equal, or the negation of
  /// one (`tid.x <s 240` is true for tid.x <= 15). nullopt otherwise.
  std::optional<bool> decideByBounds(Term c);

private:
  /// `t` with free occurrences of BVVar `from` replaced by `to`, not
  /// entering reductions that bind `from` themselves.
  Term renameBound(Term t, Term from, Term to);
  Term maxMinChain(Kind kind, Term a, Term b);
  /// The canonical chain of `items` (flattened), or null past kMaxChain
  /// operands.
  Term maxMinChainOf(Kind kind, llvm::ArrayRef<Term> items);
  static constexpr size_t kMaxChain = 64;
  /// Lifts `build` over the first operand of `ops` that is an ite with an
  /// extended leaf (see the file comment): ite(c, build(ops | c), build(ops
  /// | !c)). nullopt when no operand is such an ite; null (refused) when
  /// the lifted cases would exceed kMaxExtendedCases.
  std::optional<Term>
  liftExtended(llvm::ArrayRef<Term> ops,
               llvm::function_ref<Term(llvm::ArrayRef<Term>)> build);
  static constexpr unsigned kMaxExtendedCases = 256;
  /// max (isMax) or min of a and b when one may be the neutral infinity
  /// (-inf for max, +inf for min) on some inputs and neither has another
  /// extended leaf: one ite over "some operand is finite", linear in the
  /// operands (TermContext::max); nullopt when not of that shape.
  std::optional<Term> guardedMaxMin(bool isMax, Term a, Term b);
  /// `kind` (SumOver, MaxOver, MinOver) of a and b as one reduction when
  /// both are ranges of one body that meet: a reduction (or reduce()'s
  /// ite(lo <s hi, R, neutral) around one), or an element guarded by a
  /// symbolic bound, ite(c <s n, v, neutral), read as the one-element range
  /// [c, smin(n, c + 1)) of v with its element indices made relative to c.
  /// [l1, smin(n, l2)) and [l2, smin(n, x)) with l1 <= l2 <= x become
  /// [l1, smin(n, x)) (exact for every n). A masked load per lane, combined
  /// over a warp, becomes one reduction over [0, n) (Triton's masked rows).
  /// Null when not of that shape.
  Term mergeRanges(Kind kind, Term a, Term b);
  /// The ranges a max, min or sum that mergeRanges could not join into one
  /// was built from: the term is that op of its parts, exactly (kept through
  /// substitute, so a lane's two chunks stay ranges in the butterfly's
  /// copies of that lane).
  llvm::DenseMap<Term, llvm::SmallVector<Term, 2>> rangeParts;
  /// Set while mergeRanges folds parts it could not join (no merging then).
  bool foldingRanges = false;
  Term intern(Kind kind, Sort sort, unsigned width,
              llvm::ArrayRef<Term> operands, const Rational *q = nullptr,
              const llvm::APInt *ap = nullptr, llvm::StringRef name = {},
              bool boolValue = false, unsigned extractLow = 0);
  struct KeyHash;
  llvm::StringMap<uint64_t> upperBounds, lowerBounds;
  llvm::DenseMap<Term, Term> canonicalCache;
  bool multiplyOut = false;
  std::vector<std::unique_ptr<TermNode>> nodes;
  std::unordered_multimap<size_t, TermNode *> table;
};

/// Every subterm of `roots` (the roots included), each once; the walk is
/// iterative, so deep terms do not exhaust the stack. Order unspecified.
llvm::SmallVector<Term> subterms(llvm::ArrayRef<Term> roots);

/// The conjuncts of `t`, nested Ands flattened (`t` itself when it is no
/// And).
llvm::SmallVector<Term> conjunctsOf(Term t);

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Term t) {
  t->print(os);
  return os;
}

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_TERMS_TERM_H
