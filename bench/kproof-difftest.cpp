//===- kproof-difftest.cpp - engine vs interpreter, instruction by instruction ===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The differential harness of the two semantics kproof has for one PTX
// instruction: the symbolic executor's term
// (execOp, lib/Verifier/Exec/*Ops.cpp) and the CPU interpreter's concrete
// execution (lib/Interpreter). A wrong term can hide a bug as easily as
// invent one, so the two must agree exactly.
//
//   kproof-difftest [--seed=S] [--count=N] [--samples=K] [--keep=DIR] [-v]
//
// For each of N programs (program i uses seed S + i) it generates a random
// PTX kernel of its own (straight-line code, forward branches, if/else,
// predicated instructions, counted loops; over the f32, f64, b16, b32, b64
// and predicate instructions the importer models, with their modifiers),
// launched as one CTA of 1 to 4 threads: thread t loads x[8t .. 8t+7] (f32)
// and xi[8t .. 8t+7] (i32), computes, and stores y[8t .. 8t+7] and
// yi[8t .. 8t+7]. The executor runs it once for the representative thread;
// then for K random inputs, and every thread t:
//   - the engine's side: the path whose condition holds at the input (and
//     tid.x = t), and the value terms of its stores evaluated at the input
//     with the true functions (Evaluate.h: MPFR intervals, exact
//     bit-vectors);
//   - the interpreter's side: a run in exact mode (reals at 256 bits, the
//     proof engine's model) on the same inputs;
//   - compared exactly: the same elements written; integers bit for bit; a
//     real's exact-mode value inside the engine's enclosure (widened by
//     2^-180 relative, the interpreter's rounding at 256 bits).
// An input at which an obligation of the engine fails (a divisor that is
// zero, sqrt of a negative) or the interpreter reports an event is skipped:
// neither semantics defines a value there. So is one where the enclosure
// cannot decide a branch (an Unknown comparison).
//
// Prints a summary (programs, samples compared, skipped by cause, the
// executor's UNKNOWN reasons, instructions covered) and, for every
// disagreement, the program's seed, the element and both values; with
// --keep=DIR, the PTX, the contract and the inputs (kproof-run's JSON) of
// each disagreement go to DIR/diff-<seed>.{ptx,mlir,json}, to reproduce with
// `kproof-run --mode=exact`. Exit status: 0 when the two agree everywhere, 1
// on a disagreement (or a generated program that does not import: a bug of
// the generator), 2 on a usage error. Deterministic: the same seed gives the
// same programs and inputs on every machine (no std:: distributions).
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Dialect/KProofOps.h"
#include "KProof/Import/PTX/PTXImporter.h"
#include "KProof/Interpreter/Harness.h"
#include "KProof/Interpreter/Interpreter.h"
#include "KProof/Verifier/Exec/Executor.h"
#include "KProof/Verifier/Specs/Contract.h"
#include "KProof/Verifier/Terms/Evaluate.h"
#include "KProof/Verifier/Terms/Normalizer.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mpfr.h>

#include <cinttypes>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace mlir;
namespace engine = ::kproof::engine;
namespace interp = ::kproof::interp;
using ::kproof::Rational;

namespace {

llvm::cl::opt<uint64_t> seedOpt("seed", llvm::cl::desc("First program's seed"),
                                llvm::cl::init(1));
llvm::cl::opt<unsigned> countOpt("count",
                                 llvm::cl::desc("Programs to generate"),
                                 llvm::cl::init(200));
llvm::cl::opt<unsigned> samplesOpt("samples",
                                   llvm::cl::desc("Random inputs per program"),
                                   llvm::cl::init(4));
llvm::cl::opt<unsigned> lengthOpt(
    "length", llvm::cl::desc("Instructions per program (about)"),
    llvm::cl::init(24));
llvm::cl::opt<std::string>
    keepDir("keep", llvm::cl::desc("Write each disagreeing program, its "
                                   "contract and inputs to this directory"),
            llvm::cl::init(""));
llvm::cl::opt<bool> printProgram("print",
                                 llvm::cl::desc("Print every program's PTX"),
                                 llvm::cl::init(false));
llvm::cl::opt<bool> allOpt(
    "all", llvm::cl::desc("Also generate the instructions the executor does "
                          "not model yet (their programs end UNKNOWN, "
                          "tallied by opcode)"),
    llvm::cl::init(false));
llvm::cl::opt<bool> idiomOpt(
    "idiom",
    llvm::cl::desc("Also generate the ex2 idiom (mul by 0f3FB8AA3B, then "
                   "ex2.approx), whose reading differs by design in corner "
                   "cases (see the header)"),
    llvm::cl::init(false));
llvm::cl::opt<bool> verbose("v", llvm::cl::desc("Per-instruction coverage"),
                            llvm::cl::init(false));

constexpr unsigned kPerThread = 8; ///< elements per thread in each buffer

/// splitmix64: a deterministic generator whose output does not depend on
/// the standard library.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T> const T &pick(const std::vector<T> &v) {
    return v[below(v.size())];
  }
};

std::string hexF32(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  char buf[16];
  snprintf(buf, sizeof(buf), "0f%08X", b);
  return buf;
}

std::string hexF64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  char buf[24];
  snprintf(buf, sizeof(buf), "0d%016" PRIX64, b);
  return buf;
}

/// A float value with a short exact binary expansion (so exact-mode
/// arithmetic stays small): small integers, halves, quarters, a few larger
/// magnitudes.
double niceFloat(Rng &r) {
  static const std::vector<double> fixed = {0,    1,     -1,  0.5,  2,
                                            -2,   3,     0.25, -0.75, 1.5,
                                            100,  -7,    0.125, 10, -1024};
  if (r.chance(50))
    return r.pick(fixed);
  // k / 2^s, k in [-4096, 4096], s in [0, 10]
  int64_t k = int64_t(r.below(8193)) - 4096;
  return double(k) / double(1u << r.below(11));
}

uint32_t niceInt(Rng &r) {
  switch (r.below(7)) {
  case 0:
    return uint32_t(r.below(64));
  case 1:
    return uint32_t(-int32_t(r.below(64)));
  case 2:
    return uint32_t(1) << r.below(32);
  case 3:
    return r.chance(50) ? 0x7fffffffu : 0x80000000u;
  case 4:
    return 0xffffffffu;
  default:
    return uint32_t(r.next());
  }
}

/// Templates the executor does not model yet (it answers UNKNOWN for
/// them; `--all` generates them anyway and tallies them). Matched by
/// prefix of the template name.
const char *const kNotModeled[] = {
    "cvt.rni", "cvt.rzi", "cvt.rmi", "cvt.rpi", // float -> integral value
    "sad.",    "bfind.", // imported as unmodeled instructions
};

bool isNotModeled(llvm::StringRef name) {
  for (const char *p : kNotModeled)
    if (name.starts_with(p))
      return true;
  return false;
}

/// The random program generator. Registers are typed pools; every
/// instruction defines a fresh register (straight-line code) or, inside a
/// branch, loop or under a guard, redefines an existing one (so the paths
/// join with different values).
class Generator {
public:
  Generator(uint64_t seed, unsigned length) : r(seed), length(length) {}

