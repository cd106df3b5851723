//===- CertificateTest.cpp - tests of proof certificates ------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/SMT/Certificate.h"
#include "KProof/Verifier/SMT/Z3Solver.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <unistd.h>

using namespace kproof;
using namespace kproof::engine;

namespace {

/// A fresh temporary directory, removed with its files at the end.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() {
    std::error_code ec =
        llvm::sys::fs::createUniqueDirectory("kproof-cert", path);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
};

std::string readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  EXPECT_TRUE(bool(buffer)) << path.str();
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// The script without its top-level commands (assertions, possibly over
/// several lines) that mention `what`, and without its `:status unsat`
/// annotation (Z3 reports a contradicting answer as an error).
std::string dropCommands(llvm::StringRef script, llvm::StringRef what) {
  std::string out;
  size_t i = 0, n = script.size();
  while (i < n) {
    size_t end;
    if (script[i] == ';') {
      end = script.find('\n', i);
      end = end == llvm::StringRef::npos ? n : end + 1;
    } else if (script[i] == '(') {
      int depth = 0;
      for (end = i; end < n; ++end) {
        if (script[end] == '|') {
          end = script.find('|', end + 1);
          if (end == llvm::StringRef::npos)
            return out;
        } else if (script[end] == '(') {
          ++depth;
        } else if (script[end] == ')' && --depth == 0) {
          break;
        }
      }
      end = std::min(end + 1, n);
    } else {
      out += script[i++];
      continue;
    }
    llvm::StringRef command = script.slice(i, end);
    if (!command.contains(what) && !command.contains("(set-info :status"))
      out += command.str();
    i = end;
  }
  return out;
}

struct Fixture {
  TermContext T;
  Normalizer N{T};
  Term x = T.realVar("x"), y = T.realVar("y"), m = T.realVar("m");
};

/// The softmax shift: exp(x - m) / (exp(x - m) + exp(y - m)) equals
/// exp(x) / (exp(x) + exp(y)). The normalizer proves it; the certificate
/// re-solves to unsat, and only thanks to the exp_split facts.
TEST(Certificate, NormalizerShiftResolvesUnsat) {
  Fixture f;
  TermContext &T = f.T;
  Term ex = T.exp(T.sub(f.x, f.m)), ey = T.exp(T.sub(f.y, f.m));
  Term lhs = T.div(ex, T.add(ex, ey));
  Term rhs = T.div(T.exp(f.x), T.add(T.exp(f.x), T.exp(f.y)));
  ASSERT_TRUE(f.N.provesEqual(lhs, rhs));
  Term negated = T.notOf(T.eq(lhs, rhs));

  TempDir dir;
  CertificateWriter writer(dir.path.str().str(), T, f.N);
  ASSERT_TRUE(writer.write("value y[0]", negated, "normalizer"))
      << writer.getError();
  ASSERT_EQ(writer.getFiles().size(), 1u);
  llvm::StringRef file = writer.getFiles()[0];
  EXPECT_EQ(llvm::sys::path::filename(file), "001-value_y_0_.smt2");
  EXPECT_FALSE(llvm::sys::fs::exists(file.str() + ".proof"));

  std::string script = readFile(file);
  EXPECT_NE(script.find("; obligation: value y[0]"), std::string::npos);
  EXPECT_NE(script.find("; proved by: normalizer"), std::string::npos);
  EXPECT_NE(script.find("; expected: unsat"), std::string::npos);
  EXPECT_NE(script.find(":named goal)"), std::string::npos);
  EXPECT_NE(script.find(":named exp_split_0)"), std::string::npos);
  EXPECT_NE(script.find(":named divisor_nonzero_0)"), std::string::npos);
  EXPECT_NE(script.find(":named exp_pos!0)"), std::string::npos);
  EXPECT_NE(script.find("(check-sat)"), std::string::npos);
  EXPECT_EQ(smt::solveSMTLIB2(script), "unsat") << script;

  // Without the rules of exponents the atoms are free reals: not unsat.
  std::string without = dropCommands(script, ":named exp_split_");
  EXPECT_NE(without, script);
  EXPECT_EQ(smt::solveSMTLIB2(without), "sat") << without;
}

