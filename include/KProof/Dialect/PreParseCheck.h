//===- PreParseCheck.h - what MLIR's parser must not see --------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every MLIR file kproof parses (the input, --contract, a reference
// kernel's `file`) is first scanned for input that crashes MLIR 22's
// parser instead of being diagnosed; such input is an error at its
// location, and nothing is parsed:
//
// - nesting: the parser recurses once per nested attribute, type or
//   region, so a contract nested 10,000 levels deep overflows the stack
//   (SIGSEGV); more than kMaxNestingDepth levels of brackets is an error
//   at the bracket that goes too deep;
// - `array<index: ...>`: parseDenseArrayAttr accepts `index` as an element
//   type and then asks it for its float width (SIGSEGV without LLVM's
//   assertions); a dense array takes integer or float elements only.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_DIALECT_PREPARSECHECK_H
#define KPROOF_DIALECT_PREPARSECHECK_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>

namespace kproof {

/// The deepest nesting of brackets ((, [, {, <) kproof parses. Contracts
/// and kernels nest a few levels; MLIR's parser overflows an 8 MiB stack
/// between 4,000 and 10,000.
constexpr unsigned kMaxNestingDepth = 1000;

/// A reason not to parse `text`: the offset it applies to and the message.
struct PreParseProblem {
  size_t offset;
  std::string message;
};

/// The first problem of `text`, or none. Brackets and words inside string
/// literals and `//` comments do not count, nor does the `>` of `->`.
std::optional<PreParseProblem>
findPreParseProblem(llvm::StringRef text, unsigned maxDepth = kMaxNestingDepth);

/// Fails, with an error at the problem's location, when the main buffer of
/// `mgr` has one (findPreParseProblem).
mlir::LogicalResult checkBeforeParsing(const llvm::SourceMgr &mgr,
                                       mlir::MLIRContext *context);

} // namespace kproof

#endif // KPROOF_DIALECT_PREPARSECHECK_H