  /// The kernel's PTX and its thread count.
  std::string generate(unsigned &threads);
  /// The instruction templates used (for coverage).
  std::set<std::string> used;

private:
  enum Pool { F32, F64, B16, B32, B64, Pred, NumPools };
  static constexpr const char *prefix[NumPools] = {"%f", "%fd", "%rs",
                                                    "%r", "%rd", "%p"};
  Rng r;
  unsigned length;
  unsigned next[NumPools] = {};
  std::vector<unsigned> live[NumPools];
  std::string body;
  unsigned labels = 0;
  /// Inside a branch or loop: redefine existing registers.
  unsigned depth = 0;

  std::string reg(Pool p, unsigned n) {
    return std::string(prefix[p]) + std::to_string(n);
  }
  /// A new register; it becomes usable after the instruction that
  /// defines it (commit), so `op %r9, %r9` never reads it undefined (the
  /// operands of `+` are evaluated in no fixed order).
  std::string fresh(Pool p) {
    unsigned n = ++next[p];
    pending.push_back({p, n});
    return reg(p, n);
  }
  std::vector<std::pair<Pool, unsigned>> pending;
  void commit() {
    for (auto [p, n] : pending)
      live[p].push_back(n);
    pending.clear();
  }
  /// A register no other instruction may pick (a loop counter).
  std::string reserved(Pool p) { return reg(p, ++next[p]); }
  /// An existing register of `p` (there always is one after the prologue).
  std::string use(Pool p) {
    // Prefer recent registers: deeper dependence chains.
    const std::vector<unsigned> &l = live[p];
    unsigned k = l.size() > 4 && r.chance(60)
                     ? unsigned(l.size() - 1 - r.below(4))
                     : unsigned(r.below(l.size()));
    return reg(p, l[k]);
  }
  /// The destination of a new instruction: fresh in straight-line code,
  /// else (often) an existing register.
  std::string dest(Pool p) {
    if (depth && r.chance(70))
      return use(p);
    return fresh(p);
  }
  /// Emits `text` (instruction template `name`). A template the executor
  /// does not model (kNotModeled; unless --all) becomes a copy of another
  /// register of the destination's pool, so the rest of the program (and
  /// the random stream) stays the same.
  void emit(const std::string &name, const std::string &text) {
    if (!allOpt && isNotModeled(name)) {
      llvm::StringRef d = llvm::StringRef(text).split(' ').second;
      d = d.split(',').first.trim();
      std::string copy;
      if (d.starts_with("%fd"))
        copy = "mov.f64 " + d.str() + ", " + use(F64);
      else if (d.starts_with("%f"))
        copy = "mov.f32 " + d.str() + ", " + use(F32);
      else if (d.starts_with("%rs"))
        copy = "mov.b16 " + d.str() + ", " + use(B16);
      else if (d.starts_with("%rd"))
        copy = "mov.b64 " + d.str() + ", " + use(B64);
      else if (d.starts_with("%r"))
        copy = "mov.b32 " + d.str() + ", " + use(B32);
      else if (d.starts_with("%p"))
        copy = "not.pred " + d.str() + ", " + use(Pred);
      if (!copy.empty()) {
        body += "  " + copy + ";\n";
        commit();
        return;
      }
    }
    used.insert(name);
    body += "  " + text + ";\n";
    commit();
  }
  std::string f32Operand() {
    if (r.chance(15))
      return hexF32(float(niceFloat(r)));
    return use(F32);
  }
  /// `a` clamped to [-64, 64] (min.f32, max.f32): the argument of a
  /// transcendental. Exact mode computes ex2 or sin of a value with a huge
  /// exponent (ex2 of ex2 of ...) by MPFR argument reduction at that many
  /// bits, which takes minutes.
  std::string bounded(const std::string &a) {
    std::string lo = fresh(F32);
    emit("min.f32", "min.f32 " + lo + ", " + a + ", 0f42800000");
    std::string hi = fresh(F32);
    emit("max.f32", "max.f32 " + hi + ", " + lo + ", 0fC2800000");
    return hi;
  }
  std::string b32Operand() {
    if (r.chance(15))
      return std::to_string(r.below(100));
    return use(B32);
  }

  void instruction();
  void floatOp();
  void doubleOp();
  void intOp();
  void wideOp();
  void shortOp();
  void predOp();
  void conversion();
  /// Registers defined inside a region that may not run (a skipped
  /// block, one arm of an if/else) are not used after it: reading an
  /// undefined register is any value to the executor.
  struct Scope {
    Generator &g;
    size_t sizes[NumPools];
    explicit Scope(Generator &g) : g(g) {
      for (unsigned p = 0; p < NumPools; ++p)
        sizes[p] = g.live[p].size();
    }
    void restore() {
      for (unsigned p = 0; p < NumPools; ++p)
        g.live[p].resize(sizes[p]);
    }
    ~Scope() { restore(); }
  };
  void branch();
  void ifElse();
  void loop();
  void guarded();
};

