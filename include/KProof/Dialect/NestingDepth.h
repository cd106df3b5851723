//===- NestingDepth.h - a bound on the nesting of MLIR input ----*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// MLIR's parser recurses once per nested attribute, type or region, so a
// contract nested 10,000 levels deep overflows the stack (SIGSEGV). Every
// MLIR file kproof parses (the input, --contract, a reference kernel's
// `file`) is first scanned for its bracket nesting; past the limit it is an
// error at the bracket that goes too deep, and nothing is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_DIALECT_NESTINGDEPTH_H
#define KPROOF_DIALECT_NESTINGDEPTH_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>

namespace mlir::kproof {

/// The deepest nesting of brackets ((, [, {, <) kproof parses. Contracts
/// and kernels nest a few levels; MLIR's parser overflows an 8 MiB stack
/// between 4,000 and 10,000.
constexpr unsigned kMaxNestingDepth = 1000;

/// The offset in `text` of the first bracket that opens level
/// `limit + 1`, or none. Brackets inside string literals and `//`
/// comments do not count, nor does the `>` of `->`.
std::optional<size_t> findExcessiveNesting(StringRef text,
                                           unsigned limit = kMaxNestingDepth);

/// Fails, with an error at the bracket past kMaxNestingDepth, when the main
/// buffer of `mgr` nests deeper than that.
LogicalResult checkNestingDepth(const llvm::SourceMgr &mgr,
                                MLIRContext *context);

} // namespace mlir::kproof

#endif // KPROOF_DIALECT_NESTINGDEPTH_H
