//===- kproof-run.cpp - run a kernel on the CPU interpreter ---------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// kproof-run KERNEL.{ptx,mlir} --contract=FILE
//            [--inputs=FILE.json | --random=N --seed=S [--range=R]]
//            [--schedule=inorder|reversed|warp-rr|random[:SEED]]
//            [--mode=ieee|exact] [--atol=A --rtol=R]
//
// Runs the kernel the contract names over the contract's launch on the CPU
// interpreter (lib/Interpreter), evaluates the contract's spec on the same
// inputs, and prints one JSON object (schema in docs/interpreter.md): the
// outputs, the maximum absolute and relative error against the spec, the
// dynamic findings (races, uninitialized reads, out-of-bounds accesses,
// barrier divergence, membermask violations) and, with --random, the first
// failing input, the number of samples and the time taken.
//
// Exit codes (docs/design-notes.md "Certificates restate the goal"): 0 ok, 1
// mismatch (outside the tolerance) or a dynamic finding, 2 error (input,
// contract, unmodeled op).
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/PreParseCheck.h"
#include "KProof/Import/PTX/PTXImporter.h"
#include "KProof/Import/PTX/PTXParser.h"
#include "KProof/Interpreter/Harness.h"
#include "KProof/Tools/CommandLine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::interp;

namespace {
enum ExitCode : int { ExitOk = 0, ExitMismatch = 1, ExitError = 2 };

llvm::cl::OptionCategory runCategory("kproof-run options");

llvm::cl::opt<std::string> kernelFile(llvm::cl::Positional,
                                      llvm::cl::desc("<kernel.ptx|mlir>"),
                                      llvm::cl::Required,
                                      llvm::cl::cat(runCategory));
llvm::cl::opt<std::string>
    contractFile("contract",
                 llvm::cl::desc("MLIR file with the kproof.contract (default: "
                                "the kernel module's own)"),
                 llvm::cl::value_desc("file"), llvm::cl::cat(runCategory));
llvm::cl::opt<std::string>
    contractName("contract-name",
                 llvm::cl::desc("Which kproof.contract of the file (default: "
                                "the first)"),
                 llvm::cl::cat(runCategory));
llvm::cl::opt<std::string>
    inputsFile("inputs",
               llvm::cl::desc("JSON file with the input buffers and free "
                              "scalars (docs/interpreter.md)"),
               llvm::cl::value_desc("file.json"), llvm::cl::cat(runCategory));
llvm::cl::opt<unsigned>
    randomSamples("random",
                  llvm::cl::desc("Random testing: run up to N random inputs, "
                                 "stop at the first failing one"),
                  llvm::cl::value_desc("N"), llvm::cl::init(0),
                  llvm::cl::cat(runCategory));
llvm::cl::opt<uint64_t> seed("seed", llvm::cl::desc("Seed of --random"),
                             llvm::cl::init(1), llvm::cl::cat(runCategory));
llvm::cl::opt<double>
    range("range", llvm::cl::desc("--random draws inputs uniformly in [-R, R]"),
          llvm::cl::init(4.0), llvm::cl::cat(runCategory));
llvm::cl::opt<std::string>
    scheduleOpt("schedule",
                llvm::cl::desc("Interleaving between barriers: inorder "
                               "(default), reversed, warp-rr, random[:SEED]"),
                llvm::cl::init("inorder"), llvm::cl::cat(runCategory));
llvm::cl::opt<std::string>
    modeOpt("mode",
            llvm::cl::desc("ieee (default): host IEEE arithmetic with PTX "
                           "rounding; exact: reals at 256 bits (the proof "
                           "engine's model)"),
            llvm::cl::init("ieee"), llvm::cl::cat(runCategory));
llvm::cl::opt<double> atolOpt("atol", llvm::cl::desc("Absolute tolerance"),
                              llvm::cl::init(1e-5), llvm::cl::cat(runCategory));
llvm::cl::opt<double> rtolOpt("rtol", llvm::cl::desc("Relative tolerance"),
                              llvm::cl::init(1e-4), llvm::cl::cat(runCategory));
llvm::cl::opt<uint64_t>
    dynamicSmem("dynamic-smem",
                llvm::cl::desc("Bytes of dynamic shared memory per CTA "
                               "(default: the contract's dynamic_shared)"),
                llvm::cl::init(0), llvm::cl::cat(runCategory));
llvm::cl::opt<std::string> launchOpt(
    "launch",
    llvm::cl::desc("Extents of a symbolic launch (a contract with grid_max "
                   "or block_max), e.g. ntid.x=96,nctaid.x=3; an extent not "
                   "given is 1"),
    llvm::cl::init(""), llvm::cl::cat(runCategory));
llvm::cl::opt<uint64_t>
    maxSteps("max-steps",
             llvm::cl::desc("Operations executed before the run stops"),
             llvm::cl::init(200'000'000), llvm::cl::cat(runCategory));
} // namespace