void Generator::floatOp() {
  static const std::vector<std::string> rnd = {"", ".rn", ".rz", ".rm", ".rp"};
  auto mods = [&](bool sat) {
    std::string m = r.pick(rnd);
    if (m.empty() && r.chance(50))
      m = ".rn";
    if (r.chance(25))
      m += ".ftz";
    if (sat && r.chance(20))
      m += ".sat";
    return m;
  };
  std::string a = use(F32), b = f32Operand(), c = f32Operand();
  switch (r.below(22)) {
  case 0:
  case 1: {
    static const std::vector<std::string> ops = {"add", "sub", "mul"};
    const std::string &op = r.pick(ops);
    std::string m = mods(true);
    emit(op + ".f32", op + m + ".f32 " + dest(F32) + ", " + a + ", " + b);
    break;
  }
  case 2: {
    std::string m = r.pick(std::vector<std::string>{".rn", ".rz", ".rm", ".rp"});
    if (r.chance(25))
      m += ".ftz";
    if (r.chance(20))
      m += ".sat";
    emit("fma.f32", "fma" + m + ".f32 " + dest(F32) + ", " + a + ", " + b +
                        ", " + c);
    break;
  }
  case 3:
    emit("mad.f32", "mad.rn.f32 " + dest(F32) + ", " + a + ", " + b + ", " + c);
    break;
  case 4: {
    static const std::vector<std::string> m = {".rn", ".approx", ".full",
                                               ".rn.ftz", ".approx.ftz"};
    std::string mm = r.pick(m);
    emit("div" + mm + ".f32",
         "div" + mm + ".f32 " + dest(F32) + ", " + a + ", " + use(F32));
    break;
  }
  case 5: {
    std::string m = r.chance(50) ? ".rn" : ".approx";
    emit("rcp" + m + ".f32", "rcp" + m + ".f32 " + dest(F32) + ", " + a);
    break;
  }
  case 6: {
    // sqrt/rsqrt of |a| (and sometimes of a itself: the domain obligation).
    std::string arg = a;
    if (r.chance(80)) {
      arg = fresh(F32);
      emit("abs.f32", "abs.f32 " + arg + ", " + a);
    }
    static const std::vector<std::string> ops = {"sqrt.rn", "sqrt.approx",
                                                 "rsqrt.approx"};
    const std::string &op = r.pick(ops);
    emit(op + ".f32", op + ".f32 " + dest(F32) + ", " + arg);
    break;
  }
  case 7: {
    std::string m = r.chance(30) ? ".ftz" : "";
    std::string arg = bounded(a);
    emit("ex2.approx.f32", "ex2.approx" + m + ".f32 " + dest(F32) + ", " + arg);
    break;
  }
  case 8: {
    // The exp idiom: ex2(log2(e) * x), as __expf compiles (--idiom only:
    // the header says why).
    std::string arg = bounded(a);
    if (!idiomOpt) {
      emit("ex2.approx.f32", "ex2.approx.f32 " + dest(F32) + ", " + arg);
      break;
    }
    std::string t = fresh(F32);
    emit("mul.f32", "mul.f32 " + t + ", " + arg + ", 0f3FB8AA3B");
    emit("ex2.approx.f32", "ex2.approx.ftz.f32 " + dest(F32) + ", " + t);
    break;
  }
  case 9: {
    std::string arg = a;
    if (r.chance(85)) {
      std::string t = fresh(F32);
      emit("abs.f32", "abs.f32 " + t + ", " + a);
      arg = fresh(F32);
      emit("add.f32", "add.f32 " + arg + ", " + t + ", 0f3F800000");
    }
    emit("lg2.approx.f32", "lg2.approx.f32 " + dest(F32) + ", " + arg);
    break;
  }
  case 10: {
    static const std::vector<std::string> ops = {"sin.approx", "cos.approx",
                                                 "tanh.approx"};
    const std::string &op = r.pick(ops);
    std::string arg = bounded(a);
    emit(op + ".f32", op + ".f32 " + dest(F32) + ", " + arg);
    break;
  }
  case 11: {
    static const std::vector<std::string> ops = {"neg", "abs"};
    const std::string &op = r.pick(ops);
    std::string m = r.chance(25) ? ".ftz" : "";
    emit(op + ".f32", op + m + ".f32 " + dest(F32) + ", " + a);
    break;
  }
  case 12:
  case 13: {
    static const std::vector<std::string> ops = {"min", "max"};
    const std::string &op = r.pick(ops);
    std::string m = r.chance(20) ? ".ftz" : "";
    emit(op + ".f32", op + m + ".f32 " + dest(F32) + ", " + a + ", " + b);
    break;
  }
  case 14:
    emit("copysign.f32",
         "copysign.f32 " + dest(F32) + ", " + a + ", " + use(F32));
    break;
  case 15: {
    static const std::vector<std::string> ops = {"rni", "rzi", "rmi", "rpi"};
    const std::string &op = r.pick(ops);
    emit("cvt." + op + ".f32.f32",
         "cvt." + op + ".f32.f32 " + dest(F32) + ", " + a);
    break;
  }
  case 16:
    emit("mov.f32", "mov.f32 " + dest(F32) + ", " + hexF32(float(niceFloat(r))));
    break;
  case 17:
    emit("selp.f32", "selp.f32 " + dest(F32) + ", " + a + ", " + b + ", " +
                         use(Pred));
    break;
  case 18:
    emit("mov.f32", "mov.f32 " + dest(F32) + ", " + a);
    break;
  default:
    conversion();
    break;
  }
}

void Generator::doubleOp() {
  std::string a = use(F64), b = use(F64);
  switch (r.below(9)) {
  case 0:
  case 1: {
    static const std::vector<std::string> ops = {"add", "sub", "mul"};
    const std::string &op = r.pick(ops);
    static const std::vector<std::string> rnd = {"", ".rn", ".rz", ".rm", ".rp"};
    std::string m = r.pick(rnd);
    emit(op + ".f64", op + m + ".f64 " + dest(F64) + ", " + a + ", " + b);
    break;
  }
  case 2:
    emit("fma.f64", "fma.rn.f64 " + dest(F64) + ", " + a + ", " + b + ", " +
                        use(F64));
    break;
  case 3:
    emit("div.rn.f64", "div.rn.f64 " + dest(F64) + ", " + a + ", " + b);
    break;
  case 4: {
    std::string t = fresh(F64);
    emit("abs.f64", "abs.f64 " + t + ", " + a);
    emit("sqrt.rn.f64", "sqrt.rn.f64 " + dest(F64) + ", " + t);
    break;
  }
  case 5: {
    static const std::vector<std::string> ops = {"neg", "abs"};
    const std::string &op = r.pick(ops);
    emit(op + ".f64", op + ".f64 " + dest(F64) + ", " + a);
    break;
  }
  case 6: {
    static const std::vector<std::string> ops = {"min", "max"};
    const std::string &op = r.pick(ops);
    emit(op + ".f64", op + ".f64 " + dest(F64) + ", " + a + ", " + b);
    break;
  }
  case 7:
    emit("mov.f64", "mov.f64 " + dest(F64) + ", " + hexF64(niceFloat(r)));
    break;
  default:
    emit("rcp.rn.f64", "rcp.rn.f64 " + dest(F64) + ", " + a);
    break;
  }
}

