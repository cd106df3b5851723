//===- kproof-opt.cpp - the kproof driver ---------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// kproof-opt is built from MLIR's opt-main pieces rather than a plain
// MlirOptMain call: plain MlirOptMain reads only MLIR and returns 0/1, while
// kproof-opt reads PTX as well and (in its --verify-* modes) returns verdict
// exit codes (docs/design-notes.md "Certificates restate the goal"). Without a
// verification mode it behaves like mlir-opt: parse, verify, run the requested
// passes, print.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/PreParseCheck.h"
#include "KProof/Import/PTX/PTXImporter.h"
#include "KProof/Import/PTX/PTXParser.h"
#include "KProof/Interpreter/Harness.h"
#include "KProof/Tools/CommandLine.h"
#include "KProof/Transforms/Passes.h"
#include "KProof/Verifier/Check/EquivalenceChecker.h"
#include "KProof/Verifier/SMT/Z3Solver.h"

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
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

using namespace mlir;

/// Exit codes of kproof-opt (docs/design-notes.md "Certificates restate the
/// goal").
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

llvm::cl::opt<bool> explain(
    "explain",
    llvm::cl::desc("For each value obligation left UNKNOWN, print what was "
                   "left to show: the kernel's and the spec's terms and the "
                   "path condition, in infix form (JSON: the obligation's "
                   "'residual')"),
    llvm::cl::init(false), llvm::cl::cat(kproofCategory));

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

llvm::cl::opt<unsigned> timeoutSeconds(
    "timeout",
    llvm::cl::desc("Time limit per contract, in seconds (default 0: none). "
                   "Past it no Z3 query starts, a running one stops, and the "
                   "verdict is UNKNOWN naming the limit; if the engine does "
                   "not stop within 3 s more, kproof-opt prints that verdict "
                   "itself and exits (3, or 1 after an earlier REFUTED). "
                   "Wall-clock, so machine-dependent"),
    llvm::cl::value_desc("seconds"), llvm::cl::init(0),
    llvm::cl::cat(kproofCategory));

enum class ProgressMode { Auto, Always, Never };
llvm::cl::opt<ProgressMode> progressMode(
    "progress",
    llvm::cl::desc("A progress line on stderr for checks that run longer "
                   "than a second: elapsed time, obligations decided, what "
                   "runs now"),
    llvm::cl::init(ProgressMode::Auto),
    llvm::cl::values(
        clEnumValN(ProgressMode::Auto, "auto",
                   "when stderr is a terminal (default): one line, redrawn"),
        clEnumValN(ProgressMode::Always, "always",
                   "also into a file or pipe: a line when the step changes, "
                   "at most one a second"),
        clEnumValN(ProgressMode::Never, "never", "none")),
    llvm::cl::cat(kproofCategory));

llvm::cl::opt<bool> quiet(
    "quiet",
    llvm::cl::desc("No progress line and no warnings on stderr (errors and "
                   "the verdict, with its warnings, are still printed)"),
    llvm::cl::cat(kproofCategory));

llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                         llvm::cl::desc("<input file>"),
                                         llvm::cl::init("-"));
llvm::cl::opt<std::string> outputFilename("o", llvm::cl::desc("Output file"),
                                          llvm::cl::value_desc("file"),
                                          llvm::cl::init("-"),
                                          llvm::cl::cat(kproofCategory));

/// The MLIR driver's options (pass pipeline, diagnostics, timing, printing):
/// named so that `--help` lists them after kproof's own.
llvm::cl::OptionCategory
    mlirCategory("mlir-opt options (passes, pipelines, diagnostics, printing)");

enum { ExitUnknown = 3 };

/// Consumes warnings and remarks (--quiet); errors go on to the handlers
/// registered before it.
struct QuietHandler : ScopedDiagnosticHandler {
  explicit QuietHandler(MLIRContext *ctx) : ScopedDiagnosticHandler(ctx) {
    setHandler([](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Warning ||
                     d.getSeverity() == DiagnosticSeverity::Remark);
    });
  }
};

/// Records the first error diagnostic as "file:line:col: message" for the
/// JSON error object; every diagnostic goes on to the handlers registered
/// before it (which print it).
struct ErrorCapture : ScopedDiagnosticHandler {
  explicit ErrorCapture(MLIRContext *ctx) : ScopedDiagnosticHandler(ctx) {
    setHandler([this](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && first.empty()) {
        llvm::raw_string_ostream os(first);
        if (auto fl = dyn_cast<FileLineColLoc>(d.getLocation()))
          os << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
             << fl.getColumn() << ": ";
        os << d.str();
      }
      return failure();
    });
  }
  std::string first;
};

