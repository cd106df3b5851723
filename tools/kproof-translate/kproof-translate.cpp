//===- kproof-translate.cpp - kproof's translations -----------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// mlir-translate with kproof's translations: `--import-ptx FILE.ptx` prints
// the kproof module imported from PTX (exit 2 on malformed PTX).
//
//===----------------------------------------------------------------------===//

#include "KProof/Import/PTX/PTXImporter.h"
#include "KProof/Tools/CommandLine.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  kproof::registerPTXImportTranslation();
  // LLVM's backend flags only with --help-all (the translation options
  // mlirTranslateMain registers stay in --help).
  kproof::tools::organizeHelp({});
  if (mlir::failed(mlir::mlirTranslateMain(argc, argv, "kproof translation tool")))
    return 2;
  return 0;
}