void Generator::intOp() {
  std::string a = use(B32), b = b32Operand(), c = b32Operand();
  static const std::vector<std::string> su = {".s32", ".u32"};
  switch (r.below(26)) {
  case 0:
  case 1: {
    static const std::vector<std::string> ops = {"add", "sub"};
    const std::string &op = r.pick(ops);
    emit(op + ".s32", op + r.pick(su) + " " + dest(B32) + ", " + a + ", " + b);
    break;
  }
  case 2:
    emit("add.sat.s32", "add.sat.s32 " + dest(B32) + ", " + a + ", " + b);
    break;
  case 3: {
    static const std::vector<std::string> m = {"lo", "hi"};
    const std::string &mm = r.pick(m);
    emit("mul." + mm + ".s32",
         "mul." + mm + r.pick(su) + " " + dest(B32) + ", " + a + ", " + b);
    break;
  }
  case 4: {
    static const std::vector<std::string> m = {"lo", "hi"};
    const std::string &mm = r.pick(m);
    emit("mad." + mm + ".s32", "mad." + mm + r.pick(su) + " " + dest(B32) +
                                   ", " + a + ", " + b + ", " + c);
    break;
  }
  case 5: {
    // Division by a value made nonzero (PTX leaves x / 0 unspecified).
    std::string d = fresh(B32);
    emit("or.b32", "or.b32 " + d + ", " + use(B32) + ", 1");
    static const std::vector<std::string> ops = {"div", "rem"};
    const std::string &op = r.pick(ops);
    emit(op + ".s32", op + r.pick(su) + " " + dest(B32) + ", " + a + ", " + d);
    break;
  }
  case 6:
  case 7: {
    static const std::vector<std::string> ops = {"and", "or", "xor"};
    const std::string &op = r.pick(ops);
    emit(op + ".b32", op + ".b32 " + dest(B32) + ", " + a + ", " + b);
    break;
  }
  case 8: {
    static const std::vector<std::string> ops = {"not.b32", "cnot.b32",
                                                 "popc.b32", "clz.b32",
                                                 "brev.b32"};
    const std::string &op = r.pick(ops);
    emit(op, op + " " + dest(B32) + ", " + a);
    break;
  }
  case 9:
  case 10: {
    static const std::vector<std::string> ops = {"shl.b32", "shr.u32",
                                                 "shr.s32"};
    const std::string &op = r.pick(ops);
    std::string amt = r.chance(50) ? std::to_string(r.below(34))
                                   : use(B32);
    emit(op, op + " " + dest(B32) + ", " + a + ", " + amt);
    break;
  }
  case 11: {
    std::string op = r.chance(50) ? "bfe.u32" : "bfe.s32";
    std::string pos = r.chance(60) ? std::to_string(r.below(33)) : use(B32);
    std::string len = r.chance(60) ? std::to_string(r.below(33)) : use(B32);
    emit(op, op + " " + dest(B32) + ", " + a + ", " + pos + ", " + len);
    break;
  }
  case 12: {
    bool regs = r.chance(40);
    std::string pos = regs ? use(B32) : std::to_string(r.below(33));
    std::string len = regs ? use(B32) : std::to_string(r.below(33));
    emit(regs ? "bfi.b32 (register position)" : "bfi.b32", "bfi.b32 " + dest(B32) + ", " + a + ", " + use(B32) +
                        ", " + pos + ", " + len);
    break;
  }
  case 13: {
    static const std::vector<std::string> modes = {"",     ".f4e", ".b4e",
                                                   ".rc8", ".ecl", ".ecr",
                                                   ".rc16"};
    const std::string &m = r.pick(modes);
    uint64_t k = m.empty() ? r.below(0x10000) : r.below(4);
    std::string sel = std::to_string(k), name = "prmt.b32" + m;
    if (r.chance(20)) {
      sel = use(B32);
      name += " (register selector)";
    } else if (m.empty() && (k & 0x8888)) {
      name += " (sign replication)";
    }
    emit(name, "prmt.b32" + m + " " + dest(B32) + ", " + a + ", " +
                             use(B32) + ", " + sel);
    break;
  }
  case 14:
    emit("lop3.b32", "lop3.b32 " + dest(B32) + ", " + a + ", " + use(B32) +
                         ", " + use(B32) + ", " + std::to_string(r.below(256)));
    break;
  case 15: {
    std::string dir = r.chance(50) ? ".l" : ".r";
    std::string mode = r.chance(50) ? ".wrap" : ".clamp";
    std::string amt = r.chance(50) ? std::to_string(r.below(40)) : use(B32);
    emit("shf" + dir + mode + ".b32", "shf" + dir + mode + ".b32 " +
                                          dest(B32) + ", " + a + ", " +
                                          use(B32) + ", " + amt);
    break;
  }
  case 16: {
    std::string op = r.chance(50) ? "bfind.u32" : "bfind.s32";
    if (r.chance(30))
      op = op.substr(0, 5) + ".shiftamt" + op.substr(5);
    emit(op, op + " " + dest(B32) + ", " + a);
    break;
  }
  case 17: {
    static const std::vector<std::string> ops = {"min", "max"};
    const std::string &op = r.pick(ops);
    emit(op + ".s32", op + r.pick(su) + " " + dest(B32) + ", " + a + ", " + b);
    break;
  }
  case 18: {
    static const std::vector<std::string> ops = {"abs.s32", "neg.s32"};
    const std::string &op = r.pick(ops);
    emit(op, op + " " + dest(B32) + ", " + a);
    break;
  }
  case 19:
    emit("selp.b32", "selp.b32 " + dest(B32) + ", " + a + ", " + b + ", " +
                         use(Pred));
    break;
  case 20:
    emit("mov.b32", "mov.b32 " + dest(B32) + ", " +
                        std::to_string(niceInt(r)));
    break;
  case 21:
    emit("sad.u32", "sad" + r.pick(su) + " " + dest(B32) + ", " + a + ", " +
                        b + ", " + c);
    break;
  case 22:
    emit("mul24.lo.u32", "mul24.lo" + r.pick(su) + " " + dest(B32) + ", " +
                             a + ", " + b);
    break;
  default:
    conversion();
    break;
  }
}

void Generator::wideOp() {
  std::string a = use(B64), b = use(B64);
  switch (r.below(9)) {
  case 0:
  case 1: {
    static const std::vector<std::string> ops = {"add.s64", "sub.s64",
                                                 "mul.lo.s64", "and.b64",
                                                 "or.b64", "xor.b64"};
    const std::string &op = r.pick(ops);
    emit(op, op + " " + dest(B64) + ", " + a + ", " + b);
    break;
  }
  case 2: {
    static const std::vector<std::string> ops = {"shl.b64", "shr.u64",
                                                 "shr.s64"};
    const std::string &op = r.pick(ops);
    std::string amt = r.chance(50) ? std::to_string(r.below(66)) : use(B32);
    emit(op, op + " " + dest(B64) + ", " + a + ", " + amt);
    break;
  }
  case 3: {
    std::string op = r.chance(50) ? "mul.wide.s32" : "mul.wide.u32";
    emit(op, op + " " + dest(B64) + ", " + use(B32) + ", " + use(B32));
    break;
  }
  case 4: {
    std::string lo = dest(B32), hi = dest(B32);
    if (hi == lo)
      hi = fresh(B32);
    emit("mov.b64 {lo,hi}", "mov.b64 {" + lo + ", " + hi + "}, " + a);
    break;
  }
  case 5:
    emit("mov.b64 pack", "mov.b64 " + dest(B64) + ", {" + use(B32) + ", " +
                             use(B32) + "}");
    break;
  case 6: {
    std::string op = r.chance(50) ? "mad.wide.s32" : "mad.wide.u32";
    emit(op, op + " " + dest(B64) + ", " + use(B32) + ", " + use(B32) + ", " +
                 a);
    break;
  }
  case 7: {
    std::string op = r.chance(50) ? "mul.hi.u64" : "mul.hi.s64";
    emit(op, op + " " + dest(B64) + ", " + a + ", " + b);
    break;
  }
  default: {
    std::string op = r.chance(50) ? "min.s64" : "max.u64";
    emit(op, op + " " + dest(B64) + ", " + a + ", " + b);
    break;
  }
  }
}

void Generator::shortOp() {
  std::string a = use(B16), b = use(B16);
  switch (r.below(4)) {
  case 0: {
    static const std::vector<std::string> ops = {"add.u16", "sub.s16",
                                                 "mul.lo.u16", "and.b16",
                                                 "xor.b16", "max.s16"};
    const std::string &op = r.pick(ops);
    emit(op, op + " " + dest(B16) + ", " + a + ", " + b);
    break;
  }
  case 1: {
    static const std::vector<std::string> ops = {"shl.b16", "shr.u16",
                                                 "shr.s16"};
    const std::string &op = r.pick(ops);
    emit(op, op + " " + dest(B16) + ", " + a + ", " +
                 std::to_string(r.below(18)));
    break;
  }
  case 2:
    emit("mul.wide.u16", std::string(r.chance(50) ? "mul.wide.u16 "
                                                  : "mul.wide.s16 ") +
                             dest(B32) + ", " + a + ", " + b);
    break;
  default:
    emit("selp.b16", "selp.b16 " + dest(B16) + ", " + a + ", " + b + ", " +
                         use(Pred));
    break;
  }
}

