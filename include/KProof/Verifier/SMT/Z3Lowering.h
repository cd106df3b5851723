//===- Z3Lowering.h - engine terms to Z3 expressions ------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Lowers the engine's terms (Term.h) to Z3 expressions through kproof's Z3
// wrapper (Z3Solver.h), and reads a Z3 model back as an Assignment.
//
// Sorts: Real -> Z3 Real (exact), BV(w) -> bit-vector of width w (wraps like
// PTX), Bool -> Bool. RealVar/BVVar/BoolVar become constants named by the
// variable, so a counterexample reads back by name.
//
// exp, exp2 and the named real functions (RealFn: sqrt, rsqrt, lg2, tanh,
// sin, cos, ...) are never given to Z3 as quantified axioms
// (docs/floating-point.md: Z3 does not answer with them). Each distinct such
// term becomes an "atom": a fresh Real constant ("exp!0", "sqrt!3", ...).
// atomFacts() then lists the ground, quantifier-free facts that relate the
// atoms lowered so far (positivity, pairwise monotonicity and injectivity,
// function congruence, ...), each under a stable name so that a proof
// certificate can assert it as `(assert (! fact :named name))`. A check must
// assert the facts it relies on; without them the atoms are unconstrained
// reals.
//
// Buffers read at symbolic indices (Select) become one uninterpreted
// function per buffer, `buffer : (_ BitVec 64) -> Real`, applied to the
// index zero-extended to 64 bits: an element index is an unsigned number
// (as in Assignment), and one domain width per buffer lets indices of
// different widths meet. A buffer element also read at a constant index is
// the RealVar "buffer[k]" (TermContext::element); atomFacts() links it to
// the function (`buffer(k) = buffer[k]`), so both spellings agree.
//
// Division is Z3's real division, total in SMT: the caller owns the
// denominator obligation. Max/Min become ite. BVToReal becomes bv2int
// (two's complement when signed) then int2real.
//
// Errors never crash: -inf/+inf, a null term, a name used with two sorts,
// or a Z3 API error make lower() return an invalid Expr and record the first
// reason (getError()).
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_SMT_Z3LOWERING_H
#define KPROOF_VERIFIER_SMT_Z3LOWERING_H

#include "KProof/Verifier/SMT/Z3Solver.h"
#include "KProof/Verifier/Terms/Assignment.h"
#include "KProof/Verifier/Terms/Rational.h"
#include "KProof/Verifier/Terms/Term.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kproof::engine {

/// A named ground fact (see Z3Lowering::atomFacts).
using NamedFact = std::pair<std::string, smt::Expr>;

/// Lowers terms of one TermContext into one smt::Context. Not thread-safe;
/// both contexts must outlive the lowering.
/// Ground facts pushing exp/exp2 through a branch, for every such atom
/// reachable from `assertions` (and from the facts themselves):
/// exp(max(a, b)) = ite(b <= a, exp(a), exp(b)), and min and ite alike
/// (quantifier-free instances, never an axiom). The facts are
/// appended to `assertions`.
void addBranchFacts(TermContext &terms,
                    llvm::SmallVectorImpl<Term> &assertions);

class Z3Lowering {
public:
  /// The domain width of every buffer function (see the file comment).
  static constexpr unsigned kIndexWidth = 64;

  Z3Lowering(smt::Context &z3, TermContext &terms);

  /// Lowers bit-vector terms as integers (must be set before the first
  /// lower()): a w-bit value is an Int in [0, 2^w), and each operation that
  /// may wrap defines a fresh Int by its exact modular meaning (x + y =
  /// r + 2^w k with 0 <= r < 2^w; x udiv y and x urem y by x = q y + r,
  /// 0 <= r < y, with SMT-LIB's values for y = 0; extract and sign
  /// extension likewise), so the encoding is equisatisfiable with the
  /// bit-vector one. Z3's nonlinear integer arithmetic then decides what
  /// bit-blasting cannot: products of two symbolic values (ctaid.x *
  /// ntid.x under a symbolic launch, docs/verify-sync.md "The model"). Bitwise
  /// and/or/xor (except masks 2^k - 1), shifts by a symbolic amount, signed
  /// division are not encoded: lower() fails on them. Buffers are functions of
  /// the Int index. The definitions are in intDefinitions(); assert them with
  /// the query.
  void setBitVectorsAsIntegers(bool on) { bvAsInt = on; }
  /// Integer mode: upper bounds of bit-vector variables that the query
  /// asserts (top-level conjuncts `v <= c`, `v < c`, `v < w` of
  /// `assertions`), so operations that cannot wrap under them need no
  /// modular encoding. Sound only when `assertions` are asserted in the
  /// same query.
  void assumeBoundsOf(llvm::ArrayRef<Term> assertions);
  bool bitVectorsAsIntegers() const { return bvAsInt; }
  /// The defining constraints of the fresh Ints (and the ranges of the
  /// bit-vector variables) introduced so far, in creation order, then the
  /// monotonicity instances of the products lowered so far: for products
  /// a*b and c*d (every encoded value is >= 0, both pairings of factors),
  /// a <= c and b <= d -> a*b <= c*d, and a < c and b <= d -> a*b + d <=
  /// c*d. They are valid facts of the integers that spare the nonlinear
  /// solver the reasoning behind `ctaid*ntid + tid` being injective and
  /// below nctaid*ntid.
  std::vector<smt::Expr> intDefinitions();

