//===- ptx-parser-fuzzer.cpp - libFuzzer target for the PTX front end -----===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// One source, two libFuzzer binaries (fuzz/CMakeLists.txt, docs/Fuzzing.md):
//
//  * ptx-parser-fuzzer: lexer + parser (kproof::ptx::parsePTX, looksLikePTX).
//  * ptx-import-fuzzer (built with KPROOF_FUZZ_IMPORT=1): the whole importer
//    (kproof::importPTX: parse, name resolution, SSA construction,
//    verification) in a fresh MLIRContext per input, then prints the result.
//
// Besides the sanitizers (ASan, UBSan, assertions), both check the documented
// contracts of the API and abort with "kproof-fuzz: contract violation" when
// one is broken:
//  * parsePTX returns false if and only if it reported an error, and every
//    diagnostic location is null or points into the parsed buffer;
//  * importPTX returns null if and only if it reported an error.
//
//===----------------------------------------------------------------------===//

#include "KProof/Import/PTX/PTXAST.h"
#include "KProof/Import/PTX/PTXParser.h"

#if KPROOF_FUZZ_IMPORT
#include "KProof/Import/PTX/PTXImporter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#endif

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

[[noreturn]] void contractViolation(const char *what) {
  std::fprintf(stderr, "kproof-fuzz: contract violation: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

/// A SourceMgr whose main buffer holds exactly the fuzzer's bytes. The copy is
/// heap-allocated with its size plus the NUL terminator SourceMgr guarantees,
/// so ASan flags any read past the terminator.
unsigned addInput(llvm::SourceMgr &sourceMgr, const uint8_t *data,
                  size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  return sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.ptx"), llvm::SMLoc());
}

#if !KPROOF_FUZZ_IMPORT

int fuzzParser(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  unsigned bufferID = addInput(sourceMgr, data, size);
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferID);
  const char *begin = buffer->getBufferStart();
  const char *end = buffer->getBufferEnd();

  (void)kproof::ptx::looksLikePTX(buffer->getBuffer());

  unsigned errors = 0;
  std::string rendered;
  kproof::ptx::Module module;
  bool ok = kproof::ptx::parsePTX(
      sourceMgr, bufferID, module,
      [&](llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
          const llvm::Twine &msg) {
        if (kind == llvm::SourceMgr::DK_Error)
          ++errors;
        const char *p = loc.getPointer();
        // `end` (the NUL terminator) is a valid place for "unexpected end
        // of file".
        if (p && (p < begin || p > end))
          contractViolation("diagnostic location outside the input buffer");
        // Render the message and the caret line, as a real client would
        // (catches dangling Twine operands and bad locations).
        rendered.clear();
        llvm::raw_string_ostream os(rendered);
        sourceMgr.PrintMessage(os, loc, kind, msg);
      });
  if (ok && errors)
    contractViolation("parsePTX reported an error but returned true");
  if (!ok && !errors)
    contractViolation("parsePTX returned false without reporting an error");
  return 0;
}

#else // KPROOF_FUZZ_IMPORT

int fuzzImporter(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  addInput(sourceMgr, data, size);

  // A fresh context per input keeps runs independent (and reproducible) and
  // memory bounded; the importer loads the dialects it needs.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  unsigned errors = 0;
  std::string rendered;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      ++errors;
    rendered = diag.str();
    return mlir::success();
  });

  mlir::OwningOpRef<mlir::ModuleOp> module =
      kproof::importPTX(sourceMgr, &context);
  if (module && errors)
    contractViolation("importPTX reported an error but returned a module");
  if (!module && !errors)
    contractViolation("importPTX returned null without reporting an error");
  if (module) {
    // What kproof-opt does next: print it (generic and custom forms).
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    text.clear();
    module->print(os, mlir::OpPrintingFlags().printGenericOpForm());
  }
  return 0;
}

#endif // KPROOF_FUZZ_IMPORT

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#if KPROOF_FUZZ_IMPORT
  return fuzzImporter(data, size);
#else
  return fuzzParser(data, size);
#endif
}
