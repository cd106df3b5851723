//===- kproof-smt.cpp - re-solve SMT-LIB2 files with kproof's Z3 ----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Re-checks proof certificates (--proof-certificate) without a z3 binary:
// each argument is an SMT-LIB2 file, or a directory whose *.smt2 files are
// taken in name order; every file is solved from scratch in a fresh Z3
// context (smt::solveSMTLIB2), under a resource limit (--rlimit, so that
// a check never hangs: deterministic, past it the answer is `unknown`), and
// one line `FILE: ANSWER` is printed.
//
// Exit code: 0 when every file was read and answered, 1 when some answer is
// not `unsat` under --expect-unsat, 2 when a file cannot be read.
//
//===----------------------------------------------------------------------===//

#include "KProof/Tools/CommandLine.h"
#include "KProof/Verifier/SMT/Z3Solver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

llvm::cl::OptionCategory smtCategory("kproof-smt options");

static llvm::cl::list<std::string>
    inputs(llvm::cl::Positional, llvm::cl::desc("<file.smt2 | directory>..."),
           llvm::cl::OneOrMore, llvm::cl::cat(smtCategory));
static llvm::cl::opt<uint64_t>
    rlimit("rlimit",
           llvm::cl::desc("Z3 resource limit per file (0: none); past it the "
                          "answer is unknown"),
           llvm::cl::init(200'000'000), llvm::cl::cat(smtCategory));
static llvm::cl::opt<bool>
    expectUnsat("expect-unsat",
                llvm::cl::desc("exit 1 unless every answer is unsat"),
                llvm::cl::init(false), llvm::cl::cat(smtCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // kproof-smt's own options in --help (LLVM's with --help-all); a
  // malformed command line is a usage error (exit 2).
  kproof::tools::organizeHelp({&smtCategory});
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv, "kproof-smt: solve SMT-LIB2 files with kproof's Z3\n",
          &llvm::errs()))
    return 2;

  std::vector<std::string> files;
  for (const std::string &in : inputs) {
    if (!llvm::sys::fs::is_directory(in)) {
      files.push_back(in);
      continue;
    }
    std::vector<std::string> here;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(in, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".smt2")
        here.push_back(it->path());
    if (ec) {
      llvm::errs() << "kproof-smt: cannot list '" << in
                   << "': " << ec.message() << "\n";
      return 2;
    }
    llvm::sort(here);
    files.insert(files.end(), here.begin(), here.end());
  }

  bool allUnsat = true;
  for (const std::string &file : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
    if (!buffer) {
      llvm::errs() << "kproof-smt: cannot read '" << file
                   << "': " << buffer.getError().message() << "\n";
      return 2;
    }
    std::string script;
    if (rlimit)
      script = "(set-option :rlimit " + std::to_string(rlimit) + ")\n";
    script += (*buffer)->getBuffer().str();
    std::string answer = kproof::smt::solveSMTLIB2(script);
    // One line per file.
    for (char &c : answer)
      if (c == '\n')
        c = ' ';
    llvm::outs() << file << ": " << answer << "\n";
    llvm::outs().flush();
    allUnsat &= answer == "unsat";
  }
  if (files.empty())
    llvm::errs() << "kproof-smt: no .smt2 file\n";
  return expectUnsat && (!allUnsat || files.empty()) ? 1 : 0;
}
