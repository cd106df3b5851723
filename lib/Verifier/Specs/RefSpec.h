//===- RefSpec.h - specs written as a second, naive kernel ------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_VERIFIER_SPECS_REFSPEC_H
#define KPROOF_LIB_VERIFIER_SPECS_REFSPEC_H

#include "KProof/Verifier/Specs/Spec.h"

#include <map>
#include <string>

namespace kproof::engine {

/// A spec given as a reference kernel (docs/contracts.md, a reference kernel as
/// the spec):
///
///   spec = {reference = "naive_softmax", params = ["x", "y"], output = "y",
///           grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
///           file = "ref.ptx"}
///
/// - `reference`: the reference's `.entry`, by PTX name (mangled, demangled,
///   or demangled without parameters, as for `kernel`);
/// - `params` (optional, default: the contract's params in order): one
///   contract param name per reference parameter, in the reference's order;
///   the reference then reads the very same buffers (element terms "x[i]")
///   and scalar values or variables as the kernel;
/// - `output`: the contract buffer the spec defines; the reference must take
///   it as a parameter;
/// - `grid`, `block` (optional, default 1x1x1): the reference's own launch;
/// - `file` (optional): a `.ptx` (or PTX text) or `.mlir` file holding the
///   reference, relative to the contract's file; without it the reference is
///   looked up in the module that holds the contract.
///
/// The reference runs once, when the spec is built, through the symbolic
/// executor (Executor.h) in a term context of its own; element(i) copies the
/// reference's store to output element i into the caller's context:
/// - one reference thread: the final store to element i, combined over the
///   executor's paths (their conditions partition the inputs) as an ite
///   over the path conditions. For a symbolic i the elements are first
///   lifted to one family G(i) (anti-unifying the elements at the origin
///   and one step along each output dimension: input elements x[a + b*i],
///   integer constants alike), kept only when G(k) is exactly element k
///   (the same hash-consed term) for every k; otherwise an ite chain over
///   the elements (at most kMaxSymbolicElements of them);
/// - many reference threads: the writer of element e is found by inverting
///   the reference's layout (the store index as a mixed-radix linear form of
///   tid.* / ctaid.*), and the store's value is taken at that witness
///   thread. When the spec is built, Z3 proves that every element below the
///   output's extent has exactly this writer (coverage) and that no other
///   thread writes any element or outside the extent (uniqueness).
/// Anything that leaves the reference's meaning open makes element() null
/// with a reason (the verdict says "UNKNOWN: spec: ..."), never a guess: an
/// UNKNOWN of the executor, a reachable trap, an undischarged obligation of
/// the reference (divisor, alignment or extent), a path that does not write
/// the element, stores at data-dependent indices, a value that depends on an
/// unmodeled value (an uninitialized read, %clock, ...), an unproven layout.
///
/// Errors, emitted at `contract` (the result is then null, exit 2): a
/// malformed key, an unreadable or malformed `file`, an unknown reference
/// kernel, a `params` entry that is not a contract param or is repeated, a
/// parameter count or type mismatch (a buffer needs an address parameter, a
/// scalar the same type), an output that is not a buffer param or that the
/// reference does not take, and a reference that stores to an input buffer
/// on any of its paths.
std::unique_ptr<Spec> buildRefSpec(mlir::Operation *contract,
                                   mlir::DictionaryAttr spec,
                                   const SpecEnvironment &env);

/// The largest output (in elements) whose element at a symbolic index a
/// one-thread reference answers with an ite chain over every element.
constexpr uint64_t kMaxSymbolicElements = 4096;

/// Reads `t` (a BV index term) as sum(coeff * thread variable) + constant
/// over tid.* / ctaid.* (names -> coefficients, accumulated with `scale`);
/// false for anything else. It only proposes a layout-inversion witness:
/// callers prove the witness in the exact BV semantics (the checker's
/// coverage obligation, the reference spec's layout facts).
/// `splitIds`: also read `v & (2^j - 1)` and `v >> j` of a thread variable
/// v as the pseudo-variables "v%2^j" and "v/2^j" (a lane and a warp index:
/// "tid.x%32", "tid.x/32"), which the caller recombines as
/// v = (v/2^j) * 2^j + v%2^j. A shift of a sum, `(A + v) >> j` with every
/// coefficient of A a multiple of 2^j (a global warp index: `(ctaid.x *
/// ntid.x + tid.x) >> 5` with ntid.x = 64), reads as A / 2^j + "v/2^j".
bool readLinearForm(Term t, int64_t scale,
                    std::map<std::string, int64_t> &coeffs,
                    int64_t &constant, bool splitIds = false);

} // namespace kproof::engine

#endif // KPROOF_LIB_VERIFIER_SPECS_REFSPEC_H