  /// The Z3 expression of `t`, memoized per term (also shared subterms, so
  /// a DAG lowers in time linear in its size; the walk is iterative, so deep
  /// terms do not exhaust the stack). Returns an invalid Expr when `t` or a
  /// subterm cannot be lowered; getError() says why.
  smt::Expr lower(Term t);

  /// The ground facts about every atom (and buffer element) lowered so far,
  /// as (name, fact) in a deterministic order with names stable across
  /// calls (each call returns all of them; a caller adding facts
  /// incrementally can skip names it has already asserted). Atom k has the
  /// Z3 name "<fn>!k" (atoms()); the facts are, for atoms a, b:
  ///  - exp (and exp2 alike, prefix "exp2_"):
  ///    "exp_pos!a":     exp(x) > 0
  ///    "exp_lt1!a":     (x < 0) == (exp(x) < 1)      [exp(0) = 1 is folded
  ///    "exp_gt1!a":     (0 < x) == (1 < exp(x))       by TermContext]
  ///    "exp_tangent!a": exp(x) >= 1 + x              (exp only)
  ///    and per pair a < b of atoms of one function:
  ///    "exp_mono!a!b":  (x < y) == (exp(x) < exp(y))
  ///    "exp_mono!b!a":  (y < x) == (exp(y) < exp(x))
  ///    "exp_inj!a!b":   (x = y) == (exp(x) = exp(y))
  ///  - RealFn "sqrt": "sqrt_nonneg!a": x >= 0 -> sqrt(x) >= 0;
  ///    "sqrt_square!a": x >= 0 -> sqrt(x) * sqrt(x) = x
  ///  - "rsqrt": "rsqrt_pos!a": x > 0 -> rsqrt(x) > 0;
  ///    "rsqrt_square!a": x > 0 -> rsqrt(x) * rsqrt(x) * x = 1
  ///  - "lg2": "lg2_sign!a": x > 0 -> ((x < 1) == (lg2(x) < 0) and
  ///    (1 < x) == (0 < lg2(x)))
  ///  - "tanh": "tanh_range!a": -1 < tanh(x) < 1 and "tanh_sign!a":
  ///    (x < 0) == (tanh(x) < 0) and (0 < x) == (0 < tanh(x))
  ///  - "sin", "cos": "<fn>_range!a": -1 <= value <= 1
  ///  - every RealFn, per pair of atoms of one name and arity:
  ///    "<fn>_cong!a!b": equal arguments -> equal values
  ///  - "elem_link!n": buffer(k) = buffer[k] for each RealVar "buffer[k]"
  ///    lowered for a buffer that is also read at a symbolic index.
  /// Facts are true of the real functions wherever they are defined (the
  /// domain-restricted ones are guarded by their domain), so asserting them
  /// is sound. Invalid facts (after a Z3 error) are left out.
  std::vector<NamedFact> atomFacts();

  /// After a Sat check: the values of every RealVar, BVVar and BoolVar and
  /// of every Select element lowered so far (plus the other points and the
  /// default of each buffer function the model lists). Reals are exact
  /// rationals. std::nullopt when a value is irrational (an algebraic number
  /// of a nonlinear model) or cannot be read; getModelError() says why.
  std::optional<Assignment> extractModel(const smt::Model &model);

  /// The exact value of a real term under `model` (lowering it if needed);
  /// std::nullopt for an irrational or unreadable value, with the reason in
  /// getModelError().
  std::optional<Rational> evalReal(const smt::Model &model, Term t);

  /// One atom: the term it stands for and its Z3 constant.
  struct Atom {
    Term term;
    smt::Expr value;
  };
  /// Every atom lowered so far, in creation order (atom k is atoms()[k]).
  const std::vector<Atom> &getAtoms() const { return atoms; }

  /// The first lowering error ("" if none). Sticky until clearError().
  const std::string &getError() const { return error; }
  bool hasError() const { return !error.empty(); }
  void clearError() { error.clear(); }
  /// Why the last extractModel/evalReal failed ("" if it did not).
  const std::string &getModelError() const { return modelError; }

