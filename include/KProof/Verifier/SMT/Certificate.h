//===- Certificate.h - re-checkable proof certificates ----------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// `--proof-certificate=DIR` (docs/design-notes.md "Certificates restate the
// goal"): for every obligation proved, a self-contained SMT-LIB2 file that
// re-solves to unsat with any SMT-LIB2 solver: the negated goal plus, as named
// assertions, every fact the proof used (ground instances of the exponent rules
// the normalizer applied, exp pushed through max/min/ite, the atom facts of
// Z3Lowering, and the non-zero divisors that their own obligations prove). Also
// for obligations the normalizer closed without the solver.
//
// Files: `<DIR>/<NNN>-<name>.smt2`, NNN counting the certificates of this
// writer from 001 and <name> the obligation's name in [A-Za-z0-9_.-]
// (bounded length). A normalizer proof asserts only what the normalizer
// uses (the rule of exponents "exp_split_k", positivity "exp_pos!k", the
// divisors "divisor_nonzero_k"); a solver proof ("z3 ...") also gets exp
// through max/min/ite ("exp_branch_k") and every atom fact of its query,
// and Z3's proof object in `<NNN>-<name>.proof` when a separate
// proof-producing context finds one within the default rlimit
// (smt::proveUnsatWithProof). `kproof-smt DIR` re-solves the files.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_SMT_CERTIFICATE_H
#define KPROOF_VERIFIER_SMT_CERTIFICATE_H

#include "KProof/Verifier/Terms/Normalizer.h"
#include "KProof/Verifier/Terms/Term.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace kproof::engine {

class CertificateWriter {
public:
  CertificateWriter(std::string directory, TermContext &terms,
                    Normalizer &normalizer);

  /// Writes one certificate for the obligation `name`, proved by `how`
  /// ("normalizer", "z3 (unsat)", ...), whose negation is `negatedGoal` (a
  /// Bool term that must be unsatisfiable). Returns false and sets
  /// getError() on failure (I/O, a term that cannot be lowered).
  bool write(const std::string &name, Term negatedGoal, llvm::StringRef how);

  const std::string &getError() const { return error; }
  /// The files written so far.
  const std::vector<std::string> &getFiles() const { return files; }

private:
  std::string directory;
  TermContext &terms;
  Normalizer &normalizer;
  std::string error;
  std::vector<std::string> files;
};

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_SMT_CERTIFICATE_H
