//===- PTXImporter.h - import PTX into the kproof dialect -------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_IMPORT_PTX_PTXIMPORTER_H
#define KPROOF_IMPORT_PTX_PTXIMPORTER_H

#include "KProof/Dialect/KProofOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace kproof {

/// Imports the PTX module in the main buffer of `sourceMgr` into a new
/// builtin.module of kproof ops (docs/PTXImport.md). Each op carries the
/// FileLineColLoc of its PTX instruction, fused with the CUDA source location
/// when a `.loc` is in force.
///
/// Malformed PTX (a syntax error, an undeclared register, a redefined or
/// unknown label, an operand type or count mismatch) is reported as an error
/// diagnostic at its file:line:col through `context`'s diagnostic engine and
/// gives a null module. A well-formed instruction kproof does not model is
/// imported as `kproof.opaque` with a warning "unmodeled PTX instruction 'X'"
/// (tier-2 instructions without a warning, marked `tier2`).
mlir::OwningOpRef<mlir::ModuleOp> importPTX(llvm::SourceMgr &sourceMgr,
                                            mlir::MLIRContext *context);


/// Registers the `--import-ptx` translation for kproof-translate.
void registerPTXImportTranslation();

} // namespace kproof

#endif // KPROOF_IMPORT_PTX_PTXIMPORTER_H
