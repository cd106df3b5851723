//===- Passes.h - kproof passes ---------------------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_TRANSFORMS_PASSES_H
#define KPROOF_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include <optional>

namespace kproof {

class KernelOp;

/// The unit attribute that marks a special-register read whose value is
/// arbitrary at each read (`%warpid`, `%smid`, `%gridid`, `%clock*`,
/// `%globaltimer`):
/// the executor gives each such read a fresh variable.
inline constexpr llvm::StringLiteral kFreshPerReadAttr = "kproof.fresh_per_read";

/// Lane symbolization, the rewrite of `--kproof-symbolize-lanes`, in place:
/// every `%laneid` read (PTX ISA 10.4) becomes
/// `(tid.x + ntid.x * (tid.y + ntid.y * tid.z)) & 31`, and reads of the
/// physical-slot and timer registers get `kFreshPerReadAttr`. Idempotent.
/// The proof engine runs it on every kernel it executes
/// (`engine::execute`) and relies on its output.
void symbolizeLanes(KernelOp kernel);

/// The string attribute naming the math function whose compiled instruction
/// sequence ends at the op carrying it (`"expf"`), set by
/// `recognizeMathIdioms`; the proof engine reads the op as that function.
inline constexpr llvm::StringLiteral kMathIdiomAttr = "kproof.math_idiom";

/// The unit attribute of an op whose results only a math idiom's ops read:
/// the proof engine does not evaluate it (the idiom's root gives the value).
inline constexpr llvm::StringLiteral kIdiomInteriorAttr =
    "kproof.idiom_interior";

/// One instance of nvcc's `expf` (CUDA's precise expf, libdevice `__nv_expf`,
/// without --use_fast_math; the same at -O3 and -G, sm_80 and sm_90, with or
/// without -ftz): with L = log2(e),
///   s = cvt.sat(fma.rn(x, L/256, 0.5)),  j = fma.rm(s, 252, 0x4B400001)
///   (the integer n in [1, 253] in j's low mantissa bits),
///   l = fma.rn(x, Llo, fma.rn(x, Lhi, -(j - 0x4B40007F))),
///   root = ex2.approx(l) * bitcast(bitcast(j) << 23)   [2^(n - 127)]
/// or `fma(ex2.approx(l), scale, addend)` when the product was fused into an
/// addition. In exact arithmetic the product is 2^(x (Lhi + Llo)): the scale
/// cancels the reduction, so the root is exp(x) (+ addend) wherever the
/// scale is a normal float; IEEE's +inf for x > 88.72 and 0 below the
/// subnormal range are not modeled (as for ex2). Source: the PTX nvcc 12-13
/// emits for expf (CUDA Math API: expf, 2 ulp).
struct ExpF32Idiom {
  mlir::Value x;       ///< the argument
  mlir::Value addend;  ///< the fused addend, or null for a plain product
  /// The ops between x and the root that only the idiom reads.
  llvm::SmallVector<mlir::Operation *, 12> interior;
};

/// Matches nvcc's expf sequence ending at `root` (an f32 `fbin mul` or
/// `fma`), by structure and the constants' exact bits; every interior result
/// must be read only inside the sequence. No match: nullopt.
std::optional<ExpF32Idiom> matchNvccExpF32(mlir::Operation *root);

/// One instance of nvcc's `logf` (CUDA's precise logf, libdevice
/// `__nv_logf`, -O3 form): subnormal x scaled by 2^23 (xs), the exponent
/// field k of xs relative to 2/3 (`(bits - 0x3F2AAAAB) & 0xFF800000`), the
/// mantissa m = bitcast(bits - k) in [2/3, 4/3), u = m - 1,
///   F = (k * 2^-23 + adj) * ln2 + (u + u^2 q(u)),  q of degree 8,
/// a branch on `bits <u 0x7F800000` to `fma(xs, inf, inf)` for +inf, NaN and
/// negative x, and the root `selp(xs == 0, -inf, F)`. The result is log(x)
/// for x > 0 (within nvcc's 1 ulp), -inf for x = 0, NaN for x < 0.
struct LogF32Idiom {
  mlir::Value x;
  llvm::SmallVector<mlir::Operation *, 40> interior;
};

/// Matches nvcc's logf ending at `root` (an f32 `selp`), by structure and the
/// constants' exact bits (the polynomial's nine coefficients included). The
/// -G form (branches instead of selp) is not matched.
std::optional<LogF32Idiom> matchNvccLogF32(mlir::Operation *root);

/// One instance of nvcc's precise `tanhf` (CUDA Math API tanhf, 2 ulp; -O3
/// and -G, sm_80/sm_90, with or without -ftz), with a = |x|:
///   big   = copysign(x, a >= 0x41102CB4 (9.0109) ? 1 : 1 - 2 / (2^(a *
///           2 log2 e) + 1)),  (rcp.approx of ex2.approx + 1)
///   small = x + x * (x^2 * p(x^2)), p of degree 3 (an fma chain ending in
///           `+ 0`, then `fma(q, x, x)`),
/// and the root `selp(a >= 0.6, big, small)`. In exact arithmetic `big` is
/// tanh(x) up to the saturation at 9.01 (where tanh is 1 within an ulp) and
/// `small` the polynomial approximation of tanh below 0.6: the root is read
/// as tanh(x), an idiom reported with the verdict.
struct TanhF32Idiom {
  mlir::Value x;
  llvm::SmallVector<mlir::Operation *, 24> interior;
};

/// Matches nvcc's tanhf ending at `root`, by structure and the constants'
/// exact bits: at -O3 an f32 `selp`; at -G (a `.func tanhf` whose selects
/// are branches and joins) the `bitcast` of the joined value the function
/// returns, read through its forwarding blocks. `interior` lists the ops
/// matched; the pass tags none of them interior (the engine models them
/// all, so they run with their own semantics and only the root is read as
/// tanh(x)).
std::optional<TanhF32Idiom> matchNvccTanhF32(mlir::Operation *root);

/// The rewrite of `--kproof-recognize-math-idioms`, in place over every op
/// under `scope`: each math-library sequence it recognizes (nvcc's expf,
/// and logf and tanhf at -O3) gets `kMathIdiomAttr` on its root and
/// `kIdiomInteriorAttr` on the ops only it reads. Idempotent; returns how many
/// new roots it tagged. The proof engine runs it on the module of every kernel
/// it executes.
unsigned recognizeMathIdioms(mlir::Operation *scope);

#define GEN_PASS_DECL
#include "KProof/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "KProof/Transforms/Passes.h.inc"

} // namespace kproof

#endif // KPROOF_TRANSFORMS_PASSES_H