/// The JSON object of a check that ended in an error (schema as the
/// verdict's, docs/verify-equiv.md): verdict "ERROR" and the message.
static void printJSONError(llvm::raw_ostream &os, llvm::StringRef contract,
                           llvm::StringRef message) {
  llvm::json::Object root;
  root["schema_version"] = ::kproof::engine::kVerdictSchemaVersion;
  root["tool"] = ::kproof::engine::toolVersion();
  if (!contract.empty())
    root["contract"] = contract;
  root["verdict"] = "ERROR";
  root["error"] = message.empty() ? "error (see stderr)" : message;
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

/// Progress and the hard time limit of one contract's check (--progress,
/// --timeout). A thread wakes four times a second: it redraws the progress
/// line (after the first second), and once the time limit plus a 3 s grace
/// has passed without the engine stopping on its own, it prints the
/// contract's UNKNOWN verdict itself (closing a JSON array) and ends the
/// process with the run's exit code (REFUTED stays 1, else 3). The engine
/// reports its steps through `update` (CheckerOptions::progress).
class Monitor {
public:
  Monitor(std::string contract, std::string kernel, llvm::raw_ostream &os,
          bool json, bool inArray, int rcSoFar)
      : contract(std::move(contract)), kernel(std::move(kernel)), os(os),
        json(json), inArray(inArray), rcSoFar(rcSoFar),
        start(std::chrono::steady_clock::now()) {
    tty = llvm::sys::Process::StandardErrIsDisplayed();
    show = !quiet && (progressMode == ProgressMode::Always ||
                      (progressMode == ProgressMode::Auto && tty));
    if (show || timeoutSeconds)
      thread = std::thread([this] { loop(); });
  }
  ~Monitor() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    wake.notify_all();
    if (thread.joinable())
      thread.join();
    if (drawn && tty)
      llvm::errs() << "\r\033[K";
  }
  /// What runs now (empty: the same as before) and the verdict so far
  /// (CheckerOptions::progress), of which a copy is kept for a hard stop:
  /// the header on each new step, the obligations as they are decided.
  void update(llvm::StringRef now, const ::kproof::engine::Verdict &sofar) {
    std::lock_guard<std::mutex> lock(mutex);
    if (&sofar != source) {
      // Another checker (a bounded check at a small size): start over.
      source = &sofar;
      snapshot.obligations.clear();
    }
    if (!now.empty()) {
      current = now.str();
      snapshot.kernelName = sofar.kernelName;
      snapshot.specDescription = sofar.specDescription;
      snapshot.launch = sofar.launch;
      snapshot.buffers = sofar.buffers;
      snapshot.assumptions = sofar.assumptions;
      snapshot.idioms = sofar.idioms;
      snapshot.warnings = sofar.warnings;
    }
    for (size_t k = snapshot.obligations.size(); k < sofar.obligations.size();
         ++k)
      snapshot.obligations.push_back(sofar.obligations[k]);
    decided = sofar.obligations.size();
  }
  /// The replay runs after the checker: only what runs changes.
  void update(llvm::StringRef now) {
    std::lock_guard<std::mutex> lock(mutex);
    current = now.str();
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    std::string lastShown;
    auto lastLine = start;
    while (!wake.wait_for(lock, std::chrono::milliseconds(250),
                          [this] { return done; })) {
      auto now = std::chrono::steady_clock::now();
      double elapsed = std::chrono::duration<double>(now - start).count();
      if (timeoutSeconds && elapsed >= timeoutSeconds + 3.0)
        hardStop(elapsed);
      // Past the limit: interrupt the running Z3 check, if any (Z3 4.8
      // does not always heed the check's own timeout), on every tick, so
      // a check that started just before the limit is caught too.
      if (timeoutSeconds && elapsed >= timeoutSeconds)
        ::kproof::smt::Context::interruptAll();
      if (!show || elapsed < 1.0)
        continue;
      std::string line =
          llvm::formatv("kproof-opt: {0}: {1:f1} s, {2} obligation(s) "
                        "decided, now: {3}",
                        contract, elapsed, decided, current)
              .str();
      if (tty) {
        // One line, redrawn; cut to the terminal's width.
        unsigned width = llvm::sys::Process::StandardErrColumns();
        if (width > 1 && line.size() >= width)
          line = line.substr(0, width - 1);
        llvm::errs() << "\r\033[K" << line;
        llvm::errs().flush();
        drawn = true;
      } else if (current != lastShown &&
                 std::chrono::duration<double>(now - lastLine).count() >= 1.0) {
        llvm::errs() << line << "\n";
        lastShown = current;
        lastLine = now;
      }
    }
  }
  [[noreturn]] void hardStop(double elapsed) {
    if (drawn && tty)
      llvm::errs() << "\r\033[K";
    // What the engine reported so far: kernel, spec, launch and the
    // obligations it decided.
    ::kproof::engine::Verdict v = snapshot;
    v.kind = ::kproof::engine::VerdictKind::Unknown;
    v.contractName = contract;
    if (v.kernelName.empty())
      v.kernelName = kernel;
    if (v.specDescription.empty())
      v.specDescription = "the contract's spec";
    v.seconds = elapsed;
    v.reason = llvm::formatv("time limit of {0} s reached (--timeout); the "
                             "engine was stopped after {1} obligation(s) "
                             "decided, while running: {2}",
                             unsigned(timeoutSeconds), decided, current)
                   .str();
    if (json) {
      v.printJSON(os);
      if (inArray)
        os << "]\n";
    } else {
      v.print(os);
    }
    os.flush();
    llvm::errs().flush();
    std::_Exit(rcSoFar == ExitFailure ? ExitFailure : ExitUnknown);
  }

  std::string contract, kernel;
  llvm::raw_ostream &os;
  bool json, inArray;
  int rcSoFar;
  std::chrono::steady_clock::time_point start;
  bool tty = false, show = false, drawn = false, done = false;
  std::mutex mutex;
  std::condition_variable wake;
  std::string current = "start";
  unsigned decided = 0;
  ::kproof::engine::Verdict snapshot;
  const ::kproof::engine::Verdict *source = nullptr;
  std::thread thread;
};
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
  bool json = verdictFormat == OutputFormat::JSON;
  // Errors before any contract is checked: one JSON error object.
  auto fail = [&](const std::string &message) {
    if (!message.empty())
      llvm::errs() << "kproof-opt: " << message << "\n";
    if (json)
      printJSONError(os, "", message);
    return ExitError;
  };
  ErrorCapture contractErrors(&context);
  // An error already emitted as a diagnostic (and captured): its object.
  auto failCaptured = [&] {
    if (json)
      printJSONError(os, "", contractErrors.first);
    return ExitError;
  };
  if (!contractFile.empty()) {
    std::string err;
    auto buffer = openInputFile(contractFile, &err);
    if (!buffer)
      return fail(err);
    // The contract lives in its own source manager: parseSourceFile reads
    // the main buffer, which for the kernel's manager is the kernel.
    contractSourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    if (failed(kproof::checkBeforeParsing(contractSourceMgr, &context)))
      return failCaptured();
    contractModule = parseSourceFile<ModuleOp>(contractSourceMgr, &context);
    if (!contractModule)
      return failCaptured();
    contractModule->walk(
        [&](kproof::ContractOp c) { contracts.push_back(c); });
    if (contracts.empty()) {
      mlir::emitError(contractModule->getLoc())
          << "no kproof.contract in " << contractFile;
      return failCaptured();
    }
  } else {
    module.walk([&](kproof::ContractOp c) { contracts.push_back(c); });
    if (contracts.empty())
      return fail("--verify-equiv needs a contract: --contract=FILE or a "
                  "kproof.contract op in the input");
  }
  ::kproof::engine::CheckerOptions options;
  options.timeoutSeconds = timeoutSeconds;
  options.certificateDir = certificateDir;
  options.syncOnly = verifySync && !verifyEquiv;
  options.mergeStates = mergeStates;
  options.rlimit = solverRLimit;
  options.solverGuardSeconds = solverGuard;
  options.probes = probes;
  options.memoryLimitMiB = memoryLimit;
  options.smallSizes = smallSizes;
  options.explain = explain;
  if (precisionMode == "strict")
    options.strictPrecision = true;
  else if (precisionMode != "allow")
    return fail("--precision must be 'strict' or 'allow'");
  // Every contract is checked, in order; the worst verdict decides the exit
  // code (REFUTED > UNKNOWN > PROVED), and a contract error stops with 2.
  int rc = ExitOk;
  if (json && contracts.size() > 1)
    os << "[\n";
  bool inArray = json && contracts.size() > 1;
  for (auto [i, contract] : llvm::enumerate(contracts)) {
    if (i > 0)
      os << (json ? ",\n" : "\n");
    os.flush();
    auto start = std::chrono::steady_clock::now();
    std::optional<::kproof::engine::Verdict> verdict;
    ErrorCapture errors(&context);
    {
      Monitor monitor(contract.getSymName().str(), contract.getKernel().str(),
                      os, json, inArray, rc);
      options.progress = [&monitor](llvm::StringRef now,
                                    const ::kproof::engine::Verdict &sofar) {
        monitor.update(now, sofar);
      };
      TimingScope proofTimer =
          rootTimer.nest(("proof of " + contract.getSymName()).str());
      verdict = ::kproof::engine::checkEquivalence(module, contract, options);
      proofTimer.stop();
      if (verdict) {
        monitor.update("replay of the counterexample");
        TimingScope replayTimer = rootTimer.nest("replay");
        // Every counterexample is replayed on the kernel by the
        // interpreter, so a REFUTED is never an artifact of the model
        // (Harness.h).
        ::kproof::interp::replayAndSettle(module, contract, *verdict);
        replayTimer.stop();
      }
    }
    if (!verdict) {
      // A contract error (printed on stderr): the JSON stays valid.
      if (json) {
        printJSONError(os, contract.getSymName(), errors.first);
        if (inArray)
          os << "]\n";
      }
      return ExitError;
    }
    // The failing instructions, once the replay has settled the verdict.
    verdict->emitRefutedSites();
    verdict->contractName = contract.getSymName().str();
    verdict->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (json)
      verdict->printJSON(os);
    else
      verdict->print(os);
    int code = verdict->exitCode();
    if (code == ExitFailure || (code == ExitUnknown && rc == ExitOk))
      rc = code;
  }
  if (inArray)
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
    bool verifying = verifyEquiv || verifySync;
    std::optional<QuietHandler> quietHandler;
    if (quiet)
      quietHandler.emplace(&context);
    ErrorCapture errors(&context);
    OwningOpRef<ModuleOp> module = kproof::importPTX(sourceMgr, &context);
    if (!module) {
      if (verifying && verdictFormat == OutputFormat::JSON)
        printJSONError(os, "", errors.first);
      return ExitError;
    }
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

  // kproof's own options first in --help, then the MLIR driver's; LLVM's
  // backend flags only with --help-all. A malformed command line is a usage
  // error (exit 2), never exit 1, which means REFUTED.
  std::string helpHeader;
  kproof::tools::organizeHelp(
      {&kproofCategory},
      [&] {
        helpHeader = registerCLIOptions(
            "kproof driver: import, transform and verify GPU kernels\n",
            registry);
      },
      &mlirCategory);
  // A verification run that asked for JSON gets a JSON error object even
  // when the command line itself is wrong (on stdout: -o may not be parsed).
  auto askedForJSON = [&] {
    bool verifying = false, json = false;
    for (int i = 1; i < argc; ++i) {
      llvm::StringRef a(argv[i]);
      a = a.ltrim('-');
      verifying |= a == "verify-equiv" || a == "verify-sync";
      json |= a == "format=json" ||
              (a == "format" && i + 1 < argc &&
               llvm::StringRef(argv[i + 1]) == "json");
    }
    return verifying && json;
  };
  {
    std::string parseErrors;
    llvm::raw_string_ostream errs(parseErrors);
    bool parsed =
        llvm::cl::ParseCommandLineOptions(argc, argv, helpHeader, &errs);
    llvm::errs() << parseErrors;
    if (!parsed) {
      // LLVM prints a bad value's message straight to stderr; the object
      // carries what was captured, else points there.
      std::string first =
          llvm::StringRef(parseErrors).split('\n').first.trim().str();
      if (askedForJSON())
        printJSONError(llvm::outs(), "",
                       first.empty() ? "invalid command line (the reason is "
                                       "on stderr)"
                                     : first);
      return ExitError;
    }
  }
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  bool jsonVerdicts =
      (verifyEquiv || verifySync) && verdictFormat == OutputFormat::JSON;

  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "kproof-opt: " << errorMessage << "\n";
    if (jsonVerdicts)
      printJSONError(llvm::outs(), "", errorMessage);
    return ExitError;
  }
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "kproof-opt: " << errorMessage << "\n";
    if (jsonVerdicts) {
      printJSONError(output->os(), "", errorMessage);
      output->keep();
    }
    return ExitError;
  }

  bool isPTX = inputFormat == InputFormat::PTX ||
               (inputFormat == InputFormat::Auto &&
                (llvm::StringRef(inputFilename).ends_with(".ptx") ||
                 ::kproof::ptx::looksLikePTX(input->getBuffer())));
  if (isPTX) {
    int rc = runOnPTX(std::move(input), output->os(), registry, config);
    // A verdict (or a JSON error object) is kept whatever it says; a
    // failed import or pass pipeline writes nothing worth keeping.
    if (rc == ExitOk || verifyEquiv || verifySync)
      output->keep();
    return rc;
  }

  if (verifyEquiv || verifySync) {
    // An MLIR kernel module (kproof dialect) with --verify-equiv.
    MLIRContext context(registry);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    std::optional<QuietHandler> quietHandler;
    if (quiet)
      quietHandler.emplace(&context);
    OwningOpRef<ModuleOp> module;
    {
      ErrorCapture errors(&context);
      if (succeeded(kproof::checkBeforeParsing(sourceMgr, &context)))
        module = parseSourceFile<ModuleOp>(sourceMgr, &context);
      if (!module) {
        if (verdictFormat == OutputFormat::JSON) {
          printJSONError(output->os(), "", errors.first);
          output->keep();
        }
        return ExitError;
      }
    }
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
