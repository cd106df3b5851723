//===- NestingDepth.cpp - a bound on the nesting of MLIR input ------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/NestingDepth.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

using namespace mlir;

std::optional<size_t> mlir::kproof::findExcessiveNesting(StringRef text,
                                                         unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    switch (c) {
    case '"': // a string literal, with backslash escapes
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < n && text[i + 1] == '/')
        while (i < n && text[i] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return i;
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break; // `->`
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

LogicalResult mlir::kproof::checkNestingDepth(const llvm::SourceMgr &mgr,
                                              MLIRContext *context) {
  const llvm::MemoryBuffer *buffer = mgr.getMemoryBuffer(mgr.getMainFileID());
  std::optional<size_t> at = findExcessiveNesting(buffer->getBuffer());
  if (!at)
    return success();
  auto [line, column] = mgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + *at));
  return emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                       line, column))
         << "nesting deeper than " << kMaxNestingDepth
         << " levels of brackets ('(', '[', '{', '<') is not parsed";
}
