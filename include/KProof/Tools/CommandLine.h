//===- CommandLine.h - the kproof tools' --help -----------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The kproof tools link LLVM as one shared library, and every command-line
// option LLVM's libraries register before main (about 450 code-generation
// flags: --x86-asm-syntax, --amdgpu-atomic-optimizer-strategy, ...) would
// otherwise crowd `--help`. These helpers hide them from `--help` (they stay
// accepted and `--help-all` lists them) and give the MLIR driver's options a
// category of their own, so that a tool's own options come first.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_TOOLS_COMMANDLINE_H
#define KPROOF_TOOLS_COMMANDLINE_H

#include "KProof/Version.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace kproof {
namespace tools {

/// The name LLVM gives the category of --help, --help-list, --version.
inline bool isGenericOption(const llvm::cl::Option &o) {
  return llvm::any_of(o.Categories, [](llvm::cl::OptionCategory *c) {
    return c->getName() == "Generic Options";
  });
}

/// Tidies `--help` for a kproof tool. Call it before parsing the command
/// line, after the tool's own options exist (they are static globals in the
/// tool's own categories, `own`).
///
/// - Every option registered before `registerMore` runs that is neither in
///   `own` nor generic (--help, --version) is hidden: LLVM's backend flags.
///   Hidden options are still parsed; `--help-all` (LLVM's `--help-hidden`
///   under the name users look for) lists them.
/// - `registerMore` registers further options (the MLIR driver's: pass
///   pipeline, --mlir-timing, --verify-diagnostics, remarks, ...); they all
///   move to `later` when it is given, which sorts after the tool's own
///   category in `--help` (LLVM orders categories by name).
/// - `--version` also prints kproof's version.
inline void organizeHelp(llvm::ArrayRef<llvm::cl::OptionCategory *> own,
                         llvm::function_ref<void()> registerMore = {},
                         llvm::cl::OptionCategory *later = nullptr) {
  llvm::DenseMap<llvm::StringRef, llvm::cl::Option *> &options =
      llvm::cl::getRegisteredOptions();
  llvm::StringSet<> before;
  for (auto &entry : options)
    before.insert(entry.first);
  if (registerMore)
    registerMore();
  for (auto &entry : options) {
    llvm::cl::Option &o = *entry.second;
    bool isOwn = llvm::any_of(o.Categories, [&](llvm::cl::OptionCategory *c) {
      return llvm::is_contained(own, c);
    });
    if (isOwn || isGenericOption(o))
      continue;
    if (before.contains(entry.first)) {
      if (o.getOptionHiddenFlag() == llvm::cl::NotHidden)
        o.setHiddenFlag(llvm::cl::Hidden);
      continue;
    }
    if (later)
      o.Categories.assign(1, later);
  }
  // --version: kproof's version after LLVM's banner.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "kproof " KPROOF_VERSION "\n";
  });
  // --help-all: LLVM's categorized help with the hidden options (as
  // --help-hidden), listed next to --help (in the generic category).
  auto help = options.find("help");
  if (help != options.end() && !options.count("help-all"))
    new llvm::cl::opt<bool>(
        "help-all",
        llvm::cl::desc("Display every option, LLVM's own flags included"),
        llvm::cl::ValueDisallowed,
        llvm::cl::cat(*help->second->Categories.front()),
        llvm::cl::callback([](const bool &) {
          llvm::cl::PrintHelpMessage(/*Hidden=*/true, /*Categorized=*/true);
          std::exit(0);
        }));
}

} // namespace tools
} // namespace kproof

#endif // KPROOF_TOOLS_COMMANDLINE_H