  smt::Context &getZ3() const { return z3; }
  TermContext &getTerms() const { return terms; }

private:
  smt::Expr lowerNode(Term t);
  /// lowerNode for a term over bit-vectors in integer mode.
  smt::Expr lowerAsInt(Term t, llvm::ArrayRef<smt::Expr> ops);
  /// 2^k as an Int numeral.
  smt::Expr pow2(unsigned k);
  /// A buffer index numeral of the model (BV64, or Int in integer mode).
  std::optional<llvm::APInt> numeralIndex(const smt::Expr &e) const;
  /// A fresh Int in [0, 2^w) equal to `x` mod 2^w.
  smt::Expr wrapInt(const smt::Expr &x, unsigned w);
  /// Fresh q, r with x = q * y + r, 0 <= r < y for y != 0 and SMT-LIB's
  /// udiv/urem values (q = 2^w - 1, r = x) for y = 0.
  std::pair<smt::Expr, smt::Expr> divRem(const smt::Expr &x,
                                         const smt::Expr &y, unsigned w);
  smt::Expr lowerVar(Term t);
  smt::Expr lowerAtom(Term t, llvm::ArrayRef<smt::Expr> args);
  smt::Expr lowerSelect(Term t, const smt::Expr &index);
  /// A FloatBits term: an uninterpreted function of its real operand, one
  /// per format (bit-vectors; Ints in [0, 2^width) over the integers).
  smt::Expr lowerFloatBits(Term t, const smt::Expr &real);
  /// The bit-vector value of `e` (of `width` bits) under `model`, read
  /// from a BV numeral or, in integer mode, from an Int in [0, 2^width).
  std::optional<llvm::APInt> readBits(const smt::Model &model,
                                      const smt::Expr &e, unsigned width,
                                      llvm::StringRef what);
  /// Registers a Z3 symbol name with its signature; false (and an error) if
  /// the name is taken with another signature.
  bool declare(const std::string &name, const std::string &signature);
  /// A fresh name "<base>!k" that no declared symbol uses.
  std::string freshName(llvm::StringRef base, unsigned k);
  smt::Expr fail(std::string why);
  std::optional<Rational> readRational(const smt::Model &model,
                                       const smt::Expr &e,
                                       llvm::StringRef what);

  smt::Context &z3;
  TermContext &terms;
  llvm::DenseMap<Term, smt::Expr> memo;
  /// Z3 symbol name -> signature ("Real", "BV32", "Bool", "(BV64) Real").
  std::map<std::string, std::string> declared;
  /// Variables in lowering order.
  std::vector<std::pair<Term, smt::Expr>> vars;
  std::vector<Atom> atoms;
  /// Buffer functions by buffer name, and their creation order.
  std::map<std::string, smt::FuncDecl> buffers;
  /// The FloatBits functions by name ("fbits.f16", ...).
  std::map<std::string, smt::FuncDecl> floatBitsFns;
  std::vector<std::string> bufferOrder;
  /// Buffers of integer elements (BV-sorted Select), with the width.
  std::map<std::string, unsigned> intBufferWidths;
  struct SelectInfo {
    Term term;
    smt::Expr index64; ///< the index zero-extended to kIndexWidth
    smt::Expr value;   ///< buffer(index64)
  };
  std::vector<SelectInfo> selects;
  std::string error;
  std::string modelError;
  bool bvAsInt = false;
  std::vector<smt::Expr> intDefs;
  /// Integer mode: the products of two non-constant values lowered so far
  /// (factor, factor).
  std::vector<std::pair<smt::Expr, smt::Expr>> intProducts;
  /// Integer mode: a range [lo, hi] of each lowered bit-vector term's value
  /// (256-bit unsigned), and the asserted upper bounds of variables.
  llvm::DenseMap<Term, std::pair<llvm::APInt, llvm::APInt>> ranges;
  llvm::DenseMap<Term, llvm::APInt> varBounds;
  /// Integer mode: asserted non-negative lower bounds of variables (from
  /// `c <=s v` with c >= 0), which make their signed upper bounds unsigned.
  llvm::DenseMap<Term, llvm::APInt> varLowerBounds;
  /// Integer mode: an interval [lo, hi] (256-bit unsigned) holding the
  /// value of `t` under the asserted variable bounds, when the term is
  /// made of constants, bounded variables, extensions, sums, differences
  /// that cannot wrap, and ites; nullopt otherwise.
  std::optional<std::pair<llvm::APInt, llvm::APInt>>
  intervalOf(Term t, unsigned depth = 0) const;
  /// Integer mode: variables the query asserts non-zero (`not (v = 0)`).
  llvm::DenseSet<Term> nonZeroVars;
  /// Integer mode: bounds on products of two variables the query asserts
  /// (`zext(ntid.x) * zext(nctaid.x) <= max_threads`, and with `w < v`
  /// also on u * w), by the pair (lower id first).
  std::map<std::pair<Term, Term>, llvm::APInt> productBounds;
  /// Integer mode: products x * c (and shifts x << k) by a constant that
  /// cannot wrap, by term, with the Int of x: (x * c) udiv c = x.
  llvm::DenseMap<Term, std::pair<uint64_t, smt::Expr>> exactScaled;
  unsigned intFresh = 0;
};

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_SMT_Z3LOWERING_H