void Generator::predOp() {
  static const std::vector<std::string> icmp = {"eq", "ne", "lt", "le",
                                                "gt", "ge"};
  static const std::vector<std::string> ucmp = {"eq", "ne", "lo", "ls",
                                                "hi", "hs"};
  static const std::vector<std::string> fcmp = {
      "eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
      "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  static const std::vector<std::string> comb = {".and", ".or", ".xor"};
  switch (r.below(8)) {
  case 0:
  case 1: {
    std::string c = r.pick(fcmp);
    std::string m = r.chance(20) ? ".ftz" : "";
    if (r.chance(20)) {
      std::string k = r.pick(comb);
      emit("setp" + k + ".f32", "setp." + c + k + m + ".f32 " + dest(Pred) +
                                    ", " + use(F32) + ", " + f32Operand() +
                                    ", " + use(Pred));
    } else {
      emit("setp." + c + ".f32", "setp." + c + m + ".f32 " + dest(Pred) +
                                     ", " + use(F32) + ", " + f32Operand());
    }
    break;
  }
  case 2: {
    std::string c = r.pick(icmp);
    emit("setp." + c + ".s32", "setp." + c + ".s32 " + dest(Pred) + ", " +
                                   use(B32) + ", " + b32Operand());
    break;
  }
  case 3: {
    std::string c = r.pick(ucmp);
    emit("setp." + c + ".u32", "setp." + c + ".u32 " + dest(Pred) + ", " +
                                   use(B32) + ", " + b32Operand());
    break;
  }
  case 4: {
    std::string c = r.pick(icmp);
    emit("setp." + c + ".s64", "setp." + c + ".s64 " + dest(Pred) + ", " +
                                   use(B64) + ", " + use(B64));
    break;
  }
  case 5: {
    static const std::vector<std::string> ops = {"and.pred", "or.pred",
                                                 "xor.pred"};
    const std::string &op = r.pick(ops);
    emit(op, op + " " + dest(Pred) + ", " + use(Pred) + ", " + use(Pred));
    break;
  }
  case 6:
    emit("not.pred", "not.pred " + dest(Pred) + ", " + use(Pred));
    break;
  default: {
    static const std::vector<std::string> ops = {"finite", "infinite",
                                                 "number", "notanumber",
                                                 "normal", "subnormal"};
    const std::string &op = r.pick(ops);
    emit("testp." + op + ".f32",
         "testp." + op + ".f32 " + dest(Pred) + ", " + use(F32));
    break;
  }
  }
}

void Generator::conversion() {
  switch (r.below(14)) {
  case 0: {
    static const std::vector<std::string> ops = {"rzi", "rni", "rmi", "rpi"};
    std::string t = r.chance(50) ? ".s32" : ".u32";
    const std::string &op = r.pick(ops);
    emit("cvt." + op + t + ".f32",
         "cvt." + op + t + ".f32 " + dest(B32) + ", " + use(F32));
    break;
  }
  case 1: {
    std::string t = r.chance(50) ? ".s32" : ".u32";
    std::string m = r.pick(std::vector<std::string>{".rn", ".rz", ".rm", ".rp"});
    emit("cvt" + m + ".f32" + t,
         "cvt" + m + ".f32" + t + " " + dest(F32) + ", " + use(B32));
    break;
  }
  case 2:
    emit("cvt.f64.f32", "cvt.f64.f32 " + dest(F64) + ", " + use(F32));
    break;
  case 3: {
    std::string m = r.pick(std::vector<std::string>{".rn", ".rz", ".rm", ".rp"});
    emit("cvt" + m + ".f32.f64",
         "cvt" + m + ".f32.f64 " + dest(F32) + ", " + use(F64));
    break;
  }
  case 4: {
    std::string t = r.chance(50) ? ".s64" : ".u64";
    std::string f = r.chance(50) ? ".s32" : ".u32";
    emit("cvt" + t + f, "cvt" + t + f + " " + dest(B64) + ", " + use(B32));
    break;
  }
  case 5: {
    std::string t = r.chance(50) ? ".u32" : ".s32";
    std::string f = r.chance(50) ? ".u64" : ".s64";
    emit("cvt" + t + f, "cvt" + t + f + " " + dest(B32) + ", " + use(B64));
    break;
  }
  case 6: {
    std::string t = r.chance(50) ? ".u16" : ".s16";
    std::string f = r.chance(50) ? ".u32" : ".s32";
    std::string sat = r.chance(25) ? ".sat" : "";
    emit("cvt" + sat + t + f,
         "cvt" + sat + t + f + " " + dest(B16) + ", " + use(B32));
    break;
  }
  case 7: {
    std::string t = r.chance(50) ? ".u32" : ".s32";
    std::string f = r.pick(std::vector<std::string>{".u16", ".s16", ".u8",
                                                    ".s8"});
    emit("cvt" + t + f, "cvt" + t + f + " " + dest(B32) + ", " + use(B16));
    break;
  }
  case 8: {
    std::string t = r.chance(50) ? ".s32" : ".u32";
    std::string f = r.pick(std::vector<std::string>{".s8", ".u8", ".s16",
                                                    ".u16"});
    emit("cvt" + t + f + " (b32)", "cvt" + t + f + " " + dest(B32) + ", " +
                                       use(B32));
    break;
  }
  case 9: {
    std::string t = r.chance(50) ? ".s32" : ".u32";
    emit("cvt.rni" + t + ".f64",
         "cvt.rni" + t + ".f64 " + dest(B32) + ", " + use(F64));
    break;
  }
  case 10:
    emit("cvt.rn.f64.s32", "cvt.rn.f64.s32 " + dest(F64) + ", " + use(B32));
    break;
  case 11: {
    std::string t = r.chance(50) ? ".s64" : ".u64";
    emit("cvt.rzi" + t + ".f32",
         "cvt.rzi" + t + ".f32 " + dest(B64) + ", " + use(F32));
    break;
  }
  case 12:
    emit("cvt.rn.f32.s64", "cvt.rn.f32.s64 " + dest(F32) + ", " + use(B64));
    break;
  default:
    emit("cvt.sat.f32.f32", "cvt.sat.f32.f32 " + dest(F32) + ", " + use(F32));
    break;
  }
}

void Generator::branch() {
  // if (p) skip the block.
  std::string p = use(Pred);
  std::string neg = r.chance(30) ? "!" : "";
  std::string l = "$L_skip_" + std::to_string(++labels);
  used.insert("@p bra (forward)");
  body += "  @" + neg + p + " bra " + l + ";\n";
  ++depth;
  {
    Scope scope(*this);
    for (unsigned i = 0, n = 1 + r.below(4); i < n; ++i)
      instruction();
  }
  --depth;
  body += l + ":\n";
}

void Generator::ifElse() {
  std::string p = use(Pred);
  unsigned k = ++labels;
  std::string le = "$L_else_" + std::to_string(k),
              lj = "$L_join_" + std::to_string(k);
  used.insert("if/else");
  body += "  @" + p + " bra " + le + ";\n";
  ++depth;
  {
    Scope scope(*this);
    for (unsigned i = 0, n = 1 + r.below(3); i < n; ++i)
      instruction();
    scope.restore();
    body += "  bra.uni " + lj + ";\n" + le + ":\n";
    for (unsigned i = 0, n = 1 + r.below(3); i < n; ++i)
      instruction();
  }
  --depth;
  body += lj + ":\n";
}

void Generator::loop() {
  // A counted loop of 1..3 iterations over a fresh counter.
  unsigned k = ++labels;
  std::string c = reserved(B32), q = reserved(Pred);
  std::string l = "$L_loop_" + std::to_string(k);
  used.insert("counted loop");
  body += "  mov.u32 " + c + ", 0;\n" + l + ":\n";
  ++depth;
  for (unsigned i = 0, n = 1 + r.below(3); i < n; ++i)
    instruction();
  --depth;
  body += "  add.s32 " + c + ", " + c + ", 1;\n";
  body += "  setp.lt.u32 " + q + ", " + c + ", " +
          std::to_string(1 + r.below(3)) + ";\n";
  body += "  @" + q + " bra " + l + ";\n";
}

void Generator::guarded() {
  // A predicated instruction redefines an existing register.
  std::string p = use(Pred);
  std::string neg = r.chance(30) ? "!" : "";
  used.insert("@p instruction");
  if (r.chance(50)) {
    std::string d = use(F32);
    body += "  @" + neg + p + " add.f32 " + d + ", " + use(F32) + ", " +
            f32Operand() + ";\n";
  } else {
    std::string d = use(B32);
    body += "  @" + neg + p + " xor.b32 " + d + ", " + use(B32) + ", " +
            b32Operand() + ";\n";
  }
}

void Generator::instruction() {
  commit();
  unsigned k = unsigned(r.below(100));
  if (depth < 2 && k < 5)
    return branch();
  if (depth < 2 && k < 8)
    return ifElse();
  if (depth < 1 && k < 10)
    return loop();
  if (k < 14)
    return guarded();
  if (k < 44)
    return floatOp();
  if (k < 50)
    return doubleOp();
  if (k < 74)
    return intOp();
  if (k < 80)
    return wideOp();
  if (k < 84)
    return shortOp();
  return predOp();
}

std::string Generator::generate(unsigned &threads) {
  threads = 1 + unsigned(r.below(4));
  // Prologue: thread t's element offset 8t, the buffer addresses, and the
  // first registers of every pool from the inputs.
  std::string pro;
  pro += "  ld.param.u64 %rd1, [px];\n  ld.param.u64 %rd2, [pxi];\n";
  pro += "  ld.param.u64 %rd3, [py];\n  ld.param.u64 %rd4, [pyi];\n";
  pro += "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n";
  pro += "  cvta.to.global.u64 %rd3, %rd3;\n  cvta.to.global.u64 %rd4, %rd4;\n";
  pro += "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd5, %r1, 32;\n";
  pro += "  add.s64 %rd1, %rd1, %rd5;\n  add.s64 %rd2, %rd2, %rd5;\n";
  pro += "  add.s64 %rd3, %rd3, %rd5;\n  add.s64 %rd4, %rd4, %rd5;\n";
  next[B64] = 5;
  next[B32] = 1;
  live[B32].push_back(1); // tid.x
  for (unsigned k = 0; k < kPerThread; ++k) {
    std::string f = fresh(F32);
    pro += "  ld.global.f32 " + f + ", [%rd1+" + std::to_string(4 * k) + "];\n";
    std::string i = fresh(B32);
    pro += "  ld.global.u32 " + i + ", [%rd2+" + std::to_string(4 * k) + "];\n";
  }
  body = pro;
  commit();
  // The other pools start from the inputs too.
  for (unsigned k = 0; k < 2; ++k) {
    emit("cvt.f64.f32", "cvt.f64.f32 " + fresh(F64) + ", " + use(F32));
    emit("cvt.s64.s32", "cvt.s64.s32 " + fresh(B64) + ", " + use(B32));
    emit("cvt.u16.u32", "cvt.u16.u32 " + fresh(B16) + ", " + use(B32));
    emit("setp.lt.f32", "setp.lt.f32 " + fresh(Pred) + ", " + use(F32) +
                            ", " + use(F32));
  }
  for (unsigned i = 0; i < length; ++i)
    instruction();
  commit();
  // Epilogue: the last registers of every pool reach the outputs.
  std::vector<std::string> fl, il;
  auto last = [&](Pool p, unsigned n) {
    std::vector<std::string> v;
    for (unsigned k = 0; k < n && k < live[p].size(); ++k)
      v.push_back(reg(p, live[p][live[p].size() - 1 - k]));
    return v;
  };
  for (const std::string &f : last(F32, 5))
    fl.push_back(f);
  for (const std::string &d : last(F64, 2)) {
    std::string f = fresh(F32);
    body += "  cvt.rn.f32.f64 " + f + ", " + d + ";\n";
    fl.push_back(f);
  }
  for (const std::string &i : last(B32, 4))
    il.push_back(i);
  for (const std::string &w : last(B64, 2)) {
    std::string i = fresh(B32), j = fresh(B32);
    body += "  mov.b64 {" + i + ", " + j + "}, " + w + ";\n";
    body += "  xor.b32 " + i + ", " + i + ", " + j + ";\n";
    il.push_back(i);
  }
  for (const std::string &h : last(B16, 1)) {
    std::string i = fresh(B32);
    body += "  cvt.u32.u16 " + i + ", " + h + ";\n";
    il.push_back(i);
  }
  for (const std::string &p : last(Pred, 1)) {
    std::string i = fresh(B32);
    body += "  selp.u32 " + i + ", 1, 0, " + p + ";\n";
    il.push_back(i);
  }
  for (unsigned k = 0; k < fl.size() && k < kPerThread; ++k)
    body += "  st.global.f32 [%rd3+" + std::to_string(4 * k) + "], " + fl[k] +
            ";\n";
  for (unsigned k = 0; k < il.size() && k < kPerThread; ++k)
    body += "  st.global.u32 [%rd4+" + std::to_string(4 * k) + "], " + il[k] +
            ";\n";
  body += "  ret;\n";

  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n\n"
                     ".visible .entry diff(.param .u64 px, .param .u64 pxi, "
                     ".param .u64 py, .param .u64 pyi)\n{\n";
  auto decl = [&](const char *type, Pool p) {
    text += "  .reg " + std::string(type) + " " + prefix[p] + "<" +
            std::to_string(next[p] + 1) + ">;\n";
  };
  decl(".f32", F32);
  decl(".f64", F64);
  decl(".b16", B16);
  decl(".b32", B32);
  decl(".b64", B64);
  decl(".pred", Pred);
  return text + "\n" + body + "}\n";
}

std::string contractText(unsigned threads) {
  std::string n = std::to_string(threads * kPerThread);
  auto buf = [&](const char *name, const char *role, const char *type) {
    return std::string("{name = \"") + name + "\", buffer = \"" + role +
           "\", space = \"global\", type = " + type + ", shape = array<i64: " +
           n + ">}";
  };
  return "kproof.contract @diff_c {kernel = \"diff\",\n"
         "  grid = array<i64: 1, 1, 1>, block = array<i64: " +
         std::to_string(threads) + ", 1, 1>,\n  params = [" +
         buf("x", "in", "f32") + ",\n    " + buf("xi", "in", "i32") +
         ",\n    " + buf("y", "out", "f32") + ",\n    " +
         buf("yi", "out", "i32") +
         "],\n  spec = {builtin = \"copy\", input = \"x\", output = \"y\"}}\n";
}

std::string inputsJson(const interp::LaunchInputs &in) {
  std::string s = "{";
  bool first = true;
  for (auto &[name, vals] : in.buffers) {
    s += (first ? "\"" : ", \"") + name + "\": [";
    first = false;
    for (size_t i = 0; i < vals.size(); ++i)
      s += (i ? ", \"" : "\"") + vals[i].toString() + "\"";
    s += "]";
  }
  return s + "}\n";
}

/// Counters of the summary.
struct Stats {
  unsigned programs = 0, importErrors = 0, unknown = 0, compared = 0,
           elements = 0, disagreements = 0;
  std::map<std::string, unsigned> skipped;      ///< cause -> samples
  std::map<std::string, unsigned> unknownWhy;   ///< executor reason -> programs
  std::map<std::string, unsigned> interpErrors; ///< run error -> samples
  llvm::StringMap<unsigned> covered; ///< template -> programs compared
};

/// The first line of `s`, without the location suffix, for tallies.
std::string firstLine(llvm::StringRef s) {
  s = s.split('\n').first;
  return s.size() > 110 ? s.substr(0, 110).str() + "..." : s.str();
}

/// The interpreter's exact value of a float element, into `out`.
bool exactValue(const interp::OutputElement &e, mpfr_t out) {
  if (!e.exact)
    return false;
  mpfr_set(out, static_cast<mpfr_srcptr>(e.exact->raw()), MPFR_RNDN);
  return mpfr_number_p(out);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "kproof-difftest: the executor's terms against the interpreter's exact "
      "execution, over random PTX programs\n");

  DialectRegistry registry;
  registry.insert<kproof::KProofDialect, cf::ControlFlowDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);

  Stats st;
  for (unsigned prog = 0; prog < countOpt; ++prog) {
    uint64_t seed = seedOpt + prog;
    Generator gen(seed, lengthOpt);
    unsigned threads = 0;
    std::string ptx = gen.generate(threads);
    std::string contract = contractText(threads);
    if (printProgram)
      (llvm::outs() << "// seed " << seed << "\n" << ptx << contract << "\n").flush();
    ++st.programs;

    std::string diag;
    llvm::SourceMgr sm, cm;
    OwningOpRef<ModuleOp> module, cmod;
    {
      llvm::raw_string_ostream os(diag);
      SourceMgrDiagnosticHandler handler(sm, &context, os);
      sm.AddNewSourceBuffer(
          llvm::MemoryBuffer::getMemBufferCopy(ptx, "diff.ptx"), llvm::SMLoc());
      module = kproof::importPTX(sm, &context);
      if (module) {
        cm.AddNewSourceBuffer(
            llvm::MemoryBuffer::getMemBufferCopy(contract, "diff.mlir"),
            llvm::SMLoc());
        cmod = parseSourceFile<ModuleOp>(cm, &context);
      }
    }
    if (!module || !cmod) {
      ++st.importErrors;
      llvm::errs() << "seed " << seed
                   << ": the generated program does not import:\n"
                   << diag << ptx;
      continue;
    }
    kproof::ContractOp cop =
        *cmod->getOps<kproof::ContractOp>().begin();
    engine::TermContext T;
    std::optional<engine::BoundContract> bc;
    {
      llvm::raw_string_ostream os(diag);
      SourceMgrDiagnosticHandler handler(cm, &context, os);
      bc = engine::bindContract(*module, cop, T);
    }
    if (!bc) {
      ++st.importErrors;
      llvm::errs() << "seed " << seed << ": the contract does not bind:\n"
                   << diag;
      continue;
    }
    engine::Normalizer N(T);
    engine::ExecutionResult ex =
        engine::execute(bc->kernel, bc->launch, bc->buffers, bc->scalars, T, N);
    if (!ex.unknownReason.empty()) {
      ++st.unknown;
      // The instruction, by its opcode, for the tally.
      std::string op;
      FileLineColLoc fl;
      if (ex.unknownLoc)
        LocationAttr(*ex.unknownLoc).walk([&](Location l) {
          if (!fl)
            fl = dyn_cast<FileLineColLoc>(l);
          return WalkResult::advance();
        });
      if (fl) {
          llvm::SmallVector<llvm::StringRef> lines;
          llvm::StringRef(ptx).split(lines, '\n');
          if (fl.getLine() >= 1 && fl.getLine() <= lines.size()) {
            llvm::StringRef l = lines[fl.getLine() - 1].trim();
            if (l.starts_with("@"))
              l = l.split(' ').second.trim();
            op = l.split(' ').first.str() + ": ";
          }
      }
      ++st.unknownWhy[op + firstLine(ex.unknownReason)];
      continue;
    }

    Rng inputs(seed ^ 0xD1FF7E57ull);
    bool programCompared = false, programFailed = false;
    for (unsigned s = 0; s < samplesOpt && !programFailed; ++s) {
      interp::LaunchInputs in;
      unsigned n = threads * kPerThread;
      for (unsigned i = 0; i < n; ++i) {
        double f = niceFloat(inputs);
        std::optional<Rational> q =
            Rational::fromAPFloat(llvm::APFloat(float(f)));
        in.buffers["x"].push_back(interp::Scalar(*q));
        in.buffers["xi"].push_back(interp::Scalar(
            Rational::fromAPInt(llvm::APInt(32, niceInt(inputs)), true)));
      }
      std::string err;
      std::optional<engine::Assignment> a = interp::toAssignment(*bc, in, err);
      if (!a) {
        ++st.skipped["inputs not assignable: " + err];
        continue;
      }
      interp::RunOptions opts;
      opts.mode = interp::NumericMode::Exact;
      interp::RunResult run = interp::run(bc->kernel, bc->launch, bc->buffers,
                                          bc->names, in, opts);
      if (run.failed()) {
        ++st.interpErrors[firstLine(run.error)];
        continue;
      }
      if (!run.events.empty()) {
        ++st.skipped["interpreter event: " + firstLine(run.events[0].what)];
        continue;
      }

      for (unsigned t = 0; t < threads && !programFailed; ++t) {
        engine::Assignment at = *a;
        at.bitvectors["tid.x"] = llvm::APInt(32, t);
        engine::Evaluator ev(at);
        // The path this thread takes.
        const engine::PathResult *path = nullptr;
        bool undecided = false, twoPaths = false;
        for (const engine::PathResult &p : ex.paths) {
          engine::Truth tr = ev.boolean(p.pathCondition);
          if (tr == engine::Truth::Unknown)
            undecided = true;
          else if (tr == engine::Truth::True) {
            if (path)
              twoPaths = true;
            path = &p;
          }
        }
        auto report = [&](const std::string &what) {
          ++st.disagreements;
          programFailed = true;
          llvm::outs() << "DISAGREEMENT seed " << seed << " sample " << s
                       << " thread " << t << ": " << what << "\n";
          if (!keepDir.empty()) {
            llvm::sys::fs::create_directories(keepDir);
            std::string base = keepDir + "/diff-" + std::to_string(seed);
            std::error_code ec;
            llvm::raw_fd_ostream(base + ".ptx", ec) << ptx;
            llvm::raw_fd_ostream(base + ".mlir", ec) << contract;
            llvm::raw_fd_ostream(base + ".json", ec) << inputsJson(in);
          }
        };
        if (twoPaths) {
          report("two paths of the executor hold at this input");
          break;
        }
        if (!path) {
          ++st.skipped[undecided ? "a path condition is undecided at this "
                                   "precision"
                                 : "no path condition holds (evaluation: " +
                                       ev.getError() + ")"];
          if (!undecided)
            report("no path of the executor holds at this input: " +
                   ev.getError());
          break;
        }
        // Obligations that fail at this input: no value is defined.
        std::string domain;
        for (const engine::DivisorObligation &d : ex.divisors) {
          if (ev.boolean(d.pathCondition) == engine::Truth::False)
            continue;
          if (d.divisor->getSort() == engine::Sort::Real) {
            std::optional<engine::Interval> v = ev.real(d.divisor);
            if (!v || v->contains(0L))
              domain = d.what;
          } else if (d.divisor->getSort() == engine::Sort::BV) {
            std::optional<llvm::APInt> v = ev.bv(d.divisor);
            if (!v || v->isZero())
              domain = d.what;
          }
        }
        for (const engine::PathObligation &o : ex.alignments) {
          if (ev.boolean(o.pathCondition) == engine::Truth::False)
            continue;
          if (ev.boolean(o.condition) != engine::Truth::True)
            domain = o.what;
        }
        if (!domain.empty()) {
          ++st.skipped["engine obligation fails: " + firstLine(domain)];
          break;
        }
        if (!path->violations.empty()) {
          report("the executor reports a violation: " + path->violations[0]);
          break;
        }
        // The engine's stores of thread t, by (buffer, element).
        std::map<std::pair<std::string, uint64_t>, engine::Term> eng;
        for (auto &[buf, m] : path->stores)
          for (auto &[idx, fs] : m)
            eng[{buf, idx}] = fs.value;
        bool badIndex = false;
        for (const engine::SymbolicStore &ss : path->symbolicStores) {
          std::optional<llvm::APInt> i = ev.bv(ss.index);
          if (!i) {
            report("a store index does not evaluate: " + ev.getError());
            badIndex = true;
            break;
          }
          eng[{ss.buffer, i->getZExtValue()}] = ss.value;
        }
        if (badIndex)
          break;
        bool sampleUndecided = false;
        unsigned checked = 0;
        for (const char *buf : {"y", "yi"}) {
          const std::vector<interp::OutputElement> &out = run.buffers[buf];
          for (unsigned k = 0; k < kPerThread && !programFailed; ++k) {
            uint64_t idx = t * kPerThread + k;
            auto it = eng.find({buf, idx});
            const interp::OutputElement &e = out[idx];
            std::string where =
                std::string(buf) + "[" + std::to_string(idx) + "]";
            if ((it != eng.end()) != e.written) {
              report(where + ": written by " +
                     (e.written ? "the interpreter only"
                                : "the executor only"));
              break;
            }
            if (it == eng.end())
              continue;
            engine::Term v = it->second;
            if (std::string(buf) == "yi") {
              std::optional<llvm::APInt> bv = ev.bv(v);
              if (!bv) {
                // An integer computed from reals (cvt.rzi of a real) that
                // the enclosure cannot decide.
                ++st.skipped["an integer element is undecided: " +
                             firstLine(ev.getError())];
                sampleUndecided = true;
                continue;
              }
              uint32_t want = uint32_t(e.bits);
              if (bv->getZExtValue() != want) {
                llvm::SmallString<24> sv;
                bv->toStringUnsigned(sv, 16);
                char wb[16];
                snprintf(wb, sizeof(wb), "%x", want);
                report(where + ": executor 0x" + sv.str().str() +
                       ", interpreter 0x" + wb);
                break;
              }
              ++checked;
              continue;
            }
            std::optional<engine::Interval> iv = ev.real(v);
            if (!iv) {
              ++st.skipped["a real element does not evaluate: " +
                           firstLine(ev.getError())];
              sampleUndecided = true;
              continue;
            }
            mpfr_t k2, lo, hi, tol;
            mpfr_inits2(256, k2, lo, hi, tol, nullptr);
            bool ok = exactValue(e, k2);
            if (ok) {
              // tol = 2^-180 * (1 + |k2|)
              mpfr_abs(tol, k2, MPFR_RNDU);
              mpfr_add_ui(tol, tol, 1, MPFR_RNDU);
              mpfr_mul_2si(tol, tol, -180, MPFR_RNDU);
              mpfr_sub(lo, iv->lo(), tol, MPFR_RNDD);
              mpfr_add(hi, iv->hi(), tol, MPFR_RNDU);
              ok = mpfr_lessequal_p(lo, k2) && mpfr_lessequal_p(k2, hi);
            }
            if (!ok) {
              report(where + ": executor " + iv->toString(12) +
                     ", interpreter " +
                     (e.exact ? e.exact->toString(20) : std::string("none")));
            } else {
              ++checked;
            }
            mpfr_clears(k2, lo, hi, tol, nullptr);
          }
        }
        if (!programFailed && !sampleUndecided) {
          ++st.compared;
          programCompared = true;
        }
        st.elements += checked;
      }
    }
    if (programCompared)
      for (const std::string &name : gen.used)
        ++st.covered[name];
    if (programFailed && !keepDir.empty())
      llvm::outs() << "  kept in " << keepDir << "/diff-" << seed << ".*\n";
  }

  llvm::outs() << "programs " << st.programs << ", import errors "
               << st.importErrors << ", executor UNKNOWN " << st.unknown
               << ", thread samples compared " << st.compared
               << ", elements compared " << st.elements << ", disagreements "
               << st.disagreements << "\n";
  for (auto &[why, n] : st.unknownWhy)
    llvm::outs() << "  executor UNKNOWN (" << n << "): " << why << "\n";
  for (auto &[why, n] : st.interpErrors)
    llvm::outs() << "  interpreter error (" << n << "): " << why << "\n";
  for (auto &[why, n] : st.skipped)
    llvm::outs() << "  skipped (" << n << "): " << why << "\n";
  if (verbose) {
    std::vector<std::pair<std::string, unsigned>> cov;
    for (auto &e : st.covered)
      cov.push_back({e.getKey().str(), e.getValue()});
    std::sort(cov.begin(), cov.end());
    llvm::outs() << "instructions in compared programs (" << cov.size()
                 << "):\n";
    for (auto &[name, n] : cov)
      llvm::outs() << "  " << name << " " << n << "\n";
  }
  return st.disagreements || st.importErrors ? 1 : 0;
}
