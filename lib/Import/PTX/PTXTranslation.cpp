//===- PTXTranslation.cpp - the --import-ptx translation ------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Import/PTX/PTXImporter.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

void kproof::registerPTXImportTranslation() {
  static TranslateToMLIRRegistration registration(
      "import-ptx", "Import PTX text into the kproof dialect",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        OwningOpRef<ModuleOp> module = importPTX(sourceMgr, context);
        if (!module)
          return nullptr;
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) {
        registry.insert<KProofDialect, cf::ControlFlowDialect>();
      });
}
