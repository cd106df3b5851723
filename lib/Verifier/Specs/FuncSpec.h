//===- FuncSpec.h - specs written as func.func over tensors -----*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_VERIFIER_SPECS_FUNCSPEC_H
#define KPROOF_LIB_VERIFIER_SPECS_FUNCSPEC_H

#include "KProof/Verifier/Specs/Spec.h"

namespace kproof::engine {

/// A spec given as `{func = @f, inputs = ["x", "s"], output = "y"}`: the
/// func.func @f (found from the contract's symbol table) takes one tensor
/// per input buffer and one scalar per input scalar, in `inputs` order, and
/// returns the output tensor. Lowered element-wise (FuncSpec.cpp): output
/// element at a (possibly symbolic) flat index -> term, never a tensor.
///
/// Modeled (floats as exact reals, integers as bit-vectors, index as 64
/// bits, i1 as booleans):
/// - arith: constant (scalar and dense), addf subf mulf divf negf,
///   maximumf/maxnumf minimumf/minnumf, extf/truncf (exact), cmpf (ordered
///   == unordered), cmpi, select, addi subi muli divsi/ui remsi/ui shifts
///   andi ori xori max/min si/ui, index_cast(ui), ext/trunc i, sitofp uitofp;
///   on scalars or element-wise on tensors;
/// - math: exp exp2 sqrt rsqrt log ("log") log2 ("lg2") tanh sin cos absf
///   fma;
/// - tensor: empty (reading one of its elements is a spec error), extract,
///   insert, splat, cast, dim (constant dimension index), extract_slice
///   (static), expand/collapse_shape (static);
/// - linalg: every structured op on tensors (generic, map, reduce,
///   transpose, broadcast, matmul, fill, ...) by its indexing maps and body:
///   parallel dimensions from the output map (a projection), reduction
///   dimensions folded in increasing order from the `outs` element;
///   linalg.index; linalg.softmax (as the built-in softmax spec).
/// Dynamic shapes: a `?` extent binds a launch-dependent buffer extent
/// (BufferBinding::symbolicDims, e.g. `shape = ["nctaid.x", "ntid.x"]`), a
/// static one a concrete extent equal to it. Extents are 64-bit terms
/// (launch variables for `?`), traced through tensor.dim, the dynamic sizes
/// of tensor.empty/splat, tensor.cast/insert, linalg `outs` and element-wise
/// ops; flat indices split and linearize over them symbolically. Not
/// modeled (element() gives null with a reason, the verdict is UNKNOWN): a
/// reduction or a linalg.softmax over a launch-dependent extent,
/// extract_slice and expand/collapse_shape of tensors with a `?` extent.
/// Errors (missing function, arity/type/shape mismatch, a `?` bound to a
/// concrete extent or the reverse, a result extent that is not the output
/// buffer's, an unsupported op) are emitted at `contract` and give null;
/// errors found while computing an element (an uninitialized read) are its
/// `reason`.
/// With `outputs = ["o", "m"]` instead of `output`, the function returns one
/// tensor per name; `resultIndex` picks the result (and output buffer) this
/// spec defines.
std::unique_ptr<Spec> buildFuncSpec(mlir::Operation *contract,
                                    mlir::DictionaryAttr spec,
                                    const SpecEnvironment &env,
                                    unsigned resultIndex = 0);

} // namespace kproof::engine

#endif // KPROOF_LIB_VERIFIER_SPECS_FUNCSPEC_H