/// A second certificate gets the next index; names are sanitized.
TEST(Certificate, IndexAndSanitizedName) {
  Fixture f;
  TermContext &T = f.T;
  TempDir dir;
  llvm::SmallString<128> nested(dir.path);
  llvm::sys::path::append(nested, "a", "b"); // created on demand
  CertificateWriter writer(nested.str().str(), T, f.N);
  Term g1 = T.andOf(T.realLt(f.x, f.y), T.realLt(f.y, f.x));
  ASSERT_TRUE(writer.write("first", g1, "z3 (unsat)")) << writer.getError();
  ASSERT_TRUE(writer.write("non-zero divisor at k.ptx:12:3 (x/y)",
                           T.boolConst(false), "normalizer"))
      << writer.getError();
  std::vector<std::string> smt2;
  for (const std::string &p : writer.getFiles())
    if (llvm::StringRef(p).ends_with(".smt2"))
      smt2.push_back(std::string(llvm::sys::path::filename(p)));
  ASSERT_EQ(smt2.size(), 2u);
  EXPECT_EQ(smt2[0], "001-first.smt2");
  EXPECT_EQ(smt2[1], "002-non-zero_divisor_at_k.ptx_12_3__x_y_.smt2");
  for (const std::string &p : writer.getFiles())
    if (llvm::StringRef(p).ends_with(".smt2")) {
      EXPECT_EQ(smt::solveSMTLIB2(readFile(p)), "unsat") << p;
    }
}

/// An obligation Z3 proved: x < y and not exp(x) < exp(y). The certificate
/// needs the monotonicity atom fact, and comes with Z3's proof object.
TEST(Certificate, SolverProofWithProofObject) {
  Fixture f;
  TermContext &T = f.T;
  Term negated = T.andOf(T.realLt(f.x, f.y),
                         T.notOf(T.realLt(T.exp(f.x), T.exp(f.y))));
  TempDir dir;
  CertificateWriter writer(dir.path.str().str(), T, f.N);
  ASSERT_TRUE(writer.write("monotone", negated, "z3 (unsat)"))
      << writer.getError();
  std::string script = readFile(writer.getFiles()[0]);
  EXPECT_EQ(smt::solveSMTLIB2(script), "unsat") << script;
  EXPECT_EQ(smt::solveSMTLIB2(dropCommands(script, ":named exp_mono!")), "sat");
  // The proof object, when Z3 gives one, sits next to the certificate.
  std::optional<std::string> proof = smt::proveUnsatWithProof(script);
  ASSERT_TRUE(proof.has_value());
  EXPECT_FALSE(proof->empty());
  ASSERT_EQ(writer.getFiles().size(), 2u);
  EXPECT_EQ(llvm::sys::path::filename(writer.getFiles()[1]),
            "001-monotone.proof");
  std::string text = readFile(writer.getFiles()[1]);
  EXPECT_NE(text.find("; Z3 proof object of 001-monotone.smt2"),
            std::string::npos);
  // A satisfiable script has no proof.
  EXPECT_FALSE(smt::proveUnsatWithProof(dropCommands(script, ":named exp_mono!"))
                   .has_value());
  EXPECT_FALSE(smt::proveUnsatWithProof("(assert (").has_value());
}

/// a / b * b == a holds only where b != 0: the divisor fact carries it.
TEST(Certificate, DivisorNonZeroFact) {
  Fixture f;
  TermContext &T = f.T;
  Term a = T.add(f.x, T.exp(f.y)), b = T.sub(f.x, f.m);
  Term lhs = T.mul(T.div(a, b), b);
  ASSERT_TRUE(f.N.provesEqual(lhs, a));
  Term negated = T.notOf(T.eq(lhs, a));
  TempDir dir;
  CertificateWriter writer(dir.path.str().str(), T, f.N);
  ASSERT_TRUE(writer.write("value out[3]", negated, "normalizer"))
      << writer.getError();
  std::string script = readFile(writer.getFiles()[0]);
  EXPECT_NE(script.find("divisor_nonzero_k: a divisor of the goal is "
                        "non-zero; each is proved by its own obligation"),
            std::string::npos);
  EXPECT_NE(script.find(":named divisor_nonzero_0)"), std::string::npos);
  EXPECT_EQ(smt::solveSMTLIB2(script), "unsat") << script;
  // SMT division is total: without the fact, b = 0 is a model.
  EXPECT_EQ(smt::solveSMTLIB2(dropCommands(script, ":named divisor_nonzero_")),
            "sat");
}