/// A double as a JSON number; JSON has no infinities or NaN, so those are
/// the strings "inf", "-inf", "nan" (docs/interpreter.md).
/// Compares every output the contract's specs define; the comparison of
/// the first output that mismatches or cannot be evaluated, else the
/// first output's.
static Comparison compareOutputs(engine::BoundContract &bc,
                                 engine::TermContext &T,
                                 const LaunchInputs &in, const RunResult &run,
                                 double atol, double rtol) {
  Comparison first;
  for (size_t k = 0; k < bc.specs.size(); ++k) {
    Comparison c = compareWithSpec(bc, T, in, run, atol, rtol, k);
    if (!c.error.empty() || c.firstMismatch)
      return c;
    if (k == 0)
      first = std::move(c);
  }
  return first;
}

static void writeNumber(llvm::json::OStream &J, double d) {
  if (std::isnan(d))
    J.value("nan");
  else if (std::isinf(d))
    J.value(d < 0 ? "-inf" : "inf");
  else
    J.value(d);
}

static void numberAttribute(llvm::json::OStream &J, llvm::StringRef key,
                            double d) {
  J.attributeBegin(key);
  writeNumber(J, d);
  J.attributeEnd();
}

static void writeScalar(llvm::json::OStream &J, const Scalar &s) {
  if (s.isFinite() && s.value.isInteger())
    J.rawValue(s.value.toString());
  else
    J.value(s.toString());
}

/// An element: a JSON number when finite, else "inf", "-inf", "nan".
static void writeElement(llvm::json::OStream &J, const OutputElement &e,
                         Type type) {
  if (!e.written) {
    J.value(nullptr); // never written: not a value (docs/interpreter.md)
    return;
  }
  std::string s = formatElement(e, type);
  if (s == "nan" || s == "inf" || s == "-inf")
    J.value(s);
  else
    J.rawValue(s);
}

static void writeInputs(llvm::json::OStream &J, const engine::BoundContract &bc,
                        const LaunchInputs &in) {
  J.objectBegin();
  for (const std::string &name : bc.names) {
    if (auto it = in.buffers.find(name); it != in.buffers.end()) {
      J.attributeBegin(name);
      J.arrayBegin();
      for (const Scalar &s : it->second)
        writeScalar(J, s);
      J.arrayEnd();
      J.attributeEnd();
    } else if (auto it = in.scalars.find(name); it != in.scalars.end()) {
      J.attributeBegin(name);
      writeScalar(J, it->second);
      J.attributeEnd();
    }
  }
  J.objectEnd();
}

