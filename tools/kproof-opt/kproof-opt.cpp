//===- kproof-opt.cpp - the kproof driver ---------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// kproof-opt is built from MLIR's opt-main pieces rather than a plain
// MlirOptMain call: plain MlirOptMain reads only MLIR and returns 0/1, while
// kproof-opt reads PTX as well and (in its --verify-* modes) returns verdict
// exit codes (DESIGN.md §6). Without a verification mode it behaves like
// mlir-opt: parse, verify, run the requested passes, print.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Transforms/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Exit codes of kproof-opt (DESIGN.md §6).
enum ExitCode : int {
  ExitOk = 0,      ///< success (or PROVED in a --verify-* mode)
  ExitFailure = 1, ///< pass failure, failed --verify-diagnostics (or REFUTED)
  ExitError = 2,   ///< input or usage error
};

/// Every dialect kproof-opt parses: kproof itself and the upstream dialects
/// that compiler pipelines hand to kproof (gpu/llvm/nvvm/rocdl/amdgpu) or that
/// contracts use for specs (func/cf/tensor/linalg/arith/math).
static void registerKProofDialects(DialectRegistry &registry) {
  registry.insert<kproof::KProofDialect, func::FuncDialect,
                  cf::ControlFlowDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect, ROCDL::ROCDLDialect,
                  amdgpu::AMDGPUDialect, tensor::TensorDialect,
                  linalg::LinalgDialect, arith::ArithDialect,
                  math::MathDialect>();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);

  // Passes: kproof's own (generated registration) and the generic cleanup
  // passes a pipeline around kproof uses.
  kproof::registerKProofPasses();
  registerCanonicalizerPass();
  registerCSEPass();
  registerSymbolDCEPass();
  registerInlinerPass();

  DialectRegistry registry;
  registerKProofDialects(registry);

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "kproof driver: import, transform and verify GPU kernels\n",
      registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "kproof-opt: " << errorMessage << "\n";
    return ExitError;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "kproof-opt: " << errorMessage << "\n";
    return ExitError;
  }

  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return ExitFailure;
  output->keep();
  return ExitOk;
}