/// exp(max(a, b)) needs its branch fact and the split of each arm.
TEST(Certificate, BranchFacts) {
  Fixture f;
  TermContext &T = f.T;
  Term mx = T.max(f.x, f.y);
  // exp(max(x, y) - m) >= min(exp(x - m), exp(y - m)): z3 with the facts.
  Term lhs = T.exp(T.sub(mx, f.m));
  Term negated = T.andOf(T.realLt(lhs, T.exp(T.sub(f.x, f.m))),
                         T.realLt(lhs, T.exp(T.sub(f.y, f.m))));
  TempDir dir;
  CertificateWriter writer(dir.path.str().str(), T, f.N);
  ASSERT_TRUE(writer.write("branch", negated, "z3 (unsat)"))
      << writer.getError();
  std::string script = readFile(writer.getFiles()[0]);
  EXPECT_NE(script.find(":named exp_branch_0)"), std::string::npos);
  EXPECT_EQ(smt::solveSMTLIB2(script), "unsat") << script;
}

/// Bit-vectors and selects lower as in Z3Lowering.
TEST(Certificate, BitVectorsAndSelects) {
  Fixture f;
  TermContext &T = f.T;
  Term i = T.bvVar("i", 64);
  Term e = T.element("x", i);
  // i < 2, x[i] at a symbolic index, exp(x[i]) <= 0: unsat by exp_pos.
  Term negated = T.andOf(T.bvUlt(i, T.bv(2, 64)),
                         T.realLe(T.exp(e), T.real(0)));
  TempDir dir;
  CertificateWriter writer(dir.path.str().str(), T, f.N);
  ASSERT_TRUE(writer.write("bv", negated, "z3 (unsat)")) << writer.getError();
  std::string script = readFile(writer.getFiles()[0]);
  EXPECT_NE(script.find("(_ BitVec 64)"), std::string::npos) << script;
  EXPECT_EQ(smt::solveSMTLIB2(script), "unsat") << script;
  EXPECT_EQ(smt::solveSMTLIB2(dropCommands(script, ":named exp_pos!")), "sat");
}

/// Errors: an unwritable directory, a goal that is not Bool.
TEST(Certificate, Errors) {
  Fixture f;
  TermContext &T = f.T;
  TempDir dir;
  // A regular file where the directory should be.
  llvm::SmallString<128> file(dir.path);
  llvm::sys::path::append(file, "not-a-dir");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    ASSERT_FALSE(ec);
    os << "x";
  }
  llvm::SmallString<128> below(file);
  llvm::sys::path::append(below, "certs");
  CertificateWriter writer(below.str().str(), T, f.N);
  EXPECT_FALSE(writer.write("o", T.boolConst(false), "normalizer"));
  EXPECT_NE(writer.getError().find("cannot create directory"),
            std::string::npos)
      << writer.getError();
  EXPECT_TRUE(writer.getFiles().empty());

  // A read-only directory (skipped as root, who may write anyway).
  llvm::SmallString<128> ro(dir.path);
  llvm::sys::path::append(ro, "ro");
  ASSERT_FALSE(llvm::sys::fs::create_directory(ro));
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      ro, llvm::sys::fs::perms(llvm::sys::fs::owner_read |
                               llvm::sys::fs::owner_exe)));
  CertificateWriter readOnly(ro.str().str(), T, f.N);
  bool wrote = readOnly.write("o", T.boolConst(false), "normalizer");
  if (::geteuid() != 0) {
    EXPECT_FALSE(wrote);
    EXPECT_NE(readOnly.getError().find("cannot write"), std::string::npos)
        << readOnly.getError();
  }
  llvm::sys::fs::setPermissions(ro, llvm::sys::fs::all_all);

  // Not a Bool term.
  CertificateWriter ok(dir.path.str().str(), T, f.N);
  EXPECT_FALSE(ok.write("o", f.x, "normalizer"));
  EXPECT_FALSE(ok.getError().empty());
}

} // namespace
