//===- kproof-bench-import.cpp - PTX import throughput ---------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Times the PTX front end on one file, in process, so that parsing alone and
// parsing + importing can be told apart (docs/benchmarks.md):
//
//   kproof-bench-import [--mode=read|parse|import] [--repeat=N] FILE.ptx
//
//   read    load the file and touch every byte (baseline for peak memory)
//   parse   kproof::ptx::parsePTX into a syntax tree
//   import  kproof::importPTX (parse, resolve, SSA, verify) into a
//           fresh MLIRContext per repetition (default threading, as in
//           kproof-opt), dialects loaded beforehand
//
// Each repetition re-reads nothing: the file is in memory before the clock
// starts. Prints one line per repetition and a summary line
//
//   mode=parse bytes=... reps=5 median_s=... min_s=... max_s=... median_MBps=... maxrss_kB=...
//
// (MB = 10^6 bytes; maxrss from getrusage, the whole process). Exit status 1
// if the input does not parse/import.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Import/PTX/PTXAST.h"
#include "KProof/Import/PTX/PTXImporter.h"
#include "KProof/Import/PTX/PTXParser.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>

namespace {
enum class Mode { Read, Parse, Import };

llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                         llvm::cl::desc("<input.ptx>"),
                                         llvm::cl::Required);
llvm::cl::opt<Mode> mode(
    "mode", llvm::cl::desc("What to time"), llvm::cl::init(Mode::Import),
    llvm::cl::values(
        clEnumValN(Mode::Read, "read", "load the file only"),
        clEnumValN(Mode::Parse, "parse", "lexer + parser (syntax tree)"),
        clEnumValN(Mode::Import, "import",
                   "parser + importer (kproof dialect, verified)")));
llvm::cl::opt<unsigned> repeat("repeat", llvm::cl::desc("Repetitions"),
                               llvm::cl::init(5));
llvm::cl::opt<bool> quiet("quiet",
                          llvm::cl::desc("Print the summary line only"),
                          llvm::cl::init(false));

/// One repetition; false if the input is rejected.
bool runOnce(const llvm::MemoryBuffer &input, double &seconds) {
  llvm::SourceMgr sourceMgr;
  unsigned bufferID = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/true),
      llvm::SMLoc());
  using Clock = std::chrono::steady_clock;

  switch (mode) {
  case Mode::Read: {
    // Touch every byte (the file may be mmapped) so that the baseline's RSS
    // includes the input text, as the other modes' does.
    unsigned sum = 0;
    for (char c : input.getBuffer())
      sum += static_cast<unsigned char>(c);
    volatile unsigned sink = sum;
    (void)sink;
    seconds = 0;
    return true;
  }

  case Mode::Parse: {
    kproof::ptx::Module module;
    bool ok = true;
    auto start = Clock::now();
    ok = kproof::ptx::parsePTX(
        sourceMgr, bufferID, module,
        [&](llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
            const llvm::Twine &msg) {
          sourceMgr.PrintMessage(llvm::errs(), loc, kind, msg);
        });
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return ok;
  }

  case Mode::Import: {
    mlir::MLIRContext context;
    context.loadDialect<kproof::KProofDialect,
                        mlir::cf::ControlFlowDialect>();
    unsigned errors = 0;
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      // Warnings about unmodeled instructions are expected; count errors.
      if (d.getSeverity() == mlir::DiagnosticSeverity::Error) {
        if (++errors <= 5)
          llvm::errs() << d.getLocation() << ": error: " << d << "\n";
      }
      return mlir::success();
    });
    auto start = Clock::now();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        kproof::importPTX(sourceMgr, &context);
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return static_cast<bool>(module);
  }
  }
  return false;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "kproof PTX import throughput benchmark\n");

  auto fileOrErr = llvm::MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!fileOrErr) {
    llvm::errs() << "kproof-bench-import: " << inputFilename << ": "
                 << fileOrErr.getError().message() << "\n";
    return 2;
  }
  const llvm::MemoryBuffer &input = **fileOrErr;
  size_t bytes = input.getBufferSize();

  llvm::SmallVector<double> times;
  for (unsigned i = 0; i < std::max(1u, unsigned(repeat)); ++i) {
    double seconds = 0;
    if (!runOnce(input, seconds)) {
      llvm::errs() << "kproof-bench-import: " << inputFilename
                   << " was rejected\n";
      return 1;
    }
    times.push_back(seconds);
    if (!quiet)
      llvm::outs() << "rep=" << i << " s=" << llvm::format("%.6f", seconds)
                   << "\n";
  }

  llvm::SmallVector<double> sorted(times);
  llvm::sort(sorted);
  // Median: the middle one, or the mean of the two middle ones.
  size_t n = sorted.size();
  double median =
      n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double mbps = median > 0 ? bytes / 1e6 / median : 0;

  const char *modeName =
      mode == Mode::Read ? "read" : mode == Mode::Parse ? "parse" : "import";
  llvm::outs() << "mode=" << modeName << " bytes=" << bytes << " reps=" << n
               << " median_s=" << llvm::format("%.6f", median)
               << " min_s=" << llvm::format("%.6f", sorted.front())
               << " max_s=" << llvm::format("%.6f", sorted.back())
               << " median_MBps=" << llvm::format("%.2f", mbps)
               << " maxrss_kB=" << usage.ru_maxrss << "\n";
  return 0;
}
