//===- Probe.h - random concrete inputs for an obligation ------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Testing before proving. Before a value obligation goes to Z3, the checker
// draws a few concrete inputs for the free variables of the query (its path
// condition, the kernel's value, the spec's value) and evaluates them with
// the TRUE functions (Evaluate.h). An input under which the path condition
// is True and kernel and spec definitely differ is a counterexample of
// exactly the kind a Z3 model is, and is confirmed the same way; an input
// that does not is thrown away. Probing therefore never proves anything and
// never changes a PROVED: it only finds a REFUTED sooner (the solver's
// nonlinear real arithmetic over many exp atoms can take minutes on a
// query whose counterexample any small input shows), and its inputs are the
// same on every run (a seeded splitmix64, no std distributions), so its
// counterexamples are repeatable, unlike Z3's models under a reused context.
//
// What is drawn:
//  - a BV variable: within the bounds its path condition states with
//    constants or already-drawn variables (v <u c, v <=u c, c <=u v, v <s c,
//    v == c, and their negations) and the bound TermContext declares (thread
//    ids below their launch extents); without any bound, a small value;
//  - a real variable or real element: a small integer or a multiple of 1/4
//    in [-4, 4] (readable, and exp of it stays well inside double range);
//  - an integer element: within its buffer's declared value range;
//  - the non-finite-input flag (Executor.h, nonFiniteFlag): false, since a
//    counterexample the engine prints has finite inputs; other booleans at
//    random.
// Elements at symbolic indices are drawn in rounds: an index is evaluated
// once the variables it reads are drawn (an index table read first, then
// the element it selects).
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_CHECK_PROBE_H
#define KPROOF_VERIFIER_CHECK_PROBE_H

#include "KProof/Verifier/Terms/Assignment.h"
#include "KProof/Verifier/Terms/Term.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <string>

namespace kproof::engine {

/// Draws concrete inputs for the free variables of a set of terms.
/// Deterministic: the same seed and terms give the same assignments, in the
/// same order, on every run and machine.
class InputSampler {
public:
  /// `T` supplies declared variable bounds (TermContext::upperBound).
  InputSampler(const TermContext &T, uint64_t seed);

  /// Integer elements of `buffer` (BV Select terms and BV variables named
  /// "buffer[i]") lie in [lo, hi) (a contract's value range of an index
  /// table).
  void setIntRange(llvm::StringRef buffer, int64_t lo, int64_t hi);

  /// One assignment to every variable and every element that `roots` read.
  /// `conditions` are Bool terms the input should satisfy (a path
  /// condition): their top-level conjuncts that bound a BV variable by a
  /// constant or by drawn variables shape the draw; nothing more is
  /// guaranteed, so the caller evaluates them. Real buffers read at
  /// symbolic indices get the default 0 for every element not drawn (the
  /// assignment is total, as a Z3 model's is). `round` 0 draws every value
  /// small (reals in {-2, ..., 2}, unbounded integers below 4).
  Assignment draw(llvm::ArrayRef<Term> roots,
                  llvm::ArrayRef<Term> conditions, unsigned round);

private:
  uint64_t next();
  /// Uniform in [0, n) (n > 0).
  uint64_t below(uint64_t n);
  Rational drawReal(bool small);

  const TermContext &T;
  uint64_t state;
  std::map<std::string, std::pair<int64_t, int64_t>> intRanges;
};

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_CHECK_PROBE_H