/// The JSON of one run: outputs, spec comparison, findings.
static void writeRun(llvm::json::OStream &J, const engine::BoundContract &bc,
                     const RunResult &run, const Comparison &cmp) {
  J.attributeBegin("outputs");
  J.objectBegin();
  for (const std::optional<engine::BufferBinding> &b : bc.buffers) {
    if (!b || b->role == engine::BufferBinding::Role::In)
      continue;
    J.attributeBegin(b->name);
    J.arrayBegin();
    for (const OutputElement &e : run.buffers.at(b->name))
      writeElement(J, e, b->elemType);
    J.arrayEnd();
    J.attributeEnd();
  }
  J.objectEnd();
  J.attributeEnd();
  J.attributeBegin("spec");
  J.objectBegin();
  J.attribute("output", cmp.buffer);
  if (engine::Spec *sp = bc.specOf(cmp.buffer))
    J.attribute("description", sp->describe());
  if (!cmp.error.empty()) {
    J.attribute("error", cmp.error);
  } else {
    J.attributeArray("values", [&] {
      for (double d : cmp.spec)
        writeNumber(J, d);
    });
    numberAttribute(J, "max_abs_error", cmp.maxAbsError);
    numberAttribute(J, "max_rel_error", cmp.maxRelError);
    J.attribute("worst_index", int64_t(cmp.worstIndex));
    if (cmp.firstMismatch)
      J.attribute("first_mismatch", int64_t(*cmp.firstMismatch));
    else
      J.attribute("first_mismatch", nullptr);
  }
  J.objectEnd();
  J.attributeEnd();
  J.attributeArray("findings", [&] {
    for (const Finding &f : run.findings)
      J.object([&] {
        J.attribute("kind", findingKindName(f.kind));
        J.attribute("message", f.message);
        J.attribute("location", locationString(f.loc));
        if (f.other)
          J.attribute("other", locationString(*f.other));
      });
  });
  J.attributeArray("warnings", [&] {
    for (const std::string &w : run.warnings)
      J.value(w);
  });
  J.attribute("steps", int64_t(run.steps));
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // kproof-run's own options in --help (LLVM's with --help-all); a
  // malformed command line is a usage error (exit 2).
  kproof::tools::organizeHelp({&runCategory});
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "kproof-run: run a kernel on the CPU interpreter against its "
          "contract\n",
          &llvm::errs()))
    return ExitError;

  std::optional<Schedule> schedule = parseSchedule(scheduleOpt);
  if (!schedule) {
    llvm::errs() << "kproof-run: error: --schedule must be inorder, reversed, "
                    "warp-rr or random[:SEED], not '"
                 << scheduleOpt << "'\n";
    return ExitError;
  }
  if (modeOpt != "ieee" && modeOpt != "exact") {
    llvm::errs() << "kproof-run: error: --mode must be ieee or exact\n";
    return ExitError;
  }
  if (!inputsFile.empty() && randomSamples) {
    llvm::errs() << "kproof-run: error: --inputs and --random exclude each "
                    "other\n";
    return ExitError;
  }

  DialectRegistry registry;
  registry.insert<kproof::KProofDialect, func::FuncDialect,
                  cf::ControlFlowDialect, tensor::TensorDialect,
                  linalg::LinalgDialect, arith::ArithDialect,
                  math::MathDialect>();
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr, contractMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(kernelFile, &err);
  if (!input) {
    llvm::errs() << "kproof-run: error: " << err << "\n";
    return ExitError;
  }
  bool isPTX = llvm::StringRef(kernelFile).ends_with(".ptx") ||
               ::kproof::ptx::looksLikePTX(input->getBuffer());
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  if (!isPTX && failed(kproof::checkBeforeParsing(sourceMgr, &context)))
    return ExitError;
  OwningOpRef<ModuleOp> module =
      isPTX ? kproof::importPTX(sourceMgr, &context)
            : parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return ExitError;

  OwningOpRef<ModuleOp> contractModule;
  SmallVector<kproof::ContractOp> contracts;
  if (!contractFile.empty()) {
    std::unique_ptr<llvm::MemoryBuffer> cbuf =
        openInputFile(contractFile, &err);
    if (!cbuf) {
      llvm::errs() << "kproof-run: error: " << err << "\n";
      return ExitError;
    }
    contractMgr.AddNewSourceBuffer(std::move(cbuf), llvm::SMLoc());
    if (failed(kproof::checkBeforeParsing(contractMgr, &context)))
      return ExitError;
    contractModule = parseSourceFile<ModuleOp>(contractMgr, &context);
    if (!contractModule)
      return ExitError;
    contractModule->walk(
        [&](kproof::ContractOp c) { contracts.push_back(c); });
  } else {
    module->walk([&](kproof::ContractOp c) { contracts.push_back(c); });
  }
  kproof::ContractOp contract;
  for (kproof::ContractOp c : contracts)
    if (contractName.empty() || c.getSymName() == contractName) {
      contract = c;
      break;
    }
  if (!contract) {
    llvm::errs() << "kproof-run: error: "
                 << (contractName.empty()
                         ? std::string("no kproof.contract (give --contract=FILE)")
                         : "no kproof.contract named '" + contractName + "'")
                 << "\n";
    return ExitError;
  }

  // A symbolic launch runs at the extents --launch gives.
  std::map<std::string, int64_t> launchValues;
  {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(launchOpt).split(items, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef item : items) {
      auto [key, value] = item.split('=');
      int64_t v;
      if (value.trim().getAsInteger(10, v)) {
        llvm::errs() << "kproof-run: error: --launch entry '" << item
                     << "' is not NAME=INTEGER\n";
        return ExitError;
      }
      static const llvm::StringRef kExtents[] = {
          "ntid.x", "ntid.y", "ntid.z", "nctaid.x", "nctaid.y", "nctaid.z"};
      bool sizeParam = false;
      for (mlir::Attribute a : contract.getParams())
        if (auto d = llvm::dyn_cast<mlir::DictionaryAttr>(a))
          sizeParam |= d.get("range") && d.get("scalar") &&
                       d.getAs<mlir::StringAttr>("name").getValue() ==
                           key.trim();
      if (!llvm::is_contained(kExtents, key.trim()) && !sizeParam) {
        llvm::errs() << "kproof-run: error: --launch entry '" << item
                     << "' names no launch extent (ntid.x|y|z, nctaid.x|y|z) "
                        "and no scalar with a range (a symbolic size)\n";
        return ExitError;
      }
      launchValues[key.trim().str()] = v;
    }
  }
  engine::TermContext T;
  std::optional<engine::BoundContract> bc = engine::bindContract(
      *module, contract, T, launchOpt.empty() ? nullptr : &launchValues);
  if (!bc)
    return ExitError; // the diagnostic names the contract field
  if (bc->specs.empty()) {
    llvm::errs() << "kproof-run: error: contract @" << contract.getSymName()
                 << " has no 'spec': kproof-run compares the kernel's outputs "
                    "with it\n";
    return ExitError;
  }
  if (bc->launch.isSymbolic()) {
    llvm::errs() << "kproof-run: error: the contract's launch is symbolic ("
                 << llvm::StringRef(bc->launch.describe())
                        .drop_while([](char c) { return c != ':'; })
                        .drop_front(2)
                 << "); give its extents with --launch=ntid.x=N,nctaid.x=M\n";
    return ExitError;
  }
  for (const engine::LaunchConfig::SizeParam &p : bc->launch.sizes)
    if (!p.value) {
      llvm::errs() << "kproof-run: error: scalar '" << p.name
                   << "' is a symbolic size (range [" << p.lo << ", "
                   << p.hi + 1 << ")); give its value with --launch="
                   << p.name << "=N\n";
      return ExitError;
    }

  RunOptions opts;
  opts.mode = modeOpt == "exact" ? NumericMode::Exact : NumericMode::IEEE;
  opts.schedule = *schedule;
  if (dynamicSmem.getNumOccurrences()) // else the contract's dynamic_shared
    opts.dynamicSharedBytes = dynamicSmem;
  opts.tolerateEqualWrites = bc->tolerateEqualWrites;
  opts.maxSteps = maxSteps;

  auto reportError = [&](const RunResult &run) {
    if (run.errorLoc)
      mlir::emitError(*run.errorLoc) << "kproof-run: " << run.error;
    else
      llvm::errs() << "kproof-run: error: " << run.error << "\n";
    return ExitError;
  };

  llvm::json::OStream J(llvm::outs(), 2);
  if (!randomSamples) {
    LaunchInputs in;
    if (!inputsFile.empty()) {
      std::unique_ptr<llvm::MemoryBuffer> ibuf =
          openInputFile(inputsFile, &err);
      if (!ibuf) {
        llvm::errs() << "kproof-run: error: " << err << "\n";
        return ExitError;
      }
      std::optional<LaunchInputs> parsed =
          parseInputs(ibuf->getBuffer(), *bc, err);
      if (!parsed) {
        llvm::errs() << inputsFile << ": error: " << err << "\n";
        return ExitError;
      }
      in = std::move(*parsed);
    } else {
      // No inputs: valid only when the kernel has none.
      std::optional<LaunchInputs> parsed = parseInputs("{}", *bc, err);
      if (!parsed) {
        llvm::errs() << "kproof-run: error: " << err
                     << " (give --inputs=FILE.json or --random=N)\n";
        return ExitError;
      }
      in = std::move(*parsed);
    }
    RunResult run =
        interp::run(bc->kernel, bc->launch, bc->buffers, bc->names, in, opts);
    if (run.failed())
      return reportError(run);
    Comparison cmp = compareOutputs(*bc, T, in, run, atolOpt, rtolOpt);
    bool mismatch = cmp.error.empty() && cmp.firstMismatch.has_value();
    J.objectBegin();
    J.attribute("kernel", bc->kernel.getSymName());
    J.attribute("contract", contract.getSymName());
    J.attribute("mode", modeOpt.getValue());
    J.attribute("schedule", toString(*schedule));
    numberAttribute(J, "atol", double(atolOpt));
    numberAttribute(J, "rtol", double(rtolOpt));
    J.attributeBegin("inputs");
    writeInputs(J, *bc, in);
    J.attributeEnd();
    writeRun(J, *bc, run, cmp);
    J.attribute("result", !run.findings.empty() ? "finding"
                          : mismatch            ? "mismatch"
                                                : "ok");
    J.objectEnd();
    llvm::outs() << "\n";
    return (mismatch || !run.findings.empty()) ? ExitMismatch : ExitOk;
  }

  // Random testing: up to N samples, stop at the first failing one.
  std::mt19937_64 rng(seed);
  auto start = std::chrono::steady_clock::now();
  std::optional<unsigned> failedAt;
  LaunchInputs in;
  RunResult run;
  Comparison cmp;
  unsigned samples = 0;
  for (unsigned s = 0; s < randomSamples; ++s) {
    in = randomInputs(*bc, rng, range);
    run = interp::run(bc->kernel, bc->launch, bc->buffers, bc->names, in,
                      opts);
    ++samples;
    if (run.failed())
      return reportError(run);
    cmp = compareOutputs(*bc, T, in, run, atolOpt, rtolOpt);
    if (!run.findings.empty() || (cmp.error.empty() && cmp.firstMismatch)) {
      failedAt = s;
      break;
    }
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  J.objectBegin();
  J.attribute("kernel", bc->kernel.getSymName());
  J.attribute("contract", contract.getSymName());
  J.attribute("mode", modeOpt.getValue());
  J.attribute("schedule", toString(*schedule));
  numberAttribute(J, "atol", double(atolOpt));
  numberAttribute(J, "rtol", double(rtolOpt));
  J.attributeObject("random", [&] {
    J.attribute("seed", int64_t(seed));
    numberAttribute(J, "range", double(range));
    J.attribute("samples", int64_t(samples));
    J.attribute("limit", int64_t(randomSamples));
    numberAttribute(J, "seconds", seconds);
    J.attribute("found", failedAt.has_value());
    if (!failedAt)
      J.attribute("summary", "not found in " +
                                 std::to_string(randomSamples) + " samples");
    else
      J.attribute("summary", "found at sample " +
                                 std::to_string(*failedAt + 1));
  });
  J.attributeBegin(failedAt ? "first_failure" : "last_sample");
  J.objectBegin();
  J.attributeBegin("inputs");
  writeInputs(J, *bc, in);
  J.attributeEnd();
  writeRun(J, *bc, run, cmp);
  J.objectEnd();
  J.attributeEnd();
  J.attribute("result", !failedAt                 ? "ok"
                        : !run.findings.empty()   ? "finding"
                                                  : "mismatch");
  J.objectEnd();
  llvm::outs() << "\n";
  return failedAt ? ExitMismatch : ExitOk;
}
