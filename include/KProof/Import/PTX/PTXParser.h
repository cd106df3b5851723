//===- PTXParser.h - parse PTX text into a syntax tree ----------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_IMPORT_PTX_PTXPARSER_H
#define KPROOF_IMPORT_PTX_PTXPARSER_H

#include "KProof/Import/PTX/PTXAST.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

namespace kproof::ptx {

/// Receives each diagnostic of the parser at its exact location.
using DiagnosticFn = llvm::function_ref<void(
    llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const llvm::Twine &msg)>;

/// Parses the PTX text of buffer `bufferID` of `sourceMgr` (PTX ISA 6.x-9.x
/// as emitted by nvcc 12/13, Triton and LLVM's NVPTX backend) into `module`.
///
/// Syntax errors (malformed PTX, a truncated file, an unknown directive)
/// are reported through `emitDiagnostic` with severity DK_Error at the
/// offending token; the parser stops at the first error and returns false.
/// `.section` debug blocks are skipped. The parser does not resolve names or
/// check operand types; the importer does.
bool parsePTX(llvm::SourceMgr &sourceMgr, unsigned bufferID, Module &module,
              DiagnosticFn emitDiagnostic);

/// True if `text` looks like PTX: after comments and whitespace, it starts
/// with a `.version` directive (how kproof-opt recognizes PTX input without
/// the `.ptx` extension).
bool looksLikePTX(llvm::StringRef text);

} // namespace kproof::ptx

#endif // KPROOF_IMPORT_PTX_PTXPARSER_H
