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
#include "KProof/Dialect/PreParseCheck.h"
#include "KProof/Import/PTX/PTXImporter.h"
#include "KProof/Import/PTX/PTXParser.h"
#include "KProof/Interpreter/Harness.h"
#include "KProof/Transforms/Passes.h"
#include "KProof/Verifier/Check/EquivalenceChecker.h"

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
#include "mlir/IR/AsmState.h"
#include "mlir/Parser/Parser.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
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

namespace {
enum class InputFormat { Auto, MLIR, PTX };

llvm::cl::OptionCategory kproofCategory("kproof options");

llvm::cl::opt<InputFormat> inputFormat(
    "input-format", llvm::cl::desc("How to read the input"),
    llvm::cl::init(InputFormat::Auto),
    llvm::cl::values(
        clEnumValN(InputFormat::Auto, "auto",
                   "PTX if the file ends in .ptx or starts with a .version "
                   "directive, MLIR otherwise (default)"),
        clEnumValN(InputFormat::MLIR, "mlir", "MLIR"),
        clEnumValN(InputFormat::PTX, "ptx", "PTX text (imported into kproof)")),
    llvm::cl::cat(kproofCategory));

llvm::cl::opt<bool> verifyEquiv(
    "verify-equiv",
    llvm::cl::desc("Prove the kernel equal to the contract's spec (floats as "
                   "exact reals), or refute it with a counterexample. Prints "
                   "the verdict; exit 0 PROVED, 1 REFUTED, 2 error, 3 "
                   "UNKNOWN"),
    llvm::cl::cat(kproofCategory));

llvm::cl::opt<bool> verifySync(
    "verify-sync",
    llvm::cl::desc("Check synchronization and memory safety only (data "
                   "races, barrier divergence, shared-memory reads, bounds) "
                   "over the contract's launch, without comparing the spec. "
                   "--verify-equiv runs these checks too. Exit codes as "
                   "--verify-equiv"),
    llvm::cl::cat(kproofCategory));

llvm::cl::opt<std::string> contractFile(
    "contract",
    llvm::cl::desc("MLIR file holding the kproof.contract ops to check, "
                   "all of them in order (default: the kproof.contract ops "
                   "of the input module)"),
    llvm::cl::value_desc("file"), llvm::cl::cat(kproofCategory));

enum class OutputFormat { Text, JSON };
llvm::cl::opt<OutputFormat> verdictFormat(
    "format", llvm::cl::desc("Verdict format of --verify-equiv"),
    llvm::cl::init(OutputFormat::Text),
    llvm::cl::values(clEnumValN(OutputFormat::Text, "text", "Alive2-style text"),
                     clEnumValN(OutputFormat::JSON, "json",
                                "JSON (docs/verify-equiv.md)")),
    llvm::cl::cat(kproofCategory));

llvm::cl::opt<std::string> precisionMode(
    "precision",
    llvm::cl::desc("'strict': a precision downgrade (narrowing float "
                   "conversion) is a failure; 'allow' (default): a warning"),
    llvm::cl::init("allow"), llvm::cl::cat(kproofCategory));

llvm::cl::opt<std::string> certificateDir(
    "proof-certificate",
    llvm::cl::desc("With --verify-equiv: write one SMT-LIB2 certificate per "
                   "proved obligation into this directory"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(kproofCategory));

llvm::cl::opt<bool> mergeStates(
    "merge-states",
    llvm::cl::desc("Merge the two states of a data-dependent branch where "
                   "its sides meet again (default on); =false follows every "
                   "path to its end, for comparison"),
    llvm::cl::init(true), llvm::cl::cat(kproofCategory));

llvm::cl::opt<uint64_t> solverRLimit(
    "solver-rlimit",
    llvm::cl::desc("Z3 resource limit per query (default 50000000): the "
                   "bound that decides a solver UNKNOWN, independent of the "
                   "machine's speed"),
    llvm::cl::init(50'000'000), llvm::cl::cat(kproofCategory));

llvm::cl::opt<unsigned> solverGuard(
    "solver-guard",
    llvm::cl::desc("Wall-clock guard per Z3 query, in seconds (default 300; "
                   "0: none). It only backs the resource limit, which Z3 4.8 "
                   "does not always heed; an UNKNOWN it causes says so"),
    llvm::cl::init(300), llvm::cl::cat(kproofCategory));

llvm::cl::opt<unsigned> probes(
    "probes",
    llvm::cl::desc("Seeded random concrete inputs tried on each value "
                   "obligation before the solver (default 16; 0: none). One "
                   "the true functions confirm is a counterexample; they "
                   "never prove anything"),
    llvm::cl::init(16), llvm::cl::cat(kproofCategory));

llvm::cl::opt<uint64_t> memoryLimit(
    "memory-limit",
    llvm::cl::desc("Memory budget in MiB (default 16384; 0: none): past it "
                   "symbolic execution stops and no further Z3 query starts "
                   "(UNKNOWN naming the budget)"),
    llvm::cl::init(16384), llvm::cl::cat(kproofCategory));

llvm::cl::opt<unsigned> smallSizes(
    "small-sizes",
    llvm::cl::desc("When the proof over the contract's symbolic sizes is "
                   "UNKNOWN, check the kernel again at each size = lo, "
                   "lo + 1, ... (this many values; default 4; 0: none). A "
                   "REFUTED there is the verdict; they never prove anything"),
    llvm::cl::init(4), llvm::cl::cat(kproofCategory));

enum { ExitUnknown = 3 };
} // namespace

/// --verify-equiv: run the proof engine on `module` against the contract
/// (from --contract or the module itself) and print the verdict.
static int runVerifyEquiv(ModuleOp module, MLIRContext &context,
                          llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os) {
  // --mlir-timing: the time of each proof and replay, without start-up.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTimer = timing.getRootScope();
  static llvm::SourceMgr contractSourceMgr;
  OwningOpRef<ModuleOp> contractModule;
  SmallVector<kproof::ContractOp> contracts;
  if (!contractFile.empty()) {
    std::string err;
    auto buffer = openInputFile(contractFile, &err);
    if (!buffer) {
      llvm::errs() << "kproof-opt: " << err << "\n";
      return ExitError;
    }
    // The contract lives in its own source manager: parseSourceFile reads
    // the main buffer, which for the kernel's manager is the kernel.
    contractSourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    if (failed(kproof::checkBeforeParsing(contractSourceMgr, &context)))
      return ExitError;
    contractModule = parseSourceFile<ModuleOp>(contractSourceMgr, &context);
    if (!contractModule)
      return ExitError;
    contractModule->walk(
        [&](kproof::ContractOp c) { contracts.push_back(c); });
    if (contracts.empty()) {
      mlir::emitError(contractModule->getLoc())
          << "no kproof.contract in " << contractFile;
      return ExitError;
    }
  } else {
    module.walk([&](kproof::ContractOp c) { contracts.push_back(c); });
    if (contracts.empty()) {
      llvm::errs() << "kproof-opt: --verify-equiv needs a contract: "
                      "--contract=FILE or a kproof.contract op in the input\n";
      return ExitError;
    }
  }
  ::kproof::engine::CheckerOptions options;
  options.certificateDir = certificateDir;
  options.syncOnly = verifySync && !verifyEquiv;
  options.mergeStates = mergeStates;
  options.rlimit = solverRLimit;
  options.solverGuardSeconds = solverGuard;
  options.probes = probes;
  options.memoryLimitMiB = memoryLimit;
  options.smallSizes = smallSizes;
  if (precisionMode == "strict")
    options.strictPrecision = true;
  else if (precisionMode != "allow") {
    llvm::errs() << "kproof-opt: --precision must be 'strict' or 'allow'\n";
    return ExitError;
  }
  // Every contract is checked, in order; the worst verdict decides the exit
  // code (REFUTED > UNKNOWN > PROVED), and a contract error stops with 2.
  int rc = ExitOk;
  bool json = verdictFormat == OutputFormat::JSON;
  if (json && contracts.size() > 1)
    os << "[\n";
  for (auto [i, contract] : llvm::enumerate(contracts)) {
    TimingScope proofTimer =
        rootTimer.nest(("proof of " + contract.getSymName()).str());
    std::optional<::kproof::engine::Verdict> verdict =
        ::kproof::engine::checkEquivalence(module, contract, options);
    proofTimer.stop();
    if (!verdict)
      return ExitError;
    TimingScope replayTimer = rootTimer.nest("replay");
    // Every counterexample is replayed on the kernel by the interpreter, so
    // a REFUTED is never an artifact of the model (Harness.h).
    ::kproof::interp::replayAndSettle(module, contract, *verdict);
    replayTimer.stop();
    if (i > 0)
      os << (json ? ",\n" : "\n");
    if (json)
      verdict->printJSON(os);
    else
      verdict->print(os);
    int code = verdict->exitCode();
    if (code == ExitFailure || (code == ExitUnknown && rc == ExitOk))
      rc = code;
  }
  if (json && contracts.size() > 1)
    os << "]\n";
  return rc;
}

/// Imports PTX, runs the requested pass pipeline over it and prints the
/// result, mirroring what MlirOptMain does for MLIR input. Diagnostics point
/// into the PTX file; with --verify-diagnostics the PTX's own comments hold
/// the expected-* annotations.
static int runOnPTX(std::unique_ptr<llvm::MemoryBuffer> input,
                    llvm::raw_ostream &os, DialectRegistry &registry,
                    const MlirOptMainConfig &config) {
  MLIRContext context(registry);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  // Diagnostics point at PTX instructions; the imported op's generic form
  // would only add noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());

  auto process = [&]() -> int {
    OwningOpRef<ModuleOp> module = kproof::importPTX(sourceMgr, &context);
    if (!module)
      return ExitError;
    if (verifyEquiv || verifySync)
      return runVerifyEquiv(*module, context, sourceMgr, os);
    PassManager pm(&context, ModuleOp::getOperationName(),
                   PassManager::Nesting::Implicit);
    pm.enableVerifier(config.shouldVerifyPasses());
    if (failed(applyPassManagerCLOptions(pm)) ||
        failed(config.setupPassPipeline(pm)))
      return ExitError;
    if (failed(pm.run(*module)))
      return ExitFailure;
    module->print(os, OpPrintingFlags());
    os << "\n";
    return ExitOk;
  };

  if (!config.shouldVerifyDiagnostics()) {
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    return process();
  }
  SourceMgrDiagnosticVerifierHandler handler(
      sourceMgr, &context, config.verifyDiagnosticsLevel());
  (void)process();
  return succeeded(handler.verify()) ? ExitOk : ExitFailure;
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

  bool isPTX = inputFormat == InputFormat::PTX ||
               (inputFormat == InputFormat::Auto &&
                (llvm::StringRef(inputFilename).ends_with(".ptx") ||
                 ::kproof::ptx::looksLikePTX(input->getBuffer())));
  if (isPTX) {
    int rc = runOnPTX(std::move(input), output->os(), registry, config);
    if (rc == ExitOk)
      output->keep();
    return rc;
  }

  if (verifyEquiv || verifySync) {
    // An MLIR kernel module (kproof dialect) with --verify-equiv.
    MLIRContext context(registry);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    if (failed(kproof::checkBeforeParsing(sourceMgr, &context)))
      return ExitError;
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return ExitError;
    int rc = runVerifyEquiv(*module, context, sourceMgr, output->os());
    output->keep();
    return rc;
  }
  {
    // MlirOptMain parses the input itself: bound its nesting first.
    MLIRContext context;
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getBuffer(),
                                         input->getBufferIdentifier(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    if (failed(kproof::checkBeforeParsing(sourceMgr, &context)))
      return ExitError;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return ExitFailure;
  output->keep();
  return ExitOk;
}
