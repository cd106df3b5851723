//===- PreParseCheck.cpp - what MLIR's parser must not see ----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/PreParseCheck.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

std::optional<kproof::PreParseProblem>
kproof::findPreParseProblem(StringRef text, unsigned maxDepth) {
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
      if (++depth > maxDepth)
        return PreParseProblem{
            i, "nesting deeper than " + std::to_string(maxDepth) +
                   " levels of brackets ('(', '[', '{', '<') is not parsed"};
      if (c == '<' && text.take_front(i).ends_with("array")) {
        StringRef rest = text.drop_front(i + 1).ltrim();
        if (rest.consume_front("index") &&
            (rest.empty() || !(llvm::isAlnum(rest.front()) ||
                               rest.front() == '_')))
          return PreParseProblem{
              i, "a dense array of 'index' elements is not parsed (MLIR's "
                 "parser crashes on it); use i64"};
      }
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

LogicalResult kproof::checkBeforeParsing(const llvm::SourceMgr &mgr,
                                         MLIRContext *context) {
  const llvm::MemoryBuffer *buffer = mgr.getMemoryBuffer(mgr.getMainFileID());
  std::optional<PreParseProblem> problem =
      findPreParseProblem(buffer->getBuffer());
  if (!problem)
    return success();
  auto [line, column] = mgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + problem->offset));
  return emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                       line, column))
         << problem->message;
}
